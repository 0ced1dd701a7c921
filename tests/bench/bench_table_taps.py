"""Taps and page loads of a night at the table (issue 40), for Hong Kong (繁體) and Sichuan (简体),
on a 390 px phone with touch: sharing the sheet, joining it from the QR code, adding an agreed
hand, adding a hand by its tiles, correcting a hand.

Run on demand (not part of the suite): `python tests/bench/bench_table_taps.py`. It serves the
app with gunicorn on a free port (its shared sheets in a temporary folder), drives Debian's
chromium through Playwright and prints one row per step and family. A tap is one touch; a
choice in a <select> counts two (open, choose); a page load is a document the phone loads
after the step's first screen (a change sent by static/app.js and swapped in place is none).
Joining scans the QR code with the phone's camera, which this count leaves out (0 taps).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))      # tests.waiting, when run as a script
from tests.waiting import free_port, stop_group, wait_until_up  # noqa: E402

CHROMIUM = os.environ.get("MAHJONG_CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
NAMES = "阿明,阿強,小玲,大文"
FAMILIES = [   # rules, language, a hand by its tiles (self-drawn by the winner), the missing suit
    ("hong-kong", "zh-Hant", "1m2m3m4m5m6m7m8m9m2p3p4p5s5s", ""),
    ("sichuan", "zh-Hans", "1m1m2m2m3m3m4m4m5m5m6m6m7m7m", "p"),
]


class Counter:
    """Taps made and documents loaded on one phone."""

    def __init__(self, page: Page):
        self.page, self.taps, self.loads = page, 0, 0
        page.on("domcontentloaded", lambda _p: self._loaded())

    def _loaded(self) -> None:
        self.loads += 1

    def tap(self, locator) -> None:
        locator.tap()
        self.taps += 1

    def choose(self, locator, value: str) -> None:
        locator.select_option(value)
        self.taps += 2

    def start(self) -> None:
        self.taps = self.loads = 0


def _phone(browser, base: str) -> Page:
    context = browser.new_context(viewport=PHONE, base_url=base, has_touch=True, is_mobile=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    return context.new_page()


def _changed(page: Page, before: str | None) -> None:
    expect(page.locator("#live")).not_to_have_attribute("data-version", before or "", timeout=15_000)


def night(browser, base: str, rules: str, lang: str, tiles: str, missing: str) -> list[tuple[str, int, int]]:
    rows = []
    host = _phone(browser, base)
    count = Counter(host)
    query = urlencode({"rules": rules, "names": NAMES, "lang": lang,
                       "hands": "fan=3 by=self-draw seat=S"})
    host.goto(f"/sheet?{query}")
    count.start()                                                       # sharing
    count.tap(host.locator("#share"))
    expect(host.locator("#share-table")).to_have_attribute("open", "")
    count.tap(host.locator("#edit-share button[data-copy]"))
    expect(host.locator("#edit-share .copied")).not_to_be_empty()
    rows.append(("share the table (the links, their QR codes, copy)", count.taps, count.loads))
    edit = host.locator("#edit-share-address").input_value()

    guest = _phone(browser, base)                                      # joining
    joined = Counter(guest)
    guest.goto(edit)
    expect(guest.locator("#agreed")).to_be_visible()
    rows.append(("join from the QR code (the camera's scan aside)", joined.taps, joined.loads))

    count.start()                                                       # an agreed hand
    before = host.locator("#live").get_attribute("data-version")
    count.tap(host.locator("#agreed-winner label").nth(1))
    count.tap(host.locator("#agreed-from label").nth(1))
    count.tap(host.locator("#agreed-fan label").nth(2))
    count.tap(host.locator("#agreed-confirm"))
    _changed(host, before)
    rows.append(("add an agreed hand (winner, who dealt in, fan, confirm)", count.taps, count.loads))

    count.start()                                                       # a hand by its tiles
    count.tap(host.locator("#add-hand"))
    if missing:
        count.choose(host.locator("select[name=missing]"), missing)
    for n, code in enumerate([tiles[i:i + 2] for i in range(0, len(tiles), 2)], 1):
        count.tap(host.locator(f"#add-{code}"))
        host.locator("#hand-tiles button[name=remove]").nth(n - 1).wait_for()
    count.tap(host.locator("#by label").nth(1))                         # self-draw
    count.tap(host.locator("#seat label").nth(2))                       # the winner: West
    host.locator("#sheet-add").wait_for()
    count.tap(host.locator("#sheet-add"))
    before = host.locator("#live").get_attribute("data-version")
    count.tap(host.locator("#confirm"))
    _changed(host, before)
    rows.append(("add a hand by its tiles (the picker, way, winner, add, confirm)", count.taps, count.loads))

    count.start()                                                       # correcting
    before = host.locator("#live").get_attribute("data-version")
    count.tap(host.locator("a.fix-hand").nth(1))
    count.tap(host.locator("#agreed-from label").nth(3))
    count.tap(host.locator("#agreed-confirm"))
    _changed(host, before)
    rows.append(("correct a hand's discarder in place", count.taps, count.loads))
    host.context.close()
    guest.context.close()
    return rows


@contextmanager
def served() -> Iterator[str]:
    """The app on gunicorn on a free loopback port, its stored sheets and clubs in a temporary
    folder (SQLite): its base address, once it answers."""
    port = free_port()
    env = dict(os.environ, MAHJONG_DATA_DIR=tempfile.mkdtemp(prefix="mahjong-bench-"))
    env.pop("MAHJONG_DATABASE_URL", None)
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "--workers", "1", "--threads", "4",
                               "--bind", f"127.0.0.1:{port}", "app.web:create_app()"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(f"{base}/api/health", server)
        yield base
    finally:
        stop_group(server)


def main() -> int:
    with served() as base:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            print("| family | step | taps | page loads |")
            print("|---|---|---|---|")
            for rules, lang, tiles, missing in FAMILIES:
                for step, taps, loads in night(browser, base, rules, lang, tiles, missing):
                    print(f"| {rules} ({lang}) | {step} | {taps} | {loads} |")
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
