"""Taps and page loads for an organiser to start a club night for 12 players (issue 44: at most
10), on a 390 px phone with touch, in English, 繁體 (Hong Kong) and 简体 (Sichuan).

Run on demand (not part of the suite): `python tests/bench/bench_club_taps.py`. It serves the
app with gunicorn on a free port (its database in a temporary folder), makes each club and its
members beforehand (not counted: a club is made once, a night every week), then drives Debian's
chromium through Playwright from the organiser's link, already open, to the night's page with
its tables. A tap is one touch (a tick, a radio button, a button); a page load is a document
the phone loads after the first screen. It prints one row per case and exits 1 when a case
takes more than 10 taps.

The cases:
- the first night of a club of 12: everyone is ticked already;
- a usual night: 16 members, 12 came last week, tonight two of them are away and two others
  came (two ticks off, two on), seated by the standings;
- the first night of a club of 16 where 12 came: four ticks off, everyone meets everyone.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))      # tests.bench, when run as a script

from tests.bench.bench_table_taps import Counter, served  # noqa: E402  (counted and served as there)

CHROMIUM = os.environ.get("MAHJONG_CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
MOST = 10                          # the bound for 12 players
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu", "Mo", "Ned", "Oz", "Pam"]
CASES = [   # what, rules, language, members, present last week (None: no night yet), tonight, method
    ("first night, 12 members, all here", "hong-kong", "en", 12, None, range(1, 13), "random"),
    ("usual night, 16 members, 2 away and 2 others came, by the standings", "hong-kong", "zh-Hant", 16,
     range(1, 13), [*range(1, 11), 13, 14], "snake"),
    ("first night, 16 members, 12 here, everyone meets everyone", "sichuan", "zh-Hans", 16, None,
     range(1, 13), "meet"),
]


def _club(page: Page, rules: str, members: int, last_week) -> str:
    """A club with its members (and last week's night), made through the app's own forms; its
    organiser's link."""
    made = page.request.post("/club/new", form={"name": "Bench club", "rules": rules, "season": "S1"},
                             max_redirects=0)
    link = made.headers["location"]
    for name in NAMES[:members]:
        page.request.post(f"{link}/members", form={"name": name}, max_redirects=0)
    if last_week:
        body = "&".join([f"present={m}" for m in last_week] + ["method=random", "seed=1"])
        page.request.post(f"{link}/nights", data=body, max_redirects=0,
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
    return link


def start_night(browser, base: str, rules: str, lang: str, members: int, last_week, tonight,
                method: str) -> tuple[int, int, int]:
    """(taps, page loads, tables seated) to start tonight's night from the organiser's link."""
    context = browser.new_context(viewport=PHONE, base_url=base, has_touch=True, is_mobile=True)
    page = context.new_page()
    link = _club(page, rules, members, last_week)
    page.goto(f"{link}?lang={lang}")
    count = Counter(page)
    count.start()
    wanted = set(tonight)
    for box in page.locator("input[name=present]").all():
        member = int(box.get_attribute("value"))
        if box.is_checked() != (member in wanted):
            count.tap(box)
    if not page.locator(f"#method-{method}").is_checked():
        count.tap(page.locator(f"#method-{method}"))
    count.tap(page.locator("#start-night"))
    expect(page.locator("#plan-said")).to_be_visible()
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], f"the tables shown are {wide} px wide on a {PHONE['width']} px phone"
    count.tap(page.locator("#confirm-night"))
    expect(page.locator("li.club-table").first).to_be_visible()
    assert re.search(r"/nights/\d+", page.url), page.url
    seated = page.locator("ol.seats li").count()
    assert seated == len(wanted), seated
    tables = page.locator("li.club-table").count()
    context.close()
    return count.taps, count.loads, tables


def main() -> int:
    worst = 0
    with served() as base:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            print("| case | rules (language) | taps | page loads | tables |")
            print("|---|---|---|---|---|")
            for what, rules, lang, members, last_week, tonight, method in CASES:
                taps, loads, tables = start_night(browser, base, rules, lang, members, last_week, tonight, method)
                worst = max(worst, taps)
                print(f"| {what} | {rules} ({lang}) | {taps} | {loads} | {tables} |")
            browser.close()
    print(f"most taps: {worst} (at most {MOST} allowed)")
    return 0 if worst <= MOST else 1


if __name__ == "__main__":
    sys.exit(main())
