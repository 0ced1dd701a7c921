"""Price a score request given as values: ruleset, dials, table, and tiles, ticks or a fan total.

The public vocabulary (a query's `hand=`, `ticks=`, `seat=` …) is read into an `Ask` in
app/vocabulary/request.py; the round settlement, the sheet, the outlook and the practice build
theirs from values. `calculate` checks what only the rules can refuse and prices the win.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple

from app.base.errors import FieldError, HandError, refuse
from app.base.i18n import Msg, Name
from app.hands.events import event_errors
from app.hands.hand import Hand, Meld, WinBy, WinContext
from app.hands.phrases import SEMICOLON, listing
from app.hands.phrases import seat as said_seat
from app.hands.readings import meld_group, readings_of, waits
from app.hands.tiles import TILES, Tile, tiles_of
from app.rules.conditions import (
    default_discarder,
    event_name,
    exposed_melds,
    family_errors,
    liability_errors,
    table_errors,
    tick_errors,
    ticked_events,
)
from app.rules.model import Ruleset
from app.rules.words import way_of

from .budget import charge, charger
from .payments import Payment, Table, settle
from .selection import (
    Pricing,
    Score,
    Settings,
    barred_kinds,
    check_tiles,
    context_plan,
    price,
    price_readings,
    pricing,
    score,
    score_fan,
    score_ticks,
    win_tests,
)
from .witness import TickContext, tick_facts


class Calculation(NamedTuple):
    """What was asked and what came out (a NamedTuple, made quickly for every request)."""

    ruleset: Ruleset
    settings: Settings
    table: Table
    hand: Hand | None
    ticks: Mapping[str, int] | None
    score: Score
    payments: tuple[Payment, ...]
    assumed: tuple[Assumption, ...] = ()    # what the request left out and was filled in
    inferred: tuple[Msg, ...] = ()          # what ticks were read to imply (rulings 86, 87)
    witnesses: tuple[Hand, ...] = ()        # hands the ticks describe (tick_witness)
    tick_context: TickContext | None = None  # of ticks: the context they were read in

    @property
    def defaulted_discarder(self) -> bool:
        return any(a.field == "discarder" for a in self.assumed)


@dataclass(frozen=True, slots=True)
class Assumption:
    """A value the calculator filled in because the request left it out (ruling 76)."""

    field: str
    value: str
    reason: str


@dataclass(frozen=True, slots=True)
class Seats:
    """Who sits where at the win, as asked: each a seat E S W N, or None when not given.

    `errors` holds what was wrong with the seats as written: `calculate` reports it where the
    table is checked, after the hand's or the ticks' own refusals.
    """

    seat: str | None = None
    winner: str | None = None
    discarder: str | None = None
    won: tuple[str, ...] = ()
    liable: str | None = None
    errors: tuple[FieldError, ...] = ()


NO_SEATS = Seats()


def agreed_seats(seat: str | None, winner: str | None) -> tuple[str, str, tuple[Assumption, ...]]:
    """The winner's seat and the winner made to agree: the one not given (None) follows the
    other, East when neither is given; what was taken, said as assumptions (ruling 76)."""
    if seat is None and winner is None:
        return "E", "E", (Assumption("seat", "E", Msg("no seat given: the winner is taken to"
                                                      " sit East, the dealer")),
                          Assumption("winner", "E", Msg("the player in the winner's seat")))
    if seat is None:
        return winner, winner, (Assumption("seat", winner, Msg(
            "the winner's own seat, {seat}: the seat wind and own flower are theirs",
            seat=said_seat(winner))),)
    if winner is None:
        return seat, seat, (Assumption("winner", seat, Msg("the player in the winner's seat")),)
    return seat, winner, ()


@dataclass(frozen=True, slots=True)
class Ask:
    """One score request as values: the tiles (`hand`), tick boxes (`ticks`) or a fan total
    (`fan`), exactly one of them, under a ruleset and its dials, at a table.

    `by` is the way of winning of ticks or a fan total (a hand carries its own); `by_given` and
    `round_given` say whether the request named them (else an Assumption says what was taken);
    `seat_text` is the seat as written, which a refusal of ticked patterns quotes.
    """

    ruleset: Ruleset
    settings: Settings
    hand: Hand | None = None
    ticks: Mapping[str, int] | None = None
    fan: int | None = None
    seats: Seats = NO_SEATS
    by: WinBy = WinBy.DISCARD
    by_given: bool = False
    round_given: bool = False
    seat_text: str = "E"
    assumed: tuple[Assumption, ...] = ()   # what reading the request filled in (the seats)
    round: str | None = None               # of ticks: the round, bonus tiles, when given
    flowers: tuple[int, ...] | None = None
    seasons: tuple[int, ...] | None = None


def calculate(ask: Ask) -> Calculation:
    """Price a request: one scoring of the request's budget (budget.py)."""
    charge(1, ask.ruleset)
    return price_ask(ask)


