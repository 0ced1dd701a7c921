"""The hand card (/card): a scored hand as a compact figure for a lesson page, no form."""
from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.html_tables import Page

HAND = "123m456m789m234p55s"     # seed 001's all-chows hand
QUERY = {"rules": "hong-kong", "hand": HAND, "by": "self-draw", "seat": "S"}


def _table(page: Page, caption: str) -> list[list[str]] | None:
    for t in page.tables:
        if " ".join(t["caption"].split()) == caption:
            return [cells for _, cells in t["rows"]]
    return None


def _payments(rows) -> dict[str, str]:
    """The card's compact table: a column a seat (its role under it), the amounts below."""
    return {head.split()[0]: amount for head, amount in zip(rows[0], rows[1], strict=True)}


def test_a_card_shows_the_grouped_tiles_breakdown_total_and_payments_of_the_api_answer(client):
    want = client.get("/api/score", query_string=QUERY).get_json()
    response = client.get("/card", query_string=QUERY)
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    page = Page(text)
    breakdown = _table(page, "Fan breakdown")
    assert [r[0] for r in breakdown[1:-1]] == [p["name"] for p in want["patterns"]]
    assert breakdown[-1][2] == str(want["total_fan"])
    shown = _payments(_table(page, "Who pays whom"))
    assert shown == {p["seat"]: ("+" if p["amount"] > 0 else "") + str(p["amount"])
                     for p in want["payments"]}
    reasons = re.findall(r"<li>([^<]*)</li>", text.split('class="payment-reasons"')[1].split("</ul>")[0])
    assert sorted(reasons) == sorted({p["reason"] for p in want["payments"]})   # each said once
    assert len(re.findall(r"class=\"group[ \"]", text)) == len(want["grouping"])
    assert "winning tile" in text
    assert f"meets the minimum of {want['minimum']}" in text


def test_a_card_has_no_form_and_opens_the_calculator_in_a_new_tab(client):
    want = client.get("/api/score", query_string=QUERY).get_json()["permalink"]
    text = client.get("/card", query_string=QUERY).get_data(as_text=True)
    assert "<form" not in text and "<input" not in text
    assert '<header class="site"' not in text
    link = re.search(r'<a href="([^"]+)" target="_blank" rel="noopener">Open in the calculator',
                     text)
    assert link is not None
    assert link[1].replace("&amp;", "&") == want          # the result's own permalink
    assert parse_qs(urlsplit(want).query)["seat"] == ["S"]


@pytest.mark.parametrize("show, tables, tiles", [
    ("tiles", [], True),
    ("breakdown", ["Fan breakdown"], False),
    ("payments", ["Who pays whom"], False),
    ("tiles,payments", ["Who pays whom"], True),
])
def test_show_chooses_the_parts_of_the_card(client, show, tables, tiles):
    text = client.get("/card", query_string={**QUERY, "show": show}).get_data(as_text=True)
    page = Page(text)
    assert [" ".join(t["caption"].split()) for t in page.tables] == tables
    assert ('class="grouping"' in text) is tiles
    assert "meets the minimum" in text        # the total is always on the card


def test_show_may_be_repeated(client):
    text = client.get("/card?rules=hong-kong&hand=" + HAND + "&show=tiles&show=breakdown"
                      ).get_data(as_text=True)
    assert [t["caption"] for t in Page(text).tables] == ["Fan breakdown"]


def test_the_dark_theme_is_a_class_on_the_body(client):
    dark = client.get("/card", query_string={**QUERY, "theme": "dark"}).get_data(as_text=True)
    light = client.get("/card", query_string=QUERY).get_data(as_text=True)
    assert re.search(r'<body class="[^"]*theme-dark', dark)
    assert re.search(r'<body class="[^"]*theme-light', light)


