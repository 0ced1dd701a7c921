"""Hands drawn towards a pair of patterns: the witness search of tests/scoring/test_ticks_proof.py.

A random corpus (hand_corpus.py) rarely holds two rare patterns at once (a pearl dragon
won on the last discard, great four winds around a pair of 1s). This drawer reads what each
pattern of the pair needs of the tiles (its detector) and of the table (its events, its way
of winning, its bonus tiles) and draws hands that give it, leaving the rest random. It only
proposes: a hand is a witness when the calculator, scoring it through the public hand
description, holds both patterns in the reading it chose.

The app's own search (app/scoring/witness.py) grew from this drawer, so the two are not
independent: a blind spot they share would hide there. The independent check is the
exhaustive oracle, tests/scoring/test_ticks_oracle.py.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from app.hands.events import EVENT_RULES
from app.hands.tiles import TILES

from .hand_corpus import DRAGONS, HONOURS, ORPHANS, SUITS, TERMINALS, WINDS

SIMPLES = [t for t in range(27) if t % 9 not in (0, 8)]
NEAR_TERMINALS = [t for t in range(27) if t % 9 in (0, 1, 2, 6, 7, 8)]
SEATS = "ESWN"
WIND_OF = dict(zip(SEATS, WINDS, strict=True))
SUIT_DRAGON = {"jade_dragon": (32, 2), "ruby_dragon": (33, 0), "pearl_dragon": (31, 1)}


@dataclass
class Needs:
    """What a pair of patterns asks of a drawn hand (None: anything)."""

    shape: str | None = None              # standard, seven-pairs, thirteen-orphans, nine-gates
    pools: list[list[int]] = field(default_factory=list)   # every tile kind from each of these
    sets: str | None = None               # "chows" or "pongs"
    pongs: list[int] = field(default_factory=list)         # pongs (or kongs) the hand must hold
    pair: int | None = None
    seat_pong: bool = False
    round_pong: bool = False
    kongs: int = 0                        # at least this many declared kongs
    all_kongs: bool = False
    quad: bool = False                    # seven pairs with four alike
    concealed: bool = False               # nothing claimed
    no_kongs: bool = False
    declared: int | None = None           # exactly this many declared melds
    win_on_pair: bool = False
    win_single: bool = False              # the winning tile is the hand's only copy
    by: str | None = None
    seat: str | None = None
    events: list[str] = field(default_factory=list)
    flowers: str | None = None
    seasons: str | None = None
    own_flower: bool = False
    own_season: bool = False
    options: list[str] = field(default_factory=list)   # house rules the pair needs on


def _suit_pool(rng: random.Random) -> list[int]:
    s = rng.randrange(3)
    return list(range(9 * s, 9 * s + 9))


def _add(needs: Needs, pattern, ruleset, rng: random.Random) -> None:
    """What one pattern needs, added to the pair's needs (a package: what its parts need)."""
    for part in pattern.requires:
        _add(needs, ruleset.by_id[part], ruleset, rng)
    d = pattern.detect or ""
    if pattern.optional:
        needs.options.append(pattern.id)
    if pattern.by is not None:
        needs.by = pattern.by.value
    if pattern.events:
        event = rng.choice(pattern.events)
        needs.events.append(event)
        rule = EVENT_RULES[event]
        needs.kongs = max(needs.kongs, rule.kongs)
        if rule.by is not None:
            needs.by = rule.by.value
        if rule.dealer is not None:
            needs.seat = "E" if rule.dealer else rng.choice("SWN")
        if rule.first_go_around:
            needs.concealed = True
        if rule.bonus_tiles and not needs.flowers:
            needs.flowers = rng.choice(["1", "2", "3", "4", "13"])
        if event == "robbing-the-kong":
            needs.win_single = True
    if d in ("standard_shape", "terminals_everywhere"):
        needs.shape = "standard"
    if d == "all_chows":
        needs.shape, needs.sets = "standard", "chows"
    if d in ("all_pongs", "golden_hook", "all_pongs_single_wait", "four_concealed_pongs",
             "four_concealed_pongs_no_kongs", "terminals_and_honours", "four_kongs") or d in SUIT_DRAGON:
        needs.shape, needs.sets = "standard", "pongs"
    if d == "golden_hook":
        needs.declared, needs.win_on_pair = 4, True
    if d == "all_pongs_single_wait":
        needs.win_on_pair = True
    if d in ("four_concealed_pongs", "four_concealed_pongs_no_kongs"):
        needs.concealed = True
        if rng.random() < 0.5:
            needs.by = needs.by or "self-draw"
        else:
            needs.win_on_pair = True
    if d in ("four_concealed_pongs_no_kongs", "concealed_hand_no_kongs"):
        needs.no_kongs = True
    if d in ("concealed_hand", "concealed_hand_no_kongs"):
        needs.concealed = True
    if d == "four_kongs":
        needs.all_kongs = True
    if d in ("seven_pairs", "seven_pairs_with_quad"):
        needs.shape = "seven-pairs"
        needs.quad = needs.quad or d == "seven_pairs_with_quad"
    if d == "thirteen_orphans":
        needs.shape = "thirteen-orphans"
    if d in ("pure_nine_gates", "nine_gates_true_wait_on_discard"):
        needs.shape = "nine-gates"
    pools = {"full_flush": _suit_pool(rng), "all_honours": HONOURS, "all_terminals": TERMINALS,
             "terminals_and_honours": ORPHANS, "all_simples": SIMPLES,
             "terminals_everywhere": NEAR_TERMINALS}
    if d in pools:
        needs.pools.append(pools[d])
    if d == "half_flush":
        needs.pools.append(_suit_pool(rng) + HONOURS)
    if d == "dragon_pongs":
        needs.pongs.append(rng.choice(DRAGONS))
    if d in ("small_three_dragons", "great_three_dragons"):
        dragons = rng.sample(DRAGONS, 3)
        needs.pongs += dragons[:2] if d == "small_three_dragons" else dragons
        if d == "small_three_dragons":
            needs.pair = dragons[2]
    if d in ("small_four_winds", "great_four_winds"):
        winds = rng.sample(WINDS, 4)
        needs.pongs += winds[:3] if d == "small_four_winds" else winds
        if d == "small_four_winds":
            needs.pair = winds[3]
    if d == "seat_wind_pong":
        needs.seat_pong = True
    if d == "round_wind_pong":
        needs.round_pong = True
    if d in SUIT_DRAGON:
        dragon, suit = SUIT_DRAGON[d]
        needs.pongs.append(dragon)
        needs.pools.append(list(range(9 * suit, 9 * suit + 9)) + [dragon])
    if d == "roots":
        needs.kongs = max(needs.kongs, 1)
    if d == "self_draw":
        needs.by = "self-draw"
    if d == "own_flower":
        needs.own_flower = True
    if d == "own_season":
        needs.own_season = True
    if d == "no_bonus_tiles":
        needs.flowers, needs.seasons = "", ""
    if d in ("all_flowers", "all_bonus_tiles"):
        needs.flowers = "1234"
    if d in ("all_seasons", "all_bonus_tiles"):
        needs.seasons = "1234"


