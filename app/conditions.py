"""What cannot happen at a real table: every refusal of a combination of facts, in one place.

A calculator that prices impossible input gives a learner a confident wrong number. The
facts of play that hold in every family (a kong-replacement win needs a declared kong; the
dealer cannot win an earthly hand) are the tables below. What one family adds (a dealer's
concealed kong voids 天糊 in the course's table; players who already won exist only in a
blood battle) is that ruleset's `conditions:` section, described in rulesets/README.md.

Each refusal is a FieldError naming the field and saying the rule in plain words.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from .errors import FieldError, HandError
from .hand import SEATS, Hand, Meld, MeldKind, WinBy, WinContext
from .i18n import NO_TEXT, Text
from .tiles import Tile

if TYPE_CHECKING:   # rulesets imports this module for the data classes below
    from .rulesets import Liability, Ruleset
    from .scoring import Score

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
EXCLUSIVE_EVENTS: dict[frozenset[str], str] = {
    frozenset(pair): why for pair, why in (
        (("heavenly-hand", "earthly-hand"), "the dealt hand and the dealer's first discard are"
                                            " two different moments"),
        (("heavenly-hand", "robbing-the-kong"), "the dealt hand is complete before anyone adds"
                                                " a kong"),
        (("heavenly-hand", "kong-cannon"), "the dealt hand is complete before anyone discards"),
        (("heavenly-hand", "last-tile"), "the dealt hand is not the last tile of the wall"),
        (("heavenly-hand", "last-discard"), "the dealt hand is not won on a discard"),
        (("earthly-hand", "robbing-the-kong"), "the dealer's first discard is not a kong being"
                                               " added"),
        (("earthly-hand", "kong-cannon"), "the dealer's first discard does not follow a kong"),
        (("earthly-hand", "last-tile"), "the dealer's first discard is not the last tile"),
        (("earthly-hand", "last-discard"), "the dealer's first discard is not the last discard"),
        (("robbing-the-kong", "kong-cannon"), "a robbed kong is not a discard made after a kong"),
        (("robbing-the-kong", "last-discard"), "a robbed kong is not a discard"),
        (("last-tile", "last-discard"), "the last tile of the wall and the discard after it are"
                                        " two different tiles"),
    )
}

CLAIMED = (MeldKind.CHOW, MeldKind.PONG, MeldKind.KONG, MeldKind.AKONG)   # made from a discard
MELD_WORDS = {MeldKind.CHOW: "a claimed chow", MeldKind.PONG: "a claimed pong",
              MeldKind.KONG: "an exposed kong", MeldKind.CKONG: "a concealed kong",
              MeldKind.AKONG: "an added kong"}
TILE_GROUPS = {"dragons": range(31, 34), "winds": range(27, 31)}


# --- a family's own conditions (the ruleset's `conditions:` section) --------------------


@dataclass(frozen=True, slots=True)
class EventCondition:
    """What one family adds to an event's conditions (rulesets/README.md, conditions)."""

    melds: tuple[MeldKind, ...] | None = None   # the meld kinds the hand may show; None: any
    not_with: tuple[str, ...] = ()              # events that cannot happen with it here
    why: Text = NO_TEXT                         # the lesson's words, shown with the refusal


@dataclass(frozen=True, slots=True)
class LiabilityCondition:
    """What one family adds to a liability rule: who can have supplied the tile."""

    supplied: str | None = None    # a tile group (dragons, winds): a claimed meld of it shows
    why: Text = NO_TEXT


@dataclass(frozen=True, slots=True)
class Conditions:
    """A family's own impossible combinations, as its YAML file states them."""

    won: bool = False      # players can have won already and play on (a blood battle)
    events: Mapping[str, EventCondition] = field(default_factory=dict)
    liability: Mapping[str, LiabilityCondition] = field(default_factory=dict)


NO_CONDITIONS = Conditions()


# --- the hand alone (every family) ------------------------------------------------------


