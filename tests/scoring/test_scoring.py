"""The scoring engine on a small test ruleset: relations, dials, payments and their reasons."""
from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from fractions import Fraction

import pytest

from app.base.errors import HandError
from app.hands.hand import WinBy, WinContext
from app.hands.readings import ShapeRules, readings
from app.rules.checks import build_ruleset
from app.rules.detectors import DETECTORS
from app.rules.loader import registry
from app.scoring.selection import detect
from app.vocabulary import score as calculate
from tests.conftest import load_corpus
from tests.hands.test_corpus import corpus_hand

RULES = {
    "name": {"en": "Test rules", "zh_hant": "測試", "zh_hans": "測試"},
    "dials": {"min": 1, "cap": 10, "curve": "doubling", "payment": "half"},
    "ranges": {"min": [0, 10], "cap": [1, 16], "uncapped": True},
    "conditions": {"won": True},    # players who already won play on, as in a blood battle
    "curves": [{"id": "doubling", "name": {"en": "Doubling", "zh_hant": "加倍", "zh_hans": "加倍"}, "kind": "doubling"},
               {"id": "linear", "name": {"en": "Linear", "zh_hant": "番數即分數", "zh_hans": "番數即分數"}, "kind": "linear"}],
    "payments": [
        {"id": "half", "name": {"en": "Discarder pays half", "zh_hant": "半銃", "zh_hans": "半銃"},
         "discard": {"discarder": 2, "others": 1}, "self_draw": {"each": 2}},
        {"id": "all", "name": {"en": "Discarder pays all", "zh_hant": "全銃", "zh_hans": "全銃"},
         "discard": {"discarder": 4, "others": 0}, "self_draw": {"each": 2}},
        {"id": "quarter", "name": {"en": "Quarters", "zh_hant": "四分", "zh_hans": "四分"}, "curve": "linear",
         "discard": {"discarder": "1/2", "others": "1/4"}, "self_draw": {"each": "1/2"}},
    ],
    "events": [{"id": "last-tile", "name": {"en": "Last tile", "zh_hant": "海底", "zh_hans": "海底"}, "by": "self-draw"}],
    "categories": [{"id": "hands", "name": {"en": "Hands", "zh_hant": "番種", "zh_hans": "番種"}},
                   {"id": "honours", "name": {"en": "Honours", "zh_hant": "字牌", "zh_hans": "字牌"}},
                   {"id": "special", "name": {"en": "Special", "zh_hant": "特殊", "zh_hans": "特殊"}},
                   {"id": "won", "name": {"en": "How you won", "zh_hant": "食糊方法", "zh_hans": "食糊方法"}}],
    "liability": [{"id": "dragons-pao", "name": {"en": "Dragons pao", "zh_hant": "包三元", "zh_hans": "包三元"},
                   "pattern": "great-three-dragons"}],
    "patterns": [
        {"id": "all-chows", "name": {"en": "All chows", "zh_hant": "平糊", "zh_hans": "平糊"}, "fan": 1, "category": "hands", "detect": "all_chows"},
        {"id": "all-pongs", "name": {"en": "All pongs", "zh_hant": "對對糊", "zh_hans": "對對糊"}, "fan": 3, "category": "hands", "detect": "all_pongs",
         "group": "shape"},
        {"id": "single-wait-pongs", "name": {"en": "Single-wait pongs", "zh_hant": "單釣對對", "zh_hans": "單釣對對"}, "fan": 3, "category": "hands",
         "detect": "all_pongs_single_wait", "group": "shape"},
        {"id": "half-flush", "name": {"en": "Half flush", "zh_hant": "混一色", "zh_hans": "混一色"}, "fan": 3, "category": "hands", "detect": "half_flush"},
        {"id": "dragon-pong", "name": {"en": "Dragon pong", "zh_hant": "箭刻", "zh_hans": "箭刻"}, "fan": 1, "category": "honours",
         "detect": "dragon_pongs"},
        {"id": "great-three-dragons", "name": {"en": "Great three dragons", "zh_hant": "大三元", "zh_hans": "大三元"}, "fan": 8,
         "category": "hands", "detect": "great_three_dragons", "includes": ["dragon-pong"]},
        {"id": "all-honours", "name": {"en": "All honours", "zh_hant": "字一色", "zh_hans": "字一色"}, "fan": 10, "category": "special",
         "detect": "all_honours", "replaces_categories": ["hands", "honours"]},
        {"id": "great-four-winds", "name": {"en": "Great four winds", "zh_hant": "大四喜", "zh_hans": "大四喜"}, "fan": 13, "category": "special",
         "detect": "great_four_winds", "limit": True, "alone": True},
        {"id": "self-draw", "name": {"en": "Self-draw", "zh_hant": "自摸", "zh_hans": "自摸"}, "fan": 1, "category": "won", "detect": "self_draw"},
        {"id": "last-tile", "name": {"en": "Last tile", "zh_hant": "海底", "zh_hans": "海底"}, "fan": 1, "category": "won", "event": "last-tile",
         "includes": ["self-draw"]},
        {"id": "concealed-pongs", "name": {"en": "Concealed pongs", "zh_hant": "坎坎糊", "zh_hans": "坎坎糊"}, "fan": 6, "category": "hands",
         "detect": "four_concealed_pongs", "by": "self-draw"},
        {"id": "seven-pairs", "name": {"en": "Seven pairs", "zh_hant": "七對", "zh_hans": "七對"}, "fan": 4, "category": "hands",
         "detect": "seven_pairs", "optional": True},
    ],
    "shapes": {"seven_pairs": "seven-pairs", "thirteen_orphans": False},
}
RULESETS = {"test": build_ruleset(RULES, "test.yaml", "test")}


