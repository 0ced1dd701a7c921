"""A whole calculation request in the public vocabulary: ruleset, dials, table, hand or ticks.

The web views, the JSON API and the command line all read requests through `calculate`.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple

from app.base.errors import FieldError, HandError, refuse
from app.base.i18n import Msg, Name, Text
from app.hands.description import parse_hand, plain_context, plain_hand
from app.hands.hand import SEATS, Hand, WinBy, WinContext
from app.hands.phrases import SEMICOLON, listing, plain
from app.hands.phrases import seat as _said_seat
from app.hands.readings import waits
from app.hands.tiles import Tile, format_tiles
from app.rules.conditions import (
    default_discarder,
    event_name,
    exposed_melds,
    family_errors,
    liability_errors,
    pattern_by,
    table_errors,
    tick_errors,
    ticked_events,
)
from app.rules.detectors import PER_ITEM_DETECTORS
from app.rules.house import HouseError, is_house
from app.rules.loader import Rulesets, registry
from app.rules.model import Amount, Ruleset, exact
from app.rules.words import way_of

from .budget import charge, opened
from .payments import Payment, Table, settle
from .selection import (
    Pricing,
    Score,
    Settings,
    check_tiles,
    price,
    pricing,
    score,
    score_fan,
    score_ticks,
)

MAX_STAKE = Fraction(1_000_000)
MAX_TICKS = 60
_TICK = re.compile(r"([a-z0-9-]+)(?:\*([0-9]{1,2}))?")


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

    @property
    def defaulted_discarder(self) -> bool:
        return any(a.field == "discarder" for a in self.assumed)


def read_ruleset(params: Mapping[str, str], rulesets: Mapping[str, Ruleset] | None = None) -> Ruleset:
    """Look the ruleset id up among the loaded ones (never used as a path)."""
    rulesets = registry() if rulesets is None else rulesets
    rid = params.get("rules", "").strip() or "hong-kong"
    found = rulesets.get(rid)
    if found is not None:
        return found
    if is_house(rid) and isinstance(rulesets, Rulesets):
        try:
            return rulesets.house(rid)
        except HouseError as err:   # named as the link named it: `house=` or `rules=…~…`
            raise HandError.single("house" if params.get("house") else "rules", err.message) from None
    raise HandError([FieldError("rules", Msg("unknown ruleset {rules}; choose one of {ids}",
                                             rules=repr(rid[:40]),
                                             ids=listing(sorted(rulesets))))])


def read_settings(params: Mapping[str, str], ruleset: Ruleset) -> Settings:
    """The dials and switches, defaulting to the ruleset's, each checked against its range."""
    return _settings(ruleset, params.get("min", ""), params.get("cap", ""),
                     params.get("payment", ""), params.get("curve", ""),
                     params.get("stake", ""), params.get("options", ""))


