"""Ticks and tiles, one answer: proved on a large drawn corpus of complete hands per family.

For every hand the calculator accepts (tests/scoring/hand_corpus.py draws them: every shape,
every meld kind, events, bonus tiles, switches), under each family:

- no reading holds a pair of patterns its ruleset's `never_together:` says no hand holds;
- ticking the patterns that counted, with the way of winning and the discarder the tiles used
  (`tick_params`, the result page's tick link), prices exactly as the tiles: fan, points, the
  minimum, and every payment.

The draw is seeded (the same hands every run). MAHJONG_PROOF_HANDS sets how many are drawn per
family (default 10000, of which 6,600-8,800 are accepted: the five families in about 20 s on
2 cores); 30000 took 3.5 minutes on a busy machine.
"""
from __future__ import annotations

import itertools
import os

import pytest

from app.base.errors import HandError
from app.hands.description import parse_hand
from app.hands.readings import readings
from app.rules.loader import registry
from app.scoring.calculation import calculate, tick_params
from app.scoring.selection import _plan, found_key, present_in

from .hand_corpus import corpus

HANDS = int(os.environ.get("MAHJONG_PROOF_HANDS", "10000"))
SEED = 22
FAMILIES = sorted(registry())


def _priced(calc) -> tuple:
    return (calc.score.total_fan, calc.score.capped_fan, calc.score.points,
            calc.score.below_minimum, calc.table.by,
            tuple(sorted((p.seat, p.amount) for p in calc.payments)))


@pytest.fixture(scope="module", params=FAMILIES)
def drawn(request):
    """The accepted hands of one family's corpus, each with its calculation."""
    ruleset = registry()[request.param]
    accepted = []
    for params in corpus(ruleset, SEED, HANDS):
        try:
            accepted.append((params, calculate(params)))
        except HandError:
            continue
    return ruleset, accepted


def test_the_corpus_is_large_and_reaches_every_detected_pattern(drawn):
    ruleset, accepted = drawn
    assert len(accepted) >= HANDS // 3
    counted = {i.pattern.id for _, calc in accepted for i in calc.score.items}
    reachable = {p.id for p in ruleset.patterns if p.detect or p.events}
    # a pattern only a switch turns into a win may stay out of the counted lists
    assert len(reachable - counted) <= len(reachable) // 5, sorted(reachable - counted)


def test_no_hand_holds_a_pair_its_ruleset_says_is_never_held_together(drawn):
    ruleset, accepted = drawn
    every_shape = ruleset.shape_rules(frozenset(ruleset.option_ids))
    apart = ruleset.never_together
    found = []
    for params, _ in accepted:
        hand = parse_hand(params)
        plan = _plan(ruleset, hand.context.events)
        for reading in readings(hand, every_shape):
            held = present_in(found_key(reading, hand.context, plan), ruleset)
            found += [(a, b, params) for a, b in itertools.combinations(held, 2)
                      if b in apart.get(a, ())]
    assert not found, found[:3]


def test_ticking_each_hands_counted_patterns_prices_exactly_as_its_tiles(drawn):
    ruleset, accepted = drawn
    differ = []
    for params, calc in accepted:
        ticked = calculate(tick_params(calc, params))
        if _priced(ticked) != _priced(calc):
            differ.append((params, tick_params(calc, params)))
    assert not differ, differ[:3]