def calc(**params):
    return calculate({"rules": "test", **params}, RULESETS)


def items(result):
    return {i.pattern.id: (i.fan if i.counted else i.note) for i in result.score.items}


def payments(result):
    return {p.seat: p.amount for p in result.payments}


def test_an_including_pattern_counts_alone_and_the_included_say_so():
    result = calc(hand="123m99m", melds="777z,666z,555z", win="9m")
    assert items(result)["great-three-dragons"] == 8
    assert items(result)["dragon-pong"] == "included in Great three dragons 大三元"


def test_ticking_great_dragons_and_three_dragon_pongs_counts_eight_and_says_why():
    result = calc(ticks="great-three-dragons,dragon-pong*3")
    assert result.score.total_fan == 8
    assert items(result)["dragon-pong"].startswith("included in Great three dragons")


def test_a_special_hand_replaces_whole_categories_but_not_how_you_won():
    result = calc(hand="55z", melds="111z,222z,333z,666z", win="5z", by="self-draw")
    assert items(result)["all-honours"] == 10 and items(result)["self-draw"] == 1
    assert items(result)["all-pongs"].startswith("replaced by All honours")


def test_the_ordinary_reading_wins_when_it_is_worth_more_than_the_special_hand():
    # all honours 10 + self-draw 1 = 11 against all pongs 3 + great dragons 8 + self-draw 1
    # + four concealed pongs 6 = 18
    result = calc(hand="555z666z777z11z222z", win="2z", by="self-draw")
    counted = {k: v for k, v in items(result).items() if isinstance(v, int)}
    assert counted == {"all-pongs": 3, "great-three-dragons": 8, "self-draw": 1, "concealed-pongs": 6}
    assert result.score.total_fan == 18
    assert "worth more without it" in items(result)["all-honours"]


def test_a_limit_hand_pays_the_cap_and_stands_alone():
    result = calc(hand="55m", melds="111z,222z,333z,444z", win="5m", by="self-draw", cap="8")
    assert items(result)["great-four-winds"] == 8
    assert "no other fan counts" in items(result)["self-draw"]
    uncapped = calc(hand="55m", melds="111z,222z,333z,444z", win="5m", by="self-draw", cap="none")
    assert uncapped.score.total_fan == 13 and uncapped.score.capped_fan == 13


