"""What to discard in a real browser: pick 14 tiles, read the table, follow a discard to its
waits' breakdowns; no axe violation; no sideways scrolling on a 360 px phone.

Expected numbers come from the JSON API with the same parameters, never from guesses.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from app.advice.outlook import DEFAULT_DRAWS, outlook
from app.practice.discard_practice import check_discard
from app.rules.loader import registry
from app.vocabulary.practice import deal_discard
from tests.browser.axe_check import assert_axe_clean

pytestmark = pytest.mark.browser

HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z", "7z"]
PAGES = {
    "result": "/discard?rules=hong-kong&hand=123m456p789s11z22z7z&seen=1z",
    "sichuan": "/discard?rules=sichuan&hand=123m456m789m111p5s9s&missing=s",
    "melds": "/discard?rules=hong-kong&hand=1122m3344p55s7z&melds=ckong:5555z",
    "errors": "/discard?rules=hong-kong&hand=123m&seen=1111z",
    "embed": "/embed/discard?rules=sichuan&hand=1111m3344p5566s79s",
    "practice": "/practice/discard?rules=sichuan&seed=demo&n=1&discard=1m&score=1/1",
    "question": "/practice/discard?rules=hong-kong&hand=1113678m67778p4s6z&seat=N&round=E&discard=6z",
}


def table(page: Page, caption: str) -> Locator:
    return page.locator("table", has=page.locator("caption", has_text=caption))


def test_pick_fourteen_tiles_see_the_table_and_follow_a_discard_to_its_waits(page: Page, api):
    page.goto("/discard?rules=hong-kong")
    palette = page.get_by_role("group", name="Add a tile")
    for n, code in enumerate(HAND, 1):
        palette.locator(f"button[value='{code}']").click()
        expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(n)
    hand = "123m456p789s11227z"
    expect(page.get_by_label("Hand: 14 tiles")).to_have_value(hand)
    page.get_by_role("button", name="Weigh the discards").first.click()

    want = api("/api/discard", rules="hong-kong", hand=hand)
    assert want["valid"], want
    discards = table(page, "Discards")
    expect(discards).to_be_visible()
    rows = discards.locator("tbody tr")
    expect(rows).to_have_count(len(want["discards"]))
    best = want["discards"][0]
    expect(rows.first.locator("th")).to_contain_text(best["tile"])
    expect(rows.first).to_contain_text(f"{best['left']} left")

    wait = next(w for w in best["waits"] if w["wins"])
    link = rows.first.get_by_role("link", name=wait["tile"], exact=True)
    expect(link).to_have_count(1)
    link.click()
    expect(page).to_have_url(re.compile(r"/\?rules=hong-kong&hand="))
    breakdown = table(page, "Fan breakdown")
    expect(breakdown).to_be_visible()
    expect(breakdown.locator("tfoot tr", has_text="Total").locator("td.num")).to_have_text(
        str(wait["total_fan"]))
    payments = table(page, "Who pays whom")
    expect(payments.locator("tr.role-winner td.num")).to_have_text(f"+{wait['collects']}")


def test_sichuan_shows_the_missing_suit_first_with_its_reason(page: Page):
    page.goto(PAGES["sichuan"])
    rows = table(page, "Discards").locator("tbody tr")
    expect(rows.nth(0).locator("th")).to_contain_text("5s")
    expect(rows.nth(0)).to_contain_text("declared missing suit")
    expect(rows.nth(2)).to_contain_text("cannot win while it holds one")


def test_practice_a_discard_by_clicking_a_tile_and_see_why(page: Page):
    rulesets = registry()
    dealt = deal_discard(rulesets["hong-kong"], "demo", 3)
    found = outlook(dealt.analysis, DEFAULT_DRAWS, rulesets)
    worse = dealt.analysis.choices[-1].tile
    best = check_discard(dealt, worse, found).best[0].tile   # by expected value
    page.goto("/practice/discard?rules=hong-kong&seed=demo&n=3")
    page.get_by_role("button", name=f"Discard {worse.label}").first.click()
    expect(page.get_by_role("status")).to_have_text(re.compile(rf"^Not the best: discard {best.code}"))
    expect(table(page, "Outlook").locator("tbody tr")).to_have_count(len(found.choices))
    expect(table(page, "Discards").locator("tbody tr")).to_have_count(len(dealt.analysis.choices))
    expect(page.locator("#record")).to_contain_text("0 / 1")
    page.get_by_role("link", name="Try this hand again").click()
    page.get_by_role("button", name=f"Discard {best.label}").first.click()
    expect(page.get_by_role("status")).to_have_text(f"Right: discard {best.code}.")
    expect(page.locator("#record")).to_contain_text("1 / 1")


def test_a_teachers_link_opens_the_question_and_a_bad_one_shows_its_field(page: Page, console_errors):
    page.goto("/practice/discard?rules=hong-kong&seed=demo&n=3")
    page.get_by_role("link", name="Link to this question").click()
    expect(page).to_have_url(re.compile(r"/practice/discard\?rules=hong-kong&hand="))
    expect(page.get_by_role("heading", name=re.compile("^A question"))).to_be_visible()
    page.get_by_text("Change the question").click()
    page.get_by_label("Hand: 14 tiles, the one just drawn included").fill("123m456p789s11z22z")
    page.get_by_role("button", name="Ask this hand").click()
    expect(page.locator("#hand-error")).to_contain_text("13 tiles in the hand")
    expect(page.get_by_label("Hand: 14 tiles, the one just drawn included")).to_have_value(
        "123m456p789s11z22z")
    refused = [e for e in console_errors if "status of 400" in e and "hand=123m456p789s11z22z" in e]
    assert len(refused) == 1   # the bad question is answered 400, as it should be
    console_errors[:] = [e for e in console_errors if e not in refused]


@pytest.mark.parametrize("name", PAGES)
def test_no_horizontal_scrolling_at_360_px(page: Page, name):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(PAGES[name])
    page.wait_for_load_state("load")
    widths = page.evaluate("""() => ({
        doc: document.documentElement.scrollWidth, body: document.body.scrollWidth,
        view: document.documentElement.clientWidth,
        wide: [...document.querySelectorAll('body *')]
              .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
              .slice(0, 5).map(e => e.tagName + '.' + e.className)})""")
    assert widths["doc"] <= widths["view"] and widths["body"] <= widths["view"], widths
    assert widths["wide"] == [], widths


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_violation(page: Page, name):
    page.goto(PAGES[name])
    assert_axe_clean(page, name)


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_an_embedded_wrong_answer_by_expected_value_fits_a_post_at_390_px(page: Page, lang):
    """A WordPress frame is at most 1000 px tall: the verdict, its reasons and the folded tables."""
    page.set_viewport_size({"width": 390, "height": 740})
    page.goto(f"/practice/discard?rules=hong-kong&seed=demo&n=1&embed=1&discard=6z&lang={lang}")
    expect(page.get_by_role("status")).to_have_text(re.compile(r"^(Not the best|不是最好)"))
    assert page.evaluate("document.documentElement.scrollHeight") <= 1000
