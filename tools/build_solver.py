"""Compile the outlook's solver (app/advice/_recurrence.c) into a shared library, or say why not.

    python tools/build_solver.py [FOLDER]     # into FOLDER (app/advice, beside recurrence.py)

`make install`, `make test`, `make run` and `make dev` run it for the checkout; hatch_build.py
calls `build` for a wheel. The compiler is the one $CC names, else the one Python was built
with (sysconfig's CC), else `cc`. Where none is found, or it fails, this says so once and
builds nothing: recurrence.py then solves with numpy, or in plain Python (the same figures).

-ffp-contract=off keeps every multiply and add rounded apart, as Python's are (gcc fuses them
into one rounding by default, which changes the last bit); nothing like -ffast-math.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "app" / "advice" / "_recurrence.c"
LIBRARY = "_recurrence.so"   # the name recurrence.py loads (any platform's loader takes it)
FLAGS = ["-O2", "-ffp-contract=off", "-fPIC", "-shared"]


def compiler() -> list[str] | None:
    """The C compiler's command ($CC, else sysconfig's CC, else cc), or None if none is on PATH."""
    for named in (os.environ.get("CC"), sysconfig.get_config_var("CC"), "cc"):
        words = shlex.split(named or "")
        if words and shutil.which(words[0]):
            return words
    return None


def build(into: Path, say=print) -> Path | None:
    """The library compiled into folder `into`, or None (having said why) where it could not be."""
    command = compiler()
    target = into / LIBRARY
    if command is None:
        target.unlink(missing_ok=True)   # none of an older source left to load
        say("solver: no C compiler ($CC, sysconfig's CC or cc) on PATH: not built; the outlook "
            "solves with numpy, else in plain Python")
        return None
    into.mkdir(parents=True, exist_ok=True)
    partial = into / (LIBRARY + ".part")
    done = subprocess.run([*command, *FLAGS, "-o", str(partial), str(SOURCE)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        target.unlink(missing_ok=True)
        say(f"solver: {shlex.join(command)} failed: not built; the outlook solves with numpy, "
            f"else in plain Python\n{done.stderr.strip()}")
        return None
    partial.replace(target)
    return target


if __name__ == "__main__":
    built = build(Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE.parent)
    if built is not None:
        print(f"solver: {built}")
