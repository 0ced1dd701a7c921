"""Make, or check, the reference corpus in tests/data/corpus/: hands with the `mahjong` library's answers.

The library (`pip install '.[bench]'`, version pinned there) is the oracle: every answer field
of a corpus file is what it computes for that hand. Three uses:

    python tests/data/make_corpus.py --check            # recompute every answer of the shipped files
    python tests/data/make_corpus.py --out DIR [--seed N]   # draw a new corpus of the same shape
    python tests/data/make_corpus.py --out DIR --count 100  # a smaller one

The shipped files were drawn with seed 20240601 by the workshop's first generator, which this
script replaces; the hands are kept as they were (tests and benchmark figures refer to them) and
`--check` (also run by tests/test_corpus_data.py) shows that their answers are exactly what the
oracle says. A corpus drawn here has the same files, fields and mix of shapes.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from mahjong.agari import Agari
from mahjong.hand_calculating.divider import HandDivider
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.meld import Meld
from mahjong.shanten import Shanten

HERE = Path(__file__).resolve().parent / "corpus"
ORACLE = "mahjong 2.1.0"
NOTATION = "MPSZ (Tenhou); z1-7 = East South West North White Green Red; no red fives"
SUITS = "mpsz"
TERMINALS_AND_HONOURS = (0, 8, 9, 17, 18, 26, *range(27, 34))
MELD_TYPES = {"chi": Meld.CHI, "pon": Meld.PON, "kan": Meld.KAN}
COMPLETE_FIELDS = (
    "tiles: all tiles incl. melds (a kan shows 4); concealed: closed part incl. win tile; melds:"
    " declared sets {type chi|pon|kan, tiles, opened}; seat_wind/round_wind: 1-4 = E S W N;"
    " decompositions: mahjong HandDivider.divide_hand (incl. meld blocks); riichi_score: mahjong"
    " HandCalculator.estimate_hand_value (default HandConfig options, no aka, no ura dora) or {error}")
TENPAI_FIELDS = ("hand: 13 concealed tiles; waits: tiles t with <4 copies held such that mahjong"
                 " Agari.is_agari(hand+t); source: shape the hand was cut from")
RANDOM_FIELDS = ("hand: 13 tiles from a shuffled 136 wall; shanten: mahjong"
                 " Shanten.calculate_shanten (regular, chiitoitsu, kokushi); per-form values alongside")


# --- notation -------------------------------------------------------------------------------


def to_34(text: str) -> list[int]:
    """MPSZ text → counts of the 34 tiles.

    >>> to_34("123m11z")[:3], to_34("123m11z")[27]
    ([1, 1, 1], 2)
    """
    counts, digits = [0] * 34, []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            base = SUITS.index(ch) * 9
            for d in digits:
                counts[base + d - 1] += 1
            digits = []
    return counts


def to_text(indices: list[int]) -> str:
    """Tile indices → MPSZ text, suits in m p s z order.

    >>> to_text([27, 0, 1, 2, 27])
    '123m11z'
    """
    out = ""
    for s, suit in enumerate(SUITS):
        digits = "".join(str(i - s * 9 + 1) for i in sorted(indices) if i // 9 == s)
        out += digits + suit if digits else ""
    return out


def expand(counts: list[int]) -> list[int]:
    return [i for i, c in enumerate(counts) for _ in range(c)]


# --- the oracle's answers -------------------------------------------------------------------


def library_melds(entry: dict) -> tuple[list[int], list[Meld]]:
    """The entry's tiles as 136-ids with its melds, as the library takes them."""
    used: dict[int, int] = {}

    def ids(text: str) -> list[int]:
        out = []
        for i in expand(to_34(text)):
            out.append(i * 4 + used.get(i, 0))
            used[i] = used.get(i, 0) + 1
        return out

    melds, tiles = [], []
    for m in entry["melds"]:
        meld_ids = ids(m["tiles"])
        melds.append(Meld(meld_type=MELD_TYPES[m["type"]], tiles=meld_ids, opened=m["opened"]))
        tiles += meld_ids
    return tiles + ids(entry["concealed"]), melds


def decompositions(entry: dict) -> list[list[str]]:
    """Every decomposition of a complete entry (HandDivider.divide_hand), as MPSZ blocks."""
    _, melds = library_melds(entry)
    found = HandDivider.divide_hand(to_34(entry["tiles"]), melds)
    return [[to_text(block) for block in d] for d in found]


