"""On demand: the heaviest accepted request of each endpoint, replayed by 32 connections.

    .venv/bin/python tests/load/heavy_load.py            # 20 s an endpoint (DURATION), 32 connections
    DURATION=5 CONNECTIONS=16 .venv/bin/python tests/load/heavy_load.py
    ONLY="sheet CSV,waits API" .venv/bin/python tests/load/heavy_load.py   # some endpoints only

Starts the production command (`make run HOST=127.0.0.1` on a free loopback port, as
tests/production.py does), then for each endpoint in turn (the game sheet page and its CSV,
the round ledger, the settlement API, what to discard (page and API), waits, a quiz, a result
page, a card, the score API):

- times its heaviest accepted request alone (the best of 3 on the idle server: the work it
  takes, printed for the README);
- replays it from CONNECTIONS connections (threads of a separate load process) for DURATION
  seconds while this process asks `/api/health` every 50 ms, and prints the endpoint's answers and latency and the health
  checks' p50/p99.

Each heavy request is checked first to be accepted (200) and within the scoring budget
(app/scoring/budget.py). Traffic goes to 127.0.0.1 only; every client stops at its deadline
and the server is stopped at the end, whatever happens. Exits 1 when a health p99 reaches 1 s
or any answer is not the expected 200.
"""
from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import random
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.hands.description import parse_hand  # noqa: E402
from app.hands.readings import waits  # noqa: E402
from app.rules.loader import load_all  # noqa: E402
from app.scoring import budget  # noqa: E402
from app.web import create_app  # noqa: E402
from tests.production import ProductionServer  # noqa: E402

DURATION = float(os.environ.get("DURATION", "20"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "32"))
ONLY = [n.strip() for n in os.environ.get("ONLY", "").split(",") if n.strip()]   # endpoint names
HEALTH_EVERY = 0.05
CLIENT_TIMEOUT = 60   # seconds a load client waits for its answer (status 0 past it)
NINE_GATES = "1112345678999"


def _ready_hands(suit: str, k: int, rng: random.Random) -> list[str]:
    """k different one-suit 13-tile hands waiting on at least five tiles each."""
    rules = load_all(ROOT / "rulesets")["sichuan"].shape_rules(frozenset())
    pool = [n for n in range(1, 10) for _ in range(4)]
    found: list[str] = []
    while len(found) < k:
        hand = "".join(map(str, sorted(rng.sample(pool, 13)))) + suit
        if hand not in found and len(list(waits(parse_hand({"hand": hand}, complete=False), rules))) >= 5:
            found.append(hand)
    return found


def counting_app():
    """The app, noting how many scorings each request used."""
    app = create_app()
    app.extensions["counted"] = counted = [0]

    def note(response):
        counted[0] = budget.used()
        return response

    app.after_request(note)
    return app


def _scorings(app, method: str, path: str, body: bytes | None) -> tuple[int, int]:
    """(status, scorings counted) of one request through the test client."""
    response = app.test_client().open(path, method=method, data=body,
                                      content_type="application/json" if body else None)
    return response.status_code, app.extensions["counted"][0]


def heaviest_sheet(app) -> str:
    """A Sichuan sheet of different wall's-end rounds, as many as the budget accepts."""
    rng = random.Random(23)
    p, s, m = (_ready_hands(suit, 40, rng) for suit in "psm")
    lines: list[str] = []
    for i in range(40):
        trial = lines + [f"ledger / wall E hand={p[i]};S hand={s[i]};W hand={m[i]};N not-ready"]
        query = urllib.parse.urlencode({"rules": "sichuan", "hands": "\n".join(trial)}, safe=",:=/")
        if _scorings(app, "GET", "/sheet.csv?" + query, None)[0] != 200:
            break
        lines = trial
    return urllib.parse.urlencode({"rules": "sichuan", "hands": "\n".join(lines)}, safe=",:=/")


def heavy_requests(app) -> list[tuple[str, str, str, bytes | None]]:
    """(name, method, path, body): the heaviest accepted request of each endpoint found."""
    sheet = heaviest_sheet(app)
    wall = f"wall E hand={NINE_GATES}p;S hand={NINE_GATES}s;W hand={NINE_GATES}m;N not-ready"
    settle = json.dumps({"rules": "sichuan", "events": [], "end": {"type": "wall", "hands": {
        "E": {"hand": f"{NINE_GATES}p"}, "S": {"hand": f"{NINE_GATES}s"}, "W": {"hand": f"{NINE_GATES}m"},
        "N": {"status": "not-ready"}}}}).encode()
    discard = "rules=hong-kong&hand=1112345678999p9p"    # every discard leaves a many-sided wait
    quiz = "rules=hong-kong&ask=payments&" + urllib.parse.urlencode(
        [("hands", f"123m456m789m{n}{n}{n}p55s by=self-draw") for n in range(1, 10)] * 4)
    course = "rules=hong-kong-course&hand=123m789m55s&melds=777p,ckong:5555z&by=self-draw&flowers=13" \
             "&events=kong-replacement"
    return [
        ("sheet page", "GET", "/sheet?" + sheet, None),
        ("sheet CSV", "GET", "/sheet.csv?" + sheet, None),
        ("round ledger", "GET", "/round?" + urllib.parse.urlencode({"rules": "sichuan", "round": wall}), None),
        ("settle API", "POST", "/api/settle", settle),
        ("discard page", "GET", "/discard?" + discard, None),
        ("discard API", "GET", "/api/discard?" + discard, None),
        ("waits API", "GET", f"/api/waits?rules=sichuan&hand={NINE_GATES}p", None),
        ("waits page", "GET", f"/?rules=sichuan&hand={NINE_GATES}p", None),
        ("quiz", "GET", "/practice?" + quiz, None),
        ("result page", "GET", "/?" + course, None),
        ("card", "GET", "/card?" + course, None),
        ("score API", "GET", "/api/score?" + course, None),
    ]


