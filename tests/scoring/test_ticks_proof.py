"""Ticks and tiles, one answer: proved on a large drawn corpus of complete hands per family.

For every hand the calculator accepts (tests/scoring/hand_corpus.py draws them: every shape,
every meld kind, events, bonus tiles, switches), under each family:

- no reading holds a pair of patterns its ruleset's `never_together:` says no hand holds;
- ticking the patterns that counted, with the way of winning and the discarder the tiles used
  (`tick_params`, the result page's tick link), prices exactly as the tiles: fan, points, the
  minimum, and every payment.

And the other half, pair by pair: every pair of patterns the tick form accepts together has a
witness, a tile hand whose chosen reading holds both and counts each one the ticks count; the
corpus gives most, and hands drawn towards the pair (tests/scoring/witness_search.py) the rest.
Hands drawn towards a pair `never_together:` forbids never hold it either. So the tick form
refuses exactly the pairs no hand holds. Patterns with no tiles to show (HKC's seven- and
eight-flower wins, ticked only) have no witness to find and stay out of the pairs.

The draw is seeded (the same hands every run). MAHJONG_PROOF_HANDS sets how many are drawn per
family (default 10000, of which 6,600-8,800 are accepted: the five families in about 20 s on
2 cores); 30000 took 3.5 minutes on a busy machine. MAHJONG_PROOF_TRIES sets how many hands
are drawn towards each pair the corpus leaves without a witness, and towards each forbidden
pair (default 200 and 20); the two pair tests add under 5 s for the five families (--durations:
the course's 0.9 s and 1.2 s the largest), the corpus they share staying the bulk of the time.
"""
from __future__ import annotations

import itertools
import os
import random

import pytest

from app.base.errors import HandError
from app.hands.readings import readings
from app.rules.loader import registry
from app.scoring.selection import _plan, found_key, present_in
from app.vocabulary import score as calculate
from app.vocabulary.hand import parse_hand
from app.vocabulary.request import tick_params

from .hand_corpus import corpus
from .witness_search import draw_for

HANDS = int(os.environ.get("MAHJONG_PROOF_HANDS", "10000"))
TRIES = int(os.environ.get("MAHJONG_PROOF_TRIES", "200"))
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


# --- the witness half: each pair the ticks accept is held by some hand ---------------------


def _shown(ruleset) -> list[str]:
    """The patterns tiles can show (a detector, an event or a package of them), in file order."""
    return [p.id for p in ruleset.patterns if p.detect or p.events or p.requires]


def _options(ruleset, pair) -> str:
    return ",".join(pid for pid in pair if ruleset.by_id[pid].optional)


def _ticks_accept(ruleset, pair) -> bool:
    """Whether the tick form prices this pair (at East, or at South for a non-dealer's event)."""
    for seat in "ES":
        try:
            calculate({"rules": ruleset.id, "ticks": ",".join(pair), "seat": seat,
                       "options": _options(ruleset, pair)})
            return True
        except HandError:
            continue
    return False


def _witnesses(ruleset, params, calc, pair) -> bool:
    """The hand's chosen reading holds both patterns and, unless one excludes the other (a limit
    hand, one tier, an inclusion), counts each one that ticking the pair counts."""
    held = {i.pattern.id: i.counted for i in calc.score.items}
    if any(pid not in held for pid in pair):
        return False
    a, b = pair
    if b in ruleset.conflicts[a]:
        return True
    if any(ruleset.by_id[pid].optional and pid not in calc.settings.options for pid in pair):
        return False   # a house rule left off holds the pattern without pricing it
    ticked = dict(tick_params(calc, params), ticks=",".join(pair))
    try:
        counted = {i.pattern.id for i in calculate(ticked).score.counted}
    except HandError:
        return False
    return all(held[pid] for pid in pair if pid in counted)


def _held_pairs(calc, order) -> set[tuple[str, str]]:
    held = sorted((i.pattern.id for i in calc.score.items), key=order.index)
    return set(itertools.combinations(held, 2))


def test_every_pair_the_ticks_accept_has_a_witness_hand(drawn):
    ruleset, accepted = drawn
    order = [p.id for p in ruleset.patterns]
    pairs = {pair for pair in itertools.combinations(_shown(ruleset), 2)
             if _ticks_accept(ruleset, pair)}
    witness: dict[tuple[str, str], dict] = {}
    for params, calc in accepted:
        for pair in (_held_pairs(calc, order) & pairs) - witness.keys():
            if _witnesses(ruleset, params, calc, pair):
                witness[pair] = params
    rng = random.Random(f"{ruleset.id}:witness:{SEED}")
    for pair in sorted(pairs - witness.keys(), key=lambda p: (order.index(p[0]), order.index(p[1]))):
        for _ in range(TRIES):
            params = draw_for(rng, ruleset, [ruleset.by_id[pid] for pid in pair])
            if params is None:
                continue
            try:
                calc = calculate(params)
            except HandError:
                continue
            if _witnesses(ruleset, params, calc, pair):
                witness[pair] = params
                break
    missing = sorted(pairs - witness.keys())
    assert len(pairs) > 20
    assert not missing, f"{len(missing)} of {len(pairs)} pairs without a witness: {missing[:20]}"


def test_hands_drawn_towards_a_forbidden_pair_never_hold_it(drawn):
    ruleset, _ = drawn
    every_shape = ruleset.shape_rules(frozenset(ruleset.option_ids))
    shown = set(_shown(ruleset))
    forbidden = sorted({tuple(sorted((a, b))) for a, others in ruleset.never_together.items()
                        for b in others if a in shown and b in shown})
    rng = random.Random(f"{ruleset.id}:forbidden:{SEED}")
    found, drawn_hands = [], 0
    for a, b in forbidden:
        for _ in range(max(1, TRIES // 10)):
            params = draw_for(rng, ruleset, [ruleset.by_id[a], ruleset.by_id[b]])
            if params is None:
                continue
            try:
                calculate(params)   # only hands the calculator accepts, as for the corpus
            except HandError:
                continue
            drawn_hands += 1
            hand = parse_hand(params)
            plan = _plan(ruleset, hand.context.events)
            for reading in readings(hand, every_shape):
                held = present_in(found_key(reading, hand.context, plan), ruleset)
                if a in held and b in held:
                    found.append((a, b, params))
    assert not forbidden or drawn_hands > 0
    assert not found, found[:3]
