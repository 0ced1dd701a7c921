"""The calculator in a real browser: picking tiles, tick boxes, errors, keyboard, embedding.

Expected numbers come from the JSON API with the same parameters, never from guesses.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import assert_loads_cleanly
from tests.waiting import fitted_frame

pytestmark = pytest.mark.browser

HAND = "123m456m789m234p55s"
HKC_HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "3p", "4p", "5s", "5s"]
TILE_NAMES = {"m": "Character", "p": "Dot", "s": "Bamboo"}


def amount(text: str) -> float:
    """A signed amount as the payment table shows it: '+24', '-8', '0.5', '1/3'."""
    text = text.strip().replace("−", "-").replace("+", "")
    if "/" in text:
        num, den = text.split("/")
        return int(num) / int(den)
    return float(text)


def table(page_or_frame, caption: str) -> Locator:
    return page_or_frame.locator("table", has=page_or_frame.locator("caption", has_text=caption))


def payments_shown(payments: Locator) -> dict[str, float]:
    rows = payments.locator("tbody tr")
    shown = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        shown[row.locator("th").inner_text().strip()] = amount(row.locator("td.num").inner_text())
    return shown


def palette_button(page: Page, code: str) -> Locator:
    """The palette's 'Add …' button of a tile, found by its accessible name."""
    return page.get_by_role("group", name="Add a tile").locator(f"button[value='{code}']")


def test_pick_a_hand_tile_by_tile_and_score_it(page: Page, api):
    page.goto("/?rules=hong-kong-course")
    for n, code in enumerate(HKC_HAND, 1):
        number, suit = code[0], code[1]
        button = page.get_by_role("button", name=re.compile(
            rf"^Add {number} {TILE_NAMES[suit]}"))
        expect(button).to_have_count(1)
        button.click()
        expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(n)
    expect(page.get_by_label("Hand: concealed tiles")).to_have_value("123456789m234p55s")

    page.get_by_label("Self-draw 自摸").check()
    page.get_by_role("radiogroup", name="Winner's seat").get_by_label("South", exact=False).check()
    page.get_by_role("button", name="Score", exact=True).first.click()

    want = api("/api/score", rules="hong-kong-course", hand="123456789m234p55s",
               by="self-draw", seat="S")
    assert want["valid"] and want["payment"] == "cantonese-traditional"

    breakdown = table(page, "Fan breakdown")
    expect(breakdown).to_be_visible()
    expect(breakdown).to_contain_text("All chows")
    expect(breakdown).to_contain_text("平糊")
    for p in want["patterns"]:
        expect(breakdown.locator("tbody")).to_contain_text(p["name"])
    total = breakdown.locator("tfoot tr", has_text="Total").locator("td.num")
    expect(total).to_have_text(str(want["total_fan"]))

    payments = table(page, "Who pays whom")
    expect(payments).to_be_visible()
    assert payments_shown(payments) == {p["seat"]: p["amount"] for p in want["payments"]}
    expect(payments.locator("tr.role-winner th")).to_have_text("S")


def test_tick_three_patterns_and_count(page: Page, api):
    page.goto("/ticks?rules=hong-kong-course")
    for name in ("Half flush", "All pongs", "Dragon pung"):
        page.locator("#ticks-form label", has_text=name).first.locator(
            "input[type=checkbox]").check()
    page.get_by_role("button", name="Count").click()

    want = api("/api/score", rules="hong-kong-course",
               ticks="half-flush,all-pongs,dragon-pong")
    assert want["valid"] and want["total_fan"] == 7
    expect(page.get_by_role("heading", level=2)).to_contain_text(
        f"Total: {want['total_fan']} fan")
    total = table(page, "Fan breakdown").locator("tfoot td.num")
    expect(total).to_have_text(str(want["total_fan"]))
    assert payments_shown(table(page, "Who pays whom")) == {
        p["seat"]: p["amount"] for p in want["payments"]}
    # the ticks stay ticked on the result page
    expect(page.locator("#ticks-form input[name=ticks]:checked")).to_have_count(3)


