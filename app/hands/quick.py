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
- no seven pairs (Hong Kong): its answer stands while its seven pairs are further; as near,
  the standard form alone is found from it (below);
- seven pairs where four alike count as two (Sichuan): counted from the pairs alone (6 less
  the pairs, as that counting has no need of seven kinds). Further than xiangting's answer,
  its answer stands; nearer, they alone count (kinds: those held once or three times, whose
  draw makes a pair more, whose discard keeps the pairs); as near, both count: its kinds and
  those. (xiangting's seven pairs of distinct kinds are never nearer than these; when as
  near, no kind is held four times and seven are held, so their kinds are among these.)
- tiles of the declared missing suit held (dead: each must go): xiangting is asked of the
  live tiles with an honour held once in place of each dead tile (`_live`), which gives the
  standard form efficiency.py counts of the live tiles alone; the dead tiles bound it.

The standard form alone, of a hand without melds (`_without_sets`): xiangting counts only
the standard form of fewer than 13 tiles, as of a hand with melds declared, so each distinct
set held (three alike, a run) is taken out in turn, as if declared, and the rest is asked.
The form's shanten is 8 - 2 x sets - partial sets (the head among them), of at most four
sets and partial sets besides the head: without a set it is at least 3. So where it is 2 or less:

- every best split of the hand holds a set S, and a split of the rest with S is a split of
  the hand: the hand's shanten is the least of the rests' over the sets held;
- a draw that lowers it to 1 or less leaves a best split with two sets or more, one of them
  without the drawn tile, so held before the draw; with that set out, the rest is at the
  least and the draw lowers it. The kinds that lower the hand are those that lower a rest at
  the least (the union of xiangting's kinds over those sets);
- of 14 tiles, a discard that leaves 2 or less leaves a best split with a set the discard
  does not touch, and a discard that keeps a rest's shanten keeps the hand's: the discards
  that keep it are the union of those that keep a rest at the least.

efficiency.py's one rule that reads more than the tiles' shape, of a kind held four times
(its pair waits on no third copy, its loose tile becomes no head, an honour held four times
is dead), is hidden by a set of that kind taken out (the rest holds fewer of it), by no
other set: a rest with such a set out only bounds the hand's shanten from below (a best
split of the hand, less the set, is a split of the rest; the converse may fail). So the
least over the sets is the hand's shanten where a set of no kind held four times reaches it
too, else where efficiency.py's own count of the hand agrees (`standard_shanten`, once); the
kinds found only with a set of a kind held four times out, or only with a set of a kind
held three times out (its fourth copy, drawn, would hide the rule), are each asked of
efficiency.py's count of the 14 tiles themselves (of 14 tiles, the discards found only with
a set of a kind held four times out, of the 13); a kind held four times is never drawn.

Thirteen orphans, which these tables count, are never as near: 2 or less from them, a hand
holds ten terminals and honours of distinct kinds, no two of which make a partial set, so
every set (two of them), partial set or head takes one of the other three or four tiles:
the standard form's value is at most 4, its shanten at least 4.

