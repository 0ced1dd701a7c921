"""A stored night at its limits stays readable, on SQLite and PostgreSQL: 200 Sichuan rounds
(three wins each, and every tenth a wall's end of three nine-gates waits), a log of 1,990
changes. Each entry's price is kept with its line when it is stored, so opening the sheet,
its CSV and its JSON price nothing again, and a change prices only its own line: the test's
app allows 30 scorings a request, a tenth of what pricing this night costs."""
from __future__ import annotations

import csv
import io
import itertools
import re

import pytest

from app.scoring.budget import TooMuchWork, opened
from app.store import sheets
from app.store.database import open_database
from app.store.sheets import MAX_HANDS, SheetStore, new_client_id
from app.table.kept import dumps
from app.table.sheet import FIRST_SEATS, Entry, Sheet
from app.vocabulary.sheet import format_entry, parse_entry, price_entry, price_sheet
from app.web import create_app

NAMES = ("Ann", "Bob", "Cy", "Di")
BUDGET = 30                 # scorings one request of the test's app may do
LOG = 1990                  # entries in the sheet's log when the test edits it
NINE_GATES = "1112345678999"
WALLS = [f"wall {'; '.join(f'{seat} hand={NINE_GATES}{suit}' for seat, suit in zip(ready, perm, strict=True))}; {out} not-ready"
         for perm in itertools.permutations("psm") for out in "ESWN"
         for ready in [[s for s in "ESWN" if s != out]]]


def _hand(n: int, x: str, y: str) -> str:
    """A winning hand of two suits, told apart by n: four chows below 9 and a pair of 9s."""
    a, b, c, d = n % 6 + 1, n // 6 % 6 + 1, n // 36 % 6 + 1, n // 216 % 6 + 1
    return f"{a}{a + 1}{a + 2}{x}{b}{b + 1}{b + 2}{x}{c}{c + 1}{c + 2}{y}{d}{d + 1}{d + 2}{y}99{y}"


def _round(r: int) -> str:
    if r % 10 == 0:    # 27 scorings: each ready hand's nine waits at the wall's end
        return f"ledger / {WALLS[r // 10 % len(WALLS)]}"
    return (f"ledger / missing E=p S=m W=s / win E self-draw hand={_hand(r, 'm', 's')}"
            f" / win S discard from N hand={_hand(r + 7, 's', 'p')} / win W self-draw hand={_hand(r + 13, 'p', 'm')}")


