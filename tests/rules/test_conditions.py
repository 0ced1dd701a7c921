"""Impossible input is refused with a field error, possible input is priced (app/rules/conditions.py).

The property tests walk every ruleset's events (alone, in pairs and in triples) against each
way of winning, each kind of meld and the dealer's and a non-dealer's seat; the example
tests take one case of each class of refusal, the cases of issue 12 among them.
"""
from __future__ import annotations

import html
from itertools import combinations
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.base.errors import HandError, RulesetError
from app.rules.loader import RULESET_DIR, load_ruleset, registry
from app.vocabulary import score as calculate
from tests.apps import shared_app

RULESETS = registry()
APP = shared_app()

# One winning hand per kind of meld shown (14 tiles, a kong counting 3), won on its last tile.
MELD_HANDS = {
    "none": {"hand": "123m456m789m234p55s"},
    "chow": {"hand": "456m789m234p55s", "melds": "123m"},
    "pong": {"hand": "123m456m789m55s", "melds": "222p"},
    "kong": {"hand": "123m456m789m55s", "melds": "kong:2222p"},
    "ckong": {"hand": "123m456m789m55s", "melds": "ckong:2222p"},
    "akong": {"hand": "123m456m789m55s", "melds": "akong:2222p"},
    "two-kongs": {"hand": "123m456m55s", "melds": "kong:2222p,ckong:7777p"},
}
FIELDS = {"rules", "hand", "win", "melds", "by", "seat", "round", "flowers", "seasons", "events",
          "missing", "ticks", "fan", "options", "min", "cap", "curve", "payment", "stake",
          "discarder", "winner", "won", "liable"}


def event_sets(ruleset) -> list[tuple[str, ...]]:
    """No event, each event, every pair and every triple of the ruleset's events."""
    events = sorted(ruleset.events)
    return [()] + [c for n in (1, 2, 3) for c in combinations(events, n)]


def request(rid: str, events: tuple[str, ...], by: str, melds: str, seat: str, **more) -> dict:
    params = {"rules": rid, **MELD_HANDS[melds], "by": by, "seat": seat, **more}
    if events:
        params["events"] = ",".join(events)
    if "flower-replacement" in events and RULESETS[rid].flowers:
        params["flowers"] = "1"
    return params


def outcome(params: dict):
    """('priced', the calculation) or ('refused', its field errors); anything else escapes."""
    try:
        calc = calculate(params)
    except HandError as err:
        return "refused", err.errors
    assert sum(p.amount for p in calc.payments) == 0
    return "priced", calc


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_every_combination_of_events_by_melds_seat_and_table_is_refused_or_priced(rid):
    """Refused with a field error naming a field of the request, or priced summing to zero."""
    ruleset = RULESETS[rid]
    seen = {"priced": 0, "refused": 0}
    tables = [{}, {"discarder": "E"}, {"discarder": "N"}, {"won": "W"}]
    for events in event_sets(ruleset):
        for by in ("discard", "self-draw"):
            for melds in MELD_HANDS:
                for seat in ("E", "S"):
                    for table in tables:
                        kind, errors = outcome(request(rid, events, by, melds, seat, **table))
                        seen[kind] += 1
                        for error in errors if kind == "refused" else ():
                            assert error.field in FIELDS and error.message, (events, by, error)
    assert seen["priced"] and seen["refused"], seen


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_no_priced_combination_breaks_a_rule_the_issue_names(rid):
    """Spot-check the priced ones: no 天糊 with a claimed meld, no 地糊 off a non-dealer."""
    ruleset = RULESETS[rid]
    for events in event_sets(ruleset):
        for by in ("discard", "self-draw"):
            for melds in MELD_HANDS:
                for seat in ("E", "S"):
                    try:
                        calc = calculate(request(rid, events, by, melds, seat))
                    except HandError:
                        continue
                    kinds = {m.kind.value for m in calc.hand.melds}
                    if "heavenly-hand" in events:
                        assert seat == "E" and by == "self-draw" and kinds <= {"ckong"}
                    if "earthly-hand" in events:
                        assert seat != "E" and kinds <= {"ckong"}
                        if by == "discard":
                            assert calc.table.discarder == "E" and not kinds
                    if {"last-tile", "last-discard"} <= set(events):
                        pytest.fail(f"{rid}: last tile and last discard priced together")


