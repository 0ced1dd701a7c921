"""What masking the shared sheets' tokens costs an access-log line (docs/performance.md,
"Masking tokens in the log"): gunicorn's own logger against `MaskedLogger`, the default
format, a line naming a token and a line naming none, each the best of 3 runs of 5,000.

    .venv/bin/python tests/bench/bench_log_mask.py
"""
from __future__ import annotations

import datetime
import timeit

from gunicorn.config import Config
from gunicorn.glogging import Logger

from app.web.serving.server import MaskedLogger

TOKEN = "MH74ybtHO6n0zKczoBg3LGZH"
LINES = {
    "a page carrying a sheet": (f"/?rules=hong-kong&hand=123456789m234p55s&sheet=stored%3D{TOKEN}%26hand%3D1&entry=1",
                                f"http://127.0.0.1/s/{TOKEN}"),
    "a result page": ("/?rules=hong-kong&hand=123456789m234p55s&by=self-draw", "http://127.0.0.1/?rules=hong-kong"),
}


class _Response:
    status = "200 OK"
    sent = 5000
    headers = [("Content-Type", "text/html")]


class _Request:
    headers = [("HOST", "127.0.0.1")]


def per_line(logger_class, uri: str, referer: str, number: int = 5000) -> float:
    """Seconds one access-log line takes (written to /dev/null)."""
    cfg = Config()
    cfg.set("accesslog", "/dev/null")
    logger = logger_class(cfg)
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": uri, "SERVER_PROTOCOL": "HTTP/1.1", "PATH_INFO": "/",
               "QUERY_STRING": uri.partition("?")[2], "HTTP_REFERER": referer, "REMOTE_ADDR": "127.0.0.1",
               "HTTP_USER_AGENT": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"}
    took = datetime.timedelta(microseconds=1234)
    return min(timeit.repeat(lambda: logger.access(_Response(), _Request(), environ, took),
                             number=number, repeat=3)) / number


def main() -> None:
    for name, (uri, referer) in LINES.items():
        plain, masked = per_line(Logger, uri, referer), per_line(MaskedLogger, uri, referer)
        print(f"{name}: gunicorn's logger {plain * 1e6:.1f} µs a line, masked {masked * 1e6:.1f} µs")


if __name__ == "__main__":
    main()
