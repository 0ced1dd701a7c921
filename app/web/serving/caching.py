"""HTTP caching: an answer depends only on the build and the address, so caches may keep it.

A calculation changes nothing and reads no cookie, so a GET answer is a function of the
request's path and query and of the build (app version, code, templates, static files and
rulesets). Every GET answer says how long it may be kept (`Cache-Control: public`); a 200
carries a strong ETag made from the build and the address, and a request whose
`If-None-Match` names it is answered 304 before anything is rendered. Static files are linked
with their content's hash (`/static/style.css?v=…`), and such a link never changes:
`max-age=31536000, immutable`.

An address naming a shared sheet's token (privacy.py) is the exception: its answer is
`no-store`, whatever it is, so no cache keeps the token or the page it opens.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from flask import Flask, current_app, request

from app.base.resources import PACKAGE as APP_PACKAGE

from .compression import GZIP_SUFFIX
from .hosts import public_root
from .privacy import private_request

PAGE_MAX_AGE = 3600        # seconds a page or API answer may be kept (a deploy changes them)
ERROR_MAX_AGE = 60         # a refusal of the same address is the same refusal
STATIC_MAX_AGE = 31536000  # a year: a hashed static address is never reused for other bytes
# a probe must reach the instance it probes; a shared sheet changes under its address
UNCACHED_ENDPOINTS = {"api.health", "api.ready", "stored.page", "stored.version", "stored.as_csv", "stored.as_json"}
PACKAGE = "mahjong-scoring-calculator"
APP_DIR = APP_PACKAGE


def app_version() -> str:
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        return "0+unknown"


def digest(named_bytes: Iterable[tuple[str, bytes]]) -> str:
    """One SHA-256 over (name, bytes) pairs, in name order.

    >>> digest([("b", b"2"), ("a", b"1")]) == digest([("a", b"1"), ("b", b"2")])
    True
    """
    h = hashlib.sha256()
    for name, data in sorted(named_bytes):
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def files_under(folder: Path, pattern: str = "*") -> list[tuple[str, bytes]]:
    return [(str(p.relative_to(folder)), p.read_bytes())
            for p in folder.rglob(pattern) if p.is_file() and "__pycache__" not in p.parts]


def build_id(app: Flask) -> str:
    """The version and digests of everything an answer is made from."""
    loader = app.jinja_loader
    templates = [(name, loader.get_source(app.jinja_env, name)[0].encode())
                 for name in loader.list_templates()] if loader else []
    parts = [
        ("version", app_version().encode()),
        ("code", digest(files_under(APP_DIR, "*.py")).encode()),
        ("templates", digest(templates).encode()),
        ("static", digest(files_under(Path(app.static_folder))).encode()),
        ("rulesets", digest(files_under(Path(app.config["RULESET_DIR"]), "*.yaml")).encode()),
    ]
    return digest(parts)[:16]


def etag_for(build: str, path: str, query: bytes) -> str:
    """The strong validator of one address's answer under one build.

    >>> etag_for("b1", "/", b"hand=1m") != etag_for("b2", "/", b"hand=1m")
    True
    """
    return hashlib.sha256(f"{build}\0{path}\0".encode() + query).hexdigest()[:32]


@lru_cache(maxsize=256)
def static_hash(folder: str, filename: str) -> str | None:
    """The first 12 hex digits of a static file's SHA-256; None if it is not a file."""
    root = Path(folder).resolve()
    try:
        path = (root / filename).resolve()
        if root not in path.parents or not path.is_file():
            return None
        return hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    except (OSError, ValueError):   # a name from the address: too long, a NUL byte …
        return None


def install(app: Flask) -> None:
    """Add content hashes to static links, 304 before rendering, cache headers on answers."""
    app.config["BUILD_ID"] = build_id(app)
    static_hash.cache_clear()   # a new app may serve changed files
    app.url_defaults(_hash_static_links)
    app.before_request(_not_modified)
    app.after_request(_cache_headers)


def _hash_static_links(endpoint: str, values: dict) -> None:
    if endpoint == "static" and "v" not in values:
        version = static_hash(current_app.static_folder, values.get("filename", ""))
        if version:
            values["v"] = version


def _current_etag() -> str:
    # an answer may name its own absolute address (hosts.public_root): scheme and host count
    return etag_for(current_app.config["BUILD_ID"], public_root() + request.path, request.query_string)


def _cacheable() -> bool:
    return (request.method in ("GET", "HEAD") and request.endpoint is not None
            and request.endpoint != "static" and request.endpoint not in UNCACHED_ENDPOINTS
            and not private_request())


def _not_modified():
    """304 for an address whose answer the client holds: nothing is computed or rendered.

    Only for the representation this client would get: the gzipped one's tag when it accepts
    gzip, the plain one's when it does not. `If-None-Match: *`, and a plain tag from a client
    that accepts gzip (the answer may be too small to compress), are judged after the answer
    (`not_modified_after`), where its status and encoding are known.
    """
    if not _cacheable():
        return None
    tag = _current_etag()
    held = tag + GZIP_SUFFIX if request.accept_encodings["gzip"] > 0 else tag
    if not _names(request.if_none_match, held):
        return None
    response = current_app.response_class(status=304)
    response.set_etag(held)
    response.headers["Cache-Control"] = f"public, max-age={PAGE_MAX_AGE}"
    return response


def _names(tags, tag: str) -> bool:
    """Whether If-None-Match lists this very tag (a `*` alone is not a tag)."""
    return tags.is_strong(tag) or tags.is_weak(tag)


def not_modified_after(response):
    """A cacheable 200 the client already holds (its tag, or `*`) becomes a 304 with no body.

    Runs after compression, so the tag compared is the one this encoding carries; a 400, 404,
    a redirect or a no-store answer is never turned into a 304.
    """
    if (response.status_code != 200 or request.method not in ("GET", "HEAD") or not request.if_none_match
            or "public" not in response.headers.get("Cache-Control", "")):
        return response
    tag, _weak = response.get_etag()
    if tag and (request.if_none_match.star_tag or _names(request.if_none_match, tag)):
        response.status_code = 304
        response.set_data(b"")
        for name in ("Content-Encoding", "Content-Length", "Content-Type", "Content-Disposition"):
            response.headers.pop(name, None)
    return response


def _cache_headers(response):
    if request.method not in ("GET", "HEAD"):
        return response
    if private_request():   # a token in the address: kept nowhere, whatever the view said
        response.headers["Cache-Control"] = "no-store"
    elif request.endpoint == "static":   # Flask's own "no-cache" is replaced for a hashed link
        fresh = request.args.get("v") == static_hash(current_app.static_folder,
                                                      request.view_args.get("filename", ""))
        response.headers["Cache-Control"] = (f"public, max-age={STATIC_MAX_AGE}, immutable"
                                             if fresh and response.status_code in (200, 304)
                                             else "no-cache")
    elif "Cache-Control" in response.headers:   # the view knows better (a random redirect)
        pass
    elif request.endpoint in UNCACHED_ENDPOINTS or response.status_code >= 500:
        response.headers["Cache-Control"] = "no-store"
    elif response.status_code == 200:
        response.set_etag(_current_etag())
        response.headers["Cache-Control"] = f"public, max-age={PAGE_MAX_AGE}"
    else:
        response.headers["Cache-Control"] = f"public, max-age={ERROR_MAX_AGE}"
    return response


__all__ = ["install", "not_modified_after", "etag_for", "build_id", "static_hash", "PAGE_MAX_AGE", "STATIC_MAX_AGE"]