def test_a_bad_hand_is_explained_beside_the_field_which_keeps_it(page: Page, api):
    page.goto("/?rules=hong-kong-course")
    field = page.get_by_label("Hand: concealed tiles")
    field.fill("123m456x")
    page.get_by_role("button", name="Score", exact=True).first.click()

    want = api("/api/score", rules="hong-kong-course", hand="123m456x")
    message = next(e["message"] for e in want["errors"] if e["field"] == "hand")

    expect(page.get_by_role("alert").first).to_be_visible()
    expect(field).to_have_value("123m456x")
    expect(field).to_have_attribute("aria-invalid", "true")
    beside = page.locator(".field.has-error", has=page.locator("#hand"))
    expect(beside.locator("#hand-error")).to_have_text(message)
    expect(field).to_have_attribute("aria-describedby", "hand-error")
    expect(table(page, "Fan breakdown")).to_have_count(0)


def test_a_thirteen_tile_hand_shows_its_waits(page: Page, api):
    page.goto("/?rules=hong-kong-course")
    page.get_by_label("Hand: concealed tiles").fill("123m456m789m234p5s")
    page.get_by_role("button", name="Score", exact=True).first.click()

    want = api("/api/waits", rules="hong-kong-course", hand="123m456m789m234p5s")
    waits = table(page, "Waits")
    expect(waits).to_be_visible()
    rows = waits.locator("tbody tr")
    expect(rows).to_have_count(len(want["waits"]))
    for i, w in enumerate(want["waits"]):
        expect(rows.nth(i).locator("th")).to_contain_text(w["tile"])
        expect(rows.nth(i).locator("td.num").nth(1)).to_have_text(str(w["total_fan"]))


def _tab_to(page: Page, selector: str, limit: int = 250) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def _arrow_to(page: Page, code: str) -> None:
    """Into the palette (one stop in the tab order), then along it with the arrow key."""
    _tab_to(page, ".palette button[name=add]")
    for _ in range(40):
        if page.evaluate("document.activeElement.value") == code:
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"the arrow keys never reached {code}")


def test_keyboard_only_adds_palette_tiles(page: Page):
    page.goto("/?rules=hong-kong-course")
    _tab_to(page, ".palette button[name=add]")
    first = page.evaluate("document.activeElement.value")
    page.keyboard.press("Enter")
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(1)
    expect(page.get_by_label("Hand: concealed tiles")).to_have_value(first)

    page.keyboard.press("Shift+Tab")                     # out, and back to the palette's stop
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.value") == first
    for _ in range(40):
        if page.evaluate("document.activeElement.value") == "9p":
            break
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(2)
    expect(page.get_by_label("Hand: concealed tiles")).to_have_value(f"{first}9p")


def test_the_keyboard_stays_on_the_tile_just_picked(page: Page):
    page.goto("/?rules=hong-kong-course")
    _arrow_to(page, "5s")
    for count in (1, 2, 3):
        page.keyboard.press("Enter")
        expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(count)
        expect(page.locator("#add-5s")).to_be_focused()
    expect(page.get_by_label("Hand: concealed tiles")).to_have_value("555s")


def test_the_keyboard_stays_in_the_hand_after_removing_a_tile(page: Page):
    page.goto("/?rules=hong-kong-course&hand=123m")
    _tab_to(page, "#hand-tiles button[name=remove][value='1']")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Hand: concealed tiles")).to_have_value("13m")
    expect(page.locator("#remove-1")).to_be_focused()     # now the 3m, where the 2m was
    page.keyboard.press("Enter")
    expect(page.get_by_label("Hand: concealed tiles")).to_have_value("1m")
    expect(page.locator("#remove-0")).to_be_focused()     # the last tile went: the one before
    page.keyboard.press("Enter")
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(0)
    expect(page.locator("#add-1m")).to_be_focused()       # none left: back in the palette


def fitted_height(page: Page, frame) -> int:
    """Wait until the lesson page's frame is as tall as the page inside says, and return it."""
    height, content = fitted_frame(
        page, frame, lambda: page.evaluate("document.getElementById('calc').getBoundingClientRect().height"),
        lambda height, content: abs(height - content) <= 2)
    assert abs(height - content) <= 2, f"frame {height}px, its page {content}px"
    return content


