"""Count the Fan (/practice) and its answer check: same seed same hand, missed and extra items."""
from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from app.hands.tiles import parse_tiles
from app.practice.answers import check_answer
from app.rules.loader import registry
from app.vocabulary import score as calculate
from app.vocabulary.practice import deal
from tests.html_tables import Page, payments

RULESETS = registry()
GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def golden(rules: str, case_id: str) -> tuple[dict[str, str], dict]:
    """A golden case's hand description (with its rules) and its expected result."""
    data = yaml.safe_load((GOLDEN / f"{rules}.yaml").read_text(encoding="utf-8"))
    case = next(c for c in data["cases"] if c["id"] == case_id)
    return {"rules": data["ruleset"], **{k: str(v) for k, v in case["params"].items()}}, case["expect"]


def dealt_tiles(text: str) -> list[str]:
    """The tiles the deal section shows, in order (their accessible names)."""
    section = text[text.index('<section class="deal"'):text.index("</section>", text.index('<section class="deal"'))]
    return re.findall(r'<img class="tile" src="/static/tiles/sprite\.svg\?v=[0-9a-f]+#t([a-z0-9]+)"',
                      section)


def marks(page: Page) -> dict[str, str]:
    """Pattern name → mark class of the marked breakdown."""
    rows = page.table("Fan breakdown")
    assert rows is not None
    return {cells[0].split(" ×")[0]: cls.removeprefix("mark-") for cls, cells in rows
            if cls.startswith("mark-")}


# --- the answer check in the core --------------------------------------------------------------


def test_the_check_marks_a_missed_item_and_an_extra_one():
    # seed 003 example 2: 混一色 3 + 對對糊 3 + 紅中 1 = 7 (HKMA: the discarder pays 192)
    params, expect = golden("hong-kong-course", "HKC-ex2-hkma")
    calc = calculate(params, RULESETS)
    v = check_answer(calc, 7, {"half-flush": 1, "all-pongs": 1, "full-flush": 1}, {"N": 192})
    assert v.fan_right and v.itemised
    assert [m.pattern.id for m in v.missed] == ["dragon-pong"]
    assert [m.pattern.id for m in v.extra] == ["full-flush"]
    assert {m.pattern.id: m.mark for m in v.marks}["half-flush"] == "counted"
    assert expect["payments"]["N"] == -192 and v.payments_right is True
    assert v.items_right is False and not v.correct, "a right total with wrong items is not right"
    every = check_answer(calc, 7, {pid: 1 for pid in expect["counted"]})
    assert every.items_right and every.correct and not every.missed and not every.extra


def test_an_item_inside_a_bigger_one_is_marked_extra_with_the_reason():
    # seed 001: little three dragons is 5 in total, "no +1 per dragon pung" (HK36-i3)
    params, expect = golden("hong-kong", "HK36-i3")
    calc = calculate(params, RULESETS)
    v = check_answer(calc, 7, {"small-three-dragons": 1, "dragon-pong": 2})
    assert not v.fan_right and v.total_fan == expect["total_fan"] == 5
    extra = {m.pattern.id: m for m in v.extra}
    assert set(extra) == {"dragon-pong"} and "included in Little three dragons" in extra["dragon-pong"].note
    assert set(expect["counted"]) == {"small-three-dragons"} and not v.missed


def test_a_per_item_pattern_counted_too_often_is_extra():
    # seed 004's points stack: 對對糊 3 + 混一色 3 + one dragon pong 1 + Zi-Mo 1 (FAM-stack)
    params, expect = golden("family", "FAM-stack")
    calc = calculate(params, RULESETS)
    v = check_answer(calc, expect["total_fan"], {"all-pongs": 1, "half-flush": 1,
                                                 "dragon-pong": 3, "self-draw": 1})
    assert v.fan_right
    assert [(m.pattern.id, m.mark) for m in v.marks if m.mark != "counted"] == [("dragon-pong", "extra")]


def test_a_paying_seat_may_be_typed_without_its_sign():
    params, expect = golden("hong-kong", "HK36-pay-1")   # 5 fan: W +128, D −64, others −32
    calc = calculate(params, RULESETS)
    right = check_answer(calc, 5, None, {"E": 128, "S": 64, "W": -32, "N": 32})
    assert right.payments_right is True and right.correct and not right.itemised
    wrong = check_answer(calc, 5, None, {"S": 32})
    assert wrong.payments_right is False and not wrong.correct
    assert [p.right for p in wrong.payments] == [None, False, None, None]


# --- the page ----------------------------------------------------------------------------------


def test_a_new_series_gets_a_seed_in_its_link(client):
    response = client.get("/practice", query_string={"rules": "sichuan", "level": "limit"})
    assert response.status_code == 302
    target = urlsplit(response.headers["Location"])
    query = parse_qs(target.query)
    assert target.path == "/practice" and query["rules"] == ["sichuan"] and query["n"] == ["1"]
    assert query["level"] == ["limit"] and re.fullmatch(r"[0-9a-f]{8}", query["seed"][0])
    assert client.get(response.headers["Location"]).status_code == 200


