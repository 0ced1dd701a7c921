"""What a shared sheet's poll costs on each database: `GET /s/<view token>/version`, on SQLite
in a temporary folder and on a throw-away PostgreSQL (tests/postgres.py), answered two ways:
by the app in this process (Flask's test client, no network) and by `mahjong-calculator serve`
(gunicorn, 2 gevent workers) over loopback, one poll after another.

Run on demand (`.venv/bin/python tests/bench/bench_polls.py`), never in CI. For each database
and way it shares one sheet, polls for BENCH_SECONDS (default 5) three times and prints the
best rate in polls a second and the median time of one poll.
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.store.sheets import view_token_of  # noqa: E402
from app.web import create_app  # noqa: E402
from tests.postgres import Postgres  # noqa: E402

SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
NIGHT = {"rules": "hong-kong", "names": "Ann,Bob,Cy,Di",
         "hands": "hand=123m456m789m234p55s seat=S discarder=N"}


def polls(store_env: dict[str, str]) -> tuple[float, float]:
    """In this process: the best of three runs' polls a second, the median seconds of a poll."""
    client = create_app({"STORE_ENV": store_env}).test_client()
    edit = client.post("/sheet/share", data=NIGHT).headers["Location"]
    url = f"/s/{view_token_of(edit.rsplit('/', 1)[1])}/version"
    assert client.get(url).status_code == 200
    return _rate(lambda: client.get(url))


def served_polls(store_env: dict[str, str]) -> tuple[float, float]:
    """The same through gunicorn's gevent workers over loopback."""
    from tests.waiting import stop_group
    from tests.web.test_stored_servers import _post, _serve
    proc, base = _serve(store_env, workers=2)
    try:
        edit = _post(base + "/sheet/share", NIGHT)[1]
        url = f"{base}/s/{view_token_of(edit.rsplit('/', 1)[1])}/version"

        def poll() -> None:
            with urllib.request.urlopen(url, timeout=30) as r:
                r.read()
        return _rate(poll)
    finally:
        stop_group(proc)


def _rate(poll) -> tuple[float, float]:
    rates, times = [], []
    for _ in range(3):
        count, start = 0, time.perf_counter()
        while (now := time.perf_counter()) - start < SECONDS:
            poll()
            times.append(time.perf_counter() - now)
            count += 1
        rates.append(count / (time.perf_counter() - start))
    return max(rates), statistics.median(times)


def main() -> None:
    server = Postgres().start()
    try:
        for way, measure in (("in process", polls), ("served", served_polls)):
            for kind, env in (("sqlite", {"MAHJONG_DATA_DIR": tempfile.mkdtemp(prefix="bench-polls-")}),
                              ("postgresql", {"MAHJONG_DATABASE_URL": server.new_database()})):
                rate, each = measure(env)
                print(f"{way:10}  {kind:10}  {rate:8.0f} polls/s   median {each * 1000:.2f} ms")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
