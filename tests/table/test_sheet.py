"""The game sheet's core: settling a night in the fewest transfers, reading and pricing a sheet."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.base.errors import HandError
from app.table.sheet import (
    MAX_ENTRIES,
    Entry,
    Transfer,
    add_entry,
    canonical,
    fewest_transfers,
    remove_entry,
)
from app.vocabulary.round import parse_round_text, read_round, settle_round
from app.vocabulary.sheet import (
    format_entry,
    parse_entry,
    price_sheet,
    read_seats,
    read_sheet,
    sheet_params,
)
from app.web.table.rounds import EXAMPLE


@st.composite
def zero_sum_balances(draw, most: int = 7):
    """Up to `most` people's balances (whole numbers or halves) that sum to zero."""
    n = draw(st.integers(0, most))
    amounts = draw(st.lists(st.integers(-60, 60).map(lambda v: Fraction(v, draw(st.sampled_from([1, 2])))),
                            min_size=n, max_size=n))
    if n:
        amounts.append(-sum(amounts))
    return {f"p{i}": a for i, a in enumerate(amounts)}


def _partitions(items: list):
    """Every way to split the items into groups (a naive oracle for small lists)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in _partitions(rest):
        for i in range(len(smaller)):
            yield smaller[:i] + [[first, *smaller[i]]] + smaller[i + 1:]
        yield [[first], *smaller]


def _most_zero_sum_groups(balances: dict) -> int:
    people = [p for p, v in balances.items() if v]
    return max(len(part) for part in _partitions(people)
               if all(sum(balances[p] for p in group) == 0 for group in part))


@given(zero_sum_balances())
@settings(max_examples=150, deadline=None)
def test_the_transfers_settle_every_balance_exactly(balances):
    transfers = fewest_transfers(balances)
    settled = dict.fromkeys(balances, 0)
    for t in transfers:
        assert t.amount > 0 and t.payer != t.payee
        settled[t.payer] -= t.amount
        settled[t.payee] += t.amount
    assert settled == balances


@given(zero_sum_balances())
@settings(max_examples=150, deadline=None)
def test_there_are_at_most_one_fewer_transfers_than_people_owed_or_owing(balances):
    involved = sum(1 for v in balances.values() if v)
    assert len(fewest_transfers(balances)) <= max(involved - 1, 0)


@given(zero_sum_balances(most=5))
@settings(max_examples=100, deadline=None)
def test_no_settlement_uses_fewer_transfers(balances):
    involved = sum(1 for v in balances.values() if v)
    fewest = involved - _most_zero_sum_groups(balances) if involved else 0
    assert len(fewest_transfers(balances)) == fewest


def test_two_pairs_that_cancel_settle_in_two_transfers_not_three():
    assert fewest_transfers({"E": 40, "S": -12, "W": 12, "N": -40}) == (
        Transfer("N", "E", 40), Transfer("S", "W", 12))


def test_balances_that_do_not_sum_to_zero_are_refused():
    with pytest.raises(ValueError, match="sum to 3"):
        fewest_transfers({"E": 5, "S": -2})


def test_a_seating_is_each_of_the_four_players_once():
    assert read_seats("2341") == (1, 2, 3, 0)
    for bad in ("1123", "123", "12345", "abcd", "5123"):
        with pytest.raises(HandError, match="not a seating"):
            read_seats(bad)


@pytest.mark.parametrize("line", [
    "hand=123456789m234p55s by=self-draw",
    "hand=123456789m234p55s seat=S discarder=N at=2341",
    "ticks=all-pongs,self-draw by=self-draw",
    "ledger at=4123 / missing E=p S=m W=s N=p / win E self-draw hand=123s456s789s234s55s",
])
def test_an_entry_reads_back_as_the_line_it_was_written_from(line):
    assert format_entry(parse_entry(line)) == line


def test_an_entry_refuses_the_rules_and_dials_which_belong_to_the_sheet():
    with pytest.raises(HandError, match="'rules' is not part of a hand"):
        parse_entry("hand=123456789m234p55s rules=sichuan")
    with pytest.raises(HandError, match="'stake' is not part of a hand"):
        parse_entry("hand=123456789m234p55s stake=2")


NIGHT = {"rules": "hong-kong", "names": "Ann,Bob,Cy,Di", "hands": "\n".join([
    "hand=123456789m234p55s by=self-draw",
    "hand=123456789m234p55s seat=S discarder=N",
    "hand=123456789m234p55s by=self-draw seat=W at=2341",
    "hand=123456789m234p55s seat=N discarder=S",
])}


def test_a_hand_without_a_seating_sits_as_the_one_before():
    sheet = read_sheet(NIGHT)
    assert sheet.seating() == ((0, 1, 2, 3), (0, 1, 2, 3), (1, 2, 3, 0), (1, 2, 3, 0))
    assert sheet.next_seats() == (1, 2, 3, 0)


def test_a_night_of_four_hands_adds_up_as_worked_by_hand():
    # Hong Kong defaults: 2^fan base points, discarder pays half (2 x base), others 1 x base,
    # a self-draw 2 x base from each.
    # 1: Ann (E) self-draws all chows + no bonus + concealed + self-draw = 4 fan, base 16:
    #    Ann +96, the others -32.
    # 2: Bob (S) wins 3 fan (base 8) on Di's (N) discard: Bob +32, Di -16, Ann and Cy -8.
    # 3: seats move (Bob E, Cy S, Di W, Ann N); Di (W) self-draws 4 fan: Di +96, the others -32.
    # 4: Ann (N) wins 3 fan on Cy's (S) discard: Ann +32, Cy -16, Bob and Di -8.
    # Ann 96-8-32+32 = 88, Bob -32+32-32-8 = -40, Cy -32-8-32-16 = -88, Di -32-16+96-8 = 40.
    night = price_sheet(read_sheet(NIGHT))
    assert [row.amounts for row in night.rows] == [
        (96, -32, -32, -32), (-8, 32, -8, -16), (-32, -32, -32, 96), (32, -8, -16, -8)]
    assert night.totals == (88, -40, -88, 40)
    assert all(sum(row.running) == 0 for row in night.rows)
    assert night.transfers == (Transfer("2", "0", 88), Transfer("1", "3", 40))   # Cy→Ann, Bob→Di


def test_the_stake_of_the_sheet_multiplies_every_hand():
    night = price_sheet(read_sheet({**NIGHT, "stake": "0.5"}))
    assert night.totals == (44, -20, -44, 20)


def test_a_bad_hand_counts_nothing_and_says_why_while_the_others_still_count():
    sheet = read_sheet({**NIGHT, "hands": NIGHT["hands"] + "\nhand=123m"})
    night = price_sheet(sheet)
    assert night.rows[-1].errors and night.rows[-1].amounts == (0, 0, 0, 0)
    assert night.totals == (88, -40, -88, 40)


def test_a_round_of_the_ledger_is_one_entry_with_the_rounds_totals_by_player():
    ledger = settle_round(read_round(parse_round_text(EXAMPLE, "sichuan")))
    entry = parse_entry("ledger at=2341 / " + " / ".join(EXAMPLE.splitlines()))
    night = price_sheet(read_sheet({"rules": "sichuan", "hands": format_entry(entry)}))
    # player 2 sat at East, 3 at South, 4 at West, 1 at North
    assert night.totals == (ledger.totals["N"], ledger.totals["E"], ledger.totals["S"], ledger.totals["W"])
    assert sum(night.totals) == 0


def test_adding_a_hand_records_the_seats_chosen_for_it_and_the_next_starts_there():
    sheet = read_sheet({**NIGHT, "seats": "3412"})
    added = add_entry(sheet, parse_entry("hand=123456789m234p55s by=self-draw"))
    assert added.seating()[-1] == (2, 3, 0, 1)
    assert added.next_seats() == (2, 3, 0, 1)
    assert format_entry(canonical(added).entries[-1]).endswith("at=3412")


def test_removing_a_hand_keeps_every_other_hands_seats():
    sheet = read_sheet(NIGHT)
    removed = remove_entry(sheet, 3)     # the hand that moved the seats
    assert removed.seating() == ((0, 1, 2, 3), (0, 1, 2, 3), (1, 2, 3, 0))
    with pytest.raises(HandError, match="no hand 9"):
        remove_entry(sheet, 9)


def test_replacing_a_hand_keeps_its_seats():
    sheet = read_sheet(NIGHT)
    edited = add_entry(sheet, parse_entry("hand=123456789m234p55s seat=W"), replace=3)
    assert edited.seating()[2] == (1, 2, 3, 0) and len(edited.entries) == 4


def test_a_sheet_holds_a_hundred_hands_and_refuses_the_next():
    full = read_sheet({"rules": "hong-kong", "hands": "\n".join(["fan=3"] * MAX_ENTRIES)})
    with pytest.raises(HandError, match="the sheet is full"):
        add_entry(full, Entry(params=(("fan", "3"),)))
    with pytest.raises(HandError, match="more than a sheet holds"):
        read_sheet({"rules": "hong-kong", "hands": "\n".join(["fan=3"] * (MAX_ENTRIES + 1))})


def test_a_sheet_reads_back_from_its_own_link_parameters():
    sheet = canonical(read_sheet({**NIGHT, "min": "4", "seats": "4123"}))
    assert canonical(read_sheet(sheet_params(sheet))) == sheet


def test_names_are_optional_and_a_comma_cannot_split_one():
    sheet = read_sheet({"rules": "hong-kong"}, ["Ann, Jr", "", "Cy", ""])
    assert [sheet.player(i) for i in range(4)] == ["Ann Jr", "P2", "Cy", "P4"]


def test_a_name_given_twice_is_refused_on_the_names_field():
    with pytest.raises(HandError) as err:
        read_sheet({"rules": "hong-kong", "names": "Ann,Bob,ann,Di"})
    assert [e.field for e in err.value.errors] == ["names"]
    assert "named twice" in str(err.value.errors[0].message)


def test_a_hand_below_the_minimum_is_not_a_win_and_pays_nothing_with_the_reason():
    # 3 and 4 fan under a minimum of 5: both below; a pure triplets hand (11 fan) above
    night = price_sheet(read_sheet({"rules": "hong-kong", "min": "5", "hands": "\n".join([
        "hand=123m456m789p234s55s win=5s", "hand=123456789m234p55s by=self-draw",
        "hand=111m222m333m99p777s by=self-draw"])}))
    below, below_too, win = night.rows
    assert below.not_a_win and below_too.not_a_win and not win.not_a_win
    assert below.amounts == below_too.amounts == below_too.running == (0, 0, 0, 0)
    assert "3 fan is below the minimum 5" in str(below.reason) and win.reason is None
    assert night.totals == win.amounts and sum(win.amounts) == 0 and any(win.amounts)
