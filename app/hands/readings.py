"""Every way a hand's tiles read as a winning hand, and the tiles a ready hand waits on.

A reading is a fact about tiles, never a price: the rulesets price readings.

>>> from app.hands.tiles import parse_tiles, tile
>>> [r.grouping for r in readings(Hand(parse_tiles("111222333m456p77s"), win=tile("7s")))]
[('111m', '222m', '333m', '456p', '77s'), ('123m', '123m', '123m', '456p', '77s')]
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations_with_replacement, product
from typing import NamedTuple

from .hand import Hand, Meld, MeldKind
from .tiles import NUM_KINDS, TERMINALS_AND_HONOURS, TILES, Tile, format_tiles


class GroupKind(StrEnum):
    CHOW = "chow"
    PONG = "pong"
    KONG = "kong"
    PAIR = "pair"
    SINGLE = "single"   # one tile of thirteen orphans


class Shape(StrEnum):
    STANDARD = "standard"                  # four sets and a pair
    SEVEN_PAIRS = "seven-pairs"            # 七对 / 七對子
    THIRTEEN_ORPHANS = "thirteen-orphans"  # 十三幺


class Wait(StrEnum):
    """The shape of the wait the winning tile filled."""

    SINGLE = "single"            # the pair (单钓 / 單吊): golden hook waits this way
    EDGE = "edge"                # 12 waiting on 3, or 89 on 7
    CLOSED = "closed"            # 13 waiting on 2
    TWO_SIDED = "two-sided"      # 23 waiting on 1 or 4
    PAIR_PAIR = "pair-pair"      # two pairs, one becomes a pong (对倒 / 對碰)
    THIRTEEN_SIDED = "thirteen-sided"


@dataclass(frozen=True, slots=True)
class ShapeRules:
    """Which special shapes a rule family accepts; the rulesets set these."""

    seven_pairs: bool = True
    seven_pairs_quads: bool = False   # four alike may count as two pairs (Sichuan)
    thirteen_orphans: bool = True


@dataclass(frozen=True, slots=True)
class Group:
    """One set or pair of a reading: its kind, the index of its first tile, how it was declared."""

    kind: GroupKind
    index: int
    meld: MeldKind | None = None
    facts: int = field(init=False, repr=False, compare=False)   # packed, see _group_facts
    kinds: tuple[int, ...] = field(init=False, repr=False, compare=False)   # each tile's kind
    suit_bit: int = field(init=False, repr=False, compare=False)   # as in Reading.suits

    def __post_init__(self) -> None:
        object.__setattr__(self, "facts", _group_facts(self.kind, self.index, self.meld))
        i = self.index
        object.__setattr__(self, "kinds", (i, i + 1, i + 2) if self.kind is GroupKind.CHOW
                           else (i,) * _SIZE[self.kind])
        object.__setattr__(self, "suit_bit", 8 if i >= 27 else 1 << (i // 9))

    @property
    def first(self) -> Tile:
        return TILES[self.index]

    @property
    def tiles(self) -> tuple[Tile, ...]:
        kind, i = self.kind, self.index
        if kind is GroupKind.CHOW:
            return TILES[i:i + 3]
        return (TILES[i],) * _SIZE[kind]

    def holds(self, index: int) -> bool:
        """Whether a tile of this index is in the group."""
        if self.kind is GroupKind.CHOW:
            return self.index <= index <= self.index + 2
        return self.index == index

    @property
    def declared(self) -> bool:
        return self.meld is not None

    @property
    def concealed(self) -> bool:
        """Held hidden until the win: a set from the hand, or a concealed kong."""
        return self.meld is None or self.meld is MeldKind.CKONG

    @property
    def is_set_of_alike(self) -> bool:
        """A pong or a kong."""
        return self.kind in (GroupKind.PONG, GroupKind.KONG)

    @property
    def code(self) -> str:
        return format_tiles(self.tiles)


_SIZE = {GroupKind.PONG: 3, GroupKind.KONG: 4, GroupKind.PAIR: 2, GroupKind.SINGLE: 1,
         GroupKind.CHOW: 3}


# A group's facts packed into one int, so that a split's profile is the plain sum of its
# groups' facts: small counts in fixed bit fields, then the bit mask of pong/kong kinds (a
# kind is a pong or kong at most once in a hand, so adding the masks never carries).
_FIELDS = {  # Profile field: (first bit, width)
    "chows": (0, 3), "alike": (3, 3), "kongs": (6, 3), "declared": (9, 3), "exposed": (12, 3),
    "terminal_groups": (15, 3), "concealed_alike": (18, 3), "simples": (21, 5),
    "terminals": (26, 5), "honours": (31, 5),
}
_MASK_SHIFT = 36


def _field(name: str, doc: str) -> property:
    shift, width = _FIELDS[name]
    mask = (1 << width) - 1
    return property(lambda self: self >> shift & mask, doc=doc)


class Profile(int):
    """Counts about one split of the tiles, shared by its readings, for quick detectors.

    The counts are packed into one int (see _FIELDS): readings() makes a split's profile by
    adding up its groups' packed facts, and the detectors read the fields they need.
    """

    __slots__ = ()
    chows = _field("chows", "chows")
    alike = _field("alike", "pongs and kongs")
    kongs = _field("kongs", "kongs")
    declared = _field("declared", "declared melds")
    exposed = _field("exposed", "declared melds other than concealed kongs")
    terminal_groups = _field("terminal_groups", "groups holding a 1 or a 9 (not honours)")
    concealed_alike = _field("concealed_alike", "pongs and kongs not declared, or declared as"
                                                " concealed kongs")
    simples = _field("simples", "tiles ranked 2 to 8")
    terminals = _field("terminals", "tiles ranked 1 or 9")
    honours = _field("honours", "wind and dragon tiles")
    alike_mask = property(lambda self: self >> _MASK_SHIFT,
                          doc="bit i set: a pong or kong of tile kind i")

    @classmethod
    def of(cls, groups: tuple[Group, ...]) -> Profile:
        """Count the sets, kongs, melds and kinds of tile of these groups."""
        return cls(sum(g.facts for g in groups))

    def fields(self) -> dict[str, int]:
        """Every count by name, the pong/kong mask last."""
        return {**{name: getattr(self, name) for name in _FIELDS}, "alike_mask": self.alike_mask}

    def __repr__(self) -> str:
        return f"Profile({', '.join(f'{k}={v}' for k, v in self.fields().items() if v)})"


NO_SETS = Profile(0)


def profile_bits(field: str) -> int:
    """The bits of one Profile field, to test it in one step: `profile & profile_bits(...)`."""
    shift, width = _FIELDS[field]
    return ((1 << width) - 1) << shift


def sets_bits(kinds: Iterable[int]) -> int:
    """The Profile bits marking pongs or kongs of these tile kinds (one bit a kind)."""
    return sum(1 << (_MASK_SHIFT + kind) for kind in kinds)


def _group_facts(kind: GroupKind, index: int, meld: MeldKind | None) -> int:
    """One group's contribution to its split's profile, packed (see _FIELDS)."""
    alike = kind is GroupKind.PONG or kind is GroupKind.KONG
    if kind is GroupKind.CHOW:
        ranks = (index % 9, index % 9 + 1, index % 9 + 2)
    else:
        ranks = (index % 9 if index < 27 else -1,) * _SIZE[kind]
    counts = {
        "chows": kind is GroupKind.CHOW,
        "alike": alike,
        "kongs": kind is GroupKind.KONG,
        "declared": meld is not None,
        "exposed": meld is not None and meld is not MeldKind.CKONG,
        "terminal_groups": any(r in (0, 8) for r in ranks),
        "concealed_alike": alike and (meld is None or meld is MeldKind.CKONG),
        "simples": sum(1 for r in ranks if 1 <= r <= 7),
        "terminals": sum(1 for r in ranks if r in (0, 8)),
        "honours": sum(1 for r in ranks if r == -1),
    }
    facts = sum(int(counts[name]) << _FIELDS[name][0] for name in counts)
    return facts | (alike << (_MASK_SHIFT + index))


class Reading(NamedTuple):
    """One way to read a winning hand: its groups, which one the winning tile completed, how.

    An immutable NamedTuple rather than a frozen dataclass: scoring builds one per split and
    winning-tile place of every hand it prices, and a NamedTuple is made three times faster.
    """

    shape: Shape
    groups: tuple[Group, ...]
    win: Tile
    win_group: int
    wait: Wait
    counts: bytes             # copies of each of the 34 kinds, melds included
    suits: int                # bit mask of what is held: 1 m, 2 p, 4 s, 8 honours
    profile: Profile = NO_SETS   # the split's counts, for the detectors

    @property
    def grouping(self) -> tuple[str, ...]:
        return tuple(g.code for g in self.groups)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(t for g in self.groups for t in g.tiles)

    @property
    def won_group(self) -> Group:
        return self.groups[self.win_group]


# Groups made from concealed tiles, built once and shared by every reading.
_CONCEALED: dict[tuple[GroupKind, int], Group] = {
    (kind, i): Group(kind, i)
    for i in range(NUM_KINDS)
    for kind in (GroupKind.PAIR, GroupKind.PONG, GroupKind.SINGLE)
    + ((GroupKind.CHOW,) if i < 27 and i % 9 <= 6 else ())
}
_SUIT_OFFSETS = (0, 9, 18, 27)
# each kind's suit (0-3, honours 3) and place in it, for the winning tile
_WIN_AT = tuple((min(k // 9, 3), k - _SUIT_OFFSETS[min(k // 9, 3)]) for k in range(NUM_KINDS))


# A set or pair within one suit, as one small int: 3 x its first tile's place in the suit plus
# its kind's rank below. Ordering codes orders groups by first tile, then pong, chow, pair.
_RANKED_KINDS = (GroupKind.PONG, GroupKind.CHOW, GroupKind.PAIR)
MAX_SUIT_TILES = 14   # four sets and the pair: no hand holds more of one suit concealed


def _suit_sets(size: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every set of a suit of `size` places (7: honours, where no chow exists) as
    (code, counts), in code order."""
    found = []
    for place in range(size):
        found.append((3 * place, tuple(3 if j == place else 0 for j in range(size))))
        if size == 9 and place <= 6:
            found.append((3 * place + 1, tuple(int(place <= j <= place + 2) for j in range(size))))
    return tuple(found)


