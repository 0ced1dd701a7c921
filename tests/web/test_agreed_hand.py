"""The agreed hand on a shared sheet (app/web/table/agreed.py): four taps write the sheet's own
`fan=` line, priced as a typed one; the same form corrects a hand in place; refusals sit beside
the form's fields in the page's words; the share box's QR codes are drawn inline."""
from __future__ import annotations

import re

import pytest

from app.base.errors import HandError
from app.vocabulary.sheet import parse_entry
from app.web import create_app
from app.web.table.agreed import agreed_line

NIGHT = {"rules": "hong-kong", "names": "阿明,阿強,小玲,大文", "hands": "hand=123m456m789m234p55s by=self-draw seat=S"}


@pytest.fixture
def client(tmp_path):
    return create_app({"STORE_ENV": {"MAHJONG_DATA_DIR": str(tmp_path)}}).test_client()


def _share(client) -> str:
    return client.post("/sheet/share", data=NIGHT).headers["Location"]


def test_the_form_writes_the_sheets_own_fan_line():
    assert agreed_line({"winner": "S", "from": "self-draw", "fan": "4"}) == "fan=4 by=self-draw seat=S"
    assert agreed_line({"winner": "S", "from": "E", "fan": "05"}) == "fan=5 seat=S discarder=E"


def test_a_correction_keeps_the_tiles_and_the_seating_and_changes_the_way_of_winning():
    entry = parse_entry("hand=123m456m789m234p55s by=self-draw seat=S flowers=1 at=2341")
    assert agreed_line({"winner": "W", "from": "N"}, entry) == \
        "hand=123m456m789m234p55s flowers=1 seat=W discarder=N at=2341"
    agreed = parse_entry("fan=6 seat=W discarder=N")
    assert agreed_line({"winner": "W", "from": "self-draw", "fan": "7"}, agreed) == "fan=7 by=self-draw seat=W"


@pytest.mark.parametrize(("form", "fields"), [
    ({}, ["winner", "from", "fan"]),
    ({"winner": "S", "from": "S", "fan": "3"}, ["from"]),
    ({"winner": "X", "from": "E", "fan": "²"}, ["winner", "fan"]),
])
def test_what_the_form_leaves_unsaid_is_refused_beside_its_field(form, fields):
    with pytest.raises(HandError) as caught:
        agreed_line(form)
    assert [e.field for e in caught.value.errors] == fields


def test_an_agreed_hand_is_priced_as_the_same_typed_line(client):
    tapped, typed = _share(client), _share(client)
    assert client.post(tapped + "/change", data={"action": "add", "winner": "S", "from": "E", "fan": "5"}).status_code == 303
    assert client.post(typed + "/change", data={"action": "add", "line": "fan=5 seat=S discarder=E"}).status_code == 303
    one, two = client.get(tapped + ".json").json, client.get(typed + ".json").json
    assert one["rows"] == two["rows"] and one["totals"] == two["totals"]
    assert one["hands"][1]["line"] == "fan=5 seat=S discarder=E at=1234"


def test_a_refused_agreed_hand_comes_back_filled_in_with_the_reason_in_words(client):
    edit = _share(client)
    r = client.post(edit + "/change?lang=zh-Hant", data={"action": "add", "winner": "S", "from": "S", "fan": "4"})
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    form = page[page.index('id="agreed"'):page.index("</form>", page.index('id="agreed"'))]
    assert re.search(r'name="winner" value="S" checked', form) and re.search(r'name="fan" value="4" checked', form)
    assert 'class="error" role="alert">' in form and "from：" not in page and "from:" not in page


def test_correct_in_place_opens_on_the_hand_with_its_winner_and_way_chosen(client):
    edit = _share(client)
    hand = client.get(edit + ".json").json["hands"][0]["id"]
    page = client.get(f"{edit}?fix={hand}&lang=zh-Hant").get_data(as_text=True)
    assert "更正第 1 局" in page and "阿強（南）自摸" in page
    assert 'name="winner" value="S" checked' in page and 'name="from" value="self-draw" checked' in page
    assert 'name="fan"' not in page   # a hand with tiles: its fan comes from them


def test_the_share_box_draws_both_links_as_inline_svg_qr_codes(client):
    edit = _share(client)
    page = client.get(edit).get_data(as_text=True)
    assert page.count('<svg viewBox=') >= 2 and 'class="qr"' in page
    assert f'value="http://localhost{edit}"' in page   # the whole address, for another phone


def test_the_tick_boxes_and_the_ledger_opened_from_a_shared_sheet_name_the_players(client):
    edit = _share(client)
    page = client.get(edit + "?lang=zh-Hant").get_data(as_text=True)
    add = re.search(r'id="add-hand" href="([^"]+)"', page)[1].replace("&amp;", "&")
    sheet = add.split("sheet=", 1)[1].split("&", 1)[0]
    ticks = client.get(f"/ticks?rules=hong-kong&lang=zh-Hant&sheet={sheet}&ticks=all-chows,concealed-hand,"
                       "no-bonus-tiles&seat=S&discarder=W").get_data(as_text=True)
    assert "阿強 (南)" in ticks and "小玲 (西)" in ticks        # the seat and discarder buttons
    payments = ticks[ticks.index('class="payments"'):]
    assert "阿強 (南)" in payments[:payments.index("</table>")]   # who pays whom, by name
    ledger = client.get(f"/round?rules=sichuan&lang=zh-Hans&sheet={sheet}").get_data(as_text=True)
    assert "阿明 (东)家缺" in ledger


def test_a_sheet_that_names_nobody_leaves_the_seats_as_winds(client):
    edit = client.post("/sheet/share", data={**NIGHT, "names": ""}).headers["Location"]
    page = client.get(edit).get_data(as_text=True)
    add = re.search(r'id="add-hand" href="([^"]+)"', page)[1].replace("&amp;", "&")
    calc = client.get(add + "&hand=123m456m789m234p55s&seat=S").get_data(as_text=True)
    assert "P1 (" not in calc and "South" in calc
