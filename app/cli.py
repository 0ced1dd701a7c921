"""The command line, `mahjong-calculator` (also `python -m app`): serve, score, check-rules.

    mahjong-calculator serve                       # the production server (gunicorn)
    mahjong-calculator score rules=hong-kong hand=123m456m789m234p55s by=self-draw seat=S
    mahjong-calculator check-rules our-house.yaml  # "ok", or every problem by file and key
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from app.base.errors import HandError, RulesetError

USAGE = """usage: mahjong-calculator COMMAND …

  serve                      start the calculator on gunicorn (HOST, PORT, WEB_CONCURRENCY)
  score key=value …          price a hand, e.g. score rules=sichuan hand=123p345p567p789p99p by=self-draw
  check-rules FILE …         check ruleset files: prints "ok" or each problem

Rulesets come from MAHJONG_RULESET_DIR when it is set, else the shipped ones."""


def main(argv: list[str] | None = None) -> int:
    """Dispatch a command-line call; the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    command, args = (argv[0], argv[1:]) if argv else ("help", [])
    commands = {"serve": serve_command, "score": score_command, "check-rules": check_command}
    if command in ("help", "-h", "--help"):
        print(USAGE)
        return 0
    if command not in commands:
        print(f"unknown command {command!r}\n\n{USAGE}", file=sys.stderr)
        return 2
    return commands[command](args)


def serve_command(args: list[str]) -> int:
    """Replace this process with gunicorn serving the calculator (never debug, never reload)."""
    if args:
        print("serve takes no arguments: set HOST, PORT and WEB_CONCURRENCY", file=sys.stderr)
        return 2
    import importlib.util
    if importlib.util.find_spec("gunicorn") is None:   # installed without its dependencies
        print("serve needs gunicorn, one of the calculator's dependencies: pip install "
              "mahjong-scoring-calculator without --no-deps (make run installs it)", file=sys.stderr)
        return 2
    env = {k: v for k, v in os.environ.items() if k != "FLASK_DEBUG"}   # left over in a shell
    os.execve(sys.executable, [sys.executable, "-m", "gunicorn", "--config",
                               "python:app.web.serving.server", "app.web:create_app()"], env)
    return 1   # not reached


def score_command(args: list[str]) -> int:
    """Print the breakdown and payments of a hand description given as key=value words."""
    from app.base.resources import ruleset_dir
    from app.rules.loader import load_all
    from app.scoring.report import render
    from app.vocabulary import score

    params: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep:
            print(f"'{arg}' is not key=value (e.g. hand=123m456m789m234p55s)", file=sys.stderr)
            return 2
        params[key] = value
    try:
        print(render(score(params, load_all(ruleset_dir()))))
    except HandError as err:
        for e in err.errors:
            print(f"{e.field}: {e.message}", file=sys.stderr)
        return 1
    except RulesetError as err:
        print(err, file=sys.stderr)
        return 1
    return 0


def check_command(args: list[str]) -> int:
    """Load each ruleset file as the app would; "ok" for each good one, else its problem."""
    from app.rules.loader import load_ruleset

    if not args:
        print("check-rules needs at least one ruleset file", file=sys.stderr)
        return 2
    failed = False
    for name in args:
        path = Path(name)
        if not path.is_file():
            print(f"{name}: no such file", file=sys.stderr)
            failed = True
            continue
        try:
            ruleset = load_ruleset(path)
        except RulesetError as err:
            print(err, file=sys.stderr)
            failed = True
        else:
            print(f"{name}: ok ({ruleset.id}: {len(ruleset.patterns)} patterns)")
    return 1 if failed else 0
