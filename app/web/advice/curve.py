"""The small picture of an outlook: the chance to win by draws left, as SVG coordinates.

The template draws it (templates/outlook_table.html); this only says where the points go.
The x axis is the draws left, none at the left to all of them at the right; the y axis from 0 to the highest chance shown (at least 10%, so a faint chance looks faint).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 200, 72          # the viewBox; the page scales it to the cell
LEFT, RIGHT, TOP, BOTTOM = 30, 6, 8, 18   # room for the axis labels


@dataclass(frozen=True, slots=True)
class Curve:
    points: str        # the polyline's "x,y x,y …"
    top: float         # the y axis's highest chance (0-1)
    draws: int
    last_x: float      # where the line ends (all the draws left)
    last_y: float


def win_curve(win: Sequence[float]) -> Curve:
    """The line of the chance to win with t draws left, t = 0 to len(win) - 1.

    >>> c = win_curve([0.0, 0.5, 1.0])
    >>> c.points, c.top
    ('30.0,54.0 112.0,31.0 194.0,8.0', 1.0)
    """
    draws = len(win) - 1
    top = max(0.1, min(1.0, _ceiling(max(win))))
    span_x, span_y = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    points = []
    for t in range(draws + 1):
        x = LEFT + span_x * t / max(draws, 1)
        y = TOP + span_y * (1 - min(win[t], top) / top)
        points.append((round(x, 1), round(y, 1)))
    return Curve(" ".join(f"{x},{y}" for x, y in points), top, draws, *points[-1])


def _ceiling(p: float) -> float:
    """The next tenth up: the y axis ends at a round chance.

    >>> _ceiling(0.43), _ceiling(0.5)
    (0.5, 0.5)
    """
    tenths = int(p * 10 + 0.999999)
    return tenths / 10
