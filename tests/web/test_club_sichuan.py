"""A Sichuan club on the web: a blood-battle round recorded on a table's sheet brings each of
its wins to the standings (page, JSON, a member's card), the biggest hand links to that win's
own breakdown, and a correction of the round moves the wins."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from app.web import create_app

# the golden SC-full-round (tests/golden/rounds/blood-battle.yaml): E self-draws 6 fan,
# N wins 1 fan on W's discard, the wall runs out
FULL_ROUND = ("ledger / missing E=p S=m W=s N=p / kong W exposed 2m from N / win E self-draw hand=123s456s789s234s55s"
              " / kong S concealed 9p / win N discard from W hand=345m678m456s678s99s"
              " / wall S hand=123p456p23p55p melds=ckong:9999p; W hand=1357m1357p46m melds=kong:2222m")
# the golden SC-third-winner: E and S win on N's discard, then W self-draws
THREE_WINNERS = ("ledger / missing E=p S=p W=s N=m / win E discard from N hand=123m456m789m123s55s"
                 " / win S discard from N hand=234m567m345s678s99m / win W self-draw hand=123m456m789m234p55p")


@pytest.fixture
def client(tmp_path):
    return create_app({"STORE_ENV": {"MAHJONG_DATA_DIR": str(tmp_path / "data")}}).test_client()


def _table(client) -> tuple[str, str, list[str]]:
    made = client.post("/club/new", data={"name": "川麻", "rules": "sichuan", "season": "春"})
    link = made.headers["Location"]
    for name in ("甲", "乙", "丙", "丁"):
        assert client.post(f"{link}/members", data={"name": name}).status_code == 303
    night = client.post(f"{link}/nights", data={"present": ["1", "2", "3", "4"], "method": "random", "seed": "1"})
    page = client.get(night.headers["Location"]).get_data(as_text=True)
    sheet = re.findall(r'href="(/s/[^"]+)" id="sheet-', page)[0]
    players = [p["name"] for p in client.get(f"{sheet}.json").get_json()["players"]]
    return link, sheet, players


def test_a_rounds_wins_reach_the_standings_and_the_biggest_links_to_the_win(client):
    link, sheet, players = _table(client)
    assert client.post(f"{sheet}/change", data={"action": "add", "line": FULL_ROUND}).status_code == 303
    season = client.get(f"{link}/standings.json").get_json()
    lines = {line["name"]: line for line in season["standings"]}
    east, _south, west, north = (lines[name] for name in players)
    assert (east["won"], east["self_draws"], east["discard_wins"], east["biggest"]["fan"]) == (1, 1, 0, 6)
    assert (north["won"], north["discard_wins"], north["average_fan"]) == (1, 1, 1.0)
    assert (west["won"], west["deal_ins"]) == (0, 1)
    assert season["zero_sum"] and season["hands"] == 1
    assert [lines[name]["total"] for name in players] == [18, 0, -13, -5]
    linked = parse_qs(urlsplit(east["biggest"]["link"]).query)
    assert urlsplit(east["biggest"]["link"]).path == "/" and linked["rules"] == ["sichuan"]
    assert sorted(linked["hand"][0]) == sorted("123456789234" + "55" + "s")   # E's own winning hand
    assert east["biggest"]["event"] == 1 and east["biggest"]["hand"] == 1
    page = client.get(f"{link}/standings").get_data(as_text=True)
    assert re.search(r'<tr id="line-\d+">(?:(?!</tr>).)*6 fan', page, re.S)


def test_correcting_the_round_moves_its_wins(client):
    link, sheet, players = _table(client)
    client.post(f"{sheet}/change", data={"action": "add", "line": FULL_ROUND})
    table = client.get(f"{sheet}.json").get_json()
    corrected = client.post(f"{sheet}/change", data={"action": "correct", "hand": table["hands"][0]["id"],
                                                     "base": table["version"], "line": THREE_WINNERS})
    assert corrected.status_code == 303
    lines = {line["name"]: line for line in client.get(f"{link}/standings.json").get_json()["standings"]}
    assert [lines[name]["won"] for name in players] == [1, 1, 1, 0]
    assert [lines[name]["deal_ins"] for name in players] == [0, 0, 0, 2]
    assert [lines[name]["total"] for name in players] == [1, 1, 2, -4]
