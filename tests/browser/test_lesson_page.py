"""A lesson page on another site: one-line embeds (three cards, a quiz, the calculator) and an
oEmbed answer placed on a page. Every frame fits its content, with no scrollbar inside, before
and after the learner uses it; no console errors; axe finds nothing inside any frame."""
from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Frame, Page, expect

from tests.waiting import fitted_frame

pytestmark = pytest.mark.browser

HAND = "123m456m789m234p55s"
CARD = f"/card?rules=hong-kong&hand={HAND}&by=self-draw&seat=S"
HOLDERS = ("#card-1", "#card-2", "#card-3", "#quiz", "#calculator")


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


def frame_in(page: Page, holder: str) -> Frame:
    """The frame embed.js made inside a holder, scrolled into view (it loads lazily) and loaded."""
    element = page.locator(f"{holder} iframe")
    expect(element).to_have_count(1)
    element.scroll_into_view_if_needed()
    frame = element.element_handle().content_frame()
    assert frame is not None
    expect(page.frame_locator(f"{holder} iframe").locator("main")).to_be_visible()
    frame.wait_for_load_state("load")
    return frame


def assert_fits(page: Page, holder: str, frame: Frame) -> int:
    """Wait until the frame is as tall as its page says; no scrollbar either way inside."""
    iframe = page.locator(f"{holder} iframe")
    height, content = fitted_frame(page, frame,
                                   lambda: iframe.evaluate("f => f.getBoundingClientRect().height"),
                                   lambda height, content: abs(height - content) <= 2)
    assert abs(height - content) <= 2, f"{holder}: frame {height}px, its page {content}px"
    sizes = frame.evaluate("[document.documentElement.scrollHeight, window.innerHeight,"
                           " document.documentElement.scrollWidth, window.innerWidth]")
    assert sizes[0] <= sizes[1] + 1, f"{holder}: scrolls down inside: {sizes}"
    assert sizes[2] <= sizes[3], f"{holder}: scrolls sideways inside: {sizes}"
    return content


def assert_axe_clean(axe: Axe, frame: Frame, name: str) -> None:
    results = axe.run(frame)
    report = "\n".join(f"{v['id']} ({v['impact']}): {v['help']} — "
                       + "; ".join(", ".join(n["target"]) for n in v["nodes"][:5])
                       for v in results.response["violations"])
    assert results.violations_count == 0, f"{name}: {report}"


def api_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def test_one_line_embeds_become_titled_lazy_frames_that_fit_and_pass_axe(page: Page, lesson_site,
                                                                         live_server, axe):
    page.goto(f"{lesson_site}/cards.html")
    for holder in HOLDERS:
        iframe = page.locator(f"{holder} iframe")
        expect(iframe).to_have_attribute("loading", "lazy")
        expect(iframe).to_have_attribute("title", re.compile(r"^Mahjong "))
        expect(iframe).to_have_attribute("src", re.compile("^" + re.escape(live_server)))
    for holder in HOLDERS:
        frame = frame_in(page, holder)
        assert_fits(page, holder, frame)
        assert_axe_clean(axe, frame, holder)
    card = page.frame_locator("#card-1 iframe")
    expect(card.get_by_role("link", name="Open in the calculator")).to_have_attribute("target", "_blank")
    expect(card.locator("form")).to_have_count(0)


def test_the_quiz_and_the_calculator_still_fit_after_the_learner_uses_them(page: Page, lesson_site,
                                                                           live_server, axe):
    page.goto(f"{lesson_site}/cards.html")
    quiz = frame_in(page, "#quiz")
    before = assert_fits(page, "#quiz", quiz)
    want = api_json(f"{live_server}/api/score?rules=hong-kong&hand={HAND}&by=self-draw")
    inside = page.frame_locator("#quiz iframe")
    inside.get_by_label("Total fan").fill(str(want["total_fan"]))
    inside.get_by_role("button", name="Check my count").click()
    expect(inside.locator("#verdict-heading")).to_contain_text("Right.")
    after = assert_fits(page, "#quiz", quiz)
    assert after > before                      # the verdict and breakdown came in
    assert_axe_clean(axe, quiz, "quiz with a verdict")
    expect(inside.locator("#record")).to_contain_text("1 / 1")

    calc = frame_in(page, "#calculator")
    empty = assert_fits(page, "#calculator", calc)
    inside = page.frame_locator("#calculator iframe")
    inside.get_by_label("Hand: concealed tiles").fill(HAND)
    inside.get_by_role("button", name="Score", exact=True).first.click()
    expect(inside.locator("#result-heading")).to_be_visible()
    folded = assert_fits(page, "#calculator", calc)
    assert folded < empty                      # the form folded under "Change the hand"
    assert_axe_clean(axe, calc, "calculator with a result")
    inside.get_by_text("Change the hand").click()
    expect(inside.get_by_label("Hand: concealed tiles")).to_be_visible()
    assert assert_fits(page, "#calculator", calc) > folded


