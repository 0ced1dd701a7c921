"""Race full scoring (hand description → payments) against `HandCalculator.estimate_hand_value`.

Run on demand (`make bench`), never in CI: both price the same 2000 complete corpus hands in
one process. Ours reads the public hand description (as the web and API do), finds every
reading, prices it under a ruleset and settles the payments; the library parses nothing
(it takes 136-tile arrays) and prices riichi yaku, fu and score.

Two figures, both with each side timed on the same hands:
- unseen: the median of PASSES rounds, each forgetting every table and cache of ours, then
  one pass over the first half of the corpus, then the timed pass over the second half.
  Our per-suit tables and selection caches hold only what the first half taught them, as
  on a server that has scored a thousand other hands. The library is timed on the same
  halves in each round.
- again: the median of PASSES passes over all 2000 hands, every table warm (a server that
  has seen these suits and pattern sets before). Nothing is remembered per whole hand.
Times are this process's CPU time (time.process_time), so that other work on the machine
does not count against either side.

    python tests/bench/bench_scoring.py [ruleset-id]     (default: hong-kong)
"""
from __future__ import annotations

import gc
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

from app.base.errors import HandError  # noqa: E402
from app.hands.readings import clear_tables  # noqa: E402
from app.hands.tiles import parse_tiles  # noqa: E402
from app.vocabulary import score as calculate  # noqa: E402
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

    def run_ours(hands: list[dict[str, str]]) -> float:
        gc.collect()   # each side pays for its own garbage only
        start = time.process_time()
        for params in hands:
            try:
                calculate(params)
            except HandError:
                pass
        return time.process_time() - start

    def run_theirs(hands: list) -> float:
        gc.collect()
        start = time.process_time()
        for tiles, win, melds, dora, config in hands:
            calculator.estimate_hand_value(tiles, win, melds=melds, dora_indicators=dora, config=config)
        return time.process_time() - start

    half = len(entries) // 2
    rounds = []
    for _ in range(PASSES):
        forget()
        run_ours(ours[:half]), run_theirs(theirs[:half])   # what a server has seen before
        rounds.append((run_ours(ours[half:]), run_theirs(theirs[half:])))
    unseen = (statistics.median(r[0] for r in rounds), statistics.median(r[1] for r in rounds))
    a = [run_ours(ours) for _ in range(PASSES)]
    b = [run_theirs(theirs) for _ in range(PASSES)]
    again = (statistics.median(a), statistics.median(b))
    refused = sum(1 for p in ours if _refused(p))
    n = len(entries)
    print(f"{n} complete hands under {rules!r} ({refused} refused by its rules)")
    for label, (mine, lib), count in (("unseen", unseen, n - half), ("again ", again, n)):
        print(f"full scoring  {label}  ours {count / mine:>9,.0f} hands/s   mahjong"
              f" estimate_hand_value {count / lib:>9,.0f} hands/s   ratio {lib / mine:5.1f}x")
    # the 500 seven-pairs hands of the corpus (a fifth of its complete hands): priced where
    # the family has the form, else refused with the reason; each side warm, as `again`
    pairs = corpus("complete_chiitoi.json")
    ours7 = [our_params(e, rules) for e in pairs]
    theirs7 = [library_args(e) for e in pairs]
    mine7 = statistics.median(run_ours(ours7) for _ in range(PASSES))
    lib7 = statistics.median(run_theirs(theirs7) for _ in range(PASSES))
    refused7 = sum(1 for p in ours7 if _refused(p))
    print(f"seven pairs   again   ours {len(pairs) / mine7:>9,.0f} hands/s   mahjong"
          f" estimate_hand_value {len(pairs) / lib7:>9,.0f} hands/s   ratio {lib7 / mine7:5.1f}x"
          f"   ({refused7} of {len(pairs)} refused; a hand {1e6 * mine7 / len(pairs):.1f} µs"
          f" against {1e6 * again[0] / n:.1f} µs a complete standard hand)")


def forget() -> None:
    """Empty every table and remembered answer of ours: the per-suit tables and each
    module's lru caches, as in a process that has scored nothing yet."""
    clear_tables()
    for name, module in list(sys.modules.items()):
        if name == "app" or name.startswith("app."):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def _refused(params: dict[str, str]) -> bool:
    try:
        calculate(params)
    except HandError:
        return True
    return False


if __name__ == "__main__":
    main()
