"""What to discard: a 14-tile hand read from the public vocabulary, each discard weighed.

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

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from app.base.errors import FieldError, HandError, NotationError, refuse
from app.base.i18n import Msg, Text
from app.hands.description import message_of, parse_hand
from app.hands.efficiency import DiscardOption, Table, counts_of, discard_options, form_shanten
from app.hands.hand import Hand, WinBy
from app.hands.phrases import plain
from app.hands.tiles import NUM_KINDS, PLAYING_TILES, canonical, format_tiles, parse_tiles
from app.rules.conditions import liability_errors
from app.rules.model import Amount, Ruleset
from app.scoring.calculation import (
    WaitValue,
    calculate_waits,
    read_ruleset,
    read_seats,
    read_settings,
    read_table,
)
from app.scoring.payments import fmt
from app.scoring.selection import Settings, check_tiles

MAX_SEEN_LENGTH = 200   # characters: a whole table's discards fit
DISCARD_ORDER = Msg("the missing suit first while it is held (Sichuan), then fewer tiles from"
                    " ready (a ready hand that cannot win counts as one tile from ready; among"
                    " equal, those that can win first), then more improving tiles left unseen,"
                    " then more value in the waits (copies left x what the winner collects)")
SUIT_NAMES = {"m": "characters", "p": "dots", "s": "bamboo"}
# Request fields the waits' pricing must not see: its own winning tile replaces `win`, and
# tick-box or fan-total modes would price something other than the tiles.
NOT_PRICED = ("win", "seen", "ticks", "fan")
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
    params: Mapping[str, str]         # the request, to build the waits' permalinks


def read_seen(text: str, hand: Hand, ruleset: Ruleset) -> tuple[int, ...]:
    """The `seen` field: tiles visible on the table, as counts; each kind at most 4 with the hand."""
    text = text.strip()
    if not text:
        return (0,) * NUM_KINDS
    if len(text) > MAX_SEEN_LENGTH:
        raise HandError.single("seen", Msg("{n} characters is too long (at most {most})",
                                           n=len(text), most=MAX_SEEN_LENGTH))
    try:
        tiles = parse_tiles(text)
    except NotationError as err:
        raise HandError.single("seen", message_of(err)) from None
    bonus = [t.code for t in tiles if t.is_bonus]
    if bonus:
        raise HandError.single("seen", Msg("{tiles}: flowers and seasons are not discarded; list"
                                           " only suited and honour tiles", tiles=" ".join(bonus)))
    if not ruleset.honours and any(t.is_honour for t in tiles):
        raise HandError.single("seen", Msg("{rules} is played without honours",
                                           rules=plain(ruleset.name)))
    seen = counts_of(tiles)
    held = hand.counts
    errors = [FieldError("seen", Msg("{seen} seen and {held} in the hand make {total} copies of"
                                     " {tile}; a set has only four", seen=seen[i], held=held[i],
                                     total=seen[i] + held[i], tile=format_tiles((t,))))
              for i, t in enumerate(PLAYING_TILES) if seen[i] and seen[i] + held[i] > 4]
    if errors:
        raise HandError(errors)
    return tuple(seen)


def read_discard_hand(params: Mapping[str, str]) -> Hand:
    """The hand before its discard: 14 tiles (a meld counting 3, the drawn tile among them)."""
    given = {k: v for k, v in params.items() if k != "win"}
    try:
        return parse_hand(given, complete=True)
    except HandError as err:
        raise HandError([FieldError(e.field, _before_discard(e.message))
                         for e in err.errors]) from None


# parse_hand's refusal of a winning hand's size, read back to say it of a hand about to discard
_WINNING_SIZE = re.compile(r"(?P<tiles>\d+) tiles? in the hand(?:; a winning hand needs 14|"
                           r" and (?P<melds>\d+) melds? make (?P<have>\d+); a winning hand needs 14"
                           r" \(each meld counts 3, a kong too\)(?:: with these melds, type"
                           r" (?P<typed>\d+) concealed tiles)?)")


def _before_discard(message: str) -> str:
    """A hand-size refusal said of a hand about to discard (13 tiles and the one drawn).

    >>> _before_discard("3 tiles in the hand; a winning hand needs 14")
    '3 tiles in the hand; a hand about to discard needs 14 (13 and the tile drawn)'
    """
    found = _WINNING_SIZE.fullmatch(message)
    if found is None:
        return message
    tiles = _tiles(int(found["tiles"]))
    if found["melds"] is None:
        return Msg("{tiles} in the hand; a hand about to discard needs 14 (13 and the tile drawn)",
                   tiles=tiles)
    melds, have = int(found["melds"]), int(found["have"])
    said = Msg("{tiles} in the hand and {melds} make {have}; a hand about to discard needs"
                   " 14 (13 and the tile drawn) (each meld counts 3, a kong too)", tiles=tiles,
                   melds=Msg("{n} meld", n=1) if melds == 1 else Msg("{n} melds", n=melds),
                   have=have)
    if found["typed"] is not None:
        said = Msg("{refusal}: with these melds, type {n} concealed tiles", refusal=said,
                   n=int(found["typed"]))
    return said


def _tiles(n: int) -> Msg:
    return Msg("{n} tile", n=n) if n == 1 else Msg("{n} tiles", n=n)


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


def calculate_discards(params: Mapping[str, str],
                       rulesets: Mapping[str, Ruleset] | None = None) -> DiscardResult:
    """Read a 14-tile hand and weigh every distinct discard, best first (see DISCARD_ORDER)."""
    ruleset = read_ruleset(params, rulesets)
    settings = read_settings(params, ruleset)
    hand = read_discard_hand(params)
    ctx = hand.context
    # the tiles must exist under these rules; holding the missing suit is allowed here
    check_tiles(replace(hand, context=replace(ctx, missing=None)), ruleset, settings)
    if ctx.missing and not ruleset.missing_suit:
        raise HandError.single("missing", Msg("{rules} has no declared missing suit",
                                              rules=plain(ruleset.name)))
    _check_table(params, ruleset, hand)
    seen = read_seen(params.get("seen", ""), hand, ruleset)
    table = Table(honours=ruleset.honours, missing=ctx.missing, seen=seen)
    rules = ruleset.shape_rules(settings.options)
    concealed = hand.concealed_counts
    melds = len(hand.melds)
    held = hand.counts
    options = discard_options(concealed, melds, rules, table, held)
    holds_missing = ctx.missing is not None and any(o.dead for o in options)
    choices = [_choice(o, hand, params, ruleset, settings, table, holds_missing, rulesets)
               for o in options]
    choices.sort(key=lambda c: (not c.must_go, c.rank, -c.option.left, -c.value, int(c.tile)))
    return DiscardResult(ruleset, settings, hand, table,
                         form_shanten(concealed, melds, rules, table).best, tuple(choices),
                         dict(params))


def _check_table(params: Mapping[str, str], ruleset: Ruleset, hand: Hand) -> None:
    """Refuse, once, a table /api/score refuses with the same fields: seats that disagree, a
    winner among `won`, `won` or `liable` where the family has no such thing."""
    seated, _ = read_seats(params)
    by = hand.context.by
    if not params.get("by", "").strip() and not params.get("discarder", "").strip():
        by = WinBy.SELF_DRAW   # not won yet: no discarder to assume (ruling 82)
    read_table(seated, ruleset, by, hand.context.events)
    liable = seated.get("liable", "").strip()
    if liable and not ruleset.liability:
        refuse(liability_errors(ruleset, by, None, liable, (), None))


def _choice(option: DiscardOption, hand: Hand, params: Mapping[str, str], ruleset: Ruleset,
            settings: Settings, table: Table, holds_missing: bool,
            rulesets: Mapping[str, Ruleset] | None) -> DiscardChoice:
    kept = list(hand.concealed)
    kept.remove(option.tile)
    after = replace(hand, concealed=tuple(kept), win=None)
    waits: tuple[PricedWait, ...] = ()
    if option.shanten == 0:
        waits = _priced_waits(after, option, params, table, rulesets)
        # a wait that can never reach the minimum is no improving tile (ruling 83)
        winning = {w.tile_code for w in waits if w.wins}
        option = replace(option, improving=tuple(i for i in option.improving
                                                 if i.tile.code in winning))
    must_go = holds_missing and option.dead
    return DiscardChoice(option, after, waits, must_go,
                         _reasons(option, waits, ruleset, settings, table, holds_missing, must_go))


def _priced_waits(after: Hand, option: DiscardOption, params: Mapping[str, str], table: Table,
                  rulesets: Mapping[str, Ruleset] | None) -> tuple[PricedWait, ...]:
    """Every wait of the kept 13 tiles, priced as /api/waits prices it, with copies unseen
    (neither held, nor seen, nor the discard itself)."""
    trial = {k: v for k, v in params.items() if k not in NOT_PRICED}
    trial["hand"] = canonical(after.concealed)
    priced = calculate_waits(trial, rulesets)
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
            drawn = [w.tile_code for w in winning if w.value.only_self_draw]
            if drawn:
                reasons.append(Msg("{tiles}: wins only by self-draw", tiles=", ".join(drawn)))
            never = [w.tile_code for w in waits if not w.wins]
            if never:
                reasons.append(Msg("{tiles}: never wins here, not counted among the improving"
                                   " tiles", tiles=", ".join(never)))
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