def price_ask(ask: Ask) -> Calculation:
    """calculate, for a caller that has counted the scoring already."""
    if ask.hand is not None and not ask.seats.errors:
        frame = _cached_frame(ask.ruleset, ask.settings, ask.hand.context, ask.seats,
                              ask.assumed, ask.by_given, ask.round_given)
        if frame is not None:
            return price_hand(frame, ask.hand)
    return _calculate_in_full(ask)


def pricer(ask: Ask) -> Callable[[Hand], Calculation]:
    """calculate for many hands asked alike: `ask` with its hand replaced by each, one scoring
    each; what holds for any tiles in the ask's context is checked once."""
    hand = ask.hand
    found = None if hand is None or ask.seats.errors else _cached_frame(
        ask.ruleset, ask.settings, hand.context, ask.seats, ask.assumed, ask.by_given,
        ask.round_given)

    def priced(hand: Hand) -> Calculation:
        charge(1, ask.ruleset)
        if found is not None and (hand.context is found.context or hand.context == found.context):
            return price_hand(found, hand)
        return price_ask(replace(ask, hand=hand))
    return priced


class Frame(NamedTuple):
    """What a hand request settles around its tiles: the same for every hand asked with the
    same ruleset, dials, context and seats (see frame)."""

    ruleset: Ruleset
    settings: Settings
    context: WinContext
    pricing: Pricing    # its plan made for this context (context_plan)
    check_tiles: bool   # the tiles can be refused: no honours, a missing suit, no claimed chows
    table: Table
    assumed: tuple[Assumption, ...]
    taken: str | None
    rows: dict[int, tuple[Payment, ...]]   # the payments by total fan, filled on first sight


def frame(ruleset: Ruleset, settings: Settings, context: WinContext, seats: Seats = NO_SEATS,
          assumed: tuple[Assumption, ...] = (), by_given: bool = True, round_given: bool = True
          ) -> Frame | None:
    """Check what holds for any tiles in this context; None when something is refused or
    needs the hand's own check (a liable player), for calculate to word in its own order."""
    try:
        check_tiles(Hand((), context=context), ruleset, settings)   # what holds for any tiles
        if not round_given:
            assumed += (_EAST_ROUND,)
        if not by_given:
            assumed += (_by_assumed(ruleset, context.by),)
        if seats.errors:
            return None
        table, table_assumed = seated_table(ruleset, seats, context.by, context.events)
    except HandError:
        return None
    if table.liable is not None:
        return None
    taken = next((a.reason for a in table_assumed if a.field == "discarder"), None)
    how = pricing(ruleset, settings, context.events, context.by)
    # its hands are won in this one context: what reads the context alone is found once
    how = how._replace(plan=context_plan(ruleset, context))
    return Frame(ruleset, settings, context, how,
                 not ruleset.honours or bool(context.missing) or not ruleset.claimed_chows,
                 table, assumed + table_assumed, taken, {})


# Requests share a few dozen frames, so each is checked once.
_cached_frame = lru_cache(maxsize=256)(frame)


