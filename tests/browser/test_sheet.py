"""The game sheet in a real browser on a phone-sized screen: a night entered by taps only."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "3p", "4p", "5s", "5s"]
TILE_NAMES = {"m": "Character", "p": "Dot", "s": "Bamboo"}

# Hong Kong defaults: base points 2^fan, discarder pays 2 x base and the other two 1 x base
# each, a self-draw 2 x base from each of the three. The hand is all chows (1) + no bonus
# tiles (1) + concealed (1) = 3 fan, base 8; self-drawn it adds self-draw (1): 4 fan, base 16.
#   1. Ann (E) self-draws, 4 fan: Ann +2x16x3 = +96; Bob, Cy, Di -32 each.
#   2. Bob (S) wins 3 fan on Di's (N) discard: Bob +16+8+8 = +32; Di -16; Ann, Cy -8 each.
#   -- the seats move: Bob E, Cy S, Di W, Ann N --
#   3. Di (W) self-draws, 4 fan: Di +96; Ann, Bob, Cy -32 each.
#   4. Ann (N) wins 3 fan on Cy's (S) discard: Ann +32; Cy -16; Bob, Di -8 each.
# Ann 96-8-32+32 = 88; Bob -32+32-32-8 = -40; Cy -32-8-32-16 = -88; Di -32-16+96-8 = 40.
NIGHT = [  # (how, winner's seat, discarder's seat)
    ("self-draw", "E", ""),
    ("discard", "S", "N"),
    ("self-draw", "W", ""),
    ("discard", "N", "S"),
]
RUNNING = [["96", "-32", "-32", "-32"], ["88", "0", "-40", "-48"],
           ["56", "-32", "-72", "48"], ["88", "-40", "-88", "40"]]
TOTALS = ["+88", "-40", "-88", "+40"]


def table(page: Page, caption: str):
    return page.get_by_role("table", name=caption, exact=True)


def cells(page: Page, caption: str, where: str = "tbody tr") -> list[list[str]]:
    rows = table(page, caption).locator(where)
    return [[c.strip() for c in rows.nth(i).locator("td").all_inner_texts()] for i in range(rows.count())]


def tap_hand(page: Page, how: str, seat: str, discarder: str) -> None:
    """Pick the fourteen tiles from the palette, say how and where the hand was won, score it."""
    for n, code in enumerate(HAND, 1):
        page.get_by_role("button", name=re.compile(rf"^Add {code[0]} {TILE_NAMES[code[1]]}")).click()
        expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(n)
    page.get_by_label("Self-draw 自摸" if how == "self-draw" else "On a discard 出銃").check()
    page.get_by_role("radiogroup", name="Winner's seat").locator(f"input[value='{seat}']").check()
    if discarder:
        page.get_by_role("radiogroup", name="Discarder").locator(f"input[value='{discarder}']").check()
    page.get_by_role("button", name="Score", exact=True).first.click()
    expect(table(page, "Fan breakdown")).to_be_visible()
    page.get_by_role("link", name="Add to the sheet").click()


def assert_the_night(page: Page) -> None:
    expect(table(page, "Totals")).to_be_visible()
    assert cells(page, "Totals") == [TOTALS]
    running = table(page, "Running totals").locator("tbody tr")
    assert [[c.strip() for c in running.nth(i).locator("td").all_inner_texts()]
            for i in range(running.count())] == RUNNING
    expect(page.locator(".settle-summary")).to_have_text("Cy pays Ann 88, Bob pays Di 40.")


def test_a_night_of_four_hands_by_taps_on_a_phone(page: Page, browser):
    page.set_viewport_size(PHONE)
    page.goto("/sheet")
    for i, name in enumerate(["Ann", "Bob", "Cy", "Di"], 1):
        page.locator(f"#name-{i}").fill(name)
    page.get_by_label("Rules").select_option("hong-kong")
    page.get_by_role("button", name="Start the sheet").click()

    for number, (how, seat, discarder) in enumerate(NIGHT, 1):
        if number == 3:   # the players move: Bob to East, Cy South, Di West, Ann North
            for wind, name in zip("ESWN", ["Bob", "Cy", "Di", "Ann"], strict=True):
                page.locator(f"#seat-{wind}").select_option(label=name)
            page.get_by_role("button", name="Move the seats").click()
        page.get_by_role("link", name="Score a hand for the sheet").click()
        tap_hand(page, how, seat, discarder)
        expect(table(page, "Hands").locator("tbody tr")).to_have_count(number)

    assert_the_night(page)
    expect(table(page, "Hands").locator("#hand-3")).to_contain_text("E Bob, S Cy, W Di, N Ann")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.reload()                       # a reload keeps it (the link holds it)
    assert_the_night(page)
    page.goto("/sheet")                 # the bare address: this browser kept the sheet
    expect(page).to_have_url(re.compile(r"/sheet\?.*hands="))
    assert_the_night(page)

    share = page.locator("#share-link").get_attribute("href")
    other = browser.new_context(base_url=page.url.split("/sheet")[0])   # nothing kept there
    try:
        fresh = other.new_page()
        fresh.goto(share)
        assert_the_night(fresh)
    finally:
        other.close()


def test_a_result_opened_without_the_sheet_adds_to_the_one_this_browser_keeps(page: Page):
    page.goto("/sheet?rules=hong-kong&names=Ann,Bob,Cy,Di&hands=hand%3D123456789m234p55s+by%3Dself-draw")
    expect(table(page, "Totals")).to_be_visible()
    page.goto("/?rules=hong-kong&hand=123m456m789m234p55s&by=self-draw&seat=S")   # no sheet in the link
    page.get_by_role("link", name="Add to the sheet").click()
    # hand 1: Ann (E) self-draws 4 fan, +96, the others -32; hand 2: Bob (S) the same, +96.
    # Ann 96-32 = 64, Bob -32+96 = 64, Cy and Di -32-32 = -64.
    expect(table(page, "Hands").locator("tbody tr")).to_have_count(2)
    assert cells(page, "Totals") == [["+64", "+64", "-64", "-64"]]
    page.get_by_role("button", name="Remove hand 1").click()
    expect(table(page, "Hands").locator("tbody tr")).to_have_count(1)
    assert cells(page, "Totals") == [["-32", "+96", "-32", "-32"]]     # Bob's self-draw alone
