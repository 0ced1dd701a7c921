"""What cannot happen at a real table under one family: the refusals of a combination of facts.

A calculator that prices impossible input gives a learner a confident wrong number. The facts
of play that hold in every family are in app/hands/events.py. What one family adds (a dealer's
concealed kong voids 天糊 in the course's table; players who already won exist only in a
blood battle) is that ruleset's `conditions:` section, described in rulesets/README.md, and
the checks below hold the seats, ticks and liability of a request against its ruleset.

Each refusal is a FieldError naming the field and saying the rule in plain words.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from app.base.errors import FieldError
from app.base.i18n import Msg, Text
from app.hands.events import (
    CLAIMED,
    DEALER,
    EVENT_RULES,
    EXCLUSIVE_EVENTS,
    MELD_WORDS,
    TILE_GROUPS,
    listed_melds,
)
from app.hands.hand import SEATS, Hand, WinBy
from app.hands.phrases import AND, OR, SEMICOLON, listing, plain
from app.hands.phrases import seat as seat_of

from .model import EventCondition, Liability, Ruleset
from .words import discard_words, way_of

# --- the table: who won, who discarded, who already won, who is liable ------------------


@lru_cache(maxsize=1024)
def table_errors(ruleset: Ruleset, winner: str, seat: str | None, by: WinBy,
                 discarder: str | None, won: tuple[str, ...], liable: str | None,
                 events: frozenset[str]) -> tuple[FieldError, ...]:
    """Refusals of the seats against each other, the events and the family's table."""
    errors: list[FieldError] = []
    if seat is not None and winner != seat:
        errors.append(FieldError("winner", Msg("winner {winner} and seat {seat} disagree; the"
                                               " winner sits in the seat",
                                               winner=seat_of(winner), seat=seat_of(seat))))
    if by is WinBy.DISCARD and discarder == winner:
        errors.append(FieldError("discarder", Msg("the winner cannot win on their own discard")))
    if by is WinBy.SELF_DRAW and discarder is not None:
        errors.append(FieldError("discarder", Msg("a self-drawn win has no discarder")))
    if won and not ruleset.conditions.won:
        errors.append(FieldError("won", Msg("{rules} ends the hand at the first win, so nobody"
                                            " has won already; players who won and play on"
                                            " (won=) belong to blood-battle rules such as"
                                            " Sichuan", rules=plain(ruleset.name))))
    for part in won:
        if part == winner:
            errors.append(FieldError("won", Msg("{seat} is the winner of this hand",
                                                seat=seat_of(part))))
        elif by is WinBy.DISCARD and part == discarder:
            errors.append(FieldError("won", Msg("{seat} discarded the winning tile, so has not"
                                                " won", seat=seat_of(part))))
    if len(set(won)) > 2:
        errors.append(FieldError("won", Msg("at most two other players can have won already")))
    if liable is not None and liable == winner:
        errors.append(FieldError("liable", Msg("the winner cannot be liable for their own hand")))
    for event in sorted(events & set(ruleset.events)):
        name = event_name(ruleset, event)
        if EVENT_RULES[event].first_go_around and won:
            errors.append(FieldError("won", Msg("{event} is won in the first go-around, before"
                                                " anyone could have won", event=name)))
        if (EVENT_RULES[event].dealer_discards and by is WinBy.DISCARD
                and discarder not in (None, DEALER)):
            errors.append(FieldError("discarder", Msg("{event}: the winning tile is the dealer's"
                                                      " first discard, so the discarder is E,"
                                                      " the dealer, not {seat}", event=name,
                                                      seat=seat_of(discarder))))
    return tuple(errors)


def default_discarder(ruleset: Ruleset, winner: str, events: frozenset[str],
                      liable: str | None) -> tuple[str, str]:
    """The discarder taken when none is given, and why (ruling 76, and each event's own)."""
    for event in sorted(events):
        if EVENT_RULES[event].dealer_discards:
            return DEALER, Msg("{event}: the winning tile is the dealer's first discard, so E,"
                               " the dealer", event=event_name(ruleset, event))
    if liable is not None and ruleset.liability and not any(r.self_draw for r in ruleset.liability):
        names = listing(r.name for r in ruleset.liability)
        return liable, Msg("the liable player is the one who discards the winning tile ({rules})",
                           rules=names)
    following = SEATS[(SEATS.index(winner) + 1) % 4]
    return following, Msg("no {discarder} given: the seat after the winner, {seat}",
                          discarder=discard_words(ruleset)["discarder"], seat=seat_of(following))