@pytest.mark.parametrize("path", ["/practice", "/practice/discard"])
def test_a_new_series_on_a_chinese_page_stays_in_chinese(client, path):
    response = client.get(path, query_string={"rules": "hong-kong", "lang": "zh-Hans"})
    assert response.status_code == 302
    assert parse_qs(urlsplit(response.headers["Location"]).query)["lang"] == ["zh-Hans"]


def test_the_win_context_and_the_verdict_are_said_in_chinese(client):
    text = client.get("/practice", query_string={"rules": "sichuan", "seed": "42", "n": "1",
                                                 "answer": "1", "fan": "2",
                                                 "lang": "zh-Hant"}).get_data(as_text=True)
    assert "<dt>定缺</dt><dd>萬子（手上沒有）</dd>" in text
    assert "不太對：你計了 2 番，這手牌值 5 番。" in text


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_the_same_seed_shows_the_same_hand(client, rid):
    query = {"rules": rid, "seed": "class-7", "n": "3", "level": "patterns"}
    first = client.get("/practice", query_string=query).get_data(as_text=True)
    again = client.get("/practice", query_string=query).get_data(as_text=True)
    assert dealt_tiles(first) == dealt_tiles(again) and len(dealt_tiles(first)) >= 14
    other = client.get("/practice", query_string={**query, "seed": "class-8"}).get_data(as_text=True)
    shown = [dealt_tiles(client.get("/practice", query_string={**query, "n": str(n)})
                         .get_data(as_text=True)) for n in range(1, 11)]
    assert len({tuple(s) for s in shown}) >= 8 and dealt_tiles(other) != dealt_tiles(first)


def test_the_page_shows_the_dealt_hand_with_its_win_context(client):
    d = deal(RULESETS["hong-kong"], "lesson", 2, "patterns")
    text = client.get("/practice", query_string={"rules": "hong-kong", "seed": "lesson", "n": "2",
                                                 "level": "patterns"}).get_data(as_text=True)
    shown = dealt_tiles(text)
    concealed = [t.code for t in parse_tiles(d.params["hand"])]
    assert sorted(shown[:len(concealed)]) == sorted(concealed)
    assert shown[len(concealed) - 1] == d.params["win"]
    assert "Won by" in text and "Seat" in text and "Round" in text
    page = Page(text)
    assert page.input(name="fan", type="number") is not None
    assert page.input(name="seed", type="hidden")["value"] == "lesson"
    assert page.table("Fan breakdown") is None, "nothing revealed before the answer"


def _truth(rid: str, seed: str, n: int, level: str):
    """The dealt hand's score, from the scorer, for the answer the test gives."""
    d = deal(RULESETS[rid], seed, n, level)
    return calculate(d.params, RULESETS)


def test_a_wrong_answer_marks_the_missed_and_the_extra_items(client):
    calc = _truth("hong-kong", "marks", 1, "patterns")
    counted = [i for i in calc.score.counted]
    assert len(counted) >= 2
    left_out = counted[0]
    present = {i.pattern.id for i in calc.score.items}
    stranger = next(p for p in RULESETS["hong-kong"].patterns
                    if p.id not in present and not p.optional and p.fan == 1)
    ticks = [i.pattern.id for i in counted[1:]] + [stranger.id]
    query = [("rules", "hong-kong"), ("seed", "marks"), ("n", "1"), ("level", "patterns"),
             ("answer", "1"), ("fan", str(calc.score.total_fan - left_out.fan)),
             ("score", "2/3")] + [("ticks", t) for t in ticks]
    query += [(f"n.{i.pattern.id}", str(i.count)) for i in counted[1:] if i.count > 1]
    response = client.get("/practice", query_string=query)
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    page = Page(text)
    got = marks(page)
    assert got[left_out.pattern.name.en] == "missed"
    assert got[stranger.name.en] == "extra"
    assert all(got[i.pattern.name.en] == "counted" for i in counted[1:])
    assert "Not quite" in text and "Missed: " + left_out.pattern.name.en in text
    assert payments(page) == {p.seat: Fraction(p.amount) for p in calc.payments}
    next_link = next(a["href"] for a in page.links if "next" in a.get("class", "").split())
    query = parse_qs(urlsplit(next_link).query)
    assert query["n"] == ["2"] and query["seed"] == ["marks"] and query["score"] == ["2/4"]