# Requests share a handful of dial strings, so each combination is checked once and its
# Settings reused: the same object each time, which the scoring caches then find by identity.
@lru_cache(maxsize=256)
def _settings(ruleset: Ruleset, raw_min: str, raw_cap: str, raw_payment: str, raw_curve: str,
              raw_stake: str, raw_options: str) -> Settings:
    """Check one combination of raw dial strings against the ruleset (see read_settings)."""
    errors: list[FieldError] = []
    d = ruleset.dials
    minimum = _whole(raw_min, "min", d.min, ruleset.min_range, errors)
    cap: int | None = d.cap
    cap_word = raw_cap.strip().lower()
    if cap_word in ("none", "no", "uncapped"):
        if ruleset.uncapped:
            cap = None
        else:
            errors.append(FieldError("cap", Msg("{rules} always has a cap",
                                                rules=plain(ruleset.name))))
    elif cap_word:
        cap = _whole(raw_cap, "cap", d.cap, ruleset.cap_range, errors)
    if cap is not None and minimum is not None and cap < minimum:
        errors.append(FieldError("cap", Msg("the cap {cap} is below the minimum {min}", cap=cap,
                                            min=minimum)))
    payment = raw_payment.strip() or d.payment
    if payment not in ruleset.payments:
        errors.append(FieldError("payment", Msg("unknown payment convention {payment}; choose"
                                                " one of {ids}", payment=repr(payment[:40]),
                                                ids=listing(ruleset.payments))))
    curve = raw_curve.strip()
    if curve and curve not in ruleset.curves:
        errors.append(FieldError("curve", Msg("unknown curve {curve}; choose one of {ids}",
                                              curve=repr(curve[:40]), ids=listing(ruleset.curves))))
    rule = ruleset.payments.get(payment)
    if curve and rule is not None and rule.fixed_curve and curve != rule.curve:
        errors.append(FieldError("curve", Msg("{payment} is defined on its own table, {curve}"
                                              " (ruling 85); leave curve out or choose a"
                                              " convention that takes {asked}",
                                              payment=rule.name,
                                              curve=ruleset.curves[rule.curve].name,
                                              asked=repr(curve[:40]))))
    if not curve and rule is not None:
        curve = rule.curve or d.curve
    stake = _stake(raw_stake.strip(), d.stake, errors)
    named = [o for o in re.split(r"[,\s]+", raw_options.strip()) if o]
    for option in named:
        if option not in ruleset.option_ids:
            errors.append(FieldError("options", Msg("unknown option {option} in {rules}; its"
                                                    " options: {ids}", option=repr(option[:40]),
                                                    rules=plain(ruleset.name),
                                                    ids=listing(ruleset.option_ids)
                                                    or Msg("none"))))
    options = frozenset(named)
    if errors:
        raise HandError(errors)
    return Settings(minimum, cap, curve, payment, stake, options)


def _stake(raw: str, default: Amount, errors: list[FieldError]) -> Amount:
    """The stake per unit: a positive decimal or fraction up to MAX_STAKE, else the default."""
    if not raw:
        return default
    try:
        stake = (exact(Fraction(raw)) if re.fullmatch(r"[0-9]{1,9}(?:[./][0-9]{1,9})?", raw)
                 else None)
    except (ValueError, ZeroDivisionError):
        stake = None
    if stake is None or stake <= 0 or stake > MAX_STAKE:
        errors.append(FieldError("stake", Msg("'{raw}' is not a stake; give a positive number up"
                                              " to {most}, e.g. 1 or 0.5", raw=raw[:20],
                                              most=MAX_STAKE)))
        return default
    return stake


def _whole(raw: str, name: str, default, bounds: tuple[int, int], errors: list[FieldError]):
    """The field `name` as a whole number within bounds, else the default and an error."""
    raw = raw.strip()
    if not raw:
        return default
    if not re.fullmatch(r"[0-9]{1,4}", raw):   # ASCII only: no Unicode digits
        errors.append(FieldError(name, Msg("'{raw}' is not a whole number of fan", raw=raw[:20])))
        return default
    number = int(raw)
    low, high = bounds
    if not low <= number <= high:
        errors.append(FieldError(name, Msg("{n} is outside {low}-{high}", n=number, low=low,
                                           high=high)))
        return default
    return number


def _seat(raw: str, name: str, errors: list[FieldError]) -> str | None:
    """The field `name` as a seat E S W N, None when blank or (with an error) not a seat."""
    raw = raw.strip().upper()
    if not raw:
        return None
    if raw not in SEATS:
        errors.append(FieldError(name, Msg("'{raw}' is not a seat; use E, S, W or N",
                                           raw=raw[:10])))
        return None
    return raw


@dataclass(frozen=True, slots=True)
class Assumption:
    """A value the calculator filled in because the request left it out (ruling 76)."""

    field: str
    value: str
    reason: str


def read_seats(params: Mapping[str, str]) -> tuple[dict[str, str], tuple[Assumption, ...]]:
    """The request with `seat` and `winner` made to agree: one given, the other follows it.

    A value that is not a seat is left as it is, for the field's own reader to report.
    """
    agreed = _agreed_seats(params.get("seat", ""), params.get("winner", ""))
    if agreed is None:
        return dict(params), ()
    seat, winner, assumed = agreed
    return dict(params, seat=seat, winner=winner), assumed