def price_hand(frame: Frame, hand: Hand) -> Calculation:
    """Price a hand in the frame's context (uncounted: the caller charges the budget)."""
    ruleset = frame.ruleset
    if hand.context.events:
        _refuse_events(ruleset, hand)
    if frame.check_tiles:
        check_tiles(hand, ruleset, frame.settings)
    result = price(hand, frame.pricing)
    payments = frame.rows.get(result.total_fan)
    if payments is None:
        payments = _settled(frame, result)
    # made as a plain tuple: the hottest line of a scoring, a quarter of a microsecond less than
    # Calculation(...) (its __new__ takes keywords), measured by tests/bench/bench_scoring.py
    return tuple.__new__(Calculation, (ruleset, frame.settings, frame.table, hand, None, result,
                                       payments, frame.assumed, (), (), None))


def _settled(frame: Frame, result: Score) -> tuple[Payment, ...]:
    """The payments of a total the frame has not settled yet, kept by the total."""
    payments = settle(result, frame.table, None, frame.taken)
    if len(frame.rows) < 256:
        frame.rows[result.total_fan] = payments
    return payments


# a priced hand of counts_pricer's: its Score and payments, and whether they hold for every
# winning tile of its counts
Priced = tuple[Score, tuple[Payment, ...], bool]


def counts_pricer(ask: Ask, melds: tuple[Meld, ...] = ()
                  ) -> Callable[[bytes, int], Priced | None]:
    """pricer for many hands given as values, where a refusal needs no words (the outlook's).

    Each hand is the 34 counts of its concealed tiles (the winning tile among them, as bytes)
    and the winning tile's kind, with `melds`, in the context of `ask.hand`; each is one
    scoring. The answer is the Score and the payments `calculate` would give, and whether every
    winning tile of these counts is priced alike (no detector of the plan that may read the
    winning tile could on these readings: selection.win_tests), or None where it would refuse
    the hand. The same readings (readings_of), selection (price_readings) and
    payments (the frame's rows) decide as in price_hand; what only a Calculation or a refusal
    needs (the Hand, its tiles, the words) is not made. A request whose checks depend on the
    tiles in other ways (events, a liable player) is priced through calculate itself.
    """
    hand = ask.hand
    assert hand is not None
    ruleset, context = ask.ruleset, hand.context
    found = None if ask.seats.errors or context.events else _cached_frame(
        ruleset, ask.settings, context, ask.seats, ask.assumed, ask.by_given, ask.round_given)
    if found is None:
        return _through_calculate(ask, melds)
    try:   # what holds for every hand with these melds: the melds' tiles are in each
        if found.check_tiles:
            check_tiles(Hand((), melds, None, context), ruleset, ask.settings)
    except HandError:
        return _refused(ruleset)
    how, rows, groups = found.pricing, found.rows, tuple(map(meld_group, melds))
    rules, charge_one, tests = how.rules, charger(ruleset), win_tests(ruleset, context)
    # the kinds check_tiles refuses among the concealed tiles, as runs of kinds (lo, hi)
    barred = tuple((min(kinds), max(kinds) + 1) for kinds in (
        barred_kinds(ruleset, context.missing) if found.check_tiles else ()) if kinds)

    def priced(counts: bytes, kind: int) -> Priced | None:
        charge_one()
        for lo, hi in barred:
            if any(counts[lo:hi]):
                return None
        read = readings_of(counts, TILES[kind], groups, rules)
        if not read:
            return None
        try:
            result = price_readings(read, context, how)
        except HandError:
            return None
        payments = rows.get(result.total_fan)
        any_win = True   # unless a detector of the plan may read the winning tile on a reading
        for test in tests:
            for reading in read:
                if test(reading, context):
                    any_win = False
        return result, _settled(found, result) if payments is None else payments, any_win
    return priced


