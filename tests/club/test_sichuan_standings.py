"""Sichuan (blood battle) rounds in the standings: a round of the round ledger on a table's
sheet counts each of its wins as the ledger states it (the winner's win, self-draw or win on a
discard, the discarder's deal-in, the fan), and the season still sums to zero.

The rounds are the golden whole rounds of tests/golden/rounds/blood-battle.yaml (the seed
pages' worked examples and rounds worked by hand); what each member should have won, drawn,
dealt in and been paid is read from the case's own text and its expected payments, not from
the engine."""
from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from app.club.standings import PlayedTable, standings
from app.hands.hand import SEATS
from app.table.sheet import Sheet
from app.vocabulary.sheet import parse_entry, price_sheet

ROUNDS = yaml.safe_load((Path(__file__).resolve().parents[1] / "golden" / "rounds" / "blood-battle.yaml")
                        .read_text(encoding="utf-8"))["cases"]
WITH_WINS = [case for case in ROUNDS if re.search(r"^win ", case["round"], re.M)]
WIN = re.compile(r"^win ([ESWN]) (?:(self-draw)|discard from ([ESWN]))", re.M)


def _line(case, at: str = "") -> str:
    """The round as one line of a sheet (the ledger's lines joined by ' / '; `at`: who sits where)."""
    return f"ledger{' at=' + at if at else ''} / " + " / ".join(case["round"].strip().splitlines())


def _said(case) -> dict[str, dict[str, int]]:
    """Each seat's wins, self-draws, wins on a discard and deal-ins, as the round's text says."""
    found = {seat: {"won": 0, "self_draws": 0, "discard_wins": 0, "deal_ins": 0} for seat in SEATS}
    for seat, self_draw, discarder in WIN.findall(case["round"]):
        found[seat]["won"] += 1
        found[seat]["self_draws" if self_draw else "discard_wins"] += 1
        if discarder:
            found[discarder]["deal_ins"] += 1
    return found


def _win_fans(case) -> dict[str, list[int]]:
    """Each winner's fan by the seed's Sichuan (sichuan): a win's fan is what each payer pays
    it (additive points, stake 1), read from the case's expected win lines."""
    events = [ln for ln in case["round"].strip().splitlines() if not ln.startswith(("missing", "options", "wall"))]
    fans: dict[str, list[int]] = {}
    for step in sorted({line[0] for line in case["lines"] if line[1] == "win"}):
        amounts = {line[4] for line in case["lines"] if line[1] == "win" and line[0] == step}
        assert len(amounts) == 1, case["id"]
        fans.setdefault(events[step].split()[1], []).append(amounts.pop())
    return fans


@pytest.mark.parametrize("case", WITH_WINS, ids=[c["id"] for c in WITH_WINS])
def test_each_win_of_a_golden_round_counts_for_its_winner_and_its_discarder(case):
    members = {"E": 11, "S": 12, "W": 13, "N": 14}
    sheet = Sheet(case["rules"], ("A", "B", "C", "D"), entries=(parse_entry(_line(case)),))
    found = standings([PlayedTable(1, 1, 1, (11, 12, 13, 14), price_sheet(sheet))])
    said = _said(case)
    for seat, member in members.items():
        line = found.line(member)
        assert {k: getattr(line, k) for k in said[seat]} == said[seat], (case["id"], seat)
        assert line.total == case["totals"][seat] and line.hands == 1
    assert found.zero_sum and found.hands == 1


SEED_SICHUAN = [case for case in WITH_WINS if case["rules"] == "sichuan"]


@pytest.mark.parametrize("case", SEED_SICHUAN, ids=[c["id"] for c in SEED_SICHUAN])
def test_a_rounds_wins_bring_their_fan_to_the_biggest_hand_and_the_average(case):
    sheet = Sheet("sichuan", entries=(parse_entry(_line(case)),))
    found = standings([PlayedTable(1, 1, 1, (11, 12, 13, 14), price_sheet(sheet))])
    for seat, fans in _win_fans(case).items():
        line = found.line(11 + SEATS.index(seat))
        assert line.fan_won == sum(fans) and line.average_fan == Fraction(sum(fans), len(fans))
        assert line.biggest.fan == max(fans) and line.biggest.hand == 1
        assert line.biggest.pattern is not None and line.biggest.event is not None
    assert all(found.line(m).biggest is None for m in (11, 12, 13, 14) if found.line(m).won == 0)


def test_a_night_of_rounds_at_moving_seats_counts_each_win_for_the_member_in_that_seat():
    """Three golden rounds on one sheet, the players moving seats between them (at=), with a
    hand of the calculator's between: each win goes to the member sitting where the ledger says."""
    full, third, two_winners = (next(c for c in ROUNDS if c["id"] == name) for name in
                                ("SC-full-round", "SC-third-winner", "SC-call-transfer-two-winners"))
    lines = [_line(full), _line(third, "2341"), "hand=123m456m789m234p55p seat=S discarder=E",
             _line(two_winners, "3412")]
    priced = price_sheet(Sheet("sichuan", ("A", "B", "C", "D"), entries=tuple(parse_entry(ln) for ln in lines)))
    assert not any(row.errors for row in priced.rows)
    seats = (21, 22, 23, 24)                     # players 1-4
    found = standings([PlayedTable(3, 1, 2, seats, priced)])
    expected = {m: {"won": 0, "self_draws": 0, "discard_wins": 0, "deal_ins": 0} for m in seats}
    totals = dict.fromkeys(seats, 0)
    for case, at in ((full, "1234"), (third, "2341"), (two_winners, "3412")):
        for i, seat in enumerate(SEATS):      # the player at E is at[0] …
            member = seats[int(at[i]) - 1]
            for key, value in _said(case)[seat].items():
                expected[member][key] += value
            totals[member] += case["totals"][seat]
    # the hand sits as the round before it (2341): player 3 at S won on the discard of player 2 at E
    expected[seats[2]]["won"] += 1
    expected[seats[2]]["discard_wins"] += 1
    expected[seats[1]]["deal_ins"] += 1
    for member in seats:
        line = found.line(member)
        assert {k: getattr(line, k) for k in expected[member]} == expected[member], member
        assert line.hands == 4
    assert [row.seats for row in priced.rows] == [(0, 1, 2, 3), (1, 2, 3, 0), (1, 2, 3, 0), (2, 3, 0, 1)]
    hand_row = priced.rows[2]
    assert {m: found.line(m).total for m in seats} == {
        m: totals[m] + hand_row.amounts[seats.index(m)] for m in seats}
    assert found.zero_sum


def test_a_refused_round_counts_nothing():
    bad = "ledger / missing E=p / win E self-draw hand=123p456m789m234m55m"    # holds its missing suit
    found = standings([PlayedTable(1, 1, 1, (1, 2, 3, 4), price_sheet(Sheet("sichuan", entries=(parse_entry(bad),))))])
    assert found.hands == 0 and all(line.won == 0 and line.total == 0 for line in found.lines)
