"""A calculator link pasted into a WordPress post, with WordPress's filter and sandbox as they
are: the oEmbed answer filtered as wp_filter_oembed_result() filters it, on a page of another
origin whose script speaks wp-embed.js's messages (tests/wordpress_like.py, our own code).
The frame shows itself, fits its content within WordPress's 1000 px, and works inside
`sandbox="allow-scripts"`: a hand changed and scored, a quiz answered, the language switched,
the secret kept across every navigation, no storage touched. (The test against a real
WordPress is a separate one.)"""
from __future__ import annotations

import json
import secrets
import threading
import urllib.parse
import urllib.request
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Frame, Page, expect

from app.rules.house import House, encode, split
from tests import wordpress_like
from tests.waiting import fitted_frame, wait_for

pytestmark = pytest.mark.browser

HAND = "123m456m789m234p55s"
QUIZ = ("/practice?rules=hong-kong&hands=123m456m789m234p55s%20by%3Dself-draw"
        "&hands=111m222p333s444z55z&ask=fan")
VIEWS = {
    "card": f"/?rules=hong-kong&hand={HAND}&by=self-draw&seat=S",
    "chinese-card": "/card?rules=hong-kong&hand=111m222p333s444z55z&lang=zh-Hant",
    "calculator": f"/embed?rules=hong-kong&hand={HAND}&by=self-draw",
    "quiz": QUIZ,
    "series": "/practice?rules=hong-kong&level=patterns&seed=abc&n=2",
    "discard": "/discard?rules=hong-kong&hand=123m456m789m23p55s7z",
    "discard-quiz": "/practice/discard?rules=hong-kong&seed=7&n=1",
    "points": "/points?rules=hong-kong&fan=5&discarder=S",
    "chinese-points": "/embed/points?rules=sichuan&fan=3&lang=zh-Hant",
    "house": "/house?" + urllib.parse.urlencode(dict(zip(
        ("rules", "house"), split(encode(House("hong-kong", dials=(("cap", 10),)))), strict=True))),
}
WIDTHS = (390, 1280)
GAP = 8            # at most this many pixels between the frame and its content
CAP = 1000         # wp-embed.js never makes a frame taller

# Every use of storage or cookies, recorded in each frame (a view embedded must make none).
WATCH_STORAGE = """(() => {
  window.storageUsed = [];
  for (const name of ["localStorage", "sessionStorage"]) {
    Object.defineProperty(window, name, { configurable: true,
      get() { window.storageUsed.push(name); return null; } });
  }
  Object.defineProperty(Document.prototype, "cookie", { configurable: true,
    get() { window.storageUsed.push("cookie"); return ""; },
    set(value) { window.storageUsed.push("cookie"); } });
})();"""


@pytest.fixture(scope="module")
def blog(tmp_path_factory):
    """A second origin ("localhost", its own port) serving the posts a test writes."""
    folder = tmp_path_factory.mktemp("blog")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield folder, f"http://localhost:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


def oembed(live_server: str, path: str) -> dict:
    """The oEmbed answer WordPress asks for (its content width, height 1.5 × that)."""
    query = urllib.parse.urlencode({"url": live_server + path, "maxwidth": 600, "maxheight": 900})
    with urllib.request.urlopen(f"{live_server}/oembed?{query}", timeout=10) as answer:
        return json.load(answer)


