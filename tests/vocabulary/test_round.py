"""A round's hands read ahead of its settlement, each refusal raised in the settlement's turn."""
from __future__ import annotations

import pytest

from app.base.errors import HandError
from app.hands.hand import Hand
from app.scoring.calculation import Ask
from app.vocabulary.round import parse_round_text, read_hands, read_round, settle_round


def fields(err: HandError) -> list[str]:
    return [e.field for e in err.errors]


def test_each_win_and_wall_hand_is_read_into_a_value_or_its_refusal():
    round_ = read_round(parse_round_text("missing S=p\nwin S discard from E hand=123m456m789m234m5m\n"
                                         "win W self-draw hand=123s456s789s234s55s events=last-tile\n"
                                         "wall E hand=123m456m789m1234s; N pig"))
    hands = read_hands(round_)
    assert isinstance(hands.wins[0], HandError) and fields(hands.wins[0]) == ["hand"]
    asked = hands.wins[1]
    assert isinstance(asked, Ask) and asked.hand.context.seat == "W" and asked.by_given
    assert hands.events == {0: frozenset(), 1: frozenset({"last-tile"})}
    assert isinstance(hands.wall["E"], Hand) and "N" not in hands.wall   # a pig shows no tiles


def test_a_refused_hand_is_raised_when_the_settlement_reaches_it_named_by_its_event():
    with pytest.raises(HandError) as caught:
        settle_round(read_round(parse_round_text("win S discard from E hand=123m456m789m234m5m")))
    assert fields(caught.value) == ["events[0].hand"]


def test_an_earlier_event_is_refused_before_a_later_hand_that_does_not_read():
    text = ("win S discard from E hand=123m456m789m234m55m events=kong-cannon\n"
            "win N discard from W hand=1m")
    with pytest.raises(HandError) as caught:
        settle_round(read_round(parse_round_text(text)))
    assert fields(caught.value) == ["events[0].events"]