# Requests name a handful of seats (E, S, W, N, none), so each pair of raw values is read
# once and its frozen assumptions reused.
@lru_cache(maxsize=256)
def _agreed_seats(raw_seat: str, raw_winner: str
                  ) -> tuple[str, str, tuple[Assumption, ...]] | None:
    """The seat and the winner, the missing one following the other; None when either is
    given and is not a seat (see read_seats)."""
    raw_seat, raw_winner = raw_seat.strip(), raw_winner.strip()
    seat = raw_seat.upper() if raw_seat.upper() in SEATS else None
    winner = raw_winner.upper() if raw_winner.upper() in SEATS else None
    if (raw_seat and seat is None) or (raw_winner and winner is None):
        return None
    if seat is None and winner is None:
        return "E", "E", (Assumption("seat", "E", Msg("no seat given: the winner is taken to"
                                                      " sit East, the dealer")),
                          Assumption("winner", "E", Msg("the player in the winner's seat")))
    if seat is None:
        return winner, winner, (Assumption("seat", winner, Msg(
            "the winner's own seat, {seat}: the seat wind and own flower are theirs",
            seat=_said_seat(winner))),)
    if winner is None:
        return seat, seat, (Assumption("winner", seat, Msg("the player in the winner's seat")),)
    return seat, winner, ()


def read_table(params: Mapping[str, str], ruleset: Ruleset, by: WinBy,
               events: frozenset[str] = frozenset()) -> tuple[Table, tuple[Assumption, ...]]:
    """Who won, who discarded, who already won, who is liable; checked in app/rules/conditions.py."""
    return _table(ruleset, params.get("winner", ""), params.get("seat", ""),
                  params.get("discarder", ""), params.get("won", ""), params.get("liable", ""),
                  by, events)


# Few tables occur (four seats, two ways of winning), so each is checked once and reused.
@lru_cache(maxsize=1024)
def _table(ruleset: Ruleset, raw_winner: str, raw_seat: str, raw_discarder: str, raw_won: str,
           raw_liable: str, by: WinBy, events: frozenset[str]
           ) -> tuple[Table, tuple[Assumption, ...]]:
    """Read one combination of raw table strings (see read_table)."""
    errors: list[FieldError] = []
    seat = _seat(raw_seat, "seat", errors)
    winner = _seat(raw_winner, "winner", errors) or seat or "E"
    discarder = _seat(raw_discarder, "discarder", errors)
    liable = _seat(raw_liable, "liable", errors)
    won: list[str] = []
    for part in [p for p in re.split(r"[,\s]+", raw_won.strip().upper()) if p]:
        if part not in SEATS:
            errors.append(FieldError("won", Msg("'{raw}' is not a seat; use E, S, W or N",
                                                raw=part[:10])))
        elif part not in won:
            won.append(part)
    if errors:
        raise HandError(errors)
    assumed: tuple[Assumption, ...] = ()
    if by is WinBy.DISCARD and discarder is None:
        discarder, why = default_discarder(ruleset, winner, events, liable)
        assumed = (Assumption("discarder", discarder, why),)
    refuse(table_errors(ruleset, winner, seat, by, discarder, tuple(won), liable, events))
    return Table(winner, by, discarder if by is WinBy.DISCARD else None, frozenset(won),
                 liable), assumed


NO_TICKS = "none"   # `ticks=none`: a hand in which no pattern counts (a 0-fan chicken)


