"""Race full scoring (hand description → payments) against `HandCalculator.estimate_hand_value`.

Run on demand (`make bench`), never in CI: both price the same 2000 complete corpus hands in
one process. Ours reads the public hand description (as the web and API do), finds every
reading, prices it under a ruleset and settles the payments; the library parses nothing
(it takes 136-tile arrays) and prices riichi yaku, fu and score.

    python tests/bench/bench_scoring.py [ruleset-id]     (default: hong-kong)
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong.hand_calculating.hand_config import HandConfig  # noqa: E402
from mahjong.meld import Meld as LibMeld  # noqa: E402

from app.errors import HandError  # noqa: E402
from app.request import calculate  # noqa: E402
from app.tiles import parse_tiles  # noqa: E402
from tests.bench.bench_core import corpus  # noqa: E402

PASSES = int(os.environ.get("BENCH_PASSES", "5"))
WINDS = "ESWN"


def our_params(entry: dict, rules: str) -> dict[str, str]:
    """The corpus hand in the public hand-description vocabulary."""
    melds = []
    for m in entry["melds"]:
        prefix = {"chi": "", "pon": ""}.get(m["type"], "kong:" if m["opened"] else "ckong:")
        melds.append(prefix + m["tiles"])
    params = {"rules": rules, "hand": entry["concealed"], "win": entry["win_tile"],
              "melds": ",".join(melds), "by": "self-draw" if entry["tsumo"] else "discard",
              "seat": WINDS[entry["seat_wind"] - 1], "round": WINDS[entry["round_wind"] - 1]}
    return params


def library_args(entry: dict):
    """The same hand as the library takes it: 136-tile ids, melds, config."""
    used: dict[int, int] = {}

    def ids(text: str) -> list[int]:
        out = []
        for t in parse_tiles(text):
            k = used.get(t.index, 0)
            used[t.index] = k + 1
            out.append(t.index * 4 + k)
        return out

    melds, tiles = [], []
    for m in entry["melds"]:
        meld_ids = ids(m["tiles"])
        kind = {"chi": LibMeld.CHI, "pon": LibMeld.PON}.get(m["type"], LibMeld.KAN)
        melds.append(LibMeld(meld_type=kind, tiles=meld_ids, opened=m["opened"]))
        tiles += meld_ids
    concealed = ids(entry["concealed"])
    tiles += concealed
    win_index = parse_tiles(entry["win_tile"])[0].index
    win_136 = next(t for t in concealed if t // 4 == win_index)
    dora = [parse_tiles(d)[0].index * 4 for d in entry["dora_indicators"]]
    config = HandConfig(is_tsumo=entry["tsumo"], is_riichi=entry["riichi"],
                        player_wind=26 + entry["seat_wind"], round_wind=26 + entry["round_wind"])
    return tiles, win_136, melds, dora, config


def main() -> None:
    rules = sys.argv[1] if len(sys.argv) > 1 else "hong-kong"
    entries = corpus("complete_standard.json")
    ours = [our_params(e, rules) for e in entries]
    theirs = [library_args(e) for e in entries]
    calculator = HandCalculator()

    def run_ours() -> float:
        start = time.perf_counter()
        for params in ours:
            try:
                calculate(params)
            except HandError:
                pass
        return time.perf_counter() - start

    def run_theirs() -> float:
        start = time.perf_counter()
        for tiles, win, melds, dora, config in theirs:
            calculator.estimate_hand_value(tiles, win, melds=melds, dora_indicators=dora, config=config)
        return time.perf_counter() - start

    refused = sum(1 for p in ours if _refused(p))
    run_ours(), run_theirs()   # warm-up: module caches, ruleset load
    a = [run_ours() for _ in range(PASSES)]
    b = [run_theirs() for _ in range(PASSES)]
    n = len(entries)
    print(f"{n} complete hands under {rules!r} ({refused} refused by its rules); median of {PASSES} passes")
    print(f"full scoring  ours {n / statistics.median(a):>9,.0f} hands/s   "
          f"mahjong estimate_hand_value {n / statistics.median(b):>9,.0f} hands/s   "
          f"ratio {statistics.median(b) / statistics.median(a):5.1f}x")


def _refused(params: dict[str, str]) -> bool:
    try:
        calculate(params)
    except HandError:
        return True
    return False


if __name__ == "__main__":
    main()
