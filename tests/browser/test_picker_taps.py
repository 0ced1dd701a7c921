"""The tile picker at the table, on a 390 px phone with JavaScript on: taps change the form in
place (no page load until the result, which appears in place and in view), the address follows,
and the page keeps its language on every tap."""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urlsplit

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


# --- the five hands of issue 26, tapped at 390 px --------------------------------------------------


@dataclass(frozen=True, slots=True)
class TappedHand:
    """A reference hand as a player taps it, and the same hand typed as a permalink."""

    rules: str
    choices: tuple[tuple[str, str], ...]        # one-tap buttons: (group, label)
    melds: tuple[tuple[str, str], ...]          # two taps each: (kind, its one tile)
    concealed: tuple[str, ...]                  # the tiles tapped in, the winning tile last
    typed: tuple[tuple[str, str], ...]          # the permalink's query, as a typed hand
    selects: tuple[tuple[str, str], ...] = ()   # (field, value), a dropdown (two taps)
    flowers: tuple[str, ...] = ()


def _split(text: str) -> tuple[str, ...]:
    return tuple(text[i:i + 2] for i in range(0, len(text), 2))


FIVE_HANDS = {
    "a": TappedHand("hong-kong", (("How the hand was won", "Self-draw"), ("Winner's seat", "South")),
                    (), _split("1m2m3m4m5m6m7m8m9m2p3p4p5s5s"),
                    (("hand", "123m456m789m234p55s"), ("by", "self-draw"), ("seat", "S"))),
    "b": TappedHand("hong-kong", (("Discarder", "North"),), (("pong", "7z"), ("pong", "1z"), ("chow", "1p")),
                    _split("4s5s6s9m9m"),
                    (("hand", "456s99m"), ("melds", "777z,111z,123p"), ("discarder", "N"))),
    "c": TappedHand("sichuan", (("How the hand was won", "Self-draw"),), (),
                    _split("1m1m2m2m3m3m4m4m5m5m6m6m7m7m"),
                    (("hand", "11223344556677m"), ("by", "self-draw"), ("missing", "p")),
                    selects=(("missing", "p"),)),
    "d": TappedHand("sichuan", (("Discarder", "West"),), (("ckong", "9p"),),
                    _split("1m2m3m4m5m6m7m8m5p5p9m"),
                    (("hand", "123m456m78m55p9m"), ("melds", "ckong:9999p"), ("discarder", "W"),
                     ("missing", "s")),
                    selects=(("missing", "s"),)),
    "e": TappedHand("family", (("How the hand was won", "Self-draw"),), (),
                    _split("1m2m3m4m5m6m7m8m9m1z1z1z5p5p"),
                    (("hand", "123m456m789m111z55p"), ("flowers", "1"), ("flowers", "2"),
                     ("by", "self-draw")),
                    flowers=("1", "2")),
}
JUMP_PX = 1.0   # how far the palette may move on the screen after a tap, before the result