def read_ticks(params: Mapping[str, str], ruleset: Ruleset) -> dict[str, int]:
    """Ticked pattern ids, `id*2` or a repeated id counting an item twice; `none` for none."""
    ticks: dict[str, int] = {}
    tokens = [t for t in re.split(r"[,\s]+", params.get("ticks", "").strip()) if t]
    if tokens == [NO_TICKS]:
        return ticks
    if len(tokens) > MAX_TICKS:
        raise HandError.single("ticks", Msg("{n} ticks is too many (at most {most})",
                                            n=len(tokens), most=MAX_TICKS))
    for token in tokens:
        match = _TICK.fullmatch(token)
        if not match or match[1] not in ruleset.by_id:
            raise HandError.single("ticks", Msg("unknown pattern {pattern} in {rules}",
                                                pattern=repr(token[:40]),
                                                rules=plain(ruleset.name)))
        ticks[match[1]] = ticks.get(match[1], 0) + int(match[2] or 1)
    for pid, count in ticks.items():
        pattern = ruleset.by_id[pid]
        most = PER_ITEM_DETECTORS.get(pattern.detect or "", 1)
        if not 1 <= count <= most:
            if most > 1:
                raise HandError.single("ticks", Msg("{pattern} takes a count from 1 to {most}"
                                                    " (ticked {count})", pattern=pattern.name,
                                                    most=most, count=count))
            raise HandError.single("ticks", Msg("{pattern} counts once; only per-item patterns"
                                                " such as dragon pongs take a count (ticked"
                                                " {count})", pattern=pattern.name, count=count))
    return ticks


TICK_TABLE_KEYS = ("seat", "won", "liable", "options", "min", "cap", "curve", "payment", "stake")


def tick_params(calc: Calculation, given: Mapping[str, str]) -> dict[str, str]:
    """The same win in tick-box mode: the patterns that counted, the way of winning and the
    discarder actually used, the table and dials as given, so that it prices the same."""
    ticks = ",".join(f"{i.pattern.id}*{i.count}" if i.count > 1 else i.pattern.id
                     for i in calc.score.counted) or NO_TICKS
    out = {k: v for k, v in given.items() if k in TICK_TABLE_KEYS and v.strip()}
    out.update(rules=calc.ruleset.id, ticks=ticks, by=calc.table.by.value,
               seat=calc.table.winner)
    if calc.table.discarder is not None:
        out["discarder"] = calc.table.discarder
    return out


def _ticks_by(params: Mapping[str, str], ticks: Mapping[str, int], ruleset: Ruleset) -> WinBy:
    raw = params.get("by", "").strip()
    needs_self_draw = any(pattern_by(ruleset.by_id[t]) is WinBy.SELF_DRAW for t in ticks)
    if not raw:
        return WinBy.SELF_DRAW if needs_self_draw else WinBy.DISCARD
    return _by_value(raw)


def _by_value(raw: str) -> WinBy:
    key = raw.lower()
    if key in ("self-draw", "self", "tsumo", "selfdraw"):
        return WinBy.SELF_DRAW
    if key in ("discard", "ron"):
        return WinBy.DISCARD
    raise HandError.single("by", Msg("'{raw}' is not a way of winning; use self-draw or discard",
                                     raw=raw[:20]))


def calculate(params: Mapping[str, str], rulesets: Mapping[str, Ruleset] | None = None) -> Calculation:
    """Read a request and price it: tiles (`hand`), tick boxes (`ticks`) or a fan total (`fan`)."""
    charge()   # one scoring of the request's budget (budget.py)
    ruleset = read_ruleset(params, rulesets)
    if "ticks" not in params and "fan" not in params:
        frame = _frame(ruleset, *map(params.get, _FRAME_FIELDS))
        hand = None if frame is None else plain_hand(params, frame.context)
        if hand is not None:
            return _calculate_plain(ruleset, frame, hand)
    return _calculate_in_full(params, ruleset)


# Every field of a tile-mode request but the tiles (`hand`, `melds`, `win`) and `rules`.
_FRAME_FIELDS = ("min", "cap", "payment", "curve", "stake", "options", "seat", "winner", "by",
                 "round", "flowers", "seasons", "events", "missing", "discarder", "won", "liable")