def page_and_api(client, params: dict) -> tuple[bool, str, bool, list[str]]:
    """(API accepted, API body, page accepted, the API's messages) for one request."""
    api = client.get("/api/score", query_string=params)
    assert api.status_code in (200, 400), (params, api.status_code)
    page = client.get("/", query_string=params)
    assert page.status_code == 200, (params, page.status_code)
    body = page.get_data(as_text=True)
    page_ok = 'id="result-heading"' in body
    assert page_ok != ("The hand could not be scored" in body), params
    messages = [e["message"] for e in api.json.get("errors", [])]
    return api.status_code == 200, body, page_ok, messages


SEATS = st.sampled_from(["", "E", "S", "W", "N"])


@st.composite
def requests(draw) -> dict:
    rid = draw(st.sampled_from(sorted(RULESETS)))
    ruleset = RULESETS[rid]
    events = draw(st.sampled_from(event_sets(ruleset)))
    params = request(rid, events, draw(st.sampled_from(["discard", "self-draw"])),
                     draw(st.sampled_from(sorted(MELD_HANDS))), draw(SEATS))
    for name in ("winner", "discarder", "liable", "round"):
        value = draw(SEATS)
        if value:
            params[name] = value
    won = draw(st.sampled_from(["", "S", "W", "S,W", "N,S,W"]))
    if won:
        params["won"] = won
    if not params["seat"]:
        del params["seat"]
    return params


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_the_page_refuses_exactly_what_the_api_refuses_with_the_same_messages(params):
    with APP.test_client() as client:
        api_ok, body, page_ok, messages = page_and_api(client, params)
    assert api_ok == page_ok, params
    text = html.unescape(body)
    for message in messages:
        assert message in text, (params, message)


# --- one test per class of refusal ------------------------------------------------------


def refused(params: dict) -> dict[str, str]:
    with pytest.raises(HandError) as caught:
        calculate(params)
    return {e.field: e.message for e in caught.value.errors}


def test_an_earthly_hand_with_no_discarder_is_paid_by_the_dealer_and_says_so():
    """Issue 12: before, the default discarder was W and E paid as a bystander."""
    calc = calculate({"rules": "hong-kong", "hand": "123m456m789m234p55s", "seat": "S",
                      "events": "earthly-hand"})
    assert calc.table.discarder == "E"
    rows = {p.seat: p for p in calc.payments}
    assert rows["E"].role == "discarder" and "dealer" in rows["E"].reason
    assumed = {a.field: a.value for a in calc.assumed}
    assert assumed["discarder"] == "E"


def test_an_earthly_hand_off_a_non_dealer_discard_is_refused():
    errors = refused({"rules": "hong-kong", "hand": "123m456m789m234p55s", "seat": "S",
                      "events": "earthly-hand", "discarder": "N"})
    assert "dealer's first discard" in errors["discarder"] and "not N" in errors["discarder"]


def test_a_heavenly_hand_with_a_claimed_chow_is_refused():
    errors = refused({"rules": "hong-kong", "hand": "456m789m234p55s", "melds": "123m",
                      "by": "self-draw", "seat": "E", "events": "heavenly-hand"})
    assert "123m (a claimed chow)" in errors["melds"]


def test_a_concealed_kong_is_allowed_in_a_hong_kong_heavenly_hand_but_voids_the_course_one():
    params = {"hand": "123m456m789m55s", "melds": "ckong:2222p", "by": "self-draw",
              "seat": "E", "events": "heavenly-hand"}
    assert calculate({"rules": "hong-kong", **params}).score.total_fan >= 13
    errors = refused({"rules": "hong-kong-course", **params})
    assert "voids 天糊" in errors["melds"]


def test_an_earthly_hand_won_on_a_discard_shows_no_meld_at_all():
    errors = refused({"rules": "hong-kong", "hand": "123m456m789m55s", "melds": "ckong:2222p",
                      "seat": "S", "events": "earthly-hand"})
    assert "has not had a turn yet" in errors["melds"]


