"""Shared sheets on the web (/s/<token>), against SQLite and PostgreSQL: share, add, correct,
remove, undo, stale edits, the view link, exports, limits."""
from __future__ import annotations

import csv
import html
import io
import re

import pytest

from app.store import sheets as store_sheets
from app.web import create_app
from tests.html_tables import Page

NIGHT = {"rules": "hong-kong", "names": "Ann,Bob,Cy,Di", "hands": "\n".join([
    "hand=123456789m234p55s by=self-draw",
    "hand=123456789m234p55s seat=S discarder=N",
    "hand=123456789m234p55s by=self-draw seat=W at=2341",
    "hand=123456789m234p55s seat=N discarder=S",
])}
BIGGER = "hand=111m456m789m234p55s seat=S discarder=N"    # a pong of 1m instead of the chow


@pytest.fixture
def client(database_env):
    return create_app({"STORE_ENV": database_env}).test_client()


def _share(client, form=NIGHT) -> str:
    r = client.post("/sheet/share", data=form)
    assert r.status_code == 303
    assert re.fullmatch(r"/s/[A-Za-z0-9_-]{24}", r.headers["Location"])
    return r.headers["Location"]


def _table(page: str, caption: str) -> list[list[str]]:
    return [cells for _, cells in Page(page).table(caption)]


def _href(page: str, element_id: str) -> str:
    tag = re.search(rf'<a [^>]*id="{element_id}"[^>]*>', page)
    assert tag, f"no link #{element_id}"
    return html.unescape(re.search(r'href="([^"]*)"', tag[0])[1])


def _version(page: str) -> str:
    return re.search(r'id="live" data-version="(\d+)"', page)[1]


def _hand_ids(page: str) -> list[str]:
    return re.findall(r'name="action" value="remove"><input type="hidden" name="hand" value="(\d+)"', page)


def _link_sheet(client, hands: str) -> str:
    return client.get("/sheet", query_string={**NIGHT, "hands": hands}).get_data(as_text=True)


def test_the_sheet_page_offers_to_share_the_table_in_one_tap(client):
    page = client.get("/sheet", query_string=NIGHT).get_data(as_text=True)
    form = re.search(r'<form method="post" action="/sheet/share"[^>]*id="share-form">(.*?)</form>', page, re.S)
    assert form and 'id="share"' in form[1]
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form[1]))
    assert fields["rules"] == "hong-kong" and fields["names"] == "Ann,Bob,Cy,Di"
    edit = _share(client, {k: html.unescape(v) for k, v in fields.items()})
    stored = client.get(edit)
    assert stored.status_code == 200 and "Set-Cookie" not in stored.headers
    assert stored.headers["Cache-Control"] == "no-store"
    page2 = stored.get_data(as_text=True)
    link_page = client.get("/sheet", query_string=NIGHT).get_data(as_text=True)
    for caption in ("Totals", "Who pays whom", "Running totals"):
        assert _table(page2, caption) == _table(link_page, caption)
    assert "deleted" in page2 and str(store_sheets.EXPIRE_DAYS) in page2


def test_the_view_link_shows_the_sheet_and_cannot_change_it(client):
    edit = _share(client)
    page = client.get(edit).get_data(as_text=True)
    view = _href(page, "view-link")
    assert view != edit and edit.rsplit("/", 1)[1] not in view
    watched = client.get(view).get_data(as_text=True)
    assert _table(watched, "Totals") == _table(page, "Totals")
    assert 'method="post"' not in watched and "edit-link" not in watched
    assert edit.rsplit("/", 1)[1] not in watched
    r = client.post(view + "/change", data={"action": "add", "line": "hand=123456789m234p55s"})
    assert r.status_code == 404
    assert _table(client.get(edit).get_data(as_text=True), "Totals") == _table(page, "Totals")


def test_a_calculator_result_comes_back_to_be_added_to_the_shared_sheet(client):
    edit = _share(client)
    page = client.get(edit).get_data(as_text=True)
    calc = client.get(_href(page, "add-hand") + "&hand=123m456m789m234p66s&by=self-draw&seat=W")
    add = _href(calc.get_data(as_text=True), "sheet-add")
    back = client.get(add)
    assert back.status_code == 302 and back.headers["Location"].startswith(edit + "?add=")
    confirm = client.get(back.headers["Location"]).get_data(as_text=True)
    line = html.unescape(re.search(r'id="line" name="line" value="([^"]*)"', confirm)[1])
    assert line == "hand=123456789m234p66s by=self-draw seat=W"
    r = client.post(edit + "/change", data={"action": "add", "line": line})
    assert r.status_code == 303
    after = client.get(edit).get_data(as_text=True)
    assert len(_table(after, "Running totals")) == 1 + 5   # the head row, then a row a hand
    expected = _link_sheet(client, NIGHT["hands"] + "\n" + line + " at=2341")
    assert _table(after, "Totals") == _table(expected, "Totals")