class _Frame(NamedTuple):
    """What a tile-mode request settles around its tiles: the same for every hand asked with
    the same ruleset and the same other fields (see _frame)."""

    settings: Settings
    context: WinContext
    pricing: Pricing
    check_tiles: bool   # the tiles can be refused: no honours, a missing suit, no claimed chows
    table: Table
    assumed: tuple[Assumption, ...]
    taken: str | None
    rows: dict[int, tuple[Payment, ...]]   # the payments by total fan, filled on first sight


# Requests share a few dozen combinations of the other fields, so each is read once.
@lru_cache(maxsize=256)
def _frame(ruleset: Ruleset, *raw: str | None) -> _Frame | None:
    """Read the fields of _FRAME_FIELDS as calculate does around a plainly written hand; None
    when any of them is refused or needs the hand's own check (a liable player), for
    _calculate_in_full to read and word in its own order."""
    given = {name: text for name, text in zip(_FRAME_FIELDS, raw, strict=True) if text is not None}
    try:
        settings = read_settings(given, ruleset)
        given, assumed = read_seats(given)
        context = plain_context(given)
        if context is None:
            return None
        check_tiles(Hand((), context=context), ruleset, settings)   # what holds for any tiles
        if not given.get("round", "").strip():
            assumed += (_EAST_ROUND,)
        if not given.get("by", "").strip():
            assumed += (_by_assumed(ruleset, context.by),)
        table, table_assumed = read_table(given, ruleset, context.by, context.events)
    except HandError:
        return None
    if table.liable is not None:
        return None
    taken = next((a.reason for a in table_assumed if a.field == "discarder"), None)
    return _Frame(settings, context, pricing(ruleset, settings, context.events, context.by),
                  not ruleset.honours or bool(context.missing) or not ruleset.claimed_chows,
                  table, assumed + table_assumed,
                  taken, {})


def _calculate_plain(ruleset: Ruleset, frame: _Frame, hand: Hand) -> Calculation:
    """calculate for a plainly written hand whose other fields read as `frame`."""
    if hand.context.events:   # the family's conditions are all on events
        refuse(family_errors(ruleset, hand))
    if frame.check_tiles:
        check_tiles(hand, ruleset, frame.settings)
    result = price(hand, frame.pricing)
    payments = frame.rows.get(result.total_fan)
    if payments is None:
        payments = settle(result, frame.table, None, frame.taken)
        if len(frame.rows) < 256:
            frame.rows[result.total_fan] = payments
    return tuple.__new__(Calculation, (ruleset, frame.settings, frame.table, hand, None, result,
                                       payments, frame.assumed))


def _calculate_in_full(params: Mapping[str, str], ruleset: Ruleset) -> Calculation:
    """calculate for any request: each field read and checked in turn."""
    settings = read_settings(params, ruleset)
    params, assumed = read_seats(params)
    hand: Hand | None = None
    ticks: dict[str, int] | None = None
    if params.get("ticks", "").strip():
        ticks = read_ticks(params, ruleset)
        by = _ticks_by(params, ticks, ruleset)
        refuse(tick_errors(ruleset, ticks, by, bool(params.get("by", "").strip()),
                           params.get("seat", "E")))
        result = score_ticks(ticks, ruleset, settings, by)
    elif "ticks" in params and not (params.get("hand", "").strip() or params.get("fan", "").strip()):
        raise HandError.single("ticks", Msg("tick the patterns that count, or give {none} for a"
                                            " hand in which none counts",
                                            none=f"ticks={NO_TICKS}"))
    elif params.get("fan", "").strip() and not params.get("hand", "").strip():
        by = _by_value(params.get("by", "").strip() or "discard")
        fan = _whole(params.get("fan", ""), "fan", 0, (0, 10_000), errors := [])
        if errors:
            raise HandError(errors)
        result = score_fan(fan, ruleset, settings)
    else:
        hand = parse_hand(params, names=_event_names(ruleset))
        by = hand.context.by
        if hand.context.events:   # the family's conditions are all on events
            refuse(family_errors(ruleset, hand))
        result = score(hand, ruleset, settings)
        if not params.get("round", "").strip():
            assumed += (_EAST_ROUND,)
    if not params.get("by", "").strip():
        assumed += (_by_assumed(ruleset, by),)
    events = (hand.context.events if hand is not None else
              ticked_events(ruleset, ticks) if ticks is not None else frozenset())
    table, table_assumed = read_table(params, ruleset, by, events)
    assumed += table_assumed
    if table.liable is not None:
        refuse(liability_errors(ruleset, table.by, table.discarder, table.liable,
                                (i.pattern.id for i in result.counted), hand))
    taken = (next((a.reason for a in table_assumed if a.field == "discarder"), None)
             if table_assumed else None)
    exposed = exposed_melds(hand) if table.liable is not None else None   # only a pinned player needs it
    payments = settle(result, table, exposed, taken)
    return tuple.__new__(Calculation, (ruleset, settings, table, hand, ticks, result, payments,
                                       assumed))


