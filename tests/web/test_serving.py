"""The production command on loopback: bodies past the limit refused unread, malformed chunked
bodies answered 400 without a traceback, the worker count, no control socket, slow clients
that do not stall it, and a graceful stop. Each wait is on a condition with a deadline; no
check is a time."""
from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time

import pytest

from app.web.serving.bodies import MAX_BODY
from app.web.serving.server import default_workers
from tests.production import ProductionServer, get, peak_rss_kib, read_answer, taken_and_read
from tests.waiting import wait_for

BIG = 200 * 1024 * 1024
SETTLE = "POST /api/settle HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("production")
    with ProductionServer(folder, env={"WEB_CONCURRENCY": None}) as running:   # one a core
        yield running


def _connect(server: ProductionServer, timeout: float = 5) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=timeout)


def _send_until_refused(sock: socket.socket, total: int, chunk: bytes, seconds: float) -> int:
    """Send up to `total` bytes in pieces until the server stops taking them or time is up."""
    sent, deadline = 0, time.monotonic() + seconds
    try:
        while sent < total and time.monotonic() < deadline:
            sock.sendall(chunk)
            sent += len(chunk)
    except OSError:   # reset or broken pipe: the server closed after refusing
        pass
    return sent


# --- bodies --------------------------------------------------------------------------------


def test_a_declared_body_past_the_limit_is_refused_with_413_and_no_100_continue(server):
    with _connect(server) as s:
        s.sendall((SETTLE + f"Content-Length: {BIG}\r\nExpect: 100-continue\r\n\r\n").encode())
        status, answer = read_answer(s, time.monotonic() + 5)
    assert status == 413, answer[:300]
    assert b"100 Continue" not in answer
    body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    message = f"the body is {BIG} bytes; at most {MAX_BODY}"
    assert body == {"valid": False, "errors": [{"field": "", "message": message}]}
    assert b"Connection: close" in answer   # the unread body is never taken for a request


def test_a_declared_body_past_the_limit_is_answered_while_the_client_still_sends(server):
    with _connect(server) as s:
        s.sendall((SETTLE + f"Content-Length: {BIG}\r\n\r\n").encode() + b"[" * (1024 * 1024))
        status, answer = read_answer(s, time.monotonic() + 5)
    assert status == 413, answer[:300]


