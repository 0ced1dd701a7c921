"""Every change to a shared sheet lands once, against SQLite and PostgreSQL: each form carries
the id of its change (`cid`, drawn with the form); a repeat of it (a second tap, a resend after
a lost answer) is answered as the first was and changes nothing; a refused correction comes
back as the same correction, never as an add."""
from __future__ import annotations

import html
import re
import threading

import pytest

from app.store.database import open_database
from app.store.sheets import SheetStore, new_client_id
from app.web import create_app
from tests.web.test_stored_sheet_web import BIGGER, NIGHT, _hand_ids, _share, _version

LINE = "hand=123456789m234p55s by=self-draw seat=N"


@pytest.fixture
def client(database_env):
    return create_app({"STORE_ENV": database_env}).test_client()


def _hands(client, edit: str) -> list[dict]:
    return client.get(edit + ".json").get_json()["hands"]


def _form(page: str, form_id: str) -> dict[str, str]:
    """The hidden and text fields of one form of the page, as the browser would send them."""
    found = re.search(rf'<form [^>]*id="{form_id}".*?</form>', page, re.S)
    assert found, f"no form #{form_id}"
    fields = re.findall(r'<input type="(?:hidden|text)"[^>]*?name="([^"]+)"[^>]*?value="([^"]*)"', found[0])
    return {name: html.unescape(value) for name, value in fields}


def test_every_form_that_changes_the_sheet_carries_a_fresh_id_of_its_change(client):
    edit = _share(client)
    page = client.get(edit).get_data(as_text=True)
    ids = re.findall(r'name="cid" value="([A-Za-z0-9_-]+)"', page)
    forms = len(re.findall(r'<form method="post" action="[^"]*/change"', page))
    assert forms == 4 + 1 + 1 + 1 and len(ids) == forms    # four removes, the typed add, the agreed hand, undo
    assert len(set(ids)) == len(ids)
    again = client.get(edit).get_data(as_text=True)
    assert not set(ids) & set(re.findall(r'name="cid" value="([A-Za-z0-9_-]+)"', again))


def test_a_second_tap_on_add_is_answered_as_the_first_and_records_the_hand_once(client):
    edit = _share(client)
    form = {**_form(client.get(edit).get_data(as_text=True), "type-form"), "line": LINE}
    first = client.post(edit + "/change", data=form)
    second = client.post(edit + "/change", data=form)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert second.headers["X-Mahjong-Change"] == "saved"
    assert second.headers["X-Mahjong-Change-Id"] == form["cid"]
    hands = _hands(client, edit)
    assert len(hands) == 5 and [h["line"].startswith(LINE) for h in hands] == [False] * 4 + [True]
    assert client.get(edit + ".json").get_json()["version"] == 5
    third = client.post(edit + "/change", data={**form, "cid": new_client_id()})   # a new change
    assert third.status_code == 303 and len(_hands(client, edit)) == 6


@pytest.mark.parametrize("action", ["remove", "undo"])
def test_a_repeated_remove_or_undo_takes_back_one_thing_only(client, action):
    edit = _share(client)
    page = client.get(edit).get_data(as_text=True)
    form = {"action": action, "base": _version(page), "cid": new_client_id()}
    if action == "remove":
        form["hand"] = _hand_ids(page)[0]
    for _ in range(3):
        assert client.post(edit + "/change", data=form).status_code == 303
    assert len(_hands(client, edit)) == 3
    assert client.get(edit + ".json").get_json()["version"] == 5


def test_a_repeated_correction_is_not_refused_as_stale_by_its_own_first_landing(client):
    edit = _share(client)
    page = client.get(edit).get_data(as_text=True)
    form = {"action": "correct", "hand": _hand_ids(page)[1], "base": _version(page), "line": BIGGER,
            "cid": new_client_id()}
    assert client.post(edit + "/change", data=form).status_code == 303
    assert client.post(edit + "/change", data=form).status_code == 303   # the answer lost: sent again
    assert client.get(edit + ".json").get_json()["version"] == 5


def test_the_pages_queue_gets_the_calculators_own_answer_and_the_same_again(client):
    edit = _share(client)
    form = {"action": "add", "line": LINE, "cid": new_client_id()}
    answers = [client.post(edit + "/change", data=form, headers={"X-Mahjong-Queue": "1"}) for _ in range(2)]
    for r in answers:
        assert r.status_code == 200
        assert r.headers["X-Mahjong-Change"] == "saved" and r.headers["X-Mahjong-Change-Id"] == form["cid"]
        assert r.get_json() == {"saved": form["cid"], "version": 5, "to": edit}
    assert len(_hands(client, edit)) == 5


def test_a_refusal_is_marked_as_the_calculators_so_the_queue_lets_it_go(client):
    edit = _share(client)
    cid = new_client_id()
    r = client.post(edit + "/change", data={"action": "add", "line": "colour=red", "cid": cid},
                    headers={"X-Mahjong-Queue": "1"})
    assert r.status_code == 400
    assert r.headers["X-Mahjong-Change"] == "refused" and r.headers["X-Mahjong-Change-Id"] == cid


def test_a_change_id_that_is_not_one_is_refused_beside_its_field(client):
    edit = _share(client)
    r = client.post(edit + "/change", data={"action": "add", "line": LINE, "cid": "a b<"})
    assert r.status_code == 400
    assert "is not a change&#39;s id" in r.get_data(as_text=True)
    assert len(_hands(client, edit)) == 4


