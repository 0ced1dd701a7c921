"""A shared sheet's tokens stay private: masked in every log line, never kept by a cache.

The tokens this server hands out are capabilities (app/store/sheets.py): a shared sheet's edit
and view tokens, and a club's organiser, member and view tokens (app/store/clubs.py). They
travel in `/s/<token>` and `/c/<token>` paths and in `stored=<token>` values (`/sheet?
stored=…`, a calculator page's `sheet=stored=…`), and, percent-encoded once or more, inside
other values: oEmbed's `url=`, a `Referer`, a redirect's `Location`. `mask` replaces each with
`[masked]` wherever it stands in a text, so the access log and the error log name none
(server.py, `MaskedLogger`; the app's own logger: `MaskFilter`). A request whose address
carries one (`carries_token`) is answered `no-store` and `no-referrer` (app/web/__init__.py,
caching.py).
"""
from __future__ import annotations

import logging
import re

from flask import g, request

MASK = "[masked]"

# an escape that is not a separator once decoded (at any depth: %2526 is a `&` twice encoded):
# `&`, `#`, space, `?`, `/`, `"`
_PLAIN_ESCAPE = r"%(?!(?:25)*(?:26|23|20|3F|2F|22))[0-9A-Fa-f]{2}"
_SLASH = r"(?:/|%(?:25)*2F)"
_TOKEN_PATH = re.compile(rf"({_SLASH}[sc]{_SLASH})(?:[A-Za-z0-9_~+-]|{_PLAIN_ESCAPE})+", re.I)
_TOKEN_VALUE = re.compile(rf"(stored(?:=|%(?:25)*3D))(?:[A-Za-z0-9_~.+-]|{_PLAIN_ESCAPE})+", re.I)


def mask(text: str) -> str:
    """The text with every sheet token in it replaced by `[masked]`.

    >>> mask("GET /s/MH74ybtHO6n0zKczoBg3LGZH/change HTTP/1.1")
    'GET /s/[masked]/change HTTP/1.1'
    >>> mask("/?hand=11m&sheet=stored%3DMH74ybtHO6n0zKczoBg3LGZH%26hand%3D1&entry=1")
    '/?hand=11m&sheet=stored%3D[masked]%26hand%3D1&entry=1'
    >>> mask("/oembed?url=http%3A%2F%2Fh%2Fs%2FMH74ybtHO6n0zKcz.csv&x=stored%253DAb_-9%2526y")
    '/oembed?url=http%3A%2F%2Fh%2Fs%2F[masked].csv&x=stored%253D[masked]%2526y'
    >>> mask("GET /c/MH74ybtHO6n0zKczoBg3LGZH/nights/2 HTTP/1.1")
    'GET /c/[masked]/nights/2 HTTP/1.1'
    >>> mask("/static/style.css?v=1") == "/static/style.css?v=1"
    True
    """
    folded = text.lower()
    if "stored" not in folded and "s/" not in folded and "s%" not in folded and "c/" not in folded \
            and "c%" not in folded:
        return text   # most texts: no regular expression run
    return _TOKEN_VALUE.sub(rf"\1{MASK}", _TOKEN_PATH.sub(rf"\1{MASK}", text))


def carries_token(path: str, query: str) -> bool:
    """Whether a request's address names a sheet's or a club's token (its path or any value of
    its query).

    >>> carries_token("/s/abc", ""), carries_token("/", "sheet=stored%3Dabc"), carries_token("/", "hand=11m")
    (True, True, False)
    >>> carries_token("/c/abc/standings", "sort=total")
    True
    """
    return (path.startswith(("/s/", "/c/")) or _TOKEN_VALUE.search(query) is not None
            or _TOKEN_PATH.search(query) is not None)


def private_request() -> bool:
    """Whether the current request's address names a token: its answer is kept by no cache
    and sends no referrer."""
    found = g.get("_carries_token")
    if found is None:
        found = g._carries_token = carries_token(request.path, request.query_string.decode("latin-1"))
    return found


def mark_edit_page() -> None:
    """Say that this answer is a sheet's edit page (its edit link's /s/ page): framed by no site."""
    g._edit_page = True


def edit_page() -> bool:
    """Whether this answer is an edit page: one the view marked, or a page whose query carries
    a sheet (`stored=`: only the edit link's pages carry one), which no site may frame."""
    return bool(g.get("_edit_page")) or (private_request() and _TOKEN_VALUE.search(
        request.query_string.decode("latin-1")) is not None)


def cross_site(origin: str | None, fetch_site: str | None, hosts: tuple[str, ...]) -> bool:
    """Whether a POST came from another site's page.

    `Sec-Fetch-Site` decides when a browser sends it: `same-origin` is taken, `cross-site` and
    `same-site` (a sibling host) refused. Else `Origin` must name one of this server's hosts
    (default ports 80 and 443 count as none). A request with neither (curl, an old browser) is
    taken, and so is `Origin: null` alone: a browser sends `null` for a form posted from a page
    answered `Referrer-Policy: no-referrer`, as the sheet's own page is. A frame of this calculator
    on a lesson site posts from the calculator's own origin, so it is taken too.

    >>> cross_site("https://calc.example", None, ("calc.example",))
    False
    >>> cross_site(None, None, ("calc.example",)), cross_site("null", "same-origin", ("calc.example",))
    (False, False)
    >>> cross_site("http://127.0.0.1:8000", None, ("127.0.0.1:8000",))
    False
    >>> cross_site("https://evil.example", None, ("calc.example",))
    True
    >>> cross_site("null", "cross-site", ("calc.example",)), cross_site(None, "same-site", ("calc.example",))
    (True, True)
    """
    site = (fetch_site or "").strip().lower()
    if site == "same-origin":
        return False
    if site in ("cross-site", "same-site"):
        return True
    text = (origin or "").strip().lower()
    if not text or text == "null":
        return False
    scheme, sep, netloc = text.partition("://")
    if not sep or scheme not in ("http", "https") or "/" in netloc:
        return True
    return _no_default_port(netloc) not in {_no_default_port(h.lower()) for h in hosts if h}


def _no_default_port(host: str) -> str:
    return host.removesuffix(":80").removesuffix(":443")


class MaskFilter(logging.Filter):
    """A log record's message with its tokens masked (Flask's "Exception on /s/… [POST]")."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


__all__ = ["mask", "carries_token", "private_request", "edit_page", "mark_edit_page", "cross_site", "MaskFilter", "MASK"]
