"""A club's limits on SQLite and PostgreSQL: members, seasons, nights, rounds, tables in a round
and tables' sheets an hour, each refused beside its field before anything of it is kept; and a
club nobody opens for EXPIRE_DAYS is deleted, each opening keeping it that long again."""
from __future__ import annotations

import pytest

from app.base.errors import HandError
from app.store import clubs as club_module
from app.store.clubs import ClubGone, ClubStore
from app.store.database import open_database
from app.store.sheets import EXPIRE_DAYS, TooMany


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def clubs(database_env, clock):
    return ClubStore(open_database(database_env), clock=clock)


def _refused(make, field: str) -> str:
    with pytest.raises(TooMany) as refused:
        make()
    assert [e.field for e in refused.value.errors] == [field]
    return str(refused.value.errors[0].message.msgid)


def _members(clubs: ClubStore, token: str, count: int) -> list[int]:
    return [clubs.add_member(token, f"P{i}") for i in range(count)]


def _seat(clubs: ClubStore, token: str, night: int, ids: list[int]) -> int:
    tables = [ids[i:i + 4] for i in range(0, len(ids) - len(ids) % 4, 4)]
    return clubs.seat_round(token, night, "random", "1", tables, ids[len(tables) * 4:],
                            [{"rules": "hong-kong", "names": "a,b,c,d"}] * len(tables))


def test_members_seasons_nights_and_rounds_stop_at_their_limits_beside_their_field(clubs, monkeypatch):
    for name, most in (("MAX_MEMBERS", 5), ("MAX_SEASONS", 2), ("MAX_NIGHTS", 2), ("MAX_ROUNDS", 2)):
        monkeypatch.setattr(club_module, name, most)
    token = clubs.create("Club", "hong-kong", "S1")
    ids = _members(clubs, token, 5)
    assert "members" in _refused(lambda: clubs.add_member(token, "Sixth"), "name")
    clubs.new_season(token, "S2", "sichuan")
    assert "seasons" in _refused(lambda: clubs.new_season(token, "S3", "hong-kong"), "season")
    night = clubs.start_night(token, ids)
    clubs.start_night(token, ids)
    assert "nights" in _refused(lambda: clubs.start_night(token, ids), "present")
    _seat(clubs, token, night, ids)
    _seat(clubs, token, night, ids)
    assert "rounds" in _refused(lambda: _seat(clubs, token, night, ids), "round")
    club = clubs.open(token)
    assert len(club.members) == 5 and len(club.seasons) == 2 and len(club.nights) == 2
    assert len(club.night(night).rounds) == 2


def test_a_round_past_the_tables_limit_or_the_hours_sheets_is_refused_before_a_sheet_is_made(clubs, monkeypatch,
                                                                                             clock):
    monkeypatch.setattr(club_module, "MAX_TABLES", 2)
    monkeypatch.setattr(club_module, "TABLES_PER_HOUR", 5)
    token = clubs.create("Club", "hong-kong", "S1")
    ids = _members(clubs, token, 12)
    night = clubs.start_night(token, ids)
    made = clubs.sheets.made_in_the_last_hour
    club = clubs.open(token)
    assert "tables" in _refused(lambda: _seat(clubs, token, night, ids), "present")          # 3 tables > 2
    assert made(f"club:{club.id}") == 0
    _seat(clubs, token, night, ids[:8])
    _seat(clubs, token, night, ids[:8])
    assert made(f"club:{club.id}") == 4
    assert "an hour" in _refused(lambda: _seat(clubs, token, night, ids[:8]), "present")    # 4 + 2 > 5
    assert made(f"club:{club.id}") == 4 and len(clubs.open(token).night(night).rounds) == 2
    clock.now += 3601                   # an hour on, the club makes tables again
    _seat(clubs, token, night, ids[:8])
    assert len(clubs.open(token).night(night).rounds) == 3


def test_a_club_nobody_opens_for_the_expiry_is_deleted_and_each_opening_keeps_it_longer(clubs, clock):
    token = clubs.create("Club", "hong-kong", "S1")
    kept = clubs.create("Kept", "hong-kong", "S1")
    clock.now += (EXPIRE_DAYS - 1) * 86400
    assert clubs.open(kept).used == clock.now              # opened: kept EXPIRE_DAYS from now
    clock.now += 2 * 86400                                 # past the first club's EXPIRE_DAYS
    with pytest.raises(ClubGone):
        clubs.open(token)
    clubs.create("Another", "hong-kong", "S1")             # making a club deletes those expired
    with clubs.db.read() as cur:
        cur.execute("SELECT COUNT(*) FROM clubs")
        assert cur.fetchone()[0] == 2
    assert clubs.open(kept).name == "Kept"


def test_the_docs_and_the_readme_state_the_limits_the_store_enforces():
    from pathlib import Path

    from app.store import sheets
    root = Path(__file__).resolve().parents[2]
    docs = (root / "docs" / "clubs.md").read_text(encoding="utf-8")
    rows = {cells[0]: cells[1] for line in docs.splitlines() if line.startswith("| ")
            for cells in [[c.strip() for c in line.strip("|").split("|")]] if len(cells) == 3}
    assert rows["members"] == str(club_module.MAX_MEMBERS)
    assert rows["seasons"] == str(club_module.MAX_SEASONS)
    assert rows["nights (all seasons)"] == str(club_module.MAX_NIGHTS)
    assert rows["rounds in a night"] == str(club_module.MAX_ROUNDS)
    assert rows["tables in a round"] == f"{club_module.MAX_TABLES} ({club_module.MAX_TABLES * 4} members)"
    assert rows["tables a club makes in an hour"].startswith(f"{club_module.TABLES_PER_HOUR} ")
    assert rows["clubs made from one address in an hour"] == str(club_module.MAX_CREATED_PER_HOUR)
    assert f"{sheets.MAX_SHEET_BYTES // 1024} KiB" in rows["a table's sheet"]
    assert f"nobody opens for {EXPIRE_DAYS} days is deleted" in docs
    readme = (root / "README.md").read_text(encoding="utf-8")
    said = next(line for line in readme.splitlines() if "docs/clubs.md" in line)
    for part in (f"{club_module.MAX_MEMBERS} members", f"{club_module.MAX_NIGHTS} nights",
                 f"{club_module.MAX_ROUNDS} rounds a night", f"{club_module.MAX_TABLES} tables a round",
                 f"{sheets.MAX_SHEET_BYTES // 1024} KiB", f"{EXPIRE_DAYS} days unopened"):
        assert part in said


def test_a_table_of_three_is_refused_beside_the_ticks_no_family_prices_three_players(clubs):
    token = clubs.create("Club", "sichuan", "S1")
    ids = _members(clubs, token, 7)
    night = clubs.start_night(token, ids)
    with pytest.raises(HandError) as refused:
        clubs.seat_round(token, night, "random", "1", [ids[:4], ids[4:]], [], [{"rules": "sichuan"}] * 2)
    assert [e.field for e in refused.value.errors] == ["present"]
    assert clubs.open(token).night(night).tables == ()
