"""Seating a night for a number present that is not a multiple of four: the tables are shown
and said in words (who sits out, and why no table plays three-handed) before the organiser
starts the night, and the night started is the one shown; each table's sheet seats four and
prices its hands."""
from __future__ import annotations

import re

import pytest

from app.web import create_app

COUNTS = (5, 6, 7, 9, 10, 11, 13)
METHODS = ("random", "snake", "meet")


@pytest.fixture
def client(tmp_path):
    """An app on a database of its own (one address makes at most 10 clubs an hour)."""
    return create_app({"STORE_ENV": {"MAHJONG_DATA_DIR": str(tmp_path / "data")}}).test_client()


def _club(client, count: int, rules: str) -> str:
    link = client.post("/club/new", data={"name": f"{count} here", "rules": rules, "season": "S"}).headers["Location"]
    for i in range(count):
        assert client.post(f"{link}/members", data={"name": f"P{i + 1:02d}"}).status_code == 303
    return link


def _tables(page: str, card: str) -> list[list[str]]:
    """The tables shown, each its players' names."""
    return [re.findall(r"P\d\d", body) for body in re.findall(card, page, re.S)]


@pytest.mark.parametrize("count", COUNTS)
def test_the_tables_and_byes_are_said_before_the_night_starts_and_the_night_is_the_one_shown(client, count):
    rules = "sichuan" if count % 2 else "hong-kong"
    link = _club(client, count, rules)
    tables, out = divmod(count, 4)
    for method in METHODS:
        shown = client.post(f"{link}/nights", data={"present": [str(m) for m in range(1, count + 1)],
                                                     "method": method, "seed": "", "preview": "1"})
        page = shown.get_data(as_text=True)
        assert shown.status_code == 200 and 'id="confirm-night"' in page
        said = re.search(r'<p id="plan-said">(.*?)</p>', page, re.S)[1]
        assert f"{count} here: {tables} table{'s' if tables > 1 else ''} of four." in said
        seated = _tables(page.split('id="plan"')[1].split("</section>")[0], r'<li class="club-table">(.*?)</li>')
        assert len(seated) == tables and all(len(t) == 4 for t in seated)
        out_names = sorted({f"P{i + 1:02d}" for i in range(count)} - {n for t in seated for n in t})
        assert len(out_names) == out
        assert f"{out} sit{'s' if out == 1 else ''} the round out: {', '.join(out_names)}." in said
        assert "no table plays three-handed" in said and ("Sichuan" in said) == (rules == "sichuan")
        nights_before = client.get(link).get_data(as_text=True).count("/nights/")
        confirm = re.search(r'<form method="post" action="([^"]+)" id="confirm-form">(.*?)</form>', page, re.S)
        fields = re.findall(r'name="(present|method|seed)" value="([^"]*)"', confirm[2])
        data: dict[str, list[str]] = {}
        for name, value in fields:
            data.setdefault(name, []).append(value)
        assert client.get(link).get_data(as_text=True).count("/nights/") == nights_before   # nothing kept yet
        started = client.post(confirm[1], data=data)
        assert started.status_code == 303
        night = client.get(started.headers["Location"]).get_data(as_text=True)
        assert _tables(night, r'<ol class="seats">(.*?)</ol>') == seated
        assert all(name in re.search(r'class="seating-said">(.*?)</p>', night, re.S)[1] for name in out_names)
        assert f"{count} here: " in re.search(r'<p id="round-said">(.*?)</p>', night, re.S)[1]
    sheet = re.findall(r'href="(/s/[^"]+)" id="sheet-', night)[0]
    line = ("ledger / missing E=p S=p W=s N=m / win E discard from N hand=123m456m789m123s55s" if rules == "sichuan"
            else "hand=123m456m789m234p55s by=self-draw seat=E")
    assert client.post(f"{sheet}/change", data={"action": "add", "line": line}).status_code == 303
    priced = client.get(f"{sheet}.json").get_json()
    assert len(priced["players"]) == 4 and sum(priced["totals"]) == 0 and priced["totals"][0] > 0


