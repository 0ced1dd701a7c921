"""Tile efficiency: how far a hand is from ready (shanten, 向听) and which tiles bring it closer.

Pure functions of tile counts. The shanten of a form is the number of tiles a hand must
still change before it is ready (0 = ready, -1 = complete). The rules shape it: the forms
a ruleset allows (ShapeRules), declared melds (fewer sets to make), a Sichuan hand's
declared missing suit (its tiles are dead: they must all go before the hand can win) and
whether honours are in play at all.

>>> counts = counts_of(parse_tiles("123m456p789s1z2z3z4z"))
>>> standard_shanten(counts), seven_pairs_shanten(counts), thirteen_orphans_shanten(counts)
(2, 6, 7)
>>> [(i.tile.code, i.left) for i in improving_tiles(counts)][:3]
[('1z', 3), ('2z', 3), ('3z', 3)]
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter

from .readings import ShapeRules, is_complete
from .tiles import NUM_KINDS, SUIT_OFFSET, TERMINALS_AND_HONOURS, TILES, Tile, parse_tiles

__all__ = ["clear_tables", "FormShanten", "Improvement", "DiscardOption", "Table", "counts_of", "standard_shanten",
           "seven_pairs_shanten", "thirteen_orphans_shanten", "shanten", "form_shanten",
           "improving_tiles", "discard_options", "discard_shanten", "complete", "parse_tiles"]

NEG = -64          # "this cannot be made": far below any real value, safe to add to
_ZERO5 = (0, 0, 0, 0, 0)
_NO_HEAD = (NEG,) * 5
UNREACHABLE = 99   # the shanten of a form the hand cannot take (melds declared, form off)


@dataclass(frozen=True, slots=True)
class Table:
    """What the table says about the tiles: which are in play and which suit is dead."""

    honours: bool = True               # False in Sichuan (108 suited tiles, ruling 73)
    missing: str | None = None         # Sichuan 定缺: the declared missing suit, m p or s
    seen: tuple[int, ...] = (0,) * NUM_KINDS   # copies visible elsewhere (discards, others' melds)

    def drawable(self, index: int) -> bool:
        """Whether a tile of this kind can be drawn and kept (in play, not the dead suit)."""
        if index >= 27:
            return self.honours
        return self.missing is None or index // 9 != SUIT_OFFSET[self.missing] // 9


PLAIN = Table()
EVERY_SHAPE = ShapeRules()   # seven pairs and thirteen orphans both on


def counts_of(tiles: Iterable[Tile]) -> list[int]:
    """Copies of each of the 34 kinds among these tiles."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


# --- the standard form: sets and a pair ---------------------------------------------------
#
# A suit's tiles are split into sets (3 alike or a run), partial sets (a pair, two adjacent
# tiles, two tiles one apart), at most one pair kept as the head, and loose tiles. For each
# suit a table says, for g = 0..4 "slots" used by sets and partial sets, the most value
# 2 x sets + partial sets (+1 with the head) it can give. The four suits' tables are
# combined by a max-plus convolution over the slots, which is exact because the value is a
# sum over suits and the only shared limit is the number of slots (4 - declared melds).
# Shanten = 8 - 2 x melds - best value: the usual block count (as the mahjong library, and
# Tenhou's, count it), found from per-suit tables remembered across hands.

def _shift(table: tuple[int, ...], add: int) -> tuple[int, ...]:
    """One state's values with one more set or partial set (one slot, `add` value)."""
    return (NEG, table[0] + add, table[1] + add, table[2] + add, table[3] + add)


def _best(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return (max(a[0], b[0]), max(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]), max(a[4], b[4]))


def _raised(values: tuple[int, ...], add: int) -> tuple[int, ...]:
    return (values[0] + add, values[1] + add, values[2] + add, values[3] + add, values[4] + add)


# A table holds four states, each five values (g = 0..4 slots): without the head and no
# loose tile (E), without the head and some loose tile that can still be paired (U), without
# the head and every loose tile one the hand holds all four of (Q: it cannot become the
# head, so such a hand is one step further, as the mahjong library counts it), and with
# the head (H).
EMPTY = (_ZERO5, _NO_HEAD, _NO_HEAD, _NO_HEAD)


def _with_block(t, add: int):
    """A table with one more set (add 2) or partial set (add 1)."""
    return (_shift(t[0], add), _shift(t[1], add), _shift(t[2], add), _shift(t[3], add))


def _with_head(t):
    """A table with a pair as the head: any loose tiles then matter no more."""
    return (_NO_HEAD, _NO_HEAD, _NO_HEAD, _raised(_best(_best(t[0], t[1]), t[2]), 1))


