"""Accessibility in a real browser: axe-core finds no violation, the tile picker works with
the keyboard alone, every tile image is named, and a 360 px phone never scrolls sideways.

axe-core comes inside the axe-playwright-python package and is injected from that file: the
tests check that no page loads anything from another origin while they run.
"""
from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from app.hands.tiles import TILES
from app.web.table.rounds import EXAMPLE as ROUND_EXAMPLE

pytestmark = pytest.mark.browser

HAND = "123m456m789m234p55s"
PAGES = {
    "calculator": "/?rules=hong-kong",
    "result": f"/?rules=hong-kong&hand={HAND}&discarder=N",
    "result-sichuan": "/?rules=sichuan&hand=111p123p777p789p55p&by=self-draw&missing=m&won=N",
    "result-melds": "/?rules=hong-kong-course&hand=123m789m55s&melds=777p,ckong:5555z&by=self-draw"
                    "&flowers=13&events=kong-replacement",
    "waits": "/?rules=hong-kong&hand=123m456m789m234p5s",
    "errors": "/?rules=hong-kong&hand=123m456x&melds=12m&stake=-1",
    "picker-draft": "/?rules=hong-kong&hand=123m&draft=77m&target=meld",
    "ticks": "/ticks?rules=hong-kong-course&ticks=half-flush,dragon-pong&n.dragon-pong=2",
    "rules": "/rules/",
    "ruleset": "/rules/hong-kong-course",
    "ruleset-sichuan": "/rules/sichuan",
    "embed": "/embed?rules=hong-kong-course",
    "embed-result": f"/embed?rules=hong-kong-course&hand={HAND}&by=self-draw&seat=S",
    "card": f"/card?rules=hong-kong&hand={HAND}&by=self-draw&seat=S",
    "card-dark": "/card?rules=sichuan&hand=111p123p777p789p55p&by=self-draw&theme=dark",
    "card-error": "/card?rules=hong-kong&hand=123m9z",
    "quiz": "/embed/practice?" + urlencode([("rules", "hong-kong"), ("hands", HAND),
                                            ("hands", "111m222p333s444z55z"), ("ask", "breakdown")]),
    "not-found": "/nope",
    "round": "/round",
    "round-ledger": "/round?" + urlencode({"rules": "sichuan", "round": ROUND_EXAMPLE}),
    "round-step": "/round?" + urlencode({"rules": "sichuan", "round": ROUND_EXAMPLE, "step": "win",
                                         "hand": "123s456s7s", "target": "meld", "draft": "99s"}),
    "sheet": "/sheet",
    "sheet-night": "/sheet?" + urlencode({"rules": "hong-kong", "names": "Ann,Bob,Cy,Di", "hands": "\n".join([
        "hand=123456789m234p55s by=self-draw", "hand=123456789m234p55s seat=S discarder=N at=2341",
        "hand=123m"])}),
}
NAME_BY_CODE = {t.code: t.label for t in TILES}


@pytest.fixture
def requests_seen(page: Page) -> list[str]:
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    return urls


@pytest.fixture(scope="session")
def axe() -> Axe:
    return Axe()   # reads axe.min.js from the package, nothing from the network


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_violation(page: Page, axe: Axe, live_server, requests_seen, console_errors,
                                name):
    response = page.goto(PAGES[name])
    assert response is not None
    page.wait_for_load_state("load")
    refused = {"not-found": 404, "card-error": 400}
    if name in refused:   # the refusal itself is the one console error these pages may have
        assert response.status == refused[name]
        console_errors[:] = [e for e in console_errors if f"status of {refused[name]}" not in e]
    results = axe.run(page)
    violations = results.response["violations"]
    report = "\n".join(f"{v['id']} ({v['impact']}): {v['help']} — "
                       + "; ".join(", ".join(n["target"]) for n in v["nodes"][:5])
                       for v in violations)
    assert results.violations_count == 0, f"{name}: {report}"
    assert results.response["testEngine"]["name"] == "axe-core"
    foreign = [u for u in requests_seen if not u.startswith(live_server) and not u.startswith("data:")]
    assert foreign == [], f"requests outside the app: {foreign}"


@pytest.mark.parametrize("name", ["result", "result-melds", "waits", "picker-draft", "embed-result"])
def test_every_tile_image_is_named_for_screen_readers(page: Page, name):
    page.goto(PAGES[name])
    folded = page.locator("details:not([open]) > summary")
    while folded.count():   # the embed view folds the picker and the grouping away: open them
        folded.first.click()
    images = page.locator("img.tile")
    assert images.count() > 0
    for i in range(images.count()):
        image = images.nth(i)
        code = re.search(r"/tiles/sprite\.svg\?v=[0-9a-f]+#t([a-z0-9]+)$", image.get_attribute("src"))[1]
        expect(image).to_have_accessible_name(NAME_BY_CODE[code])
    # every tile button says what it does to which tile
    buttons = page.locator("button.tile-button")
    for i in range(buttons.count()):
        expect(buttons.nth(i)).to_have_accessible_name(re.compile(r"^(Add|Remove) .+"))