def event_name(ruleset: Ruleset, event: str) -> Text | str:
    """The family's own name for an event: `地糊 (Earthly hand)`; in Chinese, `地糊`."""
    spec = ruleset.events.get(event)
    if spec is None:
        return event
    name = spec.name
    return Text(f"{name.zh} ({name.en})" if name.zh else name.en, name.zh_hant, name.zh_hans)


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
        if condition.melds is not None:
            wrong = [m for m in hand.melds if m.kind not in condition.melds]
            if wrong:
                allowed = (listing((MELD_WORDS[k] for k in condition.melds), OR)
                           if condition.melds else Msg("no meld"))
                errors.append(FieldError("melds", _because(
                    condition, Msg("{event} in {rules} allows {allowed}; remove {melds}",
                                   event=name, rules=plain(ruleset.name), allowed=allowed,
                                   melds=listed_melds(wrong)),
                    Msg("{event} in {rules} allows {allowed} ({why}); remove {melds}",
                        event=name, rules=plain(ruleset.name), allowed=allowed,
                        why=condition.why, melds=listed_melds(wrong)))))
        for other in condition.not_with:
            if other in events:
                errors.append(FieldError("events", _cannot_both(ruleset, condition, event, other)))
    return errors


# --- tick-box mode: the ticked patterns stand for the events and the way of winning ----


def pattern_by(pattern) -> WinBy | None:
    """The way of winning a pattern needs: its `by` (its events' way when it has none, set at
    load time), or self-draw for the self-draw detector."""
    return pattern.by or (WinBy.SELF_DRAW if pattern.detect == "self_draw" else None)


def ticked_events(ruleset: Ruleset, ticks: Mapping[str, int]) -> frozenset[str]:
    """The events a tick-box request says happened: those of ticked one-event patterns."""
    return frozenset(ruleset.by_id[pid].events[0] for pid in ticks
                     if len(ruleset.by_id[pid].events) == 1)


def tick_errors(ruleset: Ruleset, ticks: Mapping[str, int], by: WinBy, by_given: bool,
                seat: str) -> list[FieldError]:
    """Refusals of ticked patterns that cannot happen together or with this seat and win."""
    errors: list[FieldError] = []
    apart = never_held_together(ruleset, ticks)
    if apart:
        errors.append(FieldError("ticks", Msg("no hand holds these patterns together: {pairs}",
                                              pairs=listing(apart, SEMICOLON))))
    needs = {pid: pattern_by(ruleset.by_id[pid]) for pid in ticks}
    ways = {way for way in needs.values() if way is not None}
    if len(ways) > 1:
        names = listing((Msg("{pattern} needs a {way} win", pattern=ruleset.by_id[pid].name,
                             way=way_of(ruleset, way))
                         for pid, way in needs.items() if way is not None), SEMICOLON)
        errors.append(FieldError("ticks", Msg("these patterns cannot all count on one win:"
                                              " {needs}", needs=names)))
    elif by_given:
        for pid, way in needs.items():
            if way is not None and way is not by:
                errors.append(FieldError("by", Msg("{event} needs a {way} win, not a {by}",
                                                   event=ruleset.by_id[pid].name,
                                                   way=way_of(ruleset, way),
                                                   by=way_of(ruleset, by))))
    events = ticked_events(ruleset, ticks)
    for event in sorted(events):
        rule = EVENT_RULES[event]
        name = event_name(ruleset, event)
        if rule.dealer is True and seat != DEALER:
            errors.append(FieldError("seat", Msg("{event} is the dealer's (East seat) win;"
                                                 " seat is {seat}", event=name,
                                                 seat=seat_of(seat))))
        if rule.dealer is False and seat == DEALER:
            errors.append(FieldError("seat", Msg("{event} is a non-dealer's win; seat is E,"
                                                 " the dealer", event=name)))
    for pair, why in EXCLUSIVE_EVENTS.items():
        if pair <= events:
            first, second = sorted(pair)
            errors.append(FieldError("ticks", Msg("{first} and {second} cannot both happen:"
                                                  " {why}", first=event_name(ruleset, first),
                                                  second=event_name(ruleset, second), why=why)))
    for event in sorted(events):
        condition = ruleset.conditions.events.get(event)
        for other in condition.not_with if condition else ():
            if other in events:
                errors.append(FieldError("ticks", _cannot_both(ruleset, condition, event, other)))
    return errors