def _pool(needs: Needs, rng: random.Random, honours: bool) -> list[int]:
    pool = list(range(34 if honours else 27))
    for p in needs.pools:
        pool = [t for t in pool if t in p]
    if not pool:   # the pair asks for kinds no one pool holds: let the fixed sets decide
        pool = sorted({t for p in needs.pools for t in p})
    if rng.random() < 0.5 and len(pool) > 9:   # narrow it, so flushes and dragons happen
        narrowed = [t for t in pool if t >= 27 or t // 9 == rng.randrange(3)]
        pool = narrowed or pool
    return pool


def _standard(needs: Needs, rng: random.Random, pool: list[int], seat: str, round_: str
              ) -> tuple[list[int], list[str], int] | None:
    counts = [0] * 34
    sets: list[tuple[str, int]] = []
    fixed = list(dict.fromkeys(needs.pongs + ([WIND_OF[seat]] if needs.seat_pong else [])
                               + ([WIND_OF[round_]] if needs.round_pong else [])))
    if len(fixed) > 4 or needs.pair in fixed:
        return None
    for t in fixed:
        sets.append(("pong", t))
        counts[t] += 3
    if needs.pair is not None:
        counts[needs.pair] += 2
    while len(sets) < 4:
        options = []
        if needs.sets != "chows":
            options += [("pong", t) for t in pool if counts[t] == 0]
        if needs.sets != "pongs":
            options += [("chow", t) for t in pool if t < 27 and t % 9 <= 6 and t + 1 in pool
                        and t + 2 in pool and all(counts[t + k] <= 3 for k in range(3))]
        if not options:
            return None
        kind, t = rng.choice(options)
        for k in [t] * 3 if kind == "pong" else [t, t + 1, t + 2]:
            counts[k] += 1
        sets.append((kind, t))
    if needs.sets == "chows" and any(kind == "pong" for kind, _ in sets):
        return None
    pair = needs.pair
    if pair is None:
        pairs = [t for t in pool if counts[t] <= 2]
        if not pairs:
            return None
        pair = rng.choice(pairs)
        counts[pair] += 2
    rng.shuffle(sets)
    declared = needs.declared if needs.declared is not None else (
        0 if needs.concealed else rng.choice([0, 1, 2, 3, 4]))
    want_kongs = 4 if needs.all_kongs else max(needs.kongs, rng.choice([0, 0, 0, 1, 2]))
    if needs.no_kongs:
        want_kongs = 0
    concealed, melds, kongs = [pair, pair], [], 0
    for n, (kind, t) in enumerate(sets):
        code = TILES[t].code
        if kind == "pong" and kongs < want_kongs and counts[t] == 3:
            counts[t] += 1
            kongs += 1
            prefix = "ckong:" if needs.concealed or n >= declared else rng.choice(
                ["kong:", "ckong:", "akong:"])
            melds.append(prefix + code[0] * 4 + code[1])
            continue
        tiles = [t] * 3 if kind == "pong" else [t, t + 1, t + 2]
        if n < declared:
            melds.append("".join(TILES[k].code[0] for k in tiles) + code[1])
        else:
            concealed += tiles
    if kongs < max(needs.kongs, 4 if needs.all_kongs else 0):
        return None
    return concealed, melds, pair


def _seven_pairs(needs: Needs, rng: random.Random, pool: list[int]) -> list[int] | None:
    kinds = list(dict.fromkeys(pool))
    rng.shuffle(kinds)
    tiles: list[int] = []
    quad = needs.quad or rng.random() < 0.2
    for t in kinds:
        if len(tiles) == 14:
            break
        tiles += [t, t] * (2 if quad and len(tiles) <= 10 else 1)
        quad = False
    return tiles if len(tiles) == 14 else None


def draw_for(rng: random.Random, ruleset, patterns) -> dict[str, str] | None:
    """One hand description drawn to hold these patterns, or None when this draw failed."""
    needs = Needs()
    for p in patterns:
        _add(needs, p, ruleset, rng)
    seat = needs.seat or rng.choice(SEATS)
    round_ = rng.choice(SEATS)
    shape = needs.shape or rng.choice(["standard"] * 4 + ["seven-pairs"])
    pool = _pool(needs, rng, ruleset.honours)
    melds: list[str] = []
    if shape == "standard":
        drawn = _standard(needs, rng, pool, seat, round_)
        if drawn is None:
            return None
        concealed, melds, pair = drawn
    elif shape == "seven-pairs":
        concealed = _seven_pairs(needs, rng, pool)
        if concealed is None:
            return None
        pair = rng.choice(concealed)
    elif shape == "thirteen-orphans":
        concealed = ORPHANS + [rng.choice(ORPHANS)]
        pair = rng.choice(concealed)
    else:
        s = rng.randrange(3) * 9
        extra = s + rng.randrange(9)
        concealed = [s] * 3 + [s + n for n in range(1, 8)] + [s + 8] * 3 + [extra]
        pair = extra
    win = pair if needs.win_on_pair else rng.choice(concealed)
    if needs.win_single:
        single = [t for t in concealed if concealed.count(t) == 1]
        if not single:
            return None
        win = rng.choice(single)
    params = {"rules": ruleset.id, "hand": "".join(TILES[t].code for t in sorted(concealed)),
              "win": TILES[win].code, "by": needs.by or rng.choice(["self-draw", "discard"]),
              "seat": seat, "round": round_}
    if melds:
        params["melds"] = ",".join(melds)
    options = frozenset(needs.options)   # the pair's own house rules, nothing else
    if options:
        params["options"] = ",".join(sorted(options))
    if ruleset.flowers_in_play(frozenset(options)):
        number = str(SEATS.index(seat) + 1)
        for key, given, own in (("flowers", needs.flowers, needs.own_flower),
                                ("seasons", needs.seasons, needs.own_season)):
            bonus = given if given is not None else rng.choice(["", "", "1234"] + list("1234"))
            if own and number not in bonus:
                bonus = "".join(sorted(bonus + number))
            if bonus:
                params[key] = bonus
    if needs.events:
        params["events"] = ",".join(dict.fromkeys(needs.events))
    if ruleset.missing_suit:
        held = {t // 9 for t in concealed if t < 27} | {SUITS.index(m[-1]) for m in melds}
        free = [s for s in range(3) if s not in held]
        if free:
            params["missing"] = SUITS[rng.choice(free)]
    return params
