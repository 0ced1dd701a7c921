"""gzip for text answers, when the client accepts it: a result page goes from ~26 KB to ~5.

A compressed answer is another representation of the same address, so its strong ETag gets
a `-gz` suffix and every compressible answer says `Vary: Accept-Encoding` (RFC 9110 8.8.3).
The bytes are reproducible (no timestamp in the gzip header), so the ETag stays strong.
"""
from __future__ import annotations

import gzip
from functools import lru_cache

from flask import Flask, request

COMPRESSIBLE = {"text/html", "application/json", "text/css", "text/javascript",
                "application/javascript", "image/svg+xml"}
MIN_SIZE = 1024            # smaller answers fit in a packet either way
GZIP_SUFFIX = "-gz"


def gzip_bytes(data: bytes) -> bytes:
    """Compress reproducibly: the same bytes in, the same bytes out.

    >>> gzip.decompress(gzip_bytes(b"tiles" * 100)) == b"tiles" * 100
    True
    >>> gzip_bytes(b"a" * 2000) == gzip_bytes(b"a" * 2000)
    True
    """
    return gzip.compress(data, compresslevel=6, mtime=0)


@lru_cache(maxsize=64)
def _gzip_static(data: bytes) -> bytes:
    return gzip_bytes(data)


def install(app: Flask) -> None:
    app.after_request(_compress)


def _compress(response):
    if request.method not in ("GET", "HEAD") or response.mimetype not in COMPRESSIBLE:
        return response
    response.vary.add("Accept-Encoding")
    if (response.status_code != 200 or "Content-Encoding" in response.headers
            or request.accept_encodings["gzip"] <= 0):
        return response
    response.direct_passthrough = False   # a static file is read here rather than sent as is
    data = response.get_data()
    if len(data) < MIN_SIZE:
        return response
    response.set_data(_gzip_static(data) if request.endpoint == "static" else gzip_bytes(data))
    response.headers["Content-Encoding"] = "gzip"
    tag, weak = response.get_etag()
    if tag:
        response.set_etag(tag + GZIP_SUFFIX, weak)
    return response
