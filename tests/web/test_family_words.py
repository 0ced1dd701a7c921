"""Each family in its own words: Sichuan pages write Mandarin terms in simplified characters,
Hong Kong pages Cantonese terms in traditional ones (headings, labels, seats, suits)."""
from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import pytest

from app.web import create_app

HAND = {"hand": "123m456m789p234p55m", "win": "5m", "by": "discard"}
DISCARD_HAND = "123m456m789m234p55p1m"

# Characters written only in traditional script, and Hong Kong words (索 for bamboo, 糊 for a
# win), that a Sichuan page must not show. 自摸, 杠, 番, 花, 筒 are the same in both.
NOT_ON_SICHUAN_PAGES = "計萬索銃糊數張東練錢換對槓搶開門風發紅龍無雙麼條聽連與規當點莊鐘記"


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def pages(rid: str) -> list[str]:
    """Every page a family has, with a hand on the pages that take one."""
    hand = urlencode({"rules": rid, **HAND})
    return [f"/?{hand}", f"/embed?{hand}", f"/ticks?{hand}", f"/card?{hand}",
            f"/discard?rules={rid}&hand={DISCARD_HAND}",
            f"/embed/discard?rules={rid}&hand={DISCARD_HAND}",
            f"/practice/discard?rules={rid}&seed=a&n=1", f"/round?rules={rid}",
            f"/sheet?rules={rid}", f"/rules/{rid}", f"/points?rules={rid}&fan=3",
            f"/embed/points?rules={rid}&fan=3", f"/practice?rules={rid}&seed=a&n=1",
            f"/embed/practice?rules={rid}&seed=a&n=1"]


def chinese_text(page: str) -> str:
    """The page's text, less the family picker (it names every family in that family's own
    words) and the rulings, which are copied as ruled and quote other families' terms."""
    page = re.sub(r'<select[^>]*name="rules".*?</select>', "", page, flags=re.S)
    page = re.sub(r'<dl class="rulings">.*?</dl>', "", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("rid", ["sichuan", "sichuan-sbr"])
def test_no_sichuan_page_shows_a_traditional_or_hong_kong_only_term(client, rid):
    for url in pages(rid):
        response = client.get(url)
        assert response.status_code == 200, url
        found = sorted({ch for ch in chinese_text(response.get_data(as_text=True))
                        if ch in NOT_ON_SICHUAN_PAGES})
        assert found == [], url


@pytest.mark.parametrize("rid", ["sichuan", "sichuan-sbr"])
@pytest.mark.parametrize("url, term", [
    ("/?rules={rid}", "算番"), ("/ticks?rules={rid}", "算番器"), ("/discard?rules={rid}", "打哪张"),
    ("/points?rules={rid}&fan=3", "番数换钱"), ("/practice?rules={rid}&seed=a&n=1", "算番练习"),
    ("/sheet?rules={rid}", "记分表"),
])
def test_sichuan_headings_say_the_mandarin_term_in_simplified(client, rid, url, term):
    h1 = re.search(r"<h1>(.*?)</h1>", client.get(url.format(rid=rid)).get_data(as_text=True), re.S)
    assert term in h1[1]


@pytest.mark.parametrize("rid", ["hong-kong", "hong-kong-course", "family"])
@pytest.mark.parametrize("url, term", [
    ("/?rules={rid}", "計番"), ("/ticks?rules={rid}", "番數計算機"), ("/discard?rules={rid}", "打哪張"),
    ("/points?rules={rid}&fan=3", "番數換錢"), ("/practice?rules={rid}&seed=a&n=1", "計番練習"),
    ("/sheet?rules={rid}", "計分表"),
])
def test_hong_kong_headings_keep_the_cantonese_term_in_traditional(client, rid, url, term):
    page = client.get(url.format(rid=rid)).get_data(as_text=True)
    assert term in re.search(r"<h1>(.*?)</h1>", page, re.S)[1]
    assert "番數計算" in re.search(r'<a class="brand"[^>]*>(.*?)</a>', page, re.S)[1]


def test_the_flower_and_season_labels_are_the_familys_words(client):
    page = client.get(f"/?{urlencode({'rules': 'hong-kong', **HAND})}").get_data(as_text=True)
    assert "Flowers held 花" in page and "Seasons held 季" in page


def test_a_sichuan_drill_names_seats_and_the_way_of_winning_in_mandarin(client):
    text = chinese_text(client.get("/practice?rules=sichuan&seed=a&n=1").get_data(as_text=True))
    assert "East 东" in text and ("点炮" in text or "self-draw 自摸" in text)
