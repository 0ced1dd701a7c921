"""A table of bad inputs, each with the message it must get: through the JSON API, the
calculator page (the message beside the form) and the settlement API.

A bad request is answered 400 (JSON) or with the page and its messages, never a 5xx.
"""
from __future__ import annotations

import html
import json
from urllib.parse import urlencode

import pytest

from tests.apps import shared_app

HAND = "123m456m789m234p55s"          # all chows, 14 tiles
READY = "123m456m789m234p5s"          # 13 tiles waiting on 5s
SC = "123m456m789m234m55m"            # a Sichuan hand of one suit

APP = shared_app()
HAS_SETTLE = any(r.rule == "/api/settle" for r in APP.url_map.iter_rules())


# (case id, endpoint, query, field, expected message: a part of it)
BAD = [
    # unknown tile codes
    ("suit-letter", "score", {"hand": "123m456m789m234p5x"}, "hand",
     "'5' is followed by 'x', not a suit letter (m, p, s or z)"),
    ("zero", "score", {"hand": "123m456m789m234p50s"}, "hand", "'0s' is not a tile here (no red fives)"),
    ("honour-8z", "score", {"hand": "8z3m456m789m234p55s"}, "hand", "'8z' is not a tile: honours are 1z-7z"),
    ("bonus-fl5", "score", {"hand": "fl5"}, "hand", "'fl5' is not a tile: bonus tiles are numbered 1-4"),
    ("bonus-in-hand", "score", {"hand": "123m456m789m234p5s fl1"}, "hand", "fl1 is a bonus tile"),
    ("no-suit", "score", {"hand": "1234567890"}, "hand", "at the end has no suit letter"),
    ("markup", "score", {"hand": "<script>alert(1)</script>"}, "hand", "unexpected character '<'"),
    ("win-not-a-tile", "score", {"hand": HAND, "win": "5x"}, "win", "not a suit letter"),
    # fifth copies
    ("five-in-hand", "score", {"hand": "11111m456m789m55s"}, "hand",
     "5 copies of 1m (in the hand); a set has only four"),
    ("five-with-melds", "score", {"hand": "1m456m789m55s", "melds": "1111m"}, "hand",
     "5 copies of 1m (hand and melds together); a set has only four"),
    # wrong counts
    ("13-to-score", "score", {"hand": READY}, "hand", "13 tiles in the hand; a winning hand needs 14"),
    ("15-to-score", "score", {"hand": HAND + "1z"}, "hand", "a winning hand needs 14"),
    ("14-to-waits", "waits", {"hand": HAND}, "hand", "14 tiles in the hand; a hand waiting to win needs 13"),
    ("count-with-melds", "score", {"hand": "123m55s", "melds": "456m,789m"}, "hand",
     "with these melds, type 8 concealed tiles"),
    ("five-melds", "score", {"hand": "55s", "melds": "123m,456m,789m,234p,111z"}, "melds",
     "5 melds given; a hand has at most 4"),
    ("no-hand", "score", {}, "hand", "no tiles given"),
    # wrong meld shapes
    ("two-tiles", "score", {"hand": HAND, "melds": "12m"}, "melds", "'12m' is not a meld: a meld has three tiles"),
    ("gap-chow", "score", {"hand": HAND, "melds": "135m"}, "melds", "a chow needs three consecutive tiles"),
    ("honour-chow", "score", {"hand": HAND, "melds": "123z"}, "melds", "a chow cannot be made of honours"),
    ("mixed-suits", "score", {"hand": HAND, "melds": "12m3p"}, "melds", "a chow needs three tiles of one suit"),
    ("four-unlike", "score", {"hand": HAND, "melds": "1234m"}, "melds",
     "four tiles make a kong only when all four are alike"),
    ("three-tile-kong", "score", {"hand": HAND, "melds": "kong:555m"}, "melds",
     "'kong:555m' has three tiles: a kong needs four alike"),
    ("chow-of-three-alike", "score", {"hand": HAND, "melds": "chow:555m"}, "melds",
     "that is a pong, not a chow"),
    ("pong-of-four", "score", {"hand": HAND, "melds": "pong:1111m"}, "melds",
     "write it as kong:, ckong: or akong:"),
    ("bonus-meld", "score", {"hand": HAND, "melds": "fl1 fl2 fl3"}, "melds", ""),
    # the winning tile missing or not one tile
    ("win-not-held", "score", {"hand": HAND, "win": "9p"}, "win", "9p is not in the hand"),
    ("win-two-tiles", "score", {"hand": HAND, "win": "12m"}, "win", "'12m' is 2 tiles; give the one winning tile"),
    # contradictory events and table (named as the family names them, issue 12)
    ("replacement-on-discard", "score", {"hand": HAND, "events": "kong-replacement"}, "events",
     "槓上開花 (Won on a kong replacement tile) needs a self-draw win, not a discard"),
    ("replacement-no-kong", "score", {"hand": HAND, "by": "self-draw", "events": "kong-replacement"},
     "events", "槓上開花 (Won on a kong replacement tile) needs 1 declared kong; the melds have 0"),
    ("heavenly-not-dealer", "score", {"hand": HAND, "by": "self-draw", "seat": "S",
                                      "events": "heavenly-hand"}, "events",
     "天糊 (Dealer's dealt hand wins) is the dealer's (East seat) win; seat is S"),
    ("earthly-dealer", "score", {"hand": HAND, "events": "earthly-hand"}, "events",
     "地糊 (Won on the dealer's first discard) is a non-dealer's win; seat is E, the dealer"),
    ("flower-replacement-no-flower", "score", {"hand": HAND, "by": "self-draw",
                                               "events": "flower-replacement"}, "events",
     "花上自摸 (Won on a flower or season replacement tile) needs a flower or season drawn;"
     " none are listed"),
    ("robbing-self-draw", "score", {"hand": HAND, "by": "self-draw", "events": "robbing-the-kong"},
     "events", "搶槓 (Robbed an added kong) needs a discard win, not a self-draw"),
    ("event-twice", "score", {"hand": HAND, "events": "last-tile,last-tile"}, "events",
     "an event is listed twice"),
    ("unknown-event", "score", {"hand": HAND, "events": "fishing"}, "events", "unknown event fishing"),
    ("self-draw-discarder", "score", {"hand": HAND, "by": "self-draw", "discarder": "S"}, "discarder",
     "a self-drawn win has no discarder"),
    ("own-discard", "score", {"hand": HAND, "discarder": "E"}, "discarder",
     "the winner cannot win on their own discard"),
    ("winner-not-seat", "score", {"hand": HAND, "seat": "S", "winner": "W"}, "winner",
     "winner W and seat S disagree"),
    ("winner-already-won", "score", {"hand": HAND, "won": "E"}, "won", "E is the winner of this hand"),
    ("three-won", "score", {"rules": "sichuan", "hand": SC, "seat": "E", "discarder": "S",
                            "won": "W,N,S"}, "won", "discarded the winning tile"),
    ("liable-no-rule", "score", {"rules": "sichuan", "hand": SC, "liable": "S"}, "liable",
     "has no liability rule"),
    ("eight-flowers-on-a-discard", "score", {"rules": "family", "hand": HAND, "flowers": "1234",
                                             "seasons": "1234", "discarder": "S"}, "by",
     "All 8 flowers 大花糊 wins the moment it is held, as a self-draw win; a hand holding it"
     " cannot be a discard win"),
    # honours, flowers and events in a ruleset without them
    ("honours-in-sichuan", "score", {"rules": "sichuan", "hand": "123m456m789m234m55z"}, "hand",
     "Sichuan blood battle is played without honours"),
    ("flowers-in-sichuan", "score", {"rules": "sichuan", "hand": SC, "flowers": "1"}, "flowers",
     "Sichuan blood battle is played without flowers and seasons"),
    ("missing-in-hong-kong", "score", {"hand": HAND, "missing": "p"}, "missing",
     "Hong Kong 36 hands has no declared missing suit"),
    # tiles of the declared missing suit
    ("holds-missing-suit", "score", {"rules": "sichuan", "hand": "123m456m789p234p55m", "missing": "p"},
     "hand", "holds its declared missing suit"),
    ("missing-not-a-suit", "score", {"rules": "sichuan", "hand": SC, "missing": "z"}, "missing",
     "'z' is not a suit; the missing suit is m, p or s"),
    # dials: cap below minimum, ranges, stakes
    ("cap-below-min", "score", {"hand": HAND, "min": "5", "cap": "3"}, "cap", "the cap 3 is below the minimum 5"),
    ("min-out-of-range", "score", {"hand": HAND, "min": "99"}, "min", "99 is outside"),
    ("cap-out-of-range", "score", {"hand": HAND, "cap": "99"}, "cap", "99 is outside 1-13"),
    ("cap-none-refused", "score", {"hand": HAND, "cap": "none"}, "cap", "always has a cap"),
    ("cap-negative", "score", {"hand": HAND, "cap": "-3"}, "cap", "'-3' is not a whole number of fan"),
    ("stake-negative", "score", {"hand": HAND, "stake": "-1"}, "stake", "'-1' is not a stake"),
    ("stake-zero", "score", {"hand": HAND, "stake": "0"}, "stake", "'0' is not a stake"),
    ("stake-absurd", "score", {"hand": HAND, "stake": "2000000"}, "stake",
     "give a positive number up to 1000000"),
    ("stake-huge-exponent", "score", {"hand": HAND, "stake": "1e400"}, "stake", "'1e400' is not a stake"),
    ("stake-divide-by-zero", "score", {"hand": HAND, "stake": "1/0"}, "stake", "'1/0' is not a stake"),
    ("stake-nan", "score", {"hand": HAND, "stake": "nan"}, "stake", "'nan' is not a stake"),
    ("stake-inf", "score", {"hand": HAND, "stake": "inf"}, "stake", "'inf' is not a stake"),
    ("fan-absurd", "score", {"fan": "10001"}, "fan", "'10001' is not a whole number of fan"),
    ("fan-huge", "score", {"fan": "9" * 400}, "fan", "is not a whole number of fan"),
    ("tick-count-absurd", "score", {"ticks": "dragon-pong*99"}, "ticks", "takes a count from 1 to"),
    # unknown ruleset, pattern and dial ids
    ("unknown-ruleset", "score", {"rules": "nope", "hand": HAND}, "rules", "unknown ruleset 'nope'"),
    ("ruleset-path", "score", {"rules": "../../etc/passwd", "hand": HAND}, "rules",
     "unknown ruleset '../../etc/passwd'"),
    ("ruleset-file-name", "score", {"rules": "sichuan.yaml", "hand": HAND}, "rules",
     "unknown ruleset 'sichuan.yaml'"),
    ("unknown-pattern", "score", {"ticks": "nothing-at-all"}, "ticks", "unknown pattern 'nothing-at-all'"),
    ("unknown-curve", "score", {"hand": HAND, "curve": "mild"}, "curve", "unknown curve 'mild'"),
    ("unknown-payment", "score", {"hand": HAND, "payment": "nobody-pays"}, "payment",
     "unknown payment convention 'nobody-pays'"),
    ("unknown-option", "score", {"hand": HAND, "options": "free-lunch"}, "options",
     "unknown option 'free-lunch'"),
    ("unknown-way", "score", {"hand": HAND, "by": "luck"}, "by", "'luck' is not a way of winning"),
    ("unknown-seat", "score", {"hand": HAND, "seat": "Q"}, "seat", "'Q' is not a wind"),
    ("waits-unknown-ruleset", "waits", {"rules": "nope", "hand": READY}, "rules", "unknown ruleset"),
    # over-long values and queries
    ("long-hand", "score", {"hand": "1m" * 51}, "hand", "102 characters is too long (at most 100)"),
    ("long-melds", "score", {"hand": HAND, "melds": "1" * 121}, "melds", "too long (at most 120)"),
    ("too-many-ticks", "score", {"ticks": ",".join(["dragon-pong"] * 61)}, "ticks", "61 ticks is too many"),
    # non-ASCII junk and Unicode digits
    ("fullwidth-digits", "score", {"hand": "１２３m456m789m234p55s"}, "hand", "is not an ASCII digit"),
    ("arabic-indic-digits", "score", {"hand": "١٢٣m456m789m234p55s"}, "hand", "is not an ASCII digit"),
    ("digit-then-fullwidth", "score", {"hand": "123m456m789m234p5８s"}, "hand", "a digit but not ASCII"),
    ("zero-width-space", "score", {"hand": HAND + "\u200b"}, "hand", "unexpected character '\\u200b'"),
    ("emoji", "score", {"hand": "💀🀄"}, "hand", "unexpected character '💀'"),
    ("nul", "score", {"hand": "\x00"}, "hand", "unexpected character '\\x00'"),
    ("rtl-override", "score", {"hand": HAND, "by": "\u202e"}, "by", "is not a way of winning"),
    ("devanagari-min", "score", {"hand": HAND, "min": "१"}, "min", "'१' is not a whole number of fan"),
    ("superscript-cap", "score", {"hand": HAND, "cap": "²"}, "cap", "'²' is not a whole number of fan"),
    ("vulgar-fraction-stake", "score", {"hand": HAND, "stake": "½"}, "stake", "'½' is not a stake"),
    ("arabic-flower", "score", {"hand": HAND, "flowers": "٣"}, "flowers", "is not a bonus tile number; use 1-4"),
    ("chinese-seat", "score", {"hand": HAND, "seat": "東"}, "seat", "'東' is not a wind"),
    ("fullwidth-win", "score", {"hand": HAND, "win": "５s"}, "win", "is not an ASCII digit"),
    ("arabic-fan", "score", {"fan": "٣"}, "fan", "'٣' is not a whole number of fan"),
]


