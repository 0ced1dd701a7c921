"""The club on the web (/club, /c/<token>): three links and what each may do, members and their
errors beside the field, a night seated at tables that are stored sheets, standings sorted on
the server and re-ranked by a correction, CSV and JSON of a season and a member."""
from __future__ import annotations

import csv
import io
import re

import pytest

from app.web import create_app

NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy"]
SELF_DRAW = "hand=123m456m789m234p55s by=self-draw seat={seat}"
ON_DISCARD = "hand=111m222m333m444p55p seat={seat} discarder={discarder}"


@pytest.fixture
def client(tmp_path):
    return create_app({"STORE_ENV": {"MAHJONG_DATA_DIR": str(tmp_path / "data")}}).test_client()


def _club(client, names=NAMES) -> str:
    made = client.post("/club/new", data={"name": "Thursday club", "rules": "hong-kong", "season": "Spring"})
    assert made.status_code == 303 and re.fullmatch(r"/c/[A-Za-z0-9_-]{24}", made.headers["Location"])
    link = made.headers["Location"]
    for name in names:
        assert client.post(f"{link}/members", data={"name": name}).status_code == 303
    return link


def _links(client, link: str) -> dict[str, str]:
    page = client.get(link).get_data(as_text=True)
    return {role: re.search(rf'href="(/c/[^"]+)" id="{role}-link"', page)[1]
            for role in ("organiser", "member", "view") if f'id="{role}-link"' in page}


def _night(client, link: str, present=None, method="random", seed="7") -> str:
    page = client.get(link).get_data(as_text=True)
    ids = present or re.findall(r'name="present" value="(\d+)"', page)
    started = client.post(f"{link}/nights", data={"present": ids, "method": method, "seed": seed})
    assert started.status_code == 303, started.get_data(as_text=True)
    return started.headers["Location"]


def _sheets(client, night: str) -> list[str]:
    return re.findall(r'href="(/s/[^"]+)" id="sheet-', client.get(night).get_data(as_text=True))


def _standings(client, link: str, sort: str = "total") -> list[str]:
    page = client.get(f"{link}/standings?sort={sort}").get_data(as_text=True)
    return re.findall(r'<tr id="line-\d+">.*?<th scope="row"><a [^>]*>([^<]*)</a>', page, re.S)


def test_a_club_is_made_in_one_post_and_its_pages_keep_no_token_anywhere(client):
    page = client.get("/club")
    assert page.status_code == 200 and 'action="/club/new"' in page.get_data(as_text=True)
    link = _club(client, [])
    opened = client.get(link)
    assert opened.status_code == 200 and "Set-Cookie" not in opened.headers
    assert opened.headers["Cache-Control"] == "no-store" and opened.headers["Referrer-Policy"] == "no-referrer"
    assert opened.headers.get("X-Frame-Options") == "DENY"     # the organiser's page: framed by no site
    links = _links(client, link)
    assert set(links) == {"organiser", "member", "view"} and links["organiser"] == link
    assert set(_links(client, links["member"])) == {"member", "view"}
    assert set(_links(client, links["view"])) == {"view"}


def test_the_view_link_cannot_write_and_the_member_link_cannot_manage(client):
    link = _club(client, NAMES[:4])
    night = _night(client, link)
    links = _links(client, link)
    for role in ("member", "view"):
        other = links[role]
        assert client.post(f"{other}/members", data={"name": "Zed"}).status_code == 403
        assert client.post(f"{other}/members/1", data={"name": "Zed"}).status_code == 403
        assert client.post(f"{other}/seasons", data={"season": "S2", "rules": "sichuan"}).status_code == 403
        assert client.post(f"{other}/nights", data={"present": ["1", "2", "3", "4"],
                                                    "method": "random"}).status_code == 403
        assert client.post(f"{other}/nights/1/rounds", data={"method": "random"}).status_code == 403
        assert 'id="night-form"' not in client.get(other).get_data(as_text=True)
    assert "Zed" not in client.get(link).get_data(as_text=True)
    # the member link records at the tables; the view link only watches them
    member_sheet = _sheets(client, night.replace(link, links["member"]))[0]
    view_sheet = _sheets(client, night.replace(link, links["view"]))[0]
    assert member_sheet != view_sheet
    line = SELF_DRAW.format(seat="E")
    assert client.post(f"{member_sheet}/change", data={"action": "add", "line": line}).status_code == 303
    assert client.post(f"{view_sheet}/change", data={"action": "add", "line": line}).status_code == 404
    assert 'id="undo"' in client.get(member_sheet).get_data(as_text=True)
    assert 'id="undo"' not in client.get(view_sheet).get_data(as_text=True)