def _with_loose(t, exhausted: bool):
    """A table with one more loose tile; `exhausted`: the hand holds all four of it."""
    if exhausted:
        return (_NO_HEAD, t[1], _best(t[0], t[2]), t[3])
    return (_NO_HEAD, _best(_best(t[0], t[1]), t[2]), _NO_HEAD, t[3])


def _either(x, y):
    return (_best(x[0], y[0]), _best(x[1], y[1]), _best(x[2], y[2]), _best(x[3], y[3]))


_SUIT_TABLES: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
_HONOUR_TABLES: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...], int]] = {}
_TABLE_LIMIT = 200_000   # entries; odd input (every request new) would otherwise grow it


def clear_tables() -> None:
    """Forget every suit seen so far (for benchmarks that time a cold start)."""
    for cache in (_SUIT_TABLES, _HONOUR_TABLES, _PLAIN_SUIT_TABLES, _PLAIN_HONOUR_TABLES, _IDS,
                  _BY_ID, _SUIT_IDS, _HONOUR_IDS, _EXACT_SUIT_IDS, _EXACT_HONOUR_IDS, _JOINS,
                  _TOPS):
        cache.clear()


def _remember(cache: dict, key, value):
    if len(cache) >= _TABLE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def _span(counts: tuple[int, ...]) -> tuple[int, int]:
    """Where a run of counts starts and ends once zeros at either end are dropped.

    >>> _span((0, 1, 0, 2, 0)), _span((0, 0))
    ((1, 4), (2, 2))
    """
    size = len(counts)
    i = 0
    while i < size and not counts[i]:
        i += 1
    end = size
    while end > i and not counts[end - 1]:
        end -= 1
    return i, end


def _suit_table(counts: tuple[int, ...], quads: int) -> tuple:
    """The table of a run of suited counts (a suit or part of one); bit i of `quads`: the
    hand holds all four of tile i. Remembered; zeros at either end change nothing, so they
    are dropped first."""
    key = (counts, quads)
    found = _SUIT_TABLES.get(key)
    if found is not None:
        return found
    size = len(counts)
    i, end = _span(counts)
    if i == size:
        return _remember(_SUIT_TABLES, key, EMPTY)
    if i or end < size:
        return _remember(_SUIT_TABLES, key, _suit_table(
            counts[i:end], quads >> i & ((1 << (end - i)) - 1)))
    c = list(counts)
    here = c[i]
    # the lowest tile is loose (one copy; the others are split again)
    c[i] -= 1
    table = _with_loose(_suit_table(tuple(c), quads), bool(quads & 1))
    c[i] += 1
    if here >= 2:   # a pair: the head, or a partial set waiting on a third
        c[i] -= 2
        rest = _suit_table(tuple(c), quads)
        c[i] += 2
        table = _either(table, _with_head(rest))
        if not quads & 1:   # no third copy is left to wait on when all four are held
            table = _either(table, _with_block(rest, 1))
    if here >= 3:
        c[i] -= 3
        table = _either(table, _with_block(_suit_table(tuple(c), quads), 2))
        c[i] += 3
    for step, gap in enumerate((1, 2)):   # partial runs: 12 and 13
        j = i + gap
        if j < size and c[j]:
            c[i] -= 1
            c[j] -= 1
            table = _either(table, _with_block(_suit_table(tuple(c), quads), 1))
            if step == 0 and j + 1 < size and c[j + 1]:   # a run: 123
                c[j + 1] -= 1
                table = _either(table, _with_block(_suit_table(tuple(c), quads), 2))
                c[j + 1] += 1
            c[i] += 1
            c[j] += 1
    return _remember(_SUIT_TABLES, key, table)


def _honour_table(counts: tuple[int, ...]) -> tuple[tuple, int]:
    """The table of the seven honour counts, and their dead tiles; remembered.

    Honours make no runs. The fourth copy of an honour held four times is dead: it can
    only make a kong, which must be declared (the mahjong library counts it so too).
    """
    found = _HONOUR_TABLES.get(counts)
    if found is not None:
        return found
    table, dead = EMPTY, 0
    for n in counts:
        if n == 1:
            table = _with_loose(table, False)
        elif n == 2:   # a pair: the head or a partial set, or two loose tiles
            table = _either(_either(_with_block(table, 1), _with_head(table)),
                            _with_loose(_with_loose(table, False), False))
        elif n == 3:   # a pong, or a pair and a loose tile, or three loose tiles
            loose = _with_loose(table, False)
            table = _either(_either(_with_block(table, 2), _with_head(loose)), _either(
                _with_block(loose, 1), _with_loose(_with_loose(loose, False), False)))
        elif n == 4:   # a pong and a dead tile, or the head and two tiles held in vain
            dead += 1
            table = _either(_with_loose(_with_block(table, 2), True),
                            _with_loose(_with_loose(_with_head(table), True), True))
    return _remember(_HONOUR_TABLES, counts, (table, dead))