def test_the_dealer_only_and_non_dealer_only_events_name_the_seat():
    assert "seat is S" in refused({"rules": "hong-kong", "hand": "123m456m789m234p55s",
                                   "by": "self-draw", "seat": "S",
                                   "events": "heavenly-hand"})["events"]
    assert "non-dealer" in refused({"rules": "hong-kong", "hand": "123m456m789m234p55s",
                                    "seat": "E", "events": "earthly-hand"})["events"]


def test_two_events_that_cannot_describe_one_tile_are_refused_in_every_family():
    errors = refused({"rules": "sichuan", "hand": "123m456m789m234p55p", "win": "2p",
                      "events": "robbing-the-kong,kong-cannon"})
    assert "cannot both happen" in errors["events"]


def test_a_family_pair_of_events_is_refused_with_the_lessons_reason():
    errors = refused({"rules": "hong-kong-course", "hand": "123m456m55s",
                      "melds": "kong:2222p,ckong:7777p", "by": "self-draw", "seat": "S",
                      "flowers": "2", "events": "kong-on-kong,flower-replacement"})
    assert "flowers between the two kongs void 槓上槓" in errors["events"]


def test_a_winner_without_a_seat_is_priced_in_the_winners_seat():
    """Issue 12: winner=S alone priced the hand with seat wind E."""
    calc = calculate({"rules": "hong-kong", "hand": "222z123m456p789s55s", "win": "5s",
                      "winner": "S", "by": "self-draw"})
    assert calc.hand.context.seat == "S" and calc.table.winner == "S"
    assert "seat-wind" in {i.pattern.id for i in calc.score.counted}
    assert ("seat", "S") in {(a.field, a.value) for a in calc.assumed}


def test_a_seat_without_a_winner_makes_the_seat_the_winner_and_says_so():
    calc = calculate({"rules": "hong-kong", "hand": "123m456m789m234p55s", "seat": "W"})
    assert calc.table.winner == "W"
    assert ("winner", "W") in {(a.field, a.value) for a in calc.assumed}


def test_a_winner_and_a_seat_that_differ_are_refused():
    errors = refused({"rules": "hong-kong", "hand": "123m456m789m234p55s", "seat": "W",
                      "winner": "S"})
    assert "disagree" in errors["winner"]


def test_won_is_refused_outside_a_blood_battle_and_accepted_in_one():
    """Issue 12: won=S under Hong Kong rules let S pay nothing on a self-draw."""
    errors = refused({"rules": "hong-kong", "hand": "123m456m789m234p55s", "by": "self-draw",
                      "won": "S"})
    assert "blood-battle" in errors["won"]
    calc = calculate({"rules": "sichuan", "hand": "123m456m789m234p55p", "by": "self-draw",
                      "won": "S"})
    assert {p.seat: p.role for p in calc.payments}["S"] == "already-won"


def test_a_discard_win_with_no_discarder_says_in_the_json_that_the_next_seat_was_assumed():
    """Issue 12 and ruling 76: the JSON now says what the page said."""
    with APP.test_client() as client:
        answer = client.get("/api/score", query_string={
            "rules": "hong-kong", "hand": "123m456m789m234p55s", "seat": "S"}).json
    assert {"field": "discarder", "value": "W",
            "reason": "no discarder given: the seat after the winner, W"} in answer["assumed"]
    west = next(p for p in answer["payments"] if p["seat"] == "W")
    assert "taken as the discarder" in west["reason"]


def test_a_fully_given_request_assumes_nothing():
    calc = calculate({"rules": "hong-kong", "hand": "123m456m789m234p55s", "seat": "S",
                      "winner": "S", "round": "E", "by": "discard", "discarder": "W"})
    assert calc.assumed == ()


def test_the_result_page_lists_what_it_assumed():
    with APP.test_client() as client:
        body = client.get("/", query_string={"rules": "hong-kong", "seat": "S",
                                             "hand": "123m456m789m234p55s"}).get_data(as_text=True)
    assert "<strong>Discarder: W</strong>" in body and "<strong>Round wind: E</strong>" in body


