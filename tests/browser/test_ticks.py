"""Tick-box mode in a real browser, on a phone-sized screen: the same answer as the tiles.

Seed 000 quotes 清七对 as one number, 16, with 自摸 +1 on top: ticked by its parts it is 17.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_calculator import payments_shown, table

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 800}


def no_sideways_scrolling(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_tick_a_sichuan_pure_seven_pairs_by_its_parts_at_360_px_and_see_17(page: Page, api):
    page.set_viewport_size(PHONE)
    page.goto("/ticks?rules=sichuan")
    for pid in ("seven-pairs", "all-one-suit", "self-draw"):
        page.locator(f"#ticks-form input[name=ticks][value={pid}]").check()
    page.locator("#ticks-form input[name=by][value=self-draw]").check()   # 自摸: as it was won
    page.get_by_role("button", name="Count").click()

    expect(page.get_by_role("heading", level=2)).to_contain_text("Total: 17 fan")   # seed 000
    expect(table(page, "Fan breakdown").locator("tfoot td.num")).to_have_text("17")
    tiles = api("/api/score", rules="sichuan", hand="11223344556677m", by="self-draw",
                missing="p")
    assert tiles["total_fan"] == 17
    assert payments_shown(table(page, "Who pays whom")) == {
        p["seat"]: p["amount"] for p in tiles["payments"]}
    assert no_sideways_scrolling(page)


def test_a_results_tick_link_shows_the_same_payments(page: Page):
    page.set_viewport_size(PHONE)
    # a family big-four-winds hand won on a discard: the link must not re-price it self-drawn
    page.goto("/?rules=family&hand=111z222z333z444z55m&seat=E")
    from_tiles = payments_shown(table(page, "Who pays whom"))
    page.get_by_role("link", name="Edit these as ticks").click()
    expect(page.locator("#ticks-form")).to_be_visible()
    assert payments_shown(table(page, "Who pays whom")) == from_tiles
    assert no_sideways_scrolling(page)
