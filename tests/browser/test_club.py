"""The club on a phone 390 px wide: the organiser makes a club, adds eight members, and starts a
night in a few taps; the night shows two tables of four, each a shared sheet named for its
players, and the page never scrolls sideways."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe_check import assert_axe_clean

pytestmark = pytest.mark.browser

PHONE_390 = {"width": 390, "height": 844}
MEMBERS = ["Ann", "Bob", "陳大文", "Di", "Eve", "李小龍", "Gus", "Hal"]


def _fits(page: Page) -> None:
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE_390["width"], f"{page.url}: {width} px wide"


def test_an_organiser_makes_a_club_adds_members_and_starts_a_night_on_a_phone(page: Page, console_errors):
    page.set_viewport_size(PHONE_390)
    page.goto("/club")
    _fits(page)
    page.locator("#club-name").fill("Thursday club")
    page.locator("#make-club").click()
    expect(page.locator("h1")).to_have_text("Thursday club")
    organiser = page.url
    assert re.search(r"/c/[A-Za-z0-9_-]{24}$", organiser)
    for name in MEMBERS:
        page.locator("#member-name").fill(name)
        page.locator("#add-member").click()
        expect(page.locator("ul.members")).to_contain_text(name)
    # a name twice is refused beside the field, the name kept in it
    page.locator("#member-name").fill("ann")
    page.locator("#add-member").click()
    expect(page.locator("#err-note")).to_be_visible()
    expect(page.locator("#member-name")).to_have_value("ann")
    refused = [e for e in console_errors if "status of 400" in e and "/members" in e]
    assert len(refused) == 1                      # the refusal's own answer, and nothing else
    console_errors[:] = [e for e in console_errors if e not in refused]
    page.goto(organiser)
    _fits(page)
    assert_axe_clean(page, "club page")
    # starting the night: everyone is ticked already, so one tap seats them
    expect(page.locator("input[name=present]:checked")).to_have_count(len(MEMBERS))
    page.locator("#start-night").click()
    expect(page.locator("li.club-table")).to_have_count(2)
    expect(page.locator(".seating-said")).to_contain_text("seed")
    expect(page.locator(".seating-said")).to_contain_text("Everyone here plays")
    _fits(page)
    seated = page.locator("ol.seats li").all_inner_texts()
    assert sorted(seated) == sorted(MEMBERS)
    first_table = seated[:4]
    page.locator("#sheet-1-1").click()
    expect(page.locator("#live")).to_be_visible()
    for name in first_table:
        expect(page.locator("table.sheet-hands thead")).to_contain_text(name)
    page.goto(organiser + "/standings")
    expect(page.locator("#standings tbody tr")).to_have_count(len(MEMBERS))
    _fits(page)
    assert_axe_clean(page, "standings page")