def test_on_a_tie_within_a_group_the_more_specific_later_pattern_counts():
    result = calc(hand="55m", melds="111m,222m,333m,444m", win="5m")
    assert items(result)["single-wait-pongs"] == 3
    assert items(result)["all-pongs"] == "only one shape counts: Single-wait pongs 單釣對對 is the more specific"


def test_a_pattern_needing_a_self_draw_is_recognised_but_not_counted_on_a_discard():
    result = calc(hand="111m222m333p444p55s", win="5s", by="discard")
    assert items(result)["concealed-pongs"] == "needs a self-draw win"


def test_an_event_pattern_can_include_the_self_draw_award():
    result = calc(hand="123m456m789m123p55s", by="self-draw", events="last-tile")
    assert items(result)["last-tile"] == 1 and items(result)["self-draw"].startswith("included in")


def test_an_event_restricted_to_self_draw_is_refused_on_a_discard():
    with pytest.raises(HandError, match="last-tile in Test rules is a self-draw win"):
        calc(hand="123m456m789m123p55s", events="last-tile", by="discard")


def test_seven_pairs_wins_only_with_its_house_rule_on():
    with pytest.raises(HandError, match="seven pairs is a house rule in Test rules, off: add options=seven-pairs"):
        calc(hand="1133m5577p1199s22z", win="2z")
    assert items(calc(hand="1133m5577p1199s22z", win="2z", options="seven-pairs"))["seven-pairs"] == 4


def test_a_hand_below_the_minimum_is_not_a_legal_win_and_nobody_pays():
    result = calc(hand="123m456m789m123p55s", min="3", discarder="S")
    assert result.score.total_fan == 1 and result.score.below_minimum
    assert set(payments(result).values()) == {0}
    assert "below the minimum 3" in result.payments[1].reason


def test_a_total_above_the_cap_pays_as_the_cap():
    result = calc(ticks="great-three-dragons,half-flush", min="8", cap="8", discarder="S")
    assert (result.score.total_fan, result.score.capped_fan, result.score.below_minimum) == (11, 8, False)
    assert payments(result)["E"] == 4 * 256


def test_discarder_pays_half_and_discarder_pays_all_collect_the_same_total():
    half = calc(fan="5", discarder="N")
    full = calc(fan="5", discarder="N", payment="all")
    assert payments(half) == {"E": 128, "S": -32, "W": -32, "N": -64}
    assert payments(full) == {"E": 128, "S": 0, "W": 0, "N": -128}


def test_self_draw_payments_and_the_stake_multiply():
    result = calc(fan="5", by="self-draw", stake="0.5")
    assert payments(result) == {"E": 96, "S": -32, "W": -32, "N": -32}


def test_exact_fractions_are_kept_where_a_convention_halves():
    result = calc(fan="1", payment="quarter", discarder="S")
    assert payments(result) == {"E": 1, "S": Fraction(-1, 2), "W": Fraction(-1, 4), "N": Fraction(-1, 4)}


def test_a_payment_convention_brings_its_curve_unless_one_is_chosen():
    assert calc(fan="5", payment="quarter").score.points == 5
    assert calc(fan="5", payment="quarter", curve="doubling").score.points == 32


def test_players_who_already_won_do_not_pay():
    result = calc(fan="2", by="self-draw", won="S,W")
    assert payments(result) == {"E": 8, "S": 0, "W": 0, "N": -8}
    assert result.payments[1].role == "already-won"


def test_the_liable_player_pays_the_whole_self_draw():
    result = calc(ticks="great-three-dragons,self-draw", liable="S", cap="10")
    assert payments(result) == {"E": 3 * 2 * 512, "S": -3 * 2 * 512, "W": 0, "N": 0}
    assert result.payments[1].role == "liable"


