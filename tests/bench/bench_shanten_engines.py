"""Race three shanten engines on the questions the outlook asks, in one process.

Run on demand (`python tests/bench/bench_shanten_engines.py`, or `make bench`), never in the
suite. The engines: ours (`app/hands/efficiency.py`, pure Python, per-suit tables), the
`mahjong` library's `Shanten` (pure Python) and `xiangting` (Rust, its Python bindings; the
`bench` extra installs it). On the 2,000 random 13-tile hands of
tests/data/corpus/random13.json, under riichi's forms (standard, seven pairs of distinct
kinds, thirteen orphans), which is all the two peers know:

- shanten of a 13-tile hand (xiangting gives the replacement number, shanten + 1);
- the improving tiles of a 13-tile hand (the outlook asks this of each state not yet ready):
  ours `improving_tiles`, xiangting `calculate_necessary_tiles`; the library has no such call
  and is asked its shanten after each of the 34 draws;
- the discards of a 14-tile hand that keep its shanten (the outlook asks this after each
  useful draw): ours `discard_shanten`, xiangting `calculate_unnecessary_tiles` (the tiles
  whose discard does not raise it), the library its shanten after each discard.

Every answer is compared before timing, and every disagreement is counted and shown (a tile
held four times is where the engines' rules differ: xiangting never waits on a fifth copy).
Medians of BENCH_PASSES rounds, each engine on the same lists; ours cold (tables emptied) and
steady (a second pass).
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

from app.hands.efficiency import (  # noqa: E402
    clear_tables,
    counts_of,
    discard_shanten,
    improving_tiles,
    shanten,
)
from app.hands.readings import ShapeRules  # noqa: E402
from app.hands.tiles import parse_tiles  # noqa: E402
from tests.bench.bench_discard import fourteen  # noqa: E402
from tests.conftest import load_corpus  # noqa: E402

try:
    import xiangting
except ImportError:   # the bench extra: pip install -c constraints.txt '.[bench]'
    xiangting = None

RIICHI = ShapeRules(seven_pairs=True, seven_pairs_quads=False, thirteen_orphans=True)
PASSES = int(os.environ.get("BENCH_PASSES", "5"))


def ours_shanten(c):
    return shanten(c, 0, RIICHI)


def ours_improving(c):
    return frozenset(int(i.tile) for i in improving_tiles(c, 0, RIICHI))


def ours_keeping(c):
    after = discard_shanten(c, 0, RIICHI)
    best = min(after.values())
    return frozenset(d for d, s in after.items() if s == best)


def library_improving(c):
    before = Shanten.calculate_shanten(c)
    found = set()
    for k in range(34):
        if c[k] < 4:
            c[k] += 1
            if Shanten.calculate_shanten(c) < before:
                found.add(k)
            c[k] -= 1
    return frozenset(found)


def library_keeping(c):
    after = {}
    for d in range(34):
        if c[d]:
            c[d] -= 1
            after[d] = Shanten.calculate_shanten(c)
            c[d] += 1
    best = min(after.values())
    return frozenset(d for d, s in after.items() if s == best)


def _flags(bits: int) -> frozenset[int]:
    return frozenset(i for i in range(34) if bits >> i & 1)


def xt_shanten(c):
    return xiangting.calculate_replacement_number(c, xiangting.PlayerCount.FOUR) - 1


def xt_improving(c):
    return _flags(xiangting.calculate_necessary_tiles(c, xiangting.PlayerCount.FOUR)[1])


def xt_keeping(c):
    return _flags(xiangting.calculate_unnecessary_tiles(c, xiangting.PlayerCount.FOUR)[1])


def timed(fn, items) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return time.perf_counter() - start


def race(name: str, engines: dict, items: list) -> None:
    answers = {label: [fn(list(c)) for c in items] for label, fn in engines.items()}
    ours = answers["ours"]
    for label, found in answers.items():
        differ = [i for i, (a, b) in enumerate(zip(ours, found, strict=True)) if a != b]
        if differ:
            i = differ[0]
            print(f"  {name}: {label} differs from ours on {len(differ)} of {len(items)} hands,"
                  f" e.g. {items[i]}: ours {sorted(ours[i]) if isinstance(ours[i], frozenset) else ours[i]},"
                  f" {label} {sorted(found[i]) if isinstance(found[i], frozenset) else found[i]}")
    lists = [list(c) for c in items]
    times: dict[str, list[float]] = {"ours cold": [], "ours steady": []}
    for _ in range(PASSES):
        clear_tables()
        times["ours cold"].append(timed(engines["ours"], lists))
        times["ours steady"].append(timed(engines["ours"], lists))
        for label, fn in engines.items():
            if label != "ours":
                times.setdefault(label, []).append(timed(fn, lists))
    per = {label: 1e6 * statistics.median(t) / len(items) for label, t in times.items()}
    steady = per["ours steady"]
    said = "   ".join(f"{label} {us:7.1f} us ({us / steady:4.1f}x ours steady)"
                      for label, us in per.items())
    print(f"{name:<10} {said}")


def main() -> None:
    hands = [counts_of(parse_tiles(e["hand"])) for e in load_corpus("random13.json")]
    full = [fourteen(c, k) for k, c in enumerate(hands)]
    print(f"{len(hands)} random 13-tile hands and {len(full)} 14-tile hands made from them;"
          f" medians of {PASSES} rounds, per hand")
    if xiangting is None:
        print("xiangting is not installed (pip install -c constraints.txt '.[bench]'): two engines")
    peers = {"shanten": (ours_shanten, Shanten.calculate_shanten, xt_shanten),
             "improving": (ours_improving, library_improving, xt_improving),
             "keeping": (ours_keeping, library_keeping, xt_keeping)}
    for name, (ours, library, xt) in peers.items():
        engines = {"ours": ours, "mahjong": library}
        if xiangting is not None:
            engines["xiangting"] = xt
        race(name, engines, full if name == "keeping" else hands)


if __name__ == "__main__":
    main()