def test_a_right_answer_adds_to_the_running_score(client):
    calc = _truth("sichuan", "score", 4, "limit")
    response = client.get("/practice", query_string={
        "rules": "sichuan", "seed": "score", "n": "4", "level": "limit", "answer": "1",
        "fan": str(calc.score.total_fan), "score": "3/5"})
    text = response.get_data(as_text=True)
    assert "Right:" in text and "4 / 6" in text
    page = Page(text)
    next_link = next(a["href"] for a in page.links if "next" in a.get("class", "").split())
    assert parse_qs(urlsplit(next_link).query)["score"] == ["4/6"]
    # the form keeps the score from before this answer: checking again does not count twice
    assert page.input(name="score", type="hidden")["value"] == "3/5"


def test_payments_typed_by_the_player_are_checked(client):
    calc = _truth("family", "pay", 1, "plain")
    winner = next(p for p in calc.payments if p.role == "winner")
    payer = next(p for p in calc.payments if p.role != "winner")
    response = client.get("/practice", query_string={
        "rules": "family", "seed": "pay", "n": "1", "level": "plain", "answer": "1",
        "fan": str(calc.score.total_fan), f"pay.{winner.seat}": str(winner.amount),
        f"pay.{payer.seat}": str(abs(payer.amount) + 1)})
    rows = Page(response.get_data(as_text=True)).table("Your payments")
    checks = {cells[0]: cells[3] for _, cells in rows[1:]}
    assert checks[winner.seat] == "right ✓" and checks[payer.seat] == "wrong ✗"
    assert "right, but not every payment" in response.get_data(as_text=True)


def test_an_answer_without_a_count_asks_for_one(client):
    response = client.get("/practice", query_string={"rules": "hong-kong", "seed": "a", "n": "1",
                                                     "answer": "1", "fan": ""})
    page = Page(response.get_data(as_text=True))
    assert response.status_code == 200 and "fan" in page.errors
    assert page.table("Fan breakdown") is None


def test_ticks_alone_count_as_their_sum(client):
    calc = _truth("hong-kong", "sum", 1, "patterns")
    ticks = [i.pattern.id for i in calc.score.counted if i.count == 1]
    response = client.get("/practice", query_string=[
        ("rules", "hong-kong"), ("seed", "sum"), ("n", "1"), ("level", "patterns"),
        ("answer", "1")] + [("ticks", t) for t in ticks])
    assert "Fan breakdown" in response.get_data(as_text=True)


@pytest.mark.parametrize("query, message", [
    ({"rules": "nope", "seed": "a"}, "unknown ruleset"),
    ({"level": "expert", "seed": "a"}, "unknown level"),
    ({"seed": "<script>"}, "is not a series name"),
    ({"seed": "a", "n": "0"}, "is not a hand of the series"),
    ({"seed": "a", "n": "1001"}, "is not a hand of the series"),
    ({"seed": "a", "n": "²"}, "is not a hand of the series"),
])
def test_a_bad_series_answers_400_with_the_reason(client, query, message):
    response = client.get("/practice", query_string=query)
    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert message in text and "<script>" not in text


@pytest.mark.parametrize("name, value", [
    ("fan", "9" * 4000), ("fan", "٣"), ("fan", "-1"), ("ticks", "*"), ("ticks", "nope*9"),
    ("ticks", "dragon-pong*99"), ("n.dragon-pong", "²"), ("pay.E", "1/0"), ("pay.S", "nan"),
    ("pay.W", "9" * 30), ("score", "5/3"), ("score", "x"), ("embed", "💀"), ("answer", ""),
])
def test_an_odd_answer_never_breaks_the_page(client, name, value):
    response = client.get("/practice", query_string={"rules": "hong-kong", "seed": "odd", "n": "1",
                                                     "answer": "1", "fan": "3", name: value})
    assert response.status_code in (200, 400, 414)
    assert "Set-Cookie" not in response.headers


def test_the_embedded_practice_keeps_the_embed_view_in_its_links(client):
    response = client.get("/practice", query_string={"rules": "hong-kong", "seed": "e", "n": "1",
                                                     "embed": "1", "answer": "1", "fan": "0"})
    text = response.get_data(as_text=True)
    assert '<header class="site"' not in text
    page = Page(text)
    next_link = next(a["href"] for a in page.links if "next" in a.get("class", "").split())
    assert "embed=1" in next_link


@pytest.mark.parametrize("url, name", [
    ("/practice/discard?rules=hong-kong&hand=123m456m789m5s6s&melds=ckong:5555z&lang=zh-Hant", "暗槓 白"),
    ("/practice?rules=hong-kong&seed=29&n=1&lang=zh-Hant", "暗槓 九索"),   # this seed deals one
])
def test_a_dealt_concealed_kong_is_drawn_face_down_and_named_concealed(client, url, name):
    """As players lay it: the two middle tiles face down, the meld named 暗槓 with its tile."""
    page = client.get(url).get_data(as_text=True)
    assert f'aria-label="{name}"' in page
    assert page.count('class="tile face-down"') == 2