def _through_calculate(ask: Ask, melds: tuple[Meld, ...]
                       ) -> Callable[[bytes, int], Priced | None]:
    """counts_pricer for a request whose checks need the Hand: each hand through calculate."""
    calculate_one = pricer(ask)
    context = ask.hand.context if ask.hand is not None else WinContext()

    def priced(counts: bytes, kind: int) -> Priced | None:
        try:
            calc = calculate_one(Hand(tiles_of(counts), melds, TILES[kind], context))
        except HandError:
            return None
        return calc.score, calc.payments, False
    return priced


def _refused(ruleset: Ruleset) -> Callable[[bytes, int], None]:
    """counts_pricer when every hand is refused: each still one scoring."""
    def priced(counts: bytes, kind: int) -> None:
        charge(1, ruleset)
    return priced


def _calculate_in_full(ask: Ask) -> Calculation:
    """calculate for any request: each check made and worded in turn."""
    ruleset, settings, hand, ticks = ask.ruleset, ask.settings, ask.hand, ask.ticks
    assumed = ask.assumed
    inferred: tuple[Msg, ...] = ()
    witnesses: tuple[Hand, ...] = ()
    context = None
    if ticks is not None:
        by = ask.by
        refuse(tick_errors(ruleset, ticks, by, ask.by_given, ask.seat_text))
        result, inferred, witnesses, context = price_ticks(ask)
    elif hand is None:
        by = ask.by
        result = score_fan(ask.fan or 0, ruleset, settings)
    else:
        by = hand.context.by
        if hand.context.events:
            _refuse_events(ruleset, hand)
        result = score(hand, ruleset, settings)
        if not ask.round_given:
            assumed += (_EAST_ROUND,)
    if not ask.by_given:
        assumed += (_by_assumed(ruleset, by),)
    events = (hand.context.events if hand is not None else
              ticked_events(ruleset, ticks) if ticks is not None else frozenset())
    refuse(ask.seats.errors)
    table, table_assumed = seated_table(ruleset, ask.seats, by, events)
    assumed += table_assumed
    if table.liable is not None:
        refuse(liability_errors(ruleset, table.by, table.discarder, table.liable,
                                (i.pattern.id for i in result.counted), hand))
    taken = (next((a.reason for a in table_assumed if a.field == "discarder"), None)
             if table_assumed else None)
    exposed = exposed_melds(hand) if table.liable is not None else None   # only a pinned player needs it
    payments = settle(result, table, exposed, taken)
    return Calculation(ruleset, settings, table, hand, ticks, result, payments, assumed,
                       inferred, witnesses, context)


def price_ticks(ask: Ask) -> tuple[Score, tuple[Msg, ...], tuple[Hand, ...], TickContext]:
    """Price a tick set as the facts of a hand (app/scoring/witness.py): the facts every hand
    holding the ticks holds, priced by the one selection; what was added said; the hands found
    holding them. A set no hand holds in the request's context is refused (ruling 88)."""
    ruleset, settings, ticks = ask.ruleset, ask.settings, ask.ticks
    assert ticks is not None
    seat = ask.seats.winner or ask.seats.seat or "E"
    context = TickContext(ask.by, seat, ask.round, ask.flowers, ask.seasons)
    read = tick_facts(ruleset, settings, tuple(sorted(ticks.items())), context)
    if not read.held:
        refuse([FieldError("ticks", _no_witness(ruleset, ticks, context))])
    result = score_ticks(read.facts, ruleset, settings, ask.by)
    counted = {i.pattern.id for i in result.counted if i.fan}
    inferred = tuple(
        Msg("{pattern} counted: the win is a self-draw", pattern=ruleset.by_id[pid].name)
        if ruleset.by_id[pid].detect == "self_draw" else
        Msg("these ticks make {pattern}: every hand holding them does",
            pattern=ruleset.by_id[pid].name) if pid in read.common else
        Msg("these ticks make {pattern}: the cheapest hand holding them does",
            pattern=ruleset.by_id[pid].name)
        for pid in read.facts if pid not in ticks and pid in counted)
    return result, inferred, read.witnesses, context


