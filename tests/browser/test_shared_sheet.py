"""A shared sheet on two phones (360 px, two browser contexts): one adds a hand and the other
sees it without reloading; one corrects hand 2 of 4 and both show the new totals and transfers."""
from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_sheet import PHONE, TOTALS, cells, table

pytestmark = pytest.mark.browser

NAMES = "Ann,Bob,Cy,Di"
HANDS = ["hand=123456789m234p55s by=self-draw",
         "hand=123456789m234p55s seat=S discarder=N",
         "hand=123456789m234p55s by=self-draw seat=W at=2341",
         "hand=123456789m234p55s seat=N discarder=S"]
# Hand 2 corrected: Bob's hand had a pong of 1m, not the chow 123m: concealed (1) + no bonus
# tiles (1) = 2 fan, below Hong Kong's minimum 3, so it is not a win and pays nothing.
# Ann 96-32+32 = 96; Bob -32-32-8 = -72; Cy -32-32-16 = -80; Di -32+96-8 = 56.
CORRECTED = "hand=111m456m789m234p55s seat=S discarder=N"
CORRECTED_TOTALS = ["+96", "-72", "-80", "+56"]
WATCH_MS = 5000     # the pages poll every 1.5 s: a change shows within about 2 s


def _phone(browser: Browser, base_url: str) -> Page:
    context = browser.new_context(viewport=PHONE, base_url=base_url)
    return context.new_page()


def _confirm_from_the_calculator(page: Page, calculator_link: str) -> None:
    """Open the calculator, take the hand to the sheet and confirm it; return once the sheet
    shows the change (its version moved), not merely once a sheet is on screen: the confirm
    box sits on the sheet page, whose old totals are visible until the change's answer lands."""
    page.goto(calculator_link)
    page.locator("#sheet-add").click()
    before = page.locator("#live").get_attribute("data-version")   # waits for the sheet page
    page.locator("#confirm").click()
    expect(page.locator("#live")).not_to_have_attribute("data-version", before or "")
    expect(table(page, "Totals")).to_be_visible()


def _transfers(page: Page, hands: list[str]) -> list[list[str]]:
    """Who pays whom for the same night as an address-only sheet: the server's own settle-up."""
    query = urlencode({"rules": "hong-kong", "names": NAMES, "hands": "\n".join(hands)})
    answer = json.loads(page.request.get(f"/api/sheet?{query}").text())
    return [[t["payer_name"], t["payee_name"], str(t["amount"])] for t in answer["transfers"]]


def test_two_phones_share_one_sheet_and_see_each_others_hands_and_corrections(browser, base_url):
    ann, bob = _phone(browser, base_url), _phone(browser, base_url)
    query = urlencode({"rules": "hong-kong", "names": NAMES, "hands": "\n".join(HANDS[:3])})
    ann.goto(f"/sheet?{query}")
    ann.locator("#share").click()                          # one tap
    expect(ann.locator("#view-link")).to_be_visible()
    edit = ann.url
    assert "/s/" in edit and ann.locator("#view-link").get_attribute("href") not in edit
    bob.goto(edit)
    expect(table(bob, "Running totals").locator("tbody tr")).to_have_count(3)

    # Ann adds hand 4 through the calculator; Bob's page shows it without a reload
    hand4 = ann.locator("#add-hand").get_attribute("href") + "&hand=123456789m234p55s&seat=N&discarder=S"
    _confirm_from_the_calculator(ann, hand4)
    expect(table(ann, "Running totals").locator("tbody tr")).to_have_count(4)
    expect(table(bob, "Running totals").locator("tbody tr")).to_have_count(4, timeout=WATCH_MS)
    assert cells(bob, "Totals") == [TOTALS] == cells(ann, "Totals")

    # Bob corrects hand 2 of 4 where it was made; both phones show the new totals and transfers
    link = bob.get_by_role("link", name="Edit hand 2").get_attribute("href")
    _confirm_from_the_calculator(bob, link.replace("hand=123456789m234p55s", "hand=111m456m789m234p55s", 1))
    expected = _transfers(bob, [HANDS[0], CORRECTED, *HANDS[2:]])
    assert cells(bob, "Totals") == [CORRECTED_TOTALS]
    expect(table(ann, "Totals").locator("tbody td").first).to_have_text("+96", timeout=WATCH_MS)
    assert cells(ann, "Totals") == [CORRECTED_TOTALS]
    assert cells(ann, "Who pays whom") == expected == cells(bob, "Who pays whom")
    assert "not a win" in table(ann, "Hands").locator("tbody tr").nth(1).inner_text()
    for page in (ann, bob):
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_hand_typed_without_signal_waits_on_the_phone_and_is_sent_when_the_network_returns(
        browser, base_url):
    context = browser.new_context(viewport=PHONE, base_url=base_url)
    page = context.new_page()
    page.goto("/sheet?" + urlencode({"rules": "hong-kong", "names": NAMES, "hands": HANDS[0]}))
    page.locator("#share").click()
    expect(page.locator("#view-link")).to_be_visible()
    rows = table(page, "Running totals").locator("tbody tr")
    expect(rows).to_have_count(1)
    context.set_offline(True)
    page.locator("#type-hand summary").click()
    page.locator("#typed-line").fill(HANDS[1])
    page.locator("#type-add").click()
    expect(page.locator("#pending")).to_be_visible()
    expect(page.locator("#pending-list li")).to_have_count(1)
    item = page.locator("#pending-list li").inner_text()    # in words, and why it waits
    assert item.startswith("Add it: Bob (S) won on Di's discard") and "Not sent yet: no network" in item
    expect(rows).to_have_count(1)                 # not on the sheet yet: kept on the phone
    context.set_offline(False)
    expect(rows).to_have_count(2, timeout=WATCH_MS)
    expect(page.locator("#pending")).to_be_hidden()
    page.reload()                                  # it is on the server, not only on the page
    expect(table(page, "Running totals").locator("tbody tr")).to_have_count(2)
    assert page.evaluate("window.localStorage.getItem('mahjong-calculator:pending-changes')") == "[]"
    context.close()
