"""A score request read into an Ask: each field into its value, each refusal named by its field."""
from __future__ import annotations

from fractions import Fraction

import pytest

from app.base.errors import HandError
from app.hands.hand import WinBy
from app.rules.loader import registry
from app.scoring.calculation import Ask, Seats, calculate
from app.vocabulary import read_ask, score, waits
from app.vocabulary.request import read_table, read_ticks, tick_params

HK = registry()["hong-kong"]


def fields(err: HandError) -> list[str]:
    return [e.field for e in err.errors]


def test_a_hand_request_reads_into_values():
    ask = read_ask({"rules": "hong-kong", "hand": "123m456m789m234p55s", "seat": "S",
                    "by": "self-draw", "min": "0", "stake": "0.5"})
    assert isinstance(ask, Ask) and ask.ruleset is HK
    assert ask.hand.win.code == "5s" and ask.hand.context.by is WinBy.SELF_DRAW
    assert (ask.settings.min, ask.settings.stake) == (0, Fraction(1, 2))
    assert (ask.seats.seat, ask.seats.winner) == ("S", "S")   # the winner follows the seat
    assert ask.by_given and not ask.round_given
    assert [a.field for a in ask.assumed] == ["winner"]
    assert ask.ticks is None and ask.fan is None


def test_ticks_and_a_fan_total_read_into_their_own_values():
    ticked = read_ask({"rules": "hong-kong", "ticks": "dragon-pong*2,self-draw"})
    assert ticked.ticks == {"dragon-pong": 2, "self-draw": 1} and ticked.hand is None
    assert ticked.by is WinBy.SELF_DRAW and not ticked.by_given   # a ticked self-draw needs one
    fan = read_ask({"rules": "hong-kong", "fan": "5", "by": "ron"})
    assert (fan.fan, fan.by, fan.hand) == (5, WinBy.DISCARD, None)


def test_reading_refuses_by_field_and_keeps_every_dial_error():
    with pytest.raises(HandError) as caught:
        read_ask({"hand": "123m456m789m234p55s", "min": "x", "cap": "99", "payment": "zz"})
    assert fields(caught.value) == ["min", "cap", "payment"]
    with pytest.raises(HandError) as caught:
        read_ask({"rules": "nowhere", "hand": "123m"})
    assert fields(caught.value) == ["rules"]


def test_seats_that_are_no_seats_are_kept_for_calculate_to_report_after_the_hand():
    seats = read_table({"discarder": "Q", "won": "S,X", "liable": ""})
    assert seats == Seats(won=("S",), errors=seats.errors)
    assert fields(HandError(seats.errors)) == ["discarder", "won"]
    ask = read_ask({"hand": "123m456m789m234p55s", "discarder": "Q"})   # reading does not refuse
    with pytest.raises(HandError) as caught:
        calculate(ask)
    assert fields(caught.value) == ["discarder"]


def test_a_tick_list_refuses_an_unknown_pattern_and_a_count_out_of_range():
    assert read_ticks({"ticks": "none"}, HK) == {}
    for ticks in ("no-such-pattern", "self-draw*2", "dragon-pong*9"):
        with pytest.raises(HandError) as caught:
            read_ticks({"ticks": ticks}, HK)
        assert fields(caught.value) == ["ticks"], ticks


def test_score_is_read_then_calculate():
    params = {"rules": "hong-kong", "hand": "111m222p333s44z555z", "discarder": "N"}
    assert score(params) == calculate(read_ask(params))
    fast = score({"hand": "123m456m789m234p55s"})        # the quick path for a plain hand
    assert fast == calculate(read_ask({"hand": "123m456m789m234p55s"}))


def test_tick_params_prices_the_same_win_in_tick_box_mode():
    calc = score({"rules": "hong-kong", "hand": "111m222p333s44z555z", "seat": "W", "stake": "2"})
    again = score(tick_params(calc, {"stake": "2", "hand": "ignored"}))
    assert again.score.total_fan == calc.score.total_fan
    assert [(p.seat, p.amount) for p in again.payments] == [(p.seat, p.amount) for p in calc.payments]
    assert again.table.discarder == calc.table.discarder == "N"   # taken, then written out


def test_waits_are_read_and_each_wait_priced():
    found = waits({"rules": "hong-kong", "hand": "123m456m789m234p5s"})
    assert [w.tile.code for w in found.waits] == ["5s"]
    assert found.waits[0].calculation.hand.win.code == "5s"
