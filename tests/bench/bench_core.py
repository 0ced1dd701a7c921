"""Race the hand-analysis core against the `mahjong` library on the corpus in tests/data/, in one process.

Run on demand (`make bench`), never in CI. For each task it prints hands per second for both
and the ratio ours/theirs, for a cold first pass (our per-suit cache emptied) and for the
steady state a long-running server sees (median of several passes):

- completeness: `is_complete` vs `Agari.is_agari` on the 2000 complete standard hands;
- readings: `readings` vs `HandDivider.divide_hand` on the same hands;
- waits: `waits` vs `Agari.is_agari` over the 34 tiles (the corpus's own definition of a
  wait) on the 2000 ready hands.

Inputs are converted to each side's own form before the clock starts.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from mahjong.agari import Agari  # noqa: E402
from mahjong.hand_calculating.divider import HandDivider  # noqa: E402
from mahjong.meld import Meld as LibMeld  # noqa: E402

from app.hands.hand import Hand  # noqa: E402
from app.hands.readings import ShapeRules, clear_tables, is_complete, readings, waits  # noqa: E402
from app.hands.tiles import parse_tiles  # noqa: E402
from tests.conftest import load_corpus  # noqa: E402
from tests.hands.test_corpus import corpus_hand  # noqa: E402

RIICHI = ShapeRules(seven_pairs=True, seven_pairs_quads=False, thirteen_orphans=True)
PASSES = int(os.environ.get("BENCH_PASSES", "7"))


def corpus(name: str) -> list[dict]:
    return load_corpus(name)


def to_34(tiles) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t.index] += 1
    return counts


def lib_melds(hand: Hand) -> list[LibMeld]:
    melds = []
    for m in hand.melds:
        kind = {"chow": LibMeld.CHI, "pong": LibMeld.PON}.get(m.kind.value, LibMeld.KAN)
        tiles_136 = [t.index * 4 + k for k, t in enumerate(m.tiles)]
        melds.append(LibMeld(meld_type=kind, tiles=tiles_136, opened=m.kind.value != "ckong"))
    return melds


def timed(fn, items) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return time.perf_counter() - start


def race(name: str, ours, theirs, ours_items, theirs_items) -> None:
    clear_tables()
    cold_ours = timed(ours, ours_items)
    cold_theirs = timed(theirs, theirs_items)
    warm_ours, warm_theirs = [], []
    for _ in range(PASSES):
        warm_ours.append(timed(ours, ours_items))
        warm_theirs.append(timed(theirs, theirs_items))
    n = len(ours_items)
    for label, a, b in (("cold", cold_ours, cold_theirs),
                        ("steady", statistics.median(warm_ours), statistics.median(warm_theirs))):
        print(f"{name:<13} {label:<7} ours {n / a:>10,.0f} hands/s   mahjong {n / b:>10,.0f} hands/s"
              f"   ratio {b / a:5.1f}x")


def main() -> None:
    complete = [corpus_hand(e) for e in corpus("complete_standard.json")]
    ours_complete = [(h.concealed_counts, len(h.melds)) for h in complete]
    lib_complete = []
    for h in complete:
        all_tiles = to_34(h.concealed + tuple(t for m in h.melds for t in m.tiles[:3]))
        open_sets = [[t.index for t in m.tiles[:3]] for m in h.melds]
        lib_complete.append((all_tiles, open_sets))
    lib_divide = [(to_34(h.concealed + tuple(t for m in h.melds for t in m.tiles)), lib_melds(h))
                  for h in complete]

    ready = [Hand(concealed=tuple(sorted(parse_tiles(e["hand"])))) for e in corpus("tenpai.json")]
    lib_ready = [to_34(h.concealed) for h in ready]

    def lib_waits(counts: list[int]) -> list[int]:
        found = []
        for i in range(34):
            if counts[i] < 4:
                counts[i] += 1
                if Agari.is_agari(counts):
                    found.append(i)
                counts[i] -= 1
        return found

    print(f"corpus: {len(complete)} complete hands, {len(ready)} ready hands; {PASSES} steady passes")
    race("completeness", lambda a: is_complete(a[0], a[1], RIICHI),
         lambda a: Agari.is_agari(a[0], a[1]), ours_complete, lib_complete)
    race("readings", lambda h: readings(h, RIICHI),
         lambda a: HandDivider.divide_hand(a[0], a[1]), complete, lib_divide)
    race("waits", lambda h: waits(h, RIICHI), lib_waits, ready, lib_ready)


if __name__ == "__main__":
    main()
