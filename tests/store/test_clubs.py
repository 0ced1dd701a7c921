"""The club store against SQLite and PostgreSQL: three links and what each may do, members and
their names' history, seasons, nights whose tables are stored sheets, tokens sealed at rest."""
from __future__ import annotations

import pytest

from app.base.errors import HandError
from app.store.clubs import (
    ClubGone,
    ClubStore,
    NotAllowed,
    member_token_of,
    seal,
    view_token_of_member,
)
from app.store.database import open_database
from app.store.sheets import SheetGone, token_hash


@pytest.fixture
def db(database_env):
    return open_database(database_env)


@pytest.fixture
def clubs(db):
    return ClubStore(db)


def _club_with(clubs: ClubStore, names: list[str]) -> tuple[str, list[int]]:
    token = clubs.create("Thursday club", "hong-kong", "Spring")
    return token, [clubs.add_member(token, name) for name in names]


def _seat_one(clubs: ClubStore, token: str, ids: list[int]) -> int:
    night = clubs.start_night(token, ids)
    settings = {"rules": "hong-kong", "names": ",".join(f"P{m}" for m in ids[:4])}
    clubs.seat_round(token, night, "random", "42", [ids[:4]], ids[4:], [settings])
    return night


def test_three_links_each_open_the_club_in_its_role_and_show_only_those_below(clubs):
    organiser = clubs.create("Thursday club", "hong-kong", "Spring")
    member = member_token_of(organiser)
    view = view_token_of_member(member)
    assert len({organiser, member, view}) == 3 and all(len(t) == 24 for t in (organiser, member, view))
    assert clubs.open(organiser).role == "organiser" and clubs.open(organiser).manages
    opened_member = clubs.open(member)
    assert opened_member.role == "member" and opened_member.records and not opened_member.manages
    assert set(opened_member.tokens) == {"member", "view"}
    opened_view = clubs.open(view)
    assert opened_view.role == "view" and not opened_view.records and set(opened_view.tokens) == {"view"}
    assert clubs.open(view).seasons[0].rules == "hong-kong"
    with pytest.raises(ClubGone):
        clubs.open(organiser[:-1] + ("A" if organiser[-1] != "A" else "B"))


def test_only_the_organiser_link_manages(clubs):
    organiser, ids = _club_with(clubs, ["Ann", "Bob", "Cy", "Di"])
    member = member_token_of(organiser)
    view = view_token_of_member(member)
    for token, role in ((member, "member"), (view, "view")):
        with pytest.raises(NotAllowed) as refused:
            clubs.add_member(token, "Eve")
        assert refused.value.role == role
        with pytest.raises(NotAllowed):
            clubs.rename_member(token, ids[0], "Anne")
        with pytest.raises(NotAllowed):
            clubs.start_night(token, ids)
        with pytest.raises(NotAllowed):
            clubs.new_season(token, "Summer", "sichuan")
    assert [m.name for m in clubs.open(view).members] == ["Ann", "Bob", "Cy", "Di"]
    assert clubs.open(view).version == clubs.open(organiser).version


def test_tokens_are_kept_only_as_hashes_and_sheet_tokens_only_sealed(clubs, db):
    organiser, ids = _club_with(clubs, ["Ann", "Bob", "Cy", "Di"])
    _seat_one(clubs, organiser, ids)
    table = clubs.open(organiser).nights[0].tables[0]
    sheet_edit = table.sheet_token
    with db.transaction() as cur:
        cur.execute("SELECT * FROM clubs")
        club_rows = cur.fetchall()
        cur.execute("SELECT * FROM club_tables")
        table_rows = cur.fetchall()
    text = repr(club_rows) + repr(table_rows)
    member = member_token_of(organiser)
    for token in (organiser, member, view_token_of_member(member), sheet_edit):
        assert token not in text
    assert token_hash(organiser) in text
    # the member link opens the sheet to record; the view link only its view
    assert clubs.open(member).nights[0].tables[0].sheet_token == sheet_edit
    viewed = clubs.open(view_token_of_member(member)).nights[0].tables[0].sheet_token
    assert viewed != sheet_edit
    assert clubs.sheets.open(viewed).editable is False
    assert clubs.sheets.open(sheet_edit).editable is True
    with pytest.raises(SheetGone):
        clubs.sheets.add(viewed, "hand=123m456m789m234p55s by=self-draw")


