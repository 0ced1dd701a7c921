"""How much scoring one request may ask for: one budget, shared by every entry point.

A full scoring (`calculation.calculate`: the readings, the detectors, the payments) is the
unit of work every page and API answer is made of: a result is one, a wait list one a wait, a
round one a win plus one a wait of each hand still in at the wall's end, a game sheet the sum of
its entries, a discard analysis one a wait of each discard. The web layer opens a budget for
each request (`opened`); `charge` counts each scoring against it and, past `MAX_SCORINGS`,
refuses the request with `TooMuchWork`, naming the field that asked for it. Outside an opened
budget (the command line, the tests of the core) nothing is counted.

A scoring is counted in units of what it costs (`units`): one under every shipped family, more
under a club's variant that adds many patterns (every pattern's detector runs on every
reading), so such a variant gets proportionally fewer scorings, not a longer request. The
refusal names the scorings the request could have had under its rules.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from app.base.errors import FieldError
from app.base.i18n import Msg
from app.rules.model import Ruleset

# About 25-60 ms of scoring on one core (40-100 µs a scoring unseen, in a request): no real
# hand, round, quiz or night comes near it (a night of 100 hands is 100; a round at most ~40).
MAX_SCORINGS = 400
# The patterns one unit of scoring pays for: a shipped family has at most 46 (hong-kong-course),
# a club's variant may add 60 (app/rules/house.py MAX_CHANGES), so it costs up to 3 units.
UNIT_PATTERNS = 48


def units(ruleset: Ruleset | None) -> int:
    """What one scoring under these rules costs, in units of the budget (1: a shipped family).

    Per pattern, as scoring runs each pattern's detector on each reading of a hand."""
    if ruleset is None:
        return 1
    return max(1, -(-len(ruleset.patterns) // UNIT_PATTERNS))


class TooMuchWork(ValueError):
    """A request that asks for more scorings than one request may do."""

    def __init__(self, field: str, most: int):
        self.field = field
        self.most = most
        self.message = Msg("this asks for more than {most} scorings in one request: split it into"
                           " smaller ones", most=most)
        self.errors = (FieldError(field, self.message),)   # what a page shows beside the field
        super().__init__(f"{field}: more than {most} scorings")


@dataclass(slots=True)
class _Budget:
    field: str
    left: int
    most: int


_current: ContextVar[_Budget | None] = ContextVar("scoring_budget", default=None)
# A server whose requests share a process cooperatively (gevent) sets a pause that lets the
# others run: every PAUSE_EVERY scorings a long request steps aside, so a health check waits
# for a slice of each request ahead of it, never for their whole work.
PAUSE_EVERY = 16
_pause: list = [None]


def set_pause(pause) -> None:
    """Call pause() every PAUSE_EVERY scorings of a request (None: never)."""
    _pause[0] = pause


@contextmanager
def opened(field: str, most: int = MAX_SCORINGS) -> Iterator[None]:
    """Count the scorings inside against `most`, refusals naming `field`."""
    token = _current.set(_Budget(field, most, most))
    try:
        yield
    finally:
        _current.reset(token)


def open_budget(field: str, most: int = MAX_SCORINGS) -> None:
    """Start counting for the rest of this context (a request, until `close_budget`)."""
    _current.set(_Budget(field, most, most))


def close_budget() -> None:
    _current.set(None)


def charge(n: int = 1, ruleset: Ruleset | None = None) -> None:
    """Count n scorings under `ruleset` (`units` each); past the budget, refuse (before doing
    them), naming the scorings the budget holds under these rules.

    >>> with opened("hands", most=2):
    ...     charge(); charge(); charge()
    Traceback (most recent call last):
    ...
    app.scoring.budget.TooMuchWork: hands: more than 2 scorings
    """
    budget = _current.get()
    if budget is None:
        return
    _spend(budget, n, 1 if ruleset is None else units(ruleset))


def charger(ruleset: Ruleset | None = None) -> Callable[[], None]:
    """charge(1, ruleset), for a caller that scores many hands under one ruleset (the
    outlook): what a scoring costs under it is worked out once."""
    cost = 1 if ruleset is None else units(ruleset)

    def charge_one() -> None:
        budget = _current.get()
        if budget is not None:
            _spend(budget, 1, cost)
    return charge_one


def _spend(budget: _Budget, n: int, cost: int) -> None:
    """Count n scorings of `cost` units each against the budget (see charge)."""
    before = budget.left
    budget.left -= n * cost
    if budget.left < 0:
        raise TooMuchWork(budget.field, budget.most // cost)
    if _pause[0] is not None and before // PAUSE_EVERY != budget.left // PAUSE_EVERY:
        _pause[0]()


def used() -> int:
    """Units counted so far in the open budget (0 when none is open)."""
    budget = _current.get()
    return 0 if budget is None else budget.most - budget.left


def step_aside() -> None:
    """Let a cooperative server's other requests run (work that is not scoring calls this)."""
    if _pause[0] is not None:
        _pause[0]()