@pytest.mark.parametrize("endpoint, query, field, message", [row[1:] for row in BAD],
                         ids=[row[0] for row in BAD])
def test_the_api_answers_400_with_the_message_on_the_field(client, endpoint, query, field, message):
    response = client.get(f"/api/{endpoint}", query_string=query)
    assert response.status_code == 400 and response.mimetype == "application/json"
    answer = response.json
    assert answer["valid"] is False
    on_field = [e["message"] for e in answer["errors"] if e["field"] == field]
    assert on_field, answer
    assert any(message in m for m in on_field), on_field


PAGE_ROWS = [row for row in BAD if row[1] == "score" and row[3] != "ticks" and "hand" in row[2]
             and row[0] not in ("13-to-score", "count-with-melds")]
# thirteen tiles on the page show the waits; a hand short of 13 whose one problem is that it is
# short is a hand being picked: its count is said beside the field, with no alarm at the top


def test_a_hand_being_picked_says_its_count_beside_the_field_without_the_alarm(client):
    (row,) = [r for r in BAD if r[0] == "count-with-melds"]
    body = client.get("/", query_string={"rules": "hong-kong", **row[2]}).get_data(as_text=True)
    assert html.escape(row[4], quote=True) in body or row[4] in html.unescape(body)
    assert "The hand could not be scored" not in body


