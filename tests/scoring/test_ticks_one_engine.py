"""Tick-box mode goes to the same selection as tiles (issue 22's examples, from the seeds)."""
from __future__ import annotations

import pytest

from app.base.errors import HandError
from app.vocabulary import score as calculate
from app.vocabulary.request import tick_params


def price(**params):
    calc = calculate(params)
    return calc.score.total_fan, calc.table.by.value, {p.seat: p.amount for p in calc.payments}


def refusal(**params) -> list[tuple[str, str]]:
    with pytest.raises(HandError) as err:
        calculate(params)
    return [(e.field, str(e.message)) for e in err.value.errors]


def test_ticked_pure_seven_pairs_is_the_package_as_tiles_price_it():
    # seed 000: 清七对 16 "as one number", + 自摸 1
    ticked = price(rules="sichuan", ticks="seven-pairs,all-one-suit,self-draw")
    tiles = price(rules="sichuan", hand="11223344556677m", by="self-draw", missing="p")
    assert ticked[0] == tiles[0] == 17
    assert ticked == tiles


def test_ticked_dragon_seven_pairs_in_one_suit_is_the_pure_package():
    assert price(rules="sichuan", ticks="dragon-seven-pairs,all-one-suit")[0] == 32


def test_a_ticked_kong_blossom_is_paid_as_a_self_draw():
    fan, by, paid = price(rules="sichuan", ticks="base-win,kong-blossom")
    assert by == "self-draw" and sorted(paid.values()) == [-fan, -fan, -fan, 3 * fan]


@pytest.mark.parametrize("rules, pattern", [("sichuan", "robbing-the-kong"),
                                            ("family", "robbing-the-kong")])
def test_a_ticked_robbed_kong_is_never_a_self_draw(rules, pattern):
    assert any(f == "by" for f, _ in refusal(rules=rules, ticks=pattern, by="self-draw"))


@pytest.mark.parametrize("rules, ticks", [
    ("family", "kong-replacement"), ("sichuan-sbr", "win-after-kong")])
def test_a_ticked_kong_replacement_on_a_discard_is_refused(rules, ticks):
    assert any(f == "by" for f, _ in refusal(rules=rules, ticks=ticks, by="discard"))


@pytest.mark.parametrize("ticks", ["all-chows,all-pongs", "small-three-dragons,great-three-dragons",
                                   "seven-pairs,dragon-pong", "no-bonus-tiles,own-flower",
                                   "full-flush,half-flush"])
def test_hong_kong_tick_sets_no_hand_holds_are_refused_naming_the_patterns(ticks):
    errors = refusal(rules="hong-kong", ticks=ticks, options="seven-pairs")
    assert [f for f, _ in errors] == ["ticks"]
    assert "no hand holds these patterns together" in errors[0][1]


def test_the_tick_link_keeps_the_way_of_winning_actually_used():
    # a family great-four-winds hand won on a discard: the link must not re-price it self-drawn
    params = {"rules": "family", "hand": "111z222z333z444z55m", "seat": "E"}
    calc = calculate(params)
    ticks = tick_params(calc, params)
    assert ticks["by"] == "discard" and ticks["discarder"] == "S"
    again = calculate(ticks)
    assert {p.seat: p.amount for p in again.payments} == {p.seat: p.amount for p in calc.payments}


def test_the_tick_link_carries_only_the_counted_patterns():
    params = {"rules": "hong-kong", "hand": "555z666z777z123m99p", "seat": "S", "by": "self-draw"}
    calc = calculate(params)
    ticked = set(tick_params(calc, params)["ticks"].split(","))
    assert ticked == {i.pattern.id for i in calc.score.counted}
    assert any(not i.counted for i in calc.score.items)   # dragon pongs inside 大三元


def test_a_0_fan_hand_is_ticked_as_none_and_an_empty_tick_set_names_the_ticks_field():
    params = {"rules": "family", "hand": "123m456p789s222m55p", "seat": "S", "discarder": "W",
              "flowers": "1"}
    calc = calculate(params)
    assert calc.score.total_fan == 0
    assert tick_params(calc, params)["ticks"] == "none"
    assert price(**tick_params(calc, params))[2] == {p.seat: p.amount for p in calc.payments}
    assert [f for f, _ in refusal(rules="family", ticks="")] == ["ticks"]
