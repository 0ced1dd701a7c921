"""How long a result page takes against /api/score for the same hand, in one process.

Run on demand (`python tests/bench/bench_pages.py`), never in CI. For each hand it times, in
the Flask test client (no network, no server), GET /api/score and GET / (the calculator's
result page) with the same query, taking turns, in each page language (`lang=en`, `zh-Hant`,
`zh-Hans`: one row a hand and language), and prints the median milliseconds of each, their
ratio and the worst ratio (target: the page within 3 x the API answer in every language). No request sends If-None-Match or
Accept-Encoding, so every page is rendered whole and sent uncompressed.

    python tests/bench/bench_pages.py            # 300 rounds a hand
    python tests/bench/bench_pages.py 50         # a quick look
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.web import create_app  # noqa: E402

HANDS = [
    "rules=hong-kong&hand=123m456m789m234p55s&discarder=N",
    "rules=sichuan&hand=111p123p777p789p55p&by=self-draw&missing=m",
    "rules=hong-kong-course&hand=123m789m55s&melds=777p,ckong:5555z&by=self-draw&flowers=13"
    "&events=kong-replacement",
]
LANGS = ("en", "zh-Hant", "zh-Hans")


def median_ms(client, urls: tuple[str, ...], rounds: int) -> tuple[list[float], list[float]]:
    """Each URL's median time by the clock and in this process's CPU time; the URLs take
    turns, so a busy machine slows them alike (but a longer request is more often made to wait
    its turn on a crowded machine: there the CPU times compare the work)."""
    times: list[list[float]] = [[] for _ in urls]
    cpus: list[list[float]] = [[] for _ in urls]
    for _ in range(rounds):
        for url, kept, cpu in zip(urls, times, cpus, strict=True):
            start, used = time.perf_counter(), time.process_time()
            response = client.get(url)
            kept.append(time.perf_counter() - start)
            cpu.append(time.process_time() - used)
            assert response.status_code == 200, (url, response.status_code)
    return ([statistics.median(kept) * 1000 for kept in times],
            [statistics.median(kept) * 1000 for kept in cpus])


def main(rounds: int) -> int:
    client = create_app().test_client()
    worst = worst_cpu = 0.0
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'hand':<64} {'lang':<8} {'api ms':>7} {'page ms':>8} {'ratio':>6} {'cpu ratio':>9}")
    for query in HANDS:
        for lang in LANGS:
            api, page = f"/api/score?{query}&lang={lang}", f"/?{query}&lang={lang}"
            median_ms(client, (api, page), 20)   # warm up
            (api_ms, page_ms), (api_cpu, page_cpu) = median_ms(client, (api, page), rounds)
            ratio = page_ms / api_ms
            worst = max(worst, ratio)
            worst_cpu = max(worst_cpu, page_cpu / api_cpu)
            print(f"{query[:64]:<64} {lang:<8} {api_ms:>7.2f} {page_ms:>8.2f} {ratio:>6.2f}"
                  f" {page_cpu / api_cpu:>9.2f}")
    print(f"\nworst ratio: {worst:.2f} by the clock, {worst_cpu:.2f} by CPU time (target: at most 3"
          f" by the clock); load average {os.getloadavg()[0]:.1f}")
    return 0 if worst <= 3 else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 300))
