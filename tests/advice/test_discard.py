"""What to discard (app/advice/discard.py, /api/discard, /discard): the rules and the money."""
from __future__ import annotations

import random
from urllib.parse import parse_qs, urlsplit

import pytest

from app.base.errors import HandError
from app.hands.tiles import TILES, canonical, parse_tiles, tile
from app.rules.loader import registry
from app.vocabulary.discard import calculate_discards
from tests.html_tables import Page

RULESETS = registry()
HONOURS_READY = "123m456p789s11z22z7z"   # throw the red dragon: ready on East or South


def discards(**params) -> list:
    return list(calculate_discards(params, RULESETS).choices)


def by_tile(choices) -> dict:
    return {c.tile.code: c for c in choices}


# --- the core of the answer ---------------------------------------------------------------


def test_the_best_discard_leaves_the_hand_ready_with_its_waits_priced():
    best = discards(rules="hong-kong", hand=HONOURS_READY)[0]
    assert best.tile.code == "7z" and best.ready
    waits = {w.tile_code: w for w in best.waits}
    assert set(waits) == {"1z", "2z"}
    # East at East: a pong of the double wind wins; South's pong is below the minimum of 3
    # on a discard, but self-drawn it is concealed + self-draw + no flowers = 3 (ruling 82)
    assert waits["1z"].wins and waits["1z"].value.calculation.score.total_fan >= 3
    assert waits["2z"].value.calculation.score.below_minimum
    assert waits["2z"].wins and waits["2z"].value.only_self_draw
    assert waits["2z"].value.winning.score.total_fan == 3
    assert "2z: wins only by self-draw" in best.reasons
    assert best.value == sum(w.left * w.collects for w in waits.values()) > 0
    # with the way of winning given, only that way counts
    on_a_discard = {w.tile_code: w for w in discards(rules="hong-kong", hand=HONOURS_READY,
                                                     by="discard")[0].waits}
    assert not on_a_discard["2z"].wins and on_a_discard["1z"].wins


def test_a_wait_that_wins_only_by_self_draw_makes_the_discard_winnable():
    # issue 22: after 7z the waits 1s/4s make 2 fan on a discard, 3 by self-draw (min 3)
    seven = by_tile(discards(rules="hong-kong", hand="456m789p23s55p7z", melds="123m"))["7z"]
    assert seven.can_win and all(w.value.only_self_draw for w in seven.waits)
    assert any("wins only by self-draw" in str(r) for r in seven.reasons)


def test_among_equal_shanten_the_discard_that_can_win_ranks_first():
    # issue 22: 2m and 3m leave a ready hand whose every win is below the minimum; 4m can win
    choices = discards(rules="hong-kong", hand="888s222m33m55s4m", melds="555p", flowers="2")
    assert choices[0].tile.code == "4m" and choices[0].can_win
    order = [c.tile.code for c in choices]
    stuck = [c for c in choices if c.ready and not c.can_win]
    assert stuck and all(order.index(c.tile.code) > order.index(d.tile.code)
                         for c in stuck for d in choices if d.option.shanten == 1)
    for c in stuck:   # a wait that never wins is no improving tile (ruling 83)
        assert c.option.left == 0 and not c.option.improving


def test_a_ready_hand_whose_every_wait_is_below_the_minimum_is_marked_cannot_win():
    # throw 7z: all chows on 1s or 4s beside a declared chow, a stranger's flower: 1 fan
    low = {"rules": "hong-kong", "hand": "456p789s23s55m7z", "melds": "123m", "flowers": "2"}
    seven = by_tile(discards(**low))["7z"]
    assert seven.ready and not seven.can_win and seven.value == 0
    assert "ready, but cannot win: every wait is below the minimum of 3 fan" in seven.reasons
    relaxed = by_tile(discards(**low, min="1"))["7z"]
    assert relaxed.can_win and relaxed.value > 0


