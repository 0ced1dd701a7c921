"""On a real WordPress (Debian's package, tests/wordpress.py): a lesson author pastes calculator
links, and every one becomes a working figure, with WordPress's own oEmbed filter and sandbox:
the results, cards, calculator, quizzes and discard pages, a rules page's worked example, fan to
payment (page and embed), a table's own rules and a shared sheet's view link. A sheet's edit link stays a plain link: no
frame, and its token in no oEmbed answer WordPress keeps.

The posts are saved as the block editor saves an embed block (and one as a classic-editor post,
the link alone on a line), by a user with the Author role, so kses filters them as it would.
Each post is read in chromium at a phone's and a desktop's width: the link became a visible
frame, it fits its content (no scrollbar inside, no gap over 8 px, within wp-embed.js's 1000 px),
the page never scrolls sideways on the phone, and the frame works: a changed hand is scored,
a quiz is answered and its breakdown shown, the fan to payment widget moved, the language
switched, and no console error comes from embed.js (WordPress's or ours) or any other script.
The block editor's preview (`/wp-json/oembed/1.0/proxy`, as the Author) answers 200 with the
frame.
"""
from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from urllib.parse import urlencode, urlsplit

import pytest
from playwright.sync_api import Frame, Locator, Page, expect

from app.rules.house import House, encode, split
from tests.browser.club_site import MEMBERS, played_club
from tests.waiting import CONTENT_HEIGHT, wait_for
from tests.wordpress import AUTHOR, WordPress

pytestmark = pytest.mark.browser

HAND = "123m456m789m234p55s"
HOUSE = dict(zip(("rules", "house"), split(encode(House("hong-kong", dials=(("cap", 10),)))),
                 strict=True))   # cap 10: rules=hong-kong&house=<code>
VIEW_LINK = "{view link}"   # a shared sheet's view link, made when the site starts
NIGHT = {"rules": "hong-kong", "names": "Ann,Bob,Cy,Di", "hands": "\n".join([
    "hand=123456789m234p55s by=self-draw", "hand=123456789m234p55s seat=S discarder=N",
    "hand=123456789m234p55s by=self-draw seat=W", "hand=123456789m234p55s seat=N discarder=S"])}
# One post per view: the address a lesson author copies from the calculator, and how it is saved.
VIEWS = {
    "card": (f"/card?rules=hong-kong&hand={HAND}&by=self-draw&seat=S", "block"),
    "result": (f"/?rules=hong-kong&hand={HAND}&by=self-draw&seat=S", "classic"),
    "chinese-card": ("/card?rules=hong-kong&hand=111m222p333s444z55z&lang=zh-Hant", "block"),
    "embed": ("/embed?rules=hong-kong", "block"),
    "quiz": ("/practice?rules=hong-kong&level=patterns&seed=wordpress&n=1", "block"),
    "discard": ("/discard?rules=hong-kong&hand=123m456p789s11z22z7z&seen=1z", "block"),
    "discard-quiz": ("/practice/discard?rules=hong-kong&seed=wordpress&n=1", "block"),
    "worked-example": ("/rules/hong-kong?example=mixed-terminals", "classic"),
    "points": ("/points?rules=hong-kong&fan=5&discarder=S", "block"),
    "points-embed": ("/embed/points?rules=sichuan&fan=3&lang=zh-Hant", "classic"),
    "house": (f"/house?{urlencode(HOUSE)}", "block"),
    "sheet-view": (VIEW_LINK, "block"),
    # a club's own site shows its table and a member's card: the club's view link (tests/browser/club_site.py)
    "club-standings": ("{view}/standings", "block"),
    "club-member": ("{view}/members/1", "classic"),
}
WIDTHS = (390, 1280)
MOST = 1000   # wp-embed.js clamps a frame's height to 200-1000 px
GAP = 8
CONTENT = ".wp-block-post-content"   # the post's text in WordPress's default theme


def block_post(url: str) -> str:
    """An embed block as the block editor saves it: the attributes as JSON with `&`, `<`, `>`
    and `--` escaped (serializeAttributes), the address as text in the wrapper."""
    attrs = json.dumps({"url": url, "type": "rich", "providerNameSlug": "mahjong-scoring-calculator",
                        "responsive": True}, separators=(",", ":"))
    for char, code in (("--", "\\u002d\\u002d"), ("<", "\\u003c"), (">", "\\u003e"),
                       ("&", "\\u0026")):
        attrs = attrs.replace(char, code)
    slug = "mahjong-scoring-calculator"
    return (f"<!-- wp:paragraph -->\n<p>Score this hand yourself:</p>\n<!-- /wp:paragraph -->\n\n"
            f"<!-- wp:embed {attrs} -->\n"
            f'<figure class="wp-block-embed is-type-rich is-provider-{slug} wp-block-embed-{slug}">'
            f'<div class="wp-block-embed__wrapper">\n{url.replace("&", "&amp;")}\n</div></figure>\n'
            f"<!-- /wp:embed -->\n\n"
            f"<!-- wp:paragraph -->\n<p>Then read on.</p>\n<!-- /wp:paragraph -->")


