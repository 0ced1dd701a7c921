"""Command line: `python -m app run` says how to start the calculator; `python -m app score k=v …` prices a hand.

    python -m app score rules=hong-kong-course hand=123m456m789m234p55s by=self-draw seat=S
"""
from __future__ import annotations

import sys

from .errors import HandError, RulesetError


def main(argv: list[str]) -> int:
    """Dispatch a command-line call."""
    command = argv[0] if argv else "run"
    if command == "run":
        print("Start the web calculator with `make run` (gunicorn, http://localhost:8000)"
              " or `make dev` (Flask's reloading development server).\n"
              "Price a hand here with"
              " `python -m app score rules=sichuan hand=123p345p567p789p99p by=self-draw`.")
        return 0
    if command == "score":
        return score_command(argv[1:])
    print(f"unknown command {command!r}; try: run, score", file=sys.stderr)
    return 2


def score_command(args: list[str]) -> int:
    """Print the breakdown and payments of a hand description given as key=value words."""
    from .report import render
    from .request import calculate

    params: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep:
            print(f"'{arg}' is not key=value (e.g. hand=123m456m789m234p55s)", file=sys.stderr)
            return 2
        params[key] = value
    try:
        print(render(calculate(params)))
    except HandError as err:
        for e in err.errors:
            print(f"{e.field}: {e.message}", file=sys.stderr)
        return 1
    except RulesetError as err:
        print(err, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