def test_embedded_on_another_site_scores_and_fits_its_frame(page: Page, lesson_site,
                                                            live_server, api):
    page.goto(f"{lesson_site}/lesson.html")
    frame = page.frame_locator("#calc")
    expect(frame.get_by_role("heading", name=re.compile("Score a hand"))).to_be_visible()
    frame_el = page.frame(url=re.compile(re.escape(live_server) + "/embed"))
    assert frame_el is not None
    before = fitted_height(page, frame_el)
    assert before > 150
    # no site chrome inside the frame
    expect(frame.locator("header.site")).to_have_count(0)

    frame.get_by_label("Hand: concealed tiles").fill("123m456m789m234p55s")
    expect(frame.get_by_label("Self-draw 自摸")).to_be_hidden()   # folded: the hand comes first
    frame.locator("details.more-of-hand > summary").click()
    frame.get_by_label("Self-draw 自摸").check()
    frame.get_by_role("radiogroup", name="Winner's seat").get_by_label("South", exact=False).check()
    frame.get_by_role("button", name="Score", exact=True).first.click()

    want = api("/api/score", rules="hong-kong-course", hand="123m456m789m234p55s",
               by="self-draw", seat="S")
    breakdown = table(frame, "Fan breakdown")
    expect(breakdown).to_contain_text("All chows")
    expect(breakdown.locator("tfoot td.num")).to_have_text(str(want["total_fan"]))
    folded = frame.locator("details.result-more > summary")   # the embed folds the payments
    folded.click()
    assert payments_shown(table(frame, "Who pays whom")) == {
        p["seat"]: p["amount"] for p in want["payments"]}
    folded.click()

    # with a result the form folds under "Change the hand": the frame shrinks to fit, grows
    # again when the form is opened, and fits an empty form (open) once more
    with_result = fitted_height(page, frame_el)
    assert with_result < before
    expect(frame.locator("details.change-hand")).not_to_have_attribute("open", "")
    frame.get_by_text("Change the hand").click()
    expect(frame.get_by_label("Hand: concealed tiles")).to_have_value("123m456m789m234p55s")   # as typed
    assert fitted_height(page, frame_el) > with_result
    frame_el.goto(f"{live_server}/embed?rules=hong-kong-course")
    expect(frame.get_by_role("heading", name=re.compile("Score a hand"))).to_be_visible()
    expect(frame.locator("details.change-hand")).to_have_attribute("open", "")
    assert abs(fitted_height(page, frame_el) - before) <= 2


def test_the_embedded_calculators_fold_is_opened_and_sent_without_javascript(browser,
                                                                             live_server, api):
    """An empty /embed on a phone: the hand, the picker and Score first, within WordPress's
    1000 px; how it was won folded, opened by its summary, and sent with the hand."""
    context = browser.new_context(java_script_enabled=False, base_url=live_server,
                                  viewport={"width": 342, "height": 900})   # a 390 px phone's post
    page = context.new_page()
    try:
        page.goto("/embed?rules=hong-kong")
        assert page.evaluate("document.documentElement.scrollHeight") <= 1000
        expect(page.get_by_label("Self-draw 自摸")).to_be_hidden()
        page.get_by_label("Hand: concealed tiles").fill(HAND)
        page.get_by_text("How it was won, declared melds and the table rules").click()
        page.get_by_label("Self-draw 自摸").check()
        page.get_by_role("radiogroup", name="Winner's seat").get_by_label("South", exact=False).check()
        page.get_by_role("button", name="Score", exact=True).first.click()
        drawn = api("/api/score", rules="hong-kong", hand=HAND, by="self-draw", seat="S")
        discard = api("/api/score", rules="hong-kong", hand=HAND)
        assert drawn["total_fan"] != discard["total_fan"]   # the folded choice counts
        expect(table(page, "Fan breakdown").locator("tfoot td.num")).to_have_text(
            str(drawn["total_fan"]))
        assert "by=self-draw" in page.url and "seat=S" in page.url
    finally:
        context.close()


@pytest.mark.parametrize("path", [
    "/",
    "/?rules=sichuan&hand=111p123p777p789p55p&by=self-draw",
    "/?rules=hong-kong&hand=123m456m789m234p5s",
    "/ticks?rules=hong-kong&ticks=all-pongs",
    "/embed?rules=hong-kong-course&hand=123m456m789m234p55s",
    "/rules/",
    "/rules/hong-kong-course",
])
def test_pages_load_without_console_errors(page: Page, console_errors, path):
    assert_loads_cleanly(page, console_errors, path)
