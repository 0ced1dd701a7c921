"""Detectors: small pure facts about one reading of a hand. They know nothing of fan values.

Every detector has one shape, `(reading, context) -> int`: 0 when the pattern is absent,
1 when present, n for patterns counted per item (dragon pongs, roots, own flowers).
A ruleset names detectors by their key in DETECTORS. Most read the counts of the reading's
split (Reading.profile) rather than walk its groups: scoring runs them on every reading.
"""
from __future__ import annotations

from collections.abc import Callable

from app.hands.hand import WIND_INDEX, WinBy, WinContext
from app.hands.readings import (
    Group,
    GroupKind,
    Reading,
    Shape,
    Wait,
    is_nine_gates,
    is_pure_nine_gates,
    profile_bits,
    sets_bits,
)

Detector = Callable[[Reading, WinContext], int]
# may count more than one, up to: three dragons, four tiles held four times
PER_ITEM_DETECTORS = {"dragon_pongs": 3, "roots": 4}

DRAGONS = (31, 32, 33)   # white, green, red
WINDS = (27, 28, 29, 30)
# Profile bits tested in one step by the detectors run on most readings
DRAGON_SETS, WIND_SETS = sets_bits(DRAGONS), sets_bits(WINDS)
HONOUR_SETS = DRAGON_SETS | WIND_SETS
SEAT_WIND_SET = {seat: sets_bits((wind,)) for seat, wind in WIND_INDEX.items()}
CHOWS, EXPOSED, DECLARED = profile_bits("chows"), profile_bits("exposed"), profile_bits("declared")
GREEN_DRAGON, RED_DRAGON, WHITE_DRAGON = 32, 33, 31
SEAT_NUMBER = {"E": 1, "S": 2, "W": 3, "N": 4}


def _sets(r: Reading) -> tuple[Group, ...]:
    """The four sets of a standard reading (the pair left out)."""
    return tuple(g for g in r.groups if g.kind is not GroupKind.PAIR)


def _pair(r: Reading) -> Group:
    return next(g for g in r.groups if g.kind is GroupKind.PAIR)


def _standard(r: Reading) -> bool:
    return r.shape is Shape.STANDARD


# --- shape ---------------------------------------------------------------------------

def standard_shape(r: Reading, ctx: WinContext) -> int:
    """Four sets and a pair (平胡 as Sichuan's base win)."""
    return int(_standard(r))


def all_chows(r: Reading, ctx: WinContext) -> int:
    """Four chows and a pair (平糊)."""
    return int(r.profile.chows == 4)


def all_pongs(r: Reading, ctx: WinContext) -> int:
    """Four pongs or kongs and a pair (對對糊 / 大对子)."""
    return int(r.profile.alike == 4)


def golden_hook(r: Reading, ctx: WinContext) -> int:
    """Four declared pongs or kongs, won on the single tile left (金钩钓; ruling 3)."""
    p = r.profile
    return int(p.alike == 4 and p.declared == 4 and r.wait is Wait.SINGLE)


def all_pongs_single_wait(r: Reading, ctx: WinContext) -> int:
    """Four pongs or kongs, the winning tile completing the pair (SBR golden wait; ruling 26)."""
    return int(all_pongs(r, ctx) and r.won_group.kind is GroupKind.PAIR)


def four_kongs(r: Reading, ctx: WinContext) -> int:
    """Four kongs and a pair (十八罗汉 / 槓槓和)."""
    return int(r.profile.kongs == 4)


def seven_pairs(r: Reading, ctx: WinContext) -> int:
    """Seven pairs, no melds (七对)."""
    return int(r.shape is Shape.SEVEN_PAIRS)


def seven_pairs_with_quad(r: Reading, ctx: WinContext) -> int:
    """Seven pairs holding four alike as two pairs (龙七对)."""
    return int(r.shape is Shape.SEVEN_PAIRS and 4 in r.counts)


def thirteen_orphans(r: Reading, ctx: WinContext) -> int:
    """One of each terminal and honour plus a pair of one (十三幺)."""
    return int(r.shape is Shape.THIRTEEN_ORPHANS)


def pure_nine_gates(r: Reading, ctx: WinContext) -> int:
    """1112345678999 of one suit, concealed, won on the extra tile (九子連環; HK36)."""
    return int(is_pure_nine_gates(r))


