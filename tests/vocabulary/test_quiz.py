"""Teacher-made quizzes: /practice?hands=… runs exactly the teacher's hands, in order."""
from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from app.base.errors import HandError
from app.rules.loader import registry
from app.vocabulary.quiz import format_line, read_line, split_lines

ALL_CHOWS = "123m456m789m234p55s by=self-draw seat=S"
PONGS = "hand=111m222p333s444z55z"
LINES = [ALL_CHOWS, PONGS]


def _quiz(client, *, lines=LINES, path="/practice", **extra):
    query = [("rules", "hong-kong"), *[("hands", ln) for ln in lines], *extra.items()]
    return client.get(path + "?" + urlencode(query))


def _text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def _api_fan(client, line: str) -> int:
    return client.get("/api/score", query_string={"rules": "hong-kong", **read_line(line, 1)}
                      ).get_json()["total_fan"]


def _verdict(text: str) -> str:
    found = re.search(r'id="verdict-heading">(.*?)</h2>', text, re.S)
    return " ".join(found[1].split()) if found else ""


def _next(text: str) -> str | None:
    found = re.search(r'class="next primary-link" href="([^"]+)"', text)
    return found[1] if found else None


def test_a_line_is_words_of_the_hand_description_with_the_tiles_first_or_named():
    assert read_line("123m456m789m234p55s by=self-draw&seat=S", 1) == {
        "hand": "123m456m789m234p55s", "by": "self-draw", "seat": "S"}
    assert read_line(format_line({"hand": "111m222p333s444z55z", "min": "1"}), 1) == {
        "hand": "111m222p333s444z55z", "min": "1"}
    assert split_lines(["a\n\n# note\nb", "c"]) == ["a", "b", "c"]


@pytest.mark.parametrize("line, words", [
    ("by=self-draw", "no tiles"),
    ("123m456m789m234p55s rules=sichuan", "'rules' is not part of a hand"),
    ("123m456m789m234p55s self-draw", "'self-draw' is not name=value"),
])
def test_a_bad_line_is_refused_naming_its_hand(line, words):
    with pytest.raises(HandError) as err:
        read_line(line, 3)
    assert err.value.errors[0].field == "hands"
    assert err.value.errors[0].message.startswith("hand 3: ") and words in err.value.errors[0].message


def test_the_quiz_deals_the_teachers_hands_in_order(client):
    for n, line in enumerate(LINES, 1):
        text = _text(_quiz(client, n=str(n)))
        assert f"Hand {n} <small>of 2</small>" in text
        tiles = read_line(line, n)["hand"]
        calc = client.get("/api/score", query_string={"rules": "hong-kong", "hand": tiles}
                          ).get_json()
        assert calc["valid"]
        shown = re.findall(r'aria-label="Concealed tiles">(.*?)</span>', text, re.S)[0]
        assert shown.count("<img") == len(re.findall(r"[0-9]", tiles)) - 1   # less the winning tile


def test_the_right_total_scores_and_the_next_link_carries_the_score(client):
    fan = _api_fan(client, ALL_CHOWS)
    text = _text(_quiz(client, n="1", answer="1", fan=str(fan)))
    assert _verdict(text) == f"Right. The hand is worth {fan} fan."
    nxt = urlsplit(_next(text))
    assert parse_qs(nxt.query)["n"] == ["2"] and parse_qs(nxt.query)["score"] == ["1/1"]
    assert parse_qs(nxt.query)["hands"] == LINES
    last = _text(_quiz(client, n="2", score="1/1", answer="1", fan="0"))
    assert _verdict(last).startswith("Not quite. The hand is worth")
    assert "That was the last hand: 1 of 2 right." in _verdict(last)
    assert _next(last) is None


def test_reveal_never_keeps_the_answer_back(client):
    fan = _api_fan(client, ALL_CHOWS)
    text = _text(_quiz(client, n="1", answer="1", fan=str(fan + 1), reveal="never"))
    assert _verdict(text) == "Not quite."
    assert "Fan breakdown" not in text and "Who pays whom" not in text
    assert "Open it in the calculator" not in text


