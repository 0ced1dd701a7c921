"""Tiles and MPSZ notation."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.base.errors import NotationError
from app.hands.tiles import (
    PLAYING_TILES,
    TILES,
    canonical,
    counts_notation,
    format_tiles,
    parse_tiles,
    plain_indexes,
    tile,
    tiles_at,
)


@given(st.lists(st.sampled_from(TILES), max_size=30))
def test_notation_round_trips_any_sequence_of_tiles(tiles):
    assert parse_tiles(format_tiles(tiles)) == tuple(tiles)


@given(st.lists(st.sampled_from(TILES), max_size=30))
def test_canonical_notation_is_sorted_and_round_trips(tiles):
    assert parse_tiles(canonical(tiles)) == tuple(sorted(tiles))


@given(st.lists(st.sampled_from(PLAYING_TILES), max_size=30))
def test_counts_are_written_as_canonical_writes_their_tiles(tiles):
    counts = [0] * 34
    for t in tiles:
        counts[int(t)] += 1
    assert counts_notation(counts) == canonical(tiles)


@given(st.lists(st.sampled_from(PLAYING_TILES), max_size=30))
def test_plain_notation_in_any_order_reads_into_tile_indexes(tiles):
    indexes = plain_indexes(format_tiles(tiles))
    assert indexes == bytes(tiles) and tiles_at(indexes) == tuple(tiles)


@pytest.mark.parametrize("text", ["123M", "12 3m", "1m fl1", "0m", "8z", "123", "m", "12３m"])
def test_anything_but_plain_notation_is_left_to_the_full_reader(text):
    assert plain_indexes(text) is None


def test_every_tile_has_a_distinct_code_and_names():
    codes = {t.code for t in TILES}
    assert len(codes) == 42
    for t in TILES:
        assert tile(t.code) == t
        assert t.name_en and t.name_zh and t.name_zh_hans


@pytest.mark.parametrize("code, en, zh, zh_hans", [
    ("5s", "5 Bamboo", "五索", "五条"),
    ("1m", "1 Characters", "一萬", "一万"),
    ("9p", "9 Dots", "九筒", "九筒"),
    ("1z", "East Wind", "東", "东"),
    ("6z", "Green Dragon", "發", "发"),
    ("7z", "Red Dragon", "中", "中"),
    ("fl2", "Flower 2 Orchid", "蘭", "兰"),
    ("se4", "Season 4 Winter", "冬", "冬"),
])
def test_tiles_carry_english_and_chinese_names(code, en, zh, zh_hans):
    t = tile(code)
    assert (t.name_en, t.name_zh, t.name_zh_hans) == (en, zh, zh_hans)
    assert t.label == f"{en} {zh}"


def test_whitespace_and_upper_case_suits_are_accepted():
    assert parse_tiles(" 12 3M\t5z ") == parse_tiles("123m5z")


def test_tile_classes():
    assert tile("1m").is_terminal and not tile("2m").is_terminal
    assert tile("4z").is_wind and tile("5z").is_dragon and tile("5z").is_honour
    assert tile("fl1").is_bonus and not tile("fl1").is_honour


@pytest.mark.parametrize("text, fragment", [
    ("0m", "'0m' is not a tile here"),
    ("8z", "'8z' is not a tile: honours are 1z-7z"),
    ("123x", "'123' is followed by 'x'"),
    ("123", "'123' at the end has no suit letter"),
    ("12３m", "a digit but not ASCII"),
    ("５m", "'５' is not an ASCII digit"),
    ("fl5", "bonus tiles are numbered 1-4"),
    ("m", "unexpected character 'm'"),
    ("1m" * 150, "too long for tile notation"),
])
def test_bad_notation_names_the_problem(text, fragment):
    with pytest.raises(NotationError) as err:
        parse_tiles(text)
    assert fragment in str(err.value)


def test_notation_error_echoes_the_text_and_position():
    with pytest.raises(NotationError) as err:
        parse_tiles("123m4x")
    assert "'123m4x'" in str(err.value) and "position 5" in str(err.value)