def test_a_card_says_when_the_fan_is_capped_and_below_the_minimum(client):
    capped = client.get("/card", query_string={"rules": "hong-kong", "hand": HAND,
                                               "min": "0", "cap": "2"}).get_data(as_text=True)
    assert '<p class="minimum">Paid as 2 fan, the cap.</p>' in capped   # no minimum: not said
    assert "minimum of 0" not in capped
    below = client.get("/card", query_string={"rules": "hong-kong", "hand": HAND,
                                              "min": "8"}).get_data(as_text=True)
    assert "Not a legal win:" in below and "below the minimum of 8" in below


@pytest.mark.parametrize("query, field, words", [
    ({"rules": "hong-kong", "hand": "123m456m789m234p5s9z"}, "hand", ""),
    ({"rules": "hong-kong"}, "hand", "a card needs a hand"),
    ({"rules": "nowhere", "hand": HAND}, "rules", ""),
    ({**QUERY, "show": "everything"}, "show", "'everything' is not a part of a card"),
    ({**QUERY, "theme": "pink"}, "theme", "'pink' is not a theme"),
])
def test_a_bad_card_is_a_compact_400_card_naming_the_problem(client, query, field, words):
    response = client.get("/card", query_string=query)
    assert response.status_code == 400
    text = html.unescape(response.get_data(as_text=True))
    assert "This hand cannot be shown" in text
    assert "<form" not in text
    assert f"<strong>{field}</strong>:" in text and words in text
    assert "Open in the calculator" in text


def test_every_result_links_its_card_as_embed_this_hand(client):
    text = client.get("/", query_string=QUERY).get_data(as_text=True)
    link = re.search(r'<a href="([^"]+)" class="card-link">Embed this hand</a>', text)
    assert link is not None
    card = client.get(link[1].replace("&amp;", "&"))
    assert card.status_code == 200
    assert "Open in the calculator" in card.get_data(as_text=True)


def test_a_tick_box_result_links_its_card_too(client):
    text = client.get("/ticks", query_string={"rules": "hong-kong", "ticks": "all-pongs"}
                      ).get_data(as_text=True)
    link = re.search(r'<a href="([^"]+)" class="card-link">Embed this hand</a>', text)
    assert link is not None
    want = client.get("/api/score", query_string={"rules": "hong-kong", "ticks": "all-pongs"}
                      ).get_json()
    card = client.get(html.unescape(link[1]))
    assert card.status_code == 200
    breakdown = _table(Page(card.get_data(as_text=True)), "Fan breakdown")
    assert breakdown[-1][2] == str(want["total_fan"])


def test_the_rules_pages_worked_examples_show_their_tiles_and_link_their_cards(client):
    from app.hands.tiles import parse_tiles
    from app.rules.loader import registry
    text = client.get("/rules/sichuan").get_data(as_text=True)
    rows = re.findall(r'<span class="tile-row" role="group" aria-label="Its tiles">(.*?)</span>'
                      r' <a href="([^"]+)" class="card-link">as a card</a>', text)
    with_tiles = [ex for ex in registry()["sichuan"].examples if ex.params.get("hand")]
    assert len(rows) == len(with_tiles)
    for (tiles, card), ex in zip(rows, with_tiles, strict=True):
        want = [t.name_zh_hans for t in parse_tiles(ex.params["hand"])]   # the family's script
        assert re.findall(r'alt="[^"]* ([^" ]+)"', tiles) == want
        response = client.get(html.unescape(card))
        assert response.status_code == 200, ex.id


def test_a_card_shows_readers_no_author_texts_unless_asked(client):
    """A lesson's reader sees the hand; the author's "Put this hand on your page" is on the
    result page, and on the card with ways=1."""
    plain = client.get("/card", query_string=QUERY).get_data(as_text=True)
    assert "ways-in" not in plain and "Put this hand on your page" not in plain
    asked = client.get("/card", query_string={**dict(QUERY), "ways": "1"}).get_data(as_text=True)
    assert 'id="ways-in"' in asked
