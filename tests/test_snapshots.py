"""The recorded answers (tests/snapshots/responses.json, their texts in bodies.json.xz) still
come out byte for byte: pages in three languages, both modes, errors, the API and the round
ledger; a changed answer is shown as a diff against its recorded text. After an intended
change to what a page or the API says, re-record with
`python tests/snapshots/responses.py record`."""
from __future__ import annotations

import json

from tests.snapshots.responses import STORE, check_store, diff, differences


def test_enough_addresses_are_recorded():
    stored = json.loads(STORE.read_text(encoding="utf-8"))
    api = [s for s in stored if s["url"].startswith("/api/")]
    assert len(stored) - len(api) >= 150 and len(api) >= 150
    assert {s["url"].partition("?")[0] for s in stored} >= {
        "/", "/ticks", "/embed", "/card", "/round", "/sheet", "/practice", "/points",
        "/discard", "/rules/", "/api/score", "/api/waits", "/api/discard", "/api/settle"}


def test_every_recorded_answer_has_its_text_and_every_text_its_digest():
    assert check_store() == []


def test_a_changed_answer_is_shown_as_a_short_diff_of_its_text():
    page = b'<html>\n<head><script src="/static/app.js?v=1"></script></head>\n<body>' + b"<p>x</p>" * 50 + b"</body>\n</html>\n"
    shown = diff(page, page.replace(b"v=1", b"v=2"), "text/html; charset=utf-8")
    assert '-<head><script src="/static/app.js?v=1"></script></head>' in shown
    assert '+<head><script src="/static/app.js?v=2"></script></head>' in shown
    assert len(shown) < 12   # the long body line is cut at its tags, only the change is shown
    answer = json.dumps({"total_fan": 3, "payments": [{"seat": "S", "amount": 8}]}).encode()
    shown = diff(answer, answer.replace(b"8", b"16"), "application/json")
    assert [line for line in shown if line[:1] in "+-" and line[1:2] != line[:1]] == [
        '-   "amount": 8', '+   "amount": 16']   # indented, one line a value
    # bytes that differ where the readable form does not: the first byte that differs
    assert diff(b'{"a": 1}', b'{"a":1}', "application/json") == [
        "first differing byte at 5: b'{\"a\": 1}' -> b'{\"a\":1}'"]


def test_every_recorded_answer_is_byte_identical():
    found = differences()
    assert not found, "\n".join(found)
