"""On a phone (390 px) the organiser brings a sheet played apart into the night: pastes its link,
is asked who sat at each of its places (the members of the same names chosen already), and the
sheet joins the night as a table with its QR code; the standings then count its hands. A link
that is not a sheet is said beside the field, the link kept in it."""
from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe_check import assert_axe_clean
from tests.browser.club_site import MEMBERS, played_club

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
HANDS = "hand=123m456m789m234p55s by=self-draw seat=E\nhand=111m222m333m444p55p seat=S discarder=W"


def _fits(page: Page) -> None:
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url}: {width} px wide"


def test_the_organiser_brings_a_sheet_played_apart_into_the_night_on_a_phone(page: Page, live_server,
                                                                              console_errors):
    club = played_club(live_server, "Bringing club")
    page.set_viewport_size(PHONE)
    night = f"{club['organiser']}/nights/1"
    page.goto(night)
    hands_before = page.request.get(f"{club['organiser']}/standings.json").json()["hands"]
    page.locator("#bring-sheet").fill("https://example.org/not-a-sheet")
    page.locator("#bring-next").click()
    expect(page.locator("#err-sheet")).to_contain_text("is not a sheet's link")
    expect(page.locator("#bring-sheet")).to_have_value("https://example.org/not-a-sheet")
    _fits(page)
    refused = [e for e in console_errors if "status of 400" in e and "/sheets" in e]
    assert len(refused) == 1                      # the refusal's own answer, and nothing else
    console_errors[:] = [e for e in console_errors if e not in refused]
    address = live_server + "/sheet?" + urlencode({"rules": "hong-kong", "names": ",".join(MEMBERS[4:]),
                                                   "hands": HANDS})
    page.locator("#bring-sheet").fill(address)
    page.locator("#bring-next").click()
    expect(page.locator("h1")).to_have_text("Bring in a sheet played apart")
    _fits(page)
    for number, name in enumerate(MEMBERS[4:], 1):
        expect(page.locator(f"#bring-seat{number} option:checked")).to_have_text(name)
    assert_axe_clean(page, "bringing a sheet: who sat where")
    page.locator("#bring-confirm").click()
    expect(page.locator("#brought li.club-table")).to_have_count(1)
    expect(page.locator("#table-0-1 ol.seats")).to_contain_text(MEMBERS[4])
    expect(page.locator("#qr-0-1 svg")).to_be_visible()
    _fits(page)
    assert_axe_clean(page, "the night with its QR codes and a sheet brought in")
    assert page.request.get(f"{club['organiser']}/standings.json").json()["hands"] == hands_before + 2