def test_the_family_rules_also_say_when_a_ready_hand_cannot_win():
    # the family rules have no minimum (ruling 71): the same ready hand wins there
    seven = by_tile(discards(rules="family", hand="456p789s23s55m7z", melds="123m"))["7z"]
    assert seven.ready and seven.can_win


def test_sichuan_discards_of_the_missing_suit_come_first_and_say_why():
    choices = discards(rules="sichuan", hand="123m456m789m111p5s9s", missing="s")
    assert [c.tile.code for c in choices[:2]] == ["5s", "9s"]
    assert all(c.must_go for c in choices[:2]) and not any(c.must_go for c in choices[2:])
    assert any("declared missing suit (bamboo): it must go" in r for r in choices[0].reasons)
    assert any("cannot win while it holds one" in r for r in choices[2].reasons)
    assert not any(c.ready for c in choices)   # one bamboo is still held after any discard


def test_sichuan_counts_seven_pairs_with_four_alike():
    best = discards(rules="sichuan", hand="1111m3344p5566s79s")[0]
    assert best.ready and "seven-pairs" in best.option.forms
    assert {w.tile_code for w in best.waits} == {"7s", "9s"} - {best.tile.code}


def test_seven_pairs_counts_in_hong_kong_only_with_its_house_rule():
    hand = "1122m3344p5566s17z"
    off = discards(rules="hong-kong", hand=hand)[0]
    on = discards(rules="hong-kong", hand=hand, options="seven-pairs")[0]
    assert off.option.shanten > 0 and "seven-pairs" not in off.option.forms
    assert on.ready and on.option.forms == ("seven-pairs",) and on.tile.code == "1z"


def test_declared_melds_leave_fewer_tiles_to_discard_from():
    choices = discards(rules="hong-kong", hand="123m456p11z22z7z", melds="999s")
    assert choices[0].tile.code == "7z" and choices[0].ready
    assert {w.tile_code for w in choices[0].waits} == {"1z", "2z"}


def test_tiles_seen_on_the_table_are_not_left():
    plain = discards(rules="hong-kong", hand=HONOURS_READY)[0]
    seen = discards(rules="hong-kong", hand=HONOURS_READY, seen="1z")[0]
    assert {i.tile.code: i.left for i in plain.option.improving} == {"1z": 2, "2z": 2}
    assert {i.tile.code: i.left for i in seen.option.improving} == {"1z": 1, "2z": 2}
    # one East left instead of two; South (self-drawn only, ruling 82) unchanged
    wins = {w.tile_code: w.collects for w in plain.waits}
    assert plain.value == 2 * wins["1z"] + 2 * wins["2z"]
    assert seen.value == 1 * wins["1z"] + 2 * wins["2z"]


def test_the_order_is_the_documented_one_on_random_hands():
    rng = random.Random(1717)
    for n in range(40):
        ruleset = ("hong-kong", "sichuan", "family")[n % 3]
        kinds = 27 if ruleset == "sichuan" else 34
        wall = [i for i in range(kinds) for _ in range(4)]
        rng.shuffle(wall)
        params = {"rules": ruleset, "hand": canonical(TILES[i] for i in wall[:14])}
        if ruleset == "sichuan":
            params["missing"] = "mps"[n % 3]
        keys = [(not c.must_go, c.option.shanten, -c.option.left, -c.value)
                for c in calculate_discards(params, RULESETS).choices]
        assert keys == sorted(keys), params


def test_tick_box_and_fan_fields_never_change_the_prices_of_the_tiles():
    plain = discards(rules="hong-kong", hand=HONOURS_READY)[0]
    odd = discards(rules="hong-kong", hand=HONOURS_READY, ticks="all-pongs", fan="9")[0]
    assert [(w.tile_code, w.collects) for w in odd.waits] == [
        (w.tile_code, w.collects) for w in plain.waits]


