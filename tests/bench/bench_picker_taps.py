"""Taps and page loads for the five hands of issue 26, entered with the tile picker at 390 px.

Run on demand (not part of the suite): `python tests/bench/bench_picker_taps.py`. It serves
the app with Flask's server on a free port, drives Debian's chromium through Playwright and
prints, per hand, the taps made, the page loads after the first one and the count the livewing
(riichi) method would need for the same tiles (a called meld: its kind, then one tile).
A choice in a <select> counts as two taps (open, choose), as on a phone. The rules are in
the starting address, for both counts.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("MAHJONG_CHROMIUM", "/usr/bin/chromium")

# (name, rules, called melds (kind button, tiles; the first names it), concealed tiles, one-tap choices,
#  select choices, livewing's count)
HANDS = [
    ("a", "hong-kong", [], "1m2m3m4m5m6m7m8m9m2p3p4p5s5s",
     [("How the hand was won", "Self-draw"), ("Winner's seat", "South")], [], 14),
    ("b", "hong-kong", [("pong", "7z7z7z"), ("pong", "1z1z1z"), ("chow", "1p2p3p")], "4s5s6s9m9m",
     [("Discarder", "North")], [], 11),
    ("c", "sichuan", [], "1m1m2m2m3m3m4m4m5m5m6m6m7m7m",
     [("How the hand was won", "Self-draw")], [("missing", "p")], 14),
    ("d", "sichuan", [("ckong", "9p9p9p9p")], "1m2m3m4m5m6m7m8m5p5p9m",
     [("Discarder", "West")], [("missing", "s")], 13),
    ("e", "family", [], "1m2m3m4m5m6m7m8m9m1z1z1z5p5p",
     [("How the hand was won", "Self-draw")], [], 14),
]
RULE_TAPS = {"a": 2, "b": 1, "c": 3, "d": 3, "e": 3}   # seat, way of winning, missing suit, flowers


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tiles(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def enter(page, base: str, hand) -> tuple[int, int, str]:
    name, rules, melds, concealed, taps_on, selects, _ = hand
    page.goto(f"{base}/?rules={rules}")
    loads: list[str] = []
    page.on("domcontentloaded", lambda p: loads.append(p.url))
    taps = 0
    for group, label in taps_on:
        page.get_by_role("radiogroup", name=group).get_by_label(label, exact=False).check()
        taps += 1
    for field, value in selects:
        page.locator(f"select[name={field}]").select_option(value)
        taps += 2
    if name == "e":
        for flower in ("1", "2"):
            page.locator(f"input[name=flowers][value='{flower}']").check()
            taps += 1
    for n, (kind, tiles) in enumerate(melds, 1):      # a meld in two taps: its kind, one tile
        page.locator(f"button[name=start][value={kind}]").click()
        page.locator(f"button[name=start][value={kind}][aria-pressed=true]").wait_for()
        page.locator(f"#add-{_tiles(tiles)[0]}").click()
        taps += 2
        page.locator(".meld").nth(n - 1).wait_for()
    for n, code in enumerate(_tiles(concealed), 1):
        page.locator(f"#add-{code}").click()
        taps += 1
        page.locator("#hand-tiles button[name=remove]").nth(n - 1).wait_for()
    page.locator("#result-heading").wait_for()
    return taps, len(loads), page.locator("#result-heading").inner_text()


def by_keyboard(page, base: str) -> tuple[int, int, str]:
    """Hand (a) with the keyboard alone: the key presses, the page loads, the result."""
    page.goto(f"{base}/?rules=hong-kong")
    loads: list[str] = []
    page.on("domcontentloaded", lambda p: loads.append(p.url))
    keys = ["Tab", "Enter", *"123456789m234p55s", "Tab", "Tab", "ArrowRight", "Tab", "ArrowRight",
            "Enter"]
    for key in keys:
        page.keyboard.press(key)
    page.locator("#result-heading").wait_for()
    return len(keys), len(loads), page.locator("#result-heading").inner_text()


def main() -> int:
    port = _port()
    server = subprocess.Popen([sys.executable, "-m", "flask", "--app", "app.web:create_app", "run",
                               "--port", str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60   # a busy machine starts the server slowly
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            print("| hand | taps with the picker | page loads | livewing + the rules' taps | result |")
            print("|---|---|---|---|---|")
            for hand in HANDS:
                page = browser.new_page(viewport={"width": 390, "height": 844})
                taps, loads, result = enter(page, f"http://127.0.0.1:{port}", hand)
                print(f"| {hand[0]} | {taps} | {loads} | {hand[-1]} + {RULE_TAPS[hand[0]]} = "
                      f"{hand[-1] + RULE_TAPS[hand[0]]} | {result} |")
                page.close()
            page = browser.new_page(viewport={"width": 390, "height": 844})
            keys, loads, result = by_keyboard(page, f"http://127.0.0.1:{port}")
            print(f"\nhand a by the keyboard: {keys} key presses, {loads} page load (the score), {result}")
            page.close()
            browser.close()
    finally:
        server.terminate()
        server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
