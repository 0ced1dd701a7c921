"""The last plain-text kinds embed: fan to payment (its compact embed), a table's own rules
(`/house?rules=…&house=…`) and a shared sheet's view link frame by oEmbed and name their oEmbed
address; a sheet's edit link never does, and its token reaches no oEmbed answer or cacheable page.
(The real WordPress test, tests/browser/test_wordpress.py, embeds each and measures the frame.)"""
from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from app.web import create_app
from tests.web.test_stored_sheet_web import NIGHT

ROOT = "http://localhost"
DISCOVERY = re.compile(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"')


def _frame_src(answer: dict) -> str:
    src = re.search(r'<iframe src="([^"]+)"', answer["html"])
    assert src is not None, answer["html"]
    return html.unescape(src[1])


def _oembed(client, url: str):
    return client.get("/oembed", query_string={"url": url})


def _house_code(client) -> str:
    """A variant built on /house (cap 10): its `rules=…&house=…` query."""
    page = client.get("/house", query_string={"edit": "1", "base": "hong-kong", "cap": "10"})
    link = re.search(r'href="([^"]+)" id="house-calculator"', page.get_data(as_text=True))
    assert link is not None
    return urlsplit(html.unescape(link[1])).query


@pytest.mark.parametrize("path", ["/points", "/embed/points"])
def test_fan_to_payment_frames_its_compact_embed(client, path):
    answer = _oembed(client, f"{ROOT}{path}?rules=sichuan&fan=3&embed=1&lang=zh-Hant")
    assert answer.status_code == 200
    src = urlsplit(_frame_src(answer.get_json()))
    assert src.path == "/embed/points"
    assert parse_qs(src.query) == {"rules": ["sichuan"], "fan": ["3"], "lang": ["zh-Hant"]}
    assert answer.get_json()["height"] <= 1000
    page = client.get(f"{path}?rules=sichuan&fan=3").get_data(as_text=True)
    assert DISCOVERY.search(page) is not None


def test_the_embed_shows_five_rows_of_the_table_around_the_fan_and_links_the_whole(client):
    page = client.get("/embed/points?rules=hong-kong&fan=7").get_data(as_text=True)
    rows = re.findall(r'<th scope="row">(\d+)', page)
    assert rows == ["5", "6", "7", "8", "9"]
    assert 'href="/points?rules=hong-kong&amp;fan=7#conversion"' in page
    whole = client.get("/points?rules=hong-kong&fan=7").get_data(as_text=True)
    assert re.findall(r'<th scope="row">(\d+)', whole) == [str(n) for n in range(14)]
    edge = client.get("/embed/points?rules=hong-kong&fan=0").get_data(as_text=True)
    assert re.findall(r'<th scope="row">(\d+)', edge) == ["0", "1", "2", "3", "4"]


def test_a_tables_own_rules_frame_their_embed_view(client):
    query = _house_code(client)
    answer = _oembed(client, f"{ROOT}/house?{query}")
    assert answer.status_code == 200
    src = urlsplit(_frame_src(answer.get_json()))
    assert src.path == "/house" and parse_qs(src.query)["embed"] == ["1"]
    framed = client.get(f"/house?{src.query}")
    assert framed.status_code == 200
    text = framed.get_data(as_text=True)
    assert 'class="embed' in text and "cap: 13 → 10" in text
    assert '<form' not in text   # what the rules are, not the builder
    assert DISCOVERY.search(client.get(f"/house?{query}").get_data(as_text=True)) is not None


def test_the_empty_builder_frames_as_nothing(client):
    assert _oembed(client, f"{ROOT}/house?base=hong-kong").status_code == 404
    assert DISCOVERY.search(client.get("/house").get_data(as_text=True)) is None


@pytest.fixture
def sheet_client(database_env):
    return create_app({"STORE_ENV": database_env}).test_client()


def _shared(client) -> tuple[str, str]:
    """A shared night's (edit link, view link) paths."""
    edit = client.post("/sheet/share", data=NIGHT).headers["Location"]
    page = client.get(edit).get_data(as_text=True)
    view = re.search(r'href="(/s/[A-Za-z0-9_-]+)" id="view-link"', page)
    assert view is not None
    return edit, view[1]


def test_a_sheets_view_link_frames_its_totals_and_the_edit_link_frames_as_nothing(sheet_client):
    edit, view = _shared(sheet_client)
    edit_token = edit.rsplit("/", 1)[1]
    answer = _oembed(sheet_client, f"{ROOT}{view}")
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "no-store"
    src = urlsplit(_frame_src(answer.get_json()))
    assert (src.path, parse_qs(src.query)) == (view, {"embed": ["1"]})
    assert edit_token not in answer.get_data(as_text=True)
    framed = sheet_client.get(f"{view}?embed=1")
    text = framed.get_data(as_text=True)
    assert framed.headers["Cache-Control"] == "no-store"
    assert "X-Frame-Options" not in framed.headers
    assert 'class="embed' in text and "<caption>Totals</caption>" in text
    assert edit_token not in text and "<form" not in text
    assert DISCOVERY.search(sheet_client.get(view).get_data(as_text=True)) is not None
    # the edit link: no frame, no discovery, and its embed view is the edit page no site frames
    assert _oembed(sheet_client, f"{ROOT}{edit}").status_code == 404
    assert _oembed(sheet_client, f"{ROOT}{view}?x=stored%3D{edit_token}").status_code == 404
    assert DISCOVERY.search(sheet_client.get(edit).get_data(as_text=True)) is None
    refused = sheet_client.get(f"{edit}?embed=1")
    assert refused.headers["X-Frame-Options"] == "DENY"
    assert 'class="embed' not in refused.get_data(as_text=True)


def test_a_token_no_sheet_has_frames_as_nothing(sheet_client):
    assert _oembed(sheet_client, f"{ROOT}/s/AAAAAAAAAAAAAAAAAAAAAAAA").status_code == 404
