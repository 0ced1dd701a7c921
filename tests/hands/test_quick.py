"""app/hands/quick.py: where xiangting answers, it answers as efficiency.py does.

Each question asked both ways on random hands built near complete (many ready, many holding a
tile three or four times, some with declared melds and fewer concealed tiles) at every table
the families make and a few more (each family's forms with and without honours, Sichuan's
with its missing suit declared, held or not), and on the corpus's 2,000 random hands; at the
tables without seven pairs, hands near seven pairs and the standard form at once (xiangting's
answer may be its seven pairs: quick.py takes each set out in turn), and the standard form so
found on hands of few kinds, many held four times.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from app.hands import quick
from app.hands.efficiency import Table, complete, discard_shanten, form_shanten, improving_tiles
from app.hands.readings import ShapeRules
from tests.conftest import load_corpus


def test_xiangting_is_installed_with_the_package():   # a dependency: its absence is a fault here
    assert quick._xt is not None


FAMILY = (ShapeRules(seven_pairs=True, seven_pairs_quads=False, thirteen_orphans=True), Table())
SICHUAN = (ShapeRules(seven_pairs=True, seven_pairs_quads=True, thirteen_orphans=False),
           Table(honours=False, missing="s"))
HONG_KONG = (ShapeRules(seven_pairs=False, seven_pairs_quads=False, thirteen_orphans=True), Table())
SUITED = list(range(27))
CHARACTERS = list(range(9))

# (name, rules, table, the kinds hands are built of, and of the tiles swapped in: the
# missing suit's, dead)
CASES = [
    ("family", *FAMILY, list(range(34)), ()),
    ("sichuan", *SICHUAN, list(range(18)), ()),
    # some of the missing suit held: its tiles are dead
    ("sichuan-dead", *SICHUAN, list(range(18)), list(range(18, 27))),
    ("sichuan-dead-characters", SICHUAN[0], Table(honours=False, missing="m"), list(range(9, 27)),
     CHARACTERS),
    ("dead-distinct-pairs", FAMILY[0], Table(honours=False, missing="m"), list(range(9, 27)),
     CHARACTERS),
    ("dead-no-pairs", HONG_KONG[0], Table(honours=False, missing="p"), CHARACTERS + list(
        range(18, 27)), list(range(9, 18))),
    ("sichuan-missing-held", *SICHUAN, SUITED, ()),   # a third of the tiles dead
    ("sichuan-undeclared", SICHUAN[0], Table(honours=False), SUITED, ()),
    ("hong-kong", *HONG_KONG, list(range(34)), ()),
    ("orphans-near", *HONG_KONG, [0, 8, 9, 17, 18, 26, *range(27, 34)], ()),
    ("no-orphans", ShapeRules(seven_pairs=True, thirteen_orphans=False), Table(),
     [0, 8, 9, 17, 18, 26, *range(27, 34)], ()),
    ("standard-only", ShapeRules(seven_pairs=False, thirteen_orphans=False), Table(), list(range(34)), ()),
    ("quads-with-honours", ShapeRules(seven_pairs=True, seven_pairs_quads=True,
                                      thirteen_orphans=True), Table(), list(range(34)), ()),
    ("family-no-honours", FAMILY[0], Table(honours=False), SUITED, ()),
]


def _built(rng: random.Random, size: int, kinds: list[int]) -> list[int] | None:
    """`size` tiles of sets and a pair, or of pairs (a third of them: seven pairs' form), with
    a few swapped: near complete, often holding a tile three or four times."""
    counts = [0] * 34
    pairs = size >= 13 and rng.random() < 1 / 3
    while sum(counts) < size - 2:
        k = rng.choice(kinds)
        run = k < 27 and k % 9 < 7 and k + 2 in kinds and rng.random() < 0.5
        for j in ((k, k) if pairs else (k, k + 1, k + 2) if run else (k, k, k)):
            counts[j] += 1
    counts[rng.choice(kinds)] += 2
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        counts[rng.choice([i for i in range(34) if counts[i]])] -= 1
        counts[rng.choice(kinds)] += 1
    while sum(counts) > size:
        counts[rng.choice([i for i in range(34) if counts[i]])] -= 1
    return counts if max(counts) <= 4 else None


def _hands(size: int, count: int, seed: str, kinds: list[int], dead: list[int] = ()
           ) -> list[tuple[int, int, ...]]:
    """(melds, counts...) of `count` hands: most with no melds, some with one to four (and
    three fewer concealed tiles each); with `dead` kinds, most hold one to five of them."""
    rng = random.Random(seed)
    found: list[tuple[int, ...]] = []
    while len(found) < count:
        melds = rng.choice((0, 0, 0, 0, 1, 1, 2, 3, 4))
        counts = _built(rng, size - 3 * melds, kinds)
        for _ in range(rng.choice((0, 1, 1, 1, 2, 2, 3, 4, 5)) if dead and counts else 0):
            counts[rng.choice([i for i in range(34) if counts[i]])] -= 1
            counts[rng.choice(dead)] += 1
        if counts is not None and max(counts) <= 4 and sum(counts) == size - 3 * melds:
            found.append((melds, *counts))
    return found


def _slow_improving(counts, melds, rules, table):
    forms = form_shanten(counts, melds, rules, table)
    kinds = (tuple(int(i.tile) for i in improving_tiles(counts, melds, rules, table, counts, forms))
             if forms.best > 0 else ())
    return forms.best, kinds


def _waits(counts, melds, rules, table):
    return tuple(k for k in range(34) if counts[k] < 4 and complete(
        _plus(counts, k), melds, rules, table))


def _way(counts: tuple[int, ...], melds: int, rules, table) -> str:
    """Which way quick.py answers 13 tiles: efficiency.py's, xiangting's alone, or joined
    with Sichuan's seven pairs (nearer, or as near)."""
    found = quick._thirteen(bytes(counts), melds, rules, table)
    if found is None:
        return "efficiency"
    if not quick.exact(counts, melds, rules, table):
        return "dead"
    if melds:
        return "melds"
    if not rules.seven_pairs:   # xiangting's seven pairs as near: the sets taken out one by one
        rn, _ = quick._xt.calculate_necessary_tiles(bytes(counts), quick._FOUR)
        return "sets" if quick._distinct_pairs(bytes(counts)) <= rn - 1 else "xiangting"
    if not rules.seven_pairs_quads:
        return "xiangting"
    rn = quick._xt.calculate_replacement_number(list(counts), quick._FOUR)
    return "xiangting" if found[0] == rn - 1 and found[1] == quick._kinds(
        quick._xt.calculate_necessary_tiles(list(counts), quick._FOUR)[1], table) else "joined"


@pytest.mark.parametrize("name, rules, table, kinds, dead", CASES, ids=[c[0] for c in CASES])
def test_improving_kinds_and_waits_agree_on_thirteen_tiles(name, rules, table, kinds, dead):
    hands = _hands(13, 2000, name, kinds, dead)
    if name in ("family", "hong-kong"):
        hands += [(0, *_counts(e["hand"])) for e in load_corpus("random13.json")]
    ways: Counter[str] = Counter()
    ready = 0
    for melds, *counts in hands:
        counts = tuple(counts)
        ways[_way(counts, melds, rules, table)] += 1
        s, useful = quick.improving_kinds(counts, melds, rules, table)
        assert (s, useful) == _slow_improving(counts, melds, rules, table), (melds, counts)
        waits = None
        if s == 0:
            ready += 1
            waits = quick.waiting_kinds(counts, melds, rules, table, range(34))
            assert waits == _waits(counts, melds, rules, table), (melds, counts)
        # the outlook's one question (its hands as bytes): the waits when ready, else the same
        assert quick.state_kinds(bytes(counts), melds, rules, table, range(34)) == (
            (s, waits) if s == 0 else (s, useful)), (melds, counts)
    assert ready > (0 if dead else 50)
    _check_ways(name, ways, len(hands))


def _check_ways(name: str, ways: Counter, total: int) -> None:
    """Many hands take each way this table allows, so each is checked (and xiangting answers
    most of them)."""
    if name == "sichuan-missing-held":   # most hold too many dead tiles to be xiangting's
        assert ways["efficiency"] > total // 4 and ways["dead"] > total // 10, ways
        return
    if "dead" in name:   # the rest hold a live kind four times, or are near seven pairs
        assert ways["dead"] > total // 3 and ways["melds"] > total // 20, ways
        return
    assert ways["efficiency"] < total // 2 and ways["xiangting"] > total // 4, ways
    assert ways["melds"] > total // 10, ways
    if name in ("hong-kong", "orphans-near", "standard-only"):
        assert ways["sets"] > total // 50, ways
    if name.startswith("sichuan") or name == "quads-with-honours":
        assert ways["joined"] > total // 20, ways


@pytest.mark.parametrize("name, rules, table, kinds, dead", CASES, ids=[c[0] for c in CASES])
def test_keeping_discards_agree_on_fourteen_tiles(name, rules, table, kinds, dead):
    hands = _hands(14, 3000, name + "-14", kinds, dead)
    quick_ones = 0
    for melds, *counts in hands:
        counts = tuple(counts)
        after = discard_shanten(counts, melds, rules, table)
        best = min(after.values())
        found = quick._fourteen(bytes(counts), melds, rules, table)
        quick_ones += found is not None and found[0] == best
        assert quick.keeping_discards(counts, melds, rules, table, best) == tuple(
            d for d, s in after.items() if s == best), (melds, counts)
    assert quick_ones > (len(hands) // 10 if name == "sichuan-missing-held" else len(hands) // 2
                         ), quick_ones


def _near_both(rng: random.Random, size: int) -> list[int] | None:
    """`size` concealed tiles of one to three sets (some four alike) and pairs, a few
    swapped: near seven pairs and the standard form at once, often holding a kind three or
    four times."""
    counts = [0] * 34
    for _ in range(rng.choice((1, 2, 2, 3))):
        k = rng.randrange(34)
        run = k < 27 and k % 9 < 7 and rng.random() < 0.6
        for j in ((k, k + 1, k + 2) if run else (k,) * rng.choice((3, 3, 3, 4))):
            counts[j] += 1
    while sum(counts) < size - 1:
        counts[rng.randrange(34)] += 2
    for _ in range(rng.choice((0, 1, 1, 2))):
        counts[rng.choice([i for i in range(34) if counts[i]])] -= 1
        counts[rng.randrange(34)] += 1
    while sum(counts) > size:
        counts[rng.choice([i for i in range(34) if counts[i]])] -= 1
    while sum(counts) < size:
        counts[rng.randrange(34)] += 1
    return counts if max(counts) <= 4 else None


NO_PAIRS_CASES = [("hong-kong", *HONG_KONG), ("standard-only", ShapeRules(
    seven_pairs=False, thirteen_orphans=False), Table())]


@pytest.mark.parametrize("name, rules, table", NO_PAIRS_CASES, ids=[c[0] for c in NO_PAIRS_CASES])
def test_hands_near_seven_pairs_where_the_table_has_none(name, rules, table):
    """xiangting's answer may be its seven pairs: quick.py takes each set held out in turn
    (`_without_sets`) for the standard form alone. Most such hands are answered so, some
    through a kind held three times whose fourth copy is weighed on its own."""
    rng = random.Random(name + "-near-both")
    routed = alone = quads = 0
    for _ in range(2500):
        counts = _near_both(rng, 13)
        if counts is None:
            continue
        s, useful = quick.improving_kinds(counts, 0, rules, table)
        assert (s, useful) == _slow_improving(counts, 0, rules, table), counts
        if s == 0:
            assert quick.waiting_kinds(counts, 0, rules, table, range(34)) == _waits(
                counts, 0, rules, table), counts
        assert quick.state_kinds(bytes(counts), 0, rules, table, range(34)) == (
            (s, _waits(counts, 0, rules, table)) if s == 0 else (s, useful)), counts
        if _way(tuple(counts), 0, rules, table) == "sets":
            found = quick._thirteen(bytes(counts), 0, rules, table)
            routed += found is not None
            _, _, kinds, sure = quick._without_sets(bytes(counts),
                                                    quick._xt.calculate_necessary_tiles)
            alone += found is not None and bool(kinds & ~sure)
            quads += found is not None and 4 in counts
    assert routed > 500 and alone > 20 and quads > 20, (routed, alone, quads)


@pytest.mark.parametrize("name, rules, table", NO_PAIRS_CASES, ids=[c[0] for c in NO_PAIRS_CASES])
def test_keeping_discards_near_seven_pairs_where_the_table_has_none(name, rules, table):
    rng = random.Random(name + "-near-both-14")
    routed = alone = quads = 0
    for _ in range(2500):
        counts = _near_both(rng, 14)
        if counts is None:
            continue
        after = discard_shanten(counts, 0, rules, table)
        best = min(after.values())
        assert quick.keeping_discards(counts, 0, rules, table, best) == tuple(
            d for d, s in after.items() if s == best), counts
        rn, _ = quick._xt.calculate_unnecessary_tiles(bytes(counts), quick._FOUR)
        found = quick._fourteen(bytes(counts), 0, rules, table)
        if (quick._distinct_pairs(bytes(counts)) <= rn - 1 and found is not None
                and found[0] == best):
            routed += 1
            _, _, kinds, sure = quick._without_sets(bytes(counts),
                                                    quick._xt.calculate_unnecessary_tiles)
            alone += bool(kinds & ~sure)
            quads += 4 in counts
    assert routed > 500 and alone > 20 and quads > 20, (routed, alone, quads)


def _sets_and_quads(rng: random.Random, size: int) -> list[int] | None:
    """`size` concealed tiles of a few kinds: sets, often four alike, and ones and pairs."""
    counts = [0] * 34
    kinds = rng.sample(range(34), rng.choice((5, 7, 9, 12)))
    for _ in range(rng.choice((1, 2, 2, 3))):
        k = rng.choice(kinds)
        run = k < 27 and k % 9 < 7 and rng.random() < 0.5
        for j in ((k, k + 1, k + 2) if run else (k,) * rng.choice((3, 4, 4))):
            counts[j] += 1
    while sum(counts) < size:
        counts[rng.choice(kinds)] += rng.choice((1, 2, 2))
    while sum(counts) > size:
        counts[rng.choice([i for i in range(34) if counts[i]])] -= 1
    return counts if max(counts) <= 4 else None


STANDARD_ONLY = (ShapeRules(seven_pairs=False, thirteen_orphans=False), Table())


def test_the_standard_form_with_each_set_taken_out_as_efficiency_counts_it():
    """_standard_thirteen and _standard_fourteen on any hand (near seven pairs or not), as
    efficiency.py counts the standard form alone: kinds held four times make most of these
    hands, where a set taken out would hide the rule of four (the least without one, the
    kinds asked of the hand itself, the hand's own shanten where the sets of it are nearer)."""
    rng = random.Random("sets-and-quads")
    ways: Counter[str] = Counter()
    for _ in range(6000):
        size = rng.choice((13, 14))
        counts = _sets_and_quads(rng, size)
        if counts is None:
            continue
        hand = bytes(counts)
        ask = (quick._xt.calculate_necessary_tiles if size == 13
               else quick._xt.calculate_unnecessary_tiles)
        taken = quick._without_sets(hand, ask)
        if taken is None or taken[0] > 3:
            continue
        least, clear, kinds, sure = taken
        if size == 13:
            found = quick._standard_thirteen(hand, STANDARD_ONLY[1])
            if found is not None:
                s, useful = found[0], quick._kinds(found[1])
                assert (s, useful if s > 0 else ()) == _slow_improving(counts, 0, *STANDARD_ONLY)
                if s == 0:
                    assert useful == _waits(counts, 0, *STANDARD_ONLY), counts
                ways["kinds dropped"] += found[1] != kinds & ~quick._bits_of(hand, 4)
        else:
            found = quick._standard_fourteen(hand, STANDARD_ONLY[1])
            if found is not None:
                after = discard_shanten(counts, 0, *STANDARD_ONLY)
                best = min(after.values())
                if found[0] == best:
                    assert quick._kinds(found[1]) == tuple(d for d, s in after.items()
                                                           if s == best), counts
                else:   # complete: every discard leaves it ready
                    assert (found[0], best) == (-1, 0), counts
                ways["discards dropped"] += found[1] != kinds
        ways["answered"] += found is not None
        ways["four alike"] += found is not None and 4 in counts
        ways["unclear, answered"] += found is not None and clear != least
        ways["unclear, not"] += found is None and clear != least
    assert min(ways[w] for w in ("kinds dropped", "discards dropped", "unclear, answered",
                                 "unclear, not")) > 20 and ways["four alike"] > 500, ways


READY_CASES = [c for c in CASES if c[0] in ("family", "sichuan", "hong-kong", "quads-with-honours")]


@pytest.mark.parametrize("name, rules, table, kinds, dead", READY_CASES,
                         ids=[c[0] for c in READY_CASES])
def test_a_ready_hand_and_any_draw_keep_ready_by_the_discards_efficiency_finds(
        name, rules, table, kinds, dead):
    """A ready 13-tile hand and any draw: the 14 tiles' best discard leaves the hand ready
    (throwing the draw does), so keeping_discards(..., 0) gives every discard that keeps it
    ready, as discard_shanten finds them (the outlook's exchanges at a dead wait), the draws
    that complete it among them (every discard then keeps it ready)."""
    checked = complete = 0
    for melds, *counts in _hands(13, 600, name + "-ready", kinds, dead):
        if _slow_improving(counts, melds, rules, table)[0] != 0:
            continue
        for k in kinds:
            if counts[k] < 4:
                grown = bytes(_plus(counts, k))
                assert quick.keeping_discards(grown, melds, rules, table, 0) == tuple(
                    d for d, s in discard_shanten(grown, melds, rules, table).items() if s == 0
                ), (melds, counts, k)
                checked += 1
                found = quick._fourteen(grown, melds, rules, table)
                complete += found is not None and found[0] == -1
    assert checked > 1000 and complete > 100, (checked, complete)


def test_a_form_the_table_counts_otherwise_is_left_to_efficiency():
    seven_pairs = (2, 2, 0, 2, 0, 2, 0, 2, 0, 2, 1) + (0,) * 23   # ready as seven pairs only
    rn = quick._xt.calculate_replacement_number(list(seven_pairs), quick._FOUR)
    assert rn == 1 and quick._thirteen(bytes(seven_pairs), 0, *HONG_KONG) is None
    assert quick.improving_kinds(seven_pairs, 0, *HONG_KONG) == _slow_improving(
        seven_pairs, 0, *HONG_KONG)
    bamboo = (1,) * 12 + (0,) * 6 + (1,) + (0,) * 15
    assert not quick.exact(bamboo, 0, *SICHUAN)


def test_sichuan_seven_pairs_are_counted_beside_xiangting_answer():
    """111m33m55m77m99m2p4p in Sichuan: seven pairs one from ready (a fourth 1m makes two
    pairs), as near as the standard form xiangting counts: both forms' kinds."""
    pong = (3, 0, 2, 0, 2, 0, 2, 0, 2, 0, 1, 0, 1) + (0,) * 21
    rn, bits = quick._xt.calculate_necessary_tiles(list(pong), quick._FOUR)
    assert rn == 2 and 0 not in quick._kinds(bits)
    s, kinds = quick.improving_kinds(pong, 0, *SICHUAN)
    assert s == 1 and 0 in kinds and set(quick._kinds(bits, SICHUAN[1])) <= set(kinds)
    assert (s, kinds) == _slow_improving(pong, 0, *SICHUAN)


def _plus(counts, k):
    grown = list(counts)
    grown[k] += 1
    return grown


def _counts(text: str) -> list[int]:
    from app.hands.efficiency import counts_of, parse_tiles
    return counts_of(parse_tiles(text))