def test_a_bad_name_comes_back_beside_its_field_with_the_form_filled_in(client):
    link = _club(client, ["Ann"])
    refused = client.post(f"{link}/members", data={"name": "ann", "note": ""})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 400
    assert re.search(r'id="err-note"[^>]*><li>[^<]*already called ann', page)
    assert re.search(r'id="member-name" name="name" value="ann"', page)
    assert client.post(f"{link}/members", data={"name": "Ann", "note": "from Kowloon"}).status_code == 303
    too_long = client.post(f"{link}/members", data={"name": "A" * 30})
    assert too_long.status_code == 400 and 'id="err-name"' in too_long.get_data(as_text=True)
    assert client.post("/club/new", data={"name": "", "rules": "hong-kong"}).status_code == 400
    bad_rules = client.post("/club/new", data={"name": "X", "rules": "chess"})
    assert bad_rules.status_code == 400 and 'id="err-rules"' in bad_rules.get_data(as_text=True)


def test_a_rename_keeps_the_member_and_their_earlier_name(client):
    link = _club(client, NAMES[:4])
    assert client.post(f"{link}/members/1", data={"name": "安妮"}).status_code == 303
    page = client.get(f"{link}/members/1").get_data(as_text=True)
    assert "<h1>安妮</h1>" in page and 'id="names"' in page and "Ann" in page


def test_a_night_of_nine_seats_two_tables_and_says_who_sits_out(client):
    link = _club(client)
    night = _night(client, link, seed="2026")
    page = client.get(night).get_data(as_text=True)
    assert page.count('class="club-table"') == 2
    said = re.search(r'class="seating-said">(.*?)</p>', page, re.S)[1]
    assert "seed 2026" in said and "Sitting this round out" in said
    seated = re.findall(r'<ol class="seats">(.*?)</ol>', page, re.S)
    names = [n for table in seated for n in re.findall(r"<li>([^<]*)</li>", table)]
    out = [n for n in NAMES if n not in names]
    assert len(names) == 8 and len(out) == 1 and out[0] in said
    sheet = client.get(_sheets(client, night)[0] + ".json").get_json()
    assert [p["name"] for p in sheet["players"]] == re.findall(r"<li>([^<]*)</li>", seated[0])
    again = client.post(f"{night}/rounds", data={"method": "meet", "seed": ""})
    assert again.status_code == 303
    assert client.get(night).get_data(as_text=True).count('class="club-table"') == 4
    refused = client.post(f"{night}/rounds", data={"method": "swiss"})
    assert refused.status_code == 400 and 'id="err-method"' in refused.get_data(as_text=True)


def test_fewer_than_four_present_is_refused_beside_the_list(client):
    link = _club(client)
    refused = client.post(f"{link}/nights", data={"present": ["1", "2", "3"], "method": "random"})
    assert refused.status_code == 400 and 'id="err-present"' in refused.get_data(as_text=True)


def _record_night(client, link: str) -> tuple[str, list[str]]:
    night = _night(client, link, present=["1", "2", "3", "4", "5", "6", "7", "8"])
    sheets = _sheets(client, night)
    for sheet in sheets:
        for line in (SELF_DRAW.format(seat="E"), ON_DISCARD.format(seat="S", discarder="W")):
            assert client.post(f"{sheet}/change", data={"action": "add", "line": line}).status_code == 303
    return night, sheets


