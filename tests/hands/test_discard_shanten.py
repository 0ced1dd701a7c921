"""discard_shanten and complete (app/hands/efficiency.py) say what shanten says, quicker."""
from __future__ import annotations

import random

import pytest

from app.hands.efficiency import EVERY_SHAPE, Table, complete, discard_shanten, shanten
from app.hands.readings import ShapeRules

TABLES = (Table(), Table(honours=False, missing="s"), Table(honours=False))
RULES = (EVERY_SHAPE, ShapeRules(seven_pairs_quads=True, thirteen_orphans=False),
         ShapeRules(False, False, False))


def _hands(seed: int, count: int):
    """Random 14-tile hands, half of them built from sets (so many are near or at complete)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        table, rules = rng.choice(TABLES), rng.choice(RULES)
        kinds = range(34) if table.honours else range(27)
        melds = rng.choice((0, 0, 0, 1, 2))
        size = 14 - 3 * melds
        counts = [0] * 34
        if rng.random() < 0.5:
            while sum(counts) < size - 2:
                k = rng.choice(kinds)
                for j in ((k, k + 1, k + 2) if k < 27 and k % 9 < 7 and rng.random() < 0.6
                          else (k, k, k)):
                    counts[j] += 1
            while sum(counts) < size:
                counts[rng.choice(kinds)] += 1
            while sum(counts) > size:
                counts[rng.choice([i for i in range(34) if counts[i]])] -= 1
        else:
            for t in rng.sample([k for k in kinds for _ in range(4)], size):
                counts[t] += 1
        if max(counts) > 4 or sum(counts) != size:
            continue
        made += 1
        yield counts, melds, rules, table


@pytest.mark.parametrize("seed", range(4))
def test_the_shanten_after_each_discard_is_what_shanten_says(seed):
    for counts, melds, rules, table in _hands(seed, 500):
        after = discard_shanten(counts, melds, rules, table)
        assert set(after) == {i for i in range(34) if counts[i]}
        for i, found in after.items():
            less = list(counts)
            less[i] -= 1
            assert found == shanten(less, melds, rules, table), (counts, melds, rules, table, i)


@pytest.mark.parametrize("seed", range(4))
def test_a_hand_is_complete_exactly_when_its_shanten_is_minus_one(seed):
    for counts, melds, rules, table in _hands(100 + seed, 1000):
        assert complete(counts, melds, rules, table) == (shanten(counts, melds, rules, table) == -1)


@pytest.mark.parametrize("tiles, rules, whole", [
    ("1122m3344p5566s77z", EVERY_SHAPE, True),
    ("1122m3344p5566s17z", EVERY_SHAPE, False),
    ("1122m3344p5566s77z", ShapeRules(seven_pairs=False), False),
    ("1111m3344p5566s77z", EVERY_SHAPE, False),
    ("1111m3344p5566s77p", ShapeRules(seven_pairs_quads=True), True),
    ("19m19p19s12345677z", EVERY_SHAPE, True),
    ("19m19p19s12345677z", ShapeRules(thirteen_orphans=False), False),
])
def test_the_special_forms_are_complete_only_where_the_rules_allow_them(tiles, rules, whole):
    from app.hands.efficiency import counts_of, parse_tiles
    counts = counts_of(parse_tiles(tiles))
    assert complete(counts, 0, rules) is whole
    assert (shanten(counts, 0, rules) == -1) is whole


@pytest.mark.parametrize("seed", range(3))
def test_a_hand_holding_a_tile_four_times_too(seed):
    rng = random.Random(500 + seed)
    tried = 0
    for counts, melds, rules, table in _hands(500 + seed, 4000):
        if 4 not in counts:
            four = rng.choice([i for i in range(34 if table.honours else 27) if counts[i]])
            gone = [i for i in range(34) if counts[i] and i != four]
            while counts[four] < 4 and gone:
                counts[four] += 1
                counts[gone.pop(rng.randrange(len(gone)))] -= 1
                gone = [i for i in range(34) if counts[i] and i != four]
        if 4 not in counts:
            continue
        tried += 1
        after = discard_shanten(counts, melds, rules, table)
        for i, found in after.items():
            less = list(counts)
            less[i] -= 1
            assert found == shanten(less, melds, rules, table), (counts, melds, rules, table, i)
    assert tried > 1000
