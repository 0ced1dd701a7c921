"""A rating across nights: Weng and Lin's Bayesian approximation (Plackett-Luce model), as the
`openskill` package computes it (MIT licence; openskill.me).

Every table of the season is one game of four, in the order the tables were played (night,
round, table); its players are ranked by what they won at that table (their sheet's totals,
as scores: equal totals tie). Each member's skill is a normal distribution, mean `mu` and
spread `sigma`, starting at MU and SIGMA; the rating shown is the conservative estimate
`mu - 3 sigma` (openskill's ordinal), which starts at 0 and rises as the spread narrows.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .standings import PlayedTable

MU = 25.0
SIGMA = 25.0 / 3            # the starting spread
BETA = 25.0 / 6             # how much one game's result varies around skill
TAU = 25.0 / 300            # spread added before each game (skill drifts)
MODEL = "Plackett-Luce (Weng & Lin, 2011)"
PARAMETERS = (("mu", MU), ("sigma", SIGMA), ("beta", BETA), ("tau", TAU))


@dataclass(frozen=True, slots=True)
class Rated:
    """A member's rating after one night."""

    night: int
    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        """The conservative estimate: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def ratings(tables: Iterable[PlayedTable]) -> dict[int, tuple[Rated, ...]]:
    """Each member's rating after each night they played, in the order of the tables.

    >>> from app.table.sheet import Night, Sheet
    >>> night = Night(Sheet("hong-kong"), None, (), (30, -10, -10, -10), ())
    >>> found = ratings([PlayedTable(1, 1, 1, (7, 8, 9, 10), night)])
    >>> found[7][0].rating > found[8][0].rating == found[9][0].rating
    True
    """
    from openskill.models import PlackettLuce  # the server's extra: a Markdown figure rates no one

    model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)
    current = {}
    history: dict[int, list[Rated]] = {}
    for played in sorted(tables, key=lambda t: (t.night, t.round, t.table)):
        teams = [[current.get(m) or model.rating(name=str(m))] for m in played.seats]
        scores = [float(total) for total in played.priced.totals]
        rated = model.rate(teams, scores=scores)
        for member, team in zip(played.seats, rated, strict=True):
            current[member] = team[0]
            after = Rated(played.night, team[0].mu, team[0].sigma)
            kept = history.setdefault(member, [])
            if kept and kept[-1].night == played.night:
                kept[-1] = after          # a night's last table is its rating for the night
            else:
                kept.append(after)
    return {member: tuple(kept) for member, kept in history.items()}