def test_seal_is_undone_only_by_its_key_and_place():
    sealed = seal("key", "1/1/1/1/edit", "MH74ybtHO6n0zKczoBg3LGZH")
    assert sealed != "MH74ybtHO6n0zKczoBg3LGZH"
    assert seal("key", "1/1/1/1/edit", sealed) == "MH74ybtHO6n0zKczoBg3LGZH"
    assert seal("other", "1/1/1/1/edit", sealed) != "MH74ybtHO6n0zKczoBg3LGZH"
    assert seal("key", "1/1/1/2/edit", sealed) != "MH74ybtHO6n0zKczoBg3LGZH"


def test_a_rename_keeps_the_member_id_and_the_history(clubs):
    organiser, ids = _club_with(clubs, ["Ann", "Bob", "Cy", "Di"])
    _seat_one(clubs, organiser, ids)
    clubs.rename_member(organiser, ids[0], "安妮", "")
    club = clubs.open(organiser)
    ann = club.member(ids[0])
    assert ann.name == "安妮" and [h.name for h in ann.history] == ["Ann", "安妮"]
    assert club.nights[0].tables[0].seats[0] == ids[0]


def test_two_members_share_a_name_only_with_a_note_that_tells_them_apart(clubs):
    organiser, ids = _club_with(clubs, ["Ann"])
    with pytest.raises(HandError) as refused:
        clubs.add_member(organiser, "ann")
    assert refused.value.errors[0].field == "note"
    with pytest.raises(HandError) as refused:
        clubs.add_member(organiser, "ＡＮＮ")     # full-width: the same name
    assert refused.value.errors[0].field == "note"
    second = clubs.add_member(organiser, "Ann", "from Kowloon")
    with pytest.raises(HandError) as refused:
        clubs.add_member(organiser, "Ann", "From  Kowloon")
    assert refused.value.errors[0].field == "note"
    with pytest.raises(HandError) as refused:
        clubs.rename_member(organiser, second, "Ann", "")   # would be the first Ann again
    assert refused.value.errors[0].field == "note"
    labels = [m.label for m in clubs.open(organiser).members]
    assert labels == ["Ann", "Ann (from Kowloon)"]


@pytest.mark.parametrize(("name", "field"), [("", "name"), ("A" * 21, "name"), ("Ann,Bob", "name"),
                                             ("Ann\x00", "name")])
def test_bad_names_are_refused_beside_their_field(clubs, name, field):
    organiser, _ids = _club_with(clubs, [])
    with pytest.raises(HandError) as refused:
        clubs.add_member(organiser, name)
    assert refused.value.errors[0].field == field
    assert clubs.open(organiser).members == ()


def test_a_night_needs_four_members_of_the_club(clubs):
    organiser, ids = _club_with(clubs, ["Ann", "Bob", "Cy"])
    with pytest.raises(HandError) as refused:
        clubs.start_night(organiser, ids)
    assert refused.value.errors[0].field == "present"
    with pytest.raises(HandError):
        clubs.start_night(organiser, [*ids, 99])


def test_a_night_seats_tables_as_sheets_named_for_their_players_in_the_season(clubs):
    organiser, ids = _club_with(clubs, ["Ann", "Bob", "Cy", "Di", "Eve"])
    clubs.new_season(organiser, "Summer", "sichuan")
    night = _seat_one(clubs, organiser, ids)
    club = clubs.open(organiser)
    found = club.night(night)
    assert found.season == 2 and club.season().rules == "sichuan"
    assert found.present == tuple(ids) and found.rounds[0].byes == (ids[4],)
    assert found.rounds[0].method == "random" and found.rounds[0].seed == "42"
    sheet = clubs.sheets.open(found.tables[0].sheet_token)
    assert sheet.settings["names"] == "P1,P2,P3,P4" and sheet.hands == ()
    clubs.sheets.add(found.tables[0].sheet_token, "hand=123m456m789m234p55s by=self-draw")
    assert len(clubs.sheets.open(clubs.open(organiser).night(night).tables[0].sheet_token).hands) == 1


