"""Shared fixtures: where the read-only shared/ folder (seeds, corpus) lives."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("MAHJONG_SHARED", ROOT.parent / "shared"))


def load_corpus(name: str) -> list[dict]:
    """Read one corpus file's hands."""
    path = SHARED / "corpus" / name
    if not path.exists():
        pytest.fail(f"corpus file {path} is missing: ../shared must sit beside the repository")
    return json.loads(path.read_text())["hands"]
