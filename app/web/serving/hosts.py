"""Which host and scheme an absolute address names: never one a client made up unseen.

An answer that names its own address (oEmbed's frame and script, a page's discovery link) is
kept by caches for an hour, so what it names must be what caches key on. It is the configured
public name (`MAHJONG_SERVER_NAME`) when there is one, else the request's own `Host` (which a
cache keys on, and which `MAHJONG_TRUSTED_HOSTS` may restrict). `X-Forwarded-Host`,
`-Proto`, `-Port` and `-For` are read only behind a proxy the configuration trusts
(`MAHJONG_PROXY_HOPS`: how many proxies in front each set them, werkzeug's ProxyFix); by
default nobody's are read (gunicorn's own reading of `X-Forwarded-Proto` is off too, in
`server.py`).
"""
from __future__ import annotations

import re

from flask import Flask, current_app, request
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.sansio.utils import get_current_url


def proxy_hops(value: str | None) -> int:
    """The number of trusted proxies from the environment: 0 when unset.

    >>> proxy_hops(None), proxy_hops(" 2 ")
    (0, 2)
    """
    text = (value or "").strip()
    if not text:
        return 0
    if not text.isdecimal() or not 0 <= int(text) <= 10:
        raise ValueError(f"MAHJONG_PROXY_HOPS: {value!r} is not a number of proxies from 0 to 10")
    return int(text)


def install(app: Flask) -> None:
    """Behind `PROXY_HOPS` trusted proxies, take the client's host, scheme and port from them."""
    hops = app.config["PROXY_HOPS"]
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops)


def public_root() -> str:
    """This calculator's absolute root, e.g. `https://mahjong.example.org` (no final slash)."""
    return f"{request.scheme}://{public_host()}{request.script_root}"


def public_host() -> str:
    """The host name (and port) absolute addresses name."""
    return current_app.config["SERVER_NAME"] or request.host


def public_url() -> str:
    """The current request's own address, made absolute on the public root (made once a
    request: a page's head names it twice, its preview's og:url and its oEmbed link)."""
    environ = request.environ
    found = environ.get(_PUBLIC_URL)
    if found is None:
        found = environ[_PUBLIC_URL] = absolute_url(
            request.scheme, public_host(), request.root_path, request.path, request.query_string)
    return found


_PUBLIC_URL = "mahjong.public_url"


def absolute_url(scheme: str, host: str, root_path: str, path: str, query: bytes) -> str:
    """werkzeug's get_current_url, without its quoting and decoding where they change nothing
    (an address of plain characters and no escapes, the usual permalink: a discovery link
    costs the page a few microseconds, not 70).

    >>> absolute_url("https", "mahjong.example.org", "/m", "/card", b"rules=hong-kong&hand=11m")
    'https://mahjong.example.org/m/card?rules=hong-kong&hand=11m'
    """
    text = query.decode("latin-1")
    if (_PLAIN_PATH.fullmatch(root_path) and _PLAIN_PATH.fullmatch(path)
            and _PLAIN_QUERY.fullmatch(text) and "xn--" not in host.lower()):
        return (f"{scheme}://{host}{root_path.rstrip('/')}/{path.lstrip('/')}"
                + (f"?{text}" if text else ""))
    return get_current_url(scheme, host, root_path, path, query)


# what get_current_url's quote keeps as it is, without '%' (an escape uri_to_iri would decode)
_PLAIN_PATH = re.compile(r"[A-Za-z0-9_.~!$&'()*+,/:;=@-]*")
_PLAIN_QUERY = re.compile(r"[A-Za-z0-9_.~!$&'()*+,/:;=?@-]*")
