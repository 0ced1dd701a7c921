"""Random complete hands in the public hand description, drawn to reach every pattern.

Independent of the app's own dealer (app/practice/dealer.py): a hand is drawn from a tile
theme (any tiles, one suit, one suit and honours, honours only, terminals, winds, dragons …)
and a shape (four sets and a pair with declared melds of every kind, seven pairs, thirteen
orphans, nine gates), with a random table (seat, round, way of winning, bonus tiles, events,
switches). Some descriptions are impossible input; the caller lets the calculator refuse them.
"""
from __future__ import annotations

import random
from collections.abc import Iterator

from app.hands.events import EVENT_RULES
from app.hands.tiles import TILES

SUITS = "mps"
HONOURS = list(range(27, 34))
WINDS, DRAGONS = list(range(27, 31)), list(range(31, 34))
TERMINALS = [s * 9 + n for s in range(3) for n in (0, 8)]
ORPHANS = TERMINALS + HONOURS


def _suit(s: int) -> list[int]:
    return list(range(9 * s, 9 * s + 9))


def _theme(rng: random.Random, honours: bool) -> list[int]:
    """The tile kinds a hand is drawn from."""
    s = rng.randrange(3)
    other = (s + rng.randrange(1, 3)) % 3
    themes = [_suit(s), _suit(s) + _suit(other), list(range(27)),
              [t for t in range(27) if t % 9 not in (0, 8)], TERMINALS,
              [t for t in _suit(s) if t % 9 in (0, 1, 2, 6, 7, 8)],
              [t for t in _suit(s) + _suit(other) if t % 9 in (0, 1, 2, 6, 7, 8)]]
    if honours:
        themes += [list(range(34)), list(range(34)), _suit(s) + HONOURS, _suit(s) + HONOURS,
                   HONOURS, ORPHANS, WINDS + _suit(s), DRAGONS + _suit(s), WINDS + DRAGONS,
                   DRAGONS + WINDS + list(range(27))]
    return rng.choice(themes)


def _standard(rng: random.Random, pool: list[int]) -> tuple[list[int], list[str]] | None:
    """Four sets and a pair from the pool: the concealed tiles and the declared melds."""
    counts = [0] * 34
    pongs_only = rng.random() < 0.35
    kongs = rng.choice([0.1, 0.4, 0.9])
    sets: list[tuple[str, int]] = []
    for _ in range(4):
        options = [("pong", t) for t in pool if counts[t] == 0 or (counts[t] <= 1 and rng.random() < .1)]
        if not pongs_only:
            options += [("chow", t) for t in pool if t < 27 and t % 9 <= 6
                        and t + 1 in pool and t + 2 in pool
                        and all(counts[t + k] <= 3 for k in range(3))] * 2
        if not options:
            return None
        kind, t = rng.choice(options)
        for k in ([t] * 3 if kind == "pong" else [t, t + 1, t + 2]):
            counts[k] += 1
        sets.append((kind, t))
    pairs = [t for t in pool if counts[t] <= 2]
    if not pairs:
        return None
    pair = rng.choice(pairs)
    counts[pair] += 2
    declared = rng.choice([0, 0, 1, 2, 3, 4, 4])
    rng.shuffle(sets)
    concealed = [pair, pair]
    melds: list[str] = []
    for n, (kind, t) in enumerate(sets):
        tiles = [t] * 3 if kind == "pong" else [t, t + 1, t + 2]
        code = TILES[t].code
        if kind == "pong" and counts[t] == 3 and rng.random() < kongs:
            counts[t] += 1
            prefix = rng.choice(["kong:", "ckong:", "akong:"])
            if n >= declared:
                prefix = "ckong:"
            melds.append(prefix + code[0] * 4 + code[1])
            continue
        if n < declared:
            melds.append("".join(TILES[k].code[0] for k in tiles) + code[1])
        else:
            concealed += tiles
    return concealed, melds