def nine_gates_true_wait_on_discard(r: Reading, ctx: WinContext) -> int:
    """Nine gates, self-drawn on any tile or won on a discard on the true wait (HKC)."""
    return int(is_nine_gates(r) and (ctx.self_drawn or is_pure_nine_gates(r)))


# --- suits and terminals -----------------------------------------------------------

HONOURS_BIT = 8


def full_flush(r: Reading, ctx: WinContext) -> int:
    """Every tile of one suit, no honours (清一色)."""
    return int(r.suits in (1, 2, 4))


def half_flush(r: Reading, ctx: WinContext) -> int:
    """One suit plus honours, at least one of each (混一色)."""
    return int(r.suits in (1 | HONOURS_BIT, 2 | HONOURS_BIT, 4 | HONOURS_BIT))


def all_honours(r: Reading, ctx: WinContext) -> int:
    """Only winds and dragons (字一色)."""
    return int(r.suits == HONOURS_BIT)


def all_terminals(r: Reading, ctx: WinContext) -> int:
    """Only 1s and 9s (清么九)."""
    p = r.profile
    return int(not p.simples and not p.honours)


def terminals_and_honours(r: Reading, ctx: WinContext) -> int:
    """Only 1s, 9s and honours, at least one terminal and one honour, in pongs and a pair (花幺九)."""
    p = r.profile
    return int(p.alike == 4 and not p.simples and p.terminals > 0 and p.honours > 0)


def terminals_everywhere(r: Reading, ctx: WinContext) -> int:
    """Every set and the pair holds a 1 or a 9 (带幺九; standard shapes only, ruling 8)."""
    return int(r.profile.terminal_groups == len(r.groups) and _standard(r))


def all_simples(r: Reading, ctx: WinContext) -> int:
    """No 1s, 9s or honours anywhere, melds included (断幺九)."""
    p = r.profile
    return int(not p.terminals and not p.honours)


def roots(r: Reading, ctx: WinContext) -> int:
    """Each tile kind held four times, in kongs or spread over sets (根; ruling 10)."""
    return r.counts.count(4)


# --- honours -----------------------------------------------------------------------

def dragon_pongs(r: Reading, ctx: WinContext) -> int:
    """Each pong or kong of dragons (箭刻)."""
    return (r.profile & DRAGON_SETS).bit_count()


def seat_wind_pong(r: Reading, ctx: WinContext) -> int:
    """A pong or kong of the seat wind (門風)."""
    return int(bool(r.profile & SEAT_WIND_SET[ctx.seat]))


def round_wind_pong(r: Reading, ctx: WinContext) -> int:
    """A pong or kong of the round wind (圈風)."""
    return int(bool(r.profile & SEAT_WIND_SET[ctx.round]))


def small_three_dragons(r: Reading, ctx: WinContext) -> int:
    """Two dragon pongs and a pair of the third (小三元)."""
    two = (r.profile & DRAGON_SETS).bit_count() == 2
    return int(two and _standard(r) and _pair(r).index in DRAGONS)


def great_three_dragons(r: Reading, ctx: WinContext) -> int:
    """Pongs or kongs of all three dragons (大三元)."""
    return int((r.profile & DRAGON_SETS).bit_count() == 3)


def small_four_winds(r: Reading, ctx: WinContext) -> int:
    """Three wind pongs and a pair of the fourth (小四喜)."""
    three = (r.profile & WIND_SETS).bit_count() == 3
    return int(three and _standard(r) and _pair(r).index in WINDS)


def great_four_winds(r: Reading, ctx: WinContext) -> int:
    """Pongs or kongs of all four winds (大四喜)."""
    return int((r.profile & WIND_SETS).bit_count() == 4)


