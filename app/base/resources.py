"""Where the shipped folders (rulesets, templates, static) are, installed or in a checkout.

A wheel carries them inside the package (`app/rulesets/`, …: pyproject.toml maps the top-level
folders there at build time); a checkout or an editable install keeps them at the top level.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]   # app/: its code and its translations
CHECKOUT = PACKAGE.parent


def folder(name: str) -> Path:
    """The shipped folder `name`: the package's own copy when installed, else the checkout's."""
    packaged = Path(str(files("app").joinpath(name)))
    return packaged if packaged.is_dir() else CHECKOUT / name


def ruleset_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The folder rulesets are read from: MAHJONG_RULESET_DIR, else the shipped rulesets."""
    chosen = environ.get("MAHJONG_RULESET_DIR")
    return Path(chosen) if chosen else folder("rulesets")