def _watch_navigation(page: Page) -> list[str]:
    """Every document the main frame asks for from now on: a page load, not a pushState
    (Playwright's 'framenavigated' also fires for pushState, so it cannot tell them apart)."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url)
            if r.is_navigation_request() and r.frame == page.main_frame else None)
    return asked


def _palette_top(page: Page) -> float:
    """Where the palette is on the screen (the page's scrolling included)."""
    return page.evaluate("document.querySelector('.palette').getBoundingClientRect().top")


def _held(page: Page) -> int:
    return page.locator("#hand-tiles button[name=remove]").count() + page.locator(".picker .meld").count()


def _outcome(page: Page) -> tuple[str, str, str]:
    """The result's heading, the winner's amount and what was assumed, as the page says them."""
    return (page.locator("#result-heading").inner_text(),
            page.locator("table.payments tr.role-winner td.num").inner_text(),
            page.locator("div.assumed").inner_text() if page.locator("div.assumed").count() else "")


@pytest.mark.parametrize("name", sorted(FIVE_HANDS))
def test_each_reference_hand_tapped_at_390px_scores_in_place_as_its_permalink_does(page: Page, api, name):
    hand = FIVE_HANDS[name]
    loads = _open_on_a_phone(page, f"/?rules={hand.rules}")
    asked = _watch_navigation(page)
    jumps: list[float] = []

    def tap(locator, done) -> None:
        locator.scroll_into_view_if_needed()                 # Playwright's own scrolling first
        before = _palette_top(page)
        locator.click()
        done()
        if page.locator(".result").count() == 0:   # the waits (13 tiles) and the score come into view
            jumps.append(abs(_palette_top(page) - before))

    for group, label in hand.choices:
        tap(page.get_by_role("radiogroup", name=group).get_by_label(label, exact=False),
            lambda: None)
    for field, value in hand.selects:
        page.locator(f"select[name={field}]").select_option(value)
    for flower in hand.flowers:
        tap(page.locator(f"input[name=flowers][value='{flower}']"), lambda: None)
    for kind, code in hand.melds:
        pressed = page.locator(f"button[name=start][value={kind}]")
        tap(pressed, lambda kind=pressed: expect(kind).to_have_attribute("aria-pressed", "true"))
        melds = page.locator(".picker .meld").count()
        tap(page.locator(f"#add-{code}"),
            lambda n=melds + 1: expect(page.locator(".picker .meld")).to_have_count(n))
    for n, code in enumerate(hand.concealed, 1):
        tap(page.locator(f"#add-{code}"),
            lambda n=n: expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(n))
    expect(page.locator("#result-heading")).to_be_visible()
    tapped = _outcome(page)
    assert loads == [] and asked == []                       # no page load, not even the last tap
    assert page.evaluate("window.__sameDocument") is True
    assert _in_view(page, "#result-heading")                 # the result landed in view
    assert max(jumps) <= JUMP_PX, [(n, round(j)) for n, j in enumerate(jumps) if j]   # nothing moved under the thumb
    assert _held(page) == len(hand.concealed) + len(hand.melds)

    query = dict(hand.typed)
    answer = api("/api/score", rules=hand.rules, **{k: ",".join(v for f, v in hand.typed if f == k)
                                                    for k in query})
    assert answer["valid"], answer
    winner = next(p["amount"] for p in answer["payments"] if p["role"] == "winner")
    assert tapped[0].startswith(f"{answer['total_fan']} fan")
    assert int(tapped[1].replace(",", "")) == winner
    typed = page.context.new_page()                          # the same hand as a typed permalink
    typed.goto(f"/?rules={hand.rules}&" + urlencode(hand.typed))
    assert _outcome(typed) == tapped                         # the same fan, amount and assumptions
    typed.close()


def test_a_chow_is_offered_only_from_tiles_that_start_a_run(page: Page):
    page.set_viewport_size(PHONE)
    page.goto("/?rules=hong-kong")
    page.locator("button[name=start][value=chow]").click()
    expect(page.locator("#add-1p")).to_be_enabled()
    expect(page.locator("#add-8p")).to_be_disabled()           # no chow from an 8
    expect(page.locator("#add-1z")).to_be_disabled()           # nor of honours


def test_a_pong_made_and_a_tile_removed_in_place(page: Page):
    page.set_viewport_size(PHONE)
    page.goto("/?rules=hong-kong")
    loads = _count_loads(page)
    _two_tap_meld(page, "pong", "7z", 1)
    _tap_tile(page, "1m", 1)
    _tap_tile(page, "2m", 2)
    page.locator("#remove-0").click()
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(1)
    assert parse_qs(urlsplit(page.url).query)["melds"] == ["777z"]
    assert parse_qs(urlsplit(page.url).query)["hand"] == ["2m"]
    assert page.locator("input[name=target]").count() == 0     # no tile-by-tile meld any more
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
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(0)
    page.locator("#undo").click()                         # then the meld
    expect(page.locator(".meld")).to_have_count(0)
    assert "melds" not in parse_qs(urlsplit(page.url).query)
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    assert loads == [] and page.evaluate("window.__sameDocument") is True


def test_undo_after_a_meld_takes_back_the_meld_in_place(page: Page):
    loads = _open_on_a_phone(page, "/?rules=hong-kong&lang=zh-Hant")
    _tap_tile(page, "1m", 1)
    _tap_tile(page, "2m", 2)
    _two_tap_meld(page, "pong", "7z", 1)
    page.locator("#undo").click()                         # the meld, the last tap, goes
    expect(page.locator(".meld")).to_have_count(0)
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(2)
    page.locator("#undo").click()                         # then the tile before it
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(1)
    assert loads == []


# --- the first screen of a phone ------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@pytest.mark.parametrize("size", [{"width": 360, "height": 740}, {"width": 390, "height": 844}],
                         ids=["360x740", "390x844"])
def test_every_tile_of_the_picker_is_on_the_first_screen_of_a_phone(page: Page, size, lang):
    page.set_viewport_size(size)
    page.goto(f"/?rules=hong-kong&lang={lang}")
    boxes = page.evaluate("""() => [...document.querySelectorAll('.palette button.tile-button')]
        .map(b => { const r = b.getBoundingClientRect(); return [r.top, r.bottom, r.width, r.height]; })""")
    assert len(boxes) == 34
    assert max(bottom for _, bottom, _, _ in boxes) <= size["height"]      # no scrolling to reach one
    assert min(w for _, _, w, _ in boxes) >= MIN_TARGET[0] and min(h for _, _, _, h in boxes) >= MIN_TARGET[1]
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