def _suit_dragon_hand(r: Reading, dragon: int, suit: int) -> bool:
    """A dragon set, three pongs of one suit and a pair of that suit (jade/ruby/pearl dragon)."""
    if r.profile.alike != 4:
        return False
    sets = _sets(r)
    suited = [g for g in sets if g.index < 27 and g.index // 9 == suit]
    pair = _pair(r)
    return (any(g.index == dragon for g in sets) and len(suited) == 3
            and pair.index < 27 and pair.index // 9 == suit)


def jade_dragon(r: Reading, ctx: WinContext) -> int:
    """Green dragon set, three bamboo pongs and a bamboo pair."""
    return int(_suit_dragon_hand(r, GREEN_DRAGON, 2))


def ruby_dragon(r: Reading, ctx: WinContext) -> int:
    """Red dragon set, three character pongs and a character pair."""
    return int(_suit_dragon_hand(r, RED_DRAGON, 0))


def pearl_dragon(r: Reading, ctx: WinContext) -> int:
    """White dragon set, three dot pongs and a dot pair."""
    return int(_suit_dragon_hand(r, WHITE_DRAGON, 1))


# --- concealment -------------------------------------------------------------------

def concealed_hand(r: Reading, ctx: WinContext) -> int:
    """No set exposed before the win; concealed kongs allowed (門前清, HK36)."""
    return int(not r.profile & EXPOSED)


def concealed_hand_no_kongs(r: Reading, ctx: WinContext) -> int:
    """No set exposed before the win, a concealed kong counting as exposed (門前清, HKC)."""
    return int(r.profile.declared == 0)


def _concealed_pongs(r: Reading, ctx: WinContext) -> int:
    """Pongs or kongs concealed at the win: a pong completed by a discard is exposed."""
    count = r.profile.concealed_alike
    if ctx.by is WinBy.DISCARD and r.groups[r.win_group].kind is GroupKind.PONG:
        count -= 1   # the winning tile is a concealed tile, so its group is never a meld
    return count


def four_concealed_pongs(r: Reading, ctx: WinContext) -> int:
    """Four concealed pongs or concealed kongs; a discard may only complete the pair (四暗刻)."""
    return int(r.profile.alike == 4 and _concealed_pongs(r, ctx) == 4)


def four_concealed_pongs_no_kongs(r: Reading, ctx: WinContext) -> int:
    """Four concealed pongs with no kong at all (坎坎糊, HKC)."""
    return int(r.profile.declared == 0 and four_concealed_pongs(r, ctx))


# --- flowers and how the hand was won ---------------------------------------------

def own_flower(r: Reading, ctx: WinContext) -> int:
    """The flower numbered for the seat (正花)."""
    return int(SEAT_NUMBER[ctx.seat] in ctx.flowers)


def own_season(r: Reading, ctx: WinContext) -> int:
    """The season numbered for the seat (正花)."""
    return int(SEAT_NUMBER[ctx.seat] in ctx.seasons)


def no_bonus_tiles(r: Reading, ctx: WinContext) -> int:
    """No flowers and no seasons (無花)."""
    return int(not ctx.flowers and not ctx.seasons)


def all_flowers(r: Reading, ctx: WinContext) -> int:
    """All four flowers (一台花)."""
    return int(len(ctx.flowers) == 4)


def all_seasons(r: Reading, ctx: WinContext) -> int:
    """All four seasons (一台花)."""
    return int(len(ctx.seasons) == 4)


def all_bonus_tiles(r: Reading, ctx: WinContext) -> int:
    """All eight flowers and seasons (大花糊)."""
    return int(len(ctx.flowers) == 4 and len(ctx.seasons) == 4)


def self_draw(r: Reading, ctx: WinContext) -> int:
    """The winning tile was drawn from the wall (自摸)."""
    return int(ctx.by is WinBy.SELF_DRAW)


def always(r: Reading, ctx: WinContext) -> int:
    """Present in every win; for patterns that rest on an event or a tick alone."""
    return 1


DETECTORS: dict[str, Detector] = {f.__name__: f for f in (
    standard_shape, all_chows, all_pongs, golden_hook, all_pongs_single_wait, four_kongs,
    seven_pairs, seven_pairs_with_quad, thirteen_orphans, pure_nine_gates,
    nine_gates_true_wait_on_discard,
    full_flush, half_flush, all_honours, all_terminals, terminals_and_honours,
    terminals_everywhere, all_simples, roots,
    dragon_pongs, seat_wind_pong, round_wind_pong, small_three_dragons, great_three_dragons,
    small_four_winds, great_four_winds, jade_dragon, ruby_dragon, pearl_dragon,
    concealed_hand, concealed_hand_no_kongs, four_concealed_pongs, four_concealed_pongs_no_kongs,
    own_flower, own_season, no_bonus_tiles, all_flowers, all_seasons, all_bonus_tiles,
    self_draw, always,
)}


# --- gates ---------------------------------------------------------------------------
# A gate is a quick test that must hold for any detector behind it to fire. Scoring tests
# each gate once per reading and skips the detectors behind a closed one; a detector not
# listed in GATED always runs. tests/rules/test_detectors.py checks that no closed gate hides a
# pattern, tests/scoring/test_scoring.py that scoring finds what running every detector finds.

def no_chows(r: Reading, ctx: WinContext) -> bool:
    """Pongs, kongs and pairs only (or a special shape, which has no chows either)."""
    return not r.profile & CHOWS


def honour_sets(r: Reading, ctx: WinContext) -> bool:
    """At least one pong or kong of winds or dragons."""
    return bool(r.profile & HONOUR_SETS)


def one_suit(r: Reading, ctx: WinContext) -> bool:
    """No two suits mixed (honours may join the one suit)."""
    return r.suits & 7 in (0, 1, 2, 4)


def bonus_tiles(r: Reading, ctx: WinContext) -> bool:
    """A flower or a season was declared."""
    return bool(ctx.flowers or ctx.seasons)


GATES: dict[str, Callable[[Reading, WinContext], bool]] = {
    f.__name__: f for f in (no_chows, honour_sets, one_suit, bonus_tiles)}
GATED: dict[str, str] = {
    **dict.fromkeys(("all_pongs", "golden_hook", "all_pongs_single_wait", "four_kongs",
                     "seven_pairs", "seven_pairs_with_quad", "thirteen_orphans", "all_terminals",
                     "terminals_and_honours", "jade_dragon", "ruby_dragon", "pearl_dragon",
                     "four_concealed_pongs", "four_concealed_pongs_no_kongs"), "no_chows"),
    **dict.fromkeys(("dragon_pongs", "seat_wind_pong", "round_wind_pong", "small_three_dragons",
                     "great_three_dragons", "small_four_winds", "great_four_winds"), "honour_sets"),
    **dict.fromkeys(("full_flush", "half_flush", "all_honours", "pure_nine_gates",
                     "nine_gates_true_wait_on_discard"), "one_suit"),
    **dict.fromkeys(("own_flower", "own_season", "all_flowers", "all_seasons", "all_bonus_tiles"),
                   "bonus_tiles"),
}
# The detectors and gates that read the win's context alone, never the reading: for hands
# won in one context (a Frame's), selection.context_plan works them out once.
CONTEXT_ONLY = frozenset({"self_draw", "no_bonus_tiles", "own_flower", "own_season",
                          "all_flowers", "all_seasons", "all_bonus_tiles", "always",
                          "bonus_tiles"})


# --- the winning tile ------------------------------------------------------------------
# A hand won on one of its tiles or another is read in the same splits; each split's readings
# differ only in the winning tile, its group and its wait. The detectors below read those, so
# on one split they may find otherwise for another winning tile, each only where its test (of
# the split and the context alone) holds; every other detector finds the same whichever tile
# won. counts_pricer prices a hand none of whose readings passes a test of its plan once for
# every winning tile. tests/rules/test_detectors.py holds every detector to this. (golden_hook
# reads the wait too, but its hand holds a pair alone concealed: the pair's tile won.)

def _nine_gates_split(r: Reading, ctx: WinContext) -> bool:
    """One suit without honours, concealed, four sets and a pair: where nine gates may be
    (is_nine_gates reads the winning tile's suit, is_pure_nine_gates its place)."""
    return r.suits in (1, 2, 4) and r.shape is Shape.STANDARD and not r.profile & DECLARED


def _pongs_won_on_discard(r: Reading, ctx: WinContext) -> bool:
    """Four pongs or kongs won on a discard (which pong it completed is exposed)."""
    return ctx.by is WinBy.DISCARD and r.profile.alike == 4


WIN_READING: dict[str, Callable[[Reading, WinContext], object]] = {
    "all_pongs_single_wait": all_pongs,   # its pair completed by the winning tile
    "four_concealed_pongs": _pongs_won_on_discard,
    "four_concealed_pongs_no_kongs": _pongs_won_on_discard,
    "pure_nine_gates": _nine_gates_split,   # won on the extra tile
    "nine_gates_true_wait_on_discard": _nine_gates_split,
}
