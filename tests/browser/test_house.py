"""A club's rules built on a phone, shared by its link into a fresh browser, and the same
numbers on the calculator, the game sheet and a card."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
SEVEN_PAIRS = "hand=11m22m33p44p55s66s77z&win=7z&by=self-draw"


def test_a_variant_built_on_a_phone_prices_the_same_everywhere_it_is_shared(page: Page, browser, live_server):
    page.set_viewport_size(PHONE)
    page.goto("/house")
    page.locator("#cap").fill("10")
    row = page.locator("#pattern-seven-pairs")
    row.get_by_role("checkbox").check()
    row.locator("input[name='fan.seven-pairs']").fill("4")
    renamed = page.locator("#pattern-all-pongs")
    renamed.locator("summary").click()
    renamed.locator("input[name='name.all-pongs.en']").fill("Big pongs")
    page.get_by_role("button", name="Make the link").click()
    expect(page.locator(".house-changes")).to_contain_text("Big pongs")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    link = page.locator("#house-link").input_value()
    code = re.search(r"rules=[^&]+&house=[^&]+", link)[0]   # the family and the club's code

    other = browser.new_context(viewport=PHONE, base_url=live_server)   # a fresh phone
    friend = other.new_page()
    answer = json.loads(friend.request.get(f"/api/score?{code}&{SEVEN_PAIRS}").text())
    assert answer["cap"] == 10
    assert {p["id"]: p["fan"] for p in answer["patterns"] if p["counted"]}["seven-pairs"] == 4
    winner = next(p["amount"] for p in answer["payments"] if p["role"] == "winner")

    friend.goto(link + "&" + SEVEN_PAIRS)
    result = friend.locator("section.result")
    expect(result).to_contain_text(f"+{winner}")
    friend.get_by_role("link", name="Add to the sheet").click()
    expect(friend.get_by_role("table", name="Totals", exact=True)).to_contain_text(f"+{winner}")

    friend.goto(f"/card?{code}&{SEVEN_PAIRS}")
    expect(friend.locator("body")).to_contain_text(f"+{winner}")

    family, house = re.fullmatch(r"rules=([^&]+)&house=([^&]+)", code).groups()
    friend.goto(f"/rules/{family}?house={house}")   # the family's worked examples, priced under the cap of 10
    expect(friend.locator("#worked-above-cap")).to_contain_text("(was E +32768")
    assert friend.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    other.close()


def test_the_preview_follows_a_fan_value_as_it_is_typed_without_a_page_load(page: Page, console_errors):
    page.set_viewport_size(PHONE)
    page.goto("/house")
    page.evaluate("window.stillThisPage = true")   # gone if the page were loaded again
    first_link = page.locator("#house-link").input_value()
    row = page.locator("table.house-preview tr", has_text="Little three dragons")
    expect(row.locator("td").nth(2)).to_have_text("5 fan, winner +128")
    page.locator("input[name='fan.small-three-dragons']").fill("6")
    expect(row.locator("td").nth(2)).to_contain_text("6 fan, winner +256")
    expect(row).to_have_class("differs")
    expect(page.locator(".house-changes")).to_contain_text("5 → 6 fan")   # and the link follows
    assert page.locator("#house-link").input_value() != first_link
    expect(row.locator("td").nth(1)).to_have_text("5 fan, winner +128")   # the family's own

    fan = page.locator("input[name='fan.all-pongs']")
    fan.fill("lots")
    expect(page.locator("#err-fan-all-pongs")).to_contain_text("'lots' is not a whole number of fan")
    expect(row.locator("td").nth(2)).to_have_text("—")   # no variant while a field is wrong
    fan.fill("3")
    expect(page.locator("#err-fan-all-pongs")).to_have_count(0)
    expect(row.locator("td").nth(2)).to_contain_text("6 fan")
    assert page.evaluate("window.stillThisPage") is True
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # the preview of a wrong field is answered 400, as the page is, and chromium logs each one
    refused = [e for e in console_errors if "status of 400" in e and "/house/preview" in e]
    assert refused
    console_errors[:] = [e for e in console_errors if e not in refused]


def test_without_javascript_the_house_form_is_sent_and_comes_back_priced(browser, live_server):
    context = browser.new_context(viewport=PHONE, base_url=live_server, java_script_enabled=False)
    page = context.new_page()
    page.goto("/house")
    page.locator("input[name='fan.small-three-dragons']").fill("6")
    row = page.locator("table.house-preview tr", has_text="Little three dragons")
    expect(row.locator("td").nth(2)).to_have_text("5 fan, winner +128")   # until the form is sent
    page.get_by_role("button", name="Make the link").click()
    expect(row.locator("td").nth(2)).to_contain_text("6 fan, winner +256")
    assert "rules=hong-kong&house=1" in page.url
    context.close()


def test_without_javascript_another_family_starts_from_its_own_dials_and_patterns(browser, live_server):
    """Issue 37: a club's changes typed for Hong Kong, then "Start from" set to Sichuan and the
    form sent: Sichuan's own minimum, cap, stake and patterns, not Hong Kong's."""
    from app.rules.loader import registry
    hong_kong, sichuan = registry()["hong-kong"], registry()["sichuan"]
    assert (hong_kong.dials.min, hong_kong.dials.cap) != (sichuan.dials.min, sichuan.dials.cap)
    context = browser.new_context(viewport=PHONE, base_url=live_server, java_script_enabled=False)
    page = context.new_page()
    page.goto("/house")
    page.locator("#cap").fill("10")
    page.locator("#stake").fill("2")
    page.locator("#pattern-all-pongs").get_by_role("checkbox").uncheck()
    page.locator("#base").select_option("sichuan")
    page.get_by_role("button", name="Start from this family").click()
    expect(page.locator("#base")).to_have_value("sichuan")
    expect(page.locator("#min")).to_have_value(str(sichuan.dials.min))
    expect(page.locator("#cap")).to_have_value(str(sichuan.dials.cap))
    expect(page.locator("#stake")).to_have_value(str(sichuan.dials.stake))
    boxes = page.locator(".house-pattern input[type=checkbox]")
    expect(boxes).to_have_count(len(sichuan.patterns))
    for p in sichuan.patterns:
        box = page.locator(f"#pattern-{p.id}").get_by_role("checkbox")
        expect(box).to_be_checked(checked=not p.optional)
        expect(page.locator(f"input[name='fan.{p.id}']")).to_have_value(str(p.fan))
    expect(page.locator(".house-changes")).to_have_count(0)   # nothing differs from Sichuan

    page.locator("#stake").fill("0.5")   # and a stake that is not whole makes its link
    page.get_by_role("button", name="Make the link").click()
    assert "rules=sichuan&house=1" in page.url
    expect(page.locator("#stake")).to_have_value("0.5")
    expect(page.locator(".house-changes")).to_contain_text("1 → 0.5")
    page.locator("#stake").fill("half")
    page.get_by_role("button", name="Make the link").click()
    expect(page.locator("#err-stake")).to_contain_text("'half' is not a stake")
    expect(page.locator("#stake")).to_have_value("half")
    context.close()
