""""What would you discard?": seeded 14-tile hands to practise on, and the answer marked.

A hand is a pure function of (ruleset, seed, n), so one link deals the same hand to a whole
class: a winning hand of the Count the Fan dealer (app/practice/dealer.py, plain level) with one or
two of its concealed tiles swapped for tiles from the rest of the wall (in Sichuan sometimes
one of the declared missing suit, which must then go first). A teacher's own hand is a
question too (`question`: the hand description of /discard, 14 tiles).

The answer key is the outlook (app/advice/outlook.py) when it can weigh the hand: a discard is
right when its expected value equals the best's (ties all count). When it cannot (past its
bound, over its budget, or no discard can win within the draws), the analysis of
app/advice/discard.py marks it: right when nothing stands before it in the documented order,
and the verdict says why the usual order was used.

>>> from app.rules.loader import registry
>>> first = deal_discard(registry()["hong-kong"], "class-7", 1)
>>> first.hand == deal_discard(registry()["hong-kong"], "class-7", 1).hand
True
>>> len(first.hand.concealed) + 3 * len(first.hand.melds)
14
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

from app.advice.discard import DiscardChoice, DiscardResult, joined, weigh_discards
from app.advice.outlook import DiscardOutlook, OutlookResult, amount, percent
from app.base.errors import HandError
from app.base.i18n import Msg
from app.hands.hand import Hand, WinBy, WinContext
from app.hands.phrases import tile_said
from app.hands.tiles import NUM_KINDS, SUIT_OFFSET, TILES, Tile
from app.rules.model import Ruleset
from app.scoring.calculation import Ask, Seats, agreed_seats, seated_table
from app.scoring.payments import fmt
from app.scoring.selection import Settings, check_tiles

from .dealer import deal

MAX_TRIES = 60
# The dealt hand's context that still holds before the discard; the winning moment's
# facts (how it was won, events) do not.
KEPT = ("melds", "seat", "round", "flowers", "seasons", "missing", "options")
# What a teacher's question may give beside `rules`: the hand, its context, the tiles seen and
# the dials (INTERFACE.md's names).
QUESTION_FIELDS = ("hand", *KEPT, "seen", "min", "cap", "curve", "payment", "stake")


@dataclass(frozen=True, slots=True)
class DiscardDeal:
    """Hand n of a seeded series: the hand and the answer key."""

    ruleset: Ruleset
    seed: str
    n: int
    # rules, hand (14 tiles) and context as /discard reads them: written by
    # app/vocabulary/practice.py, or the teacher's question as asked (unread here)
    params: Mapping[str, str]
    analysis: DiscardResult
    options: tuple[str, ...] = ()   # the dealt hand's house rules, in the theme's order

    @property
    def hand(self) -> Hand:
        return self.analysis.hand

    @property
    def best(self) -> tuple[DiscardChoice, ...]:
        """Every discard that ties with the first in the documented order."""
        top = _key(self.analysis.choices[0])
        return tuple(c for c in self.analysis.choices if _key(c) == top)


def _key(choice: DiscardChoice) -> tuple:
    return (not choice.must_go, choice.option.shanten, -choice.option.left, -choice.value)


def deal_discard(ruleset: Ruleset, seed: str, n: int = 1) -> DiscardDeal:
    """Deal hand n of the discard series named by seed."""
    rng = random.Random(f"discard/{ruleset.id}/{seed}/{n}")
    for attempt in range(MAX_TRIES):
        dealt = deal(ruleset, f"{seed}-{n}-{attempt}", 1, "plain")
        hand = _spoiled(rng, ruleset, dealt.calculation.hand)
        if hand is None:
            continue
        try:
            analysis = _analysed(ruleset, hand, dealt.calculation.settings)
        except HandError:
            continue
        if analysis.shanten < 0 or len(analysis.choices) < 3:
            continue   # already complete, or too little to choose from
        if all(_key(c) == _key(analysis.choices[0]) for c in analysis.choices):
            continue   # every discard as good: nothing to learn
        return DiscardDeal(ruleset, seed, n, {}, analysis, dealt.options)
    raise RuntimeError(Msg("no discard hand could be dealt for {rules} from seed {seed}",
                           rules=ruleset.id, seed=repr(seed)))


def _analysed(ruleset: Ruleset, hand: Hand, settings: Settings) -> DiscardResult:
    """The discard analysis of a dealt hand as /discard makes it of its description: no way of
    winning given, the winner in the dealt seat, nothing seen; HandError when refused."""
    # the tiles must exist under these rules; holding the missing suit is allowed here
    check_tiles(replace(hand, context=replace(hand.context, missing=None)), ruleset, settings)
    seat, winner, assumed = agreed_seats(hand.context.seat, None)
    seats = Seats(seat, winner)
    seated_table(ruleset, seats, WinBy.SELF_DRAW, frozenset())   # not won yet: no discarder
    ask = Ask(ruleset, settings, hand=Hand((), context=hand.context), seats=seats,
              round_given=True, assumed=assumed)
    return weigh_discards(hand, (0,) * NUM_KINDS, ask)


def _spoiled(rng: random.Random, ruleset: Ruleset, won: Hand) -> Hand | None:
    """The winning hand with one or two concealed tiles swapped for others from the wall: the
    hand before its discard."""
    concealed = list(won.concealed)
    held = won.counts
    missing = won.context.missing
    swaps = rng.choice((1, 2, 2))
    if len(concealed) <= swaps + 1:
        return None
    for _ in range(swaps):
        concealed.pop(rng.randrange(len(concealed)))
    wall = [TILES[i] for i in range(NUM_KINDS) if _in_play(ruleset, i)
            for _ in range(4 - held[i])]
    if missing:
        dead = range(SUIT_OFFSET[missing], SUIT_OFFSET[missing] + 9)
        if rng.random() < 0.4:   # a tile of the missing suit, which must then go first
            wall = [t for t in wall if t in dead]
        else:
            wall = [t for t in wall if t not in dead]
    drawn: list[Tile] = rng.sample(wall, swaps)
    ctx = won.context
    held = sorted(concealed + drawn)
    before = WinContext(seat=ctx.seat, round=ctx.round, flowers=ctx.flowers, seasons=ctx.seasons,
                        missing=missing)   # the winning moment's facts do not hold yet
    return Hand(tuple(held), won.melds, held[-1], before)


def _in_play(ruleset: Ruleset, index: int) -> bool:
    return ruleset.honours or index < 27


@dataclass(frozen=True, slots=True)
class DiscardVerdict:
    """The player's discard against the answer key: the outlook's, or the usual order's."""

    chosen: DiscardChoice
    best: tuple[DiscardChoice, ...]
    weighed: OutlookResult | None = None   # the outlook that marked it; None: the usual order
    unweighed: str = ""                     # why the usual order marked it though the outlook was asked

    @property
    def correct(self) -> bool:
        return any(c.tile == self.chosen.tile for c in self.best)

    @property
    def by_value(self) -> bool:
        """Whether expected value marked it."""
        return self.weighed is not None

    def outlook_of(self, choice: DiscardChoice) -> DiscardOutlook:
        return next(o for o in self.weighed.choices if o.tile == choice.tile)

    @property
    def why(self) -> str:
        """What separates the player's discard from the best, in the answer key's own terms."""
        if self.by_value:
            return self._why_by_value()
        if self.correct:
            return joined(self.chosen.reasons)
        best, mine = self.best[0], self.chosen
        if best.must_go and not mine.must_go:
            return Msg("a tile of the declared missing suit must go first")
        if mine.option.shanten != best.option.shanten:
            return Msg("it leaves the hand {mine}; discarding {tile} leaves it {best}",
                       mine=_from_ready(mine.option.shanten), tile=tile_said(best.tile),
                       best=_from_ready(best.option.shanten))
        if mine.option.left != best.option.left:
            return Msg("as close to ready, but {mine} improving tiles are left against {best}"
                       " after discarding {tile}", mine=mine.option.left, best=best.option.left,
                       tile=tile_said(best.tile))
        return Msg("as close to ready with as many improving tiles, but its waits are worth"
                   " {mine} against {best}", mine=fmt(mine.value), best=fmt(best.value))

    def _why_by_value(self) -> str:
        mine = self.outlook_of(self.chosen)
        if self.correct:
            return joined(mine.reasons)
        best = self.outlook_of(self.best[0])
        if best.choice.must_go and not mine.choice.must_go:
            return Msg("a tile of the declared missing suit must go first")
        if mine.chances is None:
            return Msg("it leaves the hand {far}, past what the outlook weighs; discarding {tile}:"
                       " expected {best} and {win}% to win",
                       far=_from_ready(self.chosen.option.shanten), tile=tile_said(best.tile),
                       best=amount(best.value), win=percent(best.win))
        return Msg("expected {mine} and {mine_win}% to win; discarding {tile}: expected {best}"
                   " and {win}% to win", mine=amount(mine.value), mine_win=percent(mine.win),
                   best=amount(best.value), win=percent(best.win), tile=tile_said(best.tile))

    @property
    def best_reasons(self) -> str:
        """The outlook's reasons for the best discard by value (empty when not by value)."""
        if not self.by_value:
            return ""
        return joined(self.outlook_of(self.best[0]).reasons)


