"""Request bodies: one size limit, checked before a byte of the body is read.

Only POST /api/settle takes a body (a round, at most `MAX_BODY` bytes of JSON), so every
route shares its limit. A declared `Content-Length` over it is refused from the headers
alone (`app.web.serving.server.Worker` also withholds `100 Continue` for it); any other body is read
whole here, before the app (a chunked one at most one byte past the limit), so no view ever
meets a chunked, a malformed or a half-sent body. The verdict goes to the app in the WSGI
environ, which answers it with its own error page (`create_app`'s `_refuse_body`).
"""
from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from app.base.i18n import Msg

MAX_BODY = 64 * 1024      # bytes: the largest round is a few kilobytes of JSON
REFUSED = "mahjong.body_refused"   # environ key: (status, message) when a body is refused
JUDGED = "mahjong.body_judged"     # environ key: the body was read (or refused) already
READ_SIZE = 16 * 1024


def declared_length(value: str | None) -> int | None:
    """A Content-Length header's number, None when absent or not a number.

    >>> declared_length("200"), declared_length(None), declared_length("x")
    (200, None, None)
    """
    if value is None or not value.strip().isdecimal():
        return None
    return int(value)


def is_chunked(transfer_encoding: str | None) -> bool:
    """Whether a Transfer-Encoding header says the body comes in chunks."""
    return "chunked" in (transfer_encoding or "").lower()


def too_long(length: int) -> str:
    return Msg("the body is {length} bytes; at most {most}", length=length, most=MAX_BODY)


def verdict(environ: dict[str, Any]) -> tuple[int, str] | None:
    """Read the body whole into the environ; (status, message) when it is refused."""
    length = declared_length(environ.get("CONTENT_LENGTH"))
    if length is not None and length > MAX_BODY:
        return 413, too_long(length)
    chunked = is_chunked(environ.get("HTTP_TRANSFER_ENCODING"))
    if not chunked and not length:
        return None
    wanted = MAX_BODY + 1 if chunked else length
    stream = environ["wsgi.input"]
    data = bytearray()
    try:
        while len(data) < wanted:
            chunk = stream.read(min(READ_SIZE, wanted - len(data)))
            if not chunk:
                break
            data += chunk
    except Exception as err:   # the server's parser: a bad chunk size, a missing CRLF, a hang-up
        return 400, Msg("the body could not be read ({error})", error=type(err).__name__)
    if len(data) > MAX_BODY:
        return 413, Msg("the body is more than {most} bytes; at most {most}", most=MAX_BODY)
    if not chunked and len(data) < length:
        return 400, Msg("the body ended after {got} of its {length} bytes", got=len(data),
                        length=length)
    environ["wsgi.input"] = io.BytesIO(bytes(data))
    environ["CONTENT_LENGTH"] = str(len(data))
    environ.pop("HTTP_TRANSFER_ENCODING", None)
    return None


def judge(environ: dict[str, Any]) -> None:
    """Read the body into the environ, or note there why it is refused; once a request."""
    if environ.get(JUDGED):
        return
    environ[JUDGED] = True
    refused = verdict(environ)
    if refused is not None:
        environ[REFUSED] = refused
        environ["wsgi.input"] = io.BytesIO(b"")
        environ["CONTENT_LENGTH"] = "0"
        environ.pop("HTTP_TRANSFER_ENCODING", None)


class BodyLimit:
    """WSGI middleware: judge the body (see `verdict`) before the app makes its request."""

    def __init__(self, app: Callable[..., Iterable[bytes]]):
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        judge(environ)
        return self.app(environ, start_response)
