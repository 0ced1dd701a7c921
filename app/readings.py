"""Every way a hand's tiles read as a winning hand, and the tiles a ready hand waits on.

A reading is a fact about tiles, never a price: the rulesets price readings.

>>> from app.description import parse_hand
>>> [r.grouping for r in readings(parse_hand({"hand": "111222333m456p77s", "win": "7s"}))]
[('111m', '222m', '333m', '456p', '77s'), ('123m', '123m', '123m', '456p', '77s')]
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import product

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
    """One set or pair of a reading; `meld` says how a declared set was made."""

    kind: GroupKind
    tiles: tuple[Tile, ...]
    meld: MeldKind | None = None

    @property
    def first(self) -> Tile:
        return self.tiles[0]

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


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a winning hand: its groups, which one the winning tile completed, how."""

    shape: Shape
    groups: tuple[Group, ...]
    win: Tile
    win_group: int
    wait: Wait
    counts: tuple[int, ...]   # copies of each of the 34 kinds, melds included

    @property
    def grouping(self) -> tuple[str, ...]:
        return tuple(g.code for g in self.groups)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(t for g in self.groups for t in g.tiles)

    @property
    def won_group(self) -> Group:
        return self.groups[self.win_group]


# Groups made from concealed tiles, built once: (kind, index of first tile) -> Group.
_CONCEALED: dict[tuple[GroupKind, int], Group] = {}
for _i in range(NUM_KINDS):
    _CONCEALED[GroupKind.PAIR, _i] = Group(GroupKind.PAIR, (TILES[_i],) * 2)
    _CONCEALED[GroupKind.PONG, _i] = Group(GroupKind.PONG, (TILES[_i],) * 3)
    if _i < 27 and _i % 9 <= 6:
        _CONCEALED[GroupKind.CHOW, _i] = Group(GroupKind.CHOW, TILES[_i:_i + 3])
    _CONCEALED[GroupKind.SINGLE, _i] = Group(GroupKind.SINGLE, (TILES[_i],))
_KIND_ORDER = {GroupKind.CHOW: 0, GroupKind.PONG: 1, GroupKind.KONG: 2, GroupKind.PAIR: 3,
               GroupKind.SINGLE: 4}
_SUIT_SLICES = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


@lru_cache(maxsize=None)
def _partitions(counts: tuple[int, ...], honours: bool) -> tuple[tuple[tuple[GroupKind, int], ...], ...]:
    """Every split of one suit's counts into pongs, chows and at most one pair.

    >>> _partitions((1, 1, 1, 0, 0, 0, 0, 2, 0), False)
    (((<GroupKind.CHOW: 'chow'>, 0), (<GroupKind.PAIR: 'pair'>, 7)),)
    """
    if sum(counts) % 3 == 1:
        return ()
    found: list[tuple[tuple[GroupKind, int], ...]] = []
    work = list(counts)
    size = len(work)
    chosen: list[tuple[GroupKind, int]] = []

    def walk(start: int, pair_used: bool) -> None:
        i = start
        while i < size and work[i] == 0:
            i += 1
        if i == size:
            found.append(tuple(chosen))
            return
        # the lowest remaining tile must start a pong, a chow or the pair
        if work[i] >= 3:
            work[i] -= 3
            chosen.append((GroupKind.PONG, i))
            walk(i, pair_used)
            chosen.pop()
            work[i] += 3
        if not honours and i + 2 < size and work[i + 1] and work[i + 2]:
            work[i] -= 1
            work[i + 1] -= 1
            work[i + 2] -= 1
            chosen.append((GroupKind.CHOW, i))
            walk(i, pair_used)
            chosen.pop()
            work[i] += 1
            work[i + 1] += 1
            work[i + 2] += 1
        if not pair_used and work[i] >= 2:
            work[i] -= 2
            chosen.append((GroupKind.PAIR, i))
            walk(i, True)
            chosen.pop()
            work[i] += 2

    walk(0, False)
    return tuple(found)


def _slices(counts: list[int] | tuple[int, ...]) -> list[tuple[int, ...]]:
    return [tuple(counts[lo:hi]) for lo, hi, _ in _SUIT_SLICES]


def _standard_complete(slices: list[tuple[int, ...]]) -> bool:
    """Whether concealed tiles, split by suit, make sets and exactly one pair."""
    pairs = 0
    for (lo, hi, honours), part in zip(_SUIT_SLICES, slices):
        rest = sum(part) % 3
        if rest == 1:
            return False
        if rest == 2:
            pairs += 1
            if pairs > 1:
                return False
        if any(part) and not _partitions(part, honours):
            return False
    return pairs == 1


def _seven_pairs(counts: list[int] | tuple[int, ...], quads: bool) -> bool:
    if sum(counts) != 14:
        return False
    allowed = (0, 2, 4) if quads else (0, 2)
    return all(c in allowed for c in counts)


def _thirteen_orphans(counts: list[int] | tuple[int, ...]) -> bool:
    if sum(counts) != 14:
        return False
    return all(counts[i] >= 1 for i in TERMINALS_AND_HONOURS) and sum(
        counts[i] for i in TERMINALS_AND_HONOURS) == 14


