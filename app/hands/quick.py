"""The outlook's three questions of a hand, asked thousands of times a request, answered quickly.

For a 13-tile hand: its shanten and the kinds whose draw lowers it (`improving_kinds`), or when
it is ready, the kinds that complete it (`waiting_kinds`); for 14 tiles: the discards that keep
its shanten (`keeping_discards`). efficiency.py answers each under any table's rules; where
the rules are the ones `xiangting` knows (Rust, on PyPI: the standard form, seven pairs of
distinct kinds, thirteen orphans; every tile in play), and it is installed, it answers instead,
6 to 14 times sooner (tests/bench/bench_shanten_engines.py). Its answer is the best of its
forms, and its kinds those that lower (or for 14 tiles, keep) any form at that best, so where
a form of the table's differs from its own, the table's answer follows from its own:

- with declared melds only the standard form counts in both (xiangting takes the concealed
  tiles alone, 3n+1 or 3n+2 of them, and counts only sets and a pair in fewer than 13);
- thirteen orphans where the table has none (Sichuan, Hong Kong's course without it): its
  answer stands while they are further from ready (without honours they are at least six
  tiles from it);
- no seven pairs (Hong Kong): its answer stands while its seven pairs are further;
- seven pairs where four alike count as two (Sichuan): counted from the pairs alone (6 less
  the pairs, as that counting has no need of seven kinds). Further than xiangting's answer,
  its answer stands; nearer, they alone count (kinds: those held once or three times, whose
  draw makes a pair more, whose discard keeps the pairs); as near, both count: its kinds and
  those. (Its own seven pairs, when as near, are then these too, and their kinds among them.)

A hand holding tiles of its declared missing suit is efficiency.py's. Both engines give the
same answers (tests/hands/test_quick.py holds them equal); xiangting is a speed-up, never a rule.
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
    """Whether xiangting may be asked about these tiles at this table (`_thirteen` and
    `_fourteen` then say whether and how its answer gives the table's): none of a declared
    missing suit held.

    >>> exact([1] * 13 + [0] * 21, 0, _RIICHI, Table()) == (_xt is not None)
    True
    >>> exact([0] * 18 + [1] * 13 + [0] * 3, 0, _RIICHI, Table(honours=False, missing="s"))
    False
    """
    if _xt is None:
        return False
    missing = table.missing
    if missing is None:
        return True
    lo = SUIT_OFFSET[missing]
    return not any(counts[lo:lo + 9])


def _thirteen(counts: bytes, melds: int, rules: ShapeRules, table: Table
              ) -> tuple[int, tuple[int, ...]] | None:
    """A 13-tile hand's shanten at this table and, by xiangting, the kinds whose draw lowers
    it (at 0: completes it); None where efficiency.py must answer."""
    missing = table.missing
    if missing is None:
        drawable = _EVERY if table.honours else _SUITED
    else:
        lo = SUIT_OFFSET[missing]
        if counts[lo:lo + 9] != _NONE:
            return None
        drawable = _drawable_bits(table.honours, missing)
    rn, bits = _xt.calculate_necessary_tiles(counts, _FOUR)
    s = rn - 1
    if not melds:
        if _orphans_differ(counts, rules, table, s):
            return None
        if rules.seven_pairs:
            if rules.seven_pairs_quads:   # four alike as two pairs: 6 less the pairs in 13 tiles
                pairs = 6 - counts.count(2) - counts.count(3) - 2 * counts.count(4)
                if s >= pairs:
                    odd = _odd_bits(counts)
                    s, bits = (s, bits | odd) if s == pairs else (pairs, odd)
        elif _distinct_pairs(counts) <= s:
            return None
    return s, _kinds(bits & drawable)


def _fourteen(counts: bytes, melds: int, rules: ShapeRules, table: Table
              ) -> tuple[int, tuple[int, ...]] | None:
    """The best shanten any discard of 14 tiles leaves at this table and, by xiangting, the
    distinct discards that leave it; None where efficiency.py must answer."""
    missing = table.missing
    if missing is not None:
        lo = SUIT_OFFSET[missing]
        if counts[lo:lo + 9] != _NONE:
            return None
    rn, bits = _xt.calculate_unnecessary_tiles(counts, _FOUR)
    s = rn - 1
    if not melds:
        if _orphans_differ(counts, rules, table, s):
            return None
        if rules.seven_pairs:
            if rules.seven_pairs_quads:   # 6 less the pairs, at most seven, in 14 tiles
                pairs = 6 - min(7, counts.count(2) + counts.count(3) + 2 * counts.count(4))
                if s >= pairs:
                    odd = _odd_bits(counts)
                    s, bits = (s, bits | odd) if s == pairs else (pairs, odd)
        elif _distinct_pairs(counts) <= s:
            return None
    return s, _kinds(bits)


def _orphans_differ(counts: bytes, rules: ShapeRules, table: Table, s: int) -> bool:
    """Whether thirteen orphans, counted by xiangting but not at this table, may be as near as
    xiangting's answer `s` (without honours they are at least six tiles from ready)."""
    if table.honours:
        if rules.thirteen_orphans and table.missing is None:
            return False   # the table's, as xiangting counts them
    elif s < ORPHANS_FAR:
        return False
    return thirteen_orphans_shanten(counts) <= s


def _odd_bits(counts: bytes) -> int:
    """The bit set of the kinds held once or three times (a draw of one makes a pair more,
    four alike counting as two; a discard of one keeps the pairs).

    >>> bin(_odd_bits(bytes((1, 2, 3, 4) + (0,) * 29 + (1,))))
    '0b1000000000000000000000000000000101'
    """
    return int(counts.translate(_ODD_DIGITS)[::-1], 2)


_NONE = bytes(9)
_ODD_DIGITS = bytes(b"01"[n & 1] for n in range(256))   # a count -> "1" when odd, else "0"


def _distinct_pairs(counts: bytes) -> int:
    """Seven pairs' shanten, of distinct kinds (as seven_pairs_shanten counts it), of 13 or 14
    tiles.

    >>> _distinct_pairs(bytes((2, 2, 0, 2, 0, 2, 0, 2, 0, 2, 1) + (0,) * 23))
    0
    """
    kinds = NUM_KINDS - counts.count(0)
    pairs = kinds - counts.count(1)
    return 13 - 2 * pairs - min(7 - pairs, kinds - pairs)


def improving_kinds(counts: Sequence[int], melds: int, rules: ShapeRules, table: Table
                    ) -> tuple[int, tuple[int, ...]]:
    """A 13-tile hand's shanten and, when it is not ready, the kinds whose draw lowers it (held
    four times or not: the caller weighs the copies left); at 0 or -1 no kinds."""
    found = _thirteen(_bytes(counts), melds, rules, table) if _xt is not None else None
    if found is None:
        return _slow_improving(counts, melds, rules, table)
    return found if found[0] > 0 else (found[0], ())


def state_kinds(counts: Sequence[int], melds: int, rules: ShapeRules, table: Table,
                near: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """improving_kinds, but at 0 (ready) the kinds that complete the hand (waiting_kinds,
    `near` as there): one xiangting answer gives both where it stands."""
    found = _thirteen(_bytes(counts), melds, rules, table) if _xt is not None else None
    if found is not None:
        return found
    s, kinds = _slow_improving(counts, melds, rules, table)
    return s, (_slow_waits(counts, melds, rules, table, near) if s == 0 else kinds)


def _bytes(counts: Sequence[int]) -> bytes:
    return counts if type(counts) is bytes else bytes(counts)


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
    found = _thirteen(_bytes(counts), melds, rules, table) if _xt is not None else None
    if found is not None and found[0] == 0:
        return found[1]
    return _slow_waits(counts, melds, rules, table, near)


def _slow_waits(counts, melds, rules, table, near) -> tuple[int, ...]:
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
    if shanten >= 0 and _xt is not None:
        found = _fourteen(_bytes(counts), melds, rules, table)
        if found is not None and found[0] == shanten:
            return found[1]
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
    if table is not None and not (table.honours and table.missing is None):
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


_EVERY, _SUITED = _drawable_bits(True, None), _drawable_bits(False, None)
