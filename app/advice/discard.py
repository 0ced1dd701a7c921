"""What to discard: a 14-tile hand, each discard weighed (app/vocabulary/discard.py reads it).

The efficiency core (app/hands/efficiency.py) says how far each discard leaves the hand from ready
and which tiles improve it; here the rules and the money join in: the ruleset's forms,
honours and missing suit, and for each discard that leaves the hand ready, every wait
priced as /api/waits prices it (calculate_waits) under the request's dials.

Order, best first (DISCARD_ORDER says it in words):
1. Sichuan: while the hand holds its declared missing suit, discards of that suit first
   (the hand cannot win until the suit is gone);
2. fewer tiles from ready (shanten), a ready hand that cannot win counting as one tile from
   ready; among equal shanten, the discards that can win first (rulings 82-83: with no `by`,
   a wait can win if it reaches the minimum on a discard or by self-draw);
3. more improving tiles neither held nor seen (a wait that never wins is none);
4. more value in the waits: the sum over winning waits of copies left x what the winner
   collects;
5. tile order.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from app.base.i18n import Msg, Text
from app.hands.efficiency import DiscardOption, Table, discard_options, form_shanten
from app.hands.hand import Hand
from app.hands.phrases import listing, tile_said
from app.hands.tiles import tile as tile_of
from app.rules.model import Amount, Ruleset
from app.scoring.calculation import Ask, WaitValue, calculate_waits
from app.scoring.payments import fmt
from app.scoring.selection import Settings

DISCARD_ORDER = Msg("fewer tiles from ready first (a ready hand that cannot win counts as one"
                    " tile from ready; among equal, those that can win first), then more improving"
                    " tiles left unseen, then more value in the waits (copies left x what the"
                    " winner collects)")
MISSING_SUIT_ORDER = Msg("the missing suit first while it is held, then fewer tiles from ready (a"
                         " ready hand that cannot win counts as one tile from ready; among equal,"
                         " those that can win first), then more improving tiles left unseen, then"
                         " more value in the waits (copies left x what the winner collects)")


def discard_order(ruleset: Ruleset) -> Msg:
    """The order in words, as the ruleset plays: the missing suit is named only where it has one."""
    return MISSING_SUIT_ORDER if ruleset.missing_suit else DISCARD_ORDER


SUIT_NAMES = {"m": "characters", "p": "dots", "s": "bamboo"}
FORM_NAMES = {"standard": Msg("sets and a pair"), "seven-pairs": Msg("seven pairs"),
              "thirteen-orphans": Msg("thirteen orphans")}


@dataclass(frozen=True, slots=True)
class PricedWait:
    """A tile the hand would wait on after a discard, and what winning on it is worth."""

    tile_code: str
    left: int                 # copies neither held nor seen
    value: WaitValue          # the waits pricing: its calculation, or why the rules refuse

    @property
    def wins(self) -> bool:
        """It reaches the minimum on a discard or by self-draw (ruling 82)."""
        return self.value.can_win

    @property
    def collects(self) -> Amount:
        """What the winner collects on this tile, the way it wins (0 when it cannot win)."""
        calc = self.value.winning
        if calc is None:
            return 0
        return next((p.amount for p in calc.payments if p.role == "winner"), 0)


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    """One discard with the reasons for its place in the order."""

    option: DiscardOption
    hand_after: Hand                  # the 13 tiles kept (with the melds and context)
    waits: tuple[PricedWait, ...]     # when ready: every wait, priced
    must_go: bool                     # a tile of the missing suit while it is held
    reasons: tuple[str, ...]

    @property
    def tile(self):
        return self.option.tile

    @property
    def ready(self) -> bool:
        return self.option.shanten == 0

    @property
    def can_win(self) -> bool:
        """Ready and some wait wins under the rules and dials, either way (ruling 82)."""
        return self.ready and any(w.wins for w in self.waits)

    @property
    def rank(self) -> tuple[int, bool]:
        """Its place by shanten (ruling 83): a ready hand that cannot win is no better than one
        tile from ready, and among equal shanten the discards that can win come first."""
        if self.ready and not self.can_win:
            return 1, True
        return self.option.shanten, False

    @property
    def value(self) -> Amount:
        """The waits' value: copies left x what the winner collects, over winning waits."""
        return sum((w.left * w.collects for w in self.waits), 0)


@dataclass(frozen=True, slots=True)
class DiscardResult:
    ruleset: Ruleset
    settings: Settings
    hand: Hand
    table: Table
    shanten: int                      # of the 14 tiles as they are (-1: already complete)
    choices: tuple[DiscardChoice, ...]
    ask: Ask                          # the request the waits are priced under
    params: Mapping[str, str] = field(default_factory=dict)   # the request as written, for the
    #                                                       web's links (set by app/vocabulary)


def suit_name(ruleset: Ruleset, suit: str) -> Text:
    """A suit's name: English, or the family's own suit word in each script ("萬子", "条子")."""
    hant, hans = ruleset.words_in("zh-Hant").suits, ruleset.words_in("zh-Hans").suits
    return Text(SUIT_NAMES[suit], f"{hant[suit]}子", f"{hans[suit]}子")


def joined(parts: Sequence[str], link: str = "; ") -> str:
    """Sentences joined as one: "a; b; c" (or "a or b"), each said in the reader's language."""
    if not parts:
        return ""
    said = parts[0]
    for part in parts[1:]:
        said = Msg("{a}; {b}", a=said, b=part) if link == "; " else Msg("{a} or {b}", a=said, b=part)
    return said


