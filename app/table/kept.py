"""An entry's price as a stored sheet keeps it with the entry's line, so a stored night is read
without pricing it again.

A stored sheet prices each entry once, when it is stored (added, corrected or shared), and
keeps what its pages and exports read of the price: what each seat won or paid, who won, how,
the fan, why a hand pays nothing, or why the entry was refused. Reading the sheet then costs
no scoring however long the night (a change prices only the line it brings), so no night is
ever past a request's work budget. The kept price is JSON with a version (`VERSION`): a
release whose scoring changes what an entry is worth raises it, and an entry kept under
another version is priced again when read, as before this file existed.

>>> kept = Kept((96, -32, -32, -32), KeptHand(KeptTable("E", None), KeptScore(4, 16, False), ()))
>>> loads(dumps(kept)) == kept
True
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from app.base.errors import FieldError
from app.base.i18n import Msg, Name, Text
from app.rules.model import Amount

VERSION = 1


@dataclass(frozen=True, slots=True)
class KeptTable:
    winner: str
    discarder: str | None


@dataclass(frozen=True, slots=True)
class KeptScore:
    total_fan: int
    points: Amount
    below_minimum: bool


@dataclass(frozen=True, slots=True)
class KeptPayment:
    reason: Msg | None


@dataclass(frozen=True, slots=True)
class KeptHand:
    """The parts of a hand's Calculation a sheet's pages read: who won and how, the fan and
    points, and (for a hand below the minimum) the first payment's reason."""

    table: KeptTable
    score: KeptScore
    payments: tuple[KeptPayment, ...]


@dataclass(frozen=True, slots=True)
class Kept:
    """One entry priced: what each seat (E, S, W, N) won or paid, a hand's result (None for a
    round of the ledger), and the refusal of an entry that counts nothing."""

    by_seat: tuple[Amount, ...]
    hand: KeptHand | None = None
    is_round: bool = False
    errors: tuple[FieldError, ...] = ()


def dumps(kept: Kept) -> str:
    hand = kept.hand
    data: dict[str, Any] = {"v": VERSION, "by_seat": [_enc(a) for a in kept.by_seat], "round": kept.is_round,
                            "errors": [[e.field, _enc(e.message)] for e in kept.errors]}
    if hand is not None:
        data["hand"] = {"winner": hand.table.winner, "discarder": hand.table.discarder,
                        "fan": hand.score.total_fan, "points": _enc(hand.score.points),
                        "below": hand.score.below_minimum, "reasons": [_enc(p.reason) for p in hand.payments]}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def loads(text: str | None) -> Kept | None:
    """The kept price, or None when there is none or it was kept under another VERSION."""
    if not text:
        return None
    try:
        data = json.loads(text)
        if data.get("v") != VERSION:
            return None
        hand = None
        if data.get("hand"):
            h = data["hand"]
            hand = KeptHand(KeptTable(h["winner"], h["discarder"]), KeptScore(h["fan"], _dec(h["points"]), h["below"]),
                            tuple(KeptPayment(_dec(r)) for r in h["reasons"]))
        return Kept(tuple(_dec(a) for a in data["by_seat"]), hand, bool(data["round"]),
                    tuple(FieldError(f, _dec(m)) for f, m in data["errors"]))
    except (ValueError, KeyError, TypeError):
        return None


def _enc(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"msg": value.msgid, "params": {k: _enc(v) for k, v in value.params.items()}}
    if isinstance(value, Text):
        return {"text": [value.en, value.zh_hant, value.zh_hans, value.native], "name": isinstance(value, Name)}
    if isinstance(value, Fraction):
        return {"fraction": [value.numerator, value.denominator]}
    if isinstance(value, (list, tuple)):
        return {"list": [_enc(v) for v in value]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _dec(value: Any) -> Any:
    if not isinstance(value, dict):
        return value
    if "msg" in value:
        return Msg(value["msg"], **{k: _dec(v) for k, v in value["params"].items()})
    if "text" in value:
        return (Name if value["name"] else Text)(*value["text"])
    if "fraction" in value:
        return Fraction(*value["fraction"])
    if "list" in value:
        return tuple(_dec(v) for v in value["list"])
    raise ValueError(f"not a kept value: {sorted(value)}")


def kept_of(row) -> Kept:
    """What to keep of a priced Row (app/table/sheet.py): its amounts by seat and what it says."""
    by_seat = tuple(row.amounts[row.seats[i]] for i in range(4))
    calc = row.calculation
    hand = None
    if calc is not None:
        hand = KeptHand(KeptTable(calc.table.winner, calc.table.discarder),
                        KeptScore(calc.score.total_fan, calc.score.points, calc.score.below_minimum),
                        tuple(KeptPayment(p.reason) for p in calc.payments[:1]))
    return Kept(by_seat, hand, row.entry.is_round, tuple(row.errors))
