"""The outlook of /discard in a real browser: its curves readable on a 360 px phone, no
sideways scrolling, no axe violation, in English and Chinese."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe_check import assert_axe_clean

pytestmark = pytest.mark.browser

PAGES = {
    "en": "/discard?rules=hong-kong&hand=123m456p78s1122z57z&outlook=1&draws=12",
    "zh-Hant": "/discard?rules=sichuan&hand=123m456m789p2356p1s&missing=s&outlook=1&lang=zh-Hant",
}


@pytest.mark.parametrize("name", PAGES)
def test_the_curves_are_readable_at_360_px_without_sideways_scrolling(page: Page, name):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(PAGES[name])
    page.wait_for_load_state("load")
    curves = page.locator("svg.win-curve")
    expect(curves.first).to_be_visible()
    box = curves.first.bounding_box()
    assert 150 <= box["width"] <= 340, box   # a thumbnail would be unreadable, wider overflows
    widths = page.evaluate("""() => ({
        doc: document.documentElement.scrollWidth, view: document.documentElement.clientWidth,
        wide: [...document.querySelectorAll('body *')]
              .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
              .slice(0, 5).map(e => e.tagName + '.' + e.className)})""")
    assert widths["doc"] <= widths["view"] and widths["wide"] == [], widths


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_violation_on_the_outlook(page: Page, name):
    page.goto(PAGES[name])
    assert_axe_clean(page, name)
