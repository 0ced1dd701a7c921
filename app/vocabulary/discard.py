"""A discard request in the public vocabulary (`hand=` 14 tiles, `seen=`, `draws=`, `outlook=`)
read into values for app/advice: the hand before its discard, the tiles seen, the waits' request.

>>> result = calculate_discards({"hand": "123m456m789m234p55s"})
>>> result.choices[0].tile.code, result.choices[0].ready
('1m', True)
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from app.advice.discard import DiscardResult, weigh_discards
from app.advice.outlook import DEFAULT_DRAWS, MAX_DRAWS
from app.base.errors import FieldError, HandError, NotationError, message_of, refuse
from app.base.i18n import Msg
from app.hands.efficiency import counts_of
from app.hands.hand import Hand, WinBy
from app.hands.phrases import plain, tile_said
from app.hands.tiles import NUM_KINDS, PLAYING_TILES, parse_tiles
from app.practice.discard_practice import QUESTION_FIELDS, DiscardDeal
from app.rules.conditions import liability_errors
from app.rules.model import Ruleset
from app.scoring.calculation import Ask, seated_table
from app.scoring.selection import check_tiles

from .hand import _read_context, parse_hand
from .request import read_ruleset, read_seats, read_settings, read_table

MAX_SEEN_LENGTH = 200   # characters: a whole table's discards fit


def calculate_discards(params: Mapping[str, str],
                       rulesets: Mapping[str, Ruleset] | None = None) -> DiscardResult:
    """Read a 14-tile hand and weigh every distinct discard, best first (app/advice/discard.py)."""
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
    return replace(weigh_discards(hand, seen, _waits_ask(params, ruleset, settings, hand)),
                   params=dict(params))


def _waits_ask(params: Mapping[str, str], ruleset: Ruleset, settings, hand: Hand) -> Ask:
    """The request each kept 13 tiles' waits are priced under: the seats agreed, the way of
    winning as asked (/api/waits with the same fields but `win`, `seen`, `ticks` and `fan`)."""
    agreed, assumed = read_seats(params)
    context = _read_context([], agreed) or hand.context   # read once already: it reads
    return Ask(ruleset, settings, hand=Hand((), context=context), seats=read_table(agreed),
               by_given=bool(params.get("by", "").strip()),
               round_given=bool(params.get("round", "").strip()), assumed=assumed)


def read_draws(params: Mapping[str, str]) -> int:
    """The `draws` field: the draws the player has left (default DEFAULT_DRAWS).

    >>> read_draws({}), read_draws({"draws": "5"})
    (18, 5)
    """
    raw = params.get("draws", "").strip()
    if not raw:
        return DEFAULT_DRAWS
    if not raw.isdecimal() or not 1 <= int(raw[:3]) <= MAX_DRAWS or len(raw) > 3:
        raise HandError.single("draws", Msg("'{raw}' is not a number of draws from 1 to {most}",
                                            raw=raw[:20], most=MAX_DRAWS))
    return int(raw)


def wanted(params: Mapping[str, str]) -> bool:
    """Whether the request asks for the outlook (`outlook=1`)."""
    return params.get("outlook", "").strip() in ("1", "on", "yes", "true")


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
                                     total=seen[i] + held[i], tile=tile_said(t)))
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


def _check_table(params: Mapping[str, str], ruleset: Ruleset, hand: Hand) -> None:
    """Refuse, once, a table /api/score refuses with the same fields: seats that disagree, a
    winner among `won`, `won` or `liable` where the family has no such thing."""
    seated, _ = read_seats(params)
    by = hand.context.by
    if not params.get("by", "").strip() and not params.get("discarder", "").strip():
        by = WinBy.SELF_DRAW   # not won yet: no discarder to assume (ruling 82)
    seats = read_table(seated)
    refuse(seats.errors)
    seated_table(ruleset, seats, by, hand.context.events)
    liable = seated.get("liable", "").strip()
    if liable and not ruleset.liability:
        refuse(liability_errors(ruleset, by, None, liable, (), None))




def question(ruleset: Ruleset, params: Mapping[str, str]) -> DiscardDeal:
    """A teacher's hand as a question; HandError (by field) when it is no 14-tile hand to play."""
    asked = {"rules": ruleset.id, **{k: params[k].strip() for k in QUESTION_FIELDS
                                     if params.get(k, "").strip()}}
    if "hand" not in asked:
        raise HandError.single("hand", Msg("give the 14 tiles of the question"))
    analysis = calculate_discards(asked, {ruleset.id: ruleset})
    if analysis.shanten < 0:
        raise HandError.single("hand", Msg("{hand} is already a winning hand: nothing to ask",
                                           hand=asked["hand"][:60]))
    return DiscardDeal(ruleset, "", 1, asked, analysis)