def publish(page: Page, blog, live_server: str, path: str, width: int,
            host_script: bool = True) -> Frame:
    """Paste the link into a post (oEmbed answer, WordPress's filter), open the post at this
    viewport width and wait until the frame has shown itself; the frame."""
    folder, origin = blog
    markup = oembed(live_server, path)["html"]
    name = f"post-{secrets.token_hex(4)}.html"
    (folder / name).write_text(wordpress_like.post_page("A lesson", wordpress_like.filtered(
        markup, secrets.token_hex(5)), host_script))
    page.add_init_script(WATCH_STORAGE)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{origin}/{name}")
    iframe = page.locator("iframe.wp-embedded-content")
    if not host_script:   # the frame has loaded and spoken to no one; now the host listens
        iframe.element_handle().content_frame().wait_for_load_state("load")
        page.wait_for_function("document.readyState === 'complete'")
        page.add_script_tag(content=wordpress_like.HOST_SCRIPT + """
          document.querySelectorAll("iframe.wp-embedded-content").forEach(function (frame) {
            frame.contentWindow.postMessage(
              { message: "ready", secret: frame.getAttribute("data-secret") }, "*");
          });""")
    expect(page.locator("blockquote.wp-embedded-content")).to_be_hidden()
    expect(iframe).not_to_have_attribute("style", "")   # WordPress's clip removed
    frame = iframe.element_handle().content_frame()
    assert frame is not None
    frame.wait_for_load_state("load")
    return frame


def assert_told(page: Page, frame: Frame) -> int:
    """The post fitted the frame to the height the frame told it (with its secret, so the
    secret is still known), within WordPress's bounds; the content's height."""
    iframe = page.locator("iframe.wp-embedded-content")
    height, content = fitted_frame(
        page, frame, lambda: iframe.evaluate("f => f.getBoundingClientRect().height"),
        lambda height, content: abs(height - min(max(content, 200), CAP)) <= GAP,
        ready=lambda: frame.wait_for_load_state("load"))   # a frame that navigated: once loaded
    assert abs(height - min(max(content, 200), CAP)) <= GAP, \
        f"{frame.url}: frame {height}px, its content {content}px"
    assert frame.evaluate("window.storageUsed") == [], frame.url
    return content


def assert_fits(page: Page, frame: Frame) -> int:
    """The frame is as tall as its content (within GAP), which is within CAP; nothing scrolls
    inside; no storage was touched in it; the frame's secret is still known."""
    def measure() -> tuple[int, list[int]]:
        return assert_told(page, frame), frame.evaluate(
            "[document.documentElement.scrollHeight, window.innerHeight,"
            " document.documentElement.scrollWidth, window.innerWidth]")

    # a resized page reflows, and tells its new height, late
    content, sizes = wait_for(measure, lambda seen: seen[1][0] <= seen[1][1] + 1, 10,
                              pause=lambda wait: page.wait_for_timeout(wait * 1000), every=0.1)
    assert content <= CAP, f"{frame.url}: its content is {content}px, over WordPress's {CAP}px"
    assert sizes[0] <= sizes[1] + 1, f"{frame.url}: scrolls down inside: {sizes}"
    assert sizes[2] <= sizes[3], f"{frame.url}: scrolls sideways inside: {sizes}"
    assert frame.evaluate("window.storageUsed") == [], frame.url
    assert frame.evaluate("window.origin") == "null"    # really in WordPress's sandbox
    return content


def secret_of(page: Page) -> str:
    return page.locator("iframe.wp-embedded-content").get_attribute("data-secret")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("view", list(VIEWS))
def test_every_view_shows_itself_and_fits_in_a_wordpress_post(page: Page, blog, live_server,
                                                             view, width):
    frame = publish(page, blog, live_server, VIEWS[view], width)
    content = assert_fits(page, frame)
    assert frame.evaluate("location.hash") == f"#?secret={secret_of(page)}"
    if width == 1280:   # the frame fills its column (650 here, wider than the 600 asked) ...
        column = "document.querySelector('.wp-block-embed__wrapper').clientWidth"
        assert frame.evaluate("window.innerWidth") == page.evaluate(column)
        # ... and in a column as wide as the answer's width, the answer's height was about right
        answer = oembed(live_server, VIEWS[view])
        page.set_viewport_size({"width": answer["width"] + 40, "height": 900})   # the post's padding
        assert page.evaluate(column) == answer["width"]
        content = assert_fits(page, frame)
        assert abs(answer["height"] - content) <= 0.2 * content, (answer["height"], content)


