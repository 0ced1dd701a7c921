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
family (default 10000, of which 6,600-8,800 are accepted); 30000 took 3.5 minutes on a busy
machine. MAHJONG_PROOF_TRIES sets how many hands are drawn towards each pair the corpus leaves
without a witness, and towards each forbidden pair (default 200 and 20). Time: see
docs/rules.md ("Tick-box mode"): the corpus each family's tests share, and the pair test's tick
searches, are the bulk; a pair a corpus hand counts both of is witnessed without one.
"""
from __future__ import annotations

import collections
import itertools
import os
import random

import pytest

from app.base.errors import HandError
from app.hands.readings import readings
from app.rules.loader import registry
from app.scoring.selection import _plan, found_key, present_in
from app.scoring.witness import tick_facts
from app.vocabulary import score as calculate
from app.vocabulary.hand import parse_hand
from app.vocabulary.request import tick_params, witness_params

from .hand_corpus import corpus
from .witness_search import draw_for

HANDS = int(os.environ.get("MAHJONG_PROOF_HANDS", "10000"))
TRIES = int(os.environ.get("MAHJONG_PROOF_TRIES", "200"))
# each tick set is read by a witness search (app/scoring/witness.py): the tick side of the
# corpus is checked on its first TICKED hands, and SETS tick sets of each kind are drawn
TICKED = int(os.environ.get("MAHJONG_PROOF_TICKED", "1000"))
SETS = int(os.environ.get("MAHJONG_PROOF_SETS", "150"))
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
    for params, calc in accepted[:TICKED]:
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
    if all(held[pid] for pid in pair):
        return True    # both counted: whatever ticking the pair counts, the hand counts it
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


# --- beyond pairs: tick sets up to a hand's size, both ways ---------------------------------


def _tile_price(ruleset, calc, given) -> tuple | None:
    """The price of the witness the tick result links to (its 'Edit as tiles'), as tiles."""
    tiles = witness_params(calc, given)
    return None if tiles is None else _priced(calculate(tiles))


def _held_facts(calc) -> dict[str, int]:
    """The patterns a hand's chosen reading holds that tiles show and its way of winning can
    count (a discard-only pattern held in a self-drawn hand is not one of its facts)."""
    return {i.pattern.id: i.count for i in calc.score.items
            if (i.pattern.detect or i.pattern.events or i.pattern.requires)
            and i.pattern.by in (None, calc.table.by)}


def _holds(calc, ticks) -> bool:
    """The hand's chosen reading holds every ticked pattern, per-item ones as many times."""
    held = _held_facts(calc)
    return all(held.get(pid, 0) == n if n > 1 else pid in held for pid, n in ticks.items())


def _ticks_text(ticks) -> str:
    return ",".join(f"{pid}*{n}" if n > 1 else pid for pid, n in ticks.items())


def _check_set(ruleset, ticks, given, rng, found, counts):
    """One tick set: priced with a witness of the same price (payments too), or refused with
    no witness among hands drawn towards it by the test's own drawer. A priced set's search is
    counted as proved the least when its cheapest witness met the floor (app/scoring/witness.py:
    the ticks and what the context forces, below which no hand is priced)."""
    params = {"rules": ruleset.id, "ticks": _ticks_text(ticks), **given}
    counts["checked"] += 1
    try:
        calc = calculate(params)
    except HandError as err:
        if all(e.field != "ticks" for e in err.errors):
            counts["refused otherwise"] += 1   # a seat or way of winning the set cannot have
            return
        counts["refused"] += 1
        for _ in range(TRIES // 4):
            drawn = draw_for(rng, ruleset, [ruleset.by_id[pid] for pid in ticks])
            if drawn is None:
                continue
            drawn.update({k: v for k, v in given.items() if k in ("by", "seat")})
            try:
                hand_calc = calculate(drawn)
            except HandError:
                continue
            if _holds(hand_calc, ticks):
                found.append(("refused, yet held", params, drawn))
                return
        return
    counts["priced"] += 1
    if _tile_price(ruleset, calc, params) == _priced(calc):
        counts["priced, a witness of that price"] += 1
    else:
        found.append(("priced, no witness of that price", params))
    read = tick_facts(calc.ruleset, calc.settings, tuple(sorted(calc.ticks.items())),
                      calc.tick_context)
    counts["priced, the least proved (floor met)"] += read.least


@pytest.fixture(scope="module")
def proof_counts():
    """Tick sets checked, witnessed and refused per family (printed with -s, in docs/rules.md)."""
    counts: dict[str, dict[str, int]] = {}
    yield counts
    report = os.environ.get("MAHJONG_PROOF_REPORT")   # a file to append the counts to
    if report:
        with open(report, "a", encoding="utf-8") as out:
            for family, row in sorted(counts.items()):
                out.write(f"{family}: " + ", ".join(f"{k} {v}" for k, v in sorted(row.items()))
                          + "\n")


def test_tick_sets_a_hand_holds_are_priced_as_a_witness_hand(drawn, proof_counts):
    """Subsets (2 to 6 patterns) of what corpus hands hold: each has a witness (that hand), so
    none is refused, and its result links to a hand of exactly its price, payments included
    (the cheapest witness: ruling 87 as docs/rules.md reads it)."""
    ruleset, accepted = drawn
    rng = random.Random(f"{ruleset.id}:subsets:{SEED}")
    counts = proof_counts.setdefault(ruleset.id, collections.Counter())
    found: list = []
    for params, calc in rng.sample(accepted, min(SETS, len(accepted))):
        held = _held_facts(calc)
        if len(held) < 2:
            continue
        pick = rng.sample(sorted(held), rng.randint(2, min(6, len(held))))
        ticks = {pid: held[pid] for pid in sorted(pick, key=lambda p: ruleset.by_id[p].position)}
        given = {"by": calc.table.by.value, "seat": calc.table.winner,
                 "options": ",".join(sorted(calc.settings.options))}
        before = counts["refused"]
        _check_set(ruleset, ticks, given, rng, found, counts)
        if counts["refused"] > before:
            found.append(("a held set refused", ticks, params))
    assert not found, found[:3]


def test_drawn_tick_sets_are_priced_as_a_witness_or_refused_and_never_both(drawn, proof_counts):
    """Tick sets of 3 to 6 patterns drawn from the form's boxes (seeded): each is priced, with a
    witness of exactly its price, or refused; a refused set has no witness among hands drawn
    towards it (tests/scoring/witness_search.py, the test's own drawer)."""
    ruleset, _ = drawn
    rng = random.Random(f"{ruleset.id}:sets:{SEED}")
    counts = proof_counts.setdefault(ruleset.id, collections.Counter())
    shown = _shown(ruleset)
    found: list = []
    for _ in range(SETS):
        pick = sorted(rng.sample(shown, rng.randint(3, 6)), key=lambda p: ruleset.by_id[p].position)
        by = rng.choice(["self-draw", "discard"])
        ways = {ruleset.by_id[pid].by for pid in pick} - {None}
        if len(ways) == 1:
            by = next(iter(ways)).value
        given = {"by": by, "seat": rng.choice("ESWN"), "options": _options(ruleset, pick)}
        _check_set(ruleset, dict.fromkeys(pick, 1), given, rng, found, counts)
    assert not found, found[:3]
