"""Seeded random 14-tile hands for the outlook's checks and bench: each family, shanten 0-2.

A hand is a whole hand of 14 tiles (four sets and a pair, each drawn from the family's set
by `random.Random`) with `shanten + 1` of its tiles swapped for others, kept when its best
discard leaves it exactly `shanten` tiles from ready. Sichuan hands declare bamboo missing
and hold none of it, so their shanten is the tiles' own.
"""
from __future__ import annotations

import random

from app.hands.efficiency import Table, discard_shanten
from app.hands.tiles import TILES, canonical

FAMILIES = ("hong-kong", "sichuan", "family", "hong-kong-course", "sichuan-sbr")


def params_of(rules: str, counts) -> dict[str, str]:
    params = {"rules": rules,
              "hand": canonical(TILES[i] for i in range(34) for _ in range(counts[i]))}
    if rules.startswith("sichuan"):
        params["missing"] = "s"
    return params


def dealt(rules: str, shanten: int, count: int, rulesets, seed: int = 27) -> list[dict[str, str]]:
    """`count` hands of this family whose best discard leaves them `shanten` from ready."""
    rng = random.Random(f"{rules}-{shanten}-{seed}")
    ruleset = rulesets[rules]
    sichuan = rules.startswith("sichuan")
    kinds = list(range(18) if sichuan else range(34))   # Sichuan: no honours, bamboo missing
    table = Table(honours=ruleset.honours, missing="s" if sichuan else None)
    shapes = ruleset.shape_rules(frozenset())
    found = []
    while len(found) < count:
        counts = [0] * 34
        for _ in range(4):
            k = rng.choice(kinds)
            if k < 27 and k % 9 < 7 and rng.random() < 0.6:
                for j in (k, k + 1, k + 2):
                    counts[j] += 1
            else:
                counts[k] += 3
        counts[rng.choice(kinds)] += 2
        for _ in range(shanten + 1):
            out = rng.choice([i for i in range(34) if counts[i]])
            counts[out] -= 1
            counts[rng.choice(kinds)] += 1
        if max(counts) > 4:
            continue
        if min(discard_shanten(counts, 0, shapes, table).values()) == shanten:
            found.append(params_of(rules, counts))
    return found