def _from_ready(shanten: int) -> Msg:
    if shanten == 0:
        return Msg("ready")
    if shanten == 1:
        return Msg("{n} tile from ready", n=1)
    return Msg("{n} tiles from ready", n=shanten)


def check_discard(dealt: DiscardDeal, tile: Tile, found: OutlookResult | None = None
                  ) -> DiscardVerdict:
    """Mark a discard, by expected value when `found` weighs the hand, else by the usual order.

    HandError when the hand holds no such tile.
    """
    chosen = next((c for c in dealt.analysis.choices if c.tile == tile), None)
    if chosen is None:
        raise HandError.single("discard", Msg("the hand holds no {tile} to discard",
                                              tile=tile_said(tile)))
    usual = DiscardVerdict(chosen, dealt.best)
    if found is None:
        return usual
    why_not = unweighed(found)
    if why_not:
        return replace(usual, unweighed=why_not)
    return DiscardVerdict(chosen, value_best(found), found)


def value_best(found: OutlookResult) -> tuple[DiscardChoice, ...]:
    """Every discard whose expected value equals the best's (to rounding), outlook order.

    Tiles of the declared missing suit go first (a rule, not a preference): while the hand
    holds one, only they are compared.
    """
    candidates = _candidates(found)
    top = max(round(o.value, 9) for o in candidates)
    return tuple(o.choice for o in candidates if round(o.value, 9) == top)


def _candidates(found: OutlookResult) -> list[DiscardOutlook]:
    weighed = [o for o in found.choices if o.chances is not None]
    if any(o.choice.must_go for o in found.choices):
        weighed = [o for o in weighed if o.choice.must_go]
    return weighed


def unweighed(found: OutlookResult) -> str:
    """Why the outlook cannot mark this hand, or "" when it can."""
    if found.bounded:
        return found.bounded
    candidates = _candidates(found)
    if not candidates or max(round(o.value, 9) for o in candidates) <= 0:
        return Msg("no discard can win a hand the rules let be declared within {n} draws: the"
                   " usual order", n=found.draws)
    return ""