# A tap target of the palette, wide by tall: nine of a suit share a row, so at 360 px a target is
# a ninth of the row (36.6 px with the page's padding; a phone keyboard's key at that width is
# 36 px a pitch); WCAG 2.5.8 asks 24 x 24. The targets touch, so no tap falls between two tiles.
MIN_TARGET = (36, 44)
PALETTE_ROWS = """() => [...document.querySelectorAll('.palette, .tile-choice')]
    .filter(group => group.checkVisibility())
    .map(group => [...group.querySelectorAll('button[name=add], input[name=tile]')].map(b => {
        const r = (b.closest('label') || b).getBoundingClientRect();
        return [b.value, Math.round(r.top), r.left, r.right, r.width, r.height]; }))"""


@pytest.mark.parametrize("width", [360, 375, 390])
@pytest.mark.parametrize("address", [
    "/?rules=hong-kong&lang=zh-Hant", "/?rules=sichuan&lang=zh-Hans", "/embed?rules=hong-kong",
    "/embed?rules=sichuan&lang=zh-Hans", "/?rules=sichuan&hand=11p&newmeld=pong",
    "/discard?rules=hong-kong", "/round?rules=sichuan&step=win&lang=zh-Hans", "/round?rules=hong-kong&step=kong"])
def test_the_palette_keeps_each_suit_on_a_row_of_its_own_on_a_phone(page: Page, width, address):
    """One row a suit, 1 to 9 left to right, the honours on a row of their own (the winds, then
    the dragons); Sichuan has no honours. Every target whole on the screen, 44 px tall."""
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(address)
    groups = page.evaluate(PALETTE_ROWS)
    assert groups
    sichuan = "sichuan" in address
    for tiles in groups:
        rows: dict[int, list[str]] = {}
        for code, top, *_ in tiles:
            rows.setdefault(top, []).append(code)
        suits = ["".join(sorted({code[-1] for code in row})) for _, row in sorted(rows.items())]
        assert suits == (["m", "p", "s"] if sichuan else ["m", "p", "s", "z"]), rows   # no suit broken
        assert all(len(row) == 9 and row == sorted(row) for row in rows.values() if row[0][-1] != "z")
        assert all(0 <= left and right <= width for _, _, left, right, _, _ in tiles)
        assert min(w for *_, w, _ in tiles) >= MIN_TARGET[0]
        assert min(h for *_, h in tiles) >= MIN_TARGET[1]
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_table_rules_fold_under_their_values_and_open_with_a_tap(page: Page):
    page.set_viewport_size(PHONE)
    page.goto("/?rules=hong-kong&min=5")
    summary = page.locator("details#dials > summary")
    expect(summary).to_contain_text("minimum 5 fan")
    expect(page.get_by_label("Minimum fan")).to_be_hidden()
    summary.click()
    expect(page.get_by_label("Minimum fan")).to_have_value("5")


# --- the keyboard -------------------------------------------------------------------------------


def _active(page: Page) -> str:
    return page.evaluate("document.activeElement.id || document.activeElement.outerHTML.slice(0, 60)")


def test_the_palette_is_one_tab_stop_with_arrow_keys_inside(page: Page):
    page.goto("/?rules=hong-kong&hand=1m")
    page.locator("#add-5m").focus()
    assert page.locator(".palette button[tabindex='0']").count() == 1    # one stop in the tab order
    page.keyboard.press("ArrowRight")
    assert _active(page) == "add-6m"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert _active(page) == "add-4m"
    page.keyboard.press("ArrowDown")                       # the nearest tile of the row below
    below = _active(page)
    assert below != "add-4m" and page.evaluate(
        "document.getElementById('add-4m').getBoundingClientRect().top < "
        "document.activeElement.getBoundingClientRect().top")
    page.keyboard.press("ArrowUp")
    assert _active(page) == "add-4m"
    page.keyboard.press("End")
    assert _active(page) == "add-7z"
    page.keyboard.press("Home")
    assert _active(page) == "add-1m"
    page.keyboard.press("Tab")                             # Tab leaves the palette at once
    assert not page.evaluate("!!document.activeElement.closest('.palette')")
    page.keyboard.press("Shift+Tab")                       # and comes back to the tile it left
    assert _active(page) == "add-1m"
    page.keyboard.press("Enter")                           # a tile by the keyboard, in place
    expect(page.locator("#hand-tiles button[name=remove]")).to_have_count(2)
    expect(page.locator("#add-1m")).to_be_focused()