def test_a_frame_loaded_before_the_posts_script_answers_ready_with_its_height(page: Page, blog,
                                                                             live_server):
    frame = publish(page, blog, live_server, VIEWS["card"], 390, host_script=False)
    assert_fits(page, frame)


def test_a_hand_is_changed_and_scored_inside_the_sandbox(page: Page, blog, live_server):
    frame = publish(page, blog, live_server, VIEWS["calculator"], 390)
    inside = page.frame_locator("iframe.wp-embedded-content")
    before = inside.locator("#result-heading").inner_text()
    inside.get_by_text("Change the hand").click()
    inside.get_by_label("Hand: concealed tiles").fill("111m222p333s444z55z")
    inside.get_by_role("button", name="Score", exact=True).first.click()
    expect(inside.locator("#result-heading")).not_to_have_text(before)
    assert frame.evaluate("location.hash") == f"#?secret={secret_of(page)}"
    assert "hand=111m222p333s444z55z" in frame.url
    assert_fits(page, frame)
    # a picker tap: the server's redirect names its own fragment, the secret stays known
    # (the form stays open for the next tap: taller than the cap, it scrolls inside)
    inside.get_by_text("Change the hand").click()
    inside.get_by_role("button", name="Remove", exact=False).first.click()
    expect(inside.locator("#result-heading")).to_have_count(0)
    expect(inside.locator("#waits-heading")).to_be_visible()
    heard = page.evaluate("window.heights.length")
    assert_told(page, frame)
    inside.locator("button[name=add][value='1m']").click()   # whole again: scored
    expect(inside.locator("#result-heading")).to_be_visible()
    assert_fits(page, frame)
    assert page.evaluate("window.heights.length") > heard


def test_a_quiz_is_answered_and_revealed_inside_the_sandbox(page: Page, blog, live_server, api):
    frame = publish(page, blog, live_server, VIEWS["quiz"], 390)
    want = api("/api/score", rules="hong-kong", hand=HAND, by="self-draw")
    inside = page.frame_locator("iframe.wp-embedded-content")
    inside.get_by_label("Total fan").fill(str(want["total_fan"]))
    inside.get_by_label("Total fan").press("Enter")      # the form's own way: Enter sends it
    expect(inside.locator("#verdict-heading")).to_contain_text("Right.")
    expect(inside.locator("#verdict-heading")).to_contain_text(f"worth {want['total_fan']} fan")
    assert frame.evaluate("location.hash") == f"#?secret={secret_of(page)}"
    assert_fits(page, frame)


def test_the_language_is_switched_inside_the_sandbox(page: Page, blog, live_server):
    frame = publish(page, blog, live_server, VIEWS["card"], 1280)
    inside = page.frame_locator("iframe.wp-embedded-content")
    inside.locator("nav.languages a[hreflang=zh-Hant]").click()
    expect(inside.locator("html")).to_have_attribute("lang", "zh-Hant")
    assert frame.evaluate("location.hash") == f"#?secret={secret_of(page)}"
    assert_fits(page, frame)


def test_open_in_the_calculator_opens_in_the_posts_window(page: Page, blog, live_server):
    publish(page, blog, live_server, VIEWS["card"], 1280)
    inside = page.frame_locator("iframe.wp-embedded-content")
    link = inside.get_by_role("link", name="Open in the calculator")
    href = link.get_attribute("href")
    link.click()
    page.wait_for_url(urllib.parse.urljoin(live_server, href))


def test_the_storage_watch_sees_a_page_that_uses_storage(page: Page, live_server):
    # the watch itself can fail: the full calculator keeps the game sheet in localStorage
    page.add_init_script(WATCH_STORAGE)
    page.goto(live_server + "/sheet")
    assert "localStorage" in page.evaluate("window.storageUsed")