def test_the_standings_are_the_sum_of_the_sheets_and_a_correction_re_ranks_them(client):
    link = _club(client)
    _night_link, sheets = _record_night(client, link)
    season = client.get(f"{link}/standings.json").get_json()
    by_name: dict[str, float] = {}
    for sheet in sheets:
        found = client.get(f"{sheet}.json").get_json()
        for player, total in zip(found["players"], found["totals"], strict=True):
            by_name[player["name"]] = by_name.get(player["name"], 0) + total
    assert {line["name"]: line["total"] for line in season["standings"] if line["nights"]} == by_name
    assert season["zero_sum"] and season["total"] == 0 and season["hands"] == 4
    assert season["rating"]["package"] == "openskill" and season["rating"]["parameters"]["mu"] == 25.0
    first = _standings(client, link)
    # the second hand of the first table corrected: now West wins it, on South's discard
    table = client.get(f"{sheets[0]}.json").get_json()
    hand = table["hands"][1]["id"]
    corrected = client.post(f"{sheets[0]}/change", data={"action": "correct", "hand": hand, "base": table["version"],
                                                         "line": ON_DISCARD.format(seat="W", discarder="S")})
    assert corrected.status_code == 303
    after = _standings(client, link)
    assert after != first
    west = table["players"][2]["name"]
    assert after.index(west) < first.index(west)
    assert client.get(f"{link}/standings.json").get_json()["zero_sum"]


@pytest.mark.parametrize("column", ["total", "nights", "hands", "won", "self_draws", "discard_wins", "deal_ins",
                                    "biggest", "average_fan", "name"])
def test_the_standings_sort_by_each_column_on_the_server(client, column):
    link = _club(client)
    _record_night(client, link)
    response = client.get(f"{link}/standings?sort={column}")
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and f'aria-sort="{"ascending" if column == "name" else "descending"}"' in page
    assert re.search(rf'<th scope="col" aria-sort="[a-z]+"[^>]*><a href="[^"]*sort={column}"', page)
    shown = _standings(client, link, column)
    assert sorted(shown) == sorted(NAMES)
    if column == "name":
        assert shown == sorted(NAMES, key=str.casefold)


def test_an_unknown_sort_is_said_beside_the_table(client):
    link = _club(client)
    response = client.get(f"{link}/standings?sort=luck")
    assert response.status_code == 400 and 'id="err-sort"' in response.get_data(as_text=True)


def test_a_season_and_a_member_as_csv_and_json(client):
    link = _club(client)
    _record_night(client, link)
    season = client.get(f"{link}/standings.json").get_json()
    rows = list(csv.reader(io.StringIO(client.get(f"{link}/standings.csv").get_data(as_text=True))))
    assert len(rows) == 1 + len(NAMES) and rows[0][2] == "Member"
    assert [r[2] for r in rows[1:]] == [line["name"] for line in season["standings"]]
    winner = season["standings"][0]
    member = client.get(f"{link}/members/{winner['member']}.json").get_json()
    assert member["season_line"]["total"] == winner["total"]
    assert sum(n["total"] for n in member["nights"]) == winner["total"]
    member_csv = client.get(f"{link}/members/{winner['member']}.csv")
    assert member_csv.headers["Cache-Control"] == "no-store" and "attachment" in member_csv.headers["Content-Disposition"]
    assert len(list(csv.reader(io.StringIO(member_csv.get_data(as_text=True))))) == 1 + len(member["nights"])
    page = client.get(f"{link}/members/{winner['member']}").get_data(as_text=True)
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page and "<polyline" in page


