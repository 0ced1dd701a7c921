"""Shared fixtures: the test data shipped in tests/data/ (corpus, seed tables)."""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"


def load_corpus(name: str, folder: Path = DATA / "corpus") -> list[dict]:
    """Read one corpus file's hands (tests/data/corpus/, made by tests/data/make_corpus.py)."""
    return json.loads((folder / name).read_text(encoding="utf-8"))["hands"]
