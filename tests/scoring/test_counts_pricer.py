"""The outlook's values path prices a winning hand exactly as `calculate` does.

`counts_pricer` takes a hand as values (the 34 counts of its concealed tiles and the winning
tile's kind, beside melds and a context fixed for many hands) and skips what only a
Calculation or a refusal's words need. For every family, the drawn hands of
tests/scoring/hand_corpus.py (melds of every kind, seven pairs, thirteen orphans, nine gates,
bonus tiles, events, a missing suit, house rules, a named discarder) and the corpus's complete
hands, under the lowest, the default and the highest minimum: the same reading, breakdown,
totals and payments, or a refusal on both sides.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from app.base.errors import HandError
from app.hands.hand import Hand, WinBy, WinContext
from app.hands.readings import readings
from app.rules.detectors import DETECTORS, GATES
from app.rules.loader import registry
from app.scoring import calculation, selection
from app.scoring.calculation import calculate, counts_pricer
from app.vocabulary.hand import describe
from app.vocabulary.request import read_ask
from tests.conftest import load_corpus
from tests.hands.test_corpus import corpus_hand
from tests.scoring.hand_corpus import corpus

RULESETS = registry()
CORPUS = [describe(corpus_hand(e)) for e in load_corpus("complete_standard.json")[::8]]
CORPUS += [describe(corpus_hand(e)) for e in load_corpus("complete_chiitoi.json")[::8]]


def minimums(ruleset) -> list[dict[str, str]]:
    low, high = ruleset.min_range
    return [{}, {"min": str(low)}, {"min": str(high)}]


def asks(ruleset):
    """Every request of the family's drawn and corpus hands that reads, at three minimums."""
    hands = list(corpus(ruleset, seed=43, count=400))
    hands += [{"rules": ruleset.id, **hand} for hand in CORPUS]
    for params in hands:
        for dial in minimums(ruleset):
            try:
                yield read_ask({**params, **dial})
            except HandError:
                continue   # refused as read (a bad field): no tiles to price


def in_full(ask):
    """What calculate answers: the priced parts of the Calculation, or None when refused."""
    try:
        calc = calculate(ask)
    except HandError:
        return None
    return calc.score, calc.payments


def as_values(ask):
    """The same hand through counts_pricer: its context as the frame, its tiles as counts (the
    Score and payments; whether every winning tile prices alike is left out)."""
    priced = _pricer(ask)(bytes(ask.hand.concealed_counts), ask.hand.win)
    return None if priced is None else priced[:2]


def _pricer(ask):
    hand = ask.hand
    return counts_pricer(replace(ask, hand=Hand((), context=hand.context)), hand.melds)


@pytest.mark.parametrize("rules", list(RULESETS))
def test_the_values_path_prices_as_calculate(rules):
    ruleset = RULESETS[rules]
    priced = refused = below = 0
    for ask in asks(ruleset):
        want = in_full(ask)
        assert as_values(ask) == want, ask.hand.description
        if want is None:
            refused += 1
        else:
            priced += 1
            below += want[0].below_minimum
    # the comparison covers priced hands, hands below the minimum and refused ones
    assert priced > 500 and refused > 20 and below > 20, (priced, refused, below)


def test_plain_contexts_never_build_a_hand(monkeypatch):
    """The comparison above tests the values path only if it is the one taken: with no events
    and no liable player, counts_pricer prices without calculate."""
    monkeypatch.setattr(calculation, "price_hand", _never)
    monkeypatch.setattr(calculation, "_calculate_in_full", _never)
    ruleset = RULESETS["hong-kong"]
    taken = 0
    for ask in asks(ruleset):
        if not ask.hand.context.events and ask.seats.liable is None:
            as_values(ask)
            taken += 1
    assert taken > 500


def _never(*args):
    raise AssertionError("the values path built a Calculation")


@pytest.mark.parametrize("rules", list(RULESETS))
def test_a_plan_made_for_one_context_finds_what_the_plan_finds(rules):
    """A frame's plan (context_plan) works out once what reads only the context; on every
    reading of the drawn hands, in their own contexts (bonus tiles, seats, ways of winning,
    events), it finds the same key as the plan every context shares."""
    ruleset = RULESETS[rules]
    compared = 0
    for ask in asks(ruleset):
        hand = ask.hand
        general, _ = selection._plan(ruleset, hand.context.events)
        for_context, _ = selection.context_plan(ruleset, hand.context)
        for reading in readings(hand, ruleset.shape_rules(ask.settings.options)):
            assert for_context(reading, hand.context) == general(reading, hand.context), (
                hand.description, hand.context)
            compared += 1
    assert compared > 1000


def test_what_reads_only_the_context_needs_no_reading():
    """Each detector and gate marked CONTEXT_ONLY answers without a reading (context_plan
    calls them on none): one that read the reading would fail here, not price wrongly."""
    contexts = [WinContext(), WinContext(by=WinBy.SELF_DRAW, seat="S", flowers=(1, 2, 3, 4),
                                         seasons=(2,))]
    for name in selection.CONTEXT_ONLY:
        check = DETECTORS.get(name) or GATES[name]
        assert {int(check(None, ctx)) for ctx in contexts} <= {0, 1}


@pytest.mark.parametrize("rules", list(RULESETS))
def test_a_hand_said_to_price_alike_for_every_winning_tile_does(rules):
    """Where counts_pricer says every winning tile of the counts prices alike (no detector
    that may read the winning tile could on its readings: selection.win_tests), each other
    kind of tile the hand holds, as the winning tile, finds the same total, patterns and
    payments, or the same refusal; and both answers are given."""
    ruleset = RULESETS[rules]
    said = {True: 0, False: 0}
    for ask in asks(ruleset):
        priced = _pricer(ask)
        counts = bytes(ask.hand.concealed_counts)
        first = priced(counts, ask.hand.win)
        if first is None:
            continue
        said[first[2]] += 1
        if not first[2]:
            continue
        for kind in {t for t in ask.hand.concealed if t != ask.hand.win}:
            other = priced(counts, kind)
            assert other is not None and other[2], (ask.hand.description, kind)
            assert (other[0].total_fan, other[0].items, other[0].below_minimum, other[1]) == (
                first[0].total_fan, first[0].items, first[0].below_minimum, first[1]), (
                ask.hand.description, kind)
    assert said[True] > 300 and said[False] > 100, said