# Most hands hold no tile four times, and then no loose tile is ever exhausted: two states
# do, without and with the head, which is quicker to work out on a first look at a suit.
PLAIN_EMPTY = (_ZERO5, _NO_HEAD)
_PLAIN_SUIT_TABLES: dict[tuple[int, ...], tuple] = {}
_PLAIN_HONOUR_TABLES: dict[tuple[int, ...], tuple] = {}


def _plain_suit_table(counts: tuple[int, ...]) -> tuple:
    """(without head, with head) of a run of suited counts none of which is 4; remembered."""
    found = _PLAIN_SUIT_TABLES.get(counts)
    if found is not None:
        return found
    size = len(counts)
    i, end = _span(counts)
    if i == size:
        return _remember(_PLAIN_SUIT_TABLES, counts, PLAIN_EMPTY)
    if i or end < size:
        return _remember(_PLAIN_SUIT_TABLES, counts, _plain_suit_table(counts[i:end]))
    c = list(counts)
    here = c[i]
    c[i] -= 1   # the lowest tile is loose (one copy; the others are split again)
    no_head, head = _plain_suit_table(tuple(c))
    c[i] += 1
    if here >= 2:   # a pair: the head, or a partial set waiting on a third
        c[i] -= 2
        r0, r1 = _plain_suit_table(tuple(c))
        c[i] += 2
        no_head, head = _best(no_head, _shift(r0, 1)), _best(head, _best(_shift(r1, 1),
                                                                         _raised(r0, 1)))
    if here >= 3:
        c[i] -= 3
        r0, r1 = _plain_suit_table(tuple(c))
        c[i] += 3
        no_head, head = _best(no_head, _shift(r0, 2)), _best(head, _shift(r1, 2))
    for step, gap in enumerate((1, 2)):   # partial runs: 12 and 13
        j = i + gap
        if j < size and c[j]:
            c[i] -= 1
            c[j] -= 1
            r0, r1 = _plain_suit_table(tuple(c))
            no_head, head = _best(no_head, _shift(r0, 1)), _best(head, _shift(r1, 1))
            if step == 0 and j + 1 < size and c[j + 1]:   # a run: 123
                c[j + 1] -= 1
                r0, r1 = _plain_suit_table(tuple(c))
                c[j + 1] += 1
                no_head, head = _best(no_head, _shift(r0, 2)), _best(head, _shift(r1, 2))
            c[i] += 1
            c[j] += 1
    return _remember(_PLAIN_SUIT_TABLES, counts, (no_head, head))


def _plain_honour_table(counts: tuple[int, ...]) -> tuple:
    """(without head, with head) of seven honour counts none of which is 4; remembered."""
    found = _PLAIN_HONOUR_TABLES.get(counts)
    if found is not None:
        return found
    no_head, head = PLAIN_EMPTY
    for n in counts:
        if n == 2:   # the head, a partial set, or loose
            no_head, head = _best(no_head, _shift(no_head, 1)), _best(
                _best(head, _shift(head, 1)), _raised(no_head, 1))
        elif n == 3:   # a pong, a pair beside a loose tile, or loose
            no_head, head = _best(no_head, _shift(no_head, 2)), _best(
                _best(head, _shift(head, 2)), _raised(no_head, 1))
    return _remember(_PLAIN_HONOUR_TABLES, counts, (no_head, head))


def _plain_join(x, y):
    """Two plain tables as one: at most one of them holds the head."""
    return _conv(x[0], y[0]), _best(_conv(x[1], y[0]), _conv(x[0], y[1]))


def _plain_top(x, y, slots: int) -> int:
    x0, x1 = x
    y0, y1 = y
    return max(max(x0[g] + y0[slots - g], x1[g] + y0[slots - g], x0[g] + y1[slots - g])
               for g in range(slots + 1))


