"""Facts about the moment of winning that hold in every family: what each event needs of the
rest of the hand (a kong-replacement win needs a declared kong; the dealer cannot win an earthly
hand), which events exclude each other, and the refusals of a hand description that breaks them.

A ruleset lists which of these events it prices and under what name; what one family adds is
its `conditions:` section (app/rules/conditions.py applies it).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.base.errors import FieldError
from app.base.i18n import Msg, Text

from .hand import Meld, MeldKind, WinBy, WinContext
from .phrases import WAY, listing, tile_said
from .phrases import seat as seat_of
from .tiles import Tile

DEALER = "E"   # the dealer sits East (ruling 76: seat and round default to E)


@dataclass(frozen=True, slots=True)
class EventRule:
    """What a win-moment event needs of the rest of the hand description, in every family."""

    by: WinBy | None = None
    kongs: int = 0
    dealer: bool | None = None        # True: the dealer's win only; False: never the dealer's
    bonus_tiles: bool = False
    first_go_around: bool = False     # before anyone's turn: nothing claimed, nobody has won
    dealer_discards: bool = False     # won on a discard, that discard is the dealer's


# Facts about the moment of winning, shared by every rule family; a ruleset lists
# which of them it prices and under what name.
EVENT_RULES: dict[str, EventRule] = {
    "kong-replacement": EventRule(by=WinBy.SELF_DRAW, kongs=1),     # 杠上花 / 槓上開花
    "kong-on-kong": EventRule(by=WinBy.SELF_DRAW, kongs=2),         # 槓上槓
    "flower-replacement": EventRule(by=WinBy.SELF_DRAW, bonus_tiles=True),
    "robbing-the-kong": EventRule(by=WinBy.DISCARD),                # 抢杠胡 / 搶槓
    "kong-cannon": EventRule(by=WinBy.DISCARD),                     # 杠上炮, shooting after kong
    "last-tile": EventRule(),                                       # 海底 (SC: draw or discard)
    "last-discard": EventRule(by=WinBy.DISCARD),                    # 河底撈魚
    "heavenly-hand": EventRule(by=WinBy.SELF_DRAW, dealer=True,     # 天糊
                               first_go_around=True),
    "earthly-hand": EventRule(dealer=False, first_go_around=True,   # 地糊
                              dealer_discards=True),
}


# Pairs of events that cannot both describe one winning tile, in every family, and why.
EXCLUSIVE_EVENTS: dict[frozenset[str], Msg] = {
    frozenset(pair): why for pair, why in (
        (("heavenly-hand", "earthly-hand"), Msg("the dealt hand and the dealer's first discard"
                                                " are two different moments")),
        (("heavenly-hand", "robbing-the-kong"), Msg("the dealt hand is complete before anyone"
                                                    " adds a kong")),
        (("heavenly-hand", "kong-cannon"), Msg("the dealt hand is complete before anyone"
                                               " discards")),
        (("heavenly-hand", "last-tile"), Msg("the dealt hand is not the last tile of the wall")),
        (("heavenly-hand", "last-discard"), Msg("the dealt hand is not won on a discard")),
        (("earthly-hand", "robbing-the-kong"), Msg("the dealer's first discard is not a kong"
                                                   " being added")),
        (("earthly-hand", "kong-cannon"), Msg("the dealer's first discard does not follow a"
                                              " kong")),
        (("earthly-hand", "last-tile"), Msg("the dealer's first discard is not the last tile")),
        (("earthly-hand", "last-discard"), Msg("the dealer's first discard is not the last"
                                               " discard")),
        (("robbing-the-kong", "kong-cannon"), Msg("a robbed kong is not a discard made after a"
                                                  " kong")),
        (("robbing-the-kong", "last-discard"), Msg("a robbed kong is not a discard")),
        (("last-tile", "last-discard"), Msg("the last tile of the wall and the discard after it"
                                            " are two different tiles")),
    )
}


CLAIMED = (MeldKind.CHOW, MeldKind.PONG, MeldKind.KONG, MeldKind.AKONG)   # made from a discard


MELD_WORDS = {MeldKind.CHOW: Msg("a claimed chow"), MeldKind.PONG: Msg("a claimed pong"),
              MeldKind.KONG: Msg("an exposed kong"), MeldKind.CKONG: Msg("a concealed kong"),
              MeldKind.AKONG: Msg("an added kong")}


TILE_GROUPS = {"dragons": range(31, 34), "winds": range(27, 31)}


def event_errors(context: WinContext, melds: tuple[Meld, ...], typed: tuple[Tile, ...],
                 win: Tile, names: Mapping[str, Text | str] | None = None) -> list[FieldError]:
    """Refusals of the hand's events that hold in every family (parse_hand reports them).

    names: the family's name for each event id, for the messages (the id when absent).
    """
    errors: list[FieldError] = []
    names = names or {}
    kongs = sum(1 for m in melds if m.is_kong)
    for event_id in sorted(context.events):
        rule = EVENT_RULES[event_id]
        event = names.get(event_id, event_id)
        if rule.by is not None and context.by is not rule.by:
            errors.append(FieldError("events", Msg("{event} needs a {way} win, not a {by}",
                                                   event=event, way=WAY[rule.by],
                                                   by=WAY[context.by])))
        if kongs < rule.kongs:
            errors.append(FieldError("events", _needs_kongs(event, rule.kongs, kongs)))
        if rule.dealer is True and context.seat != DEALER:
            errors.append(FieldError("events", Msg("{event} is the dealer's (East seat) win;"
                                                   " seat is {seat}", event=event,
                                                   seat=seat_of(context.seat))))
        if rule.dealer is False and context.seat == DEALER:
            errors.append(FieldError("events", Msg("{event} is a non-dealer's win; seat is E,"
                                                   " the dealer", event=event)))
        if rule.bonus_tiles and not (context.flowers or context.seasons):
            errors.append(FieldError("events", Msg("{event} needs a flower or season drawn;"
                                                   " none are listed", event=event)))
        if rule.first_go_around:
            errors += _first_go_around_melds(event, rule, context, melds)
    for pair, why in EXCLUSIVE_EVENTS.items():
        if pair <= context.events:
            first, second = (names.get(e, e) for e in sorted(pair))
            errors.append(FieldError("events", Msg("{first} and {second} cannot both happen:"
                                                   " {why}", first=first, second=second, why=why)))
    if "robbing-the-kong" in context.events:
        held = sum(1 for t in typed if t == win) + sum(
            1 for m in melds for t in m.tiles if t == win)
        if held > 1:
            errors.append(FieldError(
                "events", Msg("{event}: the hand holds {held} copies of {tile}, but the robbed"
                              " player held the other three",
                              event=names.get("robbing-the-kong", "robbing-the-kong"),
                              held=held, tile=tile_said(win))))
    return errors


def _needs_kongs(event: str, needed: int, kongs: int) -> Msg:
    if needed > 1:
        return Msg("{event} needs {needed} declared kongs; the melds have {kongs}", event=event,
                   needed=needed, kongs=kongs)
    return Msg("{event} needs {needed} declared kong; the melds have {kongs}", event=event,
               needed=needed, kongs=kongs)


def _first_go_around_melds(event: str, rule: EventRule, context: WinContext,
                           melds: tuple[Meld, ...]) -> list[FieldError]:
    """In the first go-around nothing was claimed; on the dealer's first discard, not even drawn."""
    if rule.dealer_discards and context.by is WinBy.DISCARD:
        shown = list(melds)
        why = Msg("the winner has not had a turn yet, so shows no meld")
    else:
        shown = [m for m in melds if m.kind in CLAIMED]
        why = Msg("nobody has discarded a tile to claim yet; only a concealed kong may be"
                  " declared")
    if not shown:
        return []
    return [FieldError("melds", Msg("{event} is won in the first go-around: {why}; remove"
                                    " {melds}", event=event, why=why, melds=listed_melds(shown)))]


def listed_melds(melds) -> Msg | str:
    """`12m (a claimed chow), 555z (a claimed pong)`."""
    return listing(Msg("{meld} ({kind})", meld=m.token, kind=MELD_WORDS[m.kind]) for m in melds)