def test_a_complete_hand_says_so():
    result = calculate_discards({"rules": "hong-kong", "hand": "123m456m789m234p55s"}, RULESETS)
    assert result.shanten == -1 and all(c.ready for c in result.choices)


@pytest.mark.parametrize(("params", "field", "words"), [
    ({"hand": "123m"}, "hand", "a hand about to discard needs 14"),
    ({"rules": "sichuan", "hand": HONOURS_READY}, "hand", "without honours"),
    ({"hand": HONOURS_READY, "missing": "s"}, "missing", "no declared missing suit"),
    ({"hand": HONOURS_READY, "seen": "1111z"}, "seen", "make 6 copies of 1z"),
    ({"hand": HONOURS_READY, "seen": "12q"}, "seen", "not a suit letter"),
    ({"hand": HONOURS_READY, "seen": "fl1"}, "seen", "flowers and seasons"),
    ({"rules": "sichuan", "hand": "123m456m789m111p5s9s", "seen": "1z"}, "seen", "without honours"),
])
def test_bad_input_names_the_field_and_says_why(params, field, words):
    with pytest.raises(HandError) as caught:
        calculate_discards({"rules": "hong-kong", **params}, RULESETS)
    assert any(e.field == field and words in e.message for e in caught.value.errors), caught.value


# --- GET /api/discard -----------------------------------------------------------------------


def test_the_api_answers_every_discard_best_first_with_the_waits_and_their_links(client):
    answer = client.get("/api/discard", query_string={"rules": "hong-kong", "hand": HONOURS_READY,
                                                      "seen": "1z"}).get_json()
    assert answer["valid"] and answer["shanten"] == 0 and answer["seen"] == "1z"
    assert [d["tile"] for d in answer["discards"]][0] == "7z"
    assert len(answer["discards"]) == 12   # one per distinct tile
    best = answer["discards"][0]
    assert best["improving"] == [{"tile": "1z", "left": 1}, {"tile": "2z", "left": 2}]
    assert best["ready"] and best["can_win"] and best["reasons"]
    east = next(w for w in best["waits"] if w["tile"] == "1z")
    assert east["wins"] and east["left"] == 1
    assert best["value"] == sum(w["left"] * w["collects"] for w in best["waits"] if w["wins"])
    south = next(w for w in best["waits"] if w["tile"] == "2z")
    assert south["wins"] and south["only_self_draw"] and "by=self-draw" in south["permalink"]


def test_each_wait_link_is_the_calculator_breakdown_of_that_win(client):
    answer = client.get("/api/discard", query_string={
        "rules": "hong-kong", "hand": HONOURS_READY, "seat": "S", "by": "self-draw"}).get_json()
    for wait in answer["discards"][0]["waits"]:
        link = urlsplit(wait["permalink"])
        assert link.path == "/"
        query = {k: v[0] for k, v in parse_qs(link.query).items()}
        assert query["win"] == wait["tile"] and query["seat"] == "S" and query["by"] == "self-draw"
        scored = client.get("/api/score", query_string=query).get_json()
        assert scored["total_fan"] == wait["total_fan"]
        assert next(p["amount"] for p in scored["payments"] if p["role"] == "winner") == wait["collects"]


MELDED = [  # a pong, an exposed and a concealed kong, a chow (not in Sichuan), with tiles seen
    {"rules": "hong-kong", "hand": "123m46p789s11z7z", "melds": "555p", "seen": "6p"},
    {"rules": "family", "hand": "123m46p789s11z7z", "melds": "kong:5555p"},
    {"rules": "hong-kong-course", "hand": "123m456p78s22z5z", "melds": "ckong:9999s",
     "seen": "6s6s"},
    {"rules": "hong-kong", "hand": "123m456p78s22z5z", "melds": "789s", "seen": "9s"},
    {"rules": "sichuan", "hand": "123m45m789p77p9p", "melds": "kong:6666m", "missing": "s",
     "seen": "3m"},
    {"rules": "sichuan-sbr", "hand": "789m45m789p77p9p", "melds": "ckong:3333m", "missing": "s"},
]


