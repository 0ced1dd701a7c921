"""Every way a hand's tiles read as a winning hand, and the tiles a ready hand waits on.

A reading is a fact about tiles, never a price: the rulesets price readings.

>>> from app.hands.description import parse_hand
>>> [r.grouping for r in readings(parse_hand({"hand": "111222333m456p77s", "win": "7s"}))]
[('111m', '222m', '333m', '456p', '77s'), ('123m', '123m', '123m', '456p', '77s')]
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from itertools import product
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

    def __post_init__(self) -> None:
        object.__setattr__(self, "facts", _group_facts(self.kind, self.index, self.meld))

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
    counts: tuple[int, ...]   # copies of each of the 34 kinds, melds included
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


def _partitions(counts: tuple[int, ...]) -> tuple[tuple[tuple[GroupKind, int], ...], ...]:
    """Every split of one suit's counts into pongs, chows and at most one pair.

    Seven counts are the honours, where no chow exists.

    >>> _partitions((1, 1, 1, 0, 0, 0, 0, 2, 0))
    (((<GroupKind.CHOW: 'chow'>, 0), (<GroupKind.PAIR: 'pair'>, 7)),)
    """
    if sum(counts) % 3 == 1:
        return ()
    return _splits(tuple(counts), False)


@lru_cache(maxsize=100_000)
def _splits(counts: tuple[int, ...], pair_used: bool
            ) -> tuple[tuple[tuple[GroupKind, int], ...], ...]:
    """The splits of what is left of a suit, lowest tile first: it must start a pong, a chow
    or (unless one is used) the pair. Remembered, so that suits sharing what is left of
    them once their lowest sets are taken share the work."""
    i = 0
    size = len(counts)
    while i < size and counts[i] == 0:
        i += 1
    if i == size:
        return ((),)
    found: list[tuple[tuple[GroupKind, int], ...]] = []
    here, before = counts[i], counts[:i]
    if here >= 3:
        rest = before + (here - 3,) + counts[i + 1:]
        found += [((GroupKind.PONG, i),) + split for split in _splits(rest, pair_used)]
    if size == 9 and i + 2 < size and counts[i + 1] and counts[i + 2]:   # no honour chows
        rest = before + (here - 1, counts[i + 1] - 1, counts[i + 2] - 1) + counts[i + 3:]
        found += [((GroupKind.CHOW, i),) + split for split in _splits(rest, pair_used)]
    if not pair_used and here >= 2:
        rest = before + (here - 2,) + counts[i + 1:]
        found += [((GroupKind.PAIR, i),) + split for split in _splits(rest, True)]
    return tuple(found)


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
        if not any(counts):
            status = SETS
        elif not _partitions(counts):
            status = IMPOSSIBLE
        else:
            status = WITH_PAIR if sum(counts) % 3 == 2 else SETS
        return self.keep(counts, status)


class _OptionTable(_Table):
    """(suit offset, counts) -> every split of that suit, as (groups, packed facts, ()).

    The facts are the groups' summed (see Profile); the empty place matches the placement
    table's winning tile places, so that readings() takes one suit from either table alike.
    """

    def __missing__(self, key: tuple[int, tuple[int, ...]]):
        lo, counts = key
        options = []
        for p in _partitions(counts) if any(counts) else ((),):
            groups = tuple(_CONCEALED[kind, lo + i] for kind, i in p)
            options.append((groups, sum(g.facts for g in groups), ()))
        return self.keep(key, tuple(options))


class _PlacementTable(_Table):
    """(suit offset, counts, winning tile) -> each split of the suit with the places the
    winning tile can take in it: (groups, packed facts, ((position, wait), ...)). Identical
    sets count once."""

    def __missing__(self, key: tuple[int, tuple[int, ...], int]):
        lo, counts, win = key
        table = []
        for groups, facts, _ in _OPTIONS[lo, counts]:
            places: list[tuple[int, Wait]] = []
            taken: set[int] = set()   # concealed groups are shared values: alike sets are one
            for i, g in enumerate(groups):
                if g.holds(win) and id(g) not in taken:
                    taken.add(id(g))
                    places.append((i, _wait_of(g, win)))
            table.append((groups, facts, tuple(places)))
        return self.keep(key, tuple(table))


class _SuitTable(_Table):
    """One suit's counts -> (status, splits, suit bit or 0 when none held), in one lookup."""

    def __init__(self, lo: int) -> None:
        super().__init__()
        self.lo = lo
        self.bit = 1 << (lo // 9)   # the suit's bit in Reading.suits

    def __missing__(self, counts: tuple[int, ...]):
        held = self.bit if any(counts) else 0
        return self.keep(counts, (_STATUS[counts], _OPTIONS[self.lo, counts], held))


_STATUS = _StatusTable()
_OPTIONS = _OptionTable()
_PLACEMENTS = _PlacementTable()
_SUITS = tuple(_SuitTable(lo) for lo in (0, 9, 18, 27))   # characters, dots, bamboo, honours


def clear_tables() -> None:
    """Forget every suit seen so far (for benchmarks that time a cold start)."""
    for table in (_STATUS, _OPTIONS, _PLACEMENTS, *_SUITS):
        table.clear()
    _splits.cache_clear()


def _standard_complete(c: list[int] | tuple[int, ...]) -> bool:
    """Whether concealed counts make sets and exactly one pair."""
    status = _STATUS
    return status[tuple(c[0:9])] + status[tuple(c[9:18])] + status[tuple(c[18:27])] + status[
        tuple(c[27:34])] == COMPLETE_SUM


def _seven_pairs(counts: list[int] | tuple[int, ...], quads: bool) -> bool:
    if 1 in counts or 3 in counts or sum(counts) != 14:
        return False
    allowed = (0, 2, 4) if quads else (0, 2)
    return all(c in allowed for c in counts)


def _thirteen_orphans(counts: list[int] | tuple[int, ...]) -> bool:
    if any(counts[1:8]) or any(counts[10:17]) or any(counts[19:26]) or sum(counts) != 14:
        return False
    return all(counts[i] >= 1 for i in TERMINALS_AND_HONOURS) and sum(
        counts[i] for i in TERMINALS_AND_HONOURS) == 14


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
    concealed = hand.concealed_counts
    own = tuple(concealed)
    melds = tuple(map(meld_group, hand.melds)) if hand.melds else ()
    counts_t = _with_melds(concealed, melds) if melds else own
    found: list[Reading] = []
    parts = own[0:9], own[9:18], own[18:27], own[27:34]
    m, p, s, z = (_SUITS[0][parts[0]], _SUITS[1][parts[1]], _SUITS[2][parts[2]],
                  _SUITS[3][parts[3]])
    suits = m[2] | p[2] | s[2] | z[2] | (_meld_suits(melds) if melds else 0)
    if m[0] + p[0] + s[0] + z[0] == COMPLETE_SUM:
        suit = win // 9 if win < 27 else 3
        choices = [m[1], p[1], s[1], z[1]]
        choices[suit] = _PLACEMENTS[_SUIT_OFFSETS[suit], parts[suit], win]
        meld_facts = sum(g.facts for g in melds) if melds else 0
        for (g0, f0, w0), (g1, f1, w1), (g2, f2, w2), (g3, f3, w3) in product(*choices):
            groups = g0 + g1 + g2 + g3 + melds
            split = Profile(f0 + f1 + f2 + f3 + meld_facts)
            head = (0, len(g0), len(g0) + len(g1), len(g0) + len(g1) + len(g2))[suit]
            for i, wait in (w0, w1, w2, w3)[suit]:
                # tuple.__new__: NamedTuple's own __new__ is Python, and this is the hot path
                found.append(tuple.__new__(Reading, (STANDARD, groups, win, head + i, wait,
                                                     counts_t, suits, split)))
    if not melds:
        if rules.seven_pairs and _seven_pairs(concealed, rules.seven_pairs_quads):
            pairs = tuple(_CONCEALED[GroupKind.PAIR, i] for i, c in enumerate(concealed)
                          for _ in range(c // 2))
            at = next(i for i, g in enumerate(pairs) if g.index == win.index)
            found.append(Reading(Shape.SEVEN_PAIRS, pairs, win, at, Wait.SINGLE, counts_t, suits,
                                 Profile.of(pairs)))
        if rules.thirteen_orphans and _thirteen_orphans(concealed):
            found.append(_orphans_reading(concealed, win, counts_t, suits))
    return tuple(found)


def _with_melds(concealed: list[int], melds: tuple[Group, ...]) -> tuple[int, ...]:
    """Counts of every tile held: concealed ones plus those of the declared melds."""
    if not melds:
        return tuple(concealed)
    counts = concealed.copy()
    for g in melds:
        if g.kind is GroupKind.CHOW:
            counts[g.index] += 1
            counts[g.index + 1] += 1
            counts[g.index + 2] += 1
        else:
            counts[g.index] += _SIZE[g.kind]
    return tuple(counts)


def _meld_suits(melds: tuple[Group, ...]) -> int:
    """Bit mask of the suits the melds hold: 1 characters, 2 dots, 4 bamboo, 8 honours."""
    mask = 0
    for g in melds:
        mask |= 8 if g.index >= 27 else 1 << (g.index // 9)
    return mask


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


def _orphans_reading(concealed: list[int], win: Tile, counts: tuple[int, ...],
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
            or any(g.meld is not None for g in reading.groups)):
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
