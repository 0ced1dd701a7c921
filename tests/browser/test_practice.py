"""Fan → payment and Count the Fan in a real browser.

The widget's numbers come from the golden files (HK36-pay-1, HK36-base-3, HK36-base-7);
the practice round's truth comes from the JSON API scoring the dealt hand.
"""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Locator, Page, expect

from app.rules.loader import registry
from app.vocabulary.practice import deal
from tests.browser.conftest import assert_loads_cleanly

pytestmark = pytest.mark.browser


def table(page: Page, caption: str) -> Locator:
    return page.locator("table", has=page.locator("caption", has_text=caption))


def amounts(page: Page) -> dict[str, str]:
    rows = table(page, "Who pays whom").locator("tbody tr")
    return {rows.nth(i).locator("th").inner_text().strip():
            rows.nth(i).locator("td.num").inner_text().strip() for i in range(rows.count())}


def expect_payments(page: Page, want: dict[str, str]) -> None:
    payer_rows = table(page, "Who pays whom").locator("tbody tr")
    for seat, value in want.items():
        expect(payer_rows.filter(has=page.locator("th", has_text=re.compile(f"^{seat}$")))
               .locator("td.num")).to_have_text(value)


def test_the_widget_updates_the_payments_as_the_fan_changes(page: Page):
    page.goto("/points?rules=hong-kong&fan=5&discarder=S")
    # HK36-pay-1: 5 fan, discarder pays half: +128 / −64 / −32 / −32, "2⁵ = 32 base points"
    expect_payments(page, {"E": "+128", "S": "-64", "W": "-32", "N": "-32"})
    expect(page.locator("#points-arithmetic")).to_have_text("2⁵ = 32 base points")
    expect(page.locator(".conversion-table tr.current th")).to_have_text("5")
    page.evaluate("window.__sameDocument = true")

    slider = page.locator("#fan-slider")
    expect(slider).to_be_visible()            # the script shows the slider
    slider.fill("3")
    # HK36-base-3: E +32, S −16, W −8, N −8
    expect_payments(page, {"E": "+32", "S": "-16", "W": "-8", "N": "-8"})
    expect(page.locator("#fan")).to_have_value("3")
    expect(page.locator(".conversion-table tr.current th")).to_have_text("3")
    expect(page.locator("#points-arithmetic")).to_have_text("2³ = 8 base points")

    page.locator("#fan").fill("7")
    # HK36-base-7: E +512, S −256, W −128, N −128
    expect_payments(page, {"E": "+512", "S": "-256", "W": "-128", "N": "-128"})
    expect(slider).to_have_value("7")
    expect(page.locator(".conversion-table tr.current th")).to_have_text("7")

    # the page was updated in place, and the address is still a permalink
    assert page.evaluate("window.__sameDocument") is True
    assert parse_qs(urlsplit(page.url).query)["fan"] == ["7"]
    page.reload()
    expect_payments(page, {"E": "+512", "S": "-256", "W": "-128", "N": "-128"})


def test_the_widget_follows_the_other_dials_too(page: Page):
    page.goto("/points?rules=hong-kong&fan=5&discarder=S")
    page.locator("#dials > summary").click()   # the table rules, folded under what they are
    page.get_by_label("Who pays on a discard").select_option("discarder-pays-all")
    # HK36-pay-2: the discarder pays all 128
    expect_payments(page, {"E": "+128", "S": "-128", "W": "0", "N": "0"})
    expect(page.locator("#dials > summary")).to_contain_text("Discarder pays all")
    page.get_by_label("Self-draw 自摸").check()
    # HK36-pay-3: self-drawn, each opponent pays 64
    expect_payments(page, {"E": "+192", "S": "-64", "W": "-64", "N": "-64"})


def test_the_widget_works_without_javascript(browser, live_server):
    context = browser.new_context(java_script_enabled=False, base_url=live_server)
    page = context.new_page()
    try:
        page.goto("/points?rules=hong-kong&fan=5&discarder=S")
        expect(page.locator("#fan-slider")).to_be_hidden()
        page.locator("#fan").fill("3")
        page.get_by_role("button", name="Show the payments").click()
        expect_payments(page, {"E": "+32", "S": "-16", "W": "-8", "N": "-8"})   # HK36-base-3
    finally:
        context.close()


def test_a_round_of_count_the_fan(page: Page, api):
    rules, seed, level = "hong-kong", "browser-round", "patterns"
    # the truth of hand 1 comes from the scorer (the JSON API), not from the practice page
    dealt = deal(registry()[rules], seed, 1, level).params
    want = api("/api/score", **dealt)
    assert want["valid"]
    counted = [p for p in want["patterns"] if p["counted"]]
    assert len(counted) >= 2
    left_out, rest = counted[0], counted[1:]

    page.goto(f"/practice?rules={rules}&seed={seed}&n=1&level={level}")
    expect(page.get_by_role("heading", name=re.compile("Hand 1"))).to_be_visible()
    expect(page.get_by_role("group", name="Winning tile").locator("img")).to_have_attribute(
        "src", re.compile(rf"/sprite\.svg\?v=[0-9a-f]+#t{dealt['win']}$"))
    first_hand = page.get_by_role("group", name="Concealed tiles").inner_html()

    # answer wrong: leave one counted item out of the ticks and out of the total
    page.get_by_label("Total fan").fill(str(want["total_fan"] - left_out["fan"]))
    page.locator("summary", has_text="Tick what you counted").click()
    for p in rest:
        page.locator(f"#answer-form input[name=ticks][value='{p['id']}']").check()
        if p["count"] > 1:
            page.locator(f"#answer-form input[name='n.{p['id']}']").fill(str(p["count"]))
    page.get_by_role("button", name="Check my count").click()

    expect(page.locator("#verdict-heading")).to_contain_text("Not quite")
    breakdown = table(page, "Fan breakdown")
    missed = breakdown.locator("tr.mark-missed")
    expect(missed).to_have_count(1)
    expect(missed.locator("th")).to_contain_text(left_out["name"])
    expect(missed).to_contain_text("missed")
    expect(breakdown.locator("tr.mark-counted")).to_have_count(len(rest))
    expect(page.locator(".missed-summary")).to_contain_text(left_out["name"])
    expect(breakdown.locator("tfoot td.num").first).to_have_text(str(want["total_fan"]))
    expect(page.locator("#record")).to_contain_text("0 / 1")

    # next hand: n=2 of the same series, the score carried in the link, a fresh form
    page.get_by_role("link", name="Next hand →").click()
    expect(page.get_by_role("heading", name=re.compile("Hand 2"))).to_be_visible()
    query = parse_qs(urlsplit(page.url).query)
    assert query["n"] == ["2"] and query["seed"] == [seed] and query["score"] == ["0/1"]
    expect(page.locator("#record")).to_contain_text("0 / 1")
    expect(page.get_by_label("Total fan")).to_have_value("")
    expect(table(page, "Fan breakdown")).to_have_count(0)
    assert page.get_by_role("group", name="Concealed tiles").inner_html() != first_hand


@pytest.mark.parametrize("path", [
    "/points", "/points?rules=sichuan-sbr&fan=4", "/embed/points?rules=family&fan=6",
    "/practice?rules=hong-kong-course&seed=c&n=1&level=limit",
    "/practice?rules=sichuan&seed=c&n=2&level=patterns&answer=1&fan=3&ticks=root",
])
def test_the_pages_load_without_console_errors(page: Page, console_errors, path):
    assert_loads_cleanly(page, console_errors, path)
