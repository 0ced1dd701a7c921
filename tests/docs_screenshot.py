"""The README's picture: the calculator's result page, taken with Debian's chromium at 1280 px.

Run by hand after a change to the result page's look (not part of the suite):

    .venv/bin/python tests/docs_screenshot.py      # writes docs/images/result-page.png

The app is served by werkzeug on a free loopback port in this process; the page is the README's
first hand. A machine without a CJK font draws the Chinese names as boxes: Debian's
`fonts-wqy-microhei` gives them.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "images" / "result-page.png"
HAND = "/?rules=hong-kong&hand=123m456m789m234p55s&by=self-draw&seat=S"
WIDTH, HEIGHT = 1280, 820   # the viewport: the result down to who pays whom


def main() -> None:
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from app.web import create_app

    server = make_server("127.0.0.1", 0, create_app(), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=os.environ.get("MAHJONG_CHROMIUM", "/usr/bin/chromium"))
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            page.goto(f"http://127.0.0.1:{server.server_port}{HAND}")
            page.wait_for_load_state("networkidle")
            page.screenshot(path=OUT)
            browser.close()
    finally:
        server.shutdown()
    print(OUT.relative_to(ROOT))


if __name__ == "__main__":
    main()
