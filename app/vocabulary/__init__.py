"""The public vocabulary at the edge: query fields read into values, values written as links.

The web views, the JSON API and the command line read a request here (`score` reads a score
request and prices it); the core below (hands, rules, scoring, table, advice, practice, store)
takes and returns values and never imports this package (pyproject.toml, [tool.importlinter]).
"""
from __future__ import annotations

from .request import read_ask, score, waits

__all__ = ["read_ask", "score", "waits"]
