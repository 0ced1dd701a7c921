"""On demand: memory and full-collection pauses of one worker's app after many distinct requests.

    .venv/bin/python tests/bench/bench_memory.py [requests, default 100000]

Builds the app as a worker does (`gc.freeze()` after start-up, as `server.py`'s
`post_worker_init`), then sends it that many distinct requests through Flask's test client, in
turn to every endpoint (score, waits, discard, card, result page, sheet CSV, settle, oEmbed):
random tiles, so most hands are new and about half are refused. Prints the process's RSS every
10 % and, from `gc.callbacks`, every full (generation 2) collection's pause: count, longest
(wall clock, and processor time, which other work on the machine does not inflate), total. Stops by itself.
After each request it calls `collector.settle()` as the worker does (`BENCH_GC=plain`: not, the
start-up freeze only, to compare). `BENCH_NEW_VARIANTS=1.5`: that percentage of the requests is
a result page under a club variant never asked before (a name and a cap of its own), as a
club's members sharing new links would make; the kept variants are let go least recently used
first, and freed (collector.py).
"""
from __future__ import annotations

import gc
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.web import create_app  # noqa: E402
from app.web.serving.collector import settle  # noqa: E402

SUITS = "mps"
# settle: after each request, as the worker does (collector.settle); plain: the start-up freeze only
GC_POLICY = os.environ.get("BENCH_GC", "settle")
NEW_VARIANTS = float(os.environ.get("BENCH_NEW_VARIANTS", "0"))   # percent of the requests


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def tiles(rng: random.Random, n: int, suits: str = "mpsz") -> str:
    """n random tiles (at most four of a kind), in notation."""
    pool = [(k, s) for s in suits for k in range(1, 8 if s == "z" else 10) for _ in range(4)]
    picked = sorted(rng.sample(pool, n), key=lambda t: (t[1], t[0]))
    return "".join(f"{k}{s}" for k, s in picked)


def winning(rng: random.Random, suits: str = "mps") -> str:
    """A random complete hand: four sets and a pair (often refused for a fifth copy: fine)."""
    parts = []
    for _ in range(4):
        s, k = rng.choice(suits), rng.randint(1, 7)
        parts.append(f"{k}{k + 1}{k + 2}{s}" if rng.random() < 0.6 else f"{k}{k}{k}{s}")
    k = rng.randint(1, 9)
    parts.append(f"{k}{k}{rng.choice(suits)}")
    return "".join(parts)


def requests(rng: random.Random):
    """Endless distinct requests: (method, path, query or JSON body)."""
    while True:
        rules = rng.choice(["hong-kong", "sichuan", "hong-kong-course"])
        hk = rules != "sichuan"
        suits = "mpsz" if hk else "mps"
        by = rng.choice(["self-draw", "discard"])
        seat = rng.choice("ESWN")
        yield "GET", "/api/score", {"rules": rules, "hand": winning(rng, "mps"), "by": by, "seat": seat}
        yield "GET", "/api/waits", {"rules": rules, "hand": tiles(rng, 13, suits), "seat": seat}
        yield "GET", "/api/discard", {"rules": rules, "hand": tiles(rng, 14, suits), "seen": tiles(rng, 3, suits)}
        yield "GET", "/card", {"rules": rules, "hand": winning(rng), "by": by, "seat": seat}
        yield "GET", "/", {"rules": rules, "hand": winning(rng), "by": by, "seat": seat,
                           "lang": rng.choice(["en", "zh-Hant", "zh-Hans"])}
        yield "GET", "/sheet.csv", {"rules": rules, "names": f"A{rng.randint(0, 10**6)},B,C,D",
                                    "hands": "\n".join(f"hand={winning(rng)} by={by}" for _ in range(3))}
        yield "POST", "/api/settle", {"rules": "sichuan", "missing": {"E": "m"}, "events": [
            {"type": "win", "seat": "E", "by": "self-draw", "hand": winning(rng, "ps")}],
            "end": {"type": "wall", "hands": {s: {"hand": tiles(rng, 13, "mps")} for s in "SWN"}}}
        yield "GET", "/oembed", {"url": f"http://localhost/card?rules={rules}&hand={winning(rng)}"}


def with_new_variants(stream, rng: random.Random, percent: float):
    """The requests, `percent` of them replaced by a result page under a new club variant."""
    from app.rules.house import House, encode
    for k, request in enumerate(stream):
        if rng.random() * 100 < percent:
            rules = encode(House("hong-kong", name=(f"Club {k}", "", ""), dials=(("cap", 8 + k % 5),)))
            yield "GET", "/", {"rules": rules, "hand": winning(rng), "by": "self-draw"}
        else:
            yield request


def main() -> None:
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    app = create_app()
    client = app.test_client()
    client.get("/api/health")
    gc.collect()
    gc.freeze()   # as the worker does after start-up
    pauses: list[float] = []     # wall-clock seconds of each full collection
    cpu: list[float] = []        # its processor time: what other work on the machine does not move
    started: list[tuple[float, float]] = []

    def watch(phase, info):
        if info["generation"] != 2:
            return
        if phase == "start":
            started.append((time.perf_counter(), time.process_time()))
        elif started:
            wall, processor = started.pop()
            pauses.append(time.perf_counter() - wall)
            cpu.append(time.process_time() - processor)

    gc.callbacks.append(watch)
    rng = random.Random(23)
    statuses: dict[int, int] = {}
    print(f"after start-up: RSS {rss_mib():.0f} MiB; collector: {GC_POLICY}; new variants {NEW_VARIANTS} %;"
          f" load average {os.getloadavg()[0]:.1f}")
    t0 = time.perf_counter()
    app.extensions["new_variants"].most = 10**9   # one address here: no limit a minute
    stream = with_new_variants(requests(rng), random.Random(39), NEW_VARIANTS) if NEW_VARIANTS else requests(rng)
    for i, (method, path, args) in enumerate(stream, 1):
        if method == "GET":
            response = client.get(path, query_string=args)
        else:
            response = client.post(path, data=json.dumps(args), content_type="application/json")
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        if GC_POLICY == "settle":
            settle()
        if i % (total // 10) == 0:
            longest = max(pauses, default=0) * 1000
            print(f"{i:>7} requests, {time.perf_counter() - t0:5.0f} s: RSS {rss_mib():.0f} MiB;"
                  f" full collections {len(pauses)}, longest {longest:.0f} ms"
                  f" ({max(cpu, default=0) * 1000:.0f} ms of processor)", flush=True)
        if i >= total:
            break
    gc.callbacks.remove(watch)
    print("statuses:", dict(sorted(statuses.items())))
    print(f"full collections: {len(pauses)}, longest {max(pauses, default=0) * 1000:.0f} ms"
          f" ({max(cpu, default=0) * 1000:.0f} ms of processor), total {sum(pauses) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