def _no_witness(ruleset: Ruleset, ticks: Mapping[str, int], context: TickContext) -> Msg:
    names = listing(ruleset.by_id[pid].name for pid in sorted(
        ticks, key=lambda pid: ruleset.by_id[pid].position))
    if context.flowers is not None or context.seasons is not None:
        return Msg("no hand holds all of these with the bonus tiles given, as a {way} win: "
                   "{patterns}", way=way_of(ruleset, context.by), patterns=names)
    return Msg("no hand holds all of these together as a {way} win: {patterns}",
               way=way_of(ruleset, context.by), patterns=names)


def tick_witness(calc: Calculation) -> Hand | None:
    """A hand the ticks of `calc` describe whose tiles price as the ticks do: the cheapest
    witness (app/scoring/witness.py), first among them; None when no witness prices the same
    (a ticked pattern with no tiles to show, such as the course's seven-flower wins)."""
    return _first_priced(calc.ruleset, calc.settings, calc.witnesses[:1], calc.score.total_fan)


@lru_cache(maxsize=512)
def _first_priced(ruleset: Ruleset, settings: Settings, witnesses: tuple[Hand, ...],
                  total: int) -> Hand | None:
    """tick_witness, remembered: the witnesses of a tick set are the same on every request."""
    for hand in witnesses:
        try:
            priced = price(hand, pricing(ruleset, settings, hand.context.events, hand.context.by))
        except HandError:
            continue
        if priced.total_fan == total:
            return hand
    return None


def _refuse_events(ruleset: Ruleset, hand: Hand) -> None:
    """Refuse events the tiles cannot have (as the hand reader words them: app/hands/events.py),
    then events the family's conditions refuse."""
    refuse(event_errors(hand.context, hand.melds, hand.concealed, hand.win, event_names(ruleset)))
    refuse(family_errors(ruleset, hand))   # the family's conditions are all on events


# Few tables occur (four seats, two ways of winning), so each is checked once and reused.
@lru_cache(maxsize=1024)
def seated_table(ruleset: Ruleset, seats: Seats, by: WinBy, events: frozenset[str]
           ) -> tuple[Table, tuple[Assumption, ...]]:
    """The table of a win: who won, who discarded (taken when not given), who already won,
    who is liable; checked in app/rules/conditions.py."""
    seat, discarder, liable, won = seats.seat, seats.discarder, seats.liable, seats.won
    winner = seats.winner or seat or "E"
    assumed: tuple[Assumption, ...] = ()
    if by is WinBy.DISCARD and discarder is None:
        discarder, why = default_discarder(ruleset, winner, events, liable)
        assumed = (Assumption("discarder", discarder, why),)
    refuse(table_errors(ruleset, winner, seat, by, discarder, won, liable, events))
    return Table(winner, by, discarder if by is WinBy.DISCARD else None, frozenset(won),
                 liable), assumed


_EAST_ROUND = Assumption("round", "E", Msg("no round given: the East round"))


@lru_cache(maxsize=64)
def _by_assumed(ruleset: Ruleset, by: WinBy) -> Assumption:
    """The way of winning taken when the request gives none (made once per ruleset and way)."""
    why = (Msg("no way of winning given: a self-draw, which a ticked pattern needs")
           if by is WinBy.SELF_DRAW else Msg("no way of winning given: on a {discard}",
                                             discard=way_of(ruleset, WinBy.DISCARD)))
    return Assumption("by", by.value, why)


