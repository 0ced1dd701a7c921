"""The production server's settings: `mahjong-calculator serve` runs
`gunicorn --config python:app.web.serving.server`, listening on $HOST:$PORT (default 0.0.0.0:8000).

gunicorn's gevent worker serves each connection in a greenlet, so a client that trickles its
headers or body costs a few kilobytes while it waits, never a worker: the calculator keeps
answering (docs/serving.md, "The server"). One worker a core (`WEB_CONCURRENCY` overrides), because a
page is CPU work that only one greenlet of a process does at a time.

Settings are the module's lower-case names gunicorn knows; options on the command line win.
"""
from __future__ import annotations

import gc
import os
import socket
import time

import gevent
import gevent.lock
from gunicorn import util
from gunicorn.glogging import Logger, SafeAtoms
from gunicorn.workers.ggevent import GeventWorker

from app.scoring.budget import set_pause

from .bodies import MAX_BODY, declared_length, is_chunked
from .collector import settle
from .headers import security_headers
from .privacy import MaskFilter, mask
from .turns import HEAVY_AT_ONCE, pass_turn, set_lock

LINGER_SECONDS = 2.0      # after refusing a body, how long its bytes are read and dropped
LINGER_BYTES = 64 * 1024 * 1024
PAUSE_SECONDS = 0.0005    # a long request's step aside (budget.PAUSE_EVERY scorings apart)


def default_workers(environ: dict[str, str] | None = None) -> int:
    """`WEB_CONCURRENCY`, else one worker for each core this process may run on.

    >>> default_workers({"WEB_CONCURRENCY": "3"})
    3
    """
    environ = os.environ if environ is None else environ
    given = environ.get("WEB_CONCURRENCY", "").strip()
    if given:
        return max(1, int(given))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:   # not on Linux
        return max(1, os.cpu_count() or 1)


class Worker(GeventWorker):
    """gunicorn's gevent worker: one request a connection, an over-long body refused unread.

    For a declared length past `MAX_BODY` it sends no `100 Continue` (the client need not send
    the body at all); after the app's 413, or any chunked body, it reads and drops what the
    client is still sending for a moment before closing, so the client sees the answer rather
    than a reset.

    Each connection closes after its answer, as with the sync workers: connections then take
    their turn in the kernel's accept queue, first come first served. Kept alive, a client
    whose next request is already there is read and served again at once while the others
    wait: under `make load` p99 went from 25-55 ms to 0.5-0.9 s. A request in flight when
    SIGTERM comes finishes; gunicorn then stops the worker.
    """

    def init_process(self):
        # gunicorn answers what never reaches the app (a request line past 8190 bytes: 414,
        # headers past its limits: 431, a malformed request: 400) with util.write_error: in
        # this worker process, that answer carries the app's security headers too
        util.write_error = write_error
        # a long request steps aside every few scorings, so that the others (a health check)
        # are not kept waiting for all of its work (app/scoring/budget.py). A real timer, not
        # sleep(0): with more than one worker only a timer let the worker accept and serve the
        # others (health p50 460 ms with sleep(0), 13 ms with this, 8 heavy clients, 2 workers)
        # Stepping aside, it gives up its turn and queues for it again (turns.py)
        set_pause(lambda: pass_turn(lambda: gevent.sleep(PAUSE_SECONDS)))
        # one request at a time in the app, heavy ones through a lane of their own, the health
        # and readiness checks beside them (turns.py)
        set_lock(gevent.lock.Semaphore(1), gevent.lock.Semaphore(HEAVY_AT_ONCE))
        super().init_process()

    def handle_request(self, listener_name, req, sock, addr):
        headers = dict(req.headers)
        length = declared_length(headers.get("CONTENT-LENGTH"))
        refused = length is not None and length > MAX_BODY
        close_after = refused or is_chunked(headers.get("TRANSFER-ENCODING"))
        if refused:
            req._expected_100_continue = False   # gunicorn would send it before the app runs
        req.must_close = True   # one request a connection (see above)
        try:
            return super().handle_request(listener_name, req, sock, addr)
        finally:
            if close_after:
                linger(sock)
            settle()   # after a full collection, freeze what survived it (collector.py)


