"""The round ledger page by taps: each step a GET form that returns the page with the event added."""
from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from app.hands.tiles import parse_tiles

START = "missing E=p S=m W=s N=p\nkong W exposed 2m from N"


def _round_of(location: str) -> str:
    return parse_qs(urlsplit(location).query)["round"][0]


def test_a_new_round_opens_on_the_missing_suits(client):
    page = client.get("/round").get_data(as_text=True)
    assert '<details class="step" id="step-missing" open>' in page


def test_setting_the_missing_suits_writes_the_first_line(client):
    response = client.get("/round", query_string={"rules": "sichuan", "round": "kong E concealed 5m",
                                                   "step": "missing", "missing_E": "p", "missing_S": "m",
                                                   "do": "add"})
    assert response.status_code == 302 and response.headers["Location"].endswith("#events")
    assert _round_of(response.headers["Location"]) == "missing E=p S=m\nkong E concealed 5m"


def test_a_kong_is_added_before_the_walls_end(client):
    response = client.get("/round", query_string={"rules": "sichuan", "round": START + "\nwall S not-ready",
                                                   "step": "kong", "seat": "S", "kind": "concealed",
                                                   "tile": "9p", "do": "add"})
    assert _round_of(response.headers["Location"]).splitlines()[-2:] == ["kong S concealed 9p", "wall S not-ready"]


def test_a_kong_without_its_tile_comes_back_with_the_error_beside_the_picker_and_the_rest_kept(client):
    response = client.get("/round", query_string={"rules": "sichuan", "round": START, "step": "kong",
                                                   "seat": "W", "kind": "exposed", "from": "N", "do": "add"})
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert re.search(r'id="kong-tile-error" role="alert"><li>pick the kong&#39;s tile', page)
    kong = page[page.index('id="step-kong"'):page.index('id="step-win"')]
    assert '<option value="W" selected>' in kong and 'value="exposed" checked' in kong
    assert re.search(r'id="kong-from" name="from">.*?<option value="N" selected>', kong, re.S)


def test_tapping_tiles_builds_the_winning_hand_without_losing_the_other_fields(client):
    query = {"rules": "sichuan", "round": START, "step": "win", "seat": "E", "by": "self-draw",
             "events": "kong-replacement", "hand": "123s456s789s234s5s", "add": "5s"}
    page = client.get("/round", query_string=query, follow_redirects=True).get_data(as_text=True)   # the tap redirects
    win = page[page.index('id="step-win"'):page.index('id="step-wall"')]
    hand = re.search(r'name="hand" value="([^"]*)"', win)[1]
    assert sorted(parse_tiles(hand)) == sorted(parse_tiles("123s456s789s234s55s"))
    assert 'value="self-draw" checked' in win and 'value="kong-replacement" checked' in win
    assert win.count('aria-label="Remove ') == 14


def test_a_win_that_does_not_win_is_refused_with_the_reason_beside_the_hand(client):
    response = client.get("/round", query_string={"rules": "sichuan", "round": START, "step": "win",
                                                   "seat": "E", "by": "self-draw",
                                                   "hand": "123s456s789s234s56s", "do": "add"})
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and 'id="win-hand-error"' in page
    assert 'name="hand" value="123s456s789s234s56s"' in page   # nothing entered is lost


def test_the_walls_end_takes_one_player_at_a_time_with_shortcuts(client):
    text = START + "\nwin E self-draw hand=123s456s789s234s55s"
    for fields in ({"seat": "S", "hand": "123p456p23p55p", "melds": "ckong:9999p"},
                   {"seat": "W", "status": "not-ready"}, {"seat": "N", "status": "pig"}):
        response = client.get("/round", query_string={"rules": "sichuan", "round": text, "step": "wall",
                                                       "do": "add", **fields})
        assert response.status_code == 302, response.get_data(as_text=True)[:300]
        text = _round_of(response.headers["Location"])
    assert text.splitlines()[-1] == "wall S hand=123p456p23p55p melds=ckong:9999p; W not-ready; N pig"
    page = client.get("/round", query_string={"rules": "sichuan", "round": text}).get_data(as_text=True)
    assert "<caption>Final totals</caption>" in page


def test_every_row_can_be_edited_or_removed(client):
    page = client.get("/round", query_string={"rules": "sichuan", "round": START}).get_data(as_text=True)
    edit = html.unescape(re.search(r'<a href="([^"]*)" aria-label="Edit event 2">', page)[1])
    opened = client.get(edit).get_data(as_text=True)
    kong = opened[opened.index('id="step-kong"'):opened.index('id="step-win"')]
    assert "open" in kong[:40] and 'value="2m" checked' in kong and "Save the kong" in kong
    saved = client.get(edit.split("#")[0].replace("tile=2m", "tile=3m") + "&do=add")
    assert _round_of(saved.headers["Location"]) == "missing E=p S=m W=s N=p\nkong W exposed 3m from N"
    remove = html.unescape(re.search(r'<a href="([^"]*)" aria-label="Remove event 1">', page)[1])
    assert _round_of(client.get(remove).headers["Location"]) == "kong W exposed 2m from N"


def test_an_error_of_the_round_is_shown_in_its_row(client):
    text = START + "\nwin E discard from W hand=123s456s789s234s55s\nwin S discard from E hand=345m678m456s678s99s"
    page = client.get("/round", query_string={"rules": "sichuan", "round": text}).get_data(as_text=True)
    assert re.search(r'<tr id="line-3" class="has-error">.*?E has already won', page, re.S)


@pytest.mark.parametrize("query", [
    {"drop": "x"}, {"drop": "99"}, {"step": "win", "remove": "x"}, {"step": "win", "make": "pong"},
    {"step": "wall", "do": "add", "status": "odd"}, {"step": "kong", "do": "add", "seat": "Q", "tile": "zz"},
    {"step": "missing", "do": "add", "missing_E": "z"}, {"step": "win", "do": "add", "row": "77", "seat": "E",
                                                          "by": "self-draw", "hand": "123s456s789s234s55s"},
])
def test_an_odd_step_is_answered_with_a_message_never_a_server_error(client, query):
    response = client.get("/round", query_string={"rules": "sichuan", "round": START, **query})
    assert response.status_code in (200, 302)
