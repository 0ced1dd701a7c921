"""A sheet played apart brought into a club night: an address-only sheet (its words in the link)
or a shared sheet (its edit or view link) becomes one of the night's tables after a step that
names each of its players and asks which member sat there; it is recorded once however often it
is brought, the standings count it (and follow a shared sheet's later hands), and every mistake
is said beside its field with the form filled in. On SQLite and PostgreSQL."""
from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from app.web import create_app
from tests.web.test_club_web import _club, _links, _night, _sheets

HANDS = "hand=123m456m789m234p55s by=self-draw seat=E\nhand=111m222m333m444p55p seat=S discarder=W"
ADDRESS = "/sheet?" + urlencode({"rules": "hong-kong", "names": "Eve,Fay,Gus,Hal", "hands": HANDS})
MAPPED = {"seat1": "5", "seat2": "6", "seat3": "7", "seat4": "8"}
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def client(tmp_path):
    return create_app({"STORE_ENV": {"MAHJONG_DATA_DIR": str(tmp_path / "data")}}).test_client()


def _started(client) -> tuple[str, str]:
    link = _club(client, NAMES)
    return link, _night(client, link, present=["1", "2", "3", "4"])


def _bring(client, night: str, sheet: str, seats=MAPPED, confirm: bool = True):
    return client.post(f"{night}/sheets", data={"sheet": sheet, **(seats or {}), **({"confirm": "1"} if confirm else {})})


def _error(answer, field: str) -> str:
    found = re.search(rf'id="err-{field}" role="alert"><li>([^<]*)</li>', answer.get_data(as_text=True))
    return found[1].replace("&#39;", "'") if found else ""


def _season(client, link: str) -> dict:
    return client.get(f"{link}/standings.json").get_json()


def _by_name(season: dict) -> dict[str, float]:
    return {line["name"]: line["total"] for line in season["standings"] if line["nights"]}


def _sheet_totals(client, sheet: str) -> dict[str, float]:
    found = client.get(f"{sheet}.json").get_json()
    return {p["name"]: t for p, t in zip(found["players"], found["totals"], strict=True)}


def _brought_table(client, night: str, number: int = 1) -> str:
    page = client.get(night).get_data(as_text=True)
    return re.search(rf'href="(/s/[^"]+)" id="sheet-0-{number}"', page)[1]


def test_an_address_only_sheet_is_brought_in_after_naming_its_players_and_counts_once(client):
    link, night = _started(client)
    asked = _bring(client, night, "http://localhost" + ADDRESS, seats=None, confirm=False)
    page = asked.get_data(as_text=True)
    assert asked.status_code == 200 and asked.headers["Cache-Control"] == "no-store"
    # each of the sheet's players named, the member of that name chosen already
    assert re.findall(r'<label for="bring-seat\d">Player \d: (\w+)', page) == ["Eve", "Fay", "Gus", "Hal"]
    assert re.findall(r'<option value="(\d+)" selected>', page) == ["5", "6", "7", "8"]
    before = _season(client, link)["hands"]
    done = _bring(client, night, "http://localhost" + ADDRESS)
    assert done.status_code == 303 and done.headers["Location"].endswith(f"{night}#table-0-1")
    season = _season(client, link)
    assert season["hands"] == before + 2 and season["zero_sum"]
    table = _brought_table(client, night)
    assert {k: v for k, v in _by_name(season).items() if k in NAMES[4:]} == _sheet_totals(client, table)
    # the same sheet again, a second tap or a second paste: the same table, nothing doubled
    again = _bring(client, night, ADDRESS)
    assert again.status_code == 303 and again.headers["Location"].endswith("#table-0-1")
    assert _season(client, link) == season
    assert client.get(night).get_data(as_text=True).count('id="sheet-0-') == 1
    # stored now: the members record on it, and it links back to the night by the view link
    links = _links(client, link)
    member_table = _brought_table(client, night.replace(link, links["member"]))
    assert client.post(f"{member_table}/change", data={"action": "add", "line": "hand=123m456m789m234p55s by=self-draw seat=N"
                                                       }).status_code == 303
    assert _season(client, link)["hands"] == before + 3
    back = re.search(r'<a href="([^"]+)" id="club-night-link">', client.get(member_table).get_data(as_text=True))[1]
    assert back == f"{links['view']}/nights/1"


def test_a_shared_sheet_brought_by_its_edit_link_follows_its_later_hands(client):
    link, night = _started(client)
    shared = client.post("/sheet/share", data={"rules": "hong-kong", "names": "Eve,Fay,Gus,Hal", "hands": HANDS})
    edit = shared.headers["Location"]
    assert _bring(client, night, "http://localhost" + edit).status_code == 303
    hands = _season(client, link)["hands"]
    assert client.post(f"{edit}/change", data={"action": "add", "line": "hand=111m222m333m444p55p seat=N discarder=E"}
                       ).status_code == 303
    season = _season(client, link)
    assert season["hands"] == hands + 1 and season["zero_sum"]
    assert {k: v for k, v in _by_name(season).items() if k in NAMES[4:]} == _sheet_totals(client, edit)
    # the same sheet by its view link is the same sheet: not a second table
    view = re.search(r'value="http://localhost(/s/[^"]+)" id="view-share-address"',
                     client.get(edit).get_data(as_text=True))[1]
    assert _bring(client, night, view).status_code == 303
    assert client.get(night).get_data(as_text=True).count('id="sheet-0-') == 1
    assert _season(client, link)["hands"] == hands + 1