@dataclass(frozen=True, slots=True)
class WaitValue:
    """One tile a ready hand waits on, and what winning on it would be worth."""

    tile: Tile
    left: int
    calculation: Calculation | None   # None: the tiles complete, but the rules refuse the win
    refusal: str = ""
    # the same win priced as a self-draw, when the request gave no way of winning: a hand that
    # has not won yet may win either way (ruling 82)
    self_drawn: Calculation | None = None

    @property
    def winning(self) -> Calculation | None:
        """The pricing that reaches the minimum: as asked (a discard by default), else self-drawn."""
        for calc in (self.calculation, self.self_drawn):
            if calc is not None and not calc.score.below_minimum:
                return calc
        return None

    @property
    def can_win(self) -> bool:
        """The win reaches the minimum on a discard or by self-draw (either, with no `by`)."""
        return self.winning is not None

    @property
    def only_self_draw(self) -> bool:
        """It wins only by self-draw: as a discard it is refused or below the minimum."""
        return self.winning is not None and self.winning is self.self_drawn


@dataclass(frozen=True, slots=True)
class HouseRuleWaits:
    """Tiles a hand would wait on with one more house rule switched on (e.g. seven pairs)."""

    option: str
    name: Name
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class WaitsResult:
    ruleset: Ruleset
    hand: Hand
    waits: tuple[WaitValue, ...]
    house_rules: tuple[HouseRuleWaits, ...] = ()   # only when the hand is not ready as it is

    @property
    def ready(self) -> bool:
        """Ready in shape: some tile completes the hand (the same `ready` as discard advice)."""
        return bool(self.waits)

    @property
    def can_win(self) -> bool:
        """Some wait wins under the rules and dials, either way of winning (ruling 82)."""
        return any(w.can_win for w in self.waits)


@lru_cache(maxsize=64)
def event_names(ruleset: Ruleset) -> Mapping[str, str]:
    """Each event of the ruleset by its id, named as the family names it (event_name): the
    names only word a refusal, so they are made once per ruleset."""
    return MappingProxyType({e: event_name(ruleset, e) for e in ruleset.events})


def calculate_waits(ask: Ask) -> WaitsResult:
    """Price a win on each tile a ready hand (`ask.hand`, 13 - 3 x melds tiles) waits on.

    Each wait is one scoring of the budget. With no way of winning given (`by_given` False), a
    wait that a discard does not win is priced as a self-draw too (ruling 82: not won yet).
    """
    ruleset, hand = ask.ruleset, ask.hand
    assert hand is not None and hand.win is None
    found = []
    for wait in waits(hand, ruleset.shape_rules(ask.settings.options)):
        won = Hand(tuple(sorted(hand.concealed + (wait.tile,))), hand.melds, wait.tile,
                   hand.context)
        calc, refusal = _priced(ask, won)
        self_drawn = None
        if not ask.by_given and (calc is None or calc.score.below_minimum):
            drawn = replace(won, context=replace(won.context, by=WinBy.SELF_DRAW))
            self_drawn, _ = _priced(replace(ask, by_given=True), drawn)
        found.append(WaitValue(wait.tile, wait.left, calc, refusal, self_drawn))
    result = WaitsResult(ruleset, hand, tuple(found))
    if result.can_win:
        return result
    return replace(result, house_rules=_house_rule_waits(ruleset, ask.settings.options, hand))


def _priced(ask: Ask, hand: Hand) -> tuple[Calculation | None, str]:
    """One wait's win priced (one scoring), or None and why the rules refuse it."""
    try:
        return calculate(replace(ask, hand=hand)), ""
    except HandError as err:
        return None, listing((e.message for e in err.errors), SEMICOLON)


def _house_rule_waits(ruleset: Ruleset, options: frozenset[str], hand: Hand
                      ) -> tuple[HouseRuleWaits, ...]:
    """The off house rules (seven pairs, thirteen orphans) under which the hand would wait."""
    have = {w.tile for w in waits(hand, ruleset.shape_rules(options))}
    out = []
    for option in (ruleset.seven_pairs, ruleset.thirteen_orphans):
        if not isinstance(option, str) or option in options:
            continue
        extra = tuple(w.tile for w in waits(hand, ruleset.shape_rules(options | {option}))
                      if w.tile not in have)
        if extra:
            out.append(HouseRuleWaits(option, ruleset.by_id[option].name, extra))
    return tuple(out)
