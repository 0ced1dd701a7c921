"""A result page is light: few requests and few bytes on a first view, one on a repeat view.

Measured in Debian's chromium through its DevTools protocol: every request the page makes,
whether the memory or disk cache answered it, and the bytes each took on the wire (headers
and the possibly compressed body).
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

RESULT = "/?rules=hong-kong&hand=123m456m789m234p55s&discarder=N"
MAX_REQUESTS = 4
MAX_BYTES = 60 * 1024


class Network:
    """What chromium reports for one page's loads: requests, cache hits, bytes received."""

    def __init__(self, page: Page):
        self.urls: dict[str, str] = {}
        self.cached: set[str] = set()
        self.received: dict[str, int] = {}
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.requestWillBeSent",
               lambda e: self.urls.update({e["requestId"]: e["request"]["url"]}))
        cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        cdp.on("Network.responseReceived", lambda e: self._from_cache(e))
        cdp.on("Network.loadingFinished",
               lambda e: self.received.update({e["requestId"]: e["encodedDataLength"]}))

    def _from_cache(self, event) -> None:
        if event["response"].get("fromDiskCache") or event["response"].get("fromPrefetchCache"):
            self.cached.add(event["requestId"])

    def from_network(self) -> list[str]:
        return [url for rid, url in self.urls.items()
                if rid not in self.cached and not url.startswith("data:")]

    def bytes_received(self) -> int:
        return sum(n for rid, n in self.received.items() if rid not in self.cached)


def _view(page: Page, path: str) -> Network:
    network = Network(page)
    response = page.goto(path)
    assert response is not None and response.ok
    page.wait_for_load_state("networkidle")
    drawn = page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
    assert drawn and page.locator("img.tile").count() > 20   # every tile drawn from the sprite
    return network


def test_a_result_pages_first_view_makes_at_most_4_requests_and_60_kb(page: Page):
    network = _view(page, RESULT)
    urls = network.from_network()
    assert len(urls) <= MAX_REQUESTS, urls
    assert sum("sprite.svg" in u for u in urls) == 1   # every tile from one image
    assert 0 < network.bytes_received() <= MAX_BYTES, network.received


def test_a_repeat_view_asks_the_network_for_the_page_at_most(page: Page):
    _view(page, RESULT)
    again = page.context.new_page()
    network = _view(again, RESULT)
    assert len(network.urls) >= 4   # the page, its style, script and sprite were all wanted
    assert [u for u in network.from_network() if "/static/" in u] == []
    assert len(network.from_network()) <= 1, network.from_network()
