"""A shared sheet's changes at a table with a bad network, in chromium at 360 px, on SQLite and
PostgreSQL: the tapped button says it is saving at once and cannot be tapped twice; a change
waits in a queue shown right after the button, in words, until the calculator itself answers
it — a Wi-Fi sign-in page's 200, a proxy's 502 or a lost answer keeps it, says the send failed,
and sending it again records it once (a loopback proxy plays the network: tests/flaky_proxy.py)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from app.store.database import open_database
from tests.browser.test_sheet import PHONE, table
from tests.flaky_proxy import FlakyProxy
from tests.waiting import stop_group, wait_for
from tests.web.test_stored_servers import NIGHT, _json, _post, _serve

pytestmark = pytest.mark.browser

LINE = "hand=123456789m234p55s seat=W discarder=E"
SAID = "Add it: Cy (W) won on Ann's discard, 3 fan"     # LINE in words, at the night's seats
NOT_SENT = "Not sent: something other than the calculator answered ({status})"
NO_NETWORK = "Not sent yet: no network"


@pytest.fixture
def night(database_env):
    """A server on this database behind a loopback proxy, and a shared sheet of one hand."""
    proc, url = _serve(database_env, workers=1)
    try:
        with FlakyProxy(url) as proxy:
            status, edit = _post(url + "/sheet/share", NIGHT)
            assert status == 303
            yield proxy, edit
    finally:
        stop_group(proc)


def _phone(browser: Browser, proxy: FlakyProxy) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport=PHONE, base_url=proxy.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []   # the failed sends' own "Failed to load resource" are the test's doing
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text)
            if msg.type == "error" and "Failed to load resource" not in msg.text else None)
    return page, errors


def _hands_on_the_server(proxy: FlakyProxy, edit: str) -> int:
    return len(_json(proxy.url + edit + ".json")["hands"])


def _rows(page: Page):
    return table(page, "Running totals").locator("tbody tr")


def test_the_button_says_saving_at_once_and_a_second_tap_records_nothing(browser, night):
    proxy, edit = night
    page, errors = _phone(browser, proxy)
    page.goto(f"{edit}?add={LINE}")
    expect(_rows(page)).to_have_count(1)
    # two taps in one go: what the button says right after the first, and what the second did
    seen = page.evaluate("""() => {
        const button = document.getElementById("confirm");
        button.click();
        const after = [button.disabled, button.getAttribute("aria-busy"), button.textContent.trim()];
        button.click();
        document.getElementById("confirm-form").requestSubmit();
        return after;
    }""")
    assert seen == [True, "true", "Saving…"]
    expect(_rows(page)).to_have_count(2)
    expect(page.locator("#pending")).to_be_hidden()
    assert proxy.changes_seen == 1 and _hands_on_the_server(proxy, edit) == 2
    page.reload()
    expect(_rows(page)).to_have_count(2)
    assert errors == []


def test_offline_the_change_waits_beside_the_button_in_words_and_is_sent_once_back_online(browser, night):
    proxy, edit = night
    page, errors = _phone(browser, proxy)
    page.goto(f"{edit}?add={LINE}")
    expect(_rows(page)).to_have_count(1)
    page.context.set_offline(True)
    page.locator("#confirm").click()
    box = page.locator("#pending")
    expect(box).to_be_visible()
    expect(box).to_be_in_viewport()               # near the thumb, not a screen below
    assert page.evaluate("document.getElementById('pending').previousElementSibling.id") == "confirm-form"
    expect(page.locator("#pending-list li")).to_have_count(1)
    item = page.locator("#pending-list li").inner_text()
    assert item.startswith(SAID) and NO_NETWORK in item and "hand=" not in item
    expect(page.locator("#confirm")).to_be_disabled()
    page.context.set_offline(False)
    expect(_rows(page)).to_have_count(2)
    expect(box).to_be_hidden()
    assert _hands_on_the_server(proxy, edit) == 2
    assert page.evaluate("window.localStorage.getItem('mahjong-calculator:pending-changes')") == "[]"
    assert errors == []


@pytest.mark.parametrize("mode, status", [("portal", "200"), ("bad-gateway", "502"), ("drop", "")])
def test_an_answer_not_the_calculators_keeps_the_change_says_so_and_a_resend_records_it_once(
        browser, night, mode, status):
    proxy, edit = night
    page, errors = _phone(browser, proxy)
    page.goto(f"{edit}?add={LINE}")
    expect(_rows(page)).to_have_count(1)
    proxy.mode = mode
    page.locator("#confirm").click()
    failed = page.locator("#pending-list li .send-failed")
    expect(failed).to_have_count(1)
    said = NOT_SENT.format(status=status) if status else NO_NETWORK
    expect(failed).to_contain_text(said)
    expect(page.locator("#pending-list li")).to_contain_text(SAID)
    expect(page.locator("#pending")).to_be_in_viewport()
    expect(_rows(page)).to_have_count(1)           # nothing pretended: the page still shows one hand
    # a lost answer: the server made the change; a portal or a 502: it never saw it
    assert _hands_on_the_server(proxy, edit) == (2 if mode == "drop" else 1)
    proxy.mode = "pass"
    page.locator("#pending-send").click()
    expect(_rows(page)).to_have_count(2)
    expect(page.locator("#pending")).to_be_hidden()
    assert _hands_on_the_server(proxy, edit) == 2   # once, however often it was sent
    page.reload()
    expect(_rows(page)).to_have_count(2)
    assert errors == []


def test_share_this_table_is_disabled_at_its_first_tap(page):
    page.set_viewport_size(PHONE)
    page.goto("/sheet?rules=hong-kong&names=Ann,Bob,Cy,Di&hands=hand%3D123456789m234p55s+by%3Dself-draw")
    with page.expect_navigation():
        seen = page.evaluate("""() => {
            const button = document.getElementById("share");
            button.click();
            return [button.disabled, button.getAttribute("aria-busy")];
        }""")
    assert seen == [True, "true"]
    expect(page.locator("#view-link")).to_be_visible()
    page.go_back()
    expect(page.locator("#share")).to_be_enabled()


def test_a_share_whose_answer_was_lost_is_sent_again_as_the_same_share(browser, night, database_env):
    proxy, _ = night
    page, errors = _phone(browser, proxy)
    address = "/sheet?rules=hong-kong&names=Ann,Bob,Cy,Di&hands=hand%3D123456789m234p55s+by%3Dself-draw"
    page.goto(address)
    proxy.mode = "drop"                 # the server makes the sheet; its answer never arrives
    page.locator("#share").click(no_wait_after=True)
    assert wait_for(lambda: _sheets(database_env), lambda n: n == 2, 20) == 2   # the night's and this one
    proxy.mode = "pass"
    page.goto(address)                  # the player opens the page again and taps once more
    with page.expect_navigation(url=re.compile(r"/s/[A-Za-z0-9_-]{24}")):
        page.locator("#share").click()
    expect(page.locator("#view-link")).to_be_visible()
    assert _sheets(database_env) == 2   # the same share: its sheet, not a second one
    assert [e for e in errors if "ERR_EMPTY_RESPONSE" not in e] == []


def _sheets(database_env) -> int:
    with open_database(database_env).transaction() as cur:
        cur.execute("SELECT COUNT(*) FROM sheets")
        return cur.fetchone()[0]


def test_a_removal_waiting_for_the_network_shows_at_the_bottom_of_the_screen(browser, night):
    proxy, edit = night
    page, errors = _phone(browser, proxy)
    page.goto(edit)
    expect(_rows(page)).to_have_count(1)
    proxy.mode = "bad-gateway"
    page.get_by_role("button", name="Remove hand 1").click()
    box = page.locator("#pending")
    expect(box).to_be_in_viewport()
    expect(page.locator("#pending-list li")).to_contain_text("Remove hand 1: Ann (E) self-drew, 4 fan")
    expect(page.locator("#pending-list li")).to_contain_text(NOT_SENT.format(status="502"))
    bottom = box.bounding_box()
    assert bottom["y"] + bottom["height"] <= PHONE["height"] and bottom["y"] >= PHONE["height"] / 2
    proxy.mode = "pass"
    page.locator("#pending-send").click()
    expect(_rows(page)).to_have_count(0)
    expect(box).to_be_hidden()
    assert _hands_on_the_server(proxy, edit) == 0
    assert errors == []