def test_a_shared_sheet_brought_by_its_view_link_is_watched_and_links_back_to_no_club(client):
    link, night = _started(client)
    edit = client.post("/sheet/share", data={"rules": "hong-kong", "names": "A,B,C,D", "hands": HANDS}).headers["Location"]
    view = re.search(r'value="http://localhost(/s/[^"]+)" id="view-share-address"',
                     client.get(edit).get_data(as_text=True))[1]
    asked = _bring(client, night, view, seats=None, confirm=False)
    assert "the members can watch it" in asked.get_data(as_text=True)
    assert re.findall(r'<option value="(\d+)" selected>', asked.get_data(as_text=True)) == []   # no name matches
    assert _bring(client, night, view, seats={"seat1": "2", "seat2": "6", "seat3": "4", "seat4": "8"}).status_code == 303
    member_night = night.replace(link, _links(client, link)["member"])
    assert _brought_table(client, member_night) == view          # the members have only its view link
    assert 'id="club-night-link"' not in client.get(edit).get_data(as_text=True)
    season = _season(client, link)
    assert season["zero_sum"] and {line["name"] for line in season["standings"] if line["nights"]} >= {"Bob", "Fay"}


@pytest.mark.parametrize(("sheet", "said"), [
    ("", "paste the sheet's link"),
    ("https://example.org/hello", "is not a sheet's link"),
    ("/card?hand=123m456m789m234p55s", "is not a sheet's link"),
    ("/s/AAAAAAAAAAAAAAAAAAAAAAAA", "no shared sheet has this address"),
    ("https://elsewhere.example/s/AAAAAAAAAAAAAAAAAAAAAAAA", "kept by another site (elsewhere.example)"),
    ("/sheet?" + urlencode({"rules": "sichuan", "names": "Eve,Fay,Gus,Hal"}), "played under Sichuan"),
    ("/sheet?" + urlencode({"rules": "hong-kong", "cap": "8", "names": "Eve,Fay,Gus,Hal"}), "sets cap=8"),
    ("/sheet?" + urlencode({"rules": "hong-kong", "hands": "hand=1m"}), "hand 1 on this sheet cannot be counted: 1 tile"),
])
def test_a_link_that_is_not_a_sheet_of_the_seasons_rules_is_refused_beside_the_field(client, sheet, said):
    link, night = _started(client)
    refused = _bring(client, night, sheet, seats=None, confirm=False)
    assert refused.status_code == 400
    assert said in _error(refused, "sheet")
    assert f'value="{sheet[:40]}'.replace("&", "&amp;") in refused.get_data(as_text=True) or not sheet   # kept
    assert _season(client, link)["hands"] == 0


def test_seats_not_mapped_and_a_member_twice_are_said_beside_their_places(client):
    link, night = _started(client)
    refused = _bring(client, night, ADDRESS, seats={"seat1": "5", "seat2": "5", "seat3": "", "seat4": "99"})
    assert refused.status_code == 400
    assert _error(refused, "seat1") == ""
    assert _error(refused, "seat2") == "Eve is already at Eve's place: a member sits at one place"
    assert _error(refused, "seat3") == "say which member sat at Gus's place"
    assert _error(refused, "seat4") == "say which member sat at Hal's place"
    page = refused.get_data(as_text=True)
    assert re.findall(r'<option value="(\d+)" selected>', page) == ["5", "5"]         # the form as sent
    assert f'name="sheet" value="{ADDRESS}"'.replace("&", "&amp;") in page
    assert 'id="sheet-0-' not in client.get(night).get_data(as_text=True)


def test_a_sheet_already_a_table_is_refused_in_another_night(client):
    link, night = _started(client)
    own = _sheets(client, night)[0]
    refused = _bring(client, night, own)            # the night's own table: already counted
    assert refused.status_code == 303 or "already a table" in _error(refused, "sheet")
    assert _bring(client, night, ADDRESS).status_code == 303
    second = _night(client, link, present=["5", "6", "7", "8"])
    for sheet in (ADDRESS, own):
        again = _bring(client, second, sheet)
        assert again.status_code == 400 and "already a table of night" in _error(again, "sheet")


def test_only_the_organisers_link_brings_a_sheet_in(client):
    link, night = _started(client)
    links = _links(client, link)
    for role in ("member", "view"):
        assert _bring(client, night.replace(link, links[role]), ADDRESS).status_code == 403
        assert 'id="bring-form"' not in client.get(night.replace(link, links[role])).get_data(as_text=True)
    assert 'id="bring-form"' in client.get(night).get_data(as_text=True)


def test_bringing_sheets_on_either_database(database_env):
    client = create_app({"STORE_ENV": database_env}).test_client()
    link, night = _started(client)
    edit = client.post("/sheet/share", data={"rules": "hong-kong", "names": "Eve,Fay,Gus,Hal", "hands": HANDS}
                       ).headers["Location"]
    assert _bring(client, night, edit).status_code == 303
    assert _bring(client, night, ADDRESS, seats={"seat1": "1", "seat2": "2", "seat3": "3", "seat4": "4"}
                  ).status_code == 303
    for _ in range(2):                               # again: nothing doubled
        assert _bring(client, night, ADDRESS, seats={"seat1": "1", "seat2": "2", "seat3": "3", "seat4": "4"}
                      ).status_code == 303
        assert _bring(client, night, edit).status_code == 303
    season = _season(client, link)
    assert season["hands"] == 4 and season["zero_sum"]
    assert client.get(night).get_data(as_text=True).count('id="sheet-0-') == 2
    second = _night(client, link, present=["1", "2", "3", "4"])
    assert _bring(client, second, edit).status_code == 400
