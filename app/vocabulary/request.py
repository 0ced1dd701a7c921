"""A score request in the public vocabulary (`rules=`, `min=`, `seat=`, `ticks=`, `hand=` …)
read into an Ask, each field checked and its refusal worded as the field's.

>>> from app.scoring.calculation import calculate
>>> calc = calculate(read_ask({"hand": "123m456m789m234p55s", "seat": "S", "by": "self-draw"}))
>>> calc.table.winner, calc.hand.win.code, calc.score.total_fan
('S', '5s', 4)
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType

from app.base.errors import FieldError, HandError
from app.base.i18n import Msg, quoted
from app.hands.hand import SEATS, Hand, WinBy
from app.hands.phrases import listing, plain
from app.rules.conditions import pattern_by
from app.rules.detectors import PER_ITEM_DETECTORS
from app.rules.house import HouseError, is_house
from app.rules.loader import Rulesets, registry
from app.rules.model import Amount, Ruleset
from app.rules.stakes import read_stake, stake_refusal
from app.scoring.budget import charge, opened, units
from app.scoring.calculation import (
    Ask,
    Assumption,
    Calculation,
    Frame,
    Seats,
    WaitsResult,
    agreed_seats,
    calculate_waits,
    event_names,
    frame,
    price_ask,
    price_hand,
    tick_witness,
)
from app.scoring.selection import Settings

from .hand import (
    _field,
    _read_bonus_numbers,
    _read_seat,
    describe,
    parse_hand,
    plain_context,
    plain_hand,
)

MAX_TICKS = 60
_TICK = re.compile(r"([a-z0-9-]+)(?:\*([0-9]{1,2}))?")
NO_TICKS = "none"   # `ticks=none`: a hand in which no pattern counts (a 0-fan chicken)


def score(params: Mapping[str, str], rulesets: Mapping[str, Ruleset] | None = None) -> Calculation:
    """Read a request and price it: tiles (`hand`), tick boxes (`ticks`) or a fan total (`fan`).

    One scoring of the request's budget (app/scoring/budget.py) under its rules, counted
    before the reading of the hand.
    """
    ruleset = read_ruleset(params, rulesets)
    charge(1, ruleset)
    if "ticks" not in params and "fan" not in params:
        found = _frame(ruleset, *map(params.get, _FRAME_FIELDS))
        hand = None if found is None else plain_hand(params, found.context)
        if hand is not None:
            return price_hand(found, hand)
    return price_ask(_read_in_full(params, ruleset))


def read_ask(params: Mapping[str, str], rulesets: Mapping[str, Ruleset] | None = None) -> Ask:
    """Read a request into an Ask for app.scoring.calculation.calculate, or raise HandError."""
    return _read_in_full(params, read_ruleset(params, rulesets))


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
                                             rules=quoted(rid[:40]),
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
                                                " one of {ids}", payment=quoted(payment[:40]),
                                                ids=listing(ruleset.payments))))
    curve = raw_curve.strip()
    if curve and curve not in ruleset.curves:
        errors.append(FieldError("curve", Msg("unknown curve {curve}; choose one of {ids}",
                                              curve=quoted(curve[:40]), ids=listing(ruleset.curves))))
    rule = ruleset.payments.get(payment)
    if curve and rule is not None and rule.fixed_curve and curve != rule.curve:
        errors.append(FieldError("curve", Msg("{payment} is defined on its own table, {curve}"
                                              " (ruling 85); leave curve out or choose a"
                                              " convention that takes {asked}",
                                              payment=rule.name,
                                              curve=ruleset.curves[rule.curve].name,
                                              asked=quoted(curve[:40]))))
    if not curve and rule is not None:
        curve = rule.curve or d.curve
    stake = _stake(raw_stake.strip(), d.stake, errors)
    named = [o for o in re.split(r"[,\s]+", raw_options.strip()) if o]
    for option in named:
        if option not in ruleset.option_ids:
            errors.append(FieldError("options", Msg("unknown option {option} in {rules}; its"
                                                    " options: {ids}", option=quoted(option[:40]),
                                                    rules=plain(ruleset.name),
                                                    ids=listing(ruleset.option_ids)
                                                    or Msg("none"))))
    options = frozenset(named)
    if errors:
        raise HandError(errors)
    return Settings(minimum, cap, curve, payment, stake, options)


def _stake(raw: str, default: Amount, errors: list[FieldError]) -> Amount:
    """The stake per unit (app/rules/stakes.py reads it), else the default and an error."""
    if not raw:
        return default
    stake = read_stake(raw)
    if stake is None:
        errors.append(FieldError("stake", stake_refusal(raw)))
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
    return agreed_seats(seat, winner)


def read_table(params: Mapping[str, str]) -> Seats:
    """Who won, who discarded, who already won, who is liable: each a seat, as written.

    What is not a seat is kept in `errors`, for calculate to report in its turn.
    """
    return _table(params.get("winner", ""), params.get("seat", ""), params.get("discarder", ""),
                  params.get("won", ""), params.get("liable", ""))


# Few tables occur (four seats), so each combination of raw strings is read once.
@lru_cache(maxsize=1024)
def _table(raw_winner: str, raw_seat: str, raw_discarder: str, raw_won: str, raw_liable: str
           ) -> Seats:
    """Read one combination of raw table strings (see read_table)."""
    errors: list[FieldError] = []
    seat = _seat(raw_seat, "seat", errors)
    winner = _seat(raw_winner, "winner", errors)
    discarder = _seat(raw_discarder, "discarder", errors)
    liable = _seat(raw_liable, "liable", errors)
    won: list[str] = []
    for part in [p for p in re.split(r"[,\s]+", raw_won.strip().upper()) if p]:
        if part not in SEATS:
            errors.append(FieldError("won", Msg("'{raw}' is not a seat; use E, S, W or N",
                                                raw=part[:10])))
        elif part not in won:
            won.append(part)
    return Seats(seat, winner, discarder, tuple(won), liable, tuple(errors))


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
                                                pattern=quoted(token[:40]),
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


def witness_params(calc: Calculation, given: Mapping[str, str]) -> dict[str, str] | None:
    """The same win in tile mode, from ticks: a witness hand whose tiles price as the ticks do
    (tick_witness), with the table and dials as given; None when no witness found does."""
    hand = tick_witness(calc)
    if hand is None:
        return None
    out = {k: v for k, v in given.items() if k in TICK_TABLE_KEYS and v.strip()}
    out.update(describe(hand), rules=calc.ruleset.id)
    if calc.table.discarder is not None:
        out["discarder"] = calc.table.discarder
    return out


def _tick_context(params: Mapping[str, str]) -> dict:
    """The round and bonus tiles of a tick request, each None when not given (the witness
    search then draws them freely: app/scoring/witness.py)."""
    errors: list[FieldError] = []
    given = {name: params.get(name, "").strip() for name in ("round", "flowers", "seasons")}
    out = {"round": _field(errors, "round", _read_seat, given["round"]) if given["round"] else None}
    for name in ("flowers", "seasons"):
        out[name] = _field(errors, name, _read_bonus_numbers, given[name]) if given[name] else None
    if errors:
        raise HandError(errors)
    return out


def _by_value(raw: str) -> WinBy:
    key = raw.lower()
    if key in ("self-draw", "self", "tsumo", "selfdraw"):
        return WinBy.SELF_DRAW
    if key in ("discard", "ron"):
        return WinBy.DISCARD
    raise HandError.single("by", Msg("'{raw}' is not a way of winning; use self-draw or discard",
                                     raw=raw[:20]))


# Every field of a tile-mode request but the tiles (`hand`, `melds`, `win`) and `rules`.
_FRAME_FIELDS = ("min", "cap", "payment", "curve", "stake", "options", "seat", "winner", "by",
                 "round", "flowers", "seasons", "events", "missing", "discarder", "won", "liable")


# Requests share a few dozen combinations of the other fields, so each is read once.
@lru_cache(maxsize=256)
def _frame(ruleset: Ruleset, *raw: str | None) -> Frame | None:
    """Read the fields of _FRAME_FIELDS as score does around a plainly written hand; None
    when any of them is refused or needs the hand's own check (a liable player), for
    _read_in_full and calculate to read and word in their own order."""
    given = {name: text for name, text in zip(_FRAME_FIELDS, raw, strict=True) if text is not None}
    try:
        settings = read_settings(given, ruleset)
    except HandError:
        return None
    given, assumed = read_seats(given)
    context = plain_context(given)
    if context is None:
        return None
    return frame(ruleset, settings, context, read_table(given), assumed,
                 bool(given.get("by", "").strip()), bool(given.get("round", "").strip()))


def _read_in_full(params: Mapping[str, str], ruleset: Ruleset) -> Ask:
    """Read any request, each field in turn; calculate checks the rest in its own order."""
    settings = read_settings(params, ruleset)
    params, assumed = read_seats(params)
    by_given = bool(params.get("by", "").strip())
    common = dict(ruleset=ruleset, settings=settings, seats=read_table(params),
                  by_given=by_given, assumed=assumed)
    if params.get("ticks", "").strip():
        ticks = read_ticks(params, ruleset)
        return Ask(ticks=ticks, by=_ticks_by(params, ticks, ruleset),
                   seat_text=params.get("seat", "E"), **_tick_context(params), **common)
    if "ticks" in params and not (params.get("hand", "").strip() or params.get("fan", "").strip()):
        raise HandError.single("ticks", Msg("tick the patterns that count, or give {none} for a"
                                            " hand in which none counts",
                                            none=f"ticks={NO_TICKS}"))
    if params.get("fan", "").strip() and not params.get("hand", "").strip():
        by = _by_value(params.get("by", "").strip() or "discard")
        fan = _whole(params.get("fan", ""), "fan", 0, (0, 10_000), errors := [])
        if errors:
            raise HandError(errors)
        return Ask(fan=fan, by=by, **common)
    hand: Hand = parse_hand(params, names=event_names(ruleset))
    return Ask(hand=hand, by=hand.context.by, round_given=bool(params.get("round", "").strip()),
               **common)


def price_example(ruleset: Ruleset, params: Mapping[str, str]
                  ) -> tuple[int | None, Mapping[str, Amount] | None]:
    """An example hand's fan total and payments under a ruleset (a club variant's examples).

    A variant prices its examples once, when it is first built and kept (loader.Rulesets), so
    this work is the variant's, not the request's that happened to name it first: it is counted
    apart, one scoring at a time. A hand the ruleset refuses comes to None, None.
    """
    try:
        with opened("rules", most=units(ruleset)):   # one scoring, whatever its rules cost
            calc = score({**params, "rules": ruleset.id}, {ruleset.id: ruleset})
    except HandError:
        return None, None
    return calc.score.total_fan, MappingProxyType({p.seat: p.amount for p in calc.payments})


def waits(params: Mapping[str, str], rulesets: Mapping[str, Ruleset] | None = None) -> WaitsResult:
    """Read a ready hand (13 - 3 x melds tiles) and price a win on each tile it waits on."""
    ruleset = read_ruleset(params, rulesets)
    settings = read_settings(params, ruleset)
    hand = parse_hand(params, complete=False)
    agreed, assumed = read_seats(params)
    seated = hand if agreed.get("seat") == params.get("seat") else parse_hand(agreed, complete=False)
    ask = Ask(ruleset, settings, hand=seated, seats=read_table(agreed),
              by_given=bool(params.get("by", "").strip()),
              round_given=bool(params.get("round", "").strip()), assumed=assumed)
    return replace(calculate_waits(ask), hand=hand)
