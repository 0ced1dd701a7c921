"""The public vocabulary at the edge: query fields and texts read into values, values written
back as links and lines.

The web views, the JSON API and the command line read a request here; the core below (base,
hands, rules, scoring, table, advice, practice, store) takes and returns values and never
imports this package (pyproject.toml, [tool.importlinter]).

- hand.py: the hand description (`hand=`, `melds=`, `win=`, `by=`, `seat=` …) into a Hand
- request.py: a score request into an Ask (ruleset, dials, seats, tiles | ticks | fan);
  `score` and `waits` read and price in one call
- discard.py: /discard's request (`seen=`, `draws=`, `outlook=`) and a teacher's question
- round.py, round_steps.py: the round ledger's text and JSON, its lines built by taps
- sheet.py: a game sheet's link and lines, read and priced entry by entry
- quiz.py: a teacher's quiz lines
- practice.py: the descriptions a dealt hand's links carry
"""
from __future__ import annotations

from .request import read_ask, score, waits

__all__ = ["read_ask", "score", "waits"]
