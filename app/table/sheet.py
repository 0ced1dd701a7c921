"""A game night's sheet: the hands of an evening, running totals per player, who pays whom.

A sheet is text that fits in a link: the ruleset and its dials once, the four players'
names, and one entry a line. An entry is either one hand in the calculator's vocabulary
(`hand=123m456m789m234p55s by=self-draw seat=E`) or, for a Sichuan table, a whole round
of the round ledger (`ledger / missing E=p S=m / win E self-draw hand=…`). Each entry
says which player sat where (`at=2341`: player 2 at East, 3 at South …); an entry that
does not say sits as the one before it. The sheet prices every entry with the engine,
keeps running totals per player (they sum to zero after every hand) and settles the
night in the fewest transfers (app/vocabulary/sheet.py reads and prices the entries).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from app.base.errors import FieldError, HandError
from app.base.i18n import Msg
from app.hands.hand import SEATS
from app.rules.model import Amount, Ruleset, exact
from app.scoring.calculation import Calculation
from app.scoring.selection import Settings

from .kept import Kept
from .settlement import Ledger

MAX_ENTRIES = 100           # hands on one sheet
MAX_SETTLE = 12             # people fewest_transfers settles exactly (2^n subsets)
FIRST_SEATS = (0, 1, 2, 3)  # player 1 at East, 2 at South, 3 at West, 4 at North


# --- settling a night ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment that settles the night: payer gives payee the amount."""

    payer: str
    payee: str
    amount: Amount


def fewest_transfers(balances: Mapping[str, Amount]) -> tuple[Transfer, ...]:
    """Settle zero-sum balances (what each person is owed) in as few payments as can be.

    The fewest payments is the number of people owed or owing, less the most groups they
    split into that each sum to zero (each such group settles by itself in one payment
    fewer than its size); the groups are found over every subset.

    >>> fewest_transfers({"N": -40, "E": 40, "S": -12, "W": 12})
    (Transfer(payer='N', payee='E', amount=40), Transfer(payer='S', payee='W', amount=12))
    """
    people = [p for p, v in balances.items() if v]
    values = [balances[p] for p in people]
    if sum(values) != 0:
        raise ValueError(f"the balances sum to {sum(values)}, not zero")
    if len(people) > MAX_SETTLE:
        raise ValueError(f"{len(people)} people is more than {MAX_SETTLE} to settle exactly")
    transfers: list[Transfer] = []
    for group in _zero_sum_groups(values):
        transfers += _settle_group([(people[i], values[i]) for i in group])
    return tuple(transfers)


def _zero_sum_groups(values: Sequence[Amount]) -> list[list[int]]:
    """Split the indices into as many zero-sum groups as possible (dynamic programme on subsets)."""
    n = len(values)
    full = (1 << n) - 1
    total = [0] * (full + 1)
    groups = [0] * (full + 1)      # most zero-sum groups a subset's members can be split into
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
        groups[mask] = max(groups[mask ^ (1 << i)] for i in range(n) if mask >> i & 1) \
            + (total[mask] == 0)
    # walk back: peel off members one at a time along a best path; a group closes where
    # the remaining members sum to zero
    order: list[int] = []
    mask = full
    while mask:
        gain = total[mask] == 0
        i = next(i for i in range(n) if mask >> i & 1 and groups[mask ^ (1 << i)] + gain == groups[mask])
        order.append(i)
        mask ^= 1 << i
    order.reverse()                # members in the order they were added from the empty set
    found, current, running = [], [], 0
    for i in order:
        current.append(i)
        running += values[i]
        if running == 0:
            found.append(sorted(current))
            current = []
    return sorted(found)           # groups in the order of their first member


def _settle_group(members: list[tuple[str, Amount]]) -> list[Transfer]:
    """Settle a zero-sum group: the one owing most pays the one owed most, until all are even."""
    owed = dict(members)
    order = {p: i for i, (p, _) in enumerate(members)}
    transfers = []
    while any(owed.values()):
        payer = min(owed, key=lambda p: (owed[p], order[p]))
        payee = max(owed, key=lambda p: (owed[p], -order[p]))
        amount = min(-owed[payer], owed[payee])
        transfers.append(Transfer(payer, payee, _tidy(amount)))
        owed[payer] += amount
        owed[payee] -= amount
    return transfers


def _tidy(amount: Amount) -> Amount:
    return exact(amount) if isinstance(amount, Fraction) else amount


# --- reading a sheet ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One hand (calculator parameters) or one Sichuan round (ledger notation) of the night."""

    params: tuple[tuple[str, str], ...] = ()   # a hand: its description, without rules or dials
    round_text: str = ""                       # a round: the ledger's lines
    at: tuple[int, ...] | None = None          # player index at E, S, W, N; None: as before

    @property
    def is_round(self) -> bool:
        return bool(self.round_text)


@dataclass(frozen=True, slots=True)
class Sheet:
    rules: str
    names: tuple[str, str, str, str] = ("", "", "", "")
    dials: tuple[tuple[str, str], ...] = ()
    entries: tuple[Entry, ...] = ()
    seats: tuple[int, ...] | None = None       # for the next hand; None: as the last hand

    def player(self, index: int) -> str:
        """The player's name, or 'P1'-'P4' when none was given."""
        return self.names[index] or f"P{index + 1}"

    def seating(self) -> tuple[tuple[int, ...], ...]:
        """Who sat where at each entry: an entry without `at` sits as the one before."""
        found, last = [], FIRST_SEATS
        for entry in self.entries:
            last = entry.at or last
            found.append(last)
        return tuple(found)

    def next_seats(self) -> tuple[int, ...]:
        """Where the players sit for the next hand: as chosen, else as at the last hand."""
        seating = self.seating()
        return self.seats or (seating[-1] if seating else FIRST_SEATS)