def _conv(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Max-plus convolution over slots: the best of two suits together with g slots."""
    a0, a1, a2, a3, a4 = a
    b0, b1, b2, b3, b4 = b
    return (a0 + b0, max(a0 + b1, a1 + b0), max(a0 + b2, a1 + b1, a2 + b0),
            max(a0 + b3, a1 + b2, a2 + b1, a3 + b0),
            max(a0 + b4, a1 + b3, a2 + b2, a3 + b1, a4 + b0))


def _join(x, y):
    """Two tables as one: at most one of them holds the head; loose tiles of both count."""
    xe, xu, xq, xh = x
    ye, yu, yq, yh = y
    x_any, y_any = _best(_best(xe, xu), xq), _best(_best(ye, yu), yq)
    return (_conv(xe, ye),
            _best(_conv(xu, y_any), _conv(_best(xe, xq), yu)),
            _best(_best(_conv(xq, yq), _conv(xq, ye)), _conv(xe, yq)),
            _best(_conv(xh, y_any), _conv(x_any, yh)))


def _top(x, y, slots: int) -> int:
    """The best value of two joined tables with `slots` slots; a hand whose loose tiles are
    all exhausted, without the head, is one step further."""
    e, u, q, h = _join(x, y)
    return max(e[slots], u[slots], q[slots] - 1, h[slots])


# Few distinct tables occur (many suits share one), so each gets a number, and joining two
# numbered tables, or reading the best of two, is one dictionary look-up once seen.
_IDS: dict[tuple, int] = {}
_BY_ID: list[tuple] = []
_SUIT_IDS: dict[tuple[int, ...], int] = {}
_HONOUR_IDS: dict[tuple[int, ...], tuple[int, int]] = {}
_EXACT_SUIT_IDS: dict[tuple[int, ...], int] = {}
_EXACT_HONOUR_IDS: dict[tuple[int, ...], tuple[int, int]] = {}
_JOINS: dict[int, int] = {}
_TOPS: dict[int, int] = {}


def _intern(table: tuple) -> int:
    found = _IDS.get(table)
    if found is None:
        if len(_BY_ID) >= 1 << 20:   # never in practice: numbers must fit their key fields
            clear_tables()
        found = _IDS[table] = len(_BY_ID)
        _BY_ID.append(table)
    return found


def _suit_id(counts: tuple[int, ...], exact: bool) -> int:
    """The number of one suit's table (nine counts); `exact`: the four-state table, for
    hands that hold some tile four times.

    Tiles two or more ranks apart share no set or partial set, so a suit splits at two
    zeros in a row into parts worked out (and remembered) alone, then joined.
    """
    cache = _EXACT_SUIT_IDS if exact else _SUIT_IDS
    found = cache.get(counts)
    if found is None:
        found = _intern(EMPTY if exact else PLAIN_EMPTY)
        if any(counts):
            quads = sum(1 << i for i, n in enumerate(counts) if n == 4)
            for part in _PART.finditer(bytes(counts)):
                start, end = part.span()
                table = (_suit_table(counts[start:end], quads >> start & ((1 << (end - start)) - 1))
                         if exact else _plain_suit_table(counts[start:end]))
                found = _join_id(found, _intern(table))
        _remember(cache, counts, found)
    return found


_PART = re.compile(rb"[^\x00](?:\x00?[^\x00])*")   # tiles with no two zeros in a row between


def _honour_id(counts: tuple[int, ...], exact: bool) -> tuple[int, int]:
    """The number of the honours' table (seven counts), and their dead tiles."""
    cache = _EXACT_HONOUR_IDS if exact else _HONOUR_IDS
    found = cache.get(counts)
    if found is None:
        if exact:
            table, dead = _honour_table(counts)
            found = _remember(cache, counts, (_intern(table), dead))
        else:
            found = _remember(cache, counts, (_intern(_plain_honour_table(counts)), 0))
    return found


def _join_id(a: int, b: int) -> int:
    key = a << 20 | b
    found = _JOINS.get(key)
    if found is None:
        x, y = _BY_ID[a], _BY_ID[b]
        found = _remember(_JOINS, key, _intern((_plain_join if len(x) == 2 else _join)(x, y)))
    return found


def _top_id(a: int, b: int, slots: int) -> int:
    key = (a << 20 | b) << 3 | slots
    found = _TOPS.get(key)
    if found is None:
        x, y = _BY_ID[a], _BY_ID[b]
        found = _remember(_TOPS, key, (_plain_top if len(x) == 2 else _top)(x, y, slots))
    return found


def _suit_ids(counts: Sequence[int]) -> tuple[int, int, int, int, int]:
    """The four suits' table numbers and the honours' dead tiles."""
    if 4 in counts:
        z, dead = _honour_id(tuple(counts[27:34]), True)
        return (_suit_id(tuple(counts[0:9]), True), _suit_id(tuple(counts[9:18]), True),
                _suit_id(tuple(counts[18:27]), True), z, dead)
    get = _SUIT_IDS.get   # the usual case, looked up inline
    m, p, s = tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27])
    z = _HONOUR_IDS.get(honours := tuple(counts[27:34]))
    m_id, p_id, s_id = get(m), get(p), get(s)
    return (_suit_id(m, False) if m_id is None else m_id,
            _suit_id(p, False) if p_id is None else p_id,
            _suit_id(s, False) if s_id is None else s_id,
            (_honour_id(honours, False) if z is None else z)[0], 0)


