"""The club on phones 390 px wide: the organiser makes a club, adds eight members, and starts a
night in one tap; the night shows two tables of four, each a shared sheet named for its
players, and the page never scrolls sideways. A night of eight at two tables recorded on four
phones gives standings equal to the two sheets' totals."""
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
    # starting the night: everyone is ticked already, so one tap shows the tables and one starts it
    expect(page.locator("input[name=present]:checked")).to_have_count(len(MEMBERS))
    page.locator("#start-night").click()
    expect(page.locator("#plan-said")).to_contain_text("Everyone here plays")
    _fits(page)
    assert_axe_clean(page, "tables shown before the night starts")
    page.locator("#confirm-night").click()
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


def _add_typed(page: Page, line: str, rows_after: int) -> None:
    if not page.locator("#type-hand").evaluate("details => details.open"):
        page.locator("#type-hand summary").click()   # the page may have kept it open since the last hand
    page.locator("#typed-line").fill(line)
    page.locator("#type-add").click()
    expect(page.get_by_role("table", name="Running totals", exact=True).locator("tbody tr")).to_have_count(rows_after)


def _totals(page: Page) -> dict[str, int]:
    totals = page.get_by_role("table", name="Totals", exact=True)
    names = [n.strip() for n in totals.locator("thead th").all_inner_texts()]
    values = [int(v.strip().replace("+", "")) for v in totals.locator("tbody td").all_inner_texts()]
    return dict(zip(names, values, strict=True))


def test_a_club_night_of_eight_at_two_tables_on_four_phones_adds_up_in_the_standings(browser, base_url):
    organiser = browser.new_context(viewport=PHONE_390, base_url=base_url).new_page()
    organiser.goto("/club")
    organiser.locator("#club-name").fill("Friday club")
    organiser.locator("#make-club").click()
    for name in MEMBERS:
        organiser.locator("#member-name").fill(name)
        organiser.locator("#add-member").click()
    member_link = organiser.locator("#member-link").get_attribute("href")
    organiser.locator("#start-night").click()
    organiser.locator("#confirm-night").click()
    expect(organiser.locator("li.club-table")).to_have_count(2)
    night_path = organiser.url.split("/nights/")[1]
    phones = []
    for table in (1, 1, 2, 2):                        # two phones at each table, on the members' link
        phone = browser.new_context(viewport=PHONE_390, base_url=base_url).new_page()
        phone.goto(f"{member_link}/nights/{night_path}")
        phone.locator(f"#sheet-1-{table}").click()
        expect(phone.locator("#live")).to_be_visible()
        phones.append(phone)
    hands = ["hand=123m456m789m234p55s by=self-draw seat=E", "hand=111m222m333m444p55p seat=S discarder=N",
             "hand=123m456m789m234p55s seat=W discarder=E", "hand=111m222m333m444p55p by=self-draw seat=N"]
    for i, line in enumerate(hands):
        for at_table in (0, 2):                        # each table's phones take turns
            _add_typed(phones[at_table + i % 2], line, i + 1)
    by_sheet: dict[str, int] = {}
    for phone in (phones[0], phones[2]):               # the phone that did not add the last hand: it follows
        expect(phone.get_by_role("table", name="Running totals", exact=True).locator("tbody tr")).to_have_count(4)
        by_sheet.update(_totals(phone))
    assert sorted(by_sheet) == sorted(MEMBERS) and sum(by_sheet.values()) == 0
    organiser.goto(organiser.url.split("/nights/")[0] + "/standings")
    rows = organiser.locator("#standings tbody tr")
    expect(rows).to_have_count(len(MEMBERS))
    standings = {}
    for i in range(rows.count()):
        name = rows.nth(i).locator("th").inner_text().strip()
        standings[name] = int(rows.nth(i).locator("td").nth(1).inner_text().strip())
    assert standings == by_sheet
    expect(organiser.locator("#zero-sum")).to_contain_text("sum to zero")