def weigh_discards(hand: Hand, seen: tuple[int, ...], ask: Ask) -> DiscardResult:
    """Weigh every distinct discard of a 14-tile hand, best first (see DISCARD_ORDER).

    `seen` counts the tiles visible on the table; `ask` is the request each kept 13 tiles'
    waits are priced under (its hand gives the context: seats agreed, the way of winning as
    asked), as /api/waits prices them.
    """
    ruleset, settings, ctx = ask.ruleset, ask.settings, hand.context
    table = Table(honours=ruleset.honours, missing=ctx.missing, seen=seen)
    rules = ruleset.shape_rules(settings.options)
    concealed = hand.concealed_counts
    melds = len(hand.melds)
    held = hand.counts
    options = discard_options(concealed, melds, rules, table, held)
    holds_missing = ctx.missing is not None and any(o.dead for o in options)
    choices = [_choice(o, hand, ask, table, holds_missing) for o in options]
    choices.sort(key=lambda c: (not c.must_go, c.rank, -c.option.left, -c.value, int(c.tile)))
    return DiscardResult(ruleset, settings, hand, table,
                         form_shanten(concealed, melds, rules, table).best, tuple(choices), ask)


def _choice(option: DiscardOption, hand: Hand, ask: Ask, table: Table,
            holds_missing: bool) -> DiscardChoice:
    ruleset, settings = ask.ruleset, ask.settings
    kept = list(hand.concealed)
    kept.remove(option.tile)
    after = replace(hand, concealed=tuple(kept), win=None)
    waits: tuple[PricedWait, ...] = ()
    if option.shanten == 0:
        waits = _priced_waits(after, option, ask, table)
        # a wait that can never reach the minimum is no improving tile (ruling 83)
        winning = {w.tile_code for w in waits if w.wins}
        option = replace(option, improving=tuple(i for i in option.improving
                                                 if i.tile.code in winning))
    must_go = holds_missing and option.dead
    return DiscardChoice(option, after, waits, must_go,
                         _reasons(option, waits, ruleset, settings, table, holds_missing, must_go))


def _priced_waits(after: Hand, option: DiscardOption, ask: Ask, table: Table
                  ) -> tuple[PricedWait, ...]:
    """Every wait of the kept 13 tiles, priced as /api/waits prices it, with copies unseen
    (neither held, nor seen, nor the discard itself)."""
    priced = calculate_waits(replace(ask, hand=replace(after, context=ask.hand.context)))
    return tuple(PricedWait(w.tile.code, max(0, w.left - table.seen[w.tile]
                                             - (w.tile == option.tile)), w)
                 for w in priced.waits)


def _reasons(option: DiscardOption, waits: tuple[PricedWait, ...], ruleset: Ruleset,
             settings: Settings, table: Table, holds_missing: bool,
             must_go: bool) -> tuple[str, ...]:
    """Why this discard stands where it does, in words a learner reads beside it."""
    reasons = []
    if must_go:
        reasons.append(Msg("a tile of the declared missing suit ({suit}): it must go before the"
                           " hand can win", suit=suit_name(ruleset, table.missing)))
    elif holds_missing and table.missing is not None:
        reasons.append(Msg("keeps a tile of the missing suit ({suit}): the hand cannot win while"
                           " it holds one", suit=suit_name(ruleset, table.missing)))
    forms = joined([FORM_NAMES[f] for f in option.forms], " or ")
    if option.shanten == 0:
        reasons.append(Msg("ready ({forms})", forms=forms))
    elif option.shanten > 0:
        reasons.append(Msg("{n} tile from ready ({forms})", n=1, forms=forms)
                       if option.shanten == 1 else
                       Msg("{n} tiles from ready ({forms})", n=option.shanten, forms=forms))
    reasons.append(_improving(option.left, len(option.improving)))
    if option.shanten == 0:
        winning = [w for w in waits if w.wins]
        if not waits:
            reasons.append(Msg("ready in shape, but every tile that completes it is already"
                               " in the hand"))
        elif not winning:
            if any(w.value.calculation is not None for w in waits):
                reasons.append(Msg("ready, but cannot win: every wait is below the minimum of"
                                   " {min} fan", min=settings.min))
            else:
                reasons.append(Msg("ready, but cannot win: {refusal}",
                                   refusal=waits[0].value.refusal))
        else:
            value = sum((w.left * w.collects for w in winning), Fraction(0))
            reasons.append(Msg("the waits are worth {value} (copies left x what the winner"
                               " collects)", value=fmt(value)))
            drawn = [tile_said(tile_of(w.tile_code)) for w in winning if w.value.only_self_draw]
            if drawn:
                reasons.append(Msg("{tiles}: wins only by self-draw", tiles=listing(drawn)))
            never = [tile_said(tile_of(w.tile_code)) for w in waits if not w.wins]
            if never:
                reasons.append(Msg("{tiles}: never wins here, not counted among the improving"
                                   " tiles", tiles=listing(never)))
    return tuple(reasons)


def _improving(left: int, kinds: int) -> Msg:
    """The improving tiles left and their kinds, each singular or plural as its number needs."""
    if left == 1 and kinds == 1:
        return Msg("{n} improving tile left in {kinds} kind", n=left, kinds=kinds)
    if kinds == 1:
        return Msg("{n} improving tiles left in {kinds} kind", n=left, kinds=kinds)
    if left == 1:
        return Msg("{n} improving tile left in {kinds} kinds", n=left, kinds=kinds)
    return Msg("{n} improving tiles left in {kinds} kinds", n=left, kinds=kinds)
