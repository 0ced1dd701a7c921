"""Time a tick-box page: the first request of a tick set (its witness search) and repeats.

Run from the repository root: `.venv/bin/python tests/bench/bench_ticks.py`. Figures in
docs/performance.md ("A tick-box request").
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.apps import shared_app  # noqa: E402

REQUESTS = ["rules=hong-kong&ticks=all-pongs,concealed-hand&by=self-draw",
            "rules=family&ticks=dragon-pong*3,half-flush",
            "rules=sichuan&ticks=seven-pairs,root,all-one-suit",
            "rules=hong-kong-course&ticks=small-four-winds,dragon-pong,half-flush"]


def main() -> None:
    client = shared_app().test_client()
    client.get("/ticks?rules=hong-kong&ticks=all-chows")   # warm the app
    for query in REQUESTS:
        start = time.perf_counter()
        status = client.get("/ticks?" + query).status_code
        first = time.perf_counter() - start
        again = []
        for _ in range(20):
            start = time.perf_counter()
            client.get("/ticks?" + query)
            again.append(time.perf_counter() - start)
        print(f"{query}: {status} first {first * 1000:.1f} ms,"
              f" again median {statistics.median(again) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