def _all_splits(size: int) -> dict[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Every count of one suit that splits into at most four sets and at most one pair ->
    its splits as group codes, lowest group first, each way of splitting once, in order.

    Built by adding up sets rather than taking counts apart: about 48,000 sums for a suit.
    """
    sets = _suit_sets(size)
    found: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for k in range(5):
        for chosen in combinations_with_replacement(sets, k):
            counts = [0] * size
            for _, shape in chosen:
                for j, n in enumerate(shape):
                    counts[j] += n
            if k and max(counts) > 4:
                continue
            codes = tuple(code for code, _ in chosen)   # in code order already
            found.setdefault(tuple(counts), []).append(codes)
            for place in range(size):
                if counts[place] <= 2:
                    counts[place] += 2
                    pair = 3 * place + 2
                    at = bisect_left(codes, pair)
                    found.setdefault(tuple(counts), []).append(codes[:at] + (pair,) + codes[at:])
                    counts[place] -= 2
    return {counts: tuple(sorted(splits)) for counts, splits in found.items()}


_SPLITS = {9: _all_splits(9), 7: _all_splits(7)}   # suits, honours: built once, about 0.1 s


def _splits(counts: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every split of one suit's counts into sets and at most one pair, as group codes.

    >>> _splits((1, 1, 1, 0, 0, 0, 0, 2, 0))   # 123 and the pair of 8s
    ((1, 23),)
    >>> _splits((3, 1, 1, 0, 0, 0, 0, 0, 0))   # 11 123, once
    ((1, 2),)
    """
    found = _SPLITS[len(counts)].get(counts)
    if found is not None:
        return found
    return () if sum(counts) <= MAX_SUIT_TILES else _searched_splits(counts)


def _searched_splits(counts: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The splits of counts too many for the table, found by taking sets off the lowest tile
    (pong, chow, then the pair), each way once: what the table holds, worked out."""
    def split(rest: tuple[int, ...], pair_used: bool) -> list[tuple[int, ...]]:
        i = next((j for j, n in enumerate(rest) if n), None)
        if i is None:
            return [()]
        out: list[tuple[int, ...]] = []
        here = rest[i]
        if here >= 3:
            taken = rest[:i] + (here - 3,) + rest[i + 1:]
            out += [(3 * i,) + s for s in split(taken, pair_used)]
        if len(rest) == 9 and i + 2 < 9 and rest[i + 1] and rest[i + 2]:
            taken = rest[:i] + (here - 1, rest[i + 1] - 1, rest[i + 2] - 1) + rest[i + 3:]
            out += [(3 * i + 1,) + s for s in split(taken, pair_used)]
        if not pair_used and here >= 2:
            taken = rest[:i] + (here - 2,) + rest[i + 1:]
            out += [(3 * i + 2,) + s for s in split(taken, True)]
        return out

    if sum(counts) % 3 == 1:
        return ()
    return tuple(sorted({tuple(sorted(s)) for s in split(counts, False)}))


def _groups_by_code(lo: int) -> tuple[Group, ...]:
    """The concealed groups of the suit starting at tile `lo`, indexed by code (None where a
    code names no group: a chow of 8 or 9, or of honours)."""
    size = 9 if lo < 27 else 7
    return tuple(_CONCEALED.get((_RANKED_KINDS[code % 3], lo + code // 3))
                 for code in range(3 * size))


_BY_CODE = {lo: _groups_by_code(lo) for lo in (0, 9, 18, 27)}


# A suit's status, summed over the four suits: a standard hand is complete exactly when
# the sum is 3 * SETS + WITH_PAIR (every suit splits, one of them around the pair).
IMPOSSIBLE, SETS, WITH_PAIR = 0, 1, 16
COMPLETE_SUM = 3 * SETS + WITH_PAIR


class _Table(dict):
    """A table filled on first sight by __missing__, and emptied when it reaches `limit`
    entries: a suit has about two million possible counts, so odd input (every request a new
    hand) would otherwise grow it without end. A hand's suits are then worked out again."""

    limit = 50_000

    def keep(self, key, value):
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


class _StatusTable(_Table):
    """One suit's counts -> IMPOSSIBLE, SETS or WITH_PAIR, filled on first sight."""

    def __missing__(self, counts: tuple[int, ...]) -> int:
        if not _splits(counts):
            status = IMPOSSIBLE
        else:
            status = WITH_PAIR if sum(counts) % 3 == 2 else SETS
        return self.keep(counts, status)


class _Places(dict):
    """The place of the winning tile in one suit's counts -> for each split of the suit, the
    places the winning tile can take: ((position, wait), ...), filled on first sight. Identical
    sets count once: they sit side by side in a split, so only the first of them is a place."""

    __slots__ = ("splits", "waits_by_code")

    def __init__(self, splits: tuple[tuple[int, ...], ...], size: int) -> None:
        self.splits, self.waits_by_code = splits, _WAITS_BY_CODE[size]   # dict() made it empty

    def __missing__(self, win: int):
        waits_by_code = self.waits_by_code
        found = []
        for split in self.splits:
            places = []
            before = -1
            for i, code in enumerate(split):
                if code != before and (wait := waits_by_code[code].get(win)) is not None:
                    places.append((i, wait))
                before = code
            found.append(tuple(places))
        self[win] = found = tuple(found)
        return found


class _SuitTable(_Table):
    """One suit's counts (bytes) -> (status, splits, suit bit or 0 when none held, the winning
    tile's places (_Places), forms), in one lookup.

    Each split is (groups, packed facts, its place among the splits): the facts are the
    groups' summed (see Profile); the place finds the winning tile's places in the split. The
    forms say which special shapes the suit leaves possible: PAIRS_FORM when no count is 1 or 3
    (seven pairs), ORPHANS_FORM when it holds no tile ranked 2 to 8 (thirteen orphans).
    """

    def __init__(self, lo: int) -> None:
        super().__init__()
        self.bit = 1 << (lo // 9)   # the suit's bit in Reading.suits
        self.group_of = _BY_CODE[lo].__getitem__
        self.facts_of = tuple(0 if g is None else g.facts for g in _BY_CODE[lo]).__getitem__

    def __missing__(self, raw: bytes):
        counts = tuple(raw)
        splits = _splits(counts)
        if splits:
            group_of, facts_of = self.group_of, self.facts_of
            options = tuple([(tuple(map(group_of, split)), sum(map(facts_of, split)), k)
                             for k, split in enumerate(splits)])
            status = WITH_PAIR if sum(raw) % 3 == 2 else SETS
            places = _PLACES.get(raw)   # shared by the suits: the same counts, the same places
            if places is None:
                places = _PLACES.keep(raw, _Places(splits, len(raw)))
        else:
            options, status, places = (), IMPOSSIBLE, _NO_PLACES
        forms = (0 if 1 in raw or 3 in raw else PAIRS_FORM) | (
            0 if len(raw) == 9 and any(raw[1:8]) else ORPHANS_FORM)
        found = (status, options, self.bit if any(raw) else 0, places, forms)
        if len(self) >= self.limit:   # as keep(), inline: this is the first sight of a suit
            self.clear()
        self[raw] = found
        return found


PAIRS_FORM, ORPHANS_FORM = 1, 2
_NO_PLACES: dict[int, tuple] = {}   # a suit that does not split: never read


def _waits_by_code(lo: int) -> tuple[dict[int, Wait], ...]:
    """For each group code of the suit at `lo`: the places in the suit of the tiles the group
    holds -> the wait each fills as the winning tile."""
    return tuple({} if g is None else {t - lo: _wait_of(g, t) for t in range(g.index, g.index + (
        3 if g.kind is GroupKind.CHOW else 1))} for g in _BY_CODE[lo])


_STATUS = _StatusTable()
_PLACES = _Table()   # one suit's counts (bytes) -> its _Places, shared by the three suits
_SUITS = tuple(_SuitTable(lo) for lo in (0, 9, 18, 27))   # characters, dots, bamboo, honours


def clear_tables() -> None:
    """Forget every suit seen so far (for benchmarks that time a cold start)."""
    for table in (_STATUS, _PLACES, _PAIRS, *_SUITS):
        table.clear()


def _standard_complete(c: list[int] | tuple[int, ...]) -> bool:
    """Whether concealed counts make sets and exactly one pair."""
    status = _STATUS
    return status[tuple(c[0:9])] + status[tuple(c[9:18])] + status[tuple(c[18:27])] + status[
        tuple(c[27:34])] == COMPLETE_SUM


def _seven_pairs(counts: bytes | list[int] | tuple[int, ...], quads: bool) -> bool:
    """Seven pairs (with `quads`, four alike as two): every count 0, 2 (or 4), 14 tiles."""
    if 1 in counts or 3 in counts or sum(counts) != 14 or max(counts) > 4:
        return False
    return quads or 4 not in counts


def _thirteen_orphans(counts: bytes | list[int] | tuple[int, ...]) -> bool:
    if any(counts[1:8]) or any(counts[10:17]) or any(counts[19:26]) or sum(counts) != 14:
        return False
    return all(counts[i] >= 1 for i in TERMINALS_AND_HONOURS) and sum(
        counts[i] for i in TERMINALS_AND_HONOURS) == 14


def special_shapes(hand: Hand) -> frozenset[Shape]:
    """The forms other than sets and a pair that the tiles make under the loosest rules (seven
    pairs, four alike as two; thirteen orphans): what readings() would add for them, without
    the readings (a refusal words itself from this).

    >>> from app.hands.tiles import parse_tiles
    >>> sorted(s.name for s in special_shapes(Hand(parse_tiles("1111m2233p4455s66z"))))
    ['SEVEN_PAIRS']
    """
    if hand.melds:
        return frozenset()
    counts = hand.concealed_counts
    found = set()
    if _seven_pairs(counts, True):
        found.add(Shape.SEVEN_PAIRS)
    if _thirteen_orphans(counts):
        found.add(Shape.THIRTEEN_ORPHANS)
    return frozenset(found)


def is_complete(concealed_counts: list[int] | tuple[int, ...], melds: int = 0,
                rules: ShapeRules = ShapeRules()) -> bool:
    """Whether concealed tiles (with `melds` declared sets beside them) make a winning shape."""
    if _standard_complete(concealed_counts):
        return True
    if melds:
        return False
    return (rules.seven_pairs and _seven_pairs(concealed_counts, rules.seven_pairs_quads)) or (
        rules.thirteen_orphans and _thirteen_orphans(concealed_counts))


_MELD_GROUP_KIND = {MeldKind.CHOW: GroupKind.CHOW, MeldKind.PONG: GroupKind.PONG}


def meld_group(meld: Meld) -> Group:
    """The reading group of a declared meld (shared values, built once per kind and tile)."""
    key = (meld.kind, int(meld.tiles[0]))
    group = _MELD_GROUPS.get(key)
    if group is None:
        group = _MELD_GROUPS[key] = Group(_MELD_GROUP_KIND.get(meld.kind, GroupKind.KONG),
                                          key[1], meld.kind)
    return group


_MELD_GROUPS: dict[tuple[MeldKind, int], Group] = {}


STANDARD = Shape.STANDARD


def readings(hand: Hand, rules: ShapeRules = ShapeRules()) -> tuple[Reading, ...]:
    """Every reading of a complete hand; empty when the tiles do not win.

    The winning tile may sit in several sets of one split; each choice is its own reading.
    """
    win = hand.win
    if win is None:
        raise ValueError("readings need the winning tile")
    own = bytearray(34)
    for t in hand.concealed:   # hand.concealed_counts, as bytes, made directly
        own[t] += 1
    return readings_of(bytes(own), win,
                       tuple(map(meld_group, hand.melds)) if hand.melds else (), rules)


def readings_of(own: bytes, win: Tile, melds: tuple[Group, ...] = (),
                rules: ShapeRules = ShapeRules()) -> tuple[Reading, ...]:
    """readings() of a hand given as values: the 34 counts of its concealed tiles as bytes (the
    winning tile among them), the winning tile, and its melds' groups (meld_group), in order.

    >>> from app.hands.tiles import tile
    >>> own = bytes((0, 0, 3) + (0,) * 6 + (3, 3, 3) + (0,) * 6 + (2,) + (0,) * 15)
    >>> [r.grouping for r in readings_of(own, tile("3m"))]
    [('333m', '111p', '222p', '333p', '11s'), ('333m', '123p', '123p', '123p', '11s')]
    """
    m, p, s, z = (_SUITS[0][own[0:9]], _SUITS[1][own[9:18]], _SUITS[2][own[18:27]],
                  _SUITS[3][own[27:34]])
    suits = m[2] | p[2] | s[2] | z[2]
    if melds:   # the melds' tiles, suits and facts, in one pass
        held = list(own)
        meld_facts = 0
        for g in melds:
            for k in g.kinds:
                held[k] += 1
            suits |= g.suit_bit
            meld_facts += g.facts
        counts_t = bytes(held)
    else:
        counts_t = own
        meld_facts = 0
    found: list[Reading] = []
    if m[0] + p[0] + s[0] + z[0] == COMPLETE_SUM:
        suit, place = _WIN_AT[win]
        places = (m, p, s, z)[suit][3][place]
        for (g0, f0, k0), (g1, f1, k1), (g2, f2, k2), (g3, f3, k3) in product(m[1], p[1], s[1],
                                                                              z[1]):
            groups = g0 + g1 + g2 + g3 + melds
            split = Profile(f0 + f1 + f2 + f3 + meld_facts)
            if suit == 0:   # where the winning tile's suit starts among the groups
                head, k = 0, k0
            elif suit == 1:
                head, k = len(g0), k1
            elif suit == 2:
                head, k = len(g0) + len(g1), k2
            else:
                head, k = len(g0) + len(g1) + len(g2), k3
            for i, wait in places[k]:
                # tuple.__new__: NamedTuple's own __new__ is Python, and this is the hot path
                found.append(tuple.__new__(Reading, (STANDARD, groups, win, head + i, wait,
                                                     counts_t, suits, split)))
    if not melds:
        forms = m[4] & p[4] & s[4] & z[4]   # the special shapes no suit rules out
        if forms & PAIRS_FORM and rules.seven_pairs and _seven_pairs(own,
                                                                     rules.seven_pairs_quads):
            pairs, profile, first = _PAIRS[own]
            found.append(tuple.__new__(Reading, (Shape.SEVEN_PAIRS, pairs, win, first[win.index],
                                                 Wait.SINGLE, counts_t, suits, profile)))
        if forms & ORPHANS_FORM and rules.thirteen_orphans and _thirteen_orphans(own):
            found.append(_orphans_reading(own, win, counts_t, suits))
    return tuple(found)


class _PairsTable(dict):
    """Seven pairs' counts -> their pairs in order, the pairs' profile, and each kind's first
    pair: the same for every winning tile, made on first sight (emptied past `limit`)."""

    limit = 4096

    def __missing__(self, counts: bytes) -> tuple:
        pairs = tuple(_CONCEALED[GroupKind.PAIR, i] for i, c in enumerate(counts)
                      for _ in range(c // 2))
        first: dict[int, int] = {}
        for at, g in enumerate(pairs):
            first.setdefault(g.index, at)
        if len(self) >= self.limit:
            self.clear()
        found = self[counts] = (pairs, Profile.of(pairs), first)
        return found


_PAIRS = _PairsTable()


def _wait_of(group: Group, win: int) -> Wait:
    if group.kind is GroupKind.PAIR:
        return Wait.SINGLE
    if group.kind is GroupKind.PONG:
        return Wait.PAIR_PAIR
    position = win - group.index   # 0, 1 or 2 within the chow
    if position == 1:
        return Wait.CLOSED
    rank = group.index % 9 + 1
    if (position == 2 and rank == 1) or (position == 0 and rank == 7):
        return Wait.EDGE
    return Wait.TWO_SIDED


_WAITS_BY_CODE = {9: _waits_by_code(0), 7: _waits_by_code(27)}   # by the suit's size


def _orphans_reading(concealed: bytes, win: Tile, counts: bytes,
                     suits: int) -> Reading:
    groups = tuple(
        _CONCEALED[GroupKind.PAIR if concealed[i] == 2 else GroupKind.SINGLE, i]
        for i in TERMINALS_AND_HONOURS)
    at = TERMINALS_AND_HONOURS.index(win.index)
    wait = Wait.THIRTEEN_SIDED if concealed[win.index] == 2 else Wait.SINGLE
    return Reading(Shape.THIRTEEN_ORPHANS, groups, win, at, wait, counts, suits,
                   Profile.of(groups))


def is_nine_gates(reading: Reading) -> bool:
    """Whether the hand is 1112345678999 of one suit plus one more, all concealed (九子連環)."""
    if (reading.suits not in (1, 2, 4) or reading.shape is not Shape.STANDARD
            or reading.profile & _DECLARED):   # a declared group: its split's profile counts it
        return False
    lo = reading.win.index - reading.win.rank + 1
    return all(have >= need for have, need in zip(reading.counts[lo:lo + 9], _NINE_GATES, strict=True))


def is_pure_nine_gates(reading: Reading) -> bool:
    """Whether the thirteen tiles before the win were exactly 1112345678999 (the true wait)."""
    if not is_nine_gates(reading):
        return False
    lo = reading.win.index - reading.win.rank + 1
    before = list(reading.counts[lo:lo + 9])
    before[reading.win.rank - 1] -= 1
    return tuple(before) == _NINE_GATES


_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)
_DECLARED = profile_bits("declared")


@dataclass(frozen=True, slots=True)
class WaitingTile:
    """A tile that completes a ready hand, and how many copies are not the player's own."""

    tile: Tile
    left: int


def waits(hand: Hand, rules: ShapeRules = ShapeRules()) -> tuple[WaitingTile, ...]:
    """Every tile that completes a hand of 13 - 3 x melds concealed tiles.

    A tile whose four copies are all the player's own is no wait.
    """
    concealed = hand.concealed_counts
    own = concealed.copy()
    for meld in hand.melds:
        for t in meld.tiles:
            own[t] += 1
    status = _STATUS
    parts = [tuple(concealed[lo:lo + 9]) for lo in (0, 9, 18)] + [tuple(concealed[27:34])]
    statuses = [status[part] for part in parts]
    total = sum(statuses)
    winning: set[int] = set()
    for suit, lo in enumerate(_SUIT_OFFSETS):
        # only this suit changes: the other three must already split
        others = total - statuses[suit]
        if others not in (3 * SETS, 2 * SETS + WITH_PAIR):
            continue
        part = parts[suit]
        size = len(part)
        for offset in range(size):
            if own[lo + offset] >= 4 or not _near(part, offset, size == 7):
                continue
            grown = list(part)
            grown[offset] += 1
            if others + status[tuple(grown)] == COMPLETE_SUM:
                winning.add(lo + offset)
    if not hand.melds:
        winning.update(_special_waits(concealed, rules))
    return tuple(WaitingTile(TILES[i], 4 - own[i]) for i in sorted(winning) if own[i] < 4)


def _near(part: tuple[int, ...], offset: int, honours: bool) -> bool:
    """Whether a tile at offset could join a set or pair with tiles already in its suit."""
    if honours:
        return part[offset] > 0
    return any(part[max(0, offset - 2):offset + 3])


def _special_waits(concealed: list[int], rules: ShapeRules) -> set[int]:
    """Waits of seven pairs and thirteen orphans, read straight off a 13-tile hand."""
    found: set[int] = set()
    if rules.seven_pairs:
        odd = [i for i, c in enumerate(concealed) if c % 2]
        if len(odd) == 1 and concealed[odd[0]] in ((1, 3) if rules.seven_pairs_quads else (1,)):
            if all(c in ((0, 1, 2, 3, 4) if rules.seven_pairs_quads else (0, 1, 2)) for c in concealed):
                found.add(odd[0])
    if rules.thirteen_orphans and sum(concealed[i] for i in TERMINALS_AND_HONOURS) == 13 == sum(
            concealed):
        missing = [i for i in TERMINALS_AND_HONOURS if concealed[i] == 0]
        if not missing:
            found.update(TERMINALS_AND_HONOURS)
        elif len(missing) == 1:
            found.add(missing[0])
    return found