def test_nine_cards_pins_only_the_discarder_and_is_taken_as_the_discarder():
    hand = {"rules": "family", "hand": "222p55p", "melds": "123p,456p,789p", "win": "5p",
            "seat": "E", "liable": "S"}
    assert "pins the player who discards" in refused({**hand, "discarder": "W"})["liable"]
    calc = calculate(hand)
    assert calc.table.discarder == "S"
    assert {p.seat: p.role for p in calc.payments}["S"] == "liable"


def test_great_three_dragons_liability_needs_someone_to_have_supplied_a_dragon():
    concealed = {"rules": "hong-kong-course", "hand": "555z666z777z123m99m", "win": "9m",
                 "by": "self-draw", "seat": "S", "liable": "W"}
    assert "supplied" in refused(concealed)["liable"]
    claimed = dict(concealed, hand="555z666z123m99m", melds="777z")
    assert {p.seat: p.role for p in calculate(claimed).payments}["W"] == "liable"


# --- the conditions section is checked at load time ------------------------------------


@pytest.mark.parametrize(("conditions", "message"), [
    ({"won": "yes"}, "conditions.won: expected true or false"),
    ({"events": {"no-such": {}}}, "conditions.events.no-such: not an event of this file"),
    ({"events": {"heavenly-hand": {"melds": ["meld"]}}},
     "conditions.events.heavenly-hand.melds[0]: unknown meld kind 'meld'"),
    ({"events": {"heavenly-hand": {"not_with": ["heavenly-hand"]}}},
     "conditions.events.heavenly-hand.not_with[0]"),
    ({"liability": {"great-three-dragons-pao": {"supplied": "flowers"}}},
     "conditions.liability.great-three-dragons-pao.supplied: expected one of dragons, winds"),
    ({"liability": {"no-such": {}}}, "conditions.liability.no-such: not a liability rule"),
])
def test_a_broken_conditions_section_stops_loading_naming_the_file_and_key(tmp_path: Path,
                                                                           conditions, message):
    data = yaml.safe_load((RULESET_DIR / "hong-kong-course.yaml").read_text(encoding="utf-8"))
    data["conditions"] = conditions
    path = tmp_path / "hong-kong-course.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    assert str(caught.value).startswith("hong-kong-course.yaml: " + message)


# --- /api/waits: ready means a wait can win --------------------------------------------


def test_a_hand_whose_only_wait_is_below_the_minimum_is_ready_but_cannot_win():
    # issue 22: ready is the shape, as in discard advice; can_win says whether a wait wins
    with APP.test_client() as client:
        answer = client.get("/api/waits", query_string={
            "rules": "hong-kong", "hand": "123m456m789m234p5s", "min": "5"}).json
    assert answer["ready"] is True and answer["can_win"] is False
    assert [(w["tile"], w["wins"]) for w in answer["waits"]] == [("5s", False)]


def test_a_hand_ready_only_under_an_off_house_rule_says_which_one():
    with APP.test_client() as client:
        answer = client.get("/api/waits", query_string={
            "rules": "hong-kong", "hand": "1122m3344p5566s7z"}).json
        page = client.get("/", query_string={
            "rules": "hong-kong", "hand": "1122m3344p5566s7z"}).get_data(as_text=True)
        switched = client.get("/api/waits", query_string={
            "rules": "hong-kong", "hand": "1122m3344p5566s7z", "options": "seven-pairs"}).json
    assert answer["ready"] is False and answer["waits"] == []
    assert answer["house_rules"] == [{
        "option": "seven-pairs", "waits": ["7z"],
        "note": "ready under the house rule Seven distinct pairs 七對子, off: add"
                " options=seven-pairs to play it"}]
    assert "Ready under the house rule Seven distinct pairs" in html.unescape(page)
    assert switched["ready"] is True and "house_rules" not in switched


# --- tick-box mode: the ticked patterns stand for the events and the way of winning ----


