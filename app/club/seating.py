"""Seating the members present at tables of four, by a stated method.

- `random`: the players shuffled by a seeded generator (the seed is shown, so anyone can draw
  the same tables again);
- `snake`: by the season's standings, first to table 1, second to table 2 … and back again
  (with 3 tables: 1 2 3 3 2 1 1 2 3 …), so the strongest are spread over the tables;
- `meet`: "everyone meets everyone": the tables that repeat the fewest meetings of this season
  (two members meet when they sit at one table), as far as numbers allow; the seed breaks ties.

When the number present is not a multiple of four, the remainder (1-3 members) sit the round
out (a bye): those with the fewest byes this season, ties drawn by the seed. No table plays
three-handed: a stored sheet seats four and no family's rules here price a three-player hand
(every payment is worked out among four seats; Sichuan's three-player game, 三人两房, plays
with two suits and is not among the rule sets), so byes are the only honest answer.

>>> plan = seat("snake", [1, 2, 3, 4, 5, 6, 7, 8], "7", order=[8, 7, 6, 5, 4, 3, 2, 1])
>>> plan.tables
((8, 5, 4, 1), (7, 6, 3, 2))
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

METHODS = ("random", "snake", "meet")
TABLE = 4
MEET_WORK = 1200       # player-trials the `meet` search may spend (trials = MEET_WORK // players)


@dataclass(frozen=True, slots=True)
class Plan:
    """A round's seating: its tables (member ids of players 1-4) and who sits out."""

    method: str
    seed: str
    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


def meetings(tables: Iterable[Sequence[int]]) -> Counter[frozenset[int]]:
    """How often each pair of members sat at one table.

    >>> meetings([(1, 2, 3, 4), (1, 2, 5, 6)])[frozenset((1, 2))]
    2
    """
    found: Counter[frozenset[int]] = Counter()
    for table in tables:
        for a, b in combinations(table, 2):
            found[frozenset((a, b))] += 1
    return found


def shape(count: int) -> tuple[int, int]:
    """How `count` members present are seated: (tables of four, members sitting out).

    >>> [shape(n) for n in (5, 6, 7, 8, 9, 10, 11, 13)]
    [(1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3), (3, 1)]
    """
    return divmod(count, TABLE)


def sitting_out(present: Sequence[int], byes_so_far: Mapping[int, int], rng: random.Random) -> tuple[int, ...]:
    """The members who sit this round out: as many as are left over from tables of four, those
    with the fewest byes so far, ties drawn."""
    count = len(present) % TABLE
    drawn = list(present)
    rng.shuffle(drawn)
    drawn.sort(key=lambda m: byes_so_far.get(m, 0))   # stable: the draw breaks ties
    return tuple(sorted(drawn[:count]))


def seat(method: str, present: Sequence[int], seed: str, order: Sequence[int] = (),
         met: Mapping[frozenset[int], int] | None = None, byes_so_far: Mapping[int, int] | None = None) -> Plan:
    """Seat the members present by `method` (ValueError for fewer than four or an unknown method).

    `order`: the season's standings, best first (snake); `met`: the meetings so far (meet);
    `byes_so_far`: each member's byes this season."""
    if method not in METHODS:
        raise ValueError(f"{method!r} is not a seating method: {', '.join(METHODS)}")
    present = sorted(set(present))
    if len(present) < TABLE:
        raise ValueError(f"{len(present)} present: a table needs four players")
    rng = random.Random(f"mahjong-club-seating:{seed}")
    byes = sitting_out(present, byes_so_far or {}, rng)
    playing = [m for m in present if m not in byes]
    if method == "random":
        rng.shuffle(playing)
        tables = _chunks(playing)
    elif method == "snake":
        tables = snake(playing, order)
    else:
        tables = fewest_meetings(playing, met or {}, rng)
    return Plan(method, seed, tables, byes)


def _chunks(players: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(players[i:i + TABLE]) for i in range(0, len(players), TABLE))


def snake(players: Sequence[int], order: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Players in standings order dealt to the tables 1 … n, then n … 1, and so on.

    >>> snake(list(range(1, 13)), list(range(1, 13)))
    ((1, 6, 7, 12), (2, 5, 8, 11), (3, 4, 9, 10))
    """
    rank = {m: i for i, m in enumerate(order)}
    ranked = sorted(players, key=lambda m: (rank.get(m, len(rank)), m))
    count = len(ranked) // TABLE
    tables: list[list[int]] = [[] for _ in range(count)]
    for k, member in enumerate(ranked):
        row, col = divmod(k, count)
        tables[col if row % 2 == 0 else count - 1 - col].append(member)
    return tuple(tuple(t) for t in tables)


def _cost(table: Sequence[int], met: Mapping[frozenset[int], int]) -> int:
    """A table's repeated meetings, squared so that one pair meeting thrice costs more than
    three pairs meeting once each."""
    return sum(met.get(frozenset((a, b)), 0) ** 2 for a, b in combinations(table, 2))


def fewest_meetings(players: Sequence[int], met: Mapping[frozenset[int], int],
                    rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Tables that repeat the fewest meetings: seeded shuffles, each improved by swapping two
    players of different tables while a swap lowers the cost; the cheapest kept.

    >>> met = meetings([(1, 2, 3, 4), (5, 6, 7, 8)])
    >>> tables = fewest_meetings(list(range(1, 9)), met, random.Random(1))
    >>> sum(_cost(t, met) for t in tables)   # each table two from each: four repeats, each once
    4
    """
    best: tuple[int, tuple[tuple[int, ...], ...]] | None = None
    for _ in range(max(1, MEET_WORK // max(1, len(players)))):
        shuffled = list(players)
        rng.shuffle(shuffled)
        tables = [list(t) for t in _chunks(shuffled)]
        _improve(tables, met)
        cost = sum(_cost(t, met) for t in tables)
        if best is None or cost < best[0]:
            best = (cost, tuple(tuple(t) for t in tables))
        if cost == 0:
            break
    return best[1]


def _improve(tables: list[list[int]], met: Mapping[frozenset[int], int]) -> None:
    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(tables)), 2):
            for i in range(TABLE):
                for j in range(TABLE):
                    ta, tb = tables[a], tables[b]
                    before = _cost(ta, met) + _cost(tb, met)
                    ta[i], tb[j] = tb[j], ta[i]
                    if _cost(ta, met) + _cost(tb, met) < before:
                        improved = True
                    else:
                        ta[i], tb[j] = tb[j], ta[i]
