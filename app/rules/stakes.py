"""The stake per unit as people type it: a whole number, a decimal or a fraction (2, 0.5, 1/3).

One reader for every place a stake is typed: the `stake=` word of a score request
(app/vocabulary/request.py), the /house form and a club's house code (app/rules/house.py).

>>> read_stake("2"), read_stake("0.5"), read_stake("1/3"), read_stake("0"), read_stake("1/0")
(2, Fraction(1, 2), Fraction(1, 3), None, None)
>>> stake_code(Fraction(5, 2)), stake_data(Fraction(5, 2)), stake_data(2)
('5/2', '5/2', 2)
"""
from __future__ import annotations

import re
from fractions import Fraction

from app.base.i18n import Msg

from .model import Amount, exact

MAX_STAKE = Fraction(1_000_000)
TYPED = re.compile(r"[0-9]{1,9}(?:[./][0-9]{1,9})?")   # 2, 0.5, 1/3: digits, at most one . or /


def read_stake(raw: str) -> Amount | None:
    """A positive stake up to MAX_STAKE, exact (a whole one as an int); None when `raw` is none."""
    raw = raw.strip()
    if not TYPED.fullmatch(raw):
        return None
    try:
        stake = Fraction(raw)
    except (ValueError, ZeroDivisionError):
        return None
    return exact(stake) if 0 < stake <= MAX_STAKE else None


def stake_refusal(raw: str) -> Msg:
    """The sentence shown beside a stake that `read_stake` does not read."""
    return Msg("'{raw}' is not a stake; give a positive number up to {most}, e.g. 1 or 0.5",
               raw=raw.strip()[:20], most=MAX_STAKE)


def stake_code(stake: Amount) -> str:
    """A stake as a house code holds it: '2', '1/2' (exact, and read back by `read_stake`)."""
    return str(Fraction(stake))


def stake_data(stake: Amount) -> int | str:
    """A stake as a ruleset file holds it (checks.number): 2, or '1/2'."""
    value = Fraction(stake)
    return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
