"""The public hand description read into a Hand, and its errors."""
from __future__ import annotations

import pytest
from hypothesis import given

from app.base.errors import HandError
from app.hands.hand import MeldKind, WinBy
from app.hands.tiles import parse_tiles, tile
from app.vocabulary.hand import _read_in_full, _read_plain, describe, parse_hand, read_meld
from tests.strategies import complete_hands

PLAIN = "123m456m789m234p55s"


def test_defaults_follow_ruling_76_and_the_interface():
    hand = parse_hand({"hand": PLAIN})
    ctx = hand.context
    assert (ctx.by, ctx.seat, ctx.round) == (WinBy.DISCARD, "E", "E")
    assert hand.win == tile("5s")  # the last tile typed
    assert hand.melds == () and ctx.flowers == () and ctx.events == frozenset()


def test_winning_tile_defaults_to_the_last_tile_typed_not_the_highest():
    assert parse_hand({"hand": "55s123m456m789m234p"}).win == tile("4p")


def test_full_description_is_read():
    hand = parse_hand({
        "hand": "55s", "melds": "777m, 1111z ckong:5555z akong:7777p", "win": "5s",
        "by": "self-draw", "seat": "w", "round": "S", "flowers": "1,3", "seasons": "24",
        "events": "kong-replacement", "missing": "p",
    })
    assert [m.kind for m in hand.melds] == [MeldKind.PONG, MeldKind.KONG, MeldKind.CKONG,
                                            MeldKind.AKONG]
    assert hand.kongs == 3
    ctx = hand.context
    assert (ctx.seat, ctx.round, ctx.flowers, ctx.seasons) == ("W", "S", (1, 3), (2, 4))
    assert ctx.events == {"kong-replacement"} and ctx.missing == "p" and ctx.self_drawn


def test_describe_writes_back_what_parse_reads():
    params = {"hand": "55s", "melds": "777m,1111z,ckong:5555z,akong:7777p", "win": "5s",
              "by": "self-draw", "seat": "W", "round": "S", "flowers": "13",
              "events": "kong-replacement", "missing": "p"}
    hand = parse_hand(params)
    assert parse_hand(describe(hand)) == hand


@pytest.mark.parametrize("token, kind, tiles", [
    ("123m", MeldKind.CHOW, "123m"),
    ("312m", MeldKind.CHOW, "123m"),
    ("chow:789s", MeldKind.CHOW, "789s"),
    ("777m", MeldKind.PONG, "777m"),
    ("pong:7z7z7z", MeldKind.PONG, "777z"),
    ("1111z", MeldKind.KONG, "1111z"),
    ("kong:1111z", MeldKind.KONG, "1111z"),
    ("ckong:5555z", MeldKind.CKONG, "5555z"),
    ("akong:7777p", MeldKind.AKONG, "7777p"),
])
def test_meld_kinds_are_inferred_from_shape_and_prefix(token, kind, tiles):
    meld = read_meld(token)
    assert meld.kind is kind and meld.tiles == parse_tiles(tiles)


def _errors(params, complete=True):
    with pytest.raises(HandError) as err:
        parse_hand(params, complete=complete)
    return [(e.field, e.message) for e in err.value.errors]


