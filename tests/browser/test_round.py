"""The round ledger in a real browser: a round with two kongs, two winners and an exhausted wall."""
from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import Page, expect

from app.vocabulary.round import parse_round_text

pytestmark = pytest.mark.browser

ROUND = """missing E=p S=m W=s N=p
kong W exposed 2m from N
win E self-draw hand=123s456s789s234s55s
kong S concealed 9p
win N discard from W hand=345m678m456s678s99s
wall S hand=123p456p23p55p melds=ckong:9999p; W hand=1357m1357p46m melds=kong:2222m"""


def settle(base_url: str, text: str) -> dict:
    request = urllib.request.Request(
        f"{base_url}/api/settle", data=json.dumps(parse_round_text(text)).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def test_enter_a_round_and_read_the_final_table(page: Page, base_url):
    want = settle(base_url, ROUND)
    assert want["valid"] and len(want["wins"]) == 2
    assert sum(want["totals"].values()) == 0

    page.goto("/round")
    page.get_by_text("Advanced: the round as text").click()   # the text is kept under Advanced
    page.get_by_label("Rules").select_option("sichuan")
    page.get_by_label("The round, one event a line").fill(ROUND)
    page.get_by_role("button", name="Settle the round").click()

    final = page.locator("table", has=page.locator("caption", has_text="Final totals"))
    expect(final).to_be_visible()
    cells = final.locator("tbody td")
    shown = {seat: float(cells.nth(i).inner_text().replace("+", "")) for i, seat in enumerate("ESWN")}
    assert shown == {seat: float(v) for seat, v in want["totals"].items()}

    ledger = page.locator("table", has=page.locator("caption", has_text="Ledger"))
    expect(ledger).to_contain_text("查叫")
    expect(ledger).to_contain_text("退税")
    expect(ledger.get_by_role("link", name="breakdown")).to_have_count(2)