@pytest.fixture
def night(database_env, monkeypatch):
    """The app (its budget BUDGET) and the edit token of a sheet at its limits."""
    for key, value in database_env.items():
        monkeypatch.setenv(key, value)
    app = create_app({"STORE_ENV": database_env, "SCORING_BUDGET": BUDGET})
    rulesets = app.extensions["rulesets"]
    sheet = Sheet("sichuan", NAMES)
    entries = [parse_entry(_round(r)) for r in range(MAX_HANDS)]
    kept = [price_entry(sheet, e, rulesets) for e in entries]     # as each was priced when added
    assert not any(k.errors for k in kept)
    store = SheetStore(open_database(database_env))
    token = store.create({"rules": "sichuan", "names": ",".join(NAMES)},
                         [format_entry(Entry(e.params, e.round_text, FIRST_SEATS)) for e in entries],
                         priced=[dumps(k) for k in kept])
    version = MAX_HANDS
    hand_ids = [h.id for h in store.open(token).hands]
    for i in range((LOG - MAX_HANDS) // 2):        # a long night's second thoughts
        version = store.remove(token, hand_ids[i % MAX_HANDS], version)
        version = store.undo(token, version)
    assert version == LOG
    return app, f"/s/{token}", rulesets


def test_a_night_at_its_limits_opens_exports_and_edits_within_the_budget(night):
    app, edit, rulesets = night
    entries = tuple(parse_entry(_round(r)) for r in range(MAX_HANDS))
    with pytest.raises(TooMuchWork), opened("hands", BUDGET * 10):   # priced again, it would be past it
        price_sheet(Sheet("sichuan", NAMES, (), entries), rulesets)
    client = app.test_client()
    page = client.get(edit)
    assert page.status_code == 200, page.get_data(as_text=True)[:400]
    text = page.get_data(as_text=True)
    assert "scorings" not in text
    assert len(re.findall(r'name="action" value="remove"', text)) == MAX_HANDS
    assert re.search(r'id="live" data-version="(\d+)"', text)[1] == str(LOG)
    data = client.get(edit + ".json")
    assert data.status_code == 200
    found = data.get_json()
    assert len(found["rows"]) == MAX_HANDS and found["version"] == LOG
    assert sum(found["totals"]) == 0 and any(found["totals"])
    table = client.get(edit + ".csv")
    assert table.status_code == 200
    assert len(list(csv.reader(io.StringIO(table.get_data(as_text=True))))) >= MAX_HANDS + 1
    # edits: each prices its own line at most, the night is not priced again
    hand5 = found["hands"][4]["id"]
    fix = {"action": "correct", "hand": str(hand5), "base": str(LOG), "line": _round(999), "cid": new_client_id()}
    assert client.post(edit + "/change", data=fix).status_code == 303
    assert client.post(edit + "/change", data={"action": "remove", "hand": str(found["hands"][0]["id"]),
                                                "base": str(LOG + 1), "cid": new_client_id()}).status_code == 303
    assert client.post(edit + "/change", data={"action": "undo", "base": str(LOG + 2),
                                                "cid": new_client_id()}).status_code == 303
    after = client.get(edit + ".json").get_json()
    assert after["version"] == LOG + 3 and len(after["rows"]) == MAX_HANDS
    assert after["hands"][4]["line"].startswith(f"ledger at=1234 / {_round(999)[len('ledger / '):]}"[:60])
    assert sum(after["totals"]) == 0 and after["rows"][4]["entry"] != found["rows"][4]["entry"]
    full = client.post(edit + "/change", data={"action": "add", "line": _round(998), "cid": new_client_id()})
    assert full.status_code == 429 and "the sheet is full" in full.get_data(as_text=True)


def test_a_sheet_stored_before_migration_2_is_priced_once_when_read_and_takes_changes_once(database_env,
                                                                                          monkeypatch):
    """A database of the first schema (no change ids, no kept prices) is migrated in place: its
    sheets open (their entries priced at the first reading, and kept) and their new changes
    land once."""
    from app.store import database as store_database
    from app.store.schema import MIGRATIONS
    for key, value in database_env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(store_database, "MIGRATIONS", MIGRATIONS[:1])
    old = open_database(database_env)
    now = 1.0e9
    with old.transaction() as cur:     # a sheet as the first schema's code wrote it
        cur.execute("INSERT INTO sheets (id, edit_hash, view_hash, settings, version, created, used, creator)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (7, sheets.token_hash("e" * 24), sheets.token_hash(sheets.view_token_of("e" * 24)),
                     '{"rules": "hong-kong"}', 2, now, 4.0e9, "x"))
        for seq in (1, 2):
            cur.execute("INSERT INTO entries (sheet_id, seq, kind, target, line, at) VALUES (?, ?, ?, ?, ?, ?)",
                        (7, seq, "add", None, "hand=123456789m234p55s by=self-draw seat=S", now))
    monkeypatch.setattr(store_database, "MIGRATIONS", MIGRATIONS)
    client = create_app({"STORE_ENV": database_env}).test_client()   # migrates on its first use
    edit = "/s/" + "e" * 24
    assert [h.priced for h in SheetStore(open_database(database_env)).open("e" * 24).hands] == [None, None]
    found = client.get(edit + ".json").get_json()
    assert len(found["rows"]) == 2 and found["totals"][1] > 0
    # priced once, at that first reading, and kept: the next reading scores nothing
    assert all(h.priced for h in SheetStore(open_database(database_env)).open("e" * 24).hands)
    frugal = create_app({"STORE_ENV": database_env, "SCORING_BUDGET": 0}).test_client()
    assert frugal.get(edit + ".json").get_json()["totals"] == found["totals"]
    form = {"action": "add", "line": "hand=123456789m234p55s by=self-draw seat=W", "cid": new_client_id()}
    assert client.post(edit + "/change", data=form).status_code == 303
    assert client.post(edit + "/change", data=form).status_code == 303
    assert client.get(edit + ".json").get_json()["version"] == 3
