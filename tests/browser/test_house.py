"""A club's rules built on a phone, shared by its link into a fresh browser, and the same
numbers on the calculator, the game sheet and a card."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
SEVEN_PAIRS = "hand=11m22m33p44p55s66s77z&win=7z&by=self-draw"


def test_a_variant_built_on_a_phone_prices_the_same_everywhere_it_is_shared(page: Page, browser, live_server):
    page.set_viewport_size(PHONE)
    page.goto("/house")
    page.locator("#cap").fill("10")
    row = page.locator("#pattern-seven-pairs")
    row.get_by_role("checkbox").check()
    row.locator("input[name='fan.seven-pairs']").fill("4")
    renamed = page.locator("#pattern-all-pongs")
    renamed.locator("summary").click()
    renamed.locator("input[name='name.all-pongs.en']").fill("Big pongs")
    page.get_by_role("button", name="Make the link").click()
    expect(page.locator(".house-changes")).to_contain_text("Big pongs")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    link = page.locator("#house-link").input_value()
    code = re.search(r"rules=[^&]+&house=[^&]+", link)[0]   # the family and the club's code

    other = browser.new_context(viewport=PHONE, base_url=live_server)   # a fresh phone
    friend = other.new_page()
    answer = json.loads(friend.request.get(f"/api/score?{code}&{SEVEN_PAIRS}").text())
    assert answer["cap"] == 10
    assert {p["id"]: p["fan"] for p in answer["patterns"] if p["counted"]}["seven-pairs"] == 4
    winner = next(p["amount"] for p in answer["payments"] if p["role"] == "winner")

    friend.goto(link + "&" + SEVEN_PAIRS)
    result = friend.locator("section.result")
    expect(result).to_contain_text(f"+{winner}")
    friend.get_by_role("link", name="Add to the sheet").click()
    expect(friend.get_by_role("table", name="Totals", exact=True)).to_contain_text(f"+{winner}")

    friend.goto(f"/card?{code}&{SEVEN_PAIRS}")
    expect(friend.locator("body")).to_contain_text(f"+{winner}")
    other.close()