def test_a_chunked_body_past_the_limit_is_refused_with_413(server):
    piece = b"4000\r\n" + b"[" * 0x4000 + b"\r\n"
    with _connect(server) as s:
        s.sendall((SETTLE + "Transfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n").encode())
        s.sendall(piece * (MAX_BODY // 0x4000 + 2))
        status, answer = read_answer(s, time.monotonic() + 5)
    assert status == 413, answer[:300]
    assert f"more than {MAX_BODY} bytes".encode() in answer


def test_a_chunked_body_within_the_limit_is_settled(server):
    round_ = json.dumps({"rules": "sichuan", "events": []}).encode()
    with _connect(server) as s:
        s.sendall((SETTLE + "Transfer-Encoding: chunked\r\n\r\n").encode()
                  + f"{len(round_):x}\r\n".encode() + round_ + b"\r\n0\r\n\r\n")
        status, answer = read_answer(s, time.monotonic() + 5)
    assert status == 200, answer[:500]
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["valid"] is True


MALFORMED_CHUNKS = {
    "not-hex": b"zz\r\n",
    "negative": b"-1\r\nab\r\n0\r\n\r\n",
    "no-crlf-after-data": b"3\r\nabcXY0\r\n\r\n",
    "data-longer-than-size": b"2\r\nabcdef\r\n0\r\n\r\n",
    "size-too-large-for-any-body": b"ffffffffffffffffffff\r\nab\r\n",
    "control-in-extension": b"2;x\x00y\r\nab\r\n0\r\n\r\n",
    "0x-prefix": b"0x2\r\nab\r\n0\r\n\r\n",
    "space-in-size": b"2 2\r\nab\r\n0\r\n\r\n",
}


def test_malformed_chunked_bodies_answer_400_and_log_no_traceback(server):
    for name, body in MALFORMED_CHUNKS.items():
        with _connect(server) as s:
            s.sendall((SETTLE + "Transfer-Encoding: chunked\r\n\r\n").encode() + body)
            s.shutdown(socket.SHUT_WR)   # a body cut short ends too
            status, answer = read_answer(s, time.monotonic() + 5)
        assert status == 400, (name, answer[:300])
        assert b"Content-Security-Policy" in answer, name   # the app's own answer, not a bare one
    assert get(server.port, "/api/health")[0] == 200
    log = server.log()
    assert "Traceback" not in log and "Error handling request" not in log, log[-3000:]


def test_worker_memory_grows_under_10_mb_while_200_mb_bodies_are_refused(server):
    before = {pid: peak_rss_kib(pid) for pid in server.workers()}
    piece = b"[" * (1024 * 1024)
    for _ in range(2):   # each worker may take one of each
        with _connect(server) as s:   # the client sends the whole declared body regardless
            s.sendall((SETTLE + f"Content-Length: {BIG}\r\n\r\n").encode())
            _send_until_refused(s, BIG, piece, seconds=10)
        chunk = b"100000\r\n" + piece + b"\r\n"
        with _connect(server) as s:
            s.sendall((SETTLE + "Transfer-Encoding: chunked\r\n\r\n").encode())
            _send_until_refused(s, BIG, chunk, seconds=10)
    assert get(server.port, "/api/health", timeout=5)[0] == 200
    growth = {pid: peak_rss_kib(pid) - kib for pid, kib in before.items()}
    assert all(g < 10 * 1024 for g in growth.values()), growth


# --- host, workers, control socket ---------------------------------------------------------


def test_a_redirect_never_names_the_host_the_request_gave(server):
    status, answer = get(server.port, "/rules", headers={"Host": "evil.example"})
    assert status == 308 and b"Location: /rules/\r\n" in answer
    assert b"evil.example" not in answer


def test_a_forwarded_scheme_or_host_from_a_client_never_reaches_an_answer(server):
    # gunicorn trusts X-Forwarded-Proto from loopback by default; here nobody's is read
    query = "url=http%3A%2F%2F127.0.0.1%2F%3Frules%3Dhong-kong%26hand%3D123m456m789m234p55s"
    status, answer = get(server.port, f"/oembed?{query}", headers={
        "X-Forwarded-Proto": "https", "X-Forwarded-Ssl": "on", "X-Forwarded-Host": "evil.example"})
    assert status == 200, answer[:300]
    assert b"http://127.0.0.1/card?" in answer and b"https" not in answer and b"evil" not in answer


@pytest.mark.parametrize("request_head, status", [
    (f"GET /?hand={'1m' * 5000} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 414),   # past gunicorn's 8190
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "".join(f"X-{i}: y\r\n" for i in range(120)) + "\r\n", 431),
    ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + "y" * 9000 + "\r\n\r\n", 431),
], ids=["request-line", "header-count", "header-size"])
def test_gunicorns_own_refusals_carry_the_security_headers(server, request_head, status):
    with _connect(server) as s:
        s.sendall(request_head.encode())
        got, answer = read_answer(s, time.monotonic() + 5)
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    assert got == status, head
    for line in ("Content-Security-Policy: default-src 'self';", "X-Content-Type-Options: nosniff",
                 "Referrer-Policy: strict-origin-when-cross-origin", "Cache-Control: no-store"):
        assert "\r\n" + line in head, head
    assert "object-src 'none'" in head and "frame-ancestors *" in head


def test_the_production_command_runs_one_worker_a_core_and_no_control_socket(server):
    assert len(server.workers()) == default_workers({}) == len(os.sched_getaffinity(0))
    assert not any(server.home.iterdir()), list(server.home.iterdir())   # no $HOME/.gunicorn


# --- slow clients --------------------------------------------------------------------------

SLOW_CLIENTS = 64
SLOW_SECONDS = 30


def _trickle(port: int, stop: threading.Event, opened: list[int]) -> None:
    """Keep SLOW_CLIENTS connections trickling: half their headers, half a body, a line a second."""
    def start(i: int) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", port), timeout=2)
        opened[0] += 1
        if i % 2:
            s.sendall((SETTLE + "Content-Length: 60000\r\n\r\n").encode())
        else:
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        return s

    socks: dict[int, socket.socket | None] = dict.fromkeys(range(SLOW_CLIENTS))
    try:
        while not stop.is_set():
            for i in socks:
                try:
                    if socks[i] is None:
                        socks[i] = start(i)
                    else:
                        socks[i].sendall(b"[" * 10 if i % 2 else b"X-Slow: 1\r\n")
                except OSError:   # the server gave up on it: a new slow client takes its place
                    if socks[i] is not None:
                        socks[i].close()
                    socks[i] = None
            stop.wait(1.0)
    finally:
        for s in socks.values():
            if s is not None:
                s.close()


def test_the_server_keeps_answering_while_64_clients_trickle_for_30_seconds(server):
    stop, opened = threading.Event(), [0]
    trickler = threading.Thread(target=_trickle, args=(server.port, stop, opened), daemon=True)
    trickler.start()
    answers: list[int] = []
    over = threading.Event()
    try:
        # every slow client is connected and has sent its first bytes
        assert wait_for(lambda: opened[0], lambda n: n >= SLOW_CLIENTS, 30) >= SLOW_CLIENTS
        threading.Timer(SLOW_SECONDS, over.set).start()   # the trickle lasts this long
        while not over.wait(0.1):   # a health check every tenth of a second until then
            try:
                answers.append(get(server.port, "/api/health", timeout=10)[0])
            except OSError as err:   # refused, reset, or no answer in 10 s
                answers.append(repr(err))
    finally:
        over.set()
        stop.set()
        trickler.join(timeout=10)
    # every check was answered while the slow clients held their connections (how fast is for
    # the load bench: tests/load/, `make load-heavy`)
    assert answers and all(status == 200 for status in answers), answers


# --- graceful stop -------------------------------------------------------------------------


def test_sigterm_during_a_request_lets_it_finish(tmp_path):
    round_ = json.dumps({"rules": "sichuan", "events": []}).encode()
    with ProductionServer(tmp_path) as running:
        with _connect(running) as s:
            s.sendall((SETTLE + f"Content-Length: {len(round_)}\r\n\r\n").encode() + round_[:5])
            # the request is in a worker, its body half read ...
            assert wait_for(lambda: taken_and_read(running.port, s), bool, 30)
            running.signal(signal.SIGTERM)
            # ... when the server starts to stop (and tells its workers)
            assert "Handling signal: term" in wait_for(
                running.log, lambda log: "Handling signal: term" in log, 30)
            s.sendall(round_[5:])
            status, answer = read_answer(s, time.monotonic() + 10)
        assert status == 200, answer[:300]
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["valid"] is True
        running.proc.wait(timeout=15)   # and then the server stops by itself
        assert running.proc.returncode == 0
        with pytest.raises(OSError):
            get(running.port, "/api/health")
