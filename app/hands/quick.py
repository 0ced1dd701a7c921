"""The outlook's three questions of a hand, asked thousands of times a request, answered quickly.

For a 13-tile hand: its shanten and the kinds whose draw lowers it (`improving_kinds`), or when
it is ready, the kinds that complete it (`waiting_kinds`); for 14 tiles: the discards that keep
its shanten (`keeping_discards`). efficiency.py answers each under any table's rules; where
the rules are the ones `xiangting` knows (Rust, on PyPI: the standard form, seven pairs of
distinct kinds, thirteen orphans; every tile in play), and it is installed, it answers instead,
6 to 14 times sooner (tests/bench/bench_shanten_engines.py). That is so for the family rules,
and for a Sichuan hand holding no tile four times and none of its missing suit whose seven
pairs (four alike as two pairs) are further from ready than its sets and a pair: its answer
is then the standard form's in both engines (without honours, thirteen orphans is never
closer than six tiles). And where Sichuan's seven pairs (four alike as two pairs) are as near
as that or nearer, but seven pairs of distinct kinds are not (`_beside_pairs`), xiangting's
answer is still the standard form's, and the seven pairs' own is plain counting (a pair gained
by drawing a kind held once or three times, kept by throwing one): the two are joined. Both
engines give the same answers (tests/hands/test_quick.py holds them equal); xiangting is a speed-up, never a rule.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .efficiency import (
    Table,
    complete,
    discard_shanten,
    form_shanten,
    improving_tiles,
    seven_pairs_shanten,
    thirteen_orphans_shanten,
)
from .readings import ShapeRules
from .tiles import NUM_KINDS, SUIT_OFFSET

try:
    import xiangting as _xt
except ImportError:   # a dependency; were it missing, efficiency.py would answer alone
    _xt = None

_FOUR = _xt.PlayerCount.FOUR if _xt is not None else None
_RIICHI = ShapeRules(seven_pairs=True, seven_pairs_quads=False, thirteen_orphans=True)
ORPHANS_FAR = 6   # without honours, thirteen orphans is at least this far from ready


def exact(counts: Sequence[int], melds: int, rules: ShapeRules, table: Table) -> bool:
    """Whether xiangting may be asked about these tiles at this table (`_trusted` then says
    whether its answer stands): no melds, and none of a declared missing suit held.

    >>> exact([1] * 13 + [0] * 21, 0, _RIICHI, Table()) == (_xt is not None)
    True
    >>> exact([0] * 18 + [1] * 13 + [0] * 3, 0, _RIICHI, Table(honours=False, missing="s"))
    False
    """
    if _xt is None or melds:
        return False
    if table.missing is None:
        return True
    lo = SUIT_OFFSET[table.missing]
    return not any(counts[lo:lo + 9])


def _trusted(counts: Sequence[int], rules: ShapeRules, table: Table, rn: int) -> bool:
    """Whether xiangting's replacement number `rn` (its shanten + 1, the best of the standard
    form, seven pairs of distinct kinds and thirteen orphans) stands for this table's shanten:
    each special form is either one the table allows as xiangting counts it, or further from
    ready than xiangting's answer in both engines' counting (so the answer is the other
    forms'). Seven pairs where four alike count as two (Sichuan) is never nearer in
    xiangting's counting than in the table's, so it is the table's that must be further;
    without honours thirteen orphans is never nearer than six.
    """
    s = rn - 1
    # four alike as two pairs changes nothing while no kind is held three times or more (a
    # draw makes at most a pong, which is one pair either way, and kinds enough stay)
    quads = rules.seven_pairs and rules.seven_pairs_quads and max(counts) > 2
    if (not rules.seven_pairs or quads) and _pairs_at_most(counts) >= 6 - s and (
            seven_pairs_shanten(counts, quads, table) <= s):
        return False
    orphans_as_xiangting = rules.thirteen_orphans and table.honours and table.missing is None
    if not orphans_as_xiangting:
        far = ORPHANS_FAR if not table.honours else thirteen_orphans_shanten(counts)
        if far <= s:
            return False
    return True


def _pairs_at_most(counts: Sequence[int]) -> int:
    """The most pairs seven pairs can count in these tiles (four alike as two): seven pairs is
    at least 6 less this many tiles from ready, so it is counted only when it may be near.

    >>> _pairs_at_most((2, 3, 4, 1) + (0,) * 30)
    4
    """
    return counts.count(2) + counts.count(3) + 2 * counts.count(4)


def improving_kinds(counts: Sequence[int], melds: int, rules: ShapeRules, table: Table
                    ) -> tuple[int, tuple[int, ...]]:
    """A 13-tile hand's shanten and, when it is not ready, the kinds whose draw lowers it (held
    four times or not: the caller weighs the copies left); at 0 or -1 no kinds."""
    if exact(counts, melds, rules, table):
        rn, bits = _xt.calculate_necessary_tiles(counts, _FOUR)
        if _trusted(counts, rules, table, rn):
            return rn - 1, (_kinds(bits, table) if rn > 1 else ())
        joined = _beside_pairs(counts, rules, table, rn)
        if joined is not None:
            standard, pairs = joined
            best = min(standard, pairs)
            if best <= 0:
                return best, ()
            return best, _union(_kinds(bits, table) if standard == best else (),
                                _odd_kinds(counts, table) if pairs == best else ())
    return _slow_improving(counts, melds, rules, table)


def state_kinds(counts: Sequence[int], melds: int, rules: ShapeRules, table: Table,
                near: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """improving_kinds, but at 0 (ready) the kinds that complete the hand (waiting_kinds,
    `near` as there): one xiangting answer gives both where it stands."""
    if exact(counts, melds, rules, table):
        rn, bits = _xt.calculate_necessary_tiles(counts, _FOUR)
        if rn > 0 and _trusted(counts, rules, table, rn):
            return rn - 1, _kinds(bits, table)
    s, kinds = improving_kinds(counts, melds, rules, table)
    return s, (waiting_kinds(counts, melds, rules, table, near) if s == 0 else kinds)


def _beside_pairs(counts: Sequence[int], rules: ShapeRules, table: Table, rn: int
                  ) -> tuple[int, int] | None:
    """(the standard form's shanten, seven pairs' with four alike as two) under rules whose
    seven pairs count four alike as two, when xiangting's replacement number `rn` tells the
    standard form's: it is, when seven pairs of distinct kinds and thirteen orphans are both
    further; and when those seven pairs are nearer than any form xiangting counts, its answer
    (at most the standard form's) stands for it, as only the pairs then count. None otherwise
    (efficiency.py answers)."""
    if not (rules.seven_pairs and rules.seven_pairs_quads):
        return None
    s = rn - 1
    pairs = seven_pairs_shanten(counts, True, table)
    if pairs < s:
        return s, pairs
    far = ORPHANS_FAR if not table.honours else thirteen_orphans_shanten(counts)
    if far <= s or seven_pairs_shanten(counts, False, table) <= s:
        return None
    return s, pairs


def _odd_kinds(counts: Sequence[int], table: Table | None = None) -> tuple[int, ...]:
    """The kinds held once or three times (a draw of one makes a pair more, four alike
    counting as two; a discard of one keeps the pairs), those the table lets be drawn."""
    return tuple(k for k, n in enumerate(counts) if n & 1 and (table is None or table.drawable(k)))


def _union(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(set(a) | set(b))) if a and b else a or b


def _slow_improving(counts, melds, rules, table) -> tuple[int, tuple[int, ...]]:
    forms = form_shanten(counts, melds, rules, table)
    if forms.best <= 0:
        return forms.best, ()
    return forms.best, tuple(int(i.tile) for i in improving_tiles(counts, melds, rules, table,
                                                                  counts, forms))


def waiting_kinds(counts: Sequence[int], melds: int, rules: ShapeRules, table: Table,
                  near: Sequence[int]) -> tuple[int, ...]:
    """The kinds that complete a ready 13-tile hand, of `near` (every kind that could: the
    caller's list, for efficiency.py's whole-hand test of each)."""
    if exact(counts, melds, rules, table):
        rn, bits = _xt.calculate_necessary_tiles(counts, _FOUR)
        if rn == 1 and _trusted(counts, rules, table, rn):
            return _kinds(bits, table)
        joined = _beside_pairs(counts, rules, table, rn)
        if joined is not None and min(joined) == 0:
            standard, pairs = joined
            return _union(_kinds(bits, table) if standard == 0 else (),
                          _odd_kinds(counts, table) if pairs == 0 else ())
    found = []
    grown = list(counts)
    for k in near:
        grown[k] += 1
        if complete(grown, melds, rules, table):
            found.append(k)
        grown[k] -= 1
    return tuple(found)


def keeping_discards(counts: Sequence[int], melds: int, rules: ShapeRules, table: Table,
                     shanten: int) -> tuple[int, ...]:
    """The distinct discards of 14 tiles that leave `shanten`, which must be the 14 tiles' own
    (the best any discard leaves)."""
    if shanten >= 0 and exact(counts, melds, rules, table):
        rn, bits = _xt.calculate_unnecessary_tiles(counts, _FOUR)
        if rn - 1 == shanten and _trusted(counts, rules, table, rn):
            return _kinds(bits)
        joined = _beside_pairs(counts, rules, table, rn)
        if joined is not None and min(joined) == shanten:
            standard, pairs = joined
            return _union(_kinds(bits) if standard == shanten else (),
                          _odd_kinds(counts) if pairs == shanten else ())
    return tuple(d for d, after in discard_shanten(counts, melds, rules, table).items()
                 if after == shanten)


def _kinds(bits: int, table: Table | None = None) -> tuple[int, ...]:
    """The kinds of a xiangting bit set, lowest first; with a table, those it lets be drawn
    and kept (no honours in Sichuan, none of the missing suit).

    >>> _kinds(0b101), _kinds(0b101, Table(missing="m"))
    ((0, 2), ())
    >>> _kinds(1 << 33 | 1 << 27 | 1 << 9), _kinds(1 << 33 | 1 << 9, Table(honours=False))
    ((9, 27, 33), (9,))
    """
    if table is not None:
        bits &= _drawable_bits(table.honours, table.missing)
    return (_BYTE_KINDS[0][bits & 255] + _BYTE_KINDS[1][bits >> 8 & 255]
            + _BYTE_KINDS[2][bits >> 16 & 255] + _BYTE_KINDS[3][bits >> 24 & 255]
            + _BYTE_KINDS[4][bits >> 32 & 3])


# the kinds of each byte of a bit set, by the byte's place (a fifth holds kinds 32 and 33)
_BYTE_KINDS = tuple(tuple(tuple(8 * place + i for i in range(8) if byte >> i & 1)
                          for byte in range(256)) for place in range(5))


@lru_cache(maxsize=16)
def _drawable_bits(honours: bool, missing: str | None) -> int:
    """The bit set of the kinds a table lets be drawn and kept."""
    table = Table(honours=honours, missing=missing)
    return sum(1 << k for k in range(NUM_KINDS) if table.drawable(k))