def test_two_phones_correcting_one_hand_the_refused_one_comes_back_as_the_same_correction(client):
    edit = _share(client)
    page = client.get(edit).get_data(as_text=True)
    base, hand2 = _version(page), _hand_ids(page)[1]
    ann = {"action": "correct", "hand": hand2, "base": base, "line": BIGGER, "cid": new_client_id()}
    late = "hand=123456789m234p55s seat=S discarder=W"
    bob = {**ann, "line": late, "cid": new_client_id()}
    assert client.post(edit + "/change", data=ann).status_code == 303
    refused = client.post(edit + "/change", data=bob)
    assert refused.status_code == 409
    again = _form(refused.get_data(as_text=True), "confirm-form")
    assert again["action"] == "correct" and again["hand"] == hand2
    assert again["base"] == "5"                       # the version it now stands on
    assert again["line"].startswith(late) and again["cid"] != bob["cid"]
    assert "Put this in place of hand 2" in refused.get_data(as_text=True)
    # Bob, having seen Ann's correction, taps again: hand 2 is his, and no hand was added
    assert client.post(edit + "/change", data=again).status_code == 303
    hands = _hands(client, edit)
    assert len(hands) == 4 and hands[1]["line"].startswith(late)


def test_a_correction_of_a_hand_someone_removed_is_not_offered_as_an_add(client):
    edit = _share(client)
    page = client.get(edit).get_data(as_text=True)
    base, hand2 = _version(page), _hand_ids(page)[1]
    assert client.post(edit + "/change", data={"action": "remove", "hand": hand2, "base": base,
                                               "cid": new_client_id()}).status_code == 303
    refused = client.post(edit + "/change", data={"action": "correct", "hand": hand2, "base": base,
                                                  "line": BIGGER, "cid": new_client_id()})
    assert refused.status_code == 409
    text = refused.get_data(as_text=True)
    assert "no longer on the sheet" in text and 'id="confirm-form"' not in text
    stale_link = client.get(edit, query_string={"add": BIGGER, "hand": hand2, "base": base})
    assert 'id="confirm-form"' not in stale_link.get_data(as_text=True)
    assert "no longer on the sheet" in stale_link.get_data(as_text=True)


def test_two_repeats_of_one_change_racing_each_other_land_once(database_env, monkeypatch):
    for key, value in database_env.items():
        monkeypatch.setenv(key, value)
    store = SheetStore(open_database(database_env))
    token = store.create({"rules": "hong-kong"}, [])
    cid = new_client_id()
    start = threading.Barrier(4)
    versions: list[int] = []

    def tap() -> None:
        start.wait()
        versions.append(store.add(token, LINE, cid))

    threads = [threading.Thread(target=tap) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert versions == [1, 1, 1, 1]
    assert [h.line for h in store.open(token).hands] == [LINE]


@pytest.mark.parametrize("line, says", [
    ("hand=123m456m789m234p5s", "hand"),                     # 13 tiles: no hand the calculator reads
    ("hand=123m456m789m234p55x", "hand"),                    # no such suit
    ("hand=123m456m789m234p55s seat=Q", "seat"),
    ("hand=123m456m789m234p55s events=" + "a" * 400, "longer than any hand"),
    ("ledger / win E self-draw hand=123m456m789m234p55s", "no round settlement"),   # not under these rules
])
def test_a_line_that_is_no_hand_is_refused_beside_the_field_before_it_is_stored(client, line, says):
    edit = _share(client)
    r = client.post(edit + "/change", data={"action": "add", "line": line, "cid": new_client_id()})
    assert r.status_code == 400
    text = html.unescape(r.get_data(as_text=True))
    assert says in text and 'id="confirm-form"' in text     # the form back, the line in it
    assert _form(r.get_data(as_text=True), "confirm-form")["line"] == line
    assert len(_hands(client, edit)) == 4


def _sheets_made(database_env) -> int:
    with open_database(database_env).transaction() as cur:
        cur.execute("SELECT COUNT(*) FROM sheets")
        return cur.fetchone()[0]


def test_a_share_sent_twice_with_its_id_makes_one_sheet_and_answers_its_link_again(client, database_env):
    share_id = new_client_id() + new_client_id()[:4]          # 26 characters: at least 128 bits
    first = client.post("/sheet/share", data={**NIGHT, "cid": share_id})
    again = client.post("/sheet/share", data={**NIGHT, "cid": share_id})   # the answer was lost
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"]
    assert _sheets_made(database_env) == 1
    assert len(_hands(client, first.headers["Location"])) == 4
    other = client.post("/sheet/share", data={**NIGHT, "cid": new_client_id() + "abcdef"})
    assert other.headers["Location"] != first.headers["Location"]
    without = client.post("/sheet/share", data={**NIGHT, "cid": ""})      # no script: a new one each time
    assert without.status_code == 303 and _sheets_made(database_env) == 3


def test_a_share_id_that_is_not_one_is_refused_beside_its_field_and_makes_nothing(client, database_env):
    r = client.post("/sheet/share", data={**NIGHT, "cid": "short"})
    assert r.status_code == 400
    assert "is not a share&#39;s id" in r.get_data(as_text=True)
    assert _sheets_made(database_env) == 0


def test_two_repeats_of_one_share_racing_each_other_make_one_sheet(database_env):
    store = SheetStore(open_database(database_env))
    share_id = new_client_id() + "racing"
    start = threading.Barrier(4)
    tokens: list[str] = []

    def tap() -> None:
        start.wait()
        tokens.append(store.create({"rules": "hong-kong"}, [LINE], "10.0.0.9", share_id=share_id))

    threads = [threading.Thread(target=tap) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(tokens) == 4 and len(set(tokens)) == 1
    assert _sheets_made(database_env) == 1
    assert [h.line for h in store.open(tokens[0]).hands] == [LINE]