def event_errors(context: WinContext, melds: tuple[Meld, ...], typed: tuple[Tile, ...],
                 win: Tile, names: Mapping[str, str] | None = None) -> list[FieldError]:
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
            errors.append(FieldError("events", f"{event} needs a {rule.by.value} win, not a"
                                               f" {context.by.value}"))
        if kongs < rule.kongs:
            errors.append(FieldError("events", f"{event} needs {rule.kongs} declared"
                                               f" kong{'s' if rule.kongs > 1 else ''};"
                                               f" the melds have {kongs}"))
        if rule.dealer is True and context.seat != DEALER:
            errors.append(FieldError("events", f"{event} is the dealer's (East seat) win;"
                                               f" seat is {context.seat}"))
        if rule.dealer is False and context.seat == DEALER:
            errors.append(FieldError("events", f"{event} is a non-dealer's win; seat is E,"
                                               " the dealer"))
        if rule.bonus_tiles and not (context.flowers or context.seasons):
            errors.append(FieldError("events", f"{event} needs a flower or season drawn;"
                                               " none are listed"))
        if rule.first_go_around:
            errors += _first_go_around_melds(event, rule, context, melds)
    for pair, why in EXCLUSIVE_EVENTS.items():
        if pair <= context.events:
            first, second = (names.get(e, e) for e in sorted(pair))
            errors.append(FieldError("events", f"{first} and {second} cannot both happen: {why}"))
    if "robbing-the-kong" in context.events:
        held = sum(1 for t in typed if t == win) + sum(
            1 for m in melds for t in m.tiles if t == win)
        if held > 1:
            errors.append(FieldError(
                "events", f"{names.get('robbing-the-kong', 'robbing-the-kong')}: the hand holds {held} copies of {win.code}, but the"
                          " robbed player held the other three"))
    return errors


def _first_go_around_melds(event: str, rule: EventRule, context: WinContext,
                           melds: tuple[Meld, ...]) -> list[FieldError]:
    """In the first go-around nothing was claimed; on the dealer's first discard, not even drawn."""
    if rule.dealer_discards and context.by is WinBy.DISCARD:
        shown = list(melds)
        why = "the winner has not had a turn yet, so shows no meld"
    else:
        shown = [m for m in melds if m.kind in CLAIMED]
        why = "nobody has discarded a tile to claim yet; only a concealed kong may be declared"
    if not shown:
        return []
    listed = ", ".join(f"{m.token} ({MELD_WORDS[m.kind]})" for m in shown)
    return [FieldError("melds", f"{event} is won in the first go-around: {why}; remove {listed}")]


# --- the table: who won, who discarded, who already won, who is liable ------------------


@lru_cache(maxsize=1024)
def table_errors(ruleset: Ruleset, winner: str, seat: str | None, by: WinBy,
                 discarder: str | None, won: tuple[str, ...], liable: str | None,
                 events: frozenset[str]) -> tuple[FieldError, ...]:
    """Refusals of the seats against each other, the events and the family's table."""
    errors: list[FieldError] = []
    if seat is not None and winner != seat:
        errors.append(FieldError("winner", f"winner {winner} and seat {seat} disagree; the winner"
                                           " sits in the seat"))
    if by is WinBy.DISCARD and discarder == winner:
        errors.append(FieldError("discarder", "the winner cannot win on their own discard"))
    if by is WinBy.SELF_DRAW and discarder is not None:
        errors.append(FieldError("discarder", "a self-drawn win has no discarder"))
    if won and not ruleset.conditions.won:
        errors.append(FieldError("won", f"{ruleset.name.en} ends the hand at the first win, so"
                                        " nobody has won already; players who won and play on"
                                        " (won=) belong to blood-battle rules such as Sichuan"))
    for part in won:
        if part == winner:
            errors.append(FieldError("won", f"{part} is the winner of this hand"))
        elif by is WinBy.DISCARD and part == discarder:
            errors.append(FieldError("won", f"{part} discarded the winning tile, so has not won"))
    if len(set(won)) > 2:
        errors.append(FieldError("won", "at most two other players can have won already"))
    if liable is not None and liable == winner:
        errors.append(FieldError("liable", "the winner cannot be liable for their own hand"))
    for event in sorted(events & set(ruleset.events)):
        name = event_name(ruleset, event)
        if EVENT_RULES[event].first_go_around and won:
            errors.append(FieldError("won", f"{name} is won in the first go-around, before"
                                            " anyone could have won"))
        if (EVENT_RULES[event].dealer_discards and by is WinBy.DISCARD
                and discarder not in (None, DEALER)):
            errors.append(FieldError("discarder", f"{name}: the winning tile is the dealer's first"
                                                  f" discard, so the discarder is E, the dealer,"
                                                  f" not {discarder}"))
    return tuple(errors)


