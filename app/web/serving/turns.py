"""Requests take turns at the processor; the health check never waits for a turn.

Under the gevent worker every connection is a greenlet of one process. Left to themselves,
all the requests a worker has read run side by side: each heavy one steps aside every few
scorings (app/scoring/budget.py), but a health check that arrives then waits for a slice of
every one of them, at each of the few points it must wait itself (accept, read, write). With
16 heavy pages a worker, each rendering for 20-30 ms between its steps aside, that was 1-2 s.

`Turns` lets one request at a time into the app (a gevent semaphore the worker gives it,
`set_lock`); the others wait their turn, first come first served, without running. A request
holding the turn still steps aside, and then only the requests that need no turn run:
`/api/health`. So a health check waits for at most one slice of one request. The body is read
(`bodies.BodyLimit`, outside this) before a turn is asked for, so a client that trickles its
body holds no turn. Outside the production worker (the test client, `make dev`) there is no
lock and nothing waits.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

FREE_PATHS = frozenset({"/api/health"})   # answered without waiting for a turn
_lock: list = [None]


def set_lock(lock) -> None:
    """The lock (a context manager) each request but `FREE_PATHS` holds in the app; None: none."""
    _lock[0] = lock


class Turns:
    """WSGI middleware: the app called under the worker's lock, `FREE_PATHS` without it."""

    def __init__(self, app: Callable[..., Iterable[bytes]]):
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        lock = _lock[0]
        if lock is None or environ.get("PATH_INFO") in FREE_PATHS:
            return self.app(environ, start_response)
        with lock:
            return self.app(environ, start_response)