def test_a_liable_discarder_pays_the_whole_discard_but_another_discarder_pays_normally():
    liable = calc(ticks="great-three-dragons", liable="S", discarder="S")
    assert payments(liable) == {"E": 1024, "S": -1024, "W": 0, "N": 0}
    other = calc(ticks="great-three-dragons", liable="S", discarder="W")
    assert payments(other) == {"E": 1024, "S": -256, "W": -512, "N": -256}


def test_liability_on_a_hand_without_its_pattern_is_refused_with_what_it_needs():
    with pytest.raises(HandError, match="no liability rule applies to this hand: Dragons pao 包三元 needs"
                                        " Great three dragons 大三元"):
        calc(ticks="half-flush", liable="S", by="self-draw")


def _with_instant_all_pongs() -> dict:
    """The test rules with all pongs made an instant self-drawn win (as 大花糊 is in family)."""
    patterns = [dict(p, by="self-draw", instant=True) if p["id"] == "all-pongs" else p
                for p in RULES["patterns"]]
    return {"test": build_ruleset({**RULES, "patterns": patterns}, "test.yaml", "test")}


def test_a_hand_holding_an_instant_win_is_refused_when_won_another_way():
    rulesets = _with_instant_all_pongs()
    pongs = {"rules": "test", "hand": "444m666p88m", "melds": "222m,555p", "win": "4m"}
    with pytest.raises(HandError) as err:
        calculate({**pongs, "by": "discard"}, rulesets)
    assert [(e.field, e.message) for e in err.value.errors] == [
        ("by", "All pongs 對對糊 wins the moment it is held, as a self-draw win; a hand holding it"
               " cannot be a discard win")]
    with pytest.raises(HandError):
        calculate({"rules": "test", "ticks": "all-pongs", "by": "discard"}, rulesets)
    drawn = calculate({**pongs, "by": "self-draw"}, rulesets)
    assert "all-pongs" in {i.pattern.id for i in drawn.score.counted}
    # a hand without it is won on a discard as usual
    chows = calculate({"rules": "test", "hand": "123m456m789m234p55s", "by": "discard"}, rulesets)
    assert chows.score.total_fan == 1


def test_the_default_discarder_is_the_seat_after_the_winner():
    result = calc(fan="3", seat="N")
    assert result.table.discarder == "E" and result.defaulted_discarder


@pytest.mark.parametrize("params, field, fragment", [
    ({"rules": "nope"}, "rules", "unknown ruleset 'nope'"),
    ({"rules": "../etc/passwd"}, "rules", "unknown ruleset"),
    ({"min": "x"}, "min", "'x' is not a whole number of fan"),
    ({"min": "99"}, "min", "99 is outside 0-10"),
    ({"cap": "0"}, "cap", "0 is outside 1-16"),
    ({"min": "9", "cap": "5"}, "cap", "the cap 5 is below the minimum 9"),
    ({"curve": "spicy"}, "curve", "unknown curve 'spicy'"),
    ({"payment": "free"}, "payment", "unknown payment convention 'free'"),
    ({"stake": "-1"}, "stake", "is not a stake"),
    ({"stake": "1e9"}, "stake", "is not a stake"),
    ({"stake": "99999999"}, "stake", "is not a stake"),
    ({"options": "flying-pigs"}, "options", "unknown option 'flying-pigs'"),
    ({"ticks": "all-pong"}, "ticks", "unknown pattern 'all-pong'"),
    ({"fan": "3", "discarder": "E"}, "discarder", "cannot win on their own discard"),
    ({"fan": "3", "by": "self-draw", "discarder": "S"}, "discarder", "a self-drawn win has no discarder"),
    ({"fan": "3", "won": "E"}, "won", "E is the winner"),
    ({"fan": "3", "won": "Q"}, "won", "'Q' is not a seat"),
    ({"fan": "3", "liable": "E"}, "liable", "cannot be liable for their own hand"),
    ({"fan": "3", "winner": "S", "seat": "W"}, "winner", "disagree"),
])
def test_bad_requests_name_the_field(params, field, fragment):
    with pytest.raises(HandError) as err:
        calculate({"rules": "test", **params}, RULESETS)
    assert any(e.field == field and fragment in e.message for e in err.value.errors), err.value.errors