def is_complete(concealed_counts: list[int] | tuple[int, ...], melds: int = 0,
                rules: ShapeRules = ShapeRules()) -> bool:
    """Whether concealed tiles (with `melds` declared sets beside them) make a winning shape."""
    if _standard_complete(_slices(concealed_counts)):
        return True
    if melds:
        return False
    return (rules.seven_pairs and _seven_pairs(concealed_counts, rules.seven_pairs_quads)) or (
        rules.thirteen_orphans and _thirteen_orphans(concealed_counts))


def meld_group(meld: Meld) -> Group:
    """The reading group of a declared meld."""
    kind = {MeldKind.CHOW: GroupKind.CHOW, MeldKind.PONG: GroupKind.PONG}.get(meld.kind, GroupKind.KONG)
    return Group(kind, meld.tiles, meld.kind)


def readings(hand: Hand, rules: ShapeRules = ShapeRules()) -> tuple[Reading, ...]:
    """Every reading of a complete hand; empty when the tiles do not win.

    The winning tile may sit in several sets of one split; each choice is its own reading.
    """
    win = hand.win
    if win is None:
        raise ValueError("readings need the winning tile")
    concealed = hand.concealed_counts
    counts = tuple(hand.counts)
    found: list[Reading] = []
    melds = tuple(meld_group(m) for m in hand.melds)
    per_suit = []
    for lo, hi, honours in _SUIT_SLICES:
        part = tuple(concealed[lo:hi])
        options = _partitions(part, honours) if any(part) else ((),)
        if not options:
            per_suit = []
            break
        per_suit.append([tuple(_CONCEALED[kind, lo + i] for kind, i in p) for p in options])
    for combo in product(*per_suit) if per_suit else ():
        sets = [g for suit_groups in combo for g in suit_groups]
        if sum(1 for g in sets if g.kind is GroupKind.PAIR) != 1:
            continue
        groups = tuple(sorted(sets + list(melds), key=_group_order))
        seen: set[tuple[GroupKind, int]] = set()
        for i, g in enumerate(groups):
            if g.meld is None and win in g.tiles and (g.kind, g.first.index) not in seen:
                seen.add((g.kind, g.first.index))
                found.append(Reading(Shape.STANDARD, groups, win, i, _wait_of(g, win), counts))
    if not hand.melds:
        if rules.seven_pairs and _seven_pairs(concealed, rules.seven_pairs_quads):
            pairs = tuple(_CONCEALED[GroupKind.PAIR, i] for i, c in enumerate(concealed)
                          for _ in range(c // 2))
            at = next(i for i, g in enumerate(pairs) if g.first == win)
            found.append(Reading(Shape.SEVEN_PAIRS, pairs, win, at, Wait.SINGLE, counts))
        if rules.thirteen_orphans and _thirteen_orphans(concealed):
            found.append(_orphans_reading(concealed, win, counts))
    return tuple(found)


def _group_order(g: Group) -> tuple[int, int]:
    return g.first.index, _KIND_ORDER[g.kind]


def _wait_of(group: Group, win: Tile) -> Wait:
    if group.kind is GroupKind.PAIR:
        return Wait.SINGLE
    if group.kind is GroupKind.PONG:
        return Wait.PAIR_PAIR
    position = win.index - group.first.index   # 0, 1 or 2 within the chow
    if position == 1:
        return Wait.CLOSED
    rank = group.first.rank
    if (position == 2 and rank == 1) or (position == 0 and rank == 7):
        return Wait.EDGE
    return Wait.TWO_SIDED


def _orphans_reading(concealed: list[int], win: Tile, counts: tuple[int, ...]) -> Reading:
    groups = tuple(
        _CONCEALED[GroupKind.PAIR if concealed[i] == 2 else GroupKind.SINGLE, i]
        for i in TERMINALS_AND_HONOURS)
    at = TERMINALS_AND_HONOURS.index(win.index)
    wait = Wait.THIRTEEN_SIDED if concealed[win.index] == 2 else Wait.SINGLE
    return Reading(Shape.THIRTEEN_ORPHANS, groups, win, at, wait, counts)


def is_nine_gates(reading: Reading) -> bool:
    """Whether the hand is 1112345678999 of one suit plus one more, all concealed (九子連環)."""
    if reading.shape is not Shape.STANDARD or any(g.declared for g in reading.groups):
        return False
    suit = reading.win.suit
    if suit == "z" or any(t.suit != suit for g in reading.groups for t in g.tiles):
        return False
    lo = reading.win.index - reading.win.rank + 1
    return all(have >= need for have, need in zip(reading.counts[lo:lo + 9], _NINE_GATES))


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
    own = hand.counts
    melded = len(hand.melds)
    slices = _slices(concealed)
    found = []
    for index in range(NUM_KINDS):
        if own[index] >= 4:
            continue
        suit = 3 if index >= 27 else index // 9
        lo = _SUIT_SLICES[suit][0]
        grown = list(slices[suit])
        grown[index - lo] += 1
        trial = slices.copy()
        trial[suit] = tuple(grown)
        complete = _standard_complete(trial)
        if not complete and not melded and (rules.seven_pairs or rules.thirteen_orphans):
            concealed[index] += 1
            complete = (rules.seven_pairs and _seven_pairs(concealed, rules.seven_pairs_quads)) or (
                rules.thirteen_orphans and _thirteen_orphans(concealed))
            concealed[index] -= 1
        if complete:
            found.append(WaitingTile(TILES[index], 4 - own[index]))
    return tuple(found)
