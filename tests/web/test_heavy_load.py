"""The production server under heavy requests: the health check stays answered, nothing 5xx.

32 connections from a separate load process replay, for 15 s, the heaviest accepted requests
of the pages that score little but render much (the round ledger with three nine-gates hands
at the wall's end, what to discard for a nine-gates hand, its waits page) and of the
settlement API, while this process alone asks `/api/health` every 50 ms
(`tests/load/heavy_load.py`, whose on-demand run is `make load-heavy`).

The bounds: a median under 300 ms and a p99 under 1.5 s. Measured on a 2-core machine shared
with other work (load average 4-5), requests taking turns in each worker
(`app/web/serving/turns.py`) gave a health median of 19-29 ms and a p99 of 0.2-0.35 s; before
them the same load gave a median of 0.9-1.3 s and a p99 of 1.1-2.2 s, so the median bound
fails without the turns at any load, and the p99 bound is the 1 s target with half again for
a busy CI machine, where the operating system's scheduling, not the server, sets the tail.
"""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.load import heavy_load
from tests.production import ProductionServer

SECONDS = 15
CONNECTIONS = 32


@pytest.fixture(scope="module")
def heavy() -> list[tuple[str, str, bytes | None]]:
    nine = heavy_load.NINE_GATES
    wall = f"wall E hand={nine}p;S hand={nine}s;W hand={nine}m;N not-ready"
    return [("GET", "/round?" + urlencode({"rules": "sichuan", "round": wall}), None),
            ("GET", "/discard?rules=hong-kong&hand=1112345678999p9p", None),
            ("GET", f"/?rules=sichuan&hand={nine}p", None),
            ("POST", "/api/settle", heavy_load.json.dumps({
                "rules": "sichuan", "events": [], "end": {"type": "wall", "hands": {
                    "E": {"hand": f"{nine}p"}, "S": {"hand": f"{nine}s"}, "W": {"hand": f"{nine}m"},
                    "N": {"status": "not-ready"}}}}).encode())]


def test_heavy_requests_are_accepted_and_priced_within_the_budget(heavy):
    app = heavy_load.counting_app()
    for method, path, body in heavy:
        status, scorings = heavy_load._scorings(app, method, path, body)
        assert status == 200, path
        assert scorings >= 9, (path, scorings)   # each prices many waits: a heavy request


def test_health_stays_answered_under_32_heavy_connections(tmp_path: Path, heavy):
    with ProductionServer(tmp_path, env={"FLASK_DEBUG": None}) as server:
        for method, path, body in heavy:   # warm both workers
            heavy_load.ask(server.port, method, path, body)
            heavy_load.ask(server.port, method, path, body)
        got = heavy_load.replay_all(server.port, heavy, duration=SECONDS, connections=CONNECTIONS)
    assert got["answers"] > 100, got     # the load was real: the heavy pages were served
    assert got["server_errors"] == 0, got
    assert got["bad"] == 0, got
    assert got["health"] > 50 and got["health_bad"] == 0, got
    assert got["health_p50"] < 0.3, got
    assert got["health_p99"] < 1.5, got
    print(f"health p50 {got['health_p50'] * 1000:.0f} ms, p99 {got['health_p99'] * 1000:.0f} ms,"
          f" {got['answers'] / SECONDS:.0f} heavy answers a second")