def test_ask_breakdown_wants_the_items_and_marks_them(client):
    form = _text(_quiz(client, n="1", ask="breakdown"))
    assert 'name="ticks"' in form and 'id="answer-fan"' not in form
    missing = _text(_quiz(client, n="1", ask="breakdown", answer="1"))
    assert "tick every item that counts in this hand" in missing
    want = client.get("/api/score", query_string={"rules": "hong-kong",
                                                  **read_line(ALL_CHOWS, 1)}).get_json()
    counted = [("ticks", p["id"]) for p in want["patterns"] if p["counted"]]
    query = [("rules", "hong-kong"), *[("hands", ln) for ln in LINES], ("ask", "breakdown"),
             ("n", "1"), ("answer", "1"), *counted]
    right = _text(client.get("/practice?" + urlencode(query)))
    assert _verdict(right) == "Right."
    wrong = _text(client.get("/practice?" + urlencode(query[:-1])))
    assert _verdict(wrong) == "Not quite. Missed 1"


def test_ask_payments_wants_every_seat(client):
    want = client.get("/api/score", query_string={"rules": "hong-kong",
                                                  **read_line(ALL_CHOWS, 1)}).get_json()
    form = _text(_quiz(client, n="1", ask="payments"))
    assert 'name="pay.E"' in form and 'id="answer-fan"' not in form
    some = _text(_quiz(client, n="1", ask="payments", answer="1", **{"pay.E": "1"}))
    assert "give what this seat gains" in some and _verdict(some) == ""
    paid = {f"pay.{p['seat']}": str(p["amount"]) for p in want["payments"]}
    assert _verdict(_text(_quiz(client, n="1", ask="payments", answer="1", **paid))) == "Right."
    paid["pay.E"] = str(float(paid["pay.E"]) + 1)
    assert _verdict(_text(_quiz(client, n="1", ask="payments", answer="1", **paid))) == "Not quite."


@pytest.mark.parametrize("extra, words", [
    ({"ask": "colour"}, "ask='colour' is not a question"),
    ({"reveal": "sometimes"}, "reveal='sometimes'"),
    ({"n": "9"}, "is not a hand of this quiz: give n from 1 to 2"),
])
def test_bad_quiz_settings_answer_400_naming_the_problem(client, extra, words):
    response = _quiz(client, **extra)
    assert response.status_code == 400 and words in _text(response)


def test_a_hand_that_cannot_be_scored_answers_400_naming_its_line(client):
    response = _quiz(client, lines=[ALL_CHOWS, "123m456m789m234p5s9z"], n="2")
    assert response.status_code == 400
    assert "hand 2: hand:" in _text(response)


def test_the_quiz_is_embeddable_and_stays_embedded(client):
    fan = _api_fan(client, ALL_CHOWS)
    text = _text(_quiz(client, path="/embed/practice", n="1", answer="1", fan=str(fan)))
    assert '<header class="site"' not in text
    assert _next(text).startswith("/embed/practice?")
    assert '<input type="hidden" name="embed" value="1">' in text


@pytest.mark.parametrize("rid", sorted(registry()))
def test_quiz_me_on_these_asks_the_rules_pages_worked_examples_with_their_golden_totals(client, rid):
    text = client.get(f"/rules/{rid}").get_data(as_text=True)
    link = re.search(r'<a href="([^"]+)">Quiz me on these</a>', text)
    assert link is not None
    query = parse_qs(urlsplit(html.unescape(link[1])).query)
    examples = [ex for ex in registry()[rid].examples if "hand" in ex.params]
    by_line = {format_line(ex.params): ex for ex in examples}
    assert query["hands"] and set(query["hands"]) <= set(by_line)
    for n, line in enumerate(query["hands"], 1):
        ex = by_line[line]
        if ex.total_fan is None:
            continue
        answered = _text(client.get(html.unescape(link[1]) + f"&n={n}&answer=1&fan={ex.total_fan}"))
        assert _verdict(answered).startswith("Right."), (rid, ex.id)
