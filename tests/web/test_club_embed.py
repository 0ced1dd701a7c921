"""A club's standings and a member's card on the club's own site: embedded views of the VIEW link
alone, named by its pages' oEmbed discovery link and framed by /oembed; the organiser's and the
member's links are refused there and frame as nothing, so neither reaches another site's page,
a frame or a cache."""
from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from app.web import create_app
from tests.web.test_club_web import NAMES, _club, _links, _record_night

TOKEN = re.compile(r"/c/([A-Za-z0-9_-]{24})")
DISCOVERY = re.compile(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"')


@pytest.fixture
def client(tmp_path):
    return create_app({"STORE_ENV": {"MAHJONG_DATA_DIR": str(tmp_path / "data")}}).test_client()


def _played(client) -> tuple[str, dict[str, str]]:
    link = _club(client)
    _record_night(client, link)
    return link, _links(client, link)


def _oembed(client, url: str):
    return client.get("/oembed?format=json&url=" + quote("http://localhost" + url, safe=""))


def _only_view_token(body: str, links: dict[str, str]) -> None:
    view = links["view"].removeprefix("/c/")
    assert set(TOKEN.findall(body)) <= {view}, "another capability link in the answer"
    for role in ("organiser", "member"):
        assert links[role].removeprefix("/c/") not in body
    assert "/s/" not in body and "stored=" not in body        # no table's sheet link either


def test_the_view_links_standings_and_member_card_are_embedded_views_that_keep_no_other_link(client):
    link, links = _played(client)
    view = links["view"]
    season = client.get(f"{link}/standings.json").get_json()
    for path, shows in ((f"{view}/embed/standings", season["standings"][0]["name"]),
                        (f"{view}/embed/members/{season['standings'][0]['member']}", "Rating")):
        answer = client.get(path)
        body = answer.get_data(as_text=True)
        assert answer.status_code == 200, path
        assert answer.headers["Cache-Control"] == "no-store" and answer.headers["Referrer-Policy"] == "no-referrer"
        assert "X-Frame-Options" not in answer.headers                  # another site may frame it
        assert '<body class="embed ' in body and '<header class="site">' not in body
        assert shows in body
        _only_view_token(body, links)
    standings = client.get(f"{view}/embed/standings").get_data(as_text=True)
    totals = [int(t) for t in re.findall(r'<tr id="line-\d+"><td class="num">\d+</td>\s*<th[^>]*>.*?</th>\s*'
                                         r'<td class="num">([+-]?\d+)</td>', standings, re.S)]
    assert totals == [line["total"] for line in season["standings"]]
    # its links open the club's pages beside the frame, on the view link
    assert re.search(rf'<a href="{view}/members/\d+" target="_blank" rel="noopener">', standings)


def test_the_embedded_standings_show_the_leaders_and_link_to_the_whole_table(client):
    names = [f"P{i:02d}" for i in range(1, 17)]
    link = _club(client, names)
    view = _links(client, link)["view"]
    body = client.get(f"{view}/embed/standings").get_data(as_text=True)
    assert len(re.findall(r'<tr id="line-', body)) == 12
    assert re.search(r'id="all-standings">All 16 members', body)


@pytest.mark.parametrize("role", ["organiser", "member"])
def test_an_organisers_or_members_link_is_refused_as_an_embedded_view_and_framed_by_no_site(client, role):
    _link, links = _played(client)
    for path in ("/embed/standings", "/embed/members/1"):
        answer = client.get(links[role] + path)
        assert answer.status_code == 403 and answer.headers["X-Frame-Options"] == "DENY"
        assert answer.headers["Cache-Control"] == "no-store"
        assert "view link" in answer.get_data(as_text=True)


def test_oembed_frames_the_view_link_alone(client):
    link, links = _played(client)
    view = links["view"]
    for path, frame, title in ((f"{view}/standings?sort=won", f"{view}/embed/standings?sort=won",
                                "Standings: Thursday club"),
                               (f"{view}/members/2", f"{view}/embed/members/2", "Bob: a season at Thursday club"),
                               (f"{view}/embed/standings", f"{view}/embed/standings", "Standings: Thursday club")):
        answer = _oembed(client, path)
        assert answer.status_code == 200, path
        assert answer.headers["Cache-Control"] == "no-store"      # it carries the view link
        found = answer.get_json()
        assert found["type"] == "rich" and found["title"] == title
        assert f'<iframe src="http://localhost{frame}" width="100%"' in found["html"]
        assert found["height"] <= 1000
        _only_view_token(found["html"], links)
    for role in ("organiser", "member"):
        for path in ("/standings", "/members/2", "/embed/standings"):
            refused = _oembed(client, links[role] + path)
            assert refused.status_code == 404
            assert links[role].removeprefix("/c/") not in refused.get_data(as_text=True)
    assert _oembed(client, f"{view}/members/99").status_code == 404       # no such member
    assert _oembed(client, f"{view}/nights/1").status_code == 404         # a night: not embedded
    # a view link carrying a sheet's token in its query frames as nothing
    sheet = re.search(r'href="(/s/[^"]+)"', client.get(f"{link}/nights/1").get_data(as_text=True))[1]
    assert _oembed(client, f"{view}/standings?x=stored%3D{sheet[3:]}").status_code == 404


def test_only_the_view_links_pages_name_an_oembed_address(client):
    _link, links = _played(client)
    for role in ("organiser", "member", "view"):
        for path in ("/standings", "/members/1"):
            found = DISCOVERY.search(client.get(links[role] + path).get_data(as_text=True))
            assert (found is not None) == (role == "view"), (role, path)
            if found:
                assert _oembed(client, re.sub(r"^http://localhost", "", links[role] + path)).status_code == 200
    # the organiser's standings say what to paste: the view link's address
    page = client.get(links["organiser"] + "/standings").get_data(as_text=True)
    assert re.search(rf'id="embed-address" readonly value="http://localhost{links["view"]}/standings"', page)
    card = client.get(links["member"] + "/members/2").get_data(as_text=True)
    assert re.search(rf'id="embed-address" readonly value="http://localhost{links["view"]}/members/2"', card)


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_the_embedded_views_speak_the_page_language(client, lang):
    _link, links = _played(client)
    for path in ("/embed/standings", "/embed/members/1"):
        body = client.get(f"{links['view']}{path}?lang={lang}").get_data(as_text=True)
        assert f'<html lang="{lang}">' in body and "自摸" in body
    found = _oembed(client, f"{links['view']}/standings?lang={lang}").get_json()
    assert found["title"].startswith("排名") and "?lang=" + lang in found["html"]


def test_the_embedded_views_and_oembed_on_either_database(database_env):
    client = create_app({"STORE_ENV": database_env}).test_client()
    link, links = _played(client)
    view = links["view"]
    season = client.get(f"{link}/standings.json").get_json()
    assert season["hands"] == 4 and season["zero_sum"]
    body = client.get(f"{view}/embed/standings").get_data(as_text=True)
    assert all(line["name"] in body for line in season["standings"][:12]) and len(season["standings"]) == len(NAMES)
    assert _oembed(client, f"{view}/members/1").status_code == 200
    assert _oembed(client, f"{links['organiser']}/members/1").status_code == 404
    assert client.get(f"{links['member']}/embed/members/1").status_code == 403
