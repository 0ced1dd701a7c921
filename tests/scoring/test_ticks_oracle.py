"""Tick mode against an exhaustive oracle: every complete hand of a small tile universe, priced.

Independent of the tick reading (app/scoring/witness.py) and of the proof's drawer
(tests/scoring/witness_search.py): this file imports neither. Per family, it enumerates every
complete hand over seven tile kinds (UNIVERSE: 1 2 3 9 of characters, 5 of dots, East and the
red dragon; for the Sichuan families, without honours, 1 2 3 4 9 of characters, 3 4 of dots),
as East in the East round holding flower 2 (where flowers are in play), won by self-draw and on
a discard:

- four sets and a pair: every multiset of four sets (pongs and chows of those kinds) and a
  pair, no kind held five times, each with every winning tile it holds, either all concealed,
  or one of its sets declared (a pong as a pong or a concealed kong, a chow as a chow where the
  family claims chows), or all four declared;
- seven pairs, where the family has them (and with four alike, where it counts them so);

and prices each in tile mode (app.scoring.selection.score, the one selection). A hand holds a
tick set when its priced reading holds every ticked pattern (a per-item one at least as many
times). That gives, for each tick set held by some enumerated hand, the least tile price
among them. Tick mode (the public request, round East, seat East) is then asked each such set,
a seeded sample of ORACLE_SETS of them per family (all when fewer):

- it never refuses it (a hand holds it: ruling 88 refuses only sets no hand holds);
- its price is never above the least enumerated price (the lead's reading of ruling 87: the
  least tile price among the hands that hold the facts), and the hand its "Edit as tiles" link
  opens holds the ticks and prices exactly as the ticks do, payments included, so the tick
  price is a real holding hand's price: no lower than the least of all hands;
- where it is below the least enumerated price, that witness lies outside the enumeration
  (another tile kind, a bonus tile, another round, more declared sets, a kong): a witness inside
  it priced lower would mean the enumeration missed a hand.

What is not covered: hands outside the universe, which the tick search may find cheaper (counted
as "cheaper outside"); sets no enumerated hand holds (the proof, test_ticks_proof.py, draws
those). MAHJONG_ORACLE_SETS sets the sample (default 40 per family and way of winning).
"""
from __future__ import annotations

import collections
import itertools
import os
import random

import pytest

from app.base.errors import HandError
from app.hands.hand import Hand, Meld, MeldKind, WinBy, WinContext
from app.hands.tiles import TILES
from app.rules.loader import registry
from app.scoring.selection import default_settings, score
from app.vocabulary import score as calculate
from app.vocabulary.hand import describe
from app.vocabulary.request import witness_params

ORACLE_SETS = int(os.environ.get("MAHJONG_ORACLE_SETS", "40"))
SEED = 37
FAMILIES = sorted(registry())
# with honours: 1m 2m 3m 9m 5p, East (the seat and round wind), the red dragon; without: 1m 2m
# 3m 4m 9m 3p 4p. Two suits, so that not every hand is a flush
UNIVERSE = {True: [0, 1, 2, 8, 13, 27, 33], False: [0, 1, 2, 3, 8, 11, 12]}


def _sets(kinds: list[int]) -> list[tuple[str, int]]:
    held = set(kinds)
    return [("pong", t) for t in kinds] + [
        ("chow", t) for t in kinds if t < 27 and t % 9 <= 6 and {t + 1, t + 2} <= held]


def _tiles(kind: str, t: int) -> list[int]:
    return [t] * 3 if kind == "pong" else [t, t + 1, t + 2]


def _standard_hands(kinds: list[int], chows: bool, ctx: WinContext):
    """Every four sets and a pair over these kinds, declared as the module says, each winning
    tile."""
    for combo in itertools.combinations_with_replacement(_sets(kinds), 4):
        counts = collections.Counter(u for kind, t in combo for u in _tiles(kind, t))
        for pair in kinds:
            if max(counts.values()) > 4 or counts[pair] > 2:
                continue
            ways = [()] + [(i,) for i in range(4) if combo.index(combo[i]) == i] + [(0, 1, 2, 3)]
            for declared in ways:
                for kong in (False, True):
                    melds, hidden, ok = [], [pair, pair], True
                    for i, (kind, t) in enumerate(combo):
                        if i not in declared:
                            hidden += _tiles(kind, t)
                        elif kind == "chow":
                            ok &= chows and not kong
                            melds.append(Meld(MeldKind.CHOW, tuple(TILES[u] for u in _tiles(kind, t))))
                        elif kong:
                            ok &= counts[t] == 3
                            melds.append(Meld(MeldKind.CKONG, (TILES[t],) * 4))
                        else:
                            melds.append(Meld(MeldKind.PONG, (TILES[t],) * 3))
                    if not ok or (kong and not declared):
                        continue
                    for win in sorted(set(hidden)):
                        yield Hand(tuple(TILES[u] for u in sorted(hidden)), tuple(melds),
                                   TILES[win], ctx)


def _seven_pairs(kinds: list[int], quads: bool, ctx: WinContext):
    for n in range(4 if quads else 1):   # kinds held four times, each as two pairs
        for fours in itertools.combinations(kinds, n):
            rest = [t for t in kinds if t not in fours]
            for twos in itertools.combinations(rest, 7 - 2 * n):
                tiles = sorted([t for t in fours for _ in range(4)] + [t for t in twos for _ in range(2)])
                for win in sorted(set(tiles)):
                    yield Hand(tuple(TILES[u] for u in tiles), (), TILES[win], ctx)


