"""Seating the members present: seeded random draws, the standings snake, fewest repeated
meetings across rounds, and byes to those who sat out least."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.club.seating import meetings, seat


def _cost(tables, met) -> int:
    now = meetings(tables)
    return sum(met.get(pair, 0) for pair in now)


@given(st.integers(4, 60), st.sampled_from(["random", "snake", "meet"]), st.text(max_size=8))
def test_every_member_present_is_seated_once_or_sits_out_and_tables_seat_four(count, method, seed):
    present = list(range(1, count + 1))
    plan = seat(method, present, seed, order=present[::-1])
    seated = [m for t in plan.tables for m in t]
    assert all(len(t) == 4 for t in plan.tables)
    assert sorted(seated + list(plan.byes)) == present
    assert len(plan.byes) == count % 4


def test_a_seed_draws_the_same_tables_again_and_another_seed_others():
    present = list(range(1, 13))
    assert seat("random", present, "2026").tables == seat("random", present, "2026").tables
    draws = {seat("random", present, str(s)).tables for s in range(10)}
    assert len(draws) > 1


def test_fewer_than_four_or_an_unknown_method_is_refused():
    with pytest.raises(ValueError):
        seat("random", [1, 2, 3], "1")
    with pytest.raises(ValueError):
        seat("swiss", [1, 2, 3, 4], "1")


def test_the_snake_deals_the_standings_to_the_tables_and_back():
    order = [5, 9, 1, 12, 3, 7, 2, 8, 11, 4, 6, 10]     # best first
    plan = seat("snake", list(range(1, 13)), "1", order=order)
    # ranks 1 2 3 to tables 1 2 3, ranks 4 5 6 to tables 3 2 1, ranks 7 8 9 to 1 2 3, …
    assert plan.tables == ((5, 7, 2, 10), (9, 3, 8, 6), (1, 12, 11, 4))


def test_byes_go_to_those_who_sat_out_least():
    present = list(range(1, 10))       # 9: one sits out each round
    byes: Counter[int] = Counter()
    for night in range(9):
        plan = seat("random", present, f"n{night}", byes_so_far=byes)
        byes.update(plan.byes)
    assert set(byes.values()) == {1}   # nine rounds, nine different members sat out


def test_everyone_meets_everyone_as_far_as_numbers_allow():
    sixteen = list(range(1, 17))
    first = seat("meet", sixteen, "1")
    second = seat("meet", sixteen, "2", met=meetings(first.tables))
    assert _cost(second.tables, meetings(first.tables)) == 0     # four new tables: nobody meets again
    eight = list(range(1, 9))
    first = seat("meet", eight, "1")
    second = seat("meet", eight, "2", met=meetings(first.tables))
    # two tables of four: each new table takes two from each old one, the fewest repeats (2 + 2)
    assert _cost(second.tables, meetings(first.tables)) == 4
    assert _cost(seat("random", eight, "3").tables, meetings(first.tables)) >= 4


COUNTS = (5, 6, 7, 9, 10, 11, 13)


@pytest.mark.parametrize("method", ["random", "snake", "meet"])
@pytest.mark.parametrize("count", COUNTS)
def test_a_count_not_a_multiple_of_four_gives_byes_to_those_who_sat_out_least(count, method):
    """No table plays three-handed (no family here prices three players): the remainder sits
    out, and of two rounds in a row nobody sits out twice while someone has not sat out yet."""
    present = list(range(1, count + 1))
    order = present[::-1]
    tables, out = divmod(count, 4)
    byes: Counter[int] = Counter({m: 1 for m in present[:out]})    # these sat out last round
    plan = seat(method, present, "x", order=order, met=meetings([present[:4]]), byes_so_far=byes)
    assert len(plan.tables) == tables and all(len(t) == 4 for t in plan.tables)
    assert len(plan.byes) == out and not set(plan.byes) & set(present[:out])
    assert sorted([m for t in plan.tables for m in t] + list(plan.byes)) == present
    playing = [m for m in order if m not in plan.byes]
    if method == "snake":      # the members playing, dealt to the tables in the standings' order
        assert plan.tables == seat("snake", playing, "y", order=order).tables
    if method == "meet":       # members 1-4 met: spread over the tables, the fewest pairs of them meet again
        met = [m for m in (1, 2, 3, 4) if m not in plan.byes]
        each, more = divmod(len(met), tables)
        fewest = more * (each + 1) * each // 2 + (tables - more) * each * (each - 1) // 2
        assert sum(len(meetings([[m for m in t if m in met]])) for t in plan.tables) == fewest