def _fail(field_name: str, message: str) -> HandError:
    return HandError([FieldError(field_name, message)])


def last_seats(sheet: Sheet) -> tuple[int, ...]:
    """Where the players sat at the last entry (1234 on an empty sheet)."""
    seating = sheet.seating()
    return seating[-1] if seating else FIRST_SEATS


def add_entry(sheet: Sheet, entry: Entry, replace: int | None = None) -> Sheet:
    """The sheet with the entry added at the next seats, or put in place of hand `replace` (1-based)."""
    entries = list(sheet.entries)
    seating = sheet.seating()
    if replace is not None:
        if not 1 <= replace <= len(entries):
            raise _fail("entry", Msg("there is no hand {number} on the sheet", number=replace))
        at = entry.at or seating[replace - 1]
        entries[replace - 1] = Entry(entry.params, entry.round_text, at)
        return _canonical_seating(Sheet(sheet.rules, sheet.names, sheet.dials, tuple(entries), sheet.seats))
    if len(entries) >= MAX_ENTRIES:
        raise _fail("hands", Msg("the sheet is full: it holds {most} hands; export it and start another",
                                 most=MAX_ENTRIES))
    entries.append(Entry(entry.params, entry.round_text, entry.at or sheet.next_seats()))
    return _canonical_seating(Sheet(sheet.rules, sheet.names, sheet.dials, tuple(entries), None))


def remove_entry(sheet: Sheet, number: int) -> Sheet:
    """The sheet without hand `number` (1-based); the others keep their seats."""
    if not 1 <= number <= len(sheet.entries):
        raise _fail("remove", Msg("there is no hand {number} on the sheet", number=number))
    seating = sheet.seating()
    entries = tuple(Entry(e.params, e.round_text, seating[i])
                    for i, e in enumerate(sheet.entries) if i != number - 1)
    return _canonical_seating(Sheet(sheet.rules, sheet.names, sheet.dials, entries, sheet.seats))


def _canonical_seating(sheet: Sheet) -> Sheet:
    """Write `at` only where the seats change (the first hand: where it differs from 1234)."""
    seating = sheet.seating()
    entries, last = [], FIRST_SEATS
    for entry, seats in zip(sheet.entries, seating, strict=True):
        entries.append(Entry(entry.params, entry.round_text, None if seats == last else seats))
        last = seats
    return Sheet(sheet.rules, sheet.names, sheet.dials, tuple(entries), sheet.seats)


def canonical(sheet: Sheet) -> Sheet:
    """The same sheet written the shortest way: `at` only where the seats move."""
    return _canonical_seating(sheet)


# --- pricing a sheet ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Row:
    """One entry priced: what each player won or paid, and the totals after it."""

    number: int
    entry: Entry
    seats: tuple[int, ...]                 # player index at E, S, W, N
    amounts: tuple[Amount, ...]            # by player
    running: tuple[Amount, ...]            # by player, after this entry
    calculation: Calculation | None = None
    ledger: Ledger | None = None
    errors: tuple[FieldError, ...] = ()

    @property
    def not_a_win(self) -> bool:
        """A hand whose fan does not reach the minimum: not a win, so nobody pays (0 for everyone)."""
        return self.calculation is not None and self.calculation.score.below_minimum

    @property
    def reason(self) -> Msg | None:
        """Why a hand that is not a win pays nothing (the payments' own words), else None."""
        if not self.not_a_win:
            return None
        return self.calculation.payments[0].reason if self.calculation.payments else None


@dataclass(frozen=True, slots=True)
class Night:
    sheet: Sheet
    ruleset: Ruleset
    rows: tuple[Row, ...]
    totals: tuple[Amount, ...]             # by player
    transfers: tuple[Transfer, ...]        # payer and payee are player indices as strings


def tally(sheet: Sheet, ruleset: Ruleset, settings: Settings,
          priced: Sequence[Calculation | Ledger | HandError | Kept]) -> Night:
    """The night of a sheet whose entries are priced (app/vocabulary/sheet.py prices them in
    order): each entry's amounts by player, running totals, and the fewest transfers; a
    refused entry counts nothing and keeps its errors."""
    rows: list[Row] = []
    running: list[Amount] = [0, 0, 0, 0]
    for number, (entry, seats, found) in enumerate(zip(sheet.entries, sheet.seating(), priced,
                                                       strict=True), 1):
        amounts: list[Amount] = [0, 0, 0, 0]
        calc = ledger = None
        errors: tuple[FieldError, ...] = ()
        if isinstance(found, HandError):
            errors = found.errors
        elif isinstance(found, Kept):    # priced when it was stored: its amounts by seat, as kept
            errors = found.errors
            calc, ledger = (None, found) if found.is_round else (found.hand, None)
            for i in range(4):
                amounts[seats[i]] += found.by_seat[i]
        elif isinstance(found, Ledger):
            ledger = found
            scale = Fraction(settings.stake) / Fraction(ruleset.dials.stake)
            for i, seat in enumerate(SEATS):
                amounts[seats[i]] += _tidy(ledger.totals[seat] * scale)
        else:
            calc = found
            for p in calc.payments:
                amounts[seats[SEATS.index(p.seat)]] += p.amount
        running = [_tidy(r + a) for r, a in zip(running, amounts, strict=True)]
        rows.append(Row(number, entry, seats, tuple(_tidy(a) for a in amounts), tuple(running),
                        calc, ledger, errors))
    totals = tuple(running)
    transfers = tuple(Transfer(t.payer, t.payee, t.amount) for t in
                      fewest_transfers({str(i): v for i, v in enumerate(totals)}))
    return Night(sheet, ruleset, tuple(rows), totals, transfers)
