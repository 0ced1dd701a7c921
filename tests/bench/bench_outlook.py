"""Time the outlook (app/advice/outlook.py): p50 and p90 per family, 1- and 2-shanten hands.

Run on demand (`python tests/bench/bench_outlook.py`), never in the suite. Each hand is
weighed cold (the outlook's cache and the shanten tables emptied before it), over the
default 18 draws, timed by the clock and by the process's CPU time (the machine is shared); BENCH_HANDS hands per family and shanten (default 15), seeded.
The anchor, nekobean/mahjong-cpp (C++, riichi), publishes 18 ms for a 1-shanten hand and
33.5 ms for 2-shanten on a desktop CPU; the targets here (issue 43) are a p50 of at most 50 ms
and 150 ms of CPU time. tests/bench/bench_outlook_anchor.py builds the anchor and compares the
time per state searched in one run.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.advice.outlook import _CACHE, DEFAULT_DRAWS, outlook  # noqa: E402
from app.hands import quick  # noqa: E402
from app.hands.efficiency import clear_tables  # noqa: E402
from app.rules.loader import registry  # noqa: E402
from app.vocabulary.discard import calculate_discards  # noqa: E402
from tests.advice.outlook_hands import FAMILIES, dealt  # noqa: E402

HANDS = int(os.environ.get("BENCH_HANDS", "15"))
TARGET_MS = {1: 50, 2: 150}   # p50 CPU time


def main() -> None:
    rulesets = registry()
    print(f"outlook over {DEFAULT_DRAWS} draws, {HANDS} hands a family and shanten, cold")
    print(f"{'family':18} {'shanten':>7} {'p50 ms':>8} {'p90 ms':>8} {'max ms':>8} {'p50 cpu':>8} "
          f"{'states':>7} {'scorings':>8} {'bounded':>7}")
    for shanten in (1, 2):
        for rules in FAMILIES:
            times, cpus, states, scorings, bounded = [], [], [], [], 0
            for params in dealt(rules, shanten, HANDS, rulesets):
                result = calculate_discards(params, rulesets)
                _CACHE.clear()
                clear_tables()
                quick.clear_tables()
                start, cpu = time.perf_counter(), time.process_time()
                found = outlook(result, DEFAULT_DRAWS, rulesets)
                times.append(1000 * (time.perf_counter() - start))
                cpus.append(1000 * (time.process_time() - cpu))
                states.append(found.states)
                scorings.append(found.scorings)
                bounded += bool(found.bounded)
            times.sort()
            print(f"{rules:18} {shanten:>7} {statistics.median(times):>8.1f} "
                  f"{times[int(0.9 * (len(times) - 1))]:>8.1f} {times[-1]:>8.1f} "
                  f"{statistics.median(cpus):>8.1f} "
                  f"{int(statistics.median(states)):>7} {int(statistics.median(scorings)):>8} "
                  f"{bounded:>7}")
    print(f"targets: p50 CPU <= {TARGET_MS[1]} ms (1-shanten), <= {TARGET_MS[2]} ms (2-shanten);"
          f" load average {os.getloadavg()[0]:.1f}; mahjong-cpp publishes 18 ms and 33.5 ms"
          " (C++, riichi, desktop CPU)")


if __name__ == "__main__":
    main()
