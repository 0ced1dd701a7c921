"""The recorded answers (tests/snapshots/responses.json) still come out byte for byte: pages in
three languages, both modes, errors, the API and the round ledger. After an intended change to
what a page or the API says, re-record with `python tests/snapshots/responses.py record`."""
from __future__ import annotations

import json

from tests.snapshots.responses import STORE, differences


def test_enough_addresses_are_recorded():
    stored = json.loads(STORE.read_text(encoding="utf-8"))
    api = [s for s in stored if s["url"].startswith("/api/")]
    assert len(stored) - len(api) >= 150 and len(api) >= 150
    assert {s["url"].partition("?")[0] for s in stored} >= {
        "/", "/ticks", "/embed", "/card", "/round", "/sheet", "/practice", "/points",
        "/discard", "/rules/", "/api/score", "/api/waits", "/api/discard", "/api/settle"}


def test_every_recorded_answer_is_byte_identical():
    assert differences() == []
