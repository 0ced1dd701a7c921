"""Hypothesis strategies that build legal hands from sets, and a naive oracle to check against."""
from __future__ import annotations

from hypothesis import strategies as st

from app.hands.hand import Hand, Meld, MeldKind, WinContext
from app.hands.tiles import TILES

CHOW_STARTS = [i for i in range(27) if i % 9 <= 6]


@st.composite
def complete_hands(draw, honours: bool = True, max_melds: int = 4) -> Hand:
    """A winning hand: four sets and a pair, some sets declared as melds, a winning tile."""
    kinds = range(34 if honours else 27)
    counts = [0] * 34
    sets: list[tuple[str, int]] = []
    for _ in range(4):
        options = [("pong", i) for i in kinds if counts[i] <= 1]
        options += [("chow", i) for i in CHOW_STARTS if all(counts[i + k] <= 3 for k in range(3))]
        kind, i = draw(st.sampled_from(options))
        for k in ([i] * 3 if kind == "pong" else [i, i + 1, i + 2]):
            counts[k] += 1
        sets.append((kind, i))
    pair = draw(st.sampled_from([i for i in kinds if counts[i] <= 2]))
    counts[pair] += 2
    declared = draw(st.integers(0, max_melds))
    melds: list[Meld] = []
    concealed = [TILES[pair]] * 2
    for n, (kind, i) in enumerate(sets):
        if kind == "chow":
            tiles = TILES[i:i + 3]
            if n < declared:
                melds.append(Meld(MeldKind.CHOW, tiles))
                continue
        else:
            tiles = (TILES[i],) * 3
            if n < declared:
                choices = [MeldKind.PONG]
                if counts[i] == 3:  # a fourth copy is free: the set may be a kong
                    choices += [MeldKind.KONG, MeldKind.CKONG, MeldKind.AKONG]
                meld_kind = draw(st.sampled_from(choices))
                if meld_kind.is_kong:
                    counts[i] += 1
                    tiles = (TILES[i],) * 4
                melds.append(Meld(meld_kind, tiles))
                continue
        concealed.extend(tiles)
    win = draw(st.sampled_from(concealed))
    return Hand(concealed=tuple(sorted(concealed)), melds=tuple(melds), win=win,
                context=WinContext())


def naive_complete(counts: list[int], need_pair: bool = True) -> bool:
    """Whether counts split into sets and one pair, by plain recursion (the test oracle)."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return not need_pair
    if counts[i] >= 3:
        counts[i] -= 3
        ok = naive_complete(counts, need_pair)
        counts[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in range(3):
            counts[i + k] -= 1
        ok = naive_complete(counts, need_pair)
        for k in range(3):
            counts[i + k] += 1
        if ok:
            return True
    if need_pair and counts[i] >= 2:
        counts[i] -= 2
        ok = naive_complete(counts, False)
        counts[i] += 2
        if ok:
            return True
    return False


ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def naive_special(counts: list[int]) -> bool:
    """Whether 14 concealed tiles are seven distinct pairs or thirteen orphans (riichi rules)."""
    if sum(counts) != 14:
        return False
    seven_pairs = sorted(c for c in counts if c) == [2] * 7
    orphans = all(counts[i] for i in ORPHANS) and all(
        c == 0 for i, c in enumerate(counts) if i not in ORPHANS)
    return seven_pairs or orphans