def test_a_switch_that_takes_the_flowers_out_works_by_its_data_not_its_name():
    rules = {**RULES, "switches": [{"id": "bare-tiles", "name": {"en": "Bare tiles", "zh_hant": "無花", "zh_hans": "無花"},
                                    "flowers": False}],
             "patterns": RULES["patterns"] + [
                 {"id": "own-flower", "name": {"en": "Own flower", "zh_hant": "正花", "zh_hans": "正花"}, "fan": 1, "category": "won",
                  "detect": "own_flower", "flowers": True}]}
    rulesets = {"test": build_ruleset(rules, "test.yaml", "test")}
    hand = {"rules": "test", "hand": "123m456m789m234p55s", "seat": "S", "fan": ""}
    with_flower = calculate({**hand, "flowers": "2"}, rulesets)
    assert "own-flower" in {i.pattern.id for i in with_flower.score.counted}
    with pytest.raises(HandError) as err:
        calculate({**hand, "flowers": "2", "options": "bare-tiles"}, rulesets)
    assert "played without flowers" in err.value.errors[0].message
    bare = calculate({**hand, "options": "bare-tiles"}, rulesets)
    assert all(i.pattern.id != "own-flower" for i in bare.score.counted)


# --- the detection plan, against running every detector -----------------------------------

EVENT_SETS = (frozenset(), frozenset({"kong-replacement"}), frozenset({"robbing-the-kong"}),
              frozenset({"last-tile", "kong-cannon"}))


def every_detector(reading, ctx, ruleset) -> dict[str, int]:
    """What the ruleset's patterns find with no gates and no plan: every detector run."""
    found = {}
    for p in ruleset.patterns:
        if p.requires or (p.events and ctx.events.isdisjoint(p.events)):
            continue
        count = DETECTORS[p.detect](reading, ctx) if p.detect else int(bool(p.events))
        if count:
            found[p.id] = count
    for p in ruleset.packages:
        if all(q in found for q in p.requires):
            found[p.id] = 1
    return found