def never_held_together(ruleset: Ruleset, ticks: Iterable[str]) -> list[Msg]:
    """Each pair of ticked patterns the ruleset's `never_together:` says no hand holds."""
    ticked = sorted(ticks, key=lambda pid: ruleset.by_id[pid].position)
    return [Msg("{first} and {second}", first=ruleset.by_id[a].name, second=ruleset.by_id[b].name)
            for k, a in enumerate(ticked) for b in ticked[k + 1:]
            if b in ruleset.never_together.get(a, ())]


def _because(condition, bare: Msg, with_why: Msg) -> Msg:
    """The refusal with the lesson's words in brackets when the ruleset gives them."""
    return with_why if condition.why else bare


def _cannot_both(ruleset: Ruleset, condition: EventCondition, event: str, other: str) -> Msg:
    first, second = event_name(ruleset, event), event_name(ruleset, other)
    return _because(condition,
                    Msg("{first} and {second} cannot both happen in {rules}", first=first,
                        second=second, rules=plain(ruleset.name)),
                    Msg("{first} and {second} cannot both happen in {rules} ({why})", first=first,
                        second=second, rules=plain(ruleset.name), why=condition.why))


# --- liability -------------------------------------------------------------------------


def liability_errors(ruleset: Ruleset, by: WinBy, discarder: str | None, liable: str,
                     counted: Iterable[str], hand: Hand | None) -> list[FieldError]:
    """Refuse a pinned player where no liability rule of the ruleset can apply to this win."""
    rules = ruleset.liability
    if not rules:
        return [FieldError("liable", Msg("{rules} has no liability rule (包牌)",
                                         rules=plain(ruleset.name)))]
    exposed = exposed_melds(hand)
    counted = set(counted)
    fits = [rule for rule in rules
            if (rule.pattern is None or rule.pattern in counted)
            and (exposed is None or exposed >= rule.exposed_melds)]
    if not fits:
        needs = listing((_liability_needs(ruleset, rule) for rule in rules), SEMICOLON)
        return [FieldError("liable", Msg("no liability rule applies to this hand: {needs}",
                                         needs=needs))]
    names = listing(rule.name for rule in fits)
    if by is WinBy.SELF_DRAW and not any(rule.self_draw for rule in fits):
        return [FieldError("liable", Msg("{rules} never applies to a self-draw win", rules=names))]
    if by is WinBy.DISCARD and not any(rule.discard for rule in fits):
        return [FieldError("liable", Msg("{rules} never applies to a discard win", rules=names))]
    if by is WinBy.DISCARD and liable != discarder and not any(rule.self_draw for rule in fits):
        return [FieldError("liable", Msg("{rules} pins the player who discards the winning tile:"
                                         " liable is {liable} but {discarder} discarded",
                                         rules=names, liable=seat_of(liable),
                                         discarder=seat_of(discarder)))]
    supplied = [rule for rule in fits if _could_supply(ruleset, rule, by, discarder, liable, hand)]
    if not supplied:
        why = listing((_supply_why(ruleset, r) for r in fits), SEMICOLON)
        return [FieldError("liable", Msg("nobody can have supplied the tile that pins {liable}"
                                         " here: {why}", liable=seat_of(liable), why=why))]
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


def _supply_why(ruleset: Ruleset, rule: Liability):
    condition = ruleset.conditions.liability.get(rule.id)
    if condition and condition.why:
        return Msg("{rule}: {why}", rule=rule.name, why=condition.why)
    return rule.name


def _liability_needs(ruleset: Ruleset, rule: Liability):
    parts: list = []
    if rule.pattern is not None:
        parts.append(ruleset.by_id[rule.pattern].name)
    if rule.exposed_melds:
        parts.append(Msg("{n} exposed melds (a concealed kong is not exposed)",
                         n=rule.exposed_melds))
    if not parts:
        return rule.name
    return Msg("{rule} needs {needs}", rule=rule.name, needs=listing(parts, AND))


def exposed_melds(hand: Hand | None) -> int | None:
    """How many melds the hand shows; None in tick-box and fan mode, where they are unknown."""
    return None if hand is None else sum(1 for m in hand.melds if not m.concealed)


