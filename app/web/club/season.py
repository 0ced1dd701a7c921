"""A season read from its tables' stored sheets: each sheet opened and priced (a priced sheet
is kept while its version stands), then the standings and ratings of app/club/ worked out.

Each sheet is priced within a budget of its own, as its own page would be (app/scoring/budget.py):
a season costs what opening each of its tables' pages costs.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

from flask import current_app

from app.base.errors import HandError
from app.club.rating import Rated, ratings
from app.club.standings import PlayedTable, Standings, standings
from app.scoring.budget import TooMuchWork, opened, step_aside
from app.store.clubs import Club, ClubStore, Night, Season, TableSheet
from app.store.sheets import Stored
from app.table.sheet import Night as PricedNight
from app.table.sheet import Sheet
from app.vocabulary.sheet import DIAL_KEYS, parse_entry, price_sheet

KEEP_PRICED = 256        # priced sheets a process keeps (by token and version)


@dataclass(frozen=True, slots=True)
class SeasonView:
    """A season as its pages show it: its nights, their tables priced, the standings and ratings."""

    season: Season
    nights: tuple[Night, ...]
    tables: tuple[PlayedTable, ...]
    missing: tuple[tuple[int, int, int], ...]     # tables whose sheet is gone or could not be priced
    standings: Standings
    ratings: dict[int, tuple[Rated, ...]]


def sheet_of(stored: Stored | TableSheet) -> Sheet:
    """The sheet a stored sheet holds (as its own page reads it)."""
    s = stored.settings
    names = tuple((s.get("names", "").split(",") + ["", "", "", ""])[:4])
    return Sheet(s.get("rules", "hong-kong"), names, tuple((k, s[k]) for k in DIAL_KEYS if s.get(k)),
                 tuple(parse_entry(h.line) for h in stored.hands))


def _priced(stored: TableSheet | None, key: tuple) -> PricedNight | None:
    """A table's sheet priced (None when it is gone or cannot be priced); kept by its place in
    the club and its version, so an unchanged sheet is priced once."""
    if stored is None:
        return None
    kept: OrderedDict = current_app.extensions.setdefault("club_priced", OrderedDict())
    key = (*key, stored.version)
    if key in kept:
        kept.move_to_end(key)
        return kept[key]
    try:
        with opened("hands"):
            night = price_sheet(sheet_of(stored), current_app.extensions["rulesets"])
    except (HandError, TooMuchWork):   # said missing on the page; the season still shows
        return None
    kept[key] = night
    while len(kept) > KEEP_PRICED:
        kept.popitem(last=False)
    return night


def season_view(club: Club, clubs: ClubStore, token: str, season: Season) -> SeasonView:
    """The season's tables priced from their sheets (read in one query), its standings and ratings."""
    nights = tuple(n for n in club.nights if n.season == season.id)
    read = clubs.table_sheets(token)
    tables, missing = [], []
    for night in nights:
        for table in night.tables:
            place = (night.id, table.round, table.number)
            priced = _priced(read.get(place), (club.id, *place))
            step_aside()
            if priced is None:
                missing.append((night.id, table.round, table.number))
            else:
                tables.append(PlayedTable(night.id, table.round, table.number, table.seats, priced))
    return SeasonView(season, nights, tuple(tables), tuple(missing),
                      standings(tables, (m.id for m in club.members)), ratings(tables))


def night_standings(view: SeasonView, night_ids: Iterable[int]) -> Standings:
    """The standings of some nights of the season alone."""
    wanted = set(night_ids)
    return standings(t for t in view.tables if t.night in wanted)


def byes_so_far(club: Club, season: Season) -> dict[int, int]:
    found: dict[int, int] = {}
    for night in club.nights:
        if night.season == season.id:
            for seating in night.rounds:
                for member in seating.byes:
                    found[member] = found.get(member, 0) + 1
    return found
