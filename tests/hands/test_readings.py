"""Readings of a winning hand, wait shapes, special-shape facts and the waits of a ready hand."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings

from app.hands.hand import Hand, MeldKind
from app.hands.readings import (
    GroupKind,
    Shape,
    ShapeRules,
    Wait,
    is_complete,
    is_nine_gates,
    is_pure_nine_gates,
    readings,
    waits,
)
from app.hands.tiles import TILES
from app.vocabulary.hand import parse_hand
from tests.strategies import complete_hands, naive_complete, naive_special

SICHUAN = ShapeRules(seven_pairs=True, seven_pairs_quads=True, thirteen_orphans=False)


def hand(text, win=None, melds="", **more):
    params = {"hand": text, "melds": melds, **more}
    if win:
        params["win"] = win
    return parse_hand(params)


def test_every_split_of_the_tiles_is_a_reading():
    found = {r.grouping for r in readings(hand("111222333m456p77s", "7s"))}
    assert found == {("111m", "222m", "333m", "456p", "77s"), ("123m", "123m", "123m", "456p", "77s")}


def test_the_winning_tile_in_different_sets_makes_different_readings():
    found = {(r.won_group.code, r.wait) for r in readings(hand("123m345m456p789s55z", "3m"))}
    assert found == {("123m", Wait.EDGE), ("345m", Wait.TWO_SIDED)}


@pytest.mark.parametrize("text, win, group, wait", [
    ("123m456p789s111z55z", "3m", "123m", Wait.EDGE),
    ("789m456p789s111z55z", "7m", "789m", Wait.EDGE),
    ("123m456p789s111z55z", "2m", "123m", Wait.CLOSED),
    ("123m456p789s111z55z", "1m", "123m", Wait.TWO_SIDED),
    ("123m456p789s111z55z", "6p", "456p", Wait.TWO_SIDED),
    ("123m456p789s111z55z", "5z", "55z", Wait.SINGLE),
    ("123m456p789s111z55z", "1z", "111z", Wait.PAIR_PAIR),
])
def test_a_reading_records_the_set_the_winning_tile_completed_and_the_wait(text, win, group, wait):
    (reading,) = readings(hand(text, win))
    assert reading.won_group.code == group and reading.wait is wait


def test_declared_melds_stay_fixed_and_never_take_the_winning_tile():
    found = readings(hand("123m456p55z", "5z", melds="777s,ckong:1111z"))
    assert len(found) == 1
    groups = found[0].groups
    assert [g.code for g in groups if g.declared] == ["777s", "1111z"]
    assert [g.kind for g in groups if g.declared] == [GroupKind.PONG, GroupKind.KONG]
    assert found[0].won_group.code == "55z" and not found[0].won_group.declared
    assert [g.concealed for g in groups if g.declared] == [False, True]


def test_golden_hook_shape_is_a_single_wait_after_four_melds():
    (reading,) = readings(hand("88m", melds="222m,555p,666p,7777s"))
    assert reading.wait is Wait.SINGLE and reading.won_group.kind is GroupKind.PAIR


def test_seven_pairs_reading_exists_beside_standard_ones():
    shapes = Counter(r.shape for r in readings(hand("112233m445566p77s", "7s")))
    assert shapes[Shape.SEVEN_PAIRS] == 1 and shapes[Shape.STANDARD] >= 1


def test_four_alike_count_as_two_pairs_only_when_the_rules_allow_it():
    dragon = hand("11s3333s55s66s77s99s", "9s")   # seed 000, example 4: 清龙七对
    assert not readings(dragon)
    (reading,) = readings(dragon, SICHUAN)
    assert reading.shape is Shape.SEVEN_PAIRS
    assert reading.grouping == ("11s", "33s", "33s", "55s", "66s", "77s", "99s")
    assert not is_complete(dragon.concealed_counts) and is_complete(dragon.concealed_counts, 0, SICHUAN)


def test_seven_pairs_needs_a_concealed_hand_and_the_rule():
    no_pairs = ShapeRules(seven_pairs=False)
    assert all(r.shape is not Shape.SEVEN_PAIRS for r in readings(hand("1133m5577p1199s22z", "2z"), no_pairs))
    assert not readings(hand("1133m5577p1199s22z", "2z"), no_pairs)


def test_thirteen_orphans_reading_and_its_thirteen_sided_wait():
    (single,) = readings(hand("19m19p19s12345677z", "6z"))
    assert single.shape is Shape.THIRTEEN_ORPHANS and single.wait is Wait.SINGLE
    (thirteen,) = readings(hand("19m19p19s12345677z", "7z"))
    assert thirteen.wait is Wait.THIRTEEN_SIDED
    assert not readings(hand("19m19p19s12345677z", "7z"), SICHUAN)


def test_nine_gates_facts_distinguish_the_true_wait():
    pure = readings(hand("11123455678999p", "5p"))
    assert pure and all(is_nine_gates(r) and is_pure_nine_gates(r) for r in pure)
    impure = readings(hand("11123455678999p", "9p"))
    assert impure and all(is_nine_gates(r) and not is_pure_nine_gates(r) for r in impure)
    melded = readings(hand("11123455678p", "5p", melds="999p"))
    assert melded and not any(is_nine_gates(r) for r in melded)
    mixed = readings(hand("123456789m11155p", "5p"))
    assert mixed and not any(is_nine_gates(r) for r in mixed)


def test_an_incomplete_hand_has_no_reading():
    assert readings(hand("123m456p789s11z234z", "3z")) == ()


@settings(max_examples=300)
@given(complete_hands())
def test_every_reading_uses_exactly_the_hands_tiles(h: Hand):
    found = readings(h)
    assert found, h
    own = sorted(h.concealed + tuple(t for m in h.melds for t in m.tiles))
    for r in found:
        assert sorted(r.tiles) == own
        assert r.won_group.concealed and r.win in r.won_group.tiles and not r.won_group.declared
        assert sum(1 for g in r.groups if g.kind is GroupKind.PAIR) == 1 or r.shape is not Shape.STANDARD


@settings(max_examples=300)
@given(complete_hands())
def test_completeness_agrees_with_a_naive_search(h: Hand):
    counts = h.concealed_counts
    assert is_complete(counts, len(h.melds), ShapeRules(seven_pairs=False, thirteen_orphans=False))
    assert naive_complete(list(counts))


@settings(max_examples=300)
@given(complete_hands())
def test_a_ready_hand_wins_on_exactly_its_waits(h: Hand):
    concealed = list(h.concealed)
    concealed.remove(h.win)
    ready = replace(h, concealed=tuple(concealed), win=None)
    found = {w.tile for w in waits(ready)}
    assert h.win in found
    own = ready.counts
    for t in TILES[:34]:
        trial = ready.concealed_counts
        trial[t.index] += 1
        completes = naive_complete(trial) or (not ready.melds and naive_special(trial))
        if own[t.index] >= 4:
            assert t not in found
        else:
            assert (t in found) == completes, t
            if t in found:
                assert readings(replace(ready, concealed=tuple(sorted(concealed + [t])), win=t))


def test_waits_count_the_copies_left_outside_the_players_own_tiles():
    ready = parse_hand({"hand": "1112345678999p"}, complete=False)
    left = {w.tile.code: w.left for w in waits(ready)}
    assert left == {"1p": 1, "2p": 3, "3p": 3, "4p": 3, "5p": 3, "6p": 3, "7p": 3, "8p": 3, "9p": 1}


def test_a_tile_whose_four_copies_are_all_ones_own_is_no_wait():
    # 1111m 234p 567s 999z could only win on a fifth 1m: the hand is ready on nothing
    ready = parse_hand({"hand": "1111m234p567s777z"}, complete=False)
    assert waits(ready) == ()
    ready = parse_hand({"hand": "1m", "melds": "kong:2222m,555p,666p,777p"}, complete=False)
    assert [(w.tile.code, w.left) for w in waits(ready)] == [("1m", 3)]


def _counted_profile(groups) -> dict[str, int]:
    """The profile's fields by plain counting over the groups' tiles (the oracle for the packed
    sums)."""
    sets = [g for g in groups if g.kind in (GroupKind.CHOW, GroupKind.PONG, GroupKind.KONG)]
    alike = [g for g in sets if g.kind is not GroupKind.CHOW]
    tiles = [t for g in groups for t in g.tiles]
    return dict(
        chows=sum(g.kind is GroupKind.CHOW for g in sets), alike=len(alike),
        kongs=sum(g.kind is GroupKind.KONG for g in sets),
        alike_mask=sum(1 << g.index for g in alike),
        declared=sum(g.meld is not None for g in groups),
        exposed=sum(g.meld is not None and g.meld is not MeldKind.CKONG for g in groups),
        terminal_groups=sum(any(t.is_terminal for t in g.tiles) for g in groups),
        concealed_alike=sum(g.meld in (None, MeldKind.CKONG) for g in alike),
        simples=sum(t.is_suited and not t.is_terminal for t in tiles),
        terminals=sum(t.is_terminal for t in tiles), honours=sum(t.is_honour for t in tiles))


@settings(max_examples=300)
@given(complete_hands())
def test_a_profile_counts_what_its_groups_hold(hand):
    for reading in readings(hand):
        assert reading.profile.fields() == _counted_profile(reading.groups)


@pytest.mark.parametrize("text", ["11223344556677m", "1111m2233p4455s66z", "19m19p19s12345677z"])
def test_special_shapes_have_profiles_too(text):
    hand = parse_hand({"hand": text})
    rules = ShapeRules(seven_pairs=True, seven_pairs_quads=True, thirteen_orphans=True)
    found = readings(hand, rules)
    assert any(r.shape is not Shape.STANDARD for r in found)
    for reading in found:
        assert reading.profile.fields() == _counted_profile(reading.groups)


def test_the_suit_tables_forget_everything_past_their_limit_and_still_answer(monkeypatch):
    from app.hands import readings as module
    tables = (module._STATUS, module._PLACES, *module._SUITS)
    hands = [parse_hand({"hand": f"123m456p{k}{k + 1}{k + 2}s789s{j}{j}m", "win": f"{j}m"})
             for k in range(1, 6) for j in (5, 9)]
    hands += [parse_hand({"hand": "111222333m456p77s", "win": "7s"})]
    expected = [readings(hand) for hand in hands]
    for table in tables:
        monkeypatch.setattr(table, "limit", 5, raising=False)
    module.clear_tables()
    for _ in range(2):
        assert [readings(hand) for hand in hands] == expected
        assert all(len(t) <= 5 for t in tables)


def test_the_split_table_holds_what_taking_sets_apart_finds():
    """The table is built by adding sets up; a search takes the counts apart instead."""
    from app.hands import readings as module
    for size in (9, 7):
        table = module._SPLITS[size]
        for counts, splits in table.items():
            assert module._searched_splits(counts) == splits, counts
        rng = random.Random(size)
        for _ in range(3000):
            counts = tuple(rng.choice((0, 0, 1, 2, 3, 4)) for _ in range(size))
            if sum(counts) <= module.MAX_SUIT_TILES and counts not in table:
                assert module._searched_splits(counts) == (), counts


def test_a_suit_past_the_table_is_still_split():
    from app.hands import readings as module
    counts = (3, 3, 3, 3, 3, 0, 0, 2, 0)   # five sets and a pair: more than one hand holds
    splits = module._splits(counts)
    assert splits and all(sum(c % 3 == 2 for c in split) == 1 for split in splits)