def test_an_unknown_token_and_a_post_from_another_site_are_refused(client):
    assert client.get("/c/AAAAAAAAAAAAAAAAAAAAAAAA").status_code == 404
    link = _club(client, [])
    foreign = client.post(f"{link}/members", data={"name": "Zelda"}, headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403 and "Zelda" not in client.get(link).get_data(as_text=True)
    assert client.post("/club/new", data={"name": "X", "rules": "hong-kong"},
                       headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403


@pytest.mark.parametrize(("lang", "self_draw"), [("zh-Hant", "自摸"), ("zh-Hans", "自摸")])
def test_the_club_pages_speak_the_page_language_in_the_familys_words(client, lang, self_draw):
    link = _club(client, NAMES[:4])
    night = _night(client, link)
    for path in (link, night, f"{link}/standings", f"{link}/members/1"):
        response = client.get(f"{path}?lang={lang}")
        assert response.status_code == 200, path
    page = client.get(f"{link}/standings?lang={lang}").get_data(as_text=True)
    assert f'<html lang="{lang}">' in page and self_draw in page


def test_a_night_on_either_database_adds_up_and_re_ranks_after_a_correction(database_env):
    client = create_app({"STORE_ENV": database_env}).test_client()
    link = _club(client)
    _night_link, sheets = _record_night(client, link)
    first = client.get(f"{link}/standings.json").get_json()
    assert first["zero_sum"] and first["hands"] == 4
    table = client.get(f"{sheets[1]}.json").get_json()
    hand = table["hands"][0]["id"]
    assert client.post(f"{sheets[1]}/change", data={"action": "remove", "hand": hand,
                                                     "base": table["version"]}).status_code == 303
    after = client.get(f"{link}/standings.json").get_json()
    assert after["hands"] == 3 and after["zero_sum"]
    east = table["players"][0]["name"]
    before_total = next(line["total"] for line in first["standings"] if line["name"] == east)
    after_total = next(line["total"] for line in after["standings"] if line["name"] == east)
    assert after_total < before_total        # East's self-drawn hand is gone from the season


@pytest.mark.parametrize("text", ["GET /c/{t} HTTP/1.1", "POST /c/{t}/nights HTTP/1.1",
                                  "GET /c/{t}/members/3.csv HTTP/1.1", "/oembed?url=https%3A%2F%2Fh%2Fc%2F{t}"])
def test_a_club_token_is_masked_wherever_a_log_line_has_it(text):
    from app.web.serving.privacy import MASK, mask
    token = "MH74ybtHO6n0zKczoBg3LGZH"
    masked = mask(text.format(t=token))
    assert token not in masked and MASK in masked


def test_a_snake_night_deals_the_standings_to_the_tables_and_back(client):
    link = _club(client)
    _record_night(client, link)
    order = [line["name"] for line in client.get(f"{link}/standings.json").get_json()["standings"]
             if line["nights"]]
    night = _night(client, link, present=["1", "2", "3", "4", "5", "6", "7", "8"], method="snake")
    page = client.get(night).get_data(as_text=True)
    assert "by the standings, snaking" in re.search(r'class="seating-said">(.*?)</p>', page, re.S)[1]
    tables = [re.findall(r"<li>([^<]*)</li>", t) for t in re.findall(r'<ol class="seats">(.*?)</ol>', page, re.S)]
    assert tables == [[order[0], order[3], order[4], order[7]], [order[1], order[2], order[5], order[6]]]


def test_a_tables_sheet_links_back_to_its_night_by_the_clubs_view_link_only(client):
    link = _club(client, NAMES[:4])
    night = _night(client, link)
    view = _links(client, link)["view"]
    for sheet in (_sheets(client, night)[0], _sheets(client, night.replace(link, view))[0]):
        page = client.get(sheet).get_data(as_text=True)
        back = re.search(r'<a href="([^"]+)" id="club-night-link">', page)[1]
        assert back == f"{view}/nights/1" and link not in page
        assert client.get(back).status_code == 200
    lone = client.post("/sheet/share", data={"rules": "hong-kong", "names": "A,B,C,D"}).headers["Location"]
    assert 'id="club-night-link"' not in client.get(lone).get_data(as_text=True)
