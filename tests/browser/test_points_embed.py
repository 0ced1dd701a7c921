"""Fan to payment's embed fits WordPress's 1000 px frame at a phone's width in every state a
reader can put it in: as it opens, and with each of its folds open (who won, the rule, the table
rules, the conversion table: one at a time, an accordion), in three languages, for a legal win,
a win below the minimum and the longest choices; and the page itself never scrolls sideways."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.waiting import CONTENT_HEIGHT

pytestmark = pytest.mark.browser

MOST = 1000   # wp-embed.js never makes a frame taller
FOLDS = (".who-fold", ".rule-fold", "#dials", ".conversion-fold")
CASES = ("rules=hong-kong&fan=5&discarder=S",
         "rules=hong-kong&fan=1&by=discard&seat=S&discarder=N",   # below the minimum
         "rules=family&fan=13&by=self-draw",
         "rules=sichuan-sbr&fan=20&stake=2")


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
@pytest.mark.parametrize("width", [390, 650])
def test_every_state_of_the_embed_fits_a_wordpress_frame(page: Page, lang, width):
    page.set_viewport_size({"width": width, "height": 900})
    for case in CASES:
        page.goto(f"/embed/points?{case}&lang={lang}")
        heights = {"as it opens": page.evaluate(CONTENT_HEIGHT)}
        expect(page.locator(".conversion-fold")).to_have_attribute("open", "")
        for fold in FOLDS:
            page.locator(f"{fold} > summary").click()
            expect(page.locator(fold)).to_have_attribute("open", "")
            # one fold open at a time
            expect(page.locator("details[name=points-fold][open]")).to_have_count(1)
            heights[fold] = page.evaluate(CONTENT_HEIGHT)
        tallest = max(heights.values())
        assert tallest <= MOST, f"{case} ({lang}, {width} px): {heights}"
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], f"{case} ({lang}, {width} px) scrolls sideways: {widths}"


def test_the_page_at_a_phones_width_keeps_its_table_whole(page: Page):
    """The whole page on a phone: the conversion table fits without scrolling, its headers break
    only between words (番 and 底分 are never split a character a line)."""
    page.set_viewport_size({"width": 390, "height": 900})
    for lang in ("en", "zh-Hant"):
        page.goto(f"/points?rules=hong-kong&fan=5&lang={lang}")
        table = page.locator(".conversion-table")
        box = table.evaluate("t => [t.scrollWidth, t.parentElement.clientWidth]")
        assert box[0] <= box[1], f"{lang}: the table is wider than its column: {box}"
        # every header is as wide as its longest word: no word broken inside
        broken = table.evaluate("""t => [...t.querySelectorAll('thead th')].filter(th => {
            const range = document.createRange(); range.selectNodeContents(th);
            const words = th.textContent.trim().split(/\\s+/);
            return [...range.getClientRects()].length > words.length; }).map(th => th.textContent)""")
        assert broken == [], f"{lang}: headers broken inside a word: {broken}"
