""""Put this hand on your page": every result and card offers the three ways in (issue 25),
each as text to select, and each one, used as a lesson site would, shows the same hand."""
from __future__ import annotations

import html
import re
from urllib.parse import quote, urlsplit

import markdown
import pytest

from tests.apps import shared_app

APP = shared_app()
HAND = "rules=hong-kong&hand=123m456m789m234p55s&by=self-draw&seat=S"
PAGES = {"result": f"/?{HAND}", "embed": f"/embed?{HAND}", "card": f"/card?{HAND}&ways=1",
         "ticks": "/ticks?rules=hong-kong&ticks=all-chows,self-draw&by=self-draw",
         "chinese result": f"/?{HAND}&lang=zh-Hant"}


def ways(path: str) -> dict[str, str]:
    page = APP.test_client().get(path).get_data(as_text=True)
    panel = re.search(r'<details class="ways-in" id="ways-in">.*?</details>', page, re.S)
    assert panel, f"{path} has no ways-in panel"
    texts = dict(re.findall(r'<textarea id="way-(\w+)"[^>]*>(.*?)</textarea>', panel[0], re.S))
    buttons = re.findall(r'<button type="button" class="secondary copy" data-copy="way-(\w+)"'
                         r'[^>]*hidden>', panel[0])
    assert sorted(texts) == sorted(buttons) == ["link", "markdown", "snippet"]
    return {key: html.unescape(text) for key, text in texts.items()}


def figure_text(page: str) -> str:
    found = re.search(r'<article class="card result".*?</article>', page, re.S)[0]
    found = re.sub(r'<img class="tile"[^>]*? alt="([^"]*)"[^>]*>', r"[\1]", found)
    found = re.sub(r'<svg class="tile"[^>]*? aria-label="([^"]*)".*?</svg>', r"[\1]", found)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found)).strip()


@pytest.mark.parametrize("name", PAGES)
def test_each_way_in_shows_the_same_hand(name: str) -> None:
    got = ways(PAGES[name])
    link = urlsplit(got["link"])
    assert link.scheme == "http" and link.netloc == "localhost" and link.path == "/card"
    card = APP.test_client().get(f"{link.path}?{link.query}")
    assert card.status_code == 200
    # oEmbed sites: the pasted link is one the oEmbed endpoint answers for
    oembed = APP.test_client().get(f"/oembed?format=json&url={quote(got['link'], safe='')}")
    assert oembed.status_code == 200 and oembed.json["type"] == "rich"
    # embed.js: the element carries the card's own query, the script the calculator's address
    assert got["snippet"] == (f'<div data-mahjong="{link.query}" data-view="card"></div>\n'
                              '<script src="http://localhost/static/embed.js" async></script>')
    # Markdown: the block builds into the card's figure
    built = markdown.markdown(got["markdown"], extensions=["mahjong"],
                              extension_configs={"mahjong": {"base_url": "http://localhost"}})
    assert figure_text(built) == figure_text(card.get_data(as_text=True))
    if "chinese" in name:
        assert "lang=zh-Hant" in got["link"] and "lang=zh-Hant" in got["markdown"]


def test_a_hand_that_cannot_be_scored_offers_nothing_to_copy() -> None:
    for path in ("/?rules=hong-kong&hand=123m", "/card?rules=hong-kong&hand=123m"):
        assert "ways-in" not in APP.test_client().get(path).get_data(as_text=True)
