"""Race the discard analysis against the `mahjong` library on the same hands, in one process.

Run on demand (`python tests/bench/bench_discard.py`), never in the suite. Two races, each
a cold first pass (our per-suit tables emptied) and the steady state of a long-running
server (a second pass), medians of BENCH_PASSES rounds:

- shanten: `shanten` (standard, seven pairs, thirteen orphans) vs `Shanten.calculate_shanten`
  on the 2,000 random 13-tile hands of tests/data/corpus/random13.json;
- discards: a full analysis of a 14-tile hand, `discard_options` (for each distinct discard
  its shanten and the improving tiles with the copies left) vs the same with the library:
  its shanten after each discard and after each draw that follows it, on 14-tile hands made
  from the first BENCH_HANDS corpus hands by adding one tile.

Both sides get the same 34-count lists, made before the clock starts; both answer the same
question (the answers are compared before timing). The waits' prices are not raced: the
library has no Hong Kong or Sichuan prices.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from mahjong.shanten import Shanten  # noqa: E402

from app.hands.efficiency import clear_tables, counts_of, discard_options, shanten  # noqa: E402
from app.hands.readings import ShapeRules  # noqa: E402
from app.hands.tiles import parse_tiles  # noqa: E402
from tests.conftest import load_corpus  # noqa: E402

RIICHI = ShapeRules(seven_pairs=True, seven_pairs_quads=False, thirteen_orphans=True)
PASSES = int(os.environ.get("BENCH_PASSES", "5"))
HANDS = int(os.environ.get("BENCH_HANDS", "300"))


def fourteen(counts: list[int], k: int) -> list[int]:
    """The hand plus one tile, chosen by a fixed walk (as tests/hands/test_efficiency.py does)."""
    grown = list(counts)
    for step in range(34):
        index = (k * 11 + step * 5) % 34
        if grown[index] < 4:
            grown[index] += 1
            return grown
    raise ValueError("no tile fits")


def library_discards(counts: list[int]) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """The library's answer: per distinct discard, its shanten and improving (tile, left)."""
    found = []
    for d in range(34):
        if not counts[d]:
            continue
        counts[d] -= 1
        before = Shanten.calculate_shanten(counts)
        improving = []
        if before >= 0:
            for t in range(34):
                held = counts[t] + (t == d)
                if held >= 4:
                    continue
                counts[t] += 1
                if Shanten.calculate_shanten(counts) < before:
                    improving.append((t, 4 - held))
                counts[t] -= 1
        counts[d] += 1
        found.append((d, before, improving))
    return found


def our_discards(counts: list[int]):
    return discard_options(counts, 0, RIICHI)


def same_answers(ours, theirs) -> bool:
    mine = [(int(o.tile), o.shanten, [(int(i.tile), i.left) for i in o.improving]) for o in ours]
    return mine == theirs


def timed(fn, items) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return time.perf_counter() - start


def race(name: str, ours, theirs, items) -> None:
    cold_ours, cold_theirs, warm_ours, warm_theirs = [], [], [], []
    for _ in range(PASSES):   # interleaved, so that a busy moment hits both sides alike
        clear_tables()
        cold_ours.append(timed(ours, items))
        cold_theirs.append(timed(theirs, items))
        warm_ours.append(timed(ours, items))
        warm_theirs.append(timed(theirs, items))
    n = len(items)
    for label, a, b in (("cold", statistics.median(cold_ours), statistics.median(cold_theirs)),
                        ("steady", statistics.median(warm_ours), statistics.median(warm_theirs))):
        print(f"{name:<9} {label:<7} ours {n / a:>9,.0f} hands/s   mahjong {n / b:>9,.0f} hands/s"
              f"   ratio {b / a:5.1f}x")


def main() -> None:
    hands = [counts_of(parse_tiles(e["hand"])) for e in load_corpus("random13.json")]
    full = [fourteen(c, k) for k, c in enumerate(hands[:HANDS])]
    wrong = [c for c in full if not same_answers(our_discards(c), library_discards(list(c)))]
    if wrong:
        raise SystemExit(f"{len(wrong)} hands answered differently, e.g. {wrong[0]}")
    wrong_shanten = [c for c in hands if shanten(c, 0, RIICHI) != Shanten.calculate_shanten(c)]
    if wrong_shanten:
        raise SystemExit(f"{len(wrong_shanten)} shanten differ, e.g. {wrong_shanten[0]}")
    print(f"{len(hands)} random 13-tile hands for shanten, {len(full)} 14-tile hands for the"
          f" discard analysis (answers identical); medians of {PASSES} rounds")
    race("shanten", lambda c: shanten(c, 0, RIICHI), Shanten.calculate_shanten, hands)
    race("discards", our_discards, lambda c: library_discards(list(c)), full)


if __name__ == "__main__":
    main()