def tick_sets(ruleset) -> list[tuple[str, ...]]:
    """Each pattern ticked alone, and every pair of patterns."""
    ids = [p.id for p in ruleset.patterns]
    return [(i,) for i in ids] + list(combinations(ids, 2))


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_every_tick_and_pair_of_ticks_by_way_and_seat_is_refused_with_a_field_error_or_priced(rid):
    ruleset = RULESETS[rid]
    seen = {"priced": 0, "refused": 0}
    for ticks in tick_sets(ruleset):
        for by in ("", "discard", "self-draw"):
            for seat in ("E", "S"):
                params = {"rules": rid, "ticks": ",".join(ticks), "seat": seat}
                if by:
                    params["by"] = by
                kind, found = outcome(params)
                seen[kind] += 1
                for error in found if kind == "refused" else ():
                    assert error.field in FIELDS and error.message, (ticks, by, seat, error)
                if kind == "priced":
                    for pid in ticks:
                        need = ruleset.by_id[pid].by
                        assert need is None or need is found.table.by, (ticks, by)
    assert seen["priced"] and seen["refused"], seen


@st.composite
def tick_requests(draw) -> dict:
    rid = draw(st.sampled_from(sorted(RULESETS)))
    params = {"rules": rid, "ticks": ",".join(draw(st.sampled_from(tick_sets(RULESETS[rid]))))}
    for name in ("by",):
        value = draw(st.sampled_from(["", "discard", "self-draw"]))
        if value:
            params[name] = value
    for name in ("seat", "winner", "discarder", "liable"):
        value = draw(SEATS)
        if value:
            params[name] = value
    return params


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tick_requests())
def test_the_tick_page_refuses_exactly_what_the_api_refuses(params):
    with APP.test_client() as client:
        api = client.get("/api/score", query_string=params)
        page = client.get("/ticks", query_string=params)
    assert api.status_code in (200, 400) and page.status_code == 200, params
    body = html.unescape(page.get_data(as_text=True))
    assert (api.status_code == 200) == ('id="result-heading"' in body), params
    for error in api.json.get("errors", []):
        assert error["message"] in body, (params, error)


def test_a_ticked_heavenly_hand_away_from_the_dealers_seat_is_refused():
    assert "dealer's (East seat) win" in refused({"rules": "hong-kong", "ticks": "heavenly-hand",
                                                  "seat": "S"})["seat"]


def test_a_ticked_earthly_hand_is_paid_by_the_dealer():
    calc = calculate({"rules": "hong-kong", "ticks": "earthly-hand", "seat": "S"})
    assert calc.table.discarder == "E"
    assert "not N" in refused({"rules": "hong-kong", "ticks": "earthly-hand", "seat": "S",
                               "discarder": "N"})["discarder"]


def test_a_ticked_self_draw_on_a_discard_win_is_refused():
    """Before, it was priced: the self-draw fan counted and the discarder paid."""
    assert "needs a self-draw win, not a discard" in refused(
        {"rules": "hong-kong", "ticks": "all-chows,self-draw", "by": "discard"})["by"]


def test_ticks_that_need_different_ways_of_winning_are_refused():
    assert "cannot all count on one win" in refused(
        {"rules": "hong-kong", "ticks": "self-draw,last-discard", "options": "last-discard"})["ticks"]


def test_a_tick_request_without_a_way_of_winning_says_which_it_took():
    calc = calculate({"rules": "hong-kong", "ticks": "all-chows,self-draw"})
    assert calc.table.by.value == "self-draw"
    assert ("by", "self-draw") in {(a.field, a.value) for a in calc.assumed}


def test_a_liable_player_who_did_not_discard_is_told_why_the_discarder_pays():
    # ruling 51: if another player discards the winning tile, that player pays as usual
    calc = calculate({"rules": "hong-kong-course", "hand": "123m99m555z", "melds": "777z,666z",
                      "win": "5z", "by": "discard", "seat": "S", "discarder": "N", "liable": "W",
                      "options": "no-flowers", "payment": "hkma"})
    rows = {p.seat: p for p in calc.payments}
    assert rows["N"].role == "discarder" and rows["W"].amount == 0
    assert "here N discarded the winning tile and pays as usual" in rows["W"].reason