def ask(port: int, method: str, path: str, body: bytes | None, timeout: float = 10) -> tuple[int, float]:
    """One request on a fresh connection: (status, seconds); status 0 on a socket error."""
    started = time.perf_counter()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"Content-Type": "application/json"} if body else {}
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        conn.close()
        return response.status, time.perf_counter() - started
    except OSError:
        return 0, time.perf_counter() - started


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def _clients(port: int, requests: list[tuple[str, str, bytes | None]], connections: int,
             duration: float, out) -> None:
    """In the load process: `connections` clients, the k-th replaying requests[k % n], until
    the deadline."""
    deadline = time.monotonic() + duration
    results: list[tuple[int, float]] = []

    def client(method: str, path: str, body: bytes | None):
        while time.monotonic() < deadline:   # a heavy answer queues behind 31 others: wait for it
            results.append(ask(port, method, path, body, timeout=CLIENT_TIMEOUT))

    threads = [threading.Thread(target=client, args=requests[k % len(requests)], daemon=True)
               for k in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=duration + 30)
    out.put(list(results))


def replay(port: int, method: str, path: str, body: bytes | None, duration: float = DURATION,
           connections: int = CONNECTIONS) -> dict:
    """`connections` clients replaying one request (see `replay_all`)."""
    return replay_all(port, [(method, path, body)], duration, connections)


def replay_all(port: int, requests: list[tuple[str, str, bytes | None]], duration: float = DURATION,
               connections: int = CONNECTIONS) -> dict:
    """`connections` clients replaying the requests from a separate load process, while this
    process alone asks `/api/health` every HEALTH_EVERY seconds, until the deadline.

    The health probe has a process of its own so that its times are the server's, not the
    wait for the load clients' threads to hand over the interpreter."""
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    load = context.Process(target=_clients, args=(port, requests, connections, duration, out), daemon=True)
    load.start()
    deadline = time.monotonic() + duration
    health: list[tuple[int, float]] = []
    while time.monotonic() < deadline:
        health.append(ask(port, "GET", "/api/health", None, timeout=5))
        time.sleep(HEALTH_EVERY)
    try:
        results = out.get(timeout=60)
    finally:
        load.join(timeout=10)
        if load.is_alive():
            load.kill()
    times = [t for _, t in results]
    return {"answers": len(results), "bad": sum(1 for s, _ in results if s != 200),
            "server_errors": sum(1 for s, _ in results + health if s >= 500),
            "p50": percentile(times, 0.5), "p99": percentile(times, 0.99),
            "health": len(health), "health_bad": sum(1 for s, _ in health if s != 200),
            "health_p50": percentile([t for _, t in health], 0.5),
            "health_p99": percentile([t for _, t in health], 0.99)}


def main() -> int:
    app = counting_app()
    requests = heavy_requests(app)
    print(f"heavy load: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores,"
          f" load average {os.getloadavg()[0]:.1f}, {CONNECTIONS} connections, {DURATION:.0f} s an endpoint")
    failed = False
    with tempfile.TemporaryDirectory() as tmp, ProductionServer(Path(tmp), env={"FLASK_DEBUG": None}) as server:
        for name, method, path, body in requests:
            if ONLY and name not in ONLY:
                continue
            status, scorings = _scorings(app, method, path, body)
            if status != 200:
                print(f"{name}: not accepted ({status})")
                failed = True
                continue
            ask(server.port, method, path, body)   # warm both workers' templates
            ask(server.port, method, path, body)
            alone = min(ask(server.port, method, path, body)[1] for _ in range(3))
            got = replay(server.port, method, path, body)
            bad = got["bad"] or got["health_bad"] or got["health_p99"] >= 1.0
            failed |= bool(bad)
            print(f"{name:13} {len(path) + len(body or b''):>5} B, {scorings:>3} scorings, alone {alone * 1000:6.1f} ms"
                  f" | {got['answers'] / DURATION:6.1f} req/s, p50 {got['p50'] * 1000:6.0f} ms,"
                  f" p99 {got['p99'] * 1000:6.0f} ms, not 200: {got['bad']}"
                  f" | health p50 {got['health_p50'] * 1000:5.0f} ms, p99 {got['health_p99'] * 1000:5.0f} ms"
                  f" ({got['health']} checks, {got['health_bad']} failed), load average {os.getloadavg()[0]:.1f}"
                  f"{'  <-- FAIL' if bad else ''}",
                  flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