def write_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's own refusal, as plain text with the app's security headers, never cached."""
    body = f"{status_int} {reason}\n".encode("latin-1")
    head = {"Connection": "close", "Content-Type": "text/plain; charset=utf-8",
            "Content-Length": str(len(body)), "Cache-Control": "no-store",
            **security_headers(os.environ.get("MAHJONG_FRAME_ANCESTORS", "*"))}
    lines = [f"HTTP/1.1 {status_int} {reason}", *(f"{k}: {v}" for k, v in head.items())]
    util.write_nonblock(sock, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)


def linger(sock: socket.socket) -> None:
    """Half-close, then read and drop for a moment: the answer reaches a client still sending."""
    try:
        sock.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + LINGER_SECONDS
        buffer = bytearray(64 * 1024)
        dropped = 0
        while dropped < LINGER_BYTES:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            sock.settimeout(remaining)
            n = sock.recv_into(buffer)
            if not n:
                break
            dropped += n
    except OSError:   # timeouts included: the client went, or kept sending too long
        pass


class MaskedAtoms(SafeAtoms):
    """An access-log line's atoms, each masked as the line's format reads it (privacy.py): the
    request line, path, query, `Referer`, a redirect's `Location`, any header or environ value.
    Only the atoms the format names are masked, so a line costs a few microseconds more."""

    def __getitem__(self, key):
        value = super().__getitem__(key)
        return mask(value) if isinstance(value, str) else value


class MaskedLogger(Logger):
    """gunicorn's logger, naming no shared sheet's token: access-log atoms masked
    (`MaskedAtoms`), and each error-log message (gunicorn's "Error handling request /s/…")."""

    atoms_wrapper_class = MaskedAtoms

    def setup(self, cfg) -> None:
        super().setup(cfg)
        if not any(isinstance(f, MaskFilter) for f in self.error_log.filters):
            self.error_log.addFilter(MaskFilter())


def post_worker_init(worker) -> None:
    """After the app is loaded: its start-up objects (rulesets, templates, modules) are kept
    out of every later collection's walk, so full collections pause requests less."""
    gc.collect()
    gc.freeze()


def worker_exit(server, worker) -> None:
    """A worker stopping closes its own PostgreSQL pool (made in it, after the fork, on its
    first stored-sheet request: app/store/database.py), so the server sees each connection
    end cleanly rather than dropped."""
    app = getattr(worker, "wsgi", None)
    found = getattr(app, "extensions", {}).get("sheet_store")
    if found is not None:
        found.db.close()


# --- gunicorn settings ---------------------------------------------------------------------
bind = f"{os.environ.get('HOST') or '0.0.0.0'}:{os.environ.get('PORT') or '8000'}"
worker_class = "app.web.serving.server.Worker"
workers = default_workers()
worker_connections = 1000      # connections a worker holds at once (each a greenlet)
keepalive = 5                  # seconds a client has to send its request line and headers
timeout = 30                   # a worker silent this long is restarted
graceful_timeout = 30          # on SIGTERM, requests in flight get this long to finish
control_socket_disable = True  # no shared socket in $HOME: instances stay independent
# X-Forwarded-Proto and the like are read by the app alone, behind MAHJONG_PROXY_HOPS trusted
# proxies (hosts.py); gunicorn trusts nobody's, loopback's included (its default trusts it)
forwarded_allow_ips = ""
secure_scheme_headers: dict[str, str] = {}
limit_request_line = 8190      # gunicorn's largest: the app's own 414 answers longer ones
accesslog = "-"
logger_class = "app.web.serving.server.MaskedLogger"   # tokens masked in every line