def test_the_tile_images_in_a_grouping_read_as_tiles(page: Page):
    page.goto(PAGES["result"])
    grouping = page.get_by_label("Grouping")
    expect(grouping.get_by_role("img", name="5 Bamboo 五索")).to_have_count(2)
    expect(grouping.get_by_role("img", name="1 Characters 一萬")).to_have_count(1)


# --- the tile picker with the keyboard alone ---------------------------------------------------


def _focused(page: Page, selector: str) -> bool:
    return page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector)


def _tab_to(page: Page, selector: str, limit: int = 300, back: bool = False) -> None:
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        if _focused(page, selector):
            return
    raise AssertionError(f"the keyboard never reached {selector}")


def _arrow_to(page: Page, code: str) -> None:
    """Into the palette, one stop in the tab order, then along it with the arrow keys."""
    if not page.evaluate("!!document.activeElement.closest('.palette')"):
        _tab_to(page, ".palette button[name=add]")
    for _ in range(40):
        if _focused(page, f".palette button[name=add][value='{code}']"):
            return
        page.keyboard.press("ArrowLeft" if page.evaluate(
            "s => [...document.querySelectorAll('.palette button:not([disabled])')].findIndex("
            "b => b.value === s) < [...document.querySelectorAll('.palette button:not([disabled])')]"
            ".indexOf(document.activeElement)", code) else "ArrowRight")
    raise AssertionError(f"the arrow keys never reached {code}")


def _press_palette_tile(page: Page, code: str, count: int, key: str = "Enter") -> None:
    _arrow_to(page, code)
    page.keyboard.press(key)
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(count)


def test_a_whole_hand_is_built_and_scored_with_the_keyboard_alone(page: Page, api):
    page.goto("/?rules=hong-kong")
    page.locator("body").focus()
    hand_tiles = page.locator("#hand-tiles button[name=remove]")

    # one meld in two presses of Enter: its kind, then its tile (the palette's arrow keys)
    _tab_to(page, "button[name=start][value=pong]")
    page.keyboard.press("Enter")
    expect(page.locator("button[name=start][value=pong]")).to_have_attribute("aria-pressed", "true")
    _arrow_to(page, "7z")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Declared melds")).to_have_value("777z")

    # eleven concealed tiles, one of them by mistake and taken out again
    for n, code in enumerate(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "9s", "9p"], 1):
        _press_palette_tile(page, code, n, key="Space" if code == "9p" else "Enter")
    expect(hand_tiles).to_have_count(11)
    _tab_to(page, "#hand-tiles button[aria-label^='Remove 9 Dots']", back=True)
    page.keyboard.press("Enter")
    expect(hand_tiles).to_have_count(10)
    expect(page.get_by_label("Hand: concealed tiles")).to_have_value("123m456p7899s")

    # the winning tile makes 14 and scores in place
    _press_palette_tile(page, "9s", 11)
    expect(page.get_by_label("Hand: concealed tiles")).to_have_value("123m456p78999s")
    want = api("/api/score", rules="hong-kong", hand="123m456p78999s", melds="777z")
    assert want["valid"], want
    total = page.locator("table", has=page.locator("caption", has_text="Fan breakdown")).locator("tfoot td.num")
    expect(total).to_have_text(str(want["total_fan"]))


def test_focus_is_always_visible_on_picker_buttons(page: Page):
    page.goto("/?rules=hong-kong&hand=123m")
    _tab_to(page, ".palette button[name=add]")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", ""), outline


# --- phone width ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["calculator", "result", "result-sichuan", "result-melds", "waits",
                                  "errors", "picker-draft", "ticks", "embed-result", "ruleset",
                                  "round", "round-ledger", "round-step", "sheet", "sheet-night"])
def test_no_horizontal_scrolling_at_360_px(page: Page, name):
    assert_fits_a_phone(page, PAGES[name])


def assert_fits_a_phone(page: Page, url: str) -> None:
    """At 360 px the page never scrolls sideways (a wide table scrolls in its own box)."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(url)
    page.wait_for_load_state("load")
    widths = page.evaluate("""() => {
      const inScroller = e => {   // inside a box that scrolls on its own (a wide table)
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
          if (["auto", "scroll", "hidden"].includes(getComputedStyle(a).overflowX)) return true;
        }
        return false;
      };
      return {
        doc: document.documentElement.scrollWidth, body: document.body.scrollWidth,
        view: document.documentElement.clientWidth,
        wide: [...document.querySelectorAll('body *')]
              .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5
                           && !inScroller(e))
              .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))
    }; }""")
    assert widths["doc"] <= widths["view"] and widths["body"] <= widths["view"], widths
    assert widths["wide"] == [], widths
