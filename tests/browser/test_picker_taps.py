"""The tile picker at the table, on a 390 px phone with JavaScript on: taps change the form in
place (no page load until the result, which appears in place and in view), the address follows,
and the page keeps its language on every tap."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

PHONE = {"width": 390, "height": 844}


def _count_loads(page: Page) -> list[str]:
    """Every page load from now on (a reload counts; history.pushState and popstate do not)."""
    loads: list[str] = []
    page.on("domcontentloaded", lambda p: loads.append(p.url))
    return loads


def _tap_tile(page: Page, code: str, count: int) -> None:
    page.locator(f"#add-{code}").click()
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(count)


def _in_view(page: Page, selector: str) -> bool:
    return page.evaluate("""s => { const r = document.querySelector(s).getBoundingClientRect();
        return r.top >= 0 && r.top < window.innerHeight; }""", selector)


def _open_on_a_phone(page: Page, address: str) -> list:
    """Open the address at 390 px, mark the document (a page load would drop the mark) and
    return the list that collects every navigation from here on."""
    page.set_viewport_size(PHONE)
    page.goto(address)
    page.evaluate("window.__sameDocument = true")
    return _count_loads(page)


def test_hand_a_at_390px_scores_in_place_without_a_page_load(page: Page):
    loads = _open_on_a_phone(page, "/?rules=hong-kong")
    page.get_by_role("radiogroup", name="How the hand was won").get_by_label("Self-draw", exact=False).check()
    page.get_by_role("radiogroup", name="Winner's seat").get_by_label("South", exact=False).check()
    for n, code in enumerate(["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "3p", "4p",
                              "5s", "5s"], 1):
        _tap_tile(page, code, n)
    heading = page.locator("#result-heading")
    expect(heading).to_contain_text("4 fan")
    assert loads == []                                   # no navigation, not even the last tap
    assert page.evaluate("window.__sameDocument") is True
    assert _in_view(page, "#result-heading")                     # the result landed in view
    query = parse_qs(urlsplit(page.url).query)           # the address followed the taps
    assert query["hand"] == ["123456789m234p55s"] and query["seat"] == ["S"]
    assert query["by"] == ["self-draw"]


def test_a_pong_made_and_a_tile_removed_in_place(page: Page):
    page.set_viewport_size(PHONE)
    page.goto("/?rules=hong-kong")
    loads = _count_loads(page)
    page.get_by_label("a new meld").check()
    for code in ("7z", "7z", "7z"):
        page.locator(f"#add-{code}").click()
    expect(page.locator(".draft .tile-row img")).to_have_count(3)
    page.locator("button[name=make][value=pong]").click()
    expect(page.locator(".meld")).to_have_count(1)
    _tap_tile(page, "1m", 1)
    _tap_tile(page, "2m", 2)
    page.locator("#remove-0").click()
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(1)
    assert parse_qs(urlsplit(page.url).query)["melds"] == ["777z"]
    assert parse_qs(urlsplit(page.url).query)["hand"] == ["2m"]
    assert loads == []


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans", "en"])
def test_every_tap_keeps_the_page_language_in_the_address_and_the_page(page: Page, lang):
    page.set_viewport_size(PHONE)
    page.goto(f"/?rules=hong-kong&lang={lang}")
    for n, code in enumerate(["1m", "9p", "5z"], 1):
        _tap_tile(page, code, n)
        assert parse_qs(urlsplit(page.url).query)["lang"] == [lang]
        assert page.evaluate("document.documentElement.lang") == lang
    page.locator("#remove-0").click()
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(2)
    assert parse_qs(urlsplit(page.url).query)["lang"] == [lang]
    page.reload()                                         # the permalink holds the same hand
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(2)
    assert page.evaluate("document.documentElement.lang") == lang


def test_without_javascript_the_picker_still_reloads_the_page(browser, base_url):
    context = browser.new_context(java_script_enabled=False, base_url=base_url)
    page = context.new_page()
    page.goto("/?rules=hong-kong&lang=zh-Hant")
    page.locator("#add-1m").click()
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(1)
    assert parse_qs(urlsplit(page.url).query)["lang"] == ["zh-Hant"]
    context.close()


def _two_tap_meld(page: Page, kind: str, code: str, melds: int) -> None:
    """A meld in two taps: its kind, then one tile (a chow: the run's first tile)."""
    page.locator(f"button[name=start][value={kind}]").click()
    expect(page.locator(f"button[name=start][value={kind}]")).to_have_attribute("aria-pressed", "true")
    page.locator(f"#add-{code}").click()
    expect(page.locator(".meld")).to_have_count(melds)


def test_hand_b_with_two_tap_melds_at_390px_without_a_page_load(page: Page):
    loads = _open_on_a_phone(page, "/?rules=hong-kong")
    page.get_by_role("radiogroup", name="Discarder").get_by_label("North", exact=False).check()
    _two_tap_meld(page, "pong", "7z", 1)
    _two_tap_meld(page, "pong", "1z", 2)
    page.locator("button[name=start][value=chow]").click()
    expect(page.locator("#add-8p")).to_be_disabled()           # no chow from an 8
    expect(page.locator("#add-1z")).to_be_disabled()           # nor of honours
    page.locator("#add-1p").click()
    expect(page.locator(".meld")).to_have_count(3)
    for n, code in enumerate(["4s", "5s", "6s", "9m", "9m"], 1):
        _tap_tile(page, code, n)
    expect(page.locator("#result-heading")).to_contain_text("4 fan")
    assert loads == []
    assert page.evaluate("window.__sameDocument") is True
    assert _in_view(page, "#result-heading")
    query = parse_qs(urlsplit(page.url).query)
    assert query["melds"] == ["777z,111z,123p"] and query["hand"] == ["456s99m"]
    assert query["discarder"] == ["N"]


def test_back_steps_back_one_tile_and_undo_takes_back_the_last_tile_in_place(page: Page):
    page.set_viewport_size(PHONE)
    page.goto("/?rules=hong-kong&lang=zh-Hant")
    page.evaluate("window.__sameDocument = true")
    loads = _count_loads(page)
    _two_tap_meld(page, "pong", "7z", 1)
    for n, code in enumerate(["1m", "2m", "3m"], 1):
        _tap_tile(page, code, n)
    page.go_back()                                        # Back: one tile less, in place
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(2)
    assert parse_qs(urlsplit(page.url).query)["hand"] == ["12m"]
    page.go_back()
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(1)
    page.go_forward()
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(2)
    page.locator("#undo").click()                         # Undo: the last tile goes
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(1)
    query = parse_qs(urlsplit(page.url).query)
    assert query["hand"] == ["1m"] and query["melds"] == ["777z"] and query["lang"] == ["zh-Hant"]
    page.locator("#undo").click()                         # then the tile before it
    expect(page.locator("#hand-tiles .empty")).to_have_count(1)
    page.locator("#undo").click()                         # then the meld
    expect(page.locator(".meld")).to_have_count(0)
    assert "melds" not in parse_qs(urlsplit(page.url).query)
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    assert loads == [] and page.evaluate("window.__sameDocument") is True
