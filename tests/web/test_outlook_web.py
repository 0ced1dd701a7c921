"""The outlook on /discard and /api/discard: only when asked for (outlook=1), in three languages."""
from __future__ import annotations

import re

import pytest
from openapi_spec_validator import validate

from tests.html_tables import Page

READY = "rules=hong-kong&hand=123m456p789s11z22z7z"
SLOW = "rules=hong-kong&hand=123m456p78s1122z57z"


def test_the_api_answers_as_before_unless_the_outlook_is_asked_for(client):
    plain = client.get(f"/api/discard?{READY}").get_json()
    assert "outlook" not in plain
    asked = client.get(f"/api/discard?{READY}&outlook=1").get_json()
    figures = ("p_ready", "p_win", "expected")   # INTERFACE's names on each weighed discard
    bare = [{k: v for k, v in d.items() if k not in figures} for d in asked["discards"]]
    assert {**{k: v for k, v in asked.items() if k != "outlook"}, "discards": bare} == plain
    assert asked["outlook"]["draws"] == 18 and asked["outlook"]["exact"]
    weighed = {d["tile"]: d for d in asked["outlook"]["discards"] if d["weighed"]}
    assert weighed and all(
        (d["p_ready"], d["p_win"], d["expected"]) == (weighed[d["tile"]]["ready"], weighed[d["tile"]]["win"],
                                                      weighed[d["tile"]]["value"])
        for d in asked["discards"] if d["tile"] in weighed)
    assert all(("p_win" in d) == (d["tile"] in weighed) for d in asked["discards"])


def test_the_api_outlook_ranks_by_expected_value_and_gives_the_curve(client):
    found = client.get(f"/api/discard?{SLOW}&outlook=1&draws=6").get_json()["outlook"]
    weighed = [d for d in found["discards"] if d["weighed"]]
    values = [d["value"] for d in weighed]
    assert values == sorted(values, reverse=True) and found["draws"] == 6
    first = weighed[0]
    assert len(first["by_draws_left"]["win"]) == 7 and first["by_draws_left"]["win"][0] == 0
    assert first["by_draws_left"]["win"][-1] == first["win"]


@pytest.mark.parametrize("draws", ["0", "99", "x"])
def test_a_bad_number_of_draws_is_a_400_naming_the_field(client, draws):
    response = client.get(f"/api/discard?{READY}&outlook=1&draws={draws}")
    assert response.status_code == 400
    assert [e["field"] for e in response.get_json()["errors"]] == ["draws"]


def test_a_bad_number_of_draws_on_the_page_is_said_beside_the_field_with_the_form_filled(client):
    response = client.get(f"/discard?{READY}&outlook=1&draws=99")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert 'id="draws-error"' in html or "not a number of draws" in html
    assert 'value="123m456p789s11z22z7z"' in html and 'name="draws"' in html


def test_the_page_is_unchanged_without_the_outlook(client):
    html = client.get(f"/discard?{READY}").get_data(as_text=True)
    assert "<caption>Outlook</caption>" not in html and "win-curve" not in html
    assert 'name="draws"' not in html


def test_the_page_shows_each_discard_with_its_chances_and_a_curve(client):
    html = client.get(f"/discard?{READY}&outlook=1").get_data(as_text=True)
    rows = [cells for _, cells in Page(html).table("Outlook") if cells[0] != "Discard"]
    assert rows[0][0].endswith("7z") and rows[0][1:4] == ["100%", "45.1%", "54.15"]
    assert html.count('<svg class="win-curve"') == len([r for r in rows if r[2] != "—"])
    curve = re.search(r'<polyline points="([^"]+)"', html)[1].split()
    assert len(curve) == 19   # t = 0 to 18 draws left


@pytest.mark.parametrize("lang, heading, word", [
    ("zh-Hant", "食糊機會與價值", "聽牌機會"), ("zh-Hans", "食糊机会与价值", "听牌机会")])
def test_the_outlook_is_said_in_chinese(client, lang, heading, word):
    html = client.get(f"/discard?{READY}&outlook=1&lang={lang}").get_data(as_text=True)
    assert heading in html and word in html


def test_a_hand_far_from_ready_says_it_is_past_the_bound(client):
    found = client.get("/api/discard?rules=hong-kong&hand=1379m1379p1379s13z&outlook=1"
                       ).get_json()["outlook"]
    assert not found["exact"] and "past the bound" in found["bounded"]
    assert not any(d["weighed"] for d in found["discards"])


def test_the_outlook_parameters_are_described(client):
    document = client.get("/api/openapi.json").get_json()
    validate(document)
    names = {p["name"] for p in document["paths"]["/api/discard"]["get"]["parameters"]}
    assert {"outlook", "draws"} <= names
    assert "Outlook" in document["components"]["schemas"]
