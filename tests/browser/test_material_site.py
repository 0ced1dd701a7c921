"""A lesson site on Material for MkDocs (instant navigation on, light and dark schemes, blocks
in admonitions, collapsibles, tabs and lists), built in the test with the `mahjong` extension
and read in chromium: pages swap without a reload and every figure still draws its tiles, the
figures follow the reader's scheme and their links keep 4.5:1, and the console stays quiet
(the autouse no_console_errors fixture)."""
from __future__ import annotations

import threading
from functools import partial
from http.server import ThreadingHTTPServer

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import _QuietHandler
from tests.web.test_markdown import MATERIAL_YML, build_material

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def material(tmp_path_factory):
    folder = tmp_path_factory.mktemp("material-browser")
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 partial(_QuietHandler, directory=str(folder / "site")))
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    # Material's instant navigation follows the sitemap's addresses on the page's host and
    # scheme, not its port: the site is built for the address it is served from
    done = build_material(folder, config=MATERIAL_YML.replace("https://lessons.example.org/",
                                                              origin + "/"))
    assert done.returncode == 0, done.stderr
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield origin
    finally:
        server.shutdown()
        server.server_close()


# Each figure's tiles, drawn: a <use> whose symbol is on the page has a box (one that points at
# nothing has none), visible where the figure is (a closed collapsible's are skipped).
DRAWN = """() => [...document.querySelectorAll('.mahjong-figure, .mahjong-tiles')]
  .filter(f => f.getClientRects().length)
  .map(f => [...f.querySelectorAll('svg.tile use')].map(u => u.getBBox().width > 0 &&
       !!document.getElementById(u.getAttribute('xlink:href').slice(1))))
  .map(row => row.length > 0 && row.every(Boolean))"""


def _figures_drawn(page: Page) -> list[bool]:
    return page.evaluate(DRAWN)


def _open(page: Page, url: str) -> None:
    """Open a page and wait until Material has read the sitemap (instant navigation is on
    from then: before, a click loads the next page whole)."""
    with page.expect_response(lambda r: r.url.endswith("/sitemap.xml")):
        page.goto(url)
    page.wait_for_load_state("networkidle")


def test_instant_navigation_swaps_pages_with_figures_both_ways(page: Page, material):
    _open(page, material + "/")
    expect(page.locator("h1")).to_have_text("Lesson one")
    drawn = _figures_drawn(page)
    assert len(drawn) >= 5 and all(drawn), drawn
    page.evaluate("window.__not_reloaded = true")
    page.get_by_role("link", name="Lesson two").first.click()
    expect(page.locator("article h1")).to_have_text("Lesson two")
    assert page.url.rstrip("/").endswith("/two")
    assert page.evaluate("window.__not_reloaded === true"), "instant navigation reloaded the page"
    expect(page.locator(".mahjong-figure")).to_have_count(1)
    assert all(_figures_drawn(page)) and len(_figures_drawn(page)) == 2
    page.get_by_role("link", name="lesson one").first.click()
    expect(page.locator("article h1")).to_have_text("Lesson one")
    assert page.evaluate("window.__not_reloaded === true")
    drawn = _figures_drawn(page)
    assert len(drawn) >= 5 and all(drawn), drawn


def test_figures_in_a_collapsible_and_a_tab_draw_when_opened(page: Page, material):
    page.goto(material + "/")
    details = page.locator("details.tip")
    details.locator("summary").click()
    expect(details.locator(".mahjong-figure")).to_be_visible()
    tabs = page.locator(".tabbed-set")
    expect(tabs.locator(".mahjong-figure")).to_be_visible()
    for holder in (".admonition.note", "details.tip", ".tabbed-set", "article li"):
        figure = page.locator(f"{holder} .mahjong-figure").first
        expect(figure).to_be_visible()
        assert figure.evaluate("f => [...f.querySelectorAll('svg.tile use')]"
                               ".every(u => u.getBBox().width > 0)")
    expect(page.locator(".admonition.note .mahjong-tiles svg.tile")).to_have_count(3)


CONTRAST = """() => {
  const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = c.map(v => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  return [...document.querySelectorAll('.mahjong-figure')].map(f => {
    const link = f.querySelector('.card-links a');
    const a = lum(rgb(getComputedStyle(link).color)), b = lum(rgb(getComputedStyle(f).backgroundColor));
    return [(Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), b];
  });
}"""


def test_figures_follow_the_scheme_and_their_links_keep_4_5_to_1(page: Page, material):
    page.goto(material + "/two/")
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "default")
    [(ratio, background)] = page.evaluate(CONTRAST)
    assert ratio >= 4.5 and background > 0.7, (ratio, background)
    page.locator('label[title="Dark colours"]').click()   # the header's toggle
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    [(ratio, background)] = page.evaluate(CONTRAST)
    assert ratio >= 4.5 and background < 0.05, (ratio, background)
