"""The three languages in a real browser: the switch is plain links that keep the hand, every
link and form keeps the language, axe finds no violation and a phone never scrolls sideways
in Chinese."""
from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.browser.test_accessibility import PAGES, assert_fits_a_phone

pytestmark = pytest.mark.browser

CHINESE = ("zh-Hant", "zh-Hans")
CHECKED = ["result", "result-sichuan", "errors", "ticks", "ruleset-sichuan", "card", "quiz",
           "round-ledger", "sheet-night", "embed-result"]


def _in(url: str, lang: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}lang={lang}"


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("name", CHECKED)
def test_axe_finds_no_violation_in_chinese(page: Page, axe: Axe, live_server, console_errors,
                                           name, lang):
    response = page.goto(_in(PAGES[name], lang))
    assert response is not None and response.status in (200, 400)
    page.wait_for_load_state("load")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    results = axe.run(page)
    report = "; ".join(f"{v['id']}: {v['help']}" for v in results.response["violations"])
    assert results.violations_count == 0, f"{name} in {lang}: {report}"
    assert console_errors == []


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("name", ["result", "result-sichuan", "ticks", "round-ledger", "sheet-night",
                                  "ruleset-sichuan"])
def test_a_chinese_page_fits_a_phone(page: Page, name, lang):
    assert_fits_a_phone(page, _in(PAGES[name], lang))


def _amounts(page: Page) -> list[str]:
    cells = page.locator("table td").all_inner_texts()
    return [c.strip() for c in cells if re.fullmatch(r"[+\-−]?\$?\d[\d.,/]*", c.strip())]


def test_the_switch_turns_the_same_hand_into_chinese_and_every_step_after_keeps_it(page: Page):
    page.goto(PAGES["result"])
    english = _amounts(page)
    assert english, "the result page shows its payments"
    page.locator('header a[hreflang="zh-Hant"]').click()
    page.wait_for_load_state("load")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    assert "lang=zh-Hant" in page.url and "hand=" in page.url
    assert _amounts(page) == english            # the same numbers in another language
    expect(page.locator('header a[hreflang="zh-Hant"]')).to_have_attribute("aria-current", "page")

    # the form keeps the language: change the way of winning and calculate again
    page.locator("form.calculator button.primary").first.click()
    page.wait_for_load_state("load")
    assert "lang=zh-Hant" in page.url
    # a link of the site's own keeps it too
    page.locator("header nav a").nth(2).click()
    page.wait_for_load_state("load")
    assert "lang=zh-Hant" in page.url
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")

    page.locator('header a[hreflang="zh-Hans"]').click()
    page.wait_for_load_state("load")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    page.locator('header a[hreflang="en"]').click()
    page.wait_for_load_state("load")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert "lang=en" in page.url


def test_a_chinese_reader_arriving_at_the_front_page_gets_chinese(browser, live_server):
    context = browser.new_context(base_url=live_server, locale="zh-HK",
                                  extra_http_headers={"Accept-Language": "zh-HK,zh;q=0.9"})
    page = context.new_page()
    page.goto("/")
    assert page.url.endswith("/?lang=zh-Hant")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    context.close()
