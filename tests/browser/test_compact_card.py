"""The hand card on a phone (390 px): at most 700 px tall with its payments, every word and
every table header on one line (no word broken mid-way, 番數 not one character a line), and no
author's texts unless the address asks for them."""
from __future__ import annotations

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

HAND = "rules=hong-kong&hand=123m456m789m234p55s&by=self-draw&seat=S"
CARDS = [f"/card?{HAND}", f"/card?{HAND}&lang=zh-Hant",
         "/card?rules=sichuan&hand=111p123p777p789p55p&by=self-draw&lang=zh-Hans",
         "/card?rules=hong-kong&hand=123m456m789m234p55s&by=discard&seat=S&discarder=N",
         "/card?rules=hong-kong&hand=22m&melds=777m,1111z,ckong:5555z,123p&win=2m&by=discard"
         "&seat=S&discarder=E&lang=zh-Hans"]

# Each word (a run of letters) or header whose text lies on more than one line.
BROKEN = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const header = node.parentElement.closest('th, caption');
    const spans = header ? [[0, node.length]] : [...node.data.matchAll(/[A-Za-z]{2,}/g)]
      .map(m => [m.index, m.index + m[0].length]);
    for (const [start, end] of spans) {
      if (!node.data.slice(start, end).trim()) continue;
      const range = document.createRange();
      range.setStart(node, start); range.setEnd(node, end);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                           .map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(node.data.slice(start, end));
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("path", CARDS)
def test_a_card_fits_700_px_at_390_with_no_word_broken(page: Page, live_server, path):
    page.set_viewport_size({"width": 390, "height": 300})
    page.goto(live_server + path)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 700, f"{path}: {height} px"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(BROKEN) == [], path
    assert page.locator("table.card-payments").count() == 1
    assert page.get_by_text("Put this hand on your page").count() == 0


def test_the_broken_word_check_sees_a_word_broken_mid_way(page: Page, live_server):
    """The check above can fail: with words allowed to break anywhere, it names them."""
    page.set_viewport_size({"width": 390, "height": 300})
    page.goto(live_server + CARDS[0])
    page.evaluate("""() => { document.querySelector('main').style.width = '150px';
        for (const e of document.querySelectorAll('main *')) e.style.wordBreak = 'break-all'; }""")
    assert page.evaluate(BROKEN) != []


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
def test_an_empty_embed_breaks_no_word_and_raises_no_alarm_after_a_tap(page: Page, live_server,
                                                                        lang):
    """The author picking a hand in /embed: no word on two lines, and after the first tile the
    count is said calmly beside the field (no red, no alert) until the hand is whole."""
    page.set_viewport_size({"width": 390, "height": 300})
    page.goto(f"{live_server}/embed?rules=hong-kong&lang={lang}")
    assert page.evaluate(BROKEN) == []
    page.locator(".palette a, .palette button").first.click()
    page.wait_for_url("**hand=1m**")
    note = page.locator("#hand-error")
    assert note.count() == 1
    bad = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bad')")
    colour = note.evaluate("e => getComputedStyle(e).color")
    border = page.locator("#hand").evaluate("e => getComputedStyle(e).borderTopColor")
    as_rgb = page.evaluate("c => { const e = document.createElement('i'); e.style.color = c;"
                           " document.body.append(e); const v = getComputedStyle(e).color;"
                           " e.remove(); return v; }", bad.strip())
    assert colour != as_rgb and border != as_rgb, (colour, border, as_rgb)
    assert page.locator("[role=alert]").count() == 0
    assert page.evaluate(BROKEN) == []


def test_embed_js_asks_no_frame_still_at_about_blank(page: Page, live_server, tmp_path):
    """A lazy frame far down a page is still about:blank when embed.js asks the frames for
    their heights: asking it logged "target origin … does not match … ('null')"; now it is
    left to speak when it loads (the autouse fixture fails the test on any console error)."""
    import threading
    from functools import partial
    from http.server import ThreadingHTTPServer

    from tests.browser.conftest import _QuietHandler
    (tmp_path / "lesson.html").write_text(f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lesson</title><link rel="icon" href="data:,">
</head><body><h1>A lesson</h1><div id="top" data-mahjong="{HAND}" data-view="card"></div>
<div style="height: 6000px"></div>
<iframe id="far" loading="lazy" title="A card" src="{live_server}/card?{HAND}"></iframe>
<script src="{live_server}/static/embed.js"></script></body></html>""", encoding="utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:   # localhost, not 127.0.0.1: another origin than the calculator's
        page.goto(f"http://localhost:{server.server_address[1]}/lesson.html")
        page.locator("#top iframe").wait_for()   # embed.js has started (and asked the frames)
        assert page.evaluate(
            "document.getElementById('far').contentWindow.location.href") == "about:blank"
        page.locator("#far").scroll_into_view_if_needed()
        page.frame_locator("#far").locator("main").wait_for()
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("seed", ["3", "8", "13"])   # the tallest answered of seeds 1-15 here
def test_an_answered_discard_quiz_frame_stays_within_wordpress_1000_px(page: Page, live_server,
                                                                        seed):
    import re
    page.set_viewport_size({"width": 390, "height": 300})
    page.goto(f"{live_server}/practice/discard?rules=hong-kong&seed={seed}&n=1&embed=1")
    assert page.locator("a.question-link").count() == 1
    page.get_by_role("button", name=re.compile(r"^Discard ")).first.click()
    page.get_by_role("status").wait_for()
    assert page.evaluate("document.documentElement.scrollHeight") <= 1000
    assert page.locator("a.question-link").count() == 0   # the teacher's link, not the reader's
