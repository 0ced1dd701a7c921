"""'Put this hand on your page' in chromium: Copy puts each text on the clipboard; without
JavaScript the buttons are gone and the texts are there to select."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

RESULT = "/?rules=hong-kong&hand=123m456m789m234p55s&by=self-draw&seat=S"


@pytest.mark.parametrize("path", [RESULT, RESULT.replace("/?", "/card?") + "&ways=1"])
def test_copy_puts_each_way_in_on_the_clipboard(page, base_url, path) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    page.goto(path)
    page.locator("details.ways-in > summary").click()
    for key in ("link", "snippet", "markdown"):
        button = page.locator(f'button.copy[data-copy="way-{key}"]')
        expect(button).to_be_visible()
        button.click()
        expect(button).to_have_text("Copied")
        text = page.locator(f"#way-{key}").input_value()
        assert page.evaluate("navigator.clipboard.readText()") == text
    assert page.locator("#way-markdown").input_value().startswith("```mahjong\nrules=hong-kong ")


def test_without_javascript_the_texts_are_there_to_select(browser, base_url) -> None:
    context = browser.new_context(java_script_enabled=False, base_url=base_url)
    page = context.new_page()
    page.goto(RESULT)
    page.locator("details.ways-in > summary").click()
    expect(page.locator("button.copy")).to_have_count(3)
    for button in page.locator("button.copy").all():
        expect(button).to_be_hidden()
    link = page.locator("#way-link")
    expect(link).to_be_visible()
    assert link.input_value().startswith(f"{base_url}/card?rules=hong-kong&hand=")
    context.close()