def riichi_score(entry: dict) -> dict:
    """HandCalculator.estimate_hand_value of a complete entry, or its error."""
    tiles, melds = library_melds(entry)
    win = entry["win_tile"]
    win_index = expand(to_34(win))[0]
    win_136 = max(t for t in tiles if t // 4 == win_index and not any(t in m.tiles for m in melds))
    config = HandConfig(is_tsumo=entry["tsumo"], is_riichi=entry["riichi"],
                        player_wind=26 + entry["seat_wind"], round_wind=26 + entry["round_wind"])
    dora = [expand(to_34(d))[0] * 4 for d in entry["dora_indicators"]]
    result = HandCalculator.estimate_hand_value(tiles, win_136, melds, dora, config)
    if result.error:
        return {"error": result.error}
    return {"han": result.han, "fu": result.fu, "main": result.cost["main"],
            "additional": result.cost["additional"], "level": result.cost["yaku_level"],
            "yaku": [y.name for y in result.yaku]}


def waits(hand: str) -> list[str]:
    """Tiles, held fewer than four times, that complete a 13-tile hand (Agari.is_agari)."""
    counts = to_34(hand)
    out = []
    for i in range(34):
        if counts[i] < 4:
            counts[i] += 1
            if Agari.is_agari(counts):
                out.append(to_text([i]))
            counts[i] -= 1
    return out


def shanten(hand: str) -> dict:
    """Shanten of a 13-tile hand, overall and per form."""
    counts = to_34(hand)
    return {"shanten": Shanten.calculate_shanten(counts),
            "shanten_regular": Shanten.calculate_shanten_for_regular_hand(counts),
            "shanten_chiitoitsu": Shanten.calculate_shanten_for_chiitoitsu_hand(counts),
            "shanten_kokushi": Shanten.calculate_shanten_for_kokushi_hand(counts)}


def answered(kind: str, entry: dict) -> dict:
    """The entry with every answer field recomputed by the oracle."""
    out = dict(entry)
    if kind == "complete":
        out["decompositions"] = decompositions(entry)
        out["riichi_score"] = riichi_score(entry)
    elif kind == "tenpai":
        out["waits"] = waits(entry["hand"])
    else:
        out.update(shanten(entry["hand"]))
    return out


FILES = {"complete_standard.json": "complete", "complete_chiitoi.json": "complete",
         "tenpai.json": "tenpai", "random13.json": "random"}


def same(kind: str, ours: dict, theirs: dict) -> bool:
    if kind == "complete":   # the library's order of decompositions is not part of the answer
        key = lambda e: sorted(sorted(d) for d in e["decompositions"])  # noqa: E731
        return key(ours) == key(theirs) and ours["riichi_score"] == theirs["riichi_score"]
    return ours == theirs


def check(folder: Path = HERE, limit: int | None = None) -> list[str]:
    """Recompute every answer in the corpus files; the list of disagreements (empty when none)."""
    problems = []
    for name, kind in FILES.items():
        for n, entry in enumerate(json.loads((folder / name).read_text())["hands"][:limit]):
            if not same(kind, answered(kind, entry), entry):
                problems.append(f"{name}[{n}]: {entry.get('tiles', entry.get('hand'))}")
    return problems


# --- drawing new hands ----------------------------------------------------------------------


def draw_complete(rng: random.Random, melds_wanted: bool) -> dict | None:
    """A random four-sets-and-a-pair hand; some sets declared as melds when asked."""
    counts, groups = [0] * 34, []
    for _ in range(4):
        kind = rng.choice(["chi", "pon", "pon", "chi", "kan"] if melds_wanted else ["chi", "pon"])
        start = rng.randrange(34)
        if kind == "chi" and (start >= 27 or start % 9 > 6):
            kind = "pon"
        need = {"chi": [start, start + 1, start + 2], "pon": [start] * 3, "kan": [start] * 4}[kind]
        if any(counts[i] + need.count(i) > 4 for i in set(need)):
            return None
        for i in need:
            counts[i] += 1
        groups.append((kind, need))
    pair = rng.randrange(34)
    if counts[pair] > 2:
        return None
    counts[pair] += 2
    declared = [g for g in groups if g[0] == "kan" or (melds_wanted and rng.random() < 0.5)]
    melds, closed = [], [pair, pair]
    for kind, need in groups:
        if (kind, need) in declared:
            melds.append({"type": kind, "tiles": to_text(need),
                          "opened": kind != "kan" or rng.random() < 0.2})
        else:
            closed += need
    open_hand = any(m["opened"] for m in melds)
    entry = {"tiles": to_text(expand(counts)), "concealed": to_text(closed), "melds": melds,
             "win_tile": to_text([rng.choice(closed)]), "tsumo": rng.random() < 0.5,
             "riichi": not open_hand and rng.random() < 0.6, "seat_wind": rng.randint(1, 4),
             "round_wind": rng.randint(1, 2),
             "dora_indicators": [to_text([rng.randrange(34)]) for _ in range(rng.randint(1, 2))],
             "form": "standard"}
    return entry


def draw_chiitoi(rng: random.Random) -> dict:
    """Seven distinct pairs, concealed."""
    pairs = rng.sample(range(34), 7)
    tiles = to_text(sorted(pairs * 2))
    return {"tiles": tiles, "concealed": tiles, "melds": [], "win_tile": to_text([rng.choice(pairs)]),
            "tsumo": rng.random() < 0.5, "riichi": rng.random() < 0.6,
            "seat_wind": rng.randint(1, 4), "round_wind": rng.randint(1, 2),
            "dora_indicators": [to_text([rng.randrange(34)])], "form": "chiitoitsu"}


def draw_tenpai(rng: random.Random) -> dict | None:
    """A ready 13-tile hand cut from a complete shape (one tile taken out)."""
    source = rng.choices(["standard", "standard_single_suit", "chiitoitsu", "kokushi"],
                         weights=[55, 22, 21, 2])[0]
    if source == "kokushi":
        tiles = list(TERMINALS_AND_HONOURS) + [rng.choice(TERMINALS_AND_HONOURS)]
    elif source == "chiitoitsu":
        tiles = sorted(rng.sample(range(34), 7) * 2)
    else:
        suit = rng.randrange(3)
        counts = [0] * 34
        for _ in range(4):
            start = suit * 9 + rng.randrange(9) if source != "standard" else rng.randrange(34)
            need = ([start, start + 1, start + 2] if start < 27 and start % 9 < 7
                    and rng.random() < 0.6 else [start] * 3)
            for i in need:
                counts[i] += 1
        pair = suit * 9 + rng.randrange(9) if source != "standard" else rng.randrange(34)
        counts[pair] += 2
        if max(counts) > 4:
            return None
        tiles = expand(counts)
    tiles.remove(rng.choice(tiles))
    hand = to_text(tiles)
    found = waits(hand)
    return {"hand": hand, "waits": found, "source": source} if found else None


def draw(count: int, seed: int, make) -> list[dict]:
    rng, out = random.Random(seed), []
    while len(out) < count:
        entry = make(rng)
        if entry is not None:
            out.append(entry)
    return out


def generate(count: int, seed: int) -> dict[str, list[dict]]:
    """A new corpus: four files of hands with the oracle's answers."""
    wall = [i for i in range(34) for _ in range(4)]

    def random13(rng):
        rng.shuffle(wall)
        hand = to_text(wall[:13])
        return {"hand": hand, **shanten(hand)}

    complete = draw(count, seed, lambda rng: draw_complete(rng, rng.random() < 0.41))
    return {
        "complete_standard.json": [answered("complete", e) for e in complete],
        "complete_chiitoi.json": [answered("complete", e) for e in draw(count // 4, seed, draw_chiitoi)],
        "tenpai.json": draw(count, seed, draw_tenpai),
        "random13.json": draw(count, seed, random13),
    }


def write(folder: Path, corpus: dict[str, list[dict]], seed: int) -> None:
    fields = {"complete": COMPLETE_FIELDS, "tenpai": TENPAI_FIELDS, "random": RANDOM_FIELDS}
    folder.mkdir(parents=True, exist_ok=True)
    for name, hands in corpus.items():
        meta = {"fields": fields[FILES[name]], "generator": "tests/data/make_corpus.py",
                "generator_version": 2, "notation": NOTATION, "oracle": ORACLE, "seed": seed}
        lines = ",\n".join(json.dumps(h, ensure_ascii=False, separators=(",", ":")) for h in hands)
        (folder / name).write_text(f'{{"meta": {json.dumps(meta)},\n"hands": [\n{lines}\n]}}\n')


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="recompute the shipped answers")
    parser.add_argument("--out", type=Path, help="write a new corpus into this folder")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args(argv)
    if args.check:
        problems = check()
        print("\n".join(problems) or f"every answer in {HERE.name}/ is the oracle's ({ORACLE})")
        return 1 if problems else 0
    if args.out:
        write(args.out, generate(args.count, args.seed), args.seed)
        print(f"wrote {', '.join(FILES)} into {args.out}")
        return 0
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
