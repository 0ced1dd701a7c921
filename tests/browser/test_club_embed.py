"""A club's plain-HTML site on another origin shows its standings and a member's card: once with
embed.js (`data-view="standings"`, `"member"`, the club's view token) and once with the frame an
oEmbed answer gives, pasted as it is. At 390 px each frame fits its content (within 2 px, at
most 1,000 px), nothing scrolls sideways, the table is the club's, and neither the organiser's
nor the member's link is anywhere in the host page or its frames."""
from __future__ import annotations

import json
import threading
import urllib.parse
import urllib.request
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Frame, Page, expect

from tests.browser.club_site import MEMBERS, played_club
from tests.waiting import fitted_frame

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
MOST = 1000


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="module")
def club_site(tmp_path_factory, live_server):
    """The club's own site ("localhost", its own port: another origin) and the club it shows."""
    club = played_club(live_server, "Harbour club")
    token = club["view"].removeprefix("/c/")
    query = urllib.parse.urlencode({"url": live_server + club["view"] + "/members/2", "maxwidth": 390})
    with urllib.request.urlopen(f"{live_server}/oembed?{query}", timeout=30) as answer:
        pasted = json.load(answer)["html"]
    folder = tmp_path_factory.mktemp("club-site")
    (folder / "index.html").write_text(f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Harbour club</title><link rel="icon" href="data:,"></head>
<body>
<h1>Harbour club</h1>
<h2>This season</h2>
<div id="standings" data-mahjong="club={token}" data-view="standings"></div>
<h2>Player of the month</h2>
<div id="member" data-mahjong="club={token}&member=1" data-view="member"></div>
<h2>Runner-up (pasted from oEmbed)</h2>
<div id="pasted">{pasted}</div>
<script src="{live_server}/static/embed.js" async></script>
</body></html>
""")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://localhost:{server.server_address[1]}/index.html", club
    finally:
        server.shutdown()
        server.server_close()


def _framed(page: Page, holder: str) -> Frame:
    element = page.locator(f"{holder} iframe")
    expect(element).to_have_count(1)
    element.scroll_into_view_if_needed()
    expect(page.frame_locator(f"{holder} iframe").locator("main")).to_be_visible()
    frame = element.element_handle().content_frame()
    assert frame is not None
    frame.wait_for_load_state("load")
    iframe = page.locator(f"{holder} iframe")
    height, content = fitted_frame(page, frame, lambda: iframe.evaluate("f => f.getBoundingClientRect().height"),
                                   lambda height, content: abs(height - content) <= 2)
    assert abs(height - content) <= 2, f"{holder}: frame {height} px, its page {content} px"
    assert height <= MOST, f"{holder}: {height} px at 390 px"
    sizes = frame.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert sizes[0] <= sizes[1], f"{holder}: scrolls sideways inside: {sizes}"
    return frame


def test_a_clubs_plain_site_shows_its_standings_and_member_cards_that_fit_on_a_phone(page: Page, club_site):
    url, club = club_site
    page.set_viewport_size(PHONE)
    page.goto(url)
    standings = _framed(page, "#standings")
    expect(standings.locator("#standings tbody tr")).to_have_count(len(MEMBERS))
    assert sorted(standings.locator("#standings tbody th").all_inner_texts()) == sorted(MEMBERS)
    card = _framed(page, "#member")
    expect(card.locator("h1")).to_have_text(MEMBERS[0])
    expect(page.locator("#member iframe")).to_have_attribute("title", "Club member")
    pasted = _framed(page, "#pasted")
    expect(pasted.locator("h1")).to_have_text(MEMBERS[1])
    expect(page.locator("#pasted blockquote")).to_be_hidden()     # embed.js hid the plain link
    widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], f"the club's page scrolls sideways: {widths}"
    # a tap on a name opens the member's page beside the frame, on the view link
    with page.context.expect_page() as opened:
        standings.locator("#standings tbody th a").first.click()
    assert club["view"] in opened.value.url
    html = page.content() + standings.content() + card.content() + pasted.content()
    assert club["view"] in html
    assert club["organiser"] not in html and club["member"] not in html
