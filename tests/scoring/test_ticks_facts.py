"""Ticks are the facts of one hand (rulings 86-89): what a tick set implies is counted and said,
and a set no hand holds in the request's context is refused on `ticks`, naming the patterns.

Each priced case is compared with tiles the same facts force, priced in tile mode: the money
is the tiles', by construction (app/scoring/witness.py), not a second list of rules.
"""
from __future__ import annotations

import pytest

from app.base.errors import HandError
from app.vocabulary import score
from app.vocabulary.request import witness_params


def _money(calc) -> tuple:
    return (calc.score.total_fan, calc.score.points,
            tuple(sorted((p.seat, p.amount) for p in calc.payments)))


def _counted(calc) -> set[str]:
    return {i.pattern.id for i in calc.score.counted}


# (ticks request, tiles every such hand is like, the pattern the ticks are read to make)
IMPLIED = [
    # ruling 87: all pongs + concealed + self-draw are 四暗刻
    ({"rules": "hong-kong", "ticks": "all-pongs,concealed-hand,self-draw", "by": "self-draw"},
     {"rules": "hong-kong", "hand": "111m555p999s222z33z", "win": "3z", "by": "self-draw",
      "flowers": "2"}, "four-concealed-pongs"),
    # three dragon pongs are 大三元
    ({"rules": "hong-kong", "ticks": "dragon-pong*3", "seat": "S"},
     {"rules": "hong-kong", "hand": "555666777z99p", "win": "9p", "seat": "S",
      "melds": "123m", "flowers": "1"}, "great-three-dragons"),
    # Sichuan seven pairs + 根 are 龙七对, with 清一色 清龙七对
    ({"rules": "sichuan", "ticks": "seven-pairs,root"},
     {"rules": "sichuan", "hand": "11112233m445566p", "win": "6p"}, "dragon-seven-pairs"),
    ({"rules": "sichuan", "ticks": "seven-pairs,root,all-one-suit"},
     {"rules": "sichuan", "hand": "11112233445566m", "win": "6m"}, "pure-dragon-seven-pairs"),
    # ruling 86: a ticked kong-replacement win is a self-draw; 自摸 counts beside it
    ({"rules": "family", "ticks": "kong-replacement"},
     {"rules": "family", "hand": "234m567p345s88s", "win": "8s", "melds": "ckong:9999m",
      "by": "self-draw", "events": "kong-replacement", "flowers": "2"}, "self-draw"),
    ({"rules": "hong-kong", "ticks": "all-pongs", "by": "self-draw"},
     {"rules": "hong-kong", "hand": "111m555p88s", "win": "8s", "melds": "999s,222m",
      "by": "self-draw", "flowers": "2"}, "self-draw"),
]


@pytest.mark.parametrize(("ticks", "tiles", "made"), IMPLIED,
                         ids=[f"{t['rules']}:{t['ticks']}" for t, _, _ in IMPLIED])
def test_what_every_hand_holding_the_ticks_holds_is_counted_and_said(ticks, tiles, made):
    calc = score(ticks)
    assert made not in ticks["ticks"].split(",")
    assert made in _counted(calc)
    named = [str(m) for m in calc.inferred]
    assert any(str(calc.ruleset.by_id[made].name) in m for m in named), named
    hand = score(tiles)
    assert made in _counted(hand)
    assert _money(calc) == _money(hand)


@pytest.mark.parametrize(("ticks", "tiles", "made"), IMPLIED,
                         ids=[f"{t['rules']}:{t['ticks']}" for t, _, _ in IMPLIED])
def test_edit_as_tiles_opens_a_witness_priced_as_the_ticks(ticks, tiles, made):
    calc = score(ticks)
    witness = witness_params(calc, ticks)
    assert witness is not None and "hand" in witness
    assert _money(score(witness)) == _money(calc)


def test_a_discard_win_does_not_count_self_draw():
    calc = score({"rules": "hong-kong", "ticks": "all-pongs", "by": "discard"})
    assert _counted(calc) == {"all-pongs"}
    assert not calc.inferred


REFUSED = [
    # ruling 88: no hand holds the whole set, though no pair of it is forbidden
    ({"rules": "hong-kong", "ticks": "small-three-dragons,dragon-pong*3"}, "ticks"),
    ({"rules": "hong-kong", "ticks": "small-four-winds,dragon-pong,half-flush"}, "ticks"),
    ({"rules": "hong-kong", "ticks": "great-three-dragons,seat-wind,round-wind", "seat": "S",
      "round": "E"}, "ticks"),
    # flowers= against a ticked flower pattern
    ({"rules": "hong-kong", "ticks": "no-bonus-tiles", "flowers": "12"}, "ticks"),
    ({"rules": "hong-kong", "ticks": "own-flower", "seat": "E", "flowers": "23"}, "ticks"),
    # rulings 79 and 89: all eight bonus tiles on a discard
    ({"rules": "family", "ticks": "all-chows", "flowers": "1234", "seasons": "1234",
      "by": "discard"}, "ticks"),
    ({"rules": "hong-kong-course", "ticks": "all-chows", "flowers": "1234", "seasons": "1234",
      "by": "discard"}, "ticks"),
]


@pytest.mark.parametrize(("ticks", "field"), REFUSED, ids=[t["ticks"] for t, _ in REFUSED])
def test_a_set_no_hand_holds_is_refused_on_ticks_naming_the_patterns(ticks, field):
    with pytest.raises(HandError) as refused:
        score(ticks)
    errors = refused.value.errors
    assert [e.field for e in errors] == [field]
    calc_names = score({"rules": ticks["rules"], "ticks": ticks["ticks"].split(",")[0]})
    first = calc_names.ruleset.by_id[ticks["ticks"].split(",")[0].split("*")[0]]
    assert str(first.name) in str(errors[0].message)


def test_eight_bonus_tiles_self_drawn_in_the_course_price_the_higher_reading():
    """Ruling 89: the eight-flower win or the ordinary reading, whichever is worth more."""
    tiles = {"rules": "hong-kong-course", "hand": "123m456m789m123p55s", "win": "5s",
             "by": "self-draw", "flowers": "1234", "seasons": "1234"}
    calc = score(tiles)
    assert "eight-flowers" in _counted(calc)
    with pytest.raises(HandError):
        score({**tiles, "by": "discard"})


def test_the_round_and_bonus_tiles_given_are_read():
    with pytest.raises(HandError) as refused:
        score({"rules": "hong-kong", "ticks": "all-chows", "round": "Q"})
    assert [e.field for e in refused.value.errors] == ["round"]
    with pytest.raises(HandError) as refused:
        score({"rules": "hong-kong", "ticks": "all-chows", "flowers": "15"})
    assert [e.field for e in refused.value.errors] == ["flowers"]
