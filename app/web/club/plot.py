"""A member's season drawn by the server as SVG: their running total and their rating, night
by night, one panel each (no script, no external service; it scales to the phone's width)."""
from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

WIDTH = 360
PANEL = 110          # height of one panel
PAD = 28             # room for the axis labels


def _panel(nights: Sequence[int], values: Sequence[float], top: float, label: str, colour: str) -> str:
    """One series as a polyline with its zero line, its range and the nights along the bottom."""
    low, high = min(0.0, *values), max(0.0, *values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / max(1, len(values) - 1)

    def y(v: float) -> float:
        return top + 16 + (PANEL - 32) * (high - v) / span

    points = " ".join(f"{PAD + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
    dots = "".join(f'<circle cx="{PAD + i * step:.1f}" cy="{y(v):.1f}" r="2.5" fill="{colour}"/>'
                   for i, v in enumerate(values))
    ticks = "".join(f'<text x="{PAD + i * step:.1f}" y="{top + PANEL - 2:.1f}" text-anchor="middle"'
                    f' font-size="10" fill="#444">{n}</text>' for i, n in enumerate(nights))
    return (f'<text x="{PAD}" y="{top + 11:.1f}" font-size="11" font-weight="600" fill="#222">{escape(label)}</text>'
            f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#999" stroke-dasharray="3 3"/>'
            f'<text x="{PAD - 4}" y="{y(high) + 4:.1f}" text-anchor="end" font-size="10" fill="#444">{high:.4g}</text>'
            f'<text x="{PAD - 4}" y="{y(low) + 4:.1f}" text-anchor="end" font-size="10" fill="#444">{low:.4g}</text>'
            f'<polyline points="{points}" stroke="{colour}" stroke-width="2" fill="none"/>{dots}{ticks}')


def history_plot(nights: Sequence[int], totals: Sequence[float], ratings: Sequence[float],
                 labels: tuple[str, str], title: str) -> Markup:
    """Two panels: the season total after each night, the rating after each night; nothing when
    the member played no night."""
    if not nights:
        return Markup("")
    height = 2 * PANEL + 8
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" role="img"'
        f' class="club-plot" aria-label="{escape(title)}"><title>{escape(title)}</title>'
        f'{_panel(nights, totals, 0, labels[0], "#1f5fbf")}{_panel(nights, ratings, PANEL + 8, labels[1], "#b3261e")}'
        '</svg>')