@pytest.mark.parametrize("rid", sorted(registry()))
def test_the_detection_plan_finds_what_every_detector_finds(rid):
    ruleset, rules = registry()[rid], ShapeRules(True, True, True)
    hands = [corpus_hand(e) for e in load_corpus("complete_standard.json")[:400]
             + load_corpus("complete_chiitoi.json")[:50]]
    checked = Counter()
    for hand, events in zip(hands, itertools.cycle(EVENT_SETS)):
        for seat, by in (("E", WinBy.DISCARD), ("S", WinBy.SELF_DRAW)):
            ctx = WinContext(by=by, seat=seat, round="S", flowers=(2,), events=events)
            for reading in readings(hand, rules):
                found = detect(reading, ctx, ruleset)
                assert found == every_detector(reading, ctx, ruleset), hand.description
                checked.update(found)
    detected = [p for p in ruleset.patterns if p.detect]
    assert len(checked) >= min(8, len(detected) // 2)   # many took part, not just the plain ones


# --- rulings 84-85 -----------------------------------------------------------------------


@pytest.mark.parametrize("payment", ["hkma", "cantonese-traditional", "amy-lo"])
def test_a_convention_defined_on_half_spicy_points_refuses_another_curve(payment):
    # ruling 85: refused with a 400 naming curve and the convention's own table
    with pytest.raises(HandError) as err:
        calculate({"rules": "hong-kong-course", "hand": "123m456m789m234p55s", "by": "self-draw",
                   "payment": payment, "curve": "full-spicy"})
    assert [e.field for e in err.value.errors] == ["curve"]
    assert "Half spicy" in str(err.value.errors[0].message)
    calculate({"rules": "hong-kong-course", "hand": "123m456m789m234p55s", "by": "self-draw",
               "payment": payment, "curve": "half-spicy"})   # its own table may be named


@pytest.mark.parametrize("payment", ["wikipedia-split", "casual-double", "cosmopolitan"])
def test_a_convention_whose_table_is_a_choice_takes_curve(payment):
    half = calculate({"rules": "hong-kong-course", "hand": "123m456m789m234p55s",
                      "by": "self-draw", "payment": payment, "curve": "half-spicy", "min": "1"})
    assert half.settings.curve == "half-spicy"


def test_a_limit_hands_total_fan_under_a_lowered_cap_is_the_cap_plus_what_still_counts():
    # ruling 84 (with ruling 43): Hong Kong 36's 大四喜 is worth the cap; how-you-won adds
    hand = {"rules": "hong-kong", "hand": "111z222z333z444z55m", "by": "self-draw", "cap": "10"}
    score = calculate(hand).score
    limit = [i for i in score.counted if i.pattern.limit]
    assert limit and limit[0].fan == 10
    assert score.total_fan == 10 + sum(i.fan for i in score.counted if not i.pattern.limit)
    assert score.total_fan > 10 and score.capped_fan == 10


@pytest.mark.parametrize("hand, melds, cap", [
    ("19m19p19s1234567z1m", "", "8"),          # 十三幺, listed 13: no other reading
    ("19m19p19s1234567z1m", "", "10"),
    ("19m19p19s1234567z1m", "", "13"),
    ("555z666z77z", "222z,444z", "13"),        # 字一色, listed 10, over its ordinary 9
    ("555z666z77z", "222z,444z", "none"),
])
def test_the_courses_listed_limit_hands_are_worth_their_value_or_a_lower_cap(hand, melds, cap):
    # ruling 84 for the course: 例牌 take no add-ons (alone), and a 例牌 listed above a
    # lowered cap is worth the cap (ruling 43), so total_fan is the hand's own value
    score = calculate({"rules": "hong-kong-course", "hand": hand, "melds": melds, "by": "discard",
                       "cap": cap, "payment": "wikipedia-pays-all"}).score
    (item,) = score.counted
    assert item.pattern.alone and item.pattern.capped
    listed = item.pattern.fan
    own = listed if cap == "none" else min(listed, int(cap))
    assert item.fan == score.total_fan == own
    assert score.capped_fan == own


@pytest.mark.parametrize("rules", ["sichuan", "sichuan-sbr"])
def test_sichuan_claims_pongs_and_kongs_but_never_a_chow(rules):
    # 碰杠不吃: the same four sets and a pair win with the run concealed or a pong claimed
    hand = {"rules": rules, "hand": "456m789m123p55p", "by": "self-draw", "missing": "s"}
    with pytest.raises(HandError) as err:
        calculate({**hand, "melds": "123m"})
    assert [e.field for e in err.value.errors] == ["melds"]
    assert "123m" in str(err.value.errors[0].message.params["melds"])
    calculate({**hand, "melds": "111m"})
    calculate({**hand, "hand": "123m456m789m123p55p"})


def test_families_that_claim_chows_take_one():
    score = calculate({"rules": "hong-kong", "hand": "456m789m123p55p", "melds": "123m",
                       "by": "self-draw"}).score
    assert any("123m" in part for part in score.reading.grouping)


def test_a_family_with_honours_that_claims_no_chows_refuses_one_on_every_path():
    # the other fields are read once per combination (vocabulary.request._frame): the tiles' own check
    # must still run for a family whose honours are in play but whose chows are not
    no_chows = dataclasses.replace(registry()["hong-kong"], claimed_chows=False)
    with pytest.raises(HandError) as err:
        calculate({"rules": "hong-kong", "hand": "456m789m123p55p", "melds": "123m",
                   "by": "self-draw"}, {"hong-kong": no_chows})
    assert [e.field for e in err.value.errors] == ["melds"]
