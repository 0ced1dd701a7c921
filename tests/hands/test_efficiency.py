"""Tile efficiency (app/hands/efficiency.py): shanten per form, improving tiles, discards.

The oracle is the `mahjong` library (tests/data/corpus/random13.json holds its answers for
2,000 random hands; the ukeire checks call it directly), where its riichi forms are ours:
the standard form, seven *different* pairs, thirteen orphans. Where the rule families go
beyond it (Sichuan's seven pairs with four alike, the declared missing suit) the checks
are brute force from the definition.
"""
from __future__ import annotations

import random

import pytest
from mahjong.shanten import Shanten

from app.hands.efficiency import (
    UNREACHABLE,
    Table,
    counts_of,
    discard_options,
    form_shanten,
    improving_tiles,
    seven_pairs_shanten,
    shanten,
    standard_shanten,
    thirteen_orphans_shanten,
)
from app.hands.readings import ShapeRules, is_complete
from app.hands.tiles import TILES, parse_tiles
from tests.conftest import load_corpus

RANDOM13 = load_corpus("random13.json")
RIICHI = ShapeRules(seven_pairs=True, seven_pairs_quads=False, thirteen_orphans=True)
SICHUAN = ShapeRules(seven_pairs=True, seven_pairs_quads=True, thirteen_orphans=False)
SAMPLE = RANDOM13[::7]   # 286 hands for the slower brute-force checks