def test_correcting_hand_2_of_4_recomputes_every_later_total_and_the_settle_up(client):
    edit = _share(client)
    page = client.get(edit).get_data(as_text=True)
    edit_2 = html.unescape(re.search(r'href="([^"]+)" aria-label="Edit hand 2"', page)[1])
    calc = client.get(edit_2.replace("hand=123456789m234p55s", "hand=111m456m789m234p55s"))
    put = _href(calc.get_data(as_text=True), "sheet-add")
    back = client.get(put).headers["Location"]
    confirm = client.get(back).get_data(as_text=True)
    assert "Put this in place of hand 2" in confirm
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"',
                             re.search(r'id="confirm-form"[^>]*>(.*?)</form>', confirm, re.S)[1]))
    line = html.unescape(re.search(r'id="line" name="line" value="([^"]*)"', confirm)[1])
    assert client.post(edit + "/change", data={**fields, "line": line}).status_code == 303
    after = client.get(edit).get_data(as_text=True)
    hands = NIGHT["hands"].split("\n")
    expected = _link_sheet(client, "\n".join([hands[0], BIGGER, *hands[2:]]))
    for caption in ("Totals", "Who pays whom", "Running totals"):
        assert _table(after, caption) == _table(expected, caption)
    assert _table(after, "Totals") != _table(page, "Totals")


def test_a_correction_made_on_a_stale_page_is_refused_beside_the_field_and_kept_typed(client):
    edit = _share(client)
    page = client.get(edit).get_data(as_text=True)
    base, hand2 = _version(page), _hand_ids(page)[1]
    first = client.post(edit + "/change", data={"action": "correct", "hand": hand2, "base": base, "line": BIGGER})
    assert first.status_code == 303
    late = "hand=123456789m234p55s seat=S discarder=W"
    r = client.post(edit + "/change", data={"action": "correct", "hand": hand2, "base": base, "line": late})
    assert r.status_code == 409
    text = r.get_data(as_text=True)
    assert "someone changed this hand after you opened it" in text
    assert html.unescape(re.search(r'id="line" name="line" value="([^"]*)"', text)[1]).startswith(late)
    assert BIGGER in client.get(edit.replace("/s/", "/s/", 1) + ".json").get_json()["hands"][1]["line"]


def test_remove_and_undo_change_the_totals_and_undo_brings_the_hand_back(client):
    edit = _share(client)
    page = client.get(edit).get_data(as_text=True)
    r = client.post(edit + "/change", data={"action": "remove", "hand": _hand_ids(page)[0],
                                            "base": _version(page)})
    assert r.status_code == 303
    removed = client.get(edit).get_data(as_text=True)
    assert len(_table(removed, "Running totals")) == 1 + 3
    assert client.post(edit + "/change", data={"action": "undo", "base": _version(removed)}).status_code == 303
    back = client.get(edit).get_data(as_text=True)
    assert _table(back, "Running totals") == _table(page, "Running totals")
    stale = client.post(edit + "/change", data={"action": "undo", "base": _version(removed)})
    assert stale.status_code == 409 and "look at it again before you undo" in stale.get_data(as_text=True)


def test_a_bad_hand_is_refused_beside_its_field_and_comes_back_typed(client):
    edit = _share(client)
    r = client.post(edit + "/change", data={"action": "add", "line": "hand=123m zap"})
    assert r.status_code == 400
    text = r.get_data(as_text=True)
    assert "line: &#39;zap&#39; is not name=value" in text
    assert 'value="hand=123m zap"' in text
    assert client.post(edit + "/change", data={"action": "fly"}).status_code == 400
    assert client.post(edit + "/change", data={"action": "remove", "hand": "1"}).status_code == 400


def test_a_change_past_the_body_limit_is_refused_unread(client):
    edit = _share(client)
    r = client.post(edit + "/change", data={"action": "add", "line": "x" * 20000})
    assert r.status_code == 413


def test_the_version_answer_is_small_and_304_while_unchanged(client):
    edit = _share(client)
    first = client.get(edit + "/version")
    assert first.get_json() == {"version": 4} and first.headers["ETag"] == '"v4"'
    assert client.get(edit + "/version", headers={"If-None-Match": '"v4"'}).status_code == 304
    client.post(edit + "/change", data={"action": "add", "line": "hand=123456789m234p55s"})
    assert client.get(edit + "/version", headers={"If-None-Match": '"v4"'}).get_json() == {"version": 5}


def test_csv_and_json_of_a_stored_sheet(client):
    edit = _share(client)
    rows = list(csv.reader(io.StringIO(client.get(edit + ".csv").get_data(as_text=True))))
    expected = list(csv.reader(io.StringIO(client.get("/sheet.csv", query_string=NIGHT).get_data(as_text=True))))
    assert rows == expected
    data = client.get(edit + ".json").get_json()
    assert data["version"] == 4 and len(data["rows"]) == 4 and sum(data["totals"]) == 0
    assert data["link"].startswith("/s/") and edit.rsplit("/", 1)[1] not in data["link"]


def test_an_unknown_token_is_404_and_says_sheets_expire(client):
    r = client.get("/s/AAAAAAAAAAAAAAAAAAAAAAAA")
    assert r.status_code == 404 and "expired" in r.get_data(as_text=True)


def test_sharing_too_many_sheets_from_one_client_in_an_hour_is_refused(client, monkeypatch):
    monkeypatch.setattr(store_sheets, "MAX_CREATED_PER_HOUR", 2)
    _share(client)
    _share(client)
    r = client.post("/sheet/share", data=NIGHT)
    assert r.status_code == 429 and "in the last hour" in r.get_data(as_text=True)


def test_a_shared_sheet_speaks_in_its_familys_words(client):
    edit = _share(client, {"rules": "sichuan", "hands": "hand=111p123p777p789p55p missing=m"})
    page = client.get(edit + "?lang=zh-Hant").get_data(as_text=True)
    assert "<h1>共享記分表</h1>" in page
    hk = client.get(_share(client) + "?lang=zh-Hant").get_data(as_text=True)
    assert "<h1>共享計分表</h1>" in hk