def default_discarder(ruleset: Ruleset, winner: str, events: frozenset[str],
                      liable: str | None) -> tuple[str, str]:
    """The discarder taken when none is given, and why (ruling 76, and each event's own)."""
    for event in sorted(events):
        if EVENT_RULES[event].dealer_discards:
            return DEALER, (f"{event_name(ruleset, event)}: the winning tile is the dealer's first"
                            " discard, so E, the dealer")
    if liable is not None and ruleset.liability and not any(r.self_draw for r in ruleset.liability):
        names = ", ".join(str(r.name) for r in ruleset.liability)
        return liable, f"the liable player is the one who discards the winning tile ({names})"
    following = SEATS[(SEATS.index(winner) + 1) % 4]
    return following, f"no discarder given: the seat after the winner, {following}"


def event_name(ruleset: Ruleset, event: str) -> str:
    """The family's own name for an event: `地糊 (Earthly hand)`."""
    spec = ruleset.events.get(event)
    if spec is None:
        return event
    return f"{spec.name.zh} ({spec.name.en})" if spec.name.zh else spec.name.en


# --- the family's own conditions on the hand --------------------------------------------


def family_errors(ruleset: Ruleset, hand: Hand) -> list[FieldError]:
    """Refusals the ruleset's `conditions:` section states for this hand's events."""
    errors: list[FieldError] = []
    events = hand.context.events
    for event in sorted(events):
        condition = ruleset.conditions.events.get(event)
        if condition is None:
            continue
        name = event_name(ruleset, event)
        because = f" ({condition.why})" if condition.why else ""
        if condition.melds is not None:
            wrong = [m for m in hand.melds if m.kind not in condition.melds]
            if wrong:
                allowed = (" or ".join(MELD_WORDS[k] for k in condition.melds) if condition.melds
                           else "no meld")
                listed = ", ".join(f"{m.token} ({MELD_WORDS[m.kind]})" for m in wrong)
                errors.append(FieldError("melds", f"{name} in {ruleset.name.en} allows {allowed}"
                                                  f"{because}; remove {listed}"))
        for other in condition.not_with:
            if other in events:
                errors.append(FieldError("events", f"{name} and {event_name(ruleset, other)}"
                                                   f" cannot both happen in {ruleset.name.en}"
                                                   f"{because}"))
    return errors


# --- tick-box mode: the ticked patterns stand for the events and the way of winning ----


def pattern_by(pattern) -> WinBy | None:
    """The way of winning a pattern needs: its `by`, or self-draw for the self-draw detector."""
    return pattern.by or (WinBy.SELF_DRAW if pattern.detect == "self_draw" else None)


def ticked_events(ruleset: Ruleset, ticks: Mapping[str, int]) -> frozenset[str]:
    """The events a tick-box request says happened: those of ticked one-event patterns."""
    return frozenset(ruleset.by_id[pid].events[0] for pid in ticks
                     if len(ruleset.by_id[pid].events) == 1)


def tick_errors(ruleset: Ruleset, ticks: Mapping[str, int], by: WinBy, by_given: bool,
                seat: str) -> list[FieldError]:
    """Refusals of ticked patterns that cannot happen together or with this seat and win."""
    errors: list[FieldError] = []
    needs = {pid: pattern_by(ruleset.by_id[pid]) for pid in ticks}
    ways = {way for way in needs.values() if way is not None}
    if len(ways) > 1:
        names = "; ".join(f"{ruleset.by_id[pid].name} needs a {way.value} win"
                          for pid, way in needs.items() if way is not None)
        errors.append(FieldError("ticks", f"these patterns cannot all count on one win: {names}"))
    elif by_given:
        for pid, way in needs.items():
            if way is not None and way is not by:
                errors.append(FieldError("by", f"{ruleset.by_id[pid].name} needs a {way.value}"
                                               f" win, not a {by.value}"))
    events = ticked_events(ruleset, ticks)
    for event in sorted(events):
        rule = EVENT_RULES[event]
        name = event_name(ruleset, event)
        if rule.dealer is True and seat != DEALER:
            errors.append(FieldError("seat", f"{name} is the dealer's (East seat) win; seat is"
                                             f" {seat}"))
        if rule.dealer is False and seat == DEALER:
            errors.append(FieldError("seat", f"{name} is a non-dealer's win; seat is E, the"
                                             " dealer"))
    for pair, why in EXCLUSIVE_EVENTS.items():
        if pair <= events:
            first, second = sorted(pair)
            errors.append(FieldError("ticks", f"{event_name(ruleset, first)} and"
                                              f" {event_name(ruleset, second)} cannot both"
                                              f" happen: {why}"))
    for event in sorted(events):
        condition = ruleset.conditions.events.get(event)
        for other in condition.not_with if condition else ():
            if other in events:
                because = f" ({condition.why})" if condition.why else ""
                errors.append(FieldError("ticks", f"{event_name(ruleset, event)} and"
                                                  f" {event_name(ruleset, other)} cannot both"
                                                  f" happen in {ruleset.name.en}{because}"))
    return errors