def _dead_count(counts: Sequence[int], table: Table) -> tuple[Sequence[int], int]:
    """The counts without the dead suit, and how many tiles of it are held."""
    if table.missing is None:
        return counts, 0
    lo = SUIT_OFFSET[table.missing]
    held = sum(counts[lo:lo + 9])
    if not held:
        return counts, 0
    live = list(counts)
    live[lo:lo + 9] = [0] * 9
    return live, held


def standard_shanten(counts: Sequence[int], melds: int = 0, table: Table = PLAIN) -> int:
    """Shanten of the standard form (sets and a pair) of 13 or 14 concealed-equivalent tiles.

    Dead tiles (the missing suit, a fourth honour) cannot be part of the hand, so each
    must still be changed: the shanten is at least their number (one less with 14 tiles,
    when one of them is the discard to come).

    >>> standard_shanten(counts_of(parse_tiles("123m456p789s11z22z3z")))
    0
    >>> standard_shanten(counts_of(parse_tiles("123m456m789m1122s")), table=Table(missing="s"))
    4
    """
    live, dead = _dead_count(counts, table)
    return _standard(live, melds, dead, (sum(counts) + 3 * melds) % 3 == 2)


def _standard(live: Sequence[int], melds: int, missing_dead: int, fourteen: bool) -> int:
    """standard_shanten of the live counts, with this many tiles of the missing suit held."""
    m, p, s, z, honour_dead = _suit_ids(live)
    found = 8 - 2 * melds - _top_id(_join_id(m, p), _join_id(s, z), 4 - melds)
    dead = missing_dead + honour_dead
    if dead and found != -1:
        found = max(found, dead - 1 if fourteen else dead)
    return found


# --- seven pairs and thirteen orphans -----------------------------------------------------

_ORPHAN_COUNTS = itemgetter(*TERMINALS_AND_HONOURS)


