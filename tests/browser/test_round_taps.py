"""The round ledger entered by taps only, on a phone-sized screen, against the same round typed."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
SUIT_NAMES = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
# the same round as text; W's and N's tiles at the wall's end make W not ready and N a
# flower pig (N declared dots missing and holds 1p 2p), which the taps enter as shortcuts
TYPED = """missing E=p S=m W=s N=p
win E self-draw hand=123s456s789s234s55s
kong S concealed 9p
kong W exposed 2m from N
wall S hand=123p456p23p55p melds=ckong:9999p; W hand=1357m1357p46m melds=kong:2222m; N hand=13m456m789m12p33s8m"""


def tiles(notation: str) -> list[str]:
    """'123s55s' → ['1s', '2s', '3s', '5s', '5s']"""
    found = []
    for digits, suit in re.findall(r"([0-9]+)([mps])", notation):
        found += [d + suit for d in digits]
    return found


def tap_tiles(step: Locator, notation: str) -> None:
    for code in tiles(notation):
        before = step.locator(".tile-row button[name=remove]").count()
        step.get_by_role("group", name="Add a tile").get_by_role(
            "button", name=re.compile(rf"^Add {code[0]} {SUIT_NAMES[code[1]]}")).click()
        expect(step.locator(".tile-row button[name=remove]")).to_have_count(before + 1)


def submit(page: Page, button: Locator) -> None:
    """Press a step's button and wait until the round in the address has changed: without
    JavaScript that is a page load, which must land before the next step's link is followed."""
    before = page.url
    button.click()
    expect(page).not_to_have_url(before)


def step(page: Page, name: str) -> Locator:
    """Open a step's section (a link to it opens it) and return it."""
    page.get_by_role("link", name=name, exact=True).click()
    section = page.locator("details[open].step")
    expect(section).to_have_count(1)
    return section


def table_rows(page: Page, caption: str) -> list[list[str]]:
    rows = page.get_by_role("table", name=caption, exact=True).locator("tbody tr")
    return [[c.strip() for c in rows.nth(i).locator("td").all_inner_texts()] for i in range(rows.count())]


def expect_rows(page: Page, caption: str, rows: list[list[str]]) -> None:
    """Wait until the table holds exactly these rows: without JavaScript the last tap is a page
    load, and the page before it already shows a table of the same caption."""
    cells = page.get_by_role("table", name=caption, exact=True).locator("tbody td")
    expect(cells).to_have_text([cell for row in rows for cell in row])


def typed_round(page: Page) -> tuple[list[list[str]], list[list[str]]]:
    """The round typed as text under Advanced: its final totals and its ledger."""
    page.goto("/round")
    page.get_by_text("Advanced: the round as text").click()
    page.get_by_label("Rules").select_option("sichuan")
    page.get_by_label("The round, one event a line").fill(TYPED)
    page.get_by_role("button", name="Settle the round").click()
    return table_rows(page, "Final totals"), table_rows(page, "Ledger")


def enter_by_taps(page: Page) -> None:
    """The same round, by selects, radios and tile taps only, on a phone-sized screen."""
    page.set_viewport_size(PHONE)
    page.goto("/round?rules=sichuan")
    missing = step(page, "Missing suits")
    for seat, suit in zip("ESWN", ["Dots 筒", "Characters 万", "Bamboo 条", "Dots 筒"], strict=True):
        missing.get_by_role("group", name=f"{seat} declared missing").get_by_label(suit).check()   # one tap
    submit(page, missing.get_by_role("button", name="Set the missing suits"))

    win = step(page, "Add a win")
    win.get_by_label("Who won").select_option("E")
    win.get_by_label("Self-draw 自摸").check()
    tap_tiles(win, "123s456s789s234s55s")
    submit(page, win.get_by_role("button", name="Add the win"))

    for who, kind, tile, source in (("S", "Concealed 暗杠", "9 Dots", ""),
                                    ("W", "Exposed, on a discard 直杠", "2 Characters", "N")):
        kong = step(page, "Add a kong")
        kong.get_by_label("Who made the kong").select_option(who)
        kong.get_by_label(kind).check()
        kong.get_by_role("radio", name=re.compile(rf"^{tile}")).check()
        if source:
            kong.get_by_label("From whose discard (exposed kong)").select_option(source)
        submit(page, kong.get_by_role("button", name="Add the kong"))

    wall = step(page, "End of the wall")
    wall.get_by_label("Whose tiles").select_option("S")
    tap_tiles(wall, "123p456p23p55p")
    wall.get_by_role("button", name="concealed kong", exact=True).click()   # a meld in two taps
    wall = page.locator("details[open].step")
    expect(wall.get_by_role("button", name="concealed kong", exact=True)).to_have_attribute("aria-pressed", "true")
    wall.get_by_role("button", name="Concealed kong of 9 Dots 九筒").click()
    expect(wall.get_by_role("button", name="Remove meld ckong:9999p")).to_be_visible()
    expect(wall.locator(".tile-row button[name=remove]")).to_have_count(10)   # the tiles stayed
    submit(page, wall.get_by_role("button", name="Add to the wall's end"))
    for seat, shortcut in (("W", "Not ready 没下叫"), ("N", "Still holds the missing suit 花猪")):
        wall = step(page, "End of the wall")
        wall.get_by_label("Whose tiles").select_option(seat)
        wall.get_by_label(shortcut).check()
        submit(page, wall.get_by_role("button", name="Add to the wall's end"))
    expect(page.get_by_role("table", name="Final totals", exact=True)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_round_entered_by_taps_matches_the_same_round_typed(page: Page):
    totals, ledger = typed_round(page)
    assert len(ledger) > 5
    enter_by_taps(page)
    expect_rows(page, "Final totals", totals)
    expect_rows(page, "Ledger", ledger)


def test_without_javascript_every_tap_is_a_page_and_the_round_comes_out_the_same(page: Page, browser, base_url):
    totals, ledger = typed_round(page)
    context = browser.new_context(java_script_enabled=False, base_url=base_url)
    try:
        plain = context.new_page()
        enter_by_taps(plain)
        expect_rows(plain, "Final totals", totals)
        expect_rows(plain, "Ledger", ledger)
    finally:
        context.close()


def test_with_javascript_a_tile_tap_does_not_reload_the_page(page: Page):
    page.goto("/round?rules=sichuan")
    win = step(page, "Add a win")
    page.evaluate("window.stillHere = true")
    tap_tiles(win, "123s456s789s234s55s")
    win.get_by_role("button", name="Remove 4 Bamboo 四条").first.click()
    expect(win.locator(".tile-row button[name=remove]")).to_have_count(13)
    assert page.evaluate("window.stillHere === true")
    assert sorted(tiles(win.locator("input[name=hand]").input_value())) == sorted(tiles("12356789s234s55s"))


@pytest.mark.parametrize("lang, remove", [("zh-Hant", "移除"), ("zh-Hans", "移除")])
def test_tiles_tapped_in_chinese_are_labelled_in_chinese_and_the_page_fits_a_phone(page: Page, lang, remove):
    page.set_viewport_size(PHONE)
    page.goto(f"/round?rules=sichuan&step=win&lang={lang}#step-win")
    win = page.locator("details#step-win")
    palette = win.locator(".palette")
    palette.locator("button[value='1s']").click()
    palette.locator("button[value='2s']").click()
    picked = win.locator(".tile-row button[name=remove]")
    expect(picked).to_have_count(2)
    assert picked.first.get_attribute("aria-label").startswith(remove)
    picked.first.click()
    expect(picked).to_have_count(1)
    assert win.locator("input[name=hand]").input_value() == "2s"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