# --- liability -------------------------------------------------------------------------


def liability_errors(ruleset: Ruleset, by: WinBy, discarder: str | None, liable: str,
                     result: Score, hand: Hand | None) -> list[FieldError]:
    """Refuse a pinned player where no liability rule of the ruleset can apply to this win."""
    rules = ruleset.liability
    if not rules:
        return [FieldError("liable", f"{ruleset.name.en} has no liability rule (包牌)")]
    exposed = exposed_melds(hand)
    counted = {i.pattern.id for i in result.counted}
    fits = [rule for rule in rules
            if (rule.pattern is None or rule.pattern in counted)
            and (exposed is None or exposed >= rule.exposed_melds)]
    if not fits:
        needs = "; ".join(_liability_needs(ruleset, rule) for rule in rules)
        return [FieldError("liable", f"no liability rule applies to this hand: {needs}")]
    if by is WinBy.SELF_DRAW and not any(rule.self_draw for rule in fits):
        names = ", ".join(str(rule.name) for rule in fits)
        return [FieldError("liable", f"{names} never applies to a self-draw win")]
    if by is WinBy.DISCARD and not any(rule.discard for rule in fits):
        names = ", ".join(str(rule.name) for rule in fits)
        return [FieldError("liable", f"{names} never applies to a discard win")]
    if by is WinBy.DISCARD and liable != discarder and not any(rule.self_draw for rule in fits):
        names = ", ".join(str(rule.name) for rule in fits)
        return [FieldError("liable", f"{names} pins the player who discards the winning tile:"
                                     f" liable is {liable} but {discarder} discarded")]
    supplied = [rule for rule in fits if _could_supply(ruleset, rule, by, discarder, liable, hand)]
    if not supplied:
        why = "; ".join(_supply_why(ruleset, r) for r in fits)
        return [FieldError("liable", f"nobody can have supplied the tile that pins {liable}"
                                     f" here: {why}")]
    return []


def _could_supply(ruleset: Ruleset, rule: Liability, by: WinBy, discarder: str | None,
                  liable: str, hand: Hand | None) -> bool:
    """Whether the hand shows a meld the liable player can have fed (the family's condition)."""
    condition = ruleset.conditions.liability.get(rule.id)
    if condition is None or condition.supplied is None or hand is None:
        return True
    group = TILE_GROUPS[condition.supplied]
    claimed = any(m.kind in CLAIMED and m.first in group for m in hand.melds)
    fed_the_win = by is WinBy.DISCARD and liable == discarder and hand.win in group
    return claimed or fed_the_win


def _supply_why(ruleset: Ruleset, rule: Liability) -> str:
    condition = ruleset.conditions.liability.get(rule.id)
    return f"{rule.name}: {condition.why}" if condition and condition.why else str(rule.name)


def _liability_needs(ruleset: Ruleset, rule: Liability) -> str:
    parts = []
    if rule.pattern is not None:
        parts.append(str(ruleset.by_id[rule.pattern].name))
    if rule.exposed_melds:
        parts.append(f"{rule.exposed_melds} exposed melds (a concealed kong is not exposed)")
    return f"{rule.name} needs " + " and ".join(parts) if parts else str(rule.name)


def exposed_melds(hand: Hand | None) -> int | None:
    """How many melds the hand shows; None in tick-box and fan mode, where they are unknown."""
    return None if hand is None else sum(1 for m in hand.melds if not m.concealed)


def refuse(errors: list[FieldError] | tuple[FieldError, ...]) -> None:
    """Raise the errors as one HandError, if there are any."""
    if errors:
        raise HandError(list(errors))