def seven_pairs_shanten(counts: Sequence[int], quads: bool = False, table: Table = PLAIN) -> int:
    """Shanten of seven pairs (七对); with `quads`, four alike count as two pairs (Sichuan).

    >>> seven_pairs_shanten(counts_of(parse_tiles("1122m3344p5566s7z")))
    0
    >>> seven_pairs_shanten(counts_of(parse_tiles("1111m3344p5566s7z"))), seven_pairs_shanten(
    ...     counts_of(parse_tiles("1111m3344p5566s7z")), quads=True)
    (2, 0)
    """
    live, _ = _dead_count(counts, table)
    if quads:
        pairs = min(7, sum(n // 2 for n in live))
        loose = sum(live) - 2 * pairs
    else:
        kinds = len(live) - live.count(0)
        pairs = kinds - live.count(1)
        loose = kinds - pairs   # one of each other kind held
    return 13 - 2 * pairs - min(7 - pairs, loose)


def thirteen_orphans_shanten(counts: Sequence[int]) -> int:
    """Shanten of thirteen orphans (十三幺): one of each terminal and honour, one of them twice.

    >>> thirteen_orphans_shanten(counts_of(parse_tiles("19m19p19s1234567z")))
    0
    """
    held = _ORPHAN_COUNTS(counts)
    return 13 - (13 - held.count(0)) - (max(held) >= 2)


@dataclass(frozen=True, slots=True)
class FormShanten:
    """The shanten of each form; UNREACHABLE where the rules or the melds rule a form out."""

    standard: int
    seven_pairs: int = UNREACHABLE
    thirteen_orphans: int = UNREACHABLE

    @property
    def best(self) -> int:
        return min(self.standard, self.seven_pairs, self.thirteen_orphans)

    @property
    def forms(self) -> tuple[str, ...]:
        """The forms at the best shanten, standard first."""
        best = self.best
        names = (("standard", self.standard), ("seven-pairs", self.seven_pairs),
                 ("thirteen-orphans", self.thirteen_orphans))
        return tuple(name for name, value in names if value == best)


def form_shanten(counts: Sequence[int], melds: int = 0, rules: ShapeRules = EVERY_SHAPE,
                 table: Table = PLAIN, standard: int | None = None) -> FormShanten:
    """The shanten of each form these rules allow (special forms only without melds).

    `standard`: the standard form's shanten when the caller has already found it.
    """
    special = melds == 0
    return FormShanten(
        standard_shanten(counts, melds, table) if standard is None else standard,
        seven_pairs_shanten(counts, rules.seven_pairs_quads, table)
        if special and rules.seven_pairs else UNREACHABLE,
        thirteen_orphans_shanten(counts)
        if special and rules.thirteen_orphans and table.honours and table.missing is None
        else UNREACHABLE,
    )


def shanten(counts: Sequence[int], melds: int = 0, rules: ShapeRules = EVERY_SHAPE,
            table: Table = PLAIN) -> int:
    """The shanten of the hand: its best form under these rules.

    >>> shanten(counts_of(parse_tiles("19m19p19s1234567z")))
    0
    >>> shanten(counts_of(parse_tiles("19m19p19s1234567z")), rules=ShapeRules(thirteen_orphans=False))
    6
    """
    best = standard_shanten(counts, melds, table)
    if melds == 0:   # the special forms, as form_shanten allows them, without the record
        if rules.seven_pairs:
            best = min(best, seven_pairs_shanten(counts, rules.seven_pairs_quads, table))
        if rules.thirteen_orphans and table.honours and table.missing is None:
            best = min(best, thirteen_orphans_shanten(counts))
    return best


def discard_shanten(counts: Sequence[int], melds: int = 0, rules: ShapeRules = EVERY_SHAPE,
                    table: Table = PLAIN) -> dict[int, int]:
    """The shanten (as `shanten` finds it) after each distinct discard of a 14-tile hand.

    A discard changes one suit, so the other three are joined once and each discard costs
    one table look-up (the hand's outlook asks this of thousands of hands).

    >>> discard_shanten(counts_of(parse_tiles("123m456p789s11z22z7z")))[33]
    0
    """
    live, missing_dead = _dead_count(counts, table)
    kinds = [i for i in range(NUM_KINDS) if counts[i]]
    # a tile held four times: the four-state tables, for every suit and each discard (they
    # agree with the plain ones on a suit with no tile four times), and honours held four
    # times are dead tiles
    exact = 4 in live
    m, p, s, z, honour_dead = _suit_ids(live)
    low, high = _join_id(m, p), _join_id(s, z)
    others = (_join_id(p, high), _join_id(m, high), _join_id(low, z), _join_id(low, s))
    slots = 4 - melds
    unchanged = None   # the standard shanten after a discard of the dead suit
    dead_lo = SUIT_OFFSET[table.missing] if missing_dead else NEG
    # a discard never brings a special form closer: its shanten after is the 14 tiles' or one
    # more, so a form no closer than the standard one is worked out no further
    pairs = (seven_pairs_shanten(counts, rules.seven_pairs_quads, table)
             if melds == 0 and rules.seven_pairs else UNREACHABLE)
    orphans = (thirteen_orphans_shanten(counts) if melds == 0 and rules.thirteen_orphans
               and table.honours and table.missing is None else UNREACHABLE)
    pairs_after = _PairsAfter(live, rules.seven_pairs_quads, -1) if pairs < UNREACHABLE else None
    found = {}
    for i in kinds:
        if dead_lo <= i < dead_lo + 9:
            if unchanged is None:
                unchanged = 8 - 2 * melds - _top_id(low, high, slots)
            best, dead = unchanged, missing_dead - 1 + honour_dead
        else:
            if i < 27:
                lo = i - i % 9
                part = list(live[lo:lo + 9])
                part[i - lo] -= 1
                cut, cut_dead = _suit_id(tuple(part), exact), honour_dead
                suit = lo // 9
            else:
                part = list(live[27:34])
                part[i - 27] -= 1
                cut, cut_dead = _honour_id(tuple(part), exact)
                suit = 3
            best = 8 - 2 * melds - _top_id(cut, others[suit], slots)
            dead = missing_dead + cut_dead
        if dead and best != -1:
            best = max(best, dead)
        if pairs < best and not dead_lo <= i < dead_lo + 9:
            best = min(best, pairs_after.after(i))
        elif pairs < best:   # a dead tile thrown: the live tiles are as they were
            best = min(best, pairs)
        if orphans < best:
            best = min(best, thirteen_orphans_shanten(_minus(counts, i)))
        found[i] = best
    return found


def complete(counts: Sequence[int], melds: int = 0, rules: ShapeRules = EVERY_SHAPE,
             table: Table = PLAIN) -> bool:
    """Whether 14 tiles (with the melds) make a whole hand at this table: the shape by
    readings.is_complete, and none of the declared missing suit held.

    >>> complete(counts_of(parse_tiles("123m456p789s11z222z"))), complete(counts_of(
    ...     parse_tiles("123m456p789s11z223z")))
    (True, False)
    """
    if table.missing is not None:
        lo = SUIT_OFFSET[table.missing]
        if any(counts[lo:lo + 9]):
            return False
    return is_complete(counts, melds, rules)


def _minus(counts: Sequence[int], index: int) -> list[int]:
    less = list(counts)
    less[index] -= 1
    return less


# --- improving tiles (ukeire, 受け入れ / 进张) -----------------------------------------------


@dataclass(frozen=True, slots=True)
class Improvement:
    """A tile whose draw lowers the shanten, and how many copies are neither held nor seen."""

    tile: Tile
    left: int


def improving_tiles(counts: Sequence[int], melds: int = 0, rules: ShapeRules = EVERY_SHAPE,
                    table: Table = PLAIN, held: Sequence[int] | None = None,
                    forms: FormShanten | None = None) -> tuple[Improvement, ...]:
    """Every tile whose draw lowers the shanten of a 13-tile hand, with the copies left.

    `held` counts every tile of the player's own (concealed and melds; default: counts).
    A tile all four of whose copies are the player's own cannot be drawn, so it is left
    out; one whose other copies are all seen is listed with 0 left. `forms`: the hand's
    form_shanten when the caller has it already.
    """
    held = counts if held is None else held
    if forms is None:
        forms = form_shanten(counts, melds, rules, table)
    return _improving(counts, melds, rules, table, held, forms)


class _Others:
    """The standard form's tables of a 13-tile hand, each suit's partners joined once, so
    that a draw (which changes one suit) costs one table look-up and one join."""

    __slots__ = ("others", "slots", "melds", "missing_dead", "honour_dead", "standard", "exact")

    def __init__(self, live: Sequence[int], missing_dead: int, melds: int) -> None:
        self.exact = 4 in live
        m, p, s, z, self.honour_dead = _suit_ids(live)
        low, high = _join_id(m, p), _join_id(s, z)
        self.others = (_join_id(p, high), _join_id(m, high), _join_id(low, z), _join_id(low, s))
        self.slots = 4 - melds
        self.melds = melds
        self.missing_dead = missing_dead
        # the 13 tiles' own standard shanten, as standard_shanten finds it
        found = 8 - 2 * melds - _top_id(low, high, self.slots)
        dead = missing_dead + self.honour_dead
        self.standard = max(found, dead) if dead and found != -1 else found

    def drawn(self, live: Sequence[int], index: int) -> int:
        """The standard shanten of the 14 tiles after drawing one of this (live) kind."""
        if live[index] == 3 and not self.exact:   # the fourth copy: every suit's table changes
            grown_hand = list(live)
            grown_hand[index] += 1
            return _standard(grown_hand, self.melds, self.missing_dead, True)
        if index < 27:
            lo = index - index % 9
            part = list(live[lo:lo + 9])
            part[index - lo] += 1
            grown = _suit_id(tuple(part), self.exact)
            dead = self.honour_dead
            suit = lo // 9
        else:
            part = list(live[27:34])
            part[index - 27] += 1
            grown, dead = _honour_id(tuple(part), self.exact)
            suit = 3
        found = 8 - 2 * self.melds - _top_id(grown, self.others[suit], self.slots)
        dead += self.missing_dead
        if dead and found != -1:
            found = max(found, dead - 1)   # 14 tiles: one dead tile is the discard to come
        return found


def _improving(counts, melds, rules, table, held, forms: FormShanten,
               others: _Others | None = None) -> tuple[Improvement, ...]:
    best = forms.best
    if best < 0:
        return ()
    live, missing_dead = _dead_count(counts, table)
    if forms.standard != best:
        others = None
    elif others is None:
        others = _Others(live, missing_dead, melds)
    # a draw far from every tile still helps where loose tiles cannot all be paired: dead
    # tiles, or tiles the hand holds all four of
    anywhere = others is not None and bool(others.missing_dead or others.honour_dead
                                           or 4 in live)
    pairs = _PairsAfter(live, rules.seven_pairs_quads) if forms.seven_pairs == best else None
    orphans = forms.thirteen_orphans == best
    seen = table.seen
    found = []
    for index in _drawable(table):
        own = held[index]
        if own >= 4:
            continue
        better = False
        if others is not None and (anywhere or _near(live, index)):
            better = others.drawn(live, index) < best
        if not better and pairs is not None:
            better = pairs.after(index) < best
        if not better and orphans and index in _ORPHANS:
            better = thirteen_orphans_shanten(_plus(counts, index)) < best
        if better:
            found.append(Improvement(TILES[index], max(0, 4 - own - seen[index])))
    return tuple(found)


_ORPHANS = frozenset(TERMINALS_AND_HONOURS)


def _near(counts: Sequence[int], index: int) -> bool:
    """Whether a drawn tile can join a set or partial set with tiles held in its suit.

    A tile with nothing within two of it in its suit stays loose, and a loose tile never
    lowers the standard shanten of a hand without dead tiles (it has loose tiles to spare).
    """
    if index >= 27:
        return counts[index] > 0
    lo = index - index % 9
    return any(counts[max(lo, index - 2):min(lo + 9, index + 3)])


def _plus(counts: Sequence[int], index: int) -> list[int]:
    grown = list(counts)
    grown[index] += 1
    return grown


class _PairsAfter:
    """Seven pairs' shanten after one draw (or, `step` -1, one discard), from the hand's
    counts of pairs and kinds (as seven_pairs_shanten counts them, the dead suit left out)."""

    __slots__ = ("live", "quads", "pairs", "other", "step")

    def __init__(self, live: Sequence[int], quads: bool, step: int = 1) -> None:
        self.live, self.quads, self.step = live, quads, step
        if quads:
            self.pairs, self.other = sum(n // 2 for n in live), sum(live)   # pairs, tiles
        else:
            self.pairs = sum(1 for n in live if n >= 2)
            self.other = sum(1 for n in live if n)                          # kinds

    def after(self, index: int) -> int:
        n = self.live[index]
        if self.step < 0:
            return self._after_discard(n)
        if self.quads:
            pairs = min(7, self.pairs + n % 2)
            loose = self.other + 1 - 2 * pairs
        else:
            pairs = self.pairs + (n == 1)
            loose = self.other + (n == 0) - pairs
        return 13 - 2 * pairs - min(7 - pairs, loose)


    def _after_discard(self, n: int) -> int:
        if self.quads:
            pairs = min(7, self.pairs - (n % 2 == 0))
            loose = self.other - 1 - 2 * pairs
        else:
            pairs = self.pairs - (n == 2)
            loose = self.other - (n == 1) - pairs
        return 13 - 2 * pairs - min(7 - pairs, loose)


_DRAWABLE: dict[tuple[bool, str | None], tuple[int, ...]] = {}


def _drawable(table: Table) -> tuple[int, ...]:
    """The tile kinds a player can draw and keep at this table (remembered per kind of table)."""
    key = (table.honours, table.missing)
    found = _DRAWABLE.get(key)
    if found is None:
        found = _DRAWABLE[key] = tuple(i for i in range(NUM_KINDS) if table.drawable(i))
    return found


# --- discards of a 14-tile hand ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One distinct discard of a 14-tile hand: the shanten left and the tiles that improve it."""

    tile: Tile
    shanten: int
    forms: tuple[str, ...]                 # the forms at that shanten
    improving: tuple[Improvement, ...]
    dead: bool = False                     # a tile of the declared missing suit: must go

    @property
    def left(self) -> int:
        """Improving tiles neither held nor seen, all kinds together."""
        return sum(i.left for i in self.improving)

    @property
    def ready(self) -> bool:
        return self.shanten == 0


def discard_options(counts: Sequence[int], melds: int = 0, rules: ShapeRules = EVERY_SHAPE,
                    table: Table = PLAIN, held: Sequence[int] | None = None
                    ) -> tuple[DiscardOption, ...]:
    """For each distinct concealed tile of a 14-tile hand: the hand after discarding it.

    In tile order; the caller sorts (the sort needs the waits' value, which is a price).

    >>> [(o.tile.code, o.shanten, o.left) for o in discard_options(
    ...     counts_of(parse_tiles("123m456p789s11z22z7z")))][-2:]
    [('2z', 1, 7), ('7z', 0, 4)]
    """
    held = counts if held is None else held
    dead_lo = SUIT_OFFSET[table.missing] if table.missing is not None else -1
    found = []
    for index in range(NUM_KINDS):
        if not counts[index]:
            continue
        after = list(counts)
        after[index] -= 1
        live, missing_dead = _dead_count(after, table)
        others = _Others(live, missing_dead, melds)
        special = form_shanten(after, melds, rules, table, standard=others.standard)
        # the discarded copy lies on the table, seen: `held` keeps counting it
        improving = _improving(after, melds, rules, table, held, special, others)
        found.append(DiscardOption(TILES[index], special.best, special.forms, improving,
                                   dead_lo <= index < dead_lo + 9))
    return tuple(found)