def _copies(*texts: str) -> list[int]:
    """Copies of each kind in tile texts (a meld's kind word, `ckong:`, dropped)."""
    found = [0] * 34
    for text in texts:
        for part in filter(None, text.split(",")):
            for t in parse_tiles(part.rpartition(":")[2]):
                found[t] += 1
    return found


@pytest.mark.parametrize("params", MELDED)
def test_copies_left_leave_out_the_players_own_melds_and_the_tiles_seen(client, params):
    """INTERFACE: `left` is the copies not in the player's own hand and melds (nor seen, on
    /api/discard); a kong's four are all the player's own."""
    own = _copies(params["hand"], params["melds"])
    seen = _copies(params.get("seen", ""))
    answer = client.get("/api/discard", query_string=params).get_json()
    checked = 0
    for discard in answer["discards"]:
        for listed in discard["improving"] + discard["waits"]:
            assert listed["left"] == 4 - own[tile(listed["tile"])] - seen[tile(listed["tile"])]
            checked += 1
        if discard["ready"]:   # the same 13 tiles asked of /api/waits: no seen there
            kept = list(parse_tiles(params["hand"]))
            kept.remove(tile(discard["tile"]))
            waits = client.get("/api/waits", query_string={
                **{k: v for k, v in params.items() if k != "seen"},
                "hand": canonical(sorted(kept))}).get_json()["waits"]
            assert {w["tile"]: w["left"] for w in waits} == {
                w["tile"]: 4 - own[tile(w["tile"])] + (w["tile"] == discard["tile"])
                for w in discard["waits"]}
    assert checked


def test_the_api_answers_bad_input_with_400_and_field_errors(client):
    response = client.get("/api/discard", query_string={"hand": HONOURS_READY, "seen": "1111z"})
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["field"] == "seen"


def test_the_openapi_document_describes_the_discard_answer(client):
    document = client.get("/api/openapi.json").get_json()
    operation = document["paths"]["/api/discard"]["get"]
    assert "seen" in {p["name"] for p in operation["parameters"]}
    assert "Discards" in document["components"]["schemas"]


# --- the page ----------------------------------------------------------------------------


def test_the_page_shows_the_discards_table_with_links_to_each_waits_breakdown(client):
    page = Page(client.get("/discard", query_string={"rules": "hong-kong",
                                                     "hand": HONOURS_READY}).get_data(as_text=True))
    rows = page.table("Discards")
    assert rows is not None and rows[1][1][0].endswith("7z") and rows[1][1][1] == "ready"
    assert len(rows) == 1 + 12
    waits = [a["href"] for a in page.links if "wait-link" in a.get("class", "")]
    assert len(waits) >= 2 and all(h.startswith("/?rules=hong-kong&hand=") for h in waits)


def test_the_page_brings_the_form_back_filled_in_with_the_error_beside_the_field(client):
    response = client.get("/discard", query_string={"hand": HONOURS_READY, "seen": "1111z"})
    page = Page(response.get_data(as_text=True))
    assert response.status_code == 200
    assert page.input(name="seen")["value"] == "1111z"
    assert any("6 copies of 1z" in e for e in page.errors.get("seen", []))


def test_picking_a_tile_keeps_the_tiles_seen(client):
    response = client.get("/discard", query_string={"hand": "123m", "seen": "5p", "add": "4m"})
    assert response.status_code == 302
    link = urlsplit(response.headers["Location"])
    assert link.path == "/discard"
    assert parse_qs(link.query) == {"hand": ["1234m"], "seen": ["5p"]}


def test_the_embedded_page_has_no_site_header_and_picks_into_itself(client):
    text = client.get("/embed/discard", query_string={"hand": HONOURS_READY}).get_data(as_text=True)
    assert '<header class="site">' not in text and "<caption>Discards</caption>" in text
    assert client.get("/embed/discard?add=1m").headers["Location"].startswith("/embed/discard")


