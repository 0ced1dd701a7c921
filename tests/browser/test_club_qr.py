"""A member finds their table by scanning: on the club night's page (390 px) each table shows a
QR code of its sheet as the link sees it, drawn by the share box's own helper; read back here
from chromium's screenshot with zxing-cpp, it opens that table's sheet on a second phone, able
to record on the member link, only watching on the view link."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.qr import read_qr

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
MEMBERS = ["Ann", "Bob", "陳大文", "Di", "Eve", "李小龍", "Gus", "Hal"]


def _phone(browser: Browser, base_url: str) -> Page:
    return browser.new_context(viewport=PHONE, base_url=base_url, has_touch=True, is_mobile=True).new_page()


def _night(page: Page) -> tuple[str, str, str]:
    """A club of eight with a night seated: (the night's path on the member link, on the view link,
    the night's number)."""
    made = page.request.post("/club/new", form={"name": "QR club", "rules": "hong-kong", "season": "Spring"},
                             max_redirects=0)
    organiser = made.headers["location"]
    for name in MEMBERS:
        assert page.request.post(f"{organiser}/members", form={"name": name}, max_redirects=0).status == 303
    page.goto(organiser)
    page.locator("#start-night").click()          # everyone is ticked: one tap shows the tables,
    page.locator("#confirm-night").click()        # one starts the night at them
    expect(page.locator("li.club-table")).to_have_count(2)
    night = page.url
    number = night.split("/nights/")[1]
    page.goto(organiser)
    member = page.locator("#member-link").get_attribute("href")
    view = page.locator("#view-link").get_attribute("href")
    return f"{member}/nights/{number}", f"{view}/nights/{number}", number


def test_each_table_shows_a_qr_code_that_opens_its_sheet_on_another_phone(browser: Browser, base_url):
    organiser, member = _phone(browser, base_url), _phone(browser, base_url)
    member_night, view_night, _ = _night(organiser)
    organiser.goto(member_night)
    expect(organiser.locator("li.club-table")).to_have_count(2)
    width = organiser.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"the night is {width} px wide"
    # the page's own SVG, no image from anywhere
    assert organiser.evaluate("[...document.images].filter(i => i.closest('.qr-code')).length") == 0
    scanned = []
    for table in (1, 2):
        code = organiser.locator(f"#qr-1-{table} svg")
        code.scroll_into_view_if_needed()
        text = read_qr(code.screenshot())
        link = organiser.locator(f"#sheet-1-{table}").get_attribute("href")
        assert text == base_url + link, f"table {table}: the code says {text!r}"
        scanned.append(text)
    assert scanned[0] != scanned[1]
    seated = organiser.locator("#table-1-2 ol.seats li").all_inner_texts()
    member.goto(scanned[1])                       # the second phone opens what it scanned
    expect(member.locator("#live")).to_be_visible()
    for name in seated:
        expect(member.locator("table.sheet-hands thead")).to_contain_text(name)
    assert member.locator("#agreed").count() == 1  # the member link's sheet records hands
    # on the view link the code opens the sheet to watch only
    organiser.goto(view_night)
    code = organiser.locator("#qr-1-1 svg")
    code.scroll_into_view_if_needed()
    watched = read_qr(code.screenshot())
    assert re.fullmatch(re.escape(base_url) + r"/s/[A-Za-z0-9_-]+", watched) and watched not in scanned
    member.goto(watched)
    expect(member.locator("#live")).to_be_visible()
    assert member.locator("#agreed").count() == 0
