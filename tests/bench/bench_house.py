"""What pricing a club variant's examples adds to building it: a variant built with its
family's examples priced under it (the app's Rulesets) against the same variant built bare.

Run on demand (`.venv/bin/python tests/bench/bench_house.py`), never in CI. Each pass builds
the same new variants both ways (a fresh code each, so nothing is served from the cache) and
prints the median CPU time of a build and the ratio priced/bare.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.rules.house import House, PatternChange, encode  # noqa: E402
from app.rules.loader import load_all  # noqa: E402
from app.vocabulary.request import price_example  # noqa: E402

VARIANTS = int(os.environ.get("BENCH_VARIANTS", "30"))


def codes(family: str, start: int) -> list[str]:
    """New variants of a family: a fan value and the cap changed, none built before."""
    return [encode(House(family, dials=(("cap", 8 + n % 5),), patterns=(
        PatternChange("all-pongs" if family.startswith("hong-kong") else "all-triplets", fan=start + n),)))
        for n in range(VARIANTS)]


def build_times(rulesets, variants: list[str]) -> list[float]:
    times = []
    for code in variants:
        started = time.process_time()
        rulesets.house(code)
        times.append(time.process_time() - started)
    return times


def main() -> None:
    for family in ("hong-kong", "sichuan"):
        priced, bare = load_all(price=price_example), load_all()
        build_times(priced, codes(family, 90)[:2])   # warm the readings' caches and the family's prices
        build_times(bare, codes(family, 90)[:2])
        variants = codes(family, 0)
        with_prices = statistics.median(build_times(priced, variants))
        without = statistics.median(build_times(bare, variants))
        print(f"{family}: a new variant builds in {without * 1000:.1f} ms bare, "
              f"{with_prices * 1000:.1f} ms with its examples priced (ratio {with_prices / without:.2f})")


if __name__ == "__main__":
    main()