def counts(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


def fourteen(entry: dict, k: int) -> list[int]:
    """A 14-tile hand made from a corpus hand: the next tile of a fixed walk that fits."""
    c = counts(entry["hand"])
    for step in range(34):
        index = (k * 11 + step * 5) % 34
        if c[index] < 4:
            c[index] += 1
            return c
    raise AssertionError("no tile fits")


def library_improving(c: list[int]) -> set[int]:
    """Brute force with the library: the tiles whose draw lowers its shanten."""
    before = Shanten.calculate_shanten(c)
    found = set()
    for index in range(34):
        if c[index] >= 4:
            continue
        c[index] += 1
        if Shanten.calculate_shanten(c) < before:
            found.add(index)
        c[index] -= 1
    return found


# --- agreement with the library on the corpus --------------------------------------------


def test_the_corpus_has_its_2000_random_hands():
    assert len(RANDOM13) == 2000


def test_standard_shanten_agrees_with_the_library_on_every_random_hand():
    wrong = [e["hand"] for e in RANDOM13 if standard_shanten(counts(e["hand"])) != e["shanten_regular"]]
    assert wrong == []


def test_seven_pairs_shanten_agrees_with_the_library_on_every_random_hand():
    wrong = [e["hand"] for e in RANDOM13
             if seven_pairs_shanten(counts(e["hand"])) != e["shanten_chiitoitsu"]]
    assert wrong == []


def test_thirteen_orphans_shanten_agrees_with_the_library_on_every_random_hand():
    wrong = [e["hand"] for e in RANDOM13
             if thirteen_orphans_shanten(counts(e["hand"])) != e["shanten_kokushi"]]
    assert wrong == []


def test_the_best_form_agrees_with_the_library_on_every_random_hand():
    wrong = [e["hand"] for e in RANDOM13 if shanten(counts(e["hand"]), rules=RIICHI) != e["shanten"]]
    assert wrong == []


def test_every_form_agrees_with_the_library_on_fourteen_tile_hands_made_from_the_corpus():
    wrong = []
    for k, entry in enumerate(SAMPLE):
        c = fourteen(entry, k)
        ours = form_shanten(c, rules=RIICHI)
        theirs = (Shanten.calculate_shanten_for_regular_hand(c),
                  Shanten.calculate_shanten_for_chiitoitsu_hand(c),
                  Shanten.calculate_shanten_for_kokushi_hand(c))
        if (ours.standard, ours.seven_pairs, ours.thirteen_orphans) != theirs:
            wrong.append((entry["hand"], ours, theirs))
    assert wrong == []


def test_improving_tiles_agree_with_drawing_each_tile_and_asking_the_library():
    wrong = []
    for entry in SAMPLE:
        c = counts(entry["hand"])
        ours = {i.tile.index for i in improving_tiles(c, rules=RIICHI)}
        if ours != library_improving(c):
            wrong.append(entry["hand"])
    assert wrong == []


def test_each_discard_of_a_fourteen_tile_hand_agrees_with_the_library_discard_by_discard():
    wrong = []
    for k, entry in enumerate(SAMPLE[:120]):
        c = fourteen(entry, k)
        for option in discard_options(c, rules=RIICHI):
            after = list(c)
            after[option.tile] -= 1
            # the tiles held, the discard gone: four held means none to draw
            if option.shanten != Shanten.calculate_shanten(after):
                wrong.append((entry["hand"], option.tile.code, "shanten"))
            if {i.tile.index for i in option.improving} != library_improving(after):
                wrong.append((entry["hand"], option.tile.code, "improving"))
    assert wrong == []


def _crowded_hands(seed: int, count: int, melds: int = 0) -> list[list[int]]:
    """Hands drawn from a few kinds, so that many hold some tile four times (rare in the
    corpus, where the library's four-copies rules hardly show)."""
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        size = rng.choice((13, 14)) - 3 * melds
        kinds = rng.sample(range(34), rng.randint(max(4, (size + 3) // 4), 8))
        c = [0] * 34
        while sum(c) < size:
            k = rng.choice(kinds)
            if c[k] < 4:
                c[k] += 1
        hands.append(c)
    return hands


def test_hands_holding_four_alike_agree_with_the_library():
    hands = _crowded_hands(44, 600)
    assert sum(1 for c in hands if 4 in c) > 300
    wrong = [c for c in hands if form_shanten(c, rules=RIICHI).standard
             != Shanten.calculate_shanten_for_regular_hand(c)
             or shanten(c, rules=RIICHI) != Shanten.calculate_shanten(c)]
    assert wrong == []


def test_hands_with_declared_melds_agree_with_the_library_counting_them_as_open_sets():
    for melds in (1, 2, 3):
        wrong = [c for c in _crowded_hands(melds, 300, melds)
                 if standard_shanten(c, melds) != Shanten.calculate_shanten_for_regular_hand(c)]
        assert wrong == [], melds


def test_improving_tiles_of_hands_holding_four_alike_agree_with_the_library():
    hands = [c for c in _crowded_hands(45, 400) if sum(c) == 13][:150]
    wrong = [c for c in hands
             if {i.tile.index for i in improving_tiles(c, rules=RIICHI)} != library_improving(c)]
    assert wrong == []


def test_a_loose_tile_held_four_times_cannot_be_the_pair():
    # 333m 444m 999m 777z and a fourth 9m: in shape one tile from the pair, but no 9m is left
    c = counts("3334449999m777z")
    assert standard_shanten(c) == Shanten.calculate_shanten_for_regular_hand(c) == 1
    assert {i.tile.code for i in improving_tiles(c)} >= {"2m", "5m", "1p"}


def test_every_distinct_concealed_tile_is_one_discard():
    c = counts("123m456p789s11z22z7z")
    assert [o.tile.code for o in discard_options(c)] == [
        "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "2z", "7z"]


# --- the rules shape it -----------------------------------------------------------------


def test_a_declared_meld_leaves_fewer_sets_to_make():
    # 456p 789s 11z 22z 3z beside a declared 123m: ready on 1z or 2z, as without the meld
    c = counts("456p789s11z22z3z")
    assert standard_shanten(c, melds=1) == 0
    assert {i.tile.code for i in improving_tiles(c, melds=1)} == {"1z", "2z"}


def test_special_forms_need_a_concealed_hand():
    assert form_shanten(counts("1122m3344p5566s7z")).seven_pairs == 0
    with_meld = form_shanten(counts("1122m3344p55s"), melds=1)
    assert (with_meld.seven_pairs, with_meld.thirteen_orphans) == (UNREACHABLE, UNREACHABLE)


def test_seven_pairs_switched_off_leaves_only_the_standard_form():
    c = counts("1122m3344p5566s7z")
    assert shanten(c, rules=RIICHI) == 0
    assert shanten(c, rules=ShapeRules(seven_pairs=False)) == standard_shanten(c) == 3


def test_sichuan_seven_pairs_may_hold_four_alike():
    c = counts("1111m3344p5566s7s")
    assert seven_pairs_shanten(c, quads=False) == 2   # five kinds paired, one loose kind short
    assert shanten(c, rules=SICHUAN, table=Table(honours=False)) == 0
    assert [i.tile.code for i in improving_tiles(c, rules=SICHUAN, table=Table(honours=False))] == ["7s"]


def test_sichuan_has_no_thirteen_orphans():
    c = counts("19m19p19s1234567z")
    assert form_shanten(c, rules=SICHUAN).thirteen_orphans == UNREACHABLE


def test_honours_out_of_play_are_never_an_improving_tile():
    c = counts("15m19p19s1234567z")   # one from thirteen orphans: every honour helps
    assert any(i.tile.is_honour for i in improving_tiles(c, rules=RIICHI))
    assert not any(i.tile.is_honour for i in improving_tiles(c, rules=RIICHI,
                                                           table=Table(honours=False)))


def test_each_tile_of_the_missing_suit_must_still_be_changed():
    # three sets and two pairs of bamboo are ready, but with bamboo missing all four bamboo
    # are dead: four tiles to change, one a draw
    c = counts("123m456m789m1122s")
    assert standard_shanten(c) == 0
    assert standard_shanten(c, table=Table(missing="s")) == 4


def test_a_hand_holding_its_missing_suit_is_never_ready():
    c = counts("123m456m789m111p5s")   # four sets and a loose 5s: ready, unless bamboo is missing
    assert standard_shanten(c) == 0
    assert standard_shanten(c, table=Table(missing="s")) == 1
    improving = improving_tiles(c, table=Table(missing="s", honours=False), rules=SICHUAN)
    assert improving and not any(i.tile.suit == "s" for i in improving)


def test_discards_of_the_missing_suit_are_marked():
    c = counts("123m456m789m111p5s9s")
    options = {o.tile.code: o for o in discard_options(c, rules=SICHUAN,
                                                       table=Table(missing="s", honours=False))}
    assert options["5s"].dead and options["9s"].dead and not options["1m"].dead
    assert options["5s"].shanten == 1 and options["1m"].shanten == 2


def _sichuan_hand(rng: random.Random) -> list[int]:
    wall = [i for i in range(27) for _ in range(4)]
    rng.shuffle(wall)
    return counts_of(TILES[i] for i in wall[:13])


def test_sichuan_shanten_is_one_draw_from_its_best_draw_as_the_definition_says():
    """Brute force from the definition, missing suit and four-alike pairs included.

    A 14-tile hand is -1 when complete without the missing suit, else its best discard's
    shanten; a 13-tile hand is one more than its best draw's (shape alone: any tile kind).
    """
    rng = random.Random(17)
    table = Table(missing="p", honours=False)
    drawable = [i for i in range(27) if not 9 <= i < 18]
    for _ in range(60):
        c = _sichuan_hand(rng)
        best_draw = 99
        for t in drawable:
            if c[t] >= 4:
                continue
            c[t] += 1
            if is_complete(c, 0, SICHUAN) and not any(c[9:18]):
                by_definition = -1
            else:
                by_definition = min(shanten(_minus(c, d), rules=SICHUAN, table=table)
                                    for d in range(27) if c[d])
            assert shanten(c, rules=SICHUAN, table=table) == by_definition, c
            best_draw = min(best_draw, by_definition)
            c[t] -= 1
        assert shanten(c, rules=SICHUAN, table=table) == best_draw + 1, c


def _minus(c: list[int], index: int) -> list[int]:
    less = list(c)
    less[index] -= 1
    return less


# --- counts left ------------------------------------------------------------------------


def test_tiles_seen_on_the_table_are_not_left():
    c = counts("123m456p789s11z22z3z")
    seen = counts_of(parse_tiles("1z"))
    improving = {i.tile.code: i.left for i in improving_tiles(c, table=Table(seen=tuple(seen)))}
    assert improving == {"1z": 1, "2z": 2}


def test_a_tile_whose_four_copies_are_the_players_own_cannot_be_drawn():
    # a declared pong of 1m beside a single 1m: a second 1m would pair it, but none is left
    declared = counts("1m456p789s22z3z")
    held = list(declared)
    held[0] += 3   # a declared pong of 1m beside a single 1m
    assert any(i.tile.code == "1m" for i in improving_tiles(declared, melds=1))
    assert not any(i.tile.code == "1m" for i in improving_tiles(declared, melds=1, held=held))


@pytest.mark.parametrize("text", ["123m456p789s11z222z", "19m19p19s12345677z", "11123456789999m"])
def test_a_complete_hand_is_minus_one_and_ready_after_any_discard(text):
    c = counts(text)
    assert shanten(c) == -1
    assert {o.shanten for o in discard_options(c)} == {0}