def _flowers(ruleset) -> tuple[int, ...]:
    """The bonus tiles of every enumerated hand: flower 2 (not East's own) where flowers are
    in play, so that tick mode can be told the same (it cannot be told "none")."""
    return (2,) if ruleset.flowers_in_play(frozenset()) else ()


@pytest.fixture(scope="module", params=FAMILIES)
def enumerated(request):
    """Per way of winning: each set of patterns held (a frozenset of (id, count)), the least
    total fan among the enumerated hands holding exactly it, and one such hand."""
    ruleset = registry()[request.param]
    settings = default_settings(ruleset)
    kinds = UNIVERSE[ruleset.honours]
    rules = ruleset.shape_rules(settings.options)
    least: dict[WinBy, dict[frozenset, tuple[int, Hand]]] = {}
    priced = 0
    for by in WinBy:
        ctx = WinContext(by, "E", "E", _flowers(ruleset))
        found: dict[frozenset, tuple[int, Hand]] = {}
        hands = itertools.chain(_standard_hands(kinds, ruleset.claimed_chows, ctx),
                                _seven_pairs(kinds, rules.seven_pairs_quads, ctx)
                                if rules.seven_pairs else ())
        for hand in hands:
            try:
                s = score(hand, ruleset, settings)
            except HandError:
                continue
            priced += 1
            held = frozenset(
                (i.pattern.id, i.count) for i in s.items
                if (i.pattern.detect or i.pattern.events or i.pattern.requires)
                and i.pattern.by in (None, by))
            if held not in found or s.total_fan < found[held][0]:
                found[held] = (s.total_fan, hand)
        least[by] = found
    return ruleset, least, priced


def _paid(calc) -> tuple:
    return tuple(sorted((p.seat, p.amount) for p in calc.payments))


def _holds(held: frozenset, ticks: dict[str, int]) -> bool:
    counts = dict(held)
    return all(counts.get(pid, 0) >= n for pid, n in ticks.items())


def _inside(hand: Hand, kinds: list[int], by: WinBy, flowers: tuple[int, ...]) -> bool:
    """Whether a hand is one the enumeration could have made (its kinds, context, declarations)."""
    tiles = set(hand.concealed) | {t for m in hand.melds for t in m.tiles}
    ctx = hand.context
    return ({t.index for t in tiles} <= set(kinds) and ctx.round == "E" and ctx.seat == "E"
            and ctx.flowers == flowers and not ctx.seasons and not ctx.events and ctx.by is by
            and len(hand.melds) in (0, 1, 4)
            and all(m.kind in (MeldKind.PONG, MeldKind.CHOW, MeldKind.CKONG) for m in hand.melds))


def test_tick_mode_prices_no_set_above_the_least_enumerated_hand_holding_it(enumerated):
    ruleset, least, priced = enumerated
    assert priced > 1000
    kinds = UNIVERSE[ruleset.honours]
    rng = random.Random(f"{ruleset.id}:oracle:{SEED}")
    counts = collections.Counter()
    wrong = []
    for by, found in least.items():
        sets = set()
        for held in found:
            items = sorted(held)
            for n in range(1, min(4, len(items)) + 1):
                sets.update(itertools.combinations(items, n))
        sample = sorted(sets)
        sample = rng.sample(sample, min(ORACLE_SETS, len(sample)))
        for chosen in sample:
            ticks = dict(chosen)
            best = min((found[held] for held in found if _holds(held, ticks)),
                       key=lambda fan_hand: fan_hand[0])
            params = {"rules": ruleset.id, "by": by.value, "seat": "E", "round": "E",
                      "ticks": ",".join(f"{p}*{n}" if n > 1 else p for p, n in ticks.items())}
            if _flowers(ruleset):
                params["flowers"] = "2"
            counts["checked"] += 1
            try:
                calc = calculate(params)
            except HandError as err:
                wrong.append(("refused, yet held", params, describe(best[1]), str(err)))
                continue
            tiles = witness_params(calc, params)
            if tiles is None:
                wrong.append(("no witness to open", params))
                continue
            witness = calculate(tiles)
            held = {i.pattern.id: i.count for i in witness.score.items}
            if not all(held.get(p, 0) >= n for p, n in ticks.items()):
                wrong.append(("witness does not hold the ticks", params, tiles))
            if (witness.score.total_fan, _paid(witness)) != (calc.score.total_fan, _paid(calc)):
                wrong.append(("witness priced otherwise", params, tiles))
            if calc.score.total_fan > best[0]:
                wrong.append(("dearer than an enumerated hand", params, calc.score.total_fan,
                              describe(best[1]), best[0]))
            elif calc.score.total_fan == best[0]:
                counts["the least enumerated"] += 1
                same = calculate({**describe(best[1]), "rules": ruleset.id})
                if _paid(same) != _paid(calc):
                    wrong.append(("paid otherwise than the least hand", params, describe(best[1])))
            else:
                counts["cheaper outside"] += 1
                if _inside(witness.hand, kinds, by, _flowers(ruleset)):
                    wrong.append(("cheaper witness inside the universe", params, tiles, best[0]))
    print(ruleset.id, priced, "hands priced;", dict(counts))
    assert not wrong, [(w[0], w[1]["ticks"], w[1]["by"], *w[2:]) for w in wrong[:4]]
    assert counts["the least enumerated"] > 0   # the oracle bites: some sets priced at its least
