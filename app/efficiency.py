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

from .readings import ShapeRules
from .tiles import NUM_KINDS, SUIT_OFFSET, TERMINALS_AND_HONOURS, TILES, Tile, parse_tiles

__all__ = ["clear_tables", "FormShanten", "Improvement", "DiscardOption", "Table", "counts_of", "standard_shanten",
           "seven_pairs_shanten", "thirteen_orphans_shanten", "shanten", "form_shanten",
           "improving_tiles", "discard_options", "parse_tiles"]

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
    """The table of a suit with one more set or partial set (one slot, `add` value)."""
    return (NEG, table[0] + add, table[1] + add, table[2] + add, table[3] + add)


def _best(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return (max(a[0], b[0]), max(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]), max(a[4], b[4]))


_SUIT_TABLES: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
_HONOUR_TABLES: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...], int]] = {}
_TABLE_LIMIT = 200_000   # entries; odd input (every request new) would otherwise grow it


def clear_tables() -> None:
    """Forget every suit seen so far (for benchmarks that time a cold start)."""
    for cache in (_SUIT_TABLES, _HONOUR_TABLES, _IDS, _BY_ID, _SUIT_IDS, _HONOUR_IDS, _JOINS,
                  _TOPS):
        cache.clear()


def _remember(cache: dict, key, value):
    if len(cache) >= _TABLE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def _suit_table(counts: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(without head, with head) tables of a run of suited counts (a suit or part of one);
    remembered. Zeros at either end change nothing, so they are dropped first."""
    found = _SUIT_TABLES.get(counts)
    if found is not None:
        return found
    size = len(counts)
    i = 0
    while i < size and not counts[i]:
        i += 1
    if i == size:
        return _remember(_SUIT_TABLES, counts, (_ZERO5, _NO_HEAD))
    end = size
    while not counts[end - 1]:
        end -= 1
    if i or end < size:
        return _remember(_SUIT_TABLES, counts, _suit_table(counts[i:end]))
    c = list(counts)
    here = c[i]
    # the lowest tile is loose (one copy; the others are split again)
    c[i] -= 1
    no_head, head = _suit_table(tuple(c))
    c[i] += 1
    if here >= 2:   # a pair: the head, or a partial set waiting on a third
        c[i] -= 2
        r0, r1 = _suit_table(tuple(c))
        c[i] += 2
        no_head, head = _best(no_head, _shift(r0, 1)), _best(head, _best(_shift(r1, 1), (
            r0[0] + 1, r0[1] + 1, r0[2] + 1, r0[3] + 1, r0[4] + 1)))
    if here >= 3:
        c[i] -= 3
        r0, r1 = _suit_table(tuple(c))
        c[i] += 3
        no_head, head = _best(no_head, _shift(r0, 2)), _best(head, _shift(r1, 2))
    for step, (gap, add) in enumerate(((1, 1), (2, 1))):   # partial runs: 12 and 13
        j = i + gap
        if j < size and c[j]:
            c[i] -= 1
            c[j] -= 1
            r0, r1 = _suit_table(tuple(c))
            no_head, head = _best(no_head, _shift(r0, add)), _best(head, _shift(r1, add))
            if step == 0 and j + 1 < size and c[j + 1]:   # a run: 123
                c[j + 1] -= 1
                r0, r1 = _suit_table(tuple(c))
                c[j + 1] += 1
                no_head, head = _best(no_head, _shift(r0, 2)), _best(head, _shift(r1, 2))
            c[i] += 1
            c[j] += 1
    return _remember(_SUIT_TABLES, counts, (no_head, head))


def _honour_table(counts: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """(without head, with head, dead tiles) of the seven honour counts; remembered.

    Honours make no runs. The fourth copy of an honour held four times is dead: it can
    only make a kong, which must be declared (the mahjong library counts it so too).
    """
    found = _HONOUR_TABLES.get(counts)
    if found is not None:
        return found
    no_head, head, dead = _ZERO5, _NO_HEAD, 0
    for n in counts:
        if n == 0 or n == 1:
            continue
        if n >= 3:
            dead += n == 4
            no_head, head = _shift(no_head, 2), _shift(head, 2)
        else:   # a pair: the head or a partial set
            no_head, head = _shift(no_head, 1), _best(_shift(head, 1), (
                no_head[0] + 1, no_head[1] + 1, no_head[2] + 1, no_head[3] + 1, no_head[4] + 1))
    return _remember(_HONOUR_TABLES, counts, (no_head, head, dead))


def _conv(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Max-plus convolution over slots: the best of two suits together with g slots."""
    a0, a1, a2, a3, a4 = a
    b0, b1, b2, b3, b4 = b
    return (a0 + b0, max(a0 + b1, a1 + b0), max(a0 + b2, a1 + b1, a2 + b0),
            max(a0 + b3, a1 + b2, a2 + b1, a3 + b0),
            max(a0 + b4, a1 + b3, a2 + b2, a3 + b1, a4 + b0))


def _join(x, y):
    """Two (without head, with head) tables as one: at most one of them holds the head."""
    return _conv(x[0], y[0]), _best(_conv(x[1], y[0]), _conv(x[0], y[1]))


def _top(x, y, slots: int) -> int:
    """The best value of two joined tables with `slots` slots, head or not."""
    x0, x1 = x
    y0, y1 = y
    return max(max(x0[g] + y0[slots - g], x1[g] + y0[slots - g], x0[g] + y1[slots - g])
               for g in range(slots + 1))


# Few distinct tables occur (many suits share one), so each gets a number, and joining two
# numbered tables, or reading the best of two, is one dictionary look-up once seen.
_IDS: dict[tuple, int] = {}
_BY_ID: list[tuple] = []
_SUIT_IDS: dict[tuple[int, ...], int] = {}
_HONOUR_IDS: dict[tuple[int, ...], tuple[int, int]] = {}
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


def _suit_id(counts: tuple[int, ...]) -> int:
    """The number of one suit's table (nine counts).

    Tiles two or more ranks apart share no set or partial set, so a suit splits at two
    zeros in a row into parts worked out (and remembered) alone, then joined.
    """
    found = _SUIT_IDS.get(counts)
    if found is None:
        parts = [part for part in _PART_SPLIT.split(bytes(counts)) if part]
        found = _intern(_suit_table(tuple(parts[0]))) if parts else _intern((_ZERO5, _NO_HEAD))
        for part in parts[1:]:
            found = _join_id(found, _intern(_suit_table(tuple(part))))
        _remember(_SUIT_IDS, counts, found)
    return found


_PART_SPLIT = re.compile(rb"\x00\x00+")


def _honour_id(counts: tuple[int, ...]) -> tuple[int, int]:
    """The number of the honours' table (seven counts), and their dead tiles."""
    found = _HONOUR_IDS.get(counts)
    if found is None:
        no_head, head, dead = _honour_table(counts)
        found = _remember(_HONOUR_IDS, counts, (_intern((no_head, head)), dead))
    return found


def _join_id(a: int, b: int) -> int:
    key = a << 20 | b
    found = _JOINS.get(key)
    if found is None:
        found = _remember(_JOINS, key, _intern(_join(_BY_ID[a], _BY_ID[b])))
    return found


def _top_id(a: int, b: int, slots: int) -> int:
    key = (a << 20 | b) << 3 | slots
    found = _TOPS.get(key)
    if found is None:
        found = _remember(_TOPS, key, _top(_BY_ID[a], _BY_ID[b], slots))
    return found


def _suit_ids(counts: Sequence[int]) -> tuple[int, int, int, int, int]:
    """The four suits' table numbers and the honours' dead tiles."""
    z, dead = _honour_id(tuple(counts[27:34]))
    return (_suit_id(tuple(counts[0:9])), _suit_id(tuple(counts[9:18])),
            _suit_id(tuple(counts[18:27])), z, dead)


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
    m, p, s, z, honour_dead = _suit_ids(live)
    found = 8 - 2 * melds - _top_id(_join_id(m, p), _join_id(s, z), 4 - melds)
    dead += honour_dead
    if dead and found != -1:
        found = max(found, dead - 1 if (sum(counts) + 3 * melds) % 3 == 2 else dead)
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
    return form_shanten(counts, melds, rules, table).best


# --- improving tiles (ukeire, 受け入れ / 进张) -----------------------------------------------


@dataclass(frozen=True, slots=True)
class Improvement:
    """A tile whose draw lowers the shanten, and how many copies are neither held nor seen."""

    tile: Tile
    left: int


def improving_tiles(counts: Sequence[int], melds: int = 0, rules: ShapeRules = EVERY_SHAPE,
                    table: Table = PLAIN, held: Sequence[int] | None = None
                    ) -> tuple[Improvement, ...]:
    """Every tile whose draw lowers the shanten of a 13-tile hand, with the copies left.

    `held` counts every tile of the player's own (concealed and melds; default: counts).
    A tile all four of whose copies are the player's own cannot be drawn, so it is left
    out; one whose other copies are all seen is listed with 0 left.
    """
    held = counts if held is None else held
    forms = form_shanten(counts, melds, rules, table)
    return _improving(counts, melds, rules, table, held, forms)


class _Others:
    """The standard form's tables of a 13-tile hand, each suit's partners joined once, so
    that a draw (which changes one suit) costs one table look-up and one join."""

    __slots__ = ("others", "slots", "melds", "missing_dead", "honour_dead", "standard")

    def __init__(self, live: Sequence[int], missing_dead: int, melds: int) -> None:
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
        if index < 27:
            lo = index - index % 9
            part = list(live[lo:lo + 9])
            part[index - lo] += 1
            grown = _suit_id(tuple(part))
            dead = self.honour_dead
            suit = lo // 9
        else:
            part = list(live[27:34])
            part[index - 27] += 1
            grown, dead = _honour_id(tuple(part))
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
    anywhere = others is not None and bool(others.missing_dead or others.honour_dead)
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
    """Seven pairs' shanten after one draw, from the hand's counts of pairs and kinds (as
    seven_pairs_shanten counts them, the dead suit left out)."""

    __slots__ = ("live", "quads", "pairs", "other")

    def __init__(self, live: Sequence[int], quads: bool) -> None:
        self.live, self.quads = live, quads
        if quads:
            self.pairs, self.other = sum(n // 2 for n in live), sum(live)   # pairs, tiles
        else:
            self.pairs = sum(1 for n in live if n >= 2)
            self.other = sum(1 for n in live if n)                          # kinds

    def after(self, index: int) -> int:
        n = self.live[index]
        if self.quads:
            pairs = min(7, self.pairs + n % 2)
            loose = self.other + 1 - 2 * pairs
        else:
            pairs = self.pairs + (n == 1)
            loose = self.other + (n == 0) - pairs
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