@pytest.mark.parametrize("query, message", [(row[2], row[4]) for row in PAGE_ROWS],
                         ids=[row[0] for row in PAGE_ROWS])
def test_the_calculator_page_shows_the_same_message(client, query, message):
    response = client.get("/", query_string={"rules": "hong-kong", **query})
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert html.escape(message, quote=True) in body or message in html.unescape(body)
    assert "The hand could not be scored" in body


# --- over-long queries and repeated parameters ---------------------------------------------


@pytest.mark.parametrize("endpoint", ["score", "waits"])
def test_an_over_long_query_string_is_refused_by_the_api(client, endpoint):
    response = client.get(f"/api/{endpoint}?hand={HAND}&x=" + "a" * 5000)
    assert response.status_code == 400
    length = len(f"hand={HAND}&x=") + 5000
    assert response.json["errors"] == [{"field": "", "message": f"the query is {length} characters;"
                                                                 " at most 4096"}]


@pytest.mark.parametrize("path", ["/", "/embed", "/ticks"])
def test_an_over_long_query_string_is_414_on_a_page(client, path):
    response = client.get(f"{path}?hand={HAND}&x=" + "a" * 5000)
    assert response.status_code == 414
    assert "<h1>" in response.get_data(as_text=True)


def test_a_parameter_repeated_past_the_limit_is_refused(client):
    response = client.get("/api/score?" + urlencode([("hand", HAND)] + [("events", "last-tile")] * 65))
    assert response.status_code == 400
    assert response.json["errors"] == [{"field": "", "message": "events: 65 values is too many"}]


