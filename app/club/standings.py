"""A season's standings, recomputed from its tables' priced sheets every time they are shown.

Nothing is kept but the sheets: a correction in any night's sheet changes its priced rows, and
the standings (and the rating) follow at the next look.

Per member: the total won or paid, the nights played, hands played, hands won (self-drawn or on
a discard), deal-ins (hands they paid as the discarder), the biggest hand (its fan, its largest
pattern, where it stands) and the average fan of the hands they won. A Sichuan round entered
in the round ledger is one hand played; each of its wins counts as the ledger states it (blood
battle: up to three players win one after another, each a self-draw or a win on a discard,
whose discarder dealt in), with the fan that win was priced at. The totals are checked to sum
to zero, each table's and the season's.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from app.hands.hand import SEATS, WinBy
from app.rules.model import Amount, Pattern
from app.scoring.calculation import Calculation
from app.table.settlement import Ledger
from app.table.sheet import Night, Row

COLUMNS = ("total", "nights", "hands", "won", "self_draws", "discard_wins", "deal_ins", "biggest", "average_fan",
           "name")


@dataclass(frozen=True, slots=True)
class PlayedTable:
    """One table of a night: its players (member ids of players 1-4) and its sheet priced."""

    night: int
    round: int
    table: int
    seats: tuple[int, int, int, int]
    priced: Night


@dataclass(frozen=True, slots=True)
class Biggest:
    """A member's biggest win: its fan, its largest pattern, and where it is (a row of a table)."""

    fan: int
    pattern: Pattern | None
    night: int
    round: int
    table: int
    hand: int           # the row's number on its sheet
    event: int | None = None   # a round's win: its event's index in the round (None: a hand)


@dataclass(frozen=True, slots=True)
class Line:
    member: int
    total: Amount = 0
    nights: int = 0
    hands: int = 0
    won: int = 0
    self_draws: int = 0
    discard_wins: int = 0
    deal_ins: int = 0
    fan_won: int = 0
    biggest: Biggest | None = None

    @property
    def average_fan(self) -> Fraction | None:
        return Fraction(self.fan_won, self.won) if self.won else None


@dataclass(frozen=True, slots=True)
class Standings:
    lines: tuple[Line, ...]          # best total first, ties by member id
    tables: int
    hands: int
    unbalanced: tuple[tuple[int, int, int], ...] = field(default=())   # tables (night, round, table) not summing to 0

    @property
    def total(self) -> Amount:
        return sum((line.total for line in self.lines), 0)

    @property
    def zero_sum(self) -> bool:
        return self.total == 0 and not self.unbalanced

    def line(self, member: int) -> Line | None:
        return next((line for line in self.lines if line.member == member), None)

    def order(self) -> tuple[int, ...]:
        """The members, best total first."""
        return tuple(line.member for line in self.lines)


class _Tally:
    """One member's counts as the rows are read."""

    def __init__(self, member: int) -> None:
        self.member = member
        self.total: Amount = 0
        self.nights: set[int] = set()
        self.hands = self.won = self.self_draws = self.discard_wins = self.deal_ins = self.fan_won = 0
        self.biggest: Biggest | None = None

    def line(self) -> Line:
        return Line(self.member, _tidy(self.total), len(self.nights), self.hands, self.won, self.self_draws,
                    self.discard_wins, self.deal_ins, self.fan_won, self.biggest)


def standings(tables: Iterable[PlayedTable], members: Iterable[int] = ()) -> Standings:
    """The standings of these tables: every member given (a line of zeros when they did not
    play) and every member who sat at one."""
    tallies: dict[int, _Tally] = {m: _Tally(m) for m in members}
    count = hands = 0
    unbalanced = []
    for played in tables:
        count += 1
        for member in played.seats:
            tallies.setdefault(member, _Tally(member)).nights.add(played.night)
        if sum(played.priced.totals) != 0:
            unbalanced.append((played.night, played.round, played.table))
        for row in played.priced.rows:
            if row.errors:
                continue
            hands += 1
            _count_row(row, played, tallies)
    lines = sorted((t.line() for t in tallies.values()), key=lambda line: (-line.total, line.member))
    return Standings(tuple(lines), count, hands, tuple(unbalanced))


def _count_row(row: Row, played: PlayedTable, tallies: dict[int, _Tally]) -> None:
    for player, amount in enumerate(row.amounts):
        tally = tallies[played.seats[player]]
        tally.total += amount
        tally.hands += 1
    at = {seat: played.seats[row.seats[i]] for i, seat in enumerate(SEATS)}
    if isinstance(row.ledger, Ledger):       # a round: each win as the ledger states it
        for step, calc in sorted(row.ledger.wins.items()):
            event = row.ledger.round.events[step]
            _count_win(tallies, at, calc, event.seat, event.by, event.discarder,
                       (played.night, played.round, played.table, row.number, step))
        return
    calc = row.calculation
    if calc is None or row.not_a_win:
        return
    _count_win(tallies, at, calc, calc.table.winner, calc.table.by, calc.table.discarder,
               (played.night, played.round, played.table, row.number, None))


def _count_win(tallies: dict[int, _Tally], at: dict[str, int], calc: Calculation, seat: str, by: WinBy,
               discarder: str | None, where: tuple[int, int, int, int, int | None]) -> None:
    """One win: the winner's count, self-draw or discard, the discarder's deal-in, the fan."""
    if calc.score.below_minimum:
        return
    winner = tallies[at[seat]]
    winner.won += 1
    if by == WinBy.SELF_DRAW:
        winner.self_draws += 1
    else:
        winner.discard_wins += 1
        if discarder in at:
            tallies[at[discarder]].deal_ins += 1
    fan = calc.score.total_fan
    winner.fan_won += fan
    if winner.biggest is None or fan > winner.biggest.fan:
        counted = [item for item in calc.score.items if item.counted]
        largest = max(counted, key=lambda item: item.fan, default=None)
        winner.biggest = Biggest(fan, largest.pattern if largest else None, *where)


def _tidy(amount: Amount) -> Amount:
    if isinstance(amount, Fraction) and amount.denominator == 1:
        return amount.numerator
    return amount


def sort_key(column: str):
    """A key that orders lines by a column, largest first (name: by the caller's names)."""
    if column == "biggest":
        return lambda line: -(line.biggest.fan if line.biggest else -1)
    if column == "average_fan":
        return lambda line: -(line.average_fan if line.average_fan is not None else -1)
    return lambda line: -getattr(line, column)


def sorted_lines(lines: Sequence[Line], column: str, names: dict[int, str] | None = None) -> tuple[Line, ...]:
    """The lines by a column (ValueError for one not in COLUMNS): largest first, the name A-Z."""
    if column not in COLUMNS:
        raise ValueError(f"{column!r} is not a column: {', '.join(COLUMNS)}")
    if column == "name":
        names = names or {}
        return tuple(sorted(lines, key=lambda line: (names.get(line.member, "").casefold(), line.member)))
    return tuple(sorted(lines, key=lambda line: (sort_key(column)(line), -line.total, line.member)))