def test_the_meld_kinds_are_one_tab_stop_with_arrow_keys_inside(page: Page):
    page.goto("/?rules=hong-kong&hand=1m")
    kinds = page.locator(".two-tap button.kind")
    expect(kinds).to_have_count(5)
    assert page.locator(".two-tap button.kind[tabindex='0']").count() == 1   # one stop
    page.locator("#hand-tiles button").last.focus()        # the stop before the kinds
    page.keyboard.press("Tab")
    assert _active(page) == "kind-pong"
    page.keyboard.press("ArrowRight")
    assert _active(page) == "kind-chow"
    page.keyboard.press("ArrowDown")                       # the kinds are one line, wherever it wraps
    assert _active(page) == "kind-kong"
    page.keyboard.press("End")
    assert _active(page) == "kind-akong"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Home")
    assert _active(page) == "kind-pong"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Tab")                             # Tab leaves the row for the palette
    assert page.evaluate("!!document.activeElement.closest('.palette')")
    page.keyboard.press("Shift+Tab")                       # and comes back to the kind it left
    assert _active(page) == "kind-chow"
    page.keyboard.press("Enter")                           # chosen in place, the keyboard stays on it
    expect(page.locator("#kind-chow")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#kind-chow")).to_be_focused()
    assert page.locator(".two-tap button.kind[tabindex='0']").count() == 1


def test_a_row_of_meld_kinds_passes_over_the_kinds_the_tiles_cannot_make(page: Page):
    page.goto("/?rules=hong-kong&hand=5m&melds=111m,222m,333m")   # room for one more meld
    page.goto("/?rules=hong-kong&hand=55s&melds=111m,222m,333m,444m")   # and here for none
    expect(page.locator(".two-tap button.kind:disabled")).to_have_count(5)
    expect(page.locator(".two-tap")).to_contain_text("no room for another meld")
    assert page.locator(".two-tap button.kind[tabindex='0']").count() == 0   # no stop at all


@pytest.mark.parametrize("group, first, second", [("How the hand was won", "On a discard", "Self-draw"),
                                                  ("Winner's seat", "East", "South"),
                                                  ("Discarder", "the next seat", "East")])
def test_each_one_tap_choice_is_one_tab_stop_with_arrow_keys_inside(page: Page, group, first, second):
    page.set_viewport_size(PHONE)
    page.goto("/?rules=hong-kong")
    choices = page.get_by_role("radiogroup", name=group)
    choices.get_by_label(first, exact=False).focus()
    page.keyboard.press("ArrowRight")                      # the arrow moves and chooses
    expect(choices.get_by_label(second, exact=False)).to_be_focused()
    expect(choices.get_by_label(second, exact=False)).to_be_checked()
    page.keyboard.press("Tab")                             # Tab leaves the row at once
    assert not page.evaluate("id => !!document.activeElement.closest('#' + id)", choices.get_attribute("id"))
    page.keyboard.press("Shift+Tab")                       # and comes back to the choice made
    expect(choices.get_by_label(second, exact=False)).to_be_focused()


def test_typed_notation_is_drawn_as_it_is_typed_and_a_mistake_said_at_once(page: Page):
    page.goto("/?rules=hong-kong&lang=zh-Hant")
    field = page.locator("#hand")
    field.press_sequentially("123m4")
    expect(page.locator("#typed-tiles img")).to_have_count(3)
    expect(page.locator("#typed-status")).to_contain_text("後面要寫花色")
    field.press_sequentially("p")
    expect(page.locator("#typed-tiles img")).to_have_count(4)
    expect(page.locator("#typed-status")).to_have_text("4 張牌")
    field.press_sequentially("55555s")
    expect(page.locator("#typed-status")).to_contain_text("五索：已是第五張")   # named in words
    field.fill("12x")
    field.press("End")
    field.press_sequentially("m")
    expect(page.locator("#typed-status")).to_contain_text("x 不是牌的寫法")


def test_hand_a_by_keyboard_alone_in_at_most_25_key_presses(page: Page):
    page.set_viewport_size(PHONE)
    page.goto("/?rules=hong-kong")
    keys = ["Tab", "Enter"]                                # the skip link into the typed hand
    keys += list("123456789m234p55s")
    keys += ["Tab", "Tab", "ArrowRight"]                   # past Score to the way of winning: self-draw
    keys += ["Tab", "ArrowRight"]                          # the seat: South
    keys += ["Enter"]                                      # score
    for key in keys[:-1]:
        page.keyboard.press(key)
    with page.expect_navigation():
        page.keyboard.press(keys[-1])
    assert len(keys) <= 25, len(keys)
    expect(page.locator("#result-heading")).to_contain_text("4 fan")
    query = parse_qs(urlsplit(page.url).query)
    assert query["hand"] == ["123456789m234p55s"] and query["by"] == ["self-draw"] and query["seat"] == ["S"]
    assert "newmeld" not in query and "add" not in query  # Enter scored; no picker button took it