def classic_post(url: str) -> str:
    """A classic-editor post: paragraphs, the address alone on a line."""
    return f"Score this hand yourself:\n\n{url}\n\nThen read on."


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def shared_sheet(live_server: str) -> tuple[str, str]:
    """A night shared on the calculator: its (edit link, view link) paths."""
    try:
        urllib.request.build_opener(_NoRedirect).open(
            f"{live_server}/sheet/share", urlencode(NIGHT).encode(), timeout=30)
        raise AssertionError("sharing a sheet answered no redirect")
    except urllib.error.HTTPError as answer:
        assert answer.code == 303, answer.code
        edit = urlsplit(answer.headers["Location"]).path
    with urllib.request.urlopen(live_server + edit, timeout=30) as page:
        view = re.search(r'href="(/s/[A-Za-z0-9_-]+)" id="view-link"', page.read().decode())
    assert view is not None
    return edit, view[1]


@pytest.fixture(scope="module")
def wordpress(live_server):
    """Debian's WordPress on loopback, its posts published by an Author: {view: post address};
    `paths` the calculator addresses pasted, `edit_link` a sheet's, pasted in a post of its own."""
    site = WordPress(provider_port=urlsplit(live_server).port).start()
    try:
        site.club = played_club(live_server)
        site.edit_link, view_link = shared_sheet(live_server)
        site.paths = {name: path.replace(VIEW_LINK, view_link).format(**site.club)
                      for name, (path, _) in VIEWS.items()}
        posts = {}
        for name, (_, editor) in VIEWS.items():
            url = live_server + site.paths[name]
            content = block_post(url) if editor == "block" else classic_post(url)
            posts[name] = site.publish_as_author(f"Lesson: {name}", content)
        posts["edit-link"] = site.publish_as_author(
            "Our night", block_post(live_server + site.edit_link))
        site.posts = posts
        yield site
    finally:
        site.stop()


def embedded(page: Page, live_server: str) -> tuple[Locator, Frame]:
    """The post's one frame of the calculator, loaded, and its page."""
    iframe = page.locator(f'{CONTENT} iframe[src^="{live_server}/"]')
    expect(iframe).to_have_count(1)
    iframe.scroll_into_view_if_needed()
    frame = iframe.element_handle().content_frame()
    assert frame is not None
    frame.wait_for_load_state("load")
    expect(frame.locator("main")).to_be_visible()
    return iframe, frame


def assert_fits(page: Page, iframe: Locator, frame: Frame, name: str) -> int:
    """The frame is shown (WordPress reveals it when the frame tells its height), is as tall as
    its content within GAP px and at most MOST px, and has no scrollbar inside."""
    def measure() -> tuple[bool, int, int]:
        shown = iframe.evaluate("f => getComputedStyle(f).clip === 'auto' && "
                                "getComputedStyle(f).position !== 'absolute'")
        content = frame.evaluate(CONTENT_HEIGHT)
        return shown, content, iframe.evaluate("f => f.clientHeight")   # inside its border

    # generous: a busy machine lays frames out late
    shown, content, height = wait_for(measure, lambda seen: seen[0] and 0 <= seen[2] - seen[1] <= GAP,
                                      30, pause=lambda wait: page.wait_for_timeout(wait * 1000),
                                      every=0.1)
    assert shown, f"{name}: WordPress never revealed the frame (its height message never came)"
    assert height - content <= GAP, f"{name}: a {height - content:.0f} px gap under the content"
    sizes = frame.evaluate("[document.documentElement.scrollHeight, window.innerHeight,"
                           " document.documentElement.scrollWidth, window.innerWidth]")
    assert sizes[0] <= sizes[1] + 1, f"{name}: scrolls down inside: {sizes}"
    assert sizes[2] <= sizes[3], f"{name}: scrolls sideways inside: {sizes}"
    assert height <= MOST, f"{name}: {height} px, past wp-embed.js's {MOST} px"
    return content


def assert_no_sideways_scroll(page: Page, name: str) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth,"
                           " document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], f"{name}: the post scrolls sideways: {widths}"