@pytest.mark.parametrize("pairs, total", [
    ([("hand", "bad"), ("hand", HAND)], 1),              # a repeated single field: the last wins
    ([("rules", "nope"), ("rules", "hong-kong"), ("hand", HAND)], 1),
    ([("hand", HAND), ("flowers", "1"), ("flowers", "3")], 3),   # a list field: values joined
])
def test_a_repeated_field_reads_as_documented(client, pairs, total):
    response = client.get("/api/score?" + urlencode(pairs))
    assert response.status_code == 200, response.json
    assert response.json["total_fan"] >= total


def test_a_flower_repeated_is_named(client):
    response = client.get("/api/score?" + urlencode([("hand", HAND), ("flowers", "1"), ("flowers", "1")]))
    assert response.status_code == 400
    assert response.json["errors"] == [{"field": "flowers",
                                         "message": "1 is listed twice in '1,1'; there is one of each"}]


# --- POST /api/settle: bodies that are not a round -----------------------------------------

def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


SETTLE_BAD = [
    ("nested-list-10", _nested(10), "", "nests deeper than a round does"),
    ("nested-list-5000", _nested(5000), "", "nests deeper than a round does"),
    ("nested-unclosed-30000", "[" * 30000, "", "nests deeper than a round does"),
    ("nested-in-a-field", '{"events": [{"type": "win", "seat": "E", "hand": ' + _nested(50) + "}]}", "",
     "nests deeper than a round does"),
    ("nested-objects", '{"rules": ' + '{"a": ' * 20 + "1" + "}" * 20 + "}", "", "nests deeper than a round does"),
    ("not-json", "nope", "", "not JSON"),
    ("not-utf8", b"\xff\xfe{}", "", "not UTF-8"),
    ("not-an-object", "[1, 2]", "round", "expected a JSON object"),
    ("rules-path", '{"rules": "../../etc/passwd"}', "rules", "unknown ruleset '../../etc/passwd'"),
    ("rules-not-a-string", '{"rules": ["sichuan"]}', "rules", "expected a ruleset id"),
    ("missing-not-a-suit", '{"missing": {"E": "z"}}', "missing", "E: 'z' is not a suit"),
    ("events-not-a-list", '{"events": {"type": "win"}}', "events", "expected a list of events"),
    ("too-many-events", json.dumps({"events": [{"type": "kong", "seat": "E", "kind": "concealed",
                                                "tile": "5m"}] * 41}), "events", "41 events"),
    ("unknown-event", '{"events": [{"type": "fish", "seat": "E"}]}', "events[0].type", "'fish' is not an event"),
    ("bad-kong-tile", '{"events": [{"type": "kong", "seat": "E", "kind": "concealed", "tile": "5x"}]}',
     "events[0].tile", "not a suit letter"),
    ("honours-in-a-win", '{"events": [{"type": "win", "seat": "E", "by": "self-draw",'
                         ' "hand": "123m456m789m234p55z"}]}', "events[0].hand", "played without honours"),
]


@pytest.mark.skipif(not HAS_SETTLE, reason="POST /api/settle is not there yet")
@pytest.mark.parametrize("body, field, message", [row[1:] for row in SETTLE_BAD],
                         ids=[row[0] for row in SETTLE_BAD])
def test_the_settlement_api_answers_400_with_the_message(client, body, field, message):
    response = client.post("/api/settle", data=body, content_type="application/json")
    assert response.status_code == 400 and response.mimetype == "application/json"
    answer = response.json
    assert answer["valid"] is False
    assert any(e["field"] == field and message in e["message"] for e in answer["errors"]), answer
