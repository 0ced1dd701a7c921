"""Fan → payment tables: what each fan total pays under a curve and a payment convention.

One row per fan, as seed 003 prints its conversion tables and seed 004 its ladder: the base
points, then who pays what on a discard and on a self-draw. The rows price the fan whatever
the minimum (a row below it is flagged, not zeroed), so table (c) reads straight off them.

>>> from app.rules.loader import registry
>>> from app.scoring.selection import default_settings
>>> hkc = registry()["hong-kong-course"]
>>> [r.points for r in conversion_table(hkc, default_settings(hkc), 7)]
[1, 2, 4, 8, 16, 24, 32, 48]
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from app.hands.hand import WinBy
from app.rules.model import Amount, Ruleset

from .payments import Table, next_seat, settle
from .selection import Settings, score_fan

FAN_LIMIT = 99       # the widget prices up to this many fan
UNCAPPED_ROWS = 13   # rows of an uncapped table (the classic 13-fan scale)


@dataclass(frozen=True, slots=True)
class Row:
    """What one fan total pays: amounts are what each payer hands over (positive)."""

    fan: int
    capped_fan: int
    points: int
    discarder: Amount           # on a discard: the discarder
    other: Amount               # on a discard: each of the two others
    discard_total: Amount       # on a discard: what the winner collects
    self_draw_each: Amount      # on a self-draw: each of the three
    self_draw_total: Amount     # on a self-draw: what the winner collects
    below_minimum: bool


def table_rows(ruleset: Ruleset, settings: Settings, fan: int = 0) -> int:
    """The last fan a table shows: the cap, or for an uncapped game enough rows to see the
    curve level off (a table curve) or the classic 13, and never fewer than the fan asked."""
    if settings.cap is not None:
        return settings.cap
    curve = ruleset.curves[settings.curve]
    top = len(curve.table) + 2 if curve.kind == "table" else max(UNCAPPED_ROWS, ruleset.cap_range[1])
    return min(max(top, fan), FAN_LIMIT)


def conversion_table(ruleset: Ruleset, settings: Settings, top: int,
                     winner: str = "E") -> tuple[Row, ...]:
    """Rows for fan 0..top under these dials (the minimum only flags rows)."""
    priced = replace(settings, min=0)
    discarder = next_seat(winner)
    other = next_seat(discarder)
    rows = []
    for fan in range(top + 1):
        score = score_fan(fan, ruleset, priced)
        discard = {p.seat: p.amount for p in settle(score, Table(winner, WinBy.DISCARD, discarder))}
        drawn = {p.seat: p.amount for p in settle(score, Table(winner, WinBy.SELF_DRAW))}
        rows.append(Row(fan, score.capped_fan, score.points, -discard[discarder], -discard[other],
                        discard[winner], -drawn[discarder], drawn[winner],
                        fan < settings.min))
    return tuple(rows)


__all__ = ["FAN_LIMIT", "Row", "conversion_table", "table_rows"]