def open_post(page: Page, wordpress, name: str, width: int, live_server: str,
              fits: bool = True) -> tuple[Locator, Frame]:
    """The post of a view at a width, its frame loaded (and fitting, unless `fits` is False:
    a test of what the frame does checks the fit after using it, the first test before)."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(wordpress.posts[name])
    iframe, frame = embedded(page, live_server)
    if fits:
        assert_fits(page, iframe, frame, f"{name} at {width} px")
    if width < 600:
        assert_no_sideways_scroll(page, f"{name} at {width} px")
    return iframe, frame


# Known gaps, measured on Debian's WordPress 6.1: {(view, width): why}, each a strict xfail
# (it must fail until it is fixed, and then leave this dict). None left: the classic-editor
# post's frame is `width="100%"` (WordPress keeps no style, and its theme gives classic content's
# frames no max-width), and the empty /embed and the unanswered quiz fold what is not their
# first screen.
KNOWN_GAPS: dict[tuple[str, int], str] = {}
FIT_CASES = [pytest.param(name, width, id=f"{name}-{width}", marks=[pytest.mark.xfail(
                 strict=True, reason=f"issue 25, not yet: {KNOWN_GAPS[name, width]}")]
             if (name, width) in KNOWN_GAPS else [])
             for width in WIDTHS for name in VIEWS]


@pytest.mark.parametrize("name, width", FIT_CASES)
def test_a_pasted_link_becomes_a_sandboxed_frame_that_fits(page: Page, wordpress, live_server,
                                                           console_errors, name, width):
    iframe, frame = open_post(page, wordpress, name, width, live_server)   # ≤ 1000 px, fitted
    # no error from embed.js (wp-embed.js's or ours); no_console_errors then asserts none at all
    assert [e for e in console_errors if "embed.js" in e] == [], console_errors
    # WordPress's filter and sandbox unchanged: scripts only, the secret in the address
    expect(iframe).to_have_attribute("sandbox", "allow-scripts")
    expect(iframe).to_have_attribute("src", re.compile(r"#\?secret=[A-Za-z0-9]+$"))
    expect(iframe).to_have_attribute("frameborder", "0")
    # the shape WordPress keeps: a blockquote fallback with a plain link, hidden once framed
    fallback = page.locator("blockquote.wp-embedded-content")
    expect(fallback).to_have_count(1)
    expect(fallback.locator(f'a[href^="{live_server}/"]')).to_have_count(1)
    expect(fallback).to_be_hidden()
    # the address is no longer plain text in the post
    assert live_server not in page.locator(CONTENT).inner_text()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_calculator_scores_a_changed_hand_in_the_post(page: Page, wordpress, live_server,
                                                          width):
    iframe, frame = open_post(page, wordpress, "embed", width, live_server, fits=False)
    frame.get_by_label("Hand: concealed tiles").fill(HAND)
    frame.get_by_role("button", name="Score", exact=True).first.click()
    expect(frame.locator("#result-heading")).to_be_visible()
    frame = iframe.element_handle().content_frame()
    assert frame is not None
    assert_fits(page, iframe, frame, f"embed with a result at {width} px")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_quiz_is_answered_and_shows_its_breakdown_in_the_post(page: Page, wordpress,
                                                                  live_server, width):
    iframe, frame = open_post(page, wordpress, "quiz", width, live_server, fits=False)
    frame.get_by_label("Total fan").fill("3")
    frame.get_by_role("button", name="Check my count").click()
    expect(frame.locator("#verdict-heading")).to_be_visible()
    expect(frame.locator("table", has=frame.locator("caption", has_text="Fan breakdown"))
           ).to_be_visible()
    assert_fits(page, iframe, frame, f"quiz with a verdict at {width} px")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_discard_quiz_is_answered_in_the_post(page: Page, wordpress, live_server, width):
    iframe, frame = open_post(page, wordpress, "discard-quiz", width, live_server, fits=False)
    frame.get_by_role("button", name=re.compile(r"^Discard ")).first.click()
    expect(frame.get_by_role("status")).to_have_text(re.compile(r"^(Right|Not the best)"))
    assert_fits(page, iframe, frame, f"discard quiz with a verdict at {width} px")


@pytest.mark.parametrize("width", WIDTHS)
def test_fan_to_payment_follows_the_fan_in_the_post(page: Page, wordpress, live_server, width):
    iframe, frame = open_post(page, wordpress, "points", width, live_server, fits=False)
    expect(frame.locator("#points-arithmetic")).to_have_text("2⁵ = 32 base points")
    frame.locator("#fan").fill("7")   # the frame goes to its new state (no fetch in the sandbox)
    frame = iframe.element_handle().content_frame()
    assert frame is not None
    expect(frame.locator("#points-arithmetic")).to_have_text("2⁷ = 128 base points")
    expect(frame.locator(".conversion-table tr.current th")).to_have_text("7")
    frame = iframe.element_handle().content_frame()
    assert frame is not None
    assert_fits(page, iframe, frame, f"fan to payment at 7 fan at {width} px")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_sheets_edit_link_stays_a_plain_link_in_the_post(page: Page, wordpress, live_server,
                                                           width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(wordpress.posts["sheet-view"])   # WordPress keeps its answer as it shows the post
    expect(page.locator(f'{CONTENT} iframe[src^="{live_server}/"]')).to_have_count(1)
    page.goto(wordpress.posts["edit-link"])
    expect(page.locator(CONTENT)).to_contain_text("Score this hand yourself")
    expect(page.locator(f'iframe[src^="{live_server}/"]')).to_have_count(0)
    token = wordpress.edit_link.rsplit("/", 1)[1]
    # what WordPress kept of its oEmbed answers (post meta `_oembed_…`) never names the token,
    # and it did keep the view link's frame (so the check reads a real cache)
    kept = wordpress.php("""
        global $wpdb;
        echo json_encode($wpdb->get_col("SELECT meta_value FROM {$wpdb->postmeta}
                                          WHERE meta_key LIKE '\\_oembed\\_%'"));
    """)
    assert not [value for value in kept if token in value]
    view = wordpress.paths["sheet-view"]
    assert [value for value in kept if f'{view}?embed=1' in value.replace("&amp;", "&")]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_framed_card_switches_language_in_the_post(page: Page, wordpress, live_server, width):
    iframe, frame = open_post(page, wordpress, "chinese-card", width, live_server)
    expect(frame.locator("html")).to_have_attribute("lang", "zh-Hant")
    frame.locator('a[hreflang="en"]').click()
    expect(frame.locator("html")).to_have_attribute("lang", "en")
    expect(frame.locator("main")).to_contain_text("Open in the calculator")
    assert_fits(page, iframe, frame, f"card switched to English at {width} px")


def test_the_block_editors_preview_answers_with_the_frame(page: Page, wordpress, live_server):
    """The block editor asks `/wp-json/oembed/1.0/proxy` as the logged-in author."""
    # logging in from the form's own page, without opening a page of the site afterwards (its
    # toolbar would load the author's picture from gravatar.com, which this machine cannot reach)
    page.goto(f"{wordpress.url}/wp-login.php")
    login = page.request.post(f"{wordpress.url}/wp-login.php", max_redirects=0, form={
        "log": AUTHOR, "pwd": wordpress.author_password, "testcookie": "1",
        "redirect_to": f"{wordpress.url}/wp-admin/"})
    assert login.status == 302, f"{login.status}: {login.text()[:300]}"
    nonce = page.request.get(f"{wordpress.url}/wp-admin/admin-ajax.php?action=rest-nonce")
    assert nonce.ok, nonce.status
    def preview(path: str):
        return page.request.get(
            f"{wordpress.url}/wp-json/oembed/1.0/proxy?" + urlencode({"url": live_server + path}),
            headers={"X-WP-Nonce": nonce.text()})

    for name, path in wordpress.paths.items():
        answer = preview(path)
        assert answer.status == 200, f"{name}: {answer.status} {answer.text()[:300]}"
        html = answer.json()["html"]
        assert re.search(rf'<iframe [^>]*src="{re.escape(live_server)}/', html), f"{name}: {html}"
        assert "<blockquote" in html, f"{name}: no blockquote fallback: {html}"
    # a sheet's edit link has no frame to preview
    refused = preview(wordpress.edit_link)
    assert refused.status == 404, f"{refused.status}: {refused.text()[:300]}"


@pytest.mark.parametrize("width", WIDTHS)
def test_a_clubs_own_wordpress_shows_its_table_and_a_members_card_by_the_view_link_alone(
        page: Page, wordpress, live_server, width):
    iframe, frame = open_post(page, wordpress, "club-standings", width, live_server)
    expect(frame.locator("#standings tbody tr")).to_have_count(len(MEMBERS))
    shown = sorted(frame.locator("#standings tbody th").all_inner_texts())
    assert shown == sorted(MEMBERS)
    club = wordpress.club
    html = page.content() + frame.content()
    assert club["view"] in html
    assert club["organiser"] not in html and club["member"] not in html
    iframe, frame = open_post(page, wordpress, "club-member", width, live_server)
    expect(frame.locator("h1")).to_have_text(MEMBERS[0])
    expect(frame.locator("#summary")).to_be_visible()
    html = page.content() + frame.content()
    assert club["organiser"] not in html and club["member"] not in html