Elsewhere (xiangting's seven pairs or thirteen orphans as near as its answer where the table
counts them otherwise and the standard form is not found as above, a live kind held four
times beside dead tiles, more than seven dead tiles) efficiency.py answers. Both engines give
the same answers (tests/hands/test_quick.py holds them equal); xiangting is a speed-up,
never a rule.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .efficiency import (
    Table,
    _PairsAfter,
    complete,
    discard_shanten,
    form_shanten,
    improving_tiles,
    seven_pairs_shanten,
    standard_shanten,
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
    """Whether xiangting may be asked about these tiles as they are (`_thirteen` and
    `_fourteen` then say whether and how its answer gives the table's): none of a declared
    missing suit held (else its live tiles are asked, `_live`).

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
            return _dead_thirteen(counts, melds, rules, table, lo)
        drawable = _DRAWABLE_BITS[table.honours, missing]
    rn, bits = _xt.calculate_necessary_tiles(counts, _FOUR)
    s = rn - 1
    if not melds:
        found = _forms(counts, 13, s, bits, rules, table, _standard_thirteen)
        if found is None:
            return None
        s, bits = found
    return s, _kinds(bits & drawable)


def _fourteen(counts: bytes, melds: int, rules: ShapeRules, table: Table
              ) -> tuple[int, tuple[int, ...]] | None:
    """The best shanten any discard of 14 tiles leaves at this table and, by xiangting, the
    distinct discards that leave it; None where efficiency.py must answer."""
    missing = table.missing
    if missing is not None:
        lo = SUIT_OFFSET[missing]
        if counts[lo:lo + 9] != _NONE:
            return _dead_fourteen(counts, melds, rules, table, lo)
    rn, bits = _xt.calculate_unnecessary_tiles(counts, _FOUR)
    s = rn - 1
    if not melds:
        found = _forms(counts, 14, s, bits, rules, table, _standard_fourteen)
        if found is None:
            return None
        s, bits = found
    return s, _kinds(bits)


def _forms(counts: bytes, tiles: int, s: int, bits: int, rules: ShapeRules, table: Table,
           standard) -> tuple[int, int] | None:
    """xiangting's answer for `tiles` (13 or 14) concealed tiles and no melds, its shanten `s`
    and bit set `bits`, as this table counts the special forms (the module's account); None
    where efficiency.py must answer. `standard`: the standard form alone (_standard_thirteen
    or _standard_fourteen), for a table without seven pairs where xiangting's may be nearer."""
    if (table.honours or s >= ORPHANS_FAR) and not (
            rules.thirteen_orphans and table.honours and table.missing is None) and (
            thirteen_orphans_shanten(counts) <= s):
        return None   # xiangting's thirteen orphans, not the table's, may be as near
    if rules.seven_pairs:
        if rules.seven_pairs_quads:   # four alike as two pairs: 6 less the pairs held
            odd = counts.translate(_ODD_DIGITS)   # the pairs: half the tiles not held oddly
            pairs = 6 - (tiles - odd.count(49)) // 2
            if s >= pairs:
                odd_bits = int(odd[::-1], 2)
                return (s, bits | odd_bits) if s == pairs else (pairs, odd_bits)
    elif (len(counts.translate(None, _BELOW_PAIR)) >= 6 - s   # the kinds paired
          and _distinct_pairs(counts) <= s):   # xiangting's seven pairs may be its answer
        return standard(counts, table)
    return s, bits


def _without_sets(counts: bytes, ask) -> tuple[int, int, int, int] | None:
    """xiangting's answer (`ask`: its necessary or unnecessary tiles) of the tiles left when
    each distinct set held (three alike, a run) is taken out as if declared: its least
    replacement number over the sets; its least over the sets of no kind held four times;
    the union of its kinds over the sets at the least; and of those, the kinds found with a
    set of no kind held four times, other than a kind of the set held three times (sure, by
    the module's account). None when no set is held."""
    hand = bytearray(counts)
    quads = _bits_of(counts, 4) if 4 in counts else 0
    triples = _bits_of(counts, 3)
    found = []
    for k in _kinds(triples | quads):
        hand[k] -= 3
        found.append((*ask(hand, _FOUR), 1 << k))
        hand[k] += 3
    held = _held_bits(counts)
    for k in _kinds(held & held >> 1 & held >> 2 & _RUN_STARTS):
        hand[k] -= 1
        hand[k + 1] -= 1
        hand[k + 2] -= 1
        found.append((*ask(hand, _FOUR), 7 << k))
        hand[k] += 1
        hand[k + 1] += 1
        hand[k + 2] += 1
    if not found:
        return None
    least = min(found)[0]
    clear = min((rn for rn, _, own in found if not own & quads), default=99)
    kinds = sure = 0
    for rn, bits, own in found:
        if rn == least:
            kinds |= bits
            if not own & quads:
                sure |= bits & ~(own & triples)
    return least, clear, kinds, sure


def _standard_thirteen(counts: bytes, table: Table) -> tuple[int, int] | None:
    """The standard form's shanten of 13 concealed tiles and the bit set of the kinds whose
    draw lowers it, where it is at most 2 (the module's account); None elsewhere."""
    found = _without_sets(counts, _xt.calculate_necessary_tiles)
    if found is None:
        return None
    least, clear, kinds, sure = found
    s = least - 1
    if s > 2 or clear != least and standard_shanten(counts, 0, table) != s:
        return None
    if 4 in counts:
        kinds &= ~_bits_of(counts, 4)   # none left to draw
    for k in _kinds(kinds & ~sure):   # asked of the 14 tiles themselves
        if standard_shanten(one_more(counts, k), 0, table) >= s:
            kinds &= ~(1 << k)
    return s, kinds


def _standard_fourteen(counts: bytes, table: Table) -> tuple[int, int] | None:
    """The standard form's shanten of 14 concealed tiles (the best a discard leaves) and the
    bit set of the discards that keep it, where it is at most 2; None elsewhere."""
    found = _without_sets(counts, _xt.calculate_unnecessary_tiles)
    if found is None:
        return None
    least, clear, kinds, sure = found
    s = least - 1
    if s > 2 or clear != least and standard_shanten(counts, 0, table) != s:
        return None
    for k in _kinds(kinds & ~sure):   # asked of the 13 tiles themselves
        if standard_shanten(one_fewer(counts, k), 0, table) > s:
            kinds &= ~(1 << k)
    return s, kinds


def _live(counts: bytes, melds: int, rules: ShapeRules, table: Table, lo: int
          ) -> tuple[bytes, int, bytes] | None:
    """The live tiles of a hand holding some of its missing suit, how many of that suit it
    holds (dead: each must go), and the live tiles with one honour of a kind for each dead
    tile (xiangting's hand); None where that does not give efficiency.py's standard form.

    efficiency.py counts the standard form of the live tiles alone (however few), then no
    nearer than the dead tiles (one fewer with 14: one is the discard to come). An honour
    held once is a loose tile as a dead one is, so the sets and partial sets are the same:
    so long as no honour is in play (they are free to stand in) and no live kind is held four
    times (a loose fourth copy, which can never be a pair, counts a step further, and a loose
    honour would hide that).
    """
    if table.honours or counts[27:] != _NO_HONOURS:
        return None
    live = counts[:lo] + _NONE + counts[lo + 9:]
    dead = sum(counts[lo:lo + 9])
    if dead > 7 or live.count(4):
        return None
    return live, dead, live[:27] + _PADS[dead]


def _dead_thirteen(counts: bytes, melds: int, rules: ShapeRules, table: Table, lo: int
                   ) -> tuple[int, tuple[int, ...]] | None:
    """_thirteen for 13 tiles holding some of the missing suit (never ready: each dead tile
    is a tile to change). The standard form is the live tiles' (`_live`), no nearer than the
    dead tiles: while it is nearer, every draw of a live kind lowers it (the draw is kept, a
    dead tile thrown), else those xiangting finds. Seven pairs count the live tiles, as
    seven_pairs_shanten does."""
    found = _live(counts, melds, rules, table, lo)
    if found is None:
        return None
    live, dead, padded = found
    rn, bits = _xt.calculate_necessary_tiles(padded, _FOUR)
    own = rn - 1   # the live tiles' standard form
    special = not melds and rules.seven_pairs
    if not melds and (_distinct_pairs(padded) <= own or thirteen_orphans_shanten(padded) <= own):
        return None   # xiangting's answer may be a special form's
    standard = max(own, dead)
    pairs = seven_pairs_shanten(counts, rules.seven_pairs_quads, table) if special else 99
    best = min(standard, pairs)
    drawable = _drawable_bits(False, table.missing)
    kinds = 0
    if standard == best:
        # the fourth copy of a kind held three times: the live tiles' standard form after it
        # is xiangting's or a step further; where that step decides, efficiency.py's
        triples = _bits_of(live, 3) & drawable
        if own >= dead:
            kinds, unsure = bits & ~triples, bits & triples
        else:
            kinds, unsure = drawable, (triples if own == dead - 1 else 0)
        for k in _kinds(unsure):
            if standard_shanten(one_more(counts, k), melds, table) >= best:
                kinds &= ~(1 << k)
            else:
                kinds |= 1 << k
    if pairs == best:
        after = _PairsAfter(live, rules.seven_pairs_quads)
        for n in range(4):
            i = live.find(_COUNT[n], 0, 27)
            if i >= 0 and after.after(i) < best:
                kinds |= _bits_of(live, n)
    return best, _kinds(kinds & drawable)


def _dead_fourteen(counts: bytes, melds: int, rules: ShapeRules, table: Table, lo: int
                   ) -> tuple[int, tuple[int, ...]] | None:
    """_fourteen for 14 tiles holding some of the missing suit. A dead tile thrown leaves the
    live tiles as they are, and no discard leaves less (the standard form of the live tiles
    can only grow with one fewer, and the dead tiles' bound is one more): every dead kind held
    keeps the best. A live tile thrown keeps it where the live tiles' standard form is the
    bound and does not grow (those xiangting keeps of the live tiles). Seven pairs held back
    by the dead tiles (too few live tiles to make them) lose by any live discard; where they
    are the bound otherwise, efficiency.py answers (xiangting's own seven pairs are then as
    near, in practice, so it would anyway)."""
    found = _live(counts, melds, rules, table, lo)
    if found is None:
        return None
    live, dead, padded = found
    rn, bits = _xt.calculate_unnecessary_tiles(padded, _FOUR)
    own = rn - 1   # the live tiles' standard form, as when a dead tile is thrown
    if not melds and (_distinct_pairs(padded) <= own or thirteen_orphans_shanten(padded) <= own):
        return None
    bound = max(own, dead - 1)
    pairs = (seven_pairs_shanten(counts, rules.seven_pairs_quads, table)
             if not melds and rules.seven_pairs else 99)
    best = min(bound, pairs)
    if pairs == best and pairs != dead - 1:
        return None   # seven pairs not held back by the dead tiles may keep a live discard
    keep = _held_bits(counts) & ~_held_bits(live)   # the dead kinds held
    if own >= dead and bound == best:
        keep |= bits & _held_bits(live)
    return best, _kinds(keep)


def _bits_of(counts: bytes, n: int) -> int:
    """The bit set of the kinds held exactly n times.

    >>> bin(_bits_of(bytes((1, 2, 3, 2) + (0,) * 30), 2))
    '0b1010'
    """
    return int(counts.translate(_EQUAL_DIGITS[n])[::-1], 2)


def _held_bits(counts: bytes) -> int:
    """The bit set of the kinds held."""
    return int(counts.translate(_HELD_DIGITS)[::-1], 2)


def one_more(counts: bytes, k: int) -> bytes:
    """34 counts as bytes with one more of kind k (the outlook's hands are such bytes too).

    >>> list(one_more(bytes(34), 2)[:4])
    [0, 0, 1, 0]
    """
    return counts[:k] + _ONE_MORE[counts[k]] + counts[k + 1:]


_ONE_MORE = tuple(bytes((n + 1,)) for n in range(5))


def one_fewer(counts: bytes, k: int) -> bytes:
    """34 counts as bytes with one fewer of kind k, which they hold.

    >>> list(one_fewer(bytes((0, 2, 1)) + bytes(31), 1)[:3])
    [0, 1, 1]
    """
    return counts[:k] + _COUNT[counts[k] - 1] + counts[k + 1:]


_NONE = bytes(9)
_RUN_STARTS = sum(1 << (9 * suit + i) for suit in range(3) for i in range(7))   # 1-7 of a suit
_NO_HONOURS = bytes(7)
_PADS = tuple(bytes((1,) * n + (0,) * (7 - n)) for n in range(8))   # n honours held once
_COUNT = tuple(bytes((n,)) for n in range(5))
_ODD_DIGITS = bytes(b"01"[n & 1] for n in range(256))   # a count -> "1" when odd, else "0"
_EQUAL_DIGITS = tuple(bytes(b"01"[i == n] for i in range(256)) for n in range(5))
_HELD_DIGITS = bytes(b"01"[i > 0] for i in range(256))
_BELOW_PAIR = bytes((0, 1))   # the counts deleted to leave one byte a kind held twice or more


def _distinct_pairs(counts: bytes) -> int:
    """Seven pairs' shanten, of distinct kinds (as seven_pairs_shanten counts it), of 13 or 14
    tiles: 13 - 2 x pairs - the kinds held once (at most 7 - pairs), so never less than 6 -
    pairs (the kinds held twice or more, which `_BELOW_PAIR` counts quickly first).

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
    (the best any discard leaves: 0 for a complete hand)."""
    if shanten >= 0 and _xt is not None:
        counts = _bytes(counts)
        found = _fourteen(counts, melds, rules, table)
        if found is not None:
            if found[0] == shanten:
                return found[1]
            if found[0] == -1 and shanten == 0:   # complete: each discard leaves 13 tiles
                return _kinds(_held_bits(counts))   # that it completes, so ready
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
    found = _KINDS_SEEN.get(bits)   # an outlook asks about a few thousand sets, again and again
    if found is None:
        if len(_KINDS_SEEN) >= _KINDS_KEPT:
            _KINDS_SEEN.clear()
        found = _KINDS_SEEN[bits] = (
            _BYTE_KINDS[0][bits & 255] + _BYTE_KINDS[1][bits >> 8 & 255]
            + _BYTE_KINDS[2][bits >> 16 & 255] + _BYTE_KINDS[3][bits >> 24 & 255]
            + _BYTE_KINDS[4][bits >> 32 & 3])
    return found


_KINDS_SEEN: dict[int, tuple[int, ...]] = {}
_KINDS_KEPT = 8192


def clear_tables() -> None:
    """Forget the bit sets' kinds worked out so far (for benchmarks that time a cold start)."""
    _KINDS_SEEN.clear()


# the kinds of each byte of a bit set, by the byte's place (a fifth holds kinds 32 and 33)
_BYTE_KINDS = tuple(tuple(tuple(8 * place + i for i in range(8) if byte >> i & 1)
                          for byte in range(256)) for place in range(5))


@lru_cache(maxsize=16)
def _drawable_bits(honours: bool, missing: str | None) -> int:
    """The bit set of the kinds a table lets be drawn and kept."""
    table = Table(honours=honours, missing=missing)
    return sum(1 << k for k in range(NUM_KINDS) if table.drawable(k))


_DRAWABLE_BITS = {(honours, missing): _drawable_bits(honours, missing)
                  for honours in (True, False) for missing in (None, *SUIT_OFFSET)}
_EVERY, _SUITED = _DRAWABLE_BITS[True, None], _DRAWABLE_BITS[False, None]