def _seven_pairs(rng: random.Random, pool: list[int]) -> list[int] | None:
    kinds = list(dict.fromkeys(pool))
    if len(kinds) < 4:
        return None
    rng.shuffle(kinds)
    tiles: list[int] = []
    for t in kinds:
        if len(tiles) == 14:
            break
        tiles += [t, t] * (2 if len(tiles) <= 10 and rng.random() < 0.2 else 1)
    return tiles if len(tiles) == 14 else None


def _thirteen_orphans(rng: random.Random) -> list[int]:
    return ORPHANS + [rng.choice(ORPHANS)]


def _nine_gates(rng: random.Random) -> list[int]:
    s = rng.randrange(3) * 9
    return [s] * 3 + [s + n for n in range(1, 8)] + [s + 8] * 3 + [s + rng.randrange(9)]


def _notation(tiles: list[int]) -> str:
    return "".join(TILES[t].code for t in sorted(tiles))


def _bonus(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.45:
        return ""
    if pick < 0.7:
        return "1234"
    return "".join(sorted(rng.sample("1234", rng.randint(1, 3))))


def draw_hand(rng: random.Random, ruleset) -> dict[str, str] | None:
    """One random complete hand description under the ruleset, or None when none was drawn."""
    honours = ruleset.honours
    pool = _theme(rng, honours)
    shape = rng.random()
    melds: list[str] = []
    if shape < 0.72:
        drawn = _standard(rng, pool)
        if drawn is None:
            return None
        concealed, melds = drawn
    elif shape < 0.9:
        concealed = _seven_pairs(rng, pool)
        if concealed is None:
            return None
    elif shape < 0.95 and honours:
        concealed = _thirteen_orphans(rng)
    else:
        concealed = _nine_gates(rng)
    params = {"rules": ruleset.id, "hand": _notation(concealed),
              "win": TILES[rng.choice(concealed)].code,
              "by": rng.choice(["self-draw", "discard"]),
              "seat": rng.choice("ESWN"), "round": rng.choice("ESWN")}
    if melds:
        params["melds"] = ",".join(melds)
    options = [o for o in ruleset.option_ids if rng.random() < 0.35]
    if options:
        params["options"] = ",".join(options)
    if ruleset.flowers_in_play(frozenset(options)):
        for key in ("flowers", "seasons"):
            bonus = _bonus(rng)
            if bonus:
                params[key] = bonus
    events = list(ruleset.events)
    if events and rng.random() < 0.45:
        chosen = rng.sample(events, rng.choice([1, 1, 1, 2]))
        kongs = sum(1 for m in melds if len(m.rsplit(":", 1)[-1]) == 5)
        chosen = [e for e in chosen if EVENT_RULES[e].kongs <= kongs]
        ways = {ruleset.events[e].by or EVENT_RULES[e].by for e in chosen} - {None}
        if len(ways) == 1 and rng.random() < 0.9:   # mostly the way the events need
            params["by"] = ways.pop().value
        if "robbing-the-kong" in chosen:   # the robbed tile is the hand's only copy
            single = [t for t in concealed if concealed.count(t) == 1]
            if single:
                params["win"] = TILES[rng.choice(single)].code
        if chosen:
            params["events"] = ",".join(chosen)
    if ruleset.missing_suit:
        held = {t // 9 for t in concealed if t < 27}
        for m in melds:
            held.add(SUITS.index(m[-1]))
        free = [s for s in range(3) if s not in held]
        if free:
            params["missing"] = SUITS[rng.choice(free)]
    if params["by"] == "discard" and rng.random() < 0.3:
        params["discarder"] = rng.choice([s for s in "ESWN" if s != params["seat"]])
    return params


def corpus(ruleset, seed: int, count: int) -> Iterator[dict[str, str]]:
    """`count` drawn descriptions (some impossible) under the ruleset, from a fixed seed."""
    rng = random.Random(f"{ruleset.id}:{seed}")
    made = 0
    while made < count:
        params = draw_hand(rng, ruleset)
        if params is not None:
            made += 1
            yield params