def test_every_change_counts_the_version_up(clubs):
    organiser, ids = _club_with(clubs, ["Ann", "Bob", "Cy", "Di"])
    before = clubs.version(organiser)
    clubs.rename_member(organiser, ids[1], "Bobby")
    assert clubs.version(member_token_of(organiser)) == before + 1


def test_the_tables_sheets_are_read_in_one_query_as_their_own_links_read_them(clubs):
    organiser, ids = _club_with(clubs, ["Ann", "Bob", "Cy", "Di"])
    night = _seat_one(clubs, organiser, ids)
    sheet = clubs.open(organiser).night(night).tables[0].sheet_token
    first = clubs.sheets.add(sheet, "hand=123m456m789m234p55s by=self-draw")
    clubs.sheets.add(sheet, "hand=123m456m789m234p55s seat=S discarder=W")
    clubs.sheets.correct(sheet, first, "hand=111m456m789m234p55s by=self-draw", 2)
    view = view_token_of_member(member_token_of(organiser))
    read = clubs.table_sheets(view)
    opened = clubs.sheets.open(sheet)
    assert read[(night, 1, 1)].hands == opened.hands and read[(night, 1, 1)].version == 3
    assert read[(night, 1, 1)].settings["names"] == "P1,P2,P3,P4"
    with pytest.raises(ClubGone):
        clubs.table_sheets("A" * 24)


def test_four_tables_recording_at_once_all_land_and_the_night_adds_up(clubs):
    import threading

    from app.club.standings import PlayedTable, standings
    from app.table.sheet import Sheet
    from app.vocabulary.sheet import parse_entry, price_sheet

    organiser, ids = _club_with(clubs, [f"M{i}" for i in range(16)])
    night = clubs.start_night(organiser, ids)
    tables = [ids[i:i + 4] for i in range(0, 16, 4)]
    clubs.seat_round(organiser, night, "random", "1", tables, [],
                     [{"rules": "hong-kong", "names": ",".join(f"P{m}" for m in t)} for t in tables])
    tokens = [t.sheet_token for t in clubs.open(organiser).night(night).tables]
    start = threading.Barrier(4)
    failures: list[BaseException] = []

    def record(table: int) -> None:
        try:
            start.wait()
            for i in range(50):
                seat = "ESWN"[(i + table) % 4]
                clubs.sheets.add(tokens[table], f"hand=123m456m789m234p55s by=self-draw seat={seat}")
        except BaseException as err:   # reported below, in the test's thread
            failures.append(err)

    threads = [threading.Thread(target=record, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    read = clubs.table_sheets(organiser)
    played = []
    for table in clubs.open(organiser).night(night).tables:
        kept = read[(night, table.round, table.number)]
        assert kept.version == 50 and len(kept.hands) == 50
        sheet = Sheet("hong-kong", entries=tuple(parse_entry(h.line) for h in kept.hands))
        played.append(PlayedTable(night, table.round, table.number, table.seats, price_sheet(sheet)))
    found = standings(played)
    assert found.hands == 200 and found.zero_sum and len(found.lines) == 16
    assert all(line.won == 12 or line.won == 13 for line in found.lines)   # 50 hands, the seats in turn


def test_a_club_writer_killed_mid_write_loses_nothing_it_had_confirmed(clubs, database_env):
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    organiser = clubs.create("Thursday club", "hong-kong", "Spring")
    env = {**os.environ, **database_env, "PYTHONUNBUFFERED": "1"}
    writer = subprocess.Popen([sys.executable, "-m", "tests.store.club_writer", organiser],
                              cwd=Path(__file__).resolve().parents[2], env=env, stdout=subprocess.PIPE, text=True)
    confirmed = []
    try:
        for line in writer.stdout:
            confirmed.append(int(line))
            if len(confirmed) == 30:
                writer.send_signal(signal.SIGKILL)      # while it is writing the next one
                break
    finally:
        writer.kill()
        writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL
    assert confirmed == list(range(1, 31))
    club = clubs.open(organiser)
    assert [m.id for m in club.members][:30] == confirmed   # the 31st may or may not have landed
    assert [m.name for m in club.members] == [f"M{m.id}" for m in club.members]
    assert clubs.add_member(organiser, "After") == len(club.members) + 1   # and the club takes writes after
