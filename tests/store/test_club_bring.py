"""A sheet brought into a club night, in the store, on SQLite and PostgreSQL: one sheet is one
table of the club even when four requests bring it at once; its seats are members, who count as
present; a sheet brought by its view link is read by every link as its view link and links back
to no club; only the organiser's link brings one in."""
from __future__ import annotations

import threading

import pytest

from app.base.errors import HandError
from app.store.clubs import ClubStore, NotAllowed, member_token_of
from app.store.database import open_database
from app.store.sheets import token_hash, view_token_of


@pytest.fixture
def clubs(database_env):
    return ClubStore(open_database(database_env))


def _night(clubs: ClubStore) -> tuple[str, int, list[int]]:
    token = clubs.create("Thursday club", "hong-kong", "Spring")
    ids = [clubs.add_member(token, name) for name in ("Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")]
    return token, clubs.start_night(token, ids[:4]), ids


def _sheet(clubs: ClubStore) -> str:
    return clubs.sheets.create({"rules": "hong-kong", "names": "E,F,G,H"},
                               ["hand=123m456m789m234p55s by=self-draw seat=E"])


def test_four_requests_bringing_one_sheet_at_once_make_one_table(clubs):
    token, night, ids = _night(clubs)
    edit = _sheet(clubs)
    view = view_token_of(edit)
    tables, errors = [], []
    start = threading.Barrier(4)

    def bring() -> None:
        start.wait()
        try:
            tables.append(clubs.bring_sheet(token, night, ids[4:], token_hash(view), view, edit))
        except Exception as err:  # noqa: BLE001 - any failure is the test's finding
            errors.append(err)

    threads = [threading.Thread(target=bring) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert {(t.round, t.number) for t in tables} == {(0, 1)}
    opened = clubs.open(token).night(night)
    brought = [t for t in opened.tables if t.round == 0]
    assert len(brought) == 1 and brought[0].seats == tuple(ids[4:]) and brought[0].sheet_token == edit
    assert set(opened.present) == set(ids)                       # its players count as present
    assert clubs.night_of_sheet(view) == (clubs.open(token).tokens["view"], night)
    read = clubs.table_sheets(token)
    assert len(read[(night, 0, 1)].hands) == 1


def test_a_sheet_brought_by_its_view_link_is_watched_by_every_link(clubs):
    token, night, ids = _night(clubs)
    view = view_token_of(_sheet(clubs))
    clubs.bring_sheet(token, night, ids[4:], token_hash(view), view)
    for link in (token, member_token_of(token), clubs.open(token).tokens["view"]):
        brought = [t for t in clubs.open(link).night(night).tables if t.round == 0]
        assert [t.sheet_token for t in brought] == [view]
    assert clubs.night_of_sheet(view) is None                    # its page links to no club


def test_a_sheet_is_one_table_of_the_club_and_only_the_organiser_brings_it(clubs):
    token, night, ids = _night(clubs)
    edit = _sheet(clubs)
    view = view_token_of(edit)
    clubs.bring_sheet(token, night, ids[4:], token_hash(view), view, edit)
    second = clubs.start_night(token, ids[4:])
    with pytest.raises(HandError, match="sheet"):
        clubs.bring_sheet(token, second, ids[4:], token_hash(view), view, edit)
    with pytest.raises(HandError):                               # a member twice
        clubs.bring_sheet(token, second, [ids[0], ids[0], ids[1], ids[2]], "address:x", view_token_of(_sheet(clubs)))
    with pytest.raises(NotAllowed):
        clubs.bring_sheet(member_token_of(token), second, ids[:4], "address:y", view_token_of(_sheet(clubs)))
    assert [t for t in clubs.open(token).night(second).tables if t.round == 0] == []


def test_a_sheet_brought_in_takes_no_round_from_the_nights_seatings(clubs, monkeypatch):
    """Brought sheets sit under round 0, which is not a seating: the night still seats
    MAX_ROUNDS rounds."""
    from app.store import clubs as club_module

    monkeypatch.setattr(club_module, "MAX_ROUNDS", 2)
    token, night, ids = _night(clubs)
    edit = _sheet(clubs)
    clubs.bring_sheet(token, night, ids[4:], token_hash(view_token_of(edit)), view_token_of(edit), edit)
    for _ in range(2):
        clubs.seat_round(token, night, "random", "1", [ids[:4]], [], [{"rules": "hong-kong", "names": "a,b,c,d"}])
    with pytest.raises(HandError):
        clubs.seat_round(token, night, "random", "1", [ids[:4]], [], [{"rules": "hong-kong", "names": "a,b,c,d"}])
    assert len(clubs.open(token).night(night).rounds) == 2
