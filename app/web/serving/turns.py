"""Requests take turns at the processor, heavy ones in a lane of their own; a request that
waits too long is answered at once with 503; the health checks never wait for a turn.

Under the gevent worker every connection is a greenlet of one process. Left to themselves,
all the requests a worker has read run side by side: each heavy one steps aside every few
scorings (app/scoring/budget.py), but a health check that arrives then waits for a slice of
every one of them, at each of the few points it must wait itself (accept, read, write). With
16 heavy pages a worker, each rendering for 20-30 ms between its steps aside, that was 1-2 s.

`Turns` lets one request at a time into the app (a gevent semaphore the worker gives it,
`set_lock`); the others wait their turn, first come first served, without running. A request
holding the turn gives it up when it steps aside (`pass_turn`) and queues again behind the
requests then waiting, so a light request waits for one slice of each request ahead of it,
never for the whole of a heavy one.

A heavy request (an outlook, a club's variant not yet built, a long query or body: the app's
`heavy` test) first waits in the heavy lane: at most HEAVY_AT_ONCE of them a worker in the
turn queue at once, and at most HEAVY_PER_CLIENT a client address (more from one address is
answered 429 at once). A request that has waited QUEUE_DEADLINE seconds in either queue is
answered 503 with `Retry-After` instead of being served late (`SHED` in the environ: the app
answers it in the page's language or the API's JSON). `ready()` is the readiness answer: no
while the oldest waiting request has waited past the deadline, or one was shed a moment ago.

`/api/health` (liveness) and `/api/ready` need no turn. The body is read (`bodies.BodyLimit`,
outside this) before a turn is asked for, so a client that trickles its body holds no turn.
Outside the production worker (the test client, `make dev`) there is no lock and nothing waits.
"""
from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import Any

FREE_PATHS = frozenset({"/api/health", "/api/ready"})   # answered without waiting for a turn
QUEUE_DEADLINE = 5.0    # seconds a request may wait for its turn; then 503
HEAVY_AT_ONCE = 1       # heavy requests of a worker in the turn queue (or holding the turn)
HEAVY_PER_CLIENT = 2    # heavy requests one client address may have in a worker at once
RETRY_AFTER = 5         # seconds a shed request is told to wait
SHED = "mahjong.shed"   # environ key: ("busy" | "heavy", seconds) when answered without a turn

_holding: ContextVar[bool] = ContextVar("holding_turn", default=False)


class Lanes:
    """One worker's turn lock, its heavy lane, and what readiness reads."""

    def __init__(self, lock, heavy_lock, clock: Callable[[], float] = time.monotonic) -> None:
        self.lock, self.heavy_lock, self.clock = lock, heavy_lock, clock
        self.waiting: dict[int, float] = {}   # ticket -> when it began to wait
        self.heavy_by_client: Counter[str] = Counter()
        self.last_shed = float("-inf")
        self._tickets = itertools.count()

    def wait_for(self, lock) -> bool:
        """Wait for `lock` at most the time left of QUEUE_DEADLINE; False past it."""
        ticket = next(self._tickets)
        self.waiting[ticket] = self.clock()
        try:
            got = lock.acquire(timeout=QUEUE_DEADLINE)
        finally:
            del self.waiting[ticket]
        if not got:
            self.last_shed = self.clock()
        return got

    def oldest_wait(self) -> float:
        """Seconds the longest-waiting request has waited so far (0 when none waits)."""
        return max((self.clock() - t for t in self.waiting.values()), default=0.0)


_lanes: list[Lanes | None] = [None]


def set_lock(lock, heavy_lock=None, clock: Callable[[], float] = time.monotonic) -> None:
    """The worker's lock (a context manager with acquire(timeout=)/release) each request but
    `FREE_PATHS` holds in the app, and its heavy lane's; None: none, nothing waits."""
    if lock is None:
        _lanes[0] = None
        return
    _lanes[0] = Lanes(lock, heavy_lock if heavy_lock is not None else _Free(), clock)


def ready() -> tuple[bool, float]:
    """(ready, the oldest wait in seconds): not ready while a request has waited past the
    deadline or one was shed less than RETRY_AFTER seconds ago."""
    lanes = _lanes[0]
    if lanes is None:
        return True, 0.0
    wait = lanes.oldest_wait()
    recently_shed = lanes.clock() - lanes.last_shed < RETRY_AFTER
    return wait < QUEUE_DEADLINE and not recently_shed, wait


def pass_turn(sleep: Callable[[], None]) -> None:
    """A long request's step aside: give up the turn (when it holds one), let the others run
    for `sleep`, then queue again for the turn (no deadline: its work is under way)."""
    lanes = _lanes[0]
    if lanes is None or not _holding.get():
        sleep()
        return
    lanes.lock.release()
    try:
        sleep()
    finally:
        lanes.lock.acquire()


class _Free:
    """A lane without a limit."""

    def acquire(self, timeout: float | None = None) -> bool:
        return True

    def release(self) -> None:
        pass


class Turns:
    """WSGI middleware: the app called under the worker's lock, `FREE_PATHS` without it, heavy
    requests through their lane first; a request past its deadline marked `SHED`."""

    def __init__(self, app: Callable[..., Iterable[bytes]],
                 heavy: Callable[[dict[str, Any]], bool] = lambda environ: False):
        self.app = app
        self.heavy = heavy

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        lanes = _lanes[0]
        if lanes is None or environ.get("PATH_INFO") in FREE_PATHS:
            return self.app(environ, start_response)
        if not self.heavy(environ):
            return self._in_turn(lanes, environ, start_response)
        client = environ.get("REMOTE_ADDR") or ""
        if lanes.heavy_by_client[client] >= HEAVY_PER_CLIENT:
            environ[SHED] = ("heavy", RETRY_AFTER)
            return self.app(environ, start_response)
        lanes.heavy_by_client[client] += 1
        try:
            if not lanes.wait_for(lanes.heavy_lock):
                environ[SHED] = ("busy", RETRY_AFTER)
                return self.app(environ, start_response)
            try:
                return self._in_turn(lanes, environ, start_response)
            finally:
                lanes.heavy_lock.release()
        finally:
            lanes.heavy_by_client[client] -= 1
            if not lanes.heavy_by_client[client]:
                del lanes.heavy_by_client[client]

    def _in_turn(self, lanes: Lanes, environ: dict[str, Any], start_response: Callable):
        if not lanes.wait_for(lanes.lock):
            environ[SHED] = ("busy", RETRY_AFTER)
            return self.app(environ, start_response)
        token = _holding.set(True)
        try:
            return self.app(environ, start_response)
        finally:
            _holding.reset(token)
            lanes.lock.release()
