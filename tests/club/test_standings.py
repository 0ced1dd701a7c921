"""A season's standings from its tables' priced sheets: the totals by member, wins, self-draws,
wins on discards, deal-ins, the biggest hand; zero-sum; a corrected hand re-ranks the season;
the rating follows who won each table."""
from __future__ import annotations

from app.club.rating import ratings
from app.club.standings import PlayedTable, sorted_lines, standings
from app.table.sheet import Entry, Sheet
from app.vocabulary.sheet import parse_entry, price_sheet

SMALL = "hand=123m456m789m234p55s"           # all chows: a small win
BIG = "hand=111m222m333m444p55p"             # all pongs, and more: a bigger one


def _table(night: int, table: int, seats, lines: list[str]) -> PlayedTable:
    sheet = Sheet("hong-kong", ("A", "B", "C", "D"), entries=tuple(parse_entry(ln) for ln in lines))
    return PlayedTable(night, 1, table, tuple(seats), price_sheet(sheet))


def _season(second_line: str):
    """Two nights: members 1-4 at one table each night, 5-8 at another on night 2."""
    return [
        _table(1, 1, (1, 2, 3, 4), [f"{SMALL} by=self-draw seat=E", f"{SMALL} seat=S discarder=W"]),
        _table(2, 1, (1, 2, 3, 4), [second_line]),
        _table(2, 2, (5, 6, 7, 8), [f"{BIG} seat=N discarder=E"]),
    ]


def test_each_members_counts_are_what_their_seats_did():
    tables = _season(f"{SMALL} seat=W discarder=E")
    found = standings(tables, range(1, 10))
    one, two, three, four = (found.line(m) for m in (1, 2, 3, 4))
    assert (one.won, one.self_draws, one.discard_wins, one.deal_ins) == (1, 1, 0, 1)
    assert (two.won, two.self_draws, two.discard_wins) == (1, 0, 1)
    assert (three.won, three.discard_wins, three.deal_ins) == (1, 1, 1)
    assert four.won == 0 and four.deal_ins == 0
    assert one.nights == 2 and found.line(5).nights == 1 and found.line(9).nights == 0
    assert one.hands == 3 and found.line(8).hands == 1
    eight = found.line(8)
    assert eight.biggest is not None and eight.biggest.fan > one.biggest.fan
    assert eight.biggest.pattern is not None and (eight.biggest.night, eight.biggest.table, eight.biggest.hand) == (2, 2, 1)
    assert eight.average_fan == eight.biggest.fan


def test_the_totals_are_the_sheets_totals_by_member_and_sum_to_zero():
    tables = _season(f"{SMALL} seat=W discarder=E")
    found = standings(tables)
    by_member: dict[int, object] = {}
    for played in tables:
        for player, member in enumerate(played.seats):
            by_member[member] = by_member.get(member, 0) + played.priced.totals[player]
    assert {line.member: line.total for line in found.lines} == by_member
    assert found.zero_sum and found.total == 0 and found.hands == 4
    assert [line.total for line in found.lines] == sorted((line.total for line in found.lines), reverse=True)


def test_a_corrected_hand_re_ranks_the_season():
    before = standings(_season(f"{SMALL} seat=W discarder=E"))
    after = standings(_season(f"{BIG} seat=N discarder=E"))    # night 2's hand corrected: D won, big
    assert before.order().index(4) > after.order().index(4)
    assert (before.line(3).won, after.line(3).won) == (1, 0)     # the win moved from C to D
    assert (before.line(4).won, after.line(4).won) == (0, 1) and after.zero_sum


def test_a_refused_hand_counts_nothing_and_a_hand_below_the_minimum_is_no_win():
    sheet = Sheet("hong-kong", entries=(parse_entry("hand=11m seat=S discarder=E"),
                                        Entry(params=(("hand", "111m456m789m234p55s"), ("seat", "S"),
                                                      ("discarder", "E")))))
    found = standings([PlayedTable(1, 1, 1, (1, 2, 3, 4), price_sheet(sheet))])
    assert found.hands == 1 and all(line.won == 0 and line.total == 0 for line in found.lines)


def test_sorting_by_a_column_largest_first_and_by_name_a_to_z():
    found = standings(_season(f"{SMALL} seat=W discarder=E"))
    by_deal_ins = sorted_lines(found.lines, "deal_ins")
    assert [line.deal_ins for line in by_deal_ins] == sorted((line.deal_ins for line in found.lines), reverse=True)
    names = {1: "Zoe", 2: "amy", 3: "Bo", 4: "陳", 5: "Cy", 6: "Di", 7: "Ed", 8: "Flo"}
    assert [names[line.member] for line in sorted_lines(found.lines, "name", names)][:3] == ["amy", "Bo", "Cy"]


def test_the_rating_rises_for_the_table_winner_and_keeps_one_value_a_night():
    tables = _season(f"{SMALL} seat=W discarder=E")
    found = ratings(tables)
    assert len(found[1]) == 2 and [r.night for r in found[1]] == [1, 2] and len(found[5]) == 1
    night_two = {m: found[m][-1].rating for m in (5, 6, 7, 8)}
    assert night_two[8] == max(night_two.values()) and night_two[5] == min(night_two.values())
    assert all(r.sigma < 25 / 3 for rated in found.values() for r in rated)
