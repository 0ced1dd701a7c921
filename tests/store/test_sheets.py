"""The stored sheet against SQLite and PostgreSQL: concurrent adds, stale edits, tokens, migrations."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from app.base.errors import HandError
from app.store.database import open_database
from app.store.schema import MIGRATIONS
from app.store.sheets import (
    MAX_CREATED_PER_HOUR,
    SheetGone,
    SheetStore,
    StaleEdit,
    TooMany,
    view_token_of,
)
from app.table.sheet import Sheet
from app.vocabulary.sheet import parse_entry, price_sheet

ROOT = Path(__file__).resolve().parents[2]
SEATS = "ESWN"
HK = {"rules": "hong-kong"}


@pytest.fixture
def store(database_env, monkeypatch):
    for key, value in database_env.items():
        monkeypatch.setenv(key, value)
    return SheetStore(open_database(database_env))


def _line(client: int, i: int) -> str:
    """Client c's hands: won by the player at seat c, self-drawn or on the next seat's discard."""
    seat = SEATS[client]
    if i % 2:
        return f"hand=123m456m789m234p55s by=self-draw seat={seat}"
    return f"hand=123m456m789m234p55s by=discard seat={seat} discarder={SEATS[(client + 1) % 4]}"


def _priced(store: SheetStore, token: str):
    opened = store.open(token)
    entries = tuple(parse_entry(h.line) for h in opened.hands)
    return opened, price_sheet(Sheet(opened.settings["rules"], entries=entries))


def test_four_clients_adding_50_hands_each_at_once_all_land_zero_sum_after_each(store):
    token = store.create(HK, [])
    start = threading.Barrier(4)
    confirmed: dict[int, list[int]] = {c: [] for c in range(4)}
    failures: list[BaseException] = []

    def client(c: int) -> None:
        try:
            start.wait()
            for i in range(50):
                confirmed[c].append(store.add(token, _line(c, i)))
        except BaseException as err:   # reported below, in the test's thread
            failures.append(err)

    threads = [threading.Thread(target=client, args=(c,)) for c in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    versions = sorted(v for vs in confirmed.values() for v in vs)
    assert versions == list(range(1, 201))            # every add landed, none twice
    for vs in confirmed.values():
        assert vs == sorted(vs)                       # each client's hands in its order
    opened, night = _priced(store, token)
    assert opened.version == 200 and len(opened.hands) == 200
    by_seat = [sum(1 for h in opened.hands if f"seat={s}" in h.line) for s in SEATS]
    assert by_seat == [50, 50, 50, 50]
    assert all(not row.errors for row in night.rows)
    assert all(sum(row.running) == 0 for row in night.rows)   # zero-sum after every hand
    assert any(row.running != (0, 0, 0, 0) for row in night.rows)


def test_a_correction_based_on_a_stale_version_is_refused_and_the_first_one_stays(store):
    token = store.create(HK, [_line(0, 0), _line(1, 0), _line(2, 0)])
    seen = store.open(token)
    hand2 = seen.hands[1].id
    store.correct(token, hand2, _line(3, 1), seen.version)       # phone A
    with pytest.raises(StaleEdit) as refused:                     # phone B, from the same view
        store.correct(token, hand2, _line(2, 1), seen.version)
    assert "someone changed this hand after you opened it" in str(refused.value)
    assert store.open(token).hands[1].line == _line(3, 1)
    with pytest.raises(StaleEdit):
        store.remove(token, hand2, seen.version)
    # a change to another hand than the one that moved is not a conflict
    store.remove(token, seen.hands[2].id, seen.version)
    assert [h.line for h in store.open(token).hands] == [_line(0, 0), _line(3, 1)]


def test_undo_takes_back_the_last_change_and_refuses_a_stale_view(store):
    token = store.create(HK, [_line(0, 0), _line(1, 0)])
    seen = store.open(token)
    store.correct(token, seen.hands[0].id, _line(2, 1), seen.version)
    with pytest.raises(StaleEdit):
        store.undo(token, seen.version)
    now = store.open(token)
    store.undo(token, now.version)
    assert [h.line for h in store.open(token).hands] == [_line(0, 0), _line(1, 0)]
    after = store.open(token)
    store.undo(token, after.version)          # then the add of hand 2 (the latest change left)
    assert [h.line for h in store.open(token).hands] == [_line(0, 0)]


def test_a_removed_hand_cannot_be_corrected(store):
    token = store.create(HK, [_line(0, 0), _line(1, 0)])
    seen = store.open(token)
    store.remove(token, seen.hands[0].id, seen.version)
    with pytest.raises(StaleEdit) as refused:
        store.correct(token, seen.hands[0].id, _line(2, 0), seen.version)
    assert "no longer on the sheet" in str(refused.value)


def test_the_view_token_opens_the_sheet_read_only_and_never_reveals_the_edit_token(store):
    token = store.create(HK, [_line(0, 0)])
    view = view_token_of(token)
    assert len(token) >= 22 and len(view) >= 22           # 144 bits each, base64url
    assert view != token and token not in view
    opened = store.open(view)
    assert not opened.editable and opened.edit_token is None and opened.view_token == view
    assert [h.line for h in opened.hands] == [_line(0, 0)]
    with pytest.raises(SheetGone):
        store.add(view, _line(1, 0))
    with pytest.raises(SheetGone):
        store.open(token[:-1] + ("A" if token[-1] != "A" else "B"))


def test_the_database_keeps_no_token(store, database_env):
    token = store.create(HK, [_line(0, 0)])
    with store.db.transaction() as cur:
        cur.execute("SELECT * FROM sheets")
        stored = repr(cur.fetchall())
    assert token not in stored and view_token_of(token) not in stored


def test_one_client_may_create_only_so_many_sheets_an_hour(store):
    for _ in range(MAX_CREATED_PER_HOUR):
        store.create(HK, [], client="10.0.0.1")
    with pytest.raises(TooMany):
        store.create(HK, [], client="10.0.0.1")
    store.create(HK, [], client="10.0.0.2")    # another client is not held back


def test_a_sheet_unused_past_its_days_expires(store):
    now = [1_000_000.0]
    clocked = SheetStore(store.db, clock=lambda: now[0])
    old = clocked.create(HK, [_line(0, 0)])
    now[0] += 59 * 86400
    clocked.open(old)                        # used: the clock starts again
    now[0] += 59 * 86400
    assert clocked.open(old).hands
    now[0] += 61 * 86400
    with pytest.raises(SheetGone):
        clocked.open(old)
    clocked.create(HK, [])                   # making a sheet deletes the expired ones
    with store.db.transaction() as cur:
        cur.execute("SELECT COUNT(*) FROM sheets")
        assert cur.fetchone()[0] == 1


def test_migrating_again_changes_nothing(store):
    token = store.create(HK, [_line(0, 0)])
    assert store.db.migrate() == len(MIGRATIONS)
    with store.db.transaction() as cur:
        cur.execute("SELECT version FROM schema_version")
        assert cur.fetchall() == [(len(MIGRATIONS),)]
    assert store.open(token).hands


def test_a_writer_killed_mid_write_loses_nothing_it_had_confirmed(store, database_env):
    token = store.create(HK, [])
    env = {**os.environ, **database_env, "PYTHONUNBUFFERED": "1"}
    writer = subprocess.Popen([sys.executable, "-m", "tests.store.writer", token], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, text=True)
    confirmed = []
    try:
        for line in writer.stdout:
            confirmed.append(int(line))
            if len(confirmed) == 40:
                writer.send_signal(signal.SIGKILL)      # while it is writing the next one
                break
    finally:
        writer.kill()
        writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL
    assert confirmed == list(range(1, 41))
    opened = store.open(token)
    assert opened.version >= 40                           # the 41st may or may not have landed
    assert len(opened.hands) == opened.version
    store.add(token, _line(0, 0))                         # and the sheet takes writes after
    assert store.open(token).version == opened.version + 1


def test_a_sheets_lines_are_capped_in_bytes_and_so_is_what_one_address_writes_in_an_hour(store, monkeypatch):
    from app.store import sheets
    line = "hand=123m456m789m234p55s by=self-draw seat=E"
    monkeypatch.setattr(sheets, "MAX_SHEET_BYTES", 3 * len(line))
    token = store.create(HK, [line, line], client="10.0.0.1")
    store.add(token, line, client="10.0.0.2")
    with pytest.raises(TooMany) as full:
        store.add(token, line, client="10.0.0.2")
    assert full.value.errors[0].field == "line" and "bytes a sheet holds" in full.value.errors[0].message
    with pytest.raises(TooMany):
        store.create(HK, [line] * 4, client="10.0.0.3")
    monkeypatch.setattr(sheets, "MAX_SHEET_BYTES", 10**6)
    monkeypatch.setattr(sheets, "MAX_BYTES_PER_HOUR", 5 * len(line) - 1)
    other = store.create(HK, [line] * 3, client="10.0.0.2")     # 10.0.0.2 wrote one line before
    with pytest.raises(TooMany) as hour:
        store.add(other, line, client="10.0.0.2")
    assert "in the last hour" in hour.value.errors[0].message
    assert store.add(other, line, client="10.0.0.4") == 4       # another address still writes
    assert len(store.open(token).hands) == 3 and len(store.open(other).hands) == 4


def test_a_line_is_capped_in_bytes_not_characters(store):
    from app.store.sheets import MAX_LINE
    token = store.create(HK, [])
    wide = "hand=123m456m789m234p55s " + "x=" + "麻" * (MAX_LINE // 3)      # under MAX_LINE characters
    with pytest.raises(HandError) as err:
        store.add(token, wide)
    assert err.value.errors[0].field == "line" and "bytes" in err.value.errors[0].message



def test_role_says_what_a_token_opens_and_marks_nothing_used(database_env):
    """`role` reads only: the oEmbed check of a view link must not keep a sheet alive."""
    now = [1_000_000.0]
    sheets = SheetStore(open_database(database_env), clock=lambda: now[0])
    edit = sheets.create({"rules": "hong-kong"}, [])
    view = view_token_of(edit)

    def used() -> float:
        with sheets.db.read() as cur:
            cur.execute("SELECT used FROM sheets")
            return cur.fetchone()[0]

    before = used()
    now[0] += 100
    assert sheets.role(edit) == "edit"
    assert sheets.role(view) == "view"
    assert sheets.role("no-such-token-at-all-here") is None
    assert used() == before
    sheets.open(view)
    assert used() == before + 100   # an open marks it used; role did not
