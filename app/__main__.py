"""Command line: `python -m app run` starts the calculator; more commands arrive with the engine."""
from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    """Dispatch a command-line call."""
    command = argv[0] if argv else "run"
    if command == "run":
        print("The web calculator arrives with the web issue; the hand-analysis core is"
              " installed and tested (make test).")
        return 0
    print(f"unknown command {command!r}; try: run", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