# Each bad input, the field it is reported against, and words the message must contain.
BAD_INPUTS = [
    ({"hand": "123m456m789m234p5x"}, "hand", "'5' is followed by 'x'"),
    ({"hand": "123m456m789m234p55q"}, "hand", "'55' is followed by 'q'"),
    ({"hand": "123m456m789m234p0s"}, "hand", "'0s' is not a tile"),
    ({"hand": "123m456m789m234p9z"}, "hand", "'9z' is not a tile"),
    ({"hand": "11111m456m789m23p"}, "hand", "5 copies of 1m"),
    ({"hand": "11m456m789m234p55s", "melds": "111m,123p"}, "hand", "5 copies of 1m"),
    ({"hand": "123m456m789m234p5s"}, "hand", "13 tiles in the hand; a winning hand needs 14"),
    ({"hand": PLAIN, "melds": "777p"}, "hand", "with these melds, type 11 concealed tiles"),
    ({"hand": "", }, "hand", "no tiles given"),
    ({"hand": "123m456m789m234p55s fl1"}, "hand", "fl1 is a bonus tile"),
    ({"hand": "456m789m234p55s", "melds": "124m"}, "melds", "'124m' is not a meld: a chow needs three consecutive"),
    ({"hand": "456m789m234p55s", "melds": "123z"}, "melds", "a chow cannot be made of honours"),
    ({"hand": "456m789m234p55s", "melds": "1m2p3s"}, "melds", "a chow needs three tiles of one suit"),
    ({"hand": "456m789m234p55s", "melds": "1234m"}, "melds", "four tiles make a kong only when all four are alike"),
    ({"hand": "456m789m234p55s", "melds": "12m"}, "melds", "a meld has three tiles"),
    ({"hand": "456m789m234p55s", "melds": "kong:111m"}, "melds", "a kong needs four alike"),
    ({"hand": "456m789m234p55s", "melds": "chow:111m"}, "melds", "that is a pong, not a chow"),
    ({"hand": "456m789m234p55s", "melds": "fl1fl2fl3"}, "melds", "holds a bonus tile"),
    ({"hand": "55s", "melds": "111m,222m,333m,444m,555m"}, "melds", "5 melds given"),
    ({"hand": PLAIN, "win": "9s"}, "win", "9s is not in the hand"),
    ({"hand": PLAIN, "win": "55s"}, "win", "give the one winning tile"),
    ({"hand": PLAIN, "flowers": "5"}, "flowers", "'5' in '5' is not a bonus tile number"),
    ({"hand": PLAIN, "flowers": "1,1"}, "flowers", "1 is listed twice"),
    ({"hand": PLAIN, "seasons": "0"}, "seasons", "use 1-4"),
    ({"hand": PLAIN, "by": "stolen"}, "by", "'stolen' is not a way of winning"),
    ({"hand": PLAIN, "seat": "X"}, "seat", "'X' is not a wind"),
    ({"hand": PLAIN, "round": "east"}, "round", "'east' is not a wind"),
    ({"hand": PLAIN, "missing": "z"}, "missing", "the missing suit is m, p or s"),
    ({"hand": PLAIN, "events": "moon-landing"}, "events", "unknown event moon-landing"),
    ({"hand": PLAIN, "events": "last-tile,last-tile"}, "events", "listed twice"),
    ({"hand": PLAIN, "events": "robbing-the-kong", "by": "self-draw"}, "events",
     "robbing-the-kong needs a discard win, not a self-draw"),
    ({"hand": PLAIN, "events": "kong-replacement", "by": "self-draw"}, "events",
     "kong-replacement needs 1 declared kong; the melds have 0"),
    ({"hand": PLAIN, "events": "kong-replacement"}, "events", "needs a self-draw win"),
    ({"hand": "123m456m789m55s", "melds": "2222p", "events": "kong-on-kong", "by": "self-draw"},
     "events", "kong-on-kong needs 2 declared kongs"),
    ({"hand": PLAIN, "events": "heavenly-hand", "by": "self-draw", "seat": "S"}, "events",
     "the dealer's (East seat) win"),
    ({"hand": PLAIN, "events": "earthly-hand"}, "events", "a non-dealer's win"),
    ({"hand": PLAIN, "events": "flower-replacement", "by": "self-draw"}, "events",
     "needs a flower or season"),
    ({"hand": "123m456m789m234p55s", "win": "5s", "events": "robbing-the-kong"}, "events",
     "holds 2 copies of 5s"),
    ({"hand": "1" * 1000 + "m"}, "hand", "1001 characters is too long (at most 100)"),
    ({"hand": PLAIN, "melds": "111m," * 100}, "melds", "too long"),
    ({"hand": PLAIN, "events": "x" * 500}, "events", "too long"),
]


@pytest.mark.parametrize("params, field, fragment", BAD_INPUTS)
def test_bad_input_gets_a_specific_error_on_its_field(params, field, fragment):
    errors = _errors(params)
    assert any(f == field and fragment in m for f, m in errors), errors


def test_every_problem_is_reported_at_once():
    errors = _errors({"hand": PLAIN, "seat": "Q", "by": "maybe", "flowers": "9"})
    assert {f for f, _ in errors} == {"seat", "by", "flowers"}


def test_a_kong_counts_as_three_tiles():
    hand = parse_hand({"hand": "123m456m789m55s", "melds": "2222p"})
    assert len(hand.concealed) == 11 and hand.kongs == 1


def test_a_ready_hand_has_thirteen_tiles_and_no_winning_tile():
    hand = parse_hand({"hand": "123m456m789m234p5s"}, complete=False)
    assert hand.win is None and len(hand.concealed) == 13
    assert "a hand waiting to win needs 13" in _errors({"hand": PLAIN}, complete=False)[0][1]


@given(complete_hands())
def test_the_plain_reader_reads_a_described_hand_as_the_full_reader_does(hand):
    params = describe(hand)
    for complete in (True, False):
        try:
            full = _read_in_full(params, complete)
        except HandError:
            assert _read_plain(params, complete) is None
        else:
            assert _read_plain(params, complete) == full


def test_a_loosely_written_hand_reads_as_the_plainly_written_one():
    plain = {"hand": "123m789m55s", "melds": "234p,kong:1111z", "win": "5s"}
    loose = {"hand": " 123M 789m 55S", "melds": " 234p, kong:1111z ", "win": " 5s"}
    assert _read_plain(loose, True) is None
    assert parse_hand(loose) == parse_hand(plain) == _read_plain(plain, True)


@pytest.mark.parametrize("params, field, fragment", BAD_INPUTS)
def test_the_plain_reader_leaves_every_bad_input_to_the_full_reader(params, field, fragment):
    assert _read_plain(params, True) is None
