"""Check a player's count of a hand against its score: the total, each item, the payments.

Each line of the breakdown is marked: `counted` (the player counted it as the scorer does),
`missed` (the scorer counts it, the player did not, or fewer times), `extra` (the player
counted it but it does not count: absent from the hand, inside a bigger pattern, or counted
too often), or `not-counted` (recognised, not counted, and the player rightly left it out).
Without any item from the player the lines are `unmarked`.

>>> from app.hands.hand import Hand
>>> from app.hands.tiles import parse_tiles
>>> from app.rules.loader import registry
>>> from app.scoring.calculation import Ask, Seats, calculate
>>> from app.scoring.selection import default_settings
>>> hk = registry()["hong-kong"]
>>> hand = Hand(parse_tiles("123m456m789m234p55s"), win=parse_tiles("5s")[0])
>>> calc = calculate(Ask(hk, default_settings(hk), hand=hand, seats=Seats(discarder="N")))
>>> v = check_answer(calc, 3, {"all-chows": 1, "concealed-hand": 1, "self-draw": 1})
>>> v.fan_right, [m.pattern.id for m in v.missed], [m.pattern.id for m in v.extra]
(True, ['no-bonus-tiles'], ['self-draw'])
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.base.i18n import Msg
from app.rules.model import Amount, Pattern
from app.scoring.calculation import Calculation
from app.scoring.payments import fmt

MARKS = ("counted", "missed", "extra", "not-counted", "unmarked")


@dataclass(frozen=True, slots=True)
class Mark:
    """One pattern of the hand (or of the player's count) and how the player did on it."""

    pattern: Pattern
    mark: str
    count: int        # times the hand has it (0: not in the hand at all)
    claimed: int      # times the player counted it
    fan: int          # what it adds to the true total
    note: str = ""


@dataclass(frozen=True, slots=True)
class PaymentCheck:
    seat: str
    role: str
    expected: Amount
    claimed: Amount | None   # None: the player left this seat blank

    @property
    def right(self) -> bool | None:
        return None if self.claimed is None else self.claimed == self.expected


@dataclass(frozen=True, slots=True)
class Verdict:
    """The whole check: the player's total against the true one, every item, the payments."""

    total_fan: int
    claimed_fan: int | None
    marks: tuple[Mark, ...]
    payments: tuple[PaymentCheck, ...]
    itemised: bool    # whether the player said which items they counted

    @property
    def fan_right(self) -> bool:
        return self.claimed_fan == self.total_fan

    @property
    def payments_given(self) -> bool:
        return any(p.claimed is not None for p in self.payments)

    @property
    def payments_right(self) -> bool | None:
        checked = [p.right for p in self.payments if p.claimed is not None]
        return all(checked) if checked else None

    @property
    def items_right(self) -> bool | None:
        """None when the player ticked nothing; else whether no item was missed or extra."""
        return None if not self.itemised else not (self.missed or self.extra)

    @property
    def correct(self) -> bool:
        """The total right, and the items and payments too where the player gave them."""
        return self.fan_right and self.items_right is not False and self.payments_right is not False

    @property
    def missed(self) -> tuple[Mark, ...]:
        return tuple(m for m in self.marks if m.mark == "missed")

    @property
    def extra(self) -> tuple[Mark, ...]:
        return tuple(m for m in self.marks if m.mark == "extra")


def check_answer(calc: Calculation, fan: int | None, items: Mapping[str, int] | None = None,
                 payments: Mapping[str, Amount] | None = None) -> Verdict:
    """Mark a player's count: their total fan, the items they counted (pattern id → times)
    and what they say each seat gains (a bare number for a paying seat means it pays)."""
    score = calc.score
    items = {k: v for k, v in (items or {}).items() if v > 0}
    itemised = bool(items)
    marks: list[Mark] = []
    for item in score.items:
        claimed = items.pop(item.pattern.id, 0)
        if not itemised:
            mark, note = "unmarked", "" if item.counted else item.note
        elif item.counted:
            mark, note = _counted_mark(item.count, claimed)
        elif claimed:
            mark, note = "extra", Msg("does not count: {why}", why=item.note)
        else:
            mark, note = "not-counted", item.note
        marks.append(Mark(item.pattern, mark, item.count, claimed, item.fan if item.counted else 0,
                          note))
    ruleset = calc.ruleset
    for pid, claimed in items.items():   # counted by the player, not in the hand at all
        pattern = ruleset.by_id.get(pid)
        if pattern is not None:
            marks.append(Mark(pattern, "extra", 0, claimed, 0, Msg("not in this hand")))
    checks = []
    for p in calc.payments:
        given = (payments or {}).get(p.seat)
        if given is not None and p.role != "winner" and given > 0:
            given = -given   # "S pays 8" typed as 8
        checks.append(PaymentCheck(p.seat, p.role, p.amount, given))
    return Verdict(score.total_fan, fan, tuple(marks), tuple(checks), itemised)


def _counted_mark(count: int, claimed: int) -> tuple[str, str]:
    if claimed == count:
        return "counted", ""
    if claimed == 0:
        return "missed", ""
    if claimed < count:
        return "missed", Msg("it counts ×{count}; you counted ×{claimed}", count=count,
                             claimed=claimed)
    return "extra", Msg("it counts ×{count}; you counted ×{claimed}", count=count, claimed=claimed)


def describe_payment(amount: Amount) -> str:
    """A signed amount as the payment table writes it."""
    return ("+" if amount > 0 else "") + fmt(amount)


__all__ = ["MARKS", "Mark", "PaymentCheck", "Verdict", "check_answer", "describe_payment"]