def test_picking_a_tile_on_a_chinese_page_keeps_the_language(client):
    response = client.get("/discard", query_string={"hand": "123m", "add": "4m", "lang": "zh-Hant"})
    assert parse_qs(urlsplit(response.headers["Location"]).query)["lang"] == ["zh-Hant"]


def test_the_reasons_are_said_in_the_page_language_with_the_familys_suit_word(client):
    query = {"rules": "sichuan", "hand": "123m456m789m234p5s9p", "missing": "s"}
    english = client.get("/api/discard", query_string=query).get_json()["discards"][0]["reasons"]
    chinese = client.get("/api/discard", query_string={**query, "lang": "zh-Hans"}).get_json()
    assert english[0] == ("a tile of the declared missing suit (bamboo): it must go before the"
                          " hand can win")
    assert chinese["discards"][0]["reasons"][0] == "定缺花色（条子）的牌：要先打掉才能胡牌"
    assert "听牌" in chinese["discards"][0]["reasons"][1]


def test_a_hand_of_the_wrong_size_is_refused_as_a_hand_about_to_discard_in_either_language(client):
    query = {"hand": "123m11z", "melds": "456m,789m"}
    english = client.get("/api/discard", query_string=query).get_json()["errors"][0]["message"]
    assert english == ("5 tiles in the hand and 2 melds make 11; a hand about to discard needs 14"
                       " (13 and the tile drawn) (each meld counts 3, a kong too): with these"
                       " melds, type 8 concealed tiles")
    chinese = client.get("/api/discard", query_string={**query, "lang": "zh-Hant"}).get_json()
    assert chinese["errors"][0]["message"].startswith("手牌 5 張、副露 2 組，合共 11 張；打牌前要有 14 張")


@pytest.mark.parametrize("params, field, words", [
    ({"rules": "hong-kong", "hand": "456m789p23s55p7z", "melds": "123m", "won": "S"}, "won",
     "ends the hand at the first win"),
    ({"rules": "hong-kong", "hand": "456m789p23s55p7z", "melds": "123m", "liable": "S"}, "liable",
     "has no liability rule"),
    ({"rules": "sichuan", "hand": "123p456p789p2355s9m", "missing": "m", "won": "E"}, "won",
     "E is the winner of this hand"),
])
def test_a_table_the_scorer_refuses_is_refused_once_with_the_same_field(client, params, field,
                                                                      words):
    with pytest.raises(HandError) as err:
        calculate_discards(params)
    assert [e.field for e in err.value.errors] == [field]
    assert words in str(err.value.errors[0].message)
    answer = client.get("/api/discard", query_string=params)
    assert answer.status_code == 400
    assert [e["field"] for e in answer.get_json()["errors"]] == [field]


def test_a_player_who_already_won_is_no_discarder_to_assume_before_the_win():
    # blood battle: S has won; the hand still waits, so nobody is the discarder yet
    assert discards(rules="sichuan", hand="123p456p789p2355s9m", missing="m", won="S")


def test_ready_is_the_shape_on_both_apis_and_can_win_says_whether_a_wait_wins(client):
    # after 7z: ready on 1s/4s, every win 1 fan either way (a stranger's flower), minimum 3
    low = {"rules": "hong-kong", "melds": "123m", "flowers": "2"}
    waits = client.get("/api/waits", query_string={**low, "hand": "456p789s23s55m"}).get_json()
    advice = client.get("/api/discard", query_string={**low, "hand": "456p789s23s55m7z"}).get_json()
    seven = next(d for d in advice["discards"] if d["tile"] == "7z")
    assert waits["ready"] is seven["ready"] is True
    assert waits["can_win"] is seven["can_win"] is False
    assert not any(w["wins"] for w in waits["waits"])
