"""app/hands/quick.py: where xiangting answers, it answers as efficiency.py does.

Each question asked both ways on random hands built near complete (many ready, many holding
a tile four times) at the tables the two engines share (the family rules' forms with
honours; Sichuan's, no honours, bamboo missing), and on the corpus's 2,000 random hands.
"""
from __future__ import annotations

import random

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


def _built(rng: random.Random, size: int, kinds: list[int]) -> list[int] | None:
    """`size` tiles of sets and a pair, or of pairs (a third of them: seven pairs' form), with
    a few swapped: near complete, often holding a tile three or four times."""
    counts = [0] * 34
    pairs = rng.random() < 1 / 3
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


def _hands(size: int, count: int, seed: str, kinds: list[int]) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    found: list[tuple[int, ...]] = []
    while len(found) < count:
        counts = _built(rng, size, kinds)
        if counts is not None and sum(counts) == size:
            found.append(tuple(counts))
    return found


def _slow_improving(counts, rules, table):
    forms = form_shanten(counts, 0, rules, table)
    kinds = (tuple(int(i.tile) for i in improving_tiles(counts, 0, rules, table, counts, forms))
             if forms.best > 0 else ())
    return forms.best, kinds


CASES = [("family", *FAMILY, list(range(34))), ("sichuan", *SICHUAN, list(range(18))),
         ("hong-kong", *HONG_KONG, list(range(34))),
         ("orphans-near", *HONG_KONG, [0, 8, 9, 17, 18, 26, *range(27, 34)])]


@pytest.mark.parametrize("name, rules, table, kinds", CASES)
def test_improving_kinds_and_waits_agree_on_thirteen_tiles(name, rules, table, kinds):
    hands = _hands(13, 1500, name, kinds)
    if name in ("family", "hong-kong"):
        hands += [tuple(_counts(e["hand"])) for e in load_corpus("random13.json")]
    fast = [h for h in hands if quick.exact(h, 0, rules, table) and quick._trusted(
        h, rules, table, quick._xt.calculate_replacement_number(list(h), quick._FOUR))]
    assert len(fast) > len(hands) // 3   # many take xiangting's way, so this checks it
    ready = 0
    for counts in hands:
        s, useful = quick.improving_kinds(counts, 0, rules, table)
        assert (s, useful) == _slow_improving(counts, rules, table), counts
        if s == 0:
            ready += 1
            waits = quick.waiting_kinds(counts, 0, rules, table, range(34))
            assert waits == tuple(k for k in range(34) if counts[k] < 4 and complete(
                _plus(counts, k), 0, rules, table)), counts
        # the outlook's one question (its hands as bytes): the waits when ready, else the same
        assert quick.state_kinds(bytes(counts), 0, rules, table, range(34)) == (
            (s, waits) if s == 0 else (s, useful)), counts
    assert ready > 50


@pytest.mark.parametrize("name, rules, table, kinds", CASES)
def test_keeping_discards_agree_on_fourteen_tiles(name, rules, table, kinds):
    hands = _hands(14, 2500, name + "-14", kinds)
    assert sum(quick.exact(h, 0, rules, table) and quick._trusted(
        h, rules, table, quick._xt.calculate_replacement_number(list(h), quick._FOUR))
        for h in hands) > len(hands) // 3
    for counts in hands:
        after = discard_shanten(counts, 0, rules, table)
        best = min(after.values())
        assert quick.keeping_discards(counts, 0, rules, table, best) == tuple(
            d for d, s in after.items() if s == best), counts


def test_a_form_the_table_counts_otherwise_is_left_to_efficiency():
    seven_pairs = (2, 2, 0, 2, 0, 2, 0, 2, 0, 2, 1) + (0,) * 23   # ready as seven pairs only
    rn = quick._xt.calculate_replacement_number(list(seven_pairs), quick._FOUR)
    assert rn == 1 and not quick._trusted(seven_pairs, *HONG_KONG, rn)
    assert quick.improving_kinds(seven_pairs, 0, *HONG_KONG) == _slow_improving(
        seven_pairs, *HONG_KONG)
    # 111m33m55m77m99m2p4p in Sichuan: seven pairs one from ready, as 1111m counts two pairs
    pong = (3, 0, 2, 0, 2, 0, 2, 0, 2, 0, 1, 0, 1) + (0,) * 21
    rn = quick._xt.calculate_replacement_number(list(pong), quick._FOUR)
    assert rn == 2 and not quick._trusted(pong, *SICHUAN, rn)
    assert 0 in quick.improving_kinds(pong, 0, *SICHUAN)[1]
    bamboo = (1,) * 12 + (0,) * 6 + (1,) + (0,) * 15
    assert not quick.exact(bamboo, 0, *SICHUAN)


def test_sichuan_seven_pairs_beside_the_standard_form_are_joined_as_efficiency_joins_them():
    """Where seven pairs counting four alike as two are as near as the sets and a pair, but
    seven pairs of distinct kinds are not, xiangting's answer (the standard form's) is joined
    with the pairs' own counting; where they are nearer than any form xiangting counts, they
    alone count. Many hands take each way, and each answers as efficiency.py."""
    rules, table = SICHUAN
    joined = nearer = 0   # nearer: the pairs nearer than any form xiangting counts
    for size in (13, 14):
        for counts in _hands(size, 3000, f"joined-{size}", list(range(18))):
            if not quick.exact(counts, 0, rules, table):
                continue
            rn = quick._xt.calculate_replacement_number(list(counts), quick._FOUR)
            found = None if quick._trusted(counts, rules, table, rn) else quick._beside_pairs(
                counts, rules, table, rn)
            if found is None:
                continue
            joined += 1
            nearer += found[1] < found[0]
            if size == 13:
                s, useful = quick.improving_kinds(counts, 0, rules, table)
                assert (s, useful) == _slow_improving(counts, rules, table), counts
                if s == 0:
                    assert quick.waiting_kinds(counts, 0, rules, table, range(34)) == tuple(
                        k for k in range(34) if counts[k] < 4 and complete(
                            _plus(counts, k), 0, rules, table)), counts
            else:
                after = discard_shanten(counts, 0, rules, table)
                best = min(after.values())
                assert quick.keeping_discards(counts, 0, rules, table, best) == tuple(
                    d for d, s in after.items() if s == best), counts
    assert joined - nearer > 300 and nearer > 300


def _plus(counts, k):
    grown = list(counts)
    grown[k] += 1
    return grown


def _counts(text: str) -> list[int]:
    from app.hands.efficiency import counts_of, parse_tiles
    return counts_of(parse_tiles(text))