_EAST_ROUND = Assumption("round", "E", Msg("no round given: the East round"))


@lru_cache(maxsize=64)
def _by_assumed(ruleset: Ruleset, by: WinBy) -> Assumption:
    """The way of winning taken when the request gives none (made once per ruleset and way)."""
    why = (Msg("no way of winning given: a self-draw, which a ticked pattern needs")
           if by is WinBy.SELF_DRAW else Msg("no way of winning given: on a {discard}",
                                             discard=way_of(ruleset, WinBy.DISCARD)))
    return Assumption("by", by.value, why)


# The names only word a refusal, yet parse_hand takes them for every hand: made once per ruleset.
@lru_cache(maxsize=64)
def _event_names(ruleset: Ruleset) -> Mapping[str, Text | str]:
    """Each event of the ruleset by its id, named as the family names it (event_name)."""
    return MappingProxyType({e: event_name(ruleset, e) for e in ruleset.events})


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


def price_example(ruleset: Ruleset, params: Mapping[str, str]
                  ) -> tuple[int | None, Mapping[str, Amount] | None]:
    """An example hand's fan total and payments under a ruleset (a club variant's examples).

    A variant prices its examples once, when it is first built and kept (loader.Rulesets), so
    this work is the variant's, not the request's that happened to name it first: it is counted
    apart, one scoring at a time. A hand the ruleset refuses comes to None, None.
    """
    try:
        with opened("rules", most=1):
            calc = calculate({**params, "rules": ruleset.id}, {ruleset.id: ruleset})
    except HandError:
        return None, None
    return calc.score.total_fan, MappingProxyType({p.seat: p.amount for p in calc.payments})


def calculate_waits(params: Mapping[str, str], rulesets: Mapping[str, Ruleset] | None = None) -> WaitsResult:
    """Read a ready hand (13 - 3 x melds tiles) and price a win on each tile it waits on."""
    ruleset = read_ruleset(params, rulesets)
    settings = read_settings(params, ruleset)
    hand = parse_hand(params, complete=False)
    either_way = not params.get("by", "").strip()   # ruling 82: not won yet, no way known
    found = []
    for wait in waits(hand, ruleset.shape_rules(settings.options)):
        trial = dict(params)
        trial["hand"] = format_tiles(hand.concealed + (wait.tile,))
        trial["win"] = wait.tile.code
        calc, refusal = _priced(trial, rulesets)
        self_drawn = None
        if either_way and (calc is None or calc.score.below_minimum):
            self_drawn, _ = _priced({**trial, "by": WinBy.SELF_DRAW.value}, rulesets)
        found.append(WaitValue(wait.tile, wait.left, calc, refusal, self_drawn))
    result = WaitsResult(ruleset, hand, tuple(found))
    if result.can_win:
        return result
    return replace(result, house_rules=_house_rule_waits(ruleset, settings.options, hand))


def _priced(trial: Mapping[str, str], rulesets: Mapping[str, Ruleset] | None
            ) -> tuple[Calculation | None, str]:
    """One wait's win priced, or None and why the rules refuse it."""
    try:
        return calculate(trial, rulesets), ""
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
