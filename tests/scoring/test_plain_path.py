"""calculate's quick path for plainly written hands answers exactly as the full reading does.

`calculate` reads the fields around the tiles once per combination (`_frame`) and prices a
plainly written hand from there; every other request, and any refusal, goes through
`_calculate_in_full`. Both must give the same Calculation, or the same errors, in the same
order, for every family and for the fields that change the frame.
"""
from __future__ import annotations

import pytest

from app.base.errors import HandError
from app.rules.loader import registry
from app.scoring import calculation
from app.vocabulary import request
from app.vocabulary import score as calculate
from app.vocabulary.hand import describe
from app.vocabulary.request import read_ruleset
from tests.conftest import load_corpus
from tests.hands.test_corpus import corpus_hand

HANDS = [describe(corpus_hand(e)) for e in load_corpus("complete_standard.json")[::40]]
OTHER_FIELDS = [
    {}, {"seat": "", "round": "", "by": ""}, {"discarder": "S"}, {"seat": "W"},
    {"seat": "", "winner": "N"}, {"won": "S"}, {"won": "S,W", "by": "self-draw"},
    {"liable": "W"}, {"flowers": "12"}, {"seasons": "3"}, {"missing": "m"}, {"missing": "p"},
    {"options": "seven-pairs"}, {"min": "0"}, {"min": "9"}, {"cap": "none"}, {"stake": "0.5"},
    {"events": "kong-replacement"}, {"events": "robbing-kong", "by": "discard"},
    {"by": "xx"}, {"seat": "Q"}, {"min": "99"}, {"payment": "zz"}, {"curve": "zz"},
]


def answer(read, params):
    """The Calculation, or the refusal's fields and messages."""
    try:
        return read(params)
    except HandError as err:
        return [(e.field, str(e.message)) for e in err.errors]


def in_full(params):
    try:
        ask = request._read_in_full(params, read_ruleset(params))
    except HandError as err:
        return [(e.field, str(e.message)) for e in err.errors]
    return calculation._calculate_in_full(ask)


@pytest.mark.parametrize("rules", list(registry()))
def test_quick_path_answers_as_the_full_reading(rules):
    for hand in HANDS:
        for other in OTHER_FIELDS:
            params = {"rules": rules, **hand, **other}
            assert answer(calculate, params) == answer(in_full, params), params


def test_plain_hands_take_the_quick_path(monkeypatch):
    """The comparison above is worth something only if calculate takes the quick path."""
    taken = []
    quick = request.price_hand
    monkeypatch.setattr(request, "price_hand",
                        lambda *args: taken.append(1) or quick(*args))
    for hand in HANDS:
        calculate({"rules": "hong-kong", **hand})
    assert len(taken) == len(HANDS)