def test_cards_fit_a_phone_without_scrolling_sideways(page: Page, lesson_site):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{lesson_site}/cards.html")
    for holder in ("#card-1", "#card-2", "#card-3"):
        assert_fits(page, holder, frame_in(page, holder))


TYPICAL = [CARD, "/card?rules=hong-kong&hand=111m222p333s444z55z",
           "/card?rules=hong-kong-course&hand=123m789m55s&melds=777p,ckong:5555z&by=self-draw"
           "&flowers=13&events=kong-replacement",
           "/card?rules=sichuan&hand=111p123p777p789p55p&by=self-draw&theme=dark"]


@pytest.mark.parametrize("card", TYPICAL)
def test_a_typical_card_is_at_most_700px_tall_at_600px_and_never_scrolls_sideways_at_360(
        page: Page, card):
    for width in (600, 360):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(card)
        height, scroll_width = page.evaluate(
            "[document.documentElement.getBoundingClientRect().height,"
            " document.documentElement.scrollWidth]")
        if width == 600:
            assert height <= 700, f"{height}px at 600px"
        assert scroll_width <= width, f"{scroll_width}px wide at {width}px"


def test_the_oembed_answer_for_a_result_shows_the_same_card(page: Page, lesson_site, live_server,
                                                           axe):
    permalink = f"{live_server}/?rules=hong-kong&hand={HAND}&by=self-draw&seat=S"
    answer = api_json(f"{live_server}/oembed?" + urllib.parse.urlencode(
        {"url": permalink, "format": "json"}))
    assert answer["type"] == "rich"
    page.goto(CARD)
    card_text = page.locator("main").inner_text()

    page.goto(f"{lesson_site}/blank.html")
    page.evaluate("""html => {
        const slot = document.getElementById("slot");
        slot.innerHTML = html;   // as an editor pastes it: the script element does not run
        const dead = slot.querySelector("script");
        const script = document.createElement("script");
        script.src = dead.src;
        dead.replaceWith(script);
    }""", answer["html"])
    frame = frame_in(page, "#slot")
    assert frame.locator("main").inner_text() == card_text
    assert_fits(page, "#slot", frame)
    # the plain link before the frame, for a consumer that shows none, goes once it speaks
    expect(page.locator("#slot blockquote a")).to_have_attribute("href", permalink)
    expect(page.locator("#slot blockquote")).to_be_hidden()
    assert_axe_clean(axe, frame, "oEmbed card")


@pytest.mark.parametrize("holder, lang, title", [
    ("#card-hk", "zh-Hant", "麻雀手牌卡片：123m456m789m234p55s"),
    ("#card-cn", "zh-Hans", "麻将手牌卡片：111p123p777p789p55p"),
    ("#card-en", "en", "Mahjong hand card: 111m222p333s444z55z"),
    ("#quiz-hk", "zh-Hant", "麻雀測驗：計番"),
])
def test_a_chinese_lesson_gets_frames_in_its_own_language(page: Page, lesson_site, holder, lang,
                                                          title):
    page.goto(f"{lesson_site}/cards-zh.html")
    iframe = page.locator(f"{holder} iframe")
    expect(iframe).to_have_attribute("title", title)
    expect(iframe).to_have_attribute("src", re.compile(rf"[?&]lang={lang}(&|$)"))
    frame = frame_in(page, holder)
    assert frame.locator("html").get_attribute("lang") == lang
    assert_fits(page, holder, frame)


@pytest.mark.parametrize("views", [["toString", "__proto__", "constructor", "hasOwnProperty", "nope", "card"]],
                         ids=["prototype-names"])
def test_an_unknown_data_view_is_a_card_and_stops_no_embed_after_it(page: Page, lesson_site, live_server,
                                                                    views):
    page.goto(f"{lesson_site}/blank.html")
    page.evaluate("""([origin, views, hand]) => {
        for (const [i, view] of views.entries()) {
            const holder = document.createElement("div");
            holder.id = "odd-" + i;
            holder.setAttribute("data-mahjong", "rules=hong-kong&hand=" + hand);
            holder.setAttribute("data-view", view);
            document.body.appendChild(holder);
        }
        const script = document.createElement("script");
        script.src = origin + "/static/embed.js";
        document.body.appendChild(script);
    }""", [live_server, views, HAND])
    for i in range(len(views)):
        iframe = page.locator(f"#odd-{i} iframe")
        expect(iframe).to_have_count(1)
        expect(iframe).to_have_attribute("src", f"{live_server}/card?rules=hong-kong&hand={HAND}")
        expect(iframe).to_have_attribute("title", f"Mahjong hand card: {HAND}")