def test_a_refused_preview_comes_back_beside_its_field_with_the_ticks_kept(client):
    link = _club(client, 6, "hong-kong")
    refused = client.post(f"{link}/nights", data={"present": ["1", "2", "5"], "method": "random", "preview": "1"})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 400 and 'id="err-present"' in page and 'id="confirm-night"' not in page
    assert re.findall(r'value="(\d+)" id="present-\d+" checked', page) == ["1", "2", "5"]
    unknown = client.post(f"{link}/nights", data={"present": ["1", "2", "3", "99"], "method": "meet", "preview": "1"})
    assert unknown.status_code == 400 and "no member 99" in unknown.get_data(as_text=True)
    bad = client.post(f"{link}/nights", data={"present": ["1", "2", "3", "4"], "method": "swiss", "preview": "1"})
    assert bad.status_code == 400 and 'id="err-method"' in bad.get_data(as_text=True)
    member = re.search(r'href="(/c/[^"]+)" id="member-link"', client.get(link).get_data(as_text=True))[1]
    assert client.post(f"{member}/nights", data={"present": ["1", "2", "3", "4"], "method": "random",
                                                 "preview": "1"}).status_code == 403


def test_a_night_past_the_hours_tables_is_refused_beside_the_ticks_and_no_night_is_kept(client, monkeypatch):
    from app.store import clubs as club_module
    monkeypatch.setattr(club_module, "TABLES_PER_HOUR", 2)
    link = _club(client, 12, "hong-kong")
    ticked = [str(m) for m in range(1, 13)]
    for preview in ("1", ""):
        refused = client.post(f"{link}/nights", data={"present": ticked, "method": "random", "preview": preview})
        page = refused.get_data(as_text=True)
        assert refused.status_code == 429
        assert re.search(r'id="err-present"[^>]*><li>a club makes at most 2 tables an hour', page)
        assert re.findall(r'value="(\d+)" id="present-\d+" checked', page) == ticked
    assert "No nights yet." in client.get(link).get_data(as_text=True)


def test_every_club_page_says_when_the_club_expires_if_nobody_opens_it(client):
    import datetime
    link = _club(client, 4, "sichuan")
    night = client.post(f"{link}/nights", data={"present": ["1", "2", "3", "4"], "method": "random"})
    for path in ("", "/standings", "/members/1", night.headers["Location"].removeprefix(link)):
        page = client.get(link + path).get_data(as_text=True)
        said = re.search(r'id="kept-until">Kept until (\d{4}-\d\d-\d\d): (.*?)</p>', page)
        until = datetime.date.fromisoformat(said[1])
        assert 59 <= (until - datetime.datetime.now(datetime.UTC).date()).days <= 60 and "60 days" in said[2]
    assert "保留到" in client.get(f"{link}?lang=zh-Hans").get_data(as_text=True)


def test_tables_that_changed_since_they_were_shown_are_not_started_and_said_beside_the_ticks(client):
    link = _club(client, 5, "hong-kong")
    everyone = [str(m) for m in range(1, 6)]
    page = client.post(f"{link}/nights", data={"present": everyone, "method": "random", "seed": "9",
                                               "preview": "1"}).get_data(as_text=True)
    shown = re.search(r'name="shown" value="([^"]*)"', page)[1]
    out = shown.split("|")[1]
    # meanwhile a night is started with the same seed: the one shown sitting out sits out there
    assert client.post(f"{link}/nights", data={"present": everyone, "method": "random", "seed": "9"}).status_code == 303
    refused = client.post(f"{link}/nights", data={"present": everyone, "method": "random", "seed": "9", "shown": shown})
    body = refused.get_data(as_text=True)
    assert refused.status_code == 400 and re.search(r'id="err-present"[^>]*><li>the tables changed since', body)
    assert re.findall(r'/nights/(\d+)"', client.get(link).get_data(as_text=True)) == ["1"]   # no second night
    again = client.post(f"{link}/nights", data={"present": everyone, "method": "random", "seed": "9",
                                                "preview": "1"}).get_data(as_text=True)
    assert re.search(r'name="shown" value="[^"]*\|([^"]*)"', again)[1] != out      # the bye now goes to another
    fresh = re.search(r'name="shown" value="([^"]*)"', again)[1]
    started = client.post(f"{link}/nights", data={"present": everyone, "method": "random", "seed": "9", "shown": fresh})
    assert started.status_code == 303
