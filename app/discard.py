"""What to discard: a 14-tile hand read from the public vocabulary, each discard weighed.

The efficiency core (app/efficiency.py) says how far each discard leaves the hand from ready
and which tiles improve it; here the rules and the money join in: the ruleset's forms,
honours and missing suit, and for each discard that leaves the hand ready, every wait
priced as /api/waits prices it (calculate_waits) under the request's dials.

Order, best first (DISCARD_ORDER says it in words):
1. Sichuan: while the hand holds its declared missing suit, discards of that suit first
   (the hand cannot win until the suit is gone);
2. fewer tiles from ready (shanten);
3. more improving tiles neither held nor seen;
4. more value in the waits: the sum over winning waits of copies left x what the winner
   collects;
5. tile order.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from .description import parse_hand
from .efficiency import DiscardOption, Table, counts_of, discard_options, form_shanten
from .errors import FieldError, HandError, NotationError
from .hand import Hand
from .payments import fmt
from .request import WaitValue, calculate_waits, read_ruleset, read_settings
from .rulesets import Amount, Ruleset
from .scoring import Settings, check_tiles
from .tiles import NUM_KINDS, PLAYING_TILES, canonical, format_tiles, parse_tiles

MAX_SEEN_LENGTH = 200   # characters: a whole table's discards fit
DISCARD_ORDER = ("the missing suit first while it is held (Sichuan), then fewer tiles from"
                 " ready, then more improving tiles left unseen, then more value in the waits"
                 " (copies left x what the winner collects)")
SUIT_NAMES = {"m": "characters", "p": "dots", "s": "bamboo"}
# Request fields the waits' pricing must not see: its own winning tile replaces `win`, and
# tick-box or fan-total modes would price something other than the tiles.
NOT_PRICED = ("win", "seen", "ticks", "fan")
FORM_NAMES = {"standard": "sets and a pair", "seven-pairs": "seven pairs",
              "thirteen-orphans": "thirteen orphans"}


@dataclass(frozen=True, slots=True)
class PricedWait:
    """A tile the hand would wait on after a discard, and what winning on it is worth."""

    tile_code: str
    left: int                 # copies neither held nor seen
    value: WaitValue          # the waits pricing: its calculation, or why the rules refuse

    @property
    def wins(self) -> bool:
        calc = self.value.calculation
        return calc is not None and not calc.score.below_minimum

    @property
    def collects(self) -> Amount:
        """What the winner collects on this tile (0 when it cannot win)."""
        calc = self.value.calculation
        if calc is None or calc.score.below_minimum:
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
        """Ready and some wait wins under the rules and dials (meets the minimum)."""
        return self.ready and any(w.wins for w in self.waits)

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
        raise HandError.single("seen", f"{len(text)} characters is too long (at most"
                                       f" {MAX_SEEN_LENGTH})")
    try:
        tiles = parse_tiles(text)
    except NotationError as err:
        raise HandError.single("seen", str(err)) from None
    bonus = [t.code for t in tiles if t.is_bonus]
    if bonus:
        raise HandError.single("seen", f"{' '.join(bonus)}: flowers and seasons are not"
                                       " discarded; list only suited and honour tiles")
    if not ruleset.honours and any(t.is_honour for t in tiles):
        raise HandError.single("seen", f"{ruleset.name.en} is played without honours")
    seen = counts_of(tiles)
    held = hand.counts
    errors = [FieldError("seen", f"{seen[i]} seen and {held[i]} in the hand make"
                                 f" {seen[i] + held[i]} copies of {format_tiles((t,))};"
                                 " a set has only four")
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
        raise HandError([FieldError(e.field, e.message.replace(
            "a winning hand needs 14", "a hand about to discard needs 14 (13 and the tile drawn)"))
            for e in err.errors]) from None


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
        raise HandError.single("missing", f"{ruleset.name.en} has no declared missing suit")
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
    choices.sort(key=lambda c: (not c.must_go, c.option.shanten, -c.option.left, -c.value,
                                int(c.tile)))
    return DiscardResult(ruleset, settings, hand, table,
                         form_shanten(concealed, melds, rules, table).best, tuple(choices),
                         dict(params))


def _choice(option: DiscardOption, hand: Hand, params: Mapping[str, str], ruleset: Ruleset,
            settings: Settings, table: Table, holds_missing: bool,
            rulesets: Mapping[str, Ruleset] | None) -> DiscardChoice:
    kept = list(hand.concealed)
    kept.remove(option.tile)
    after = replace(hand, concealed=tuple(kept), win=None)
    waits: tuple[PricedWait, ...] = ()
    if option.shanten == 0:
        waits = _priced_waits(after, option, params, table, rulesets)
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
        reasons.append(f"a tile of the declared missing suit ({SUIT_NAMES[table.missing]}):"
                       " it must go before the hand can win")
    elif holds_missing and table.missing is not None:
        reasons.append(f"keeps a tile of the missing suit ({SUIT_NAMES[table.missing]}):"
                       " the hand cannot win while it holds one")
    forms = " or ".join(FORM_NAMES[f] for f in option.forms)
    if option.shanten == 0:
        reasons.append(f"ready ({forms})")
    elif option.shanten > 0:
        reasons.append(f"{option.shanten} tile{'s' if option.shanten != 1 else ''} from ready"
                       f" ({forms})")
    kinds = len(option.improving)
    reasons.append(f"{option.left} improving tile{'s' if option.left != 1 else ''} left"
                   f" in {kinds} kind{'s' if kinds != 1 else ''}")
    if option.shanten == 0:
        winning = [w for w in waits if w.wins]
        if not waits:
            reasons.append("ready in shape, but every tile that completes it is already"
                           " in the hand")
        elif not winning:
            if any(w.value.calculation is not None for w in waits):
                reasons.append(f"ready, but cannot win: every wait is below the minimum of"
                               f" {settings.min} fan")
            else:
                reasons.append("ready, but cannot win: " + waits[0].value.refusal)
        else:
            value = sum((w.left * w.collects for w in winning), Fraction(0))
            reasons.append(f"the waits are worth {fmt(value)} (copies left x what the"
                           " winner collects)")
    return tuple(reasons)
