"""The dealer of Count the Fan: legal, complete, scoring hands, the same for the same seed."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.base.errors import HandError
from app.hands.hand import WinBy
from app.hands.tiles import parse_tiles
from app.practice.dealer import LEVELS, Spec, is_limit, limit_patterns, merge
from app.rules.loader import registry
from app.vocabulary import score as calculate
from app.vocabulary.practice import deal, series

RULESETS = registry()
RULE_IDS = sorted(RULESETS)
SUIT_OF = {"m": range(0, 9), "p": range(9, 18), "s": range(18, 27)}


def tiles_of(params) -> tuple[tuple, list[str], list]:
    """The concealed tiles, the meld bodies and the melds' tiles of a description."""
    concealed = parse_tiles(params["hand"])
    melds = [token.split(":")[-1] for token in params.get("melds", "").split(",") if token]
    return concealed, melds, [t for token in melds for t in parse_tiles(token)]


def assert_legal(d) -> None:
    """Check a dealt hand from its description alone, as a referee would."""
    rs, params = d.ruleset, d.params
    concealed, melds, meld_tiles = tiles_of(params)
    # 14 tiles, a kong counting 3
    assert len(concealed) + 3 * len(melds) == 14, params
    for token in melds:
        assert len(parse_tiles(token)) in (3, 4), params
    # at most four of a tile
    assert max(Counter(concealed + tuple(meld_tiles)).values()) <= 4, params
    # the winning tile is among the concealed tiles
    assert parse_tiles(params["win"])[0] in concealed, params
    everything = concealed + tuple(meld_tiles)
    if not rs.honours:
        assert not any(t.is_honour for t in everything), params
    if not rs.flowers:
        assert "flowers" not in params and "seasons" not in params, params
    if rs.missing_suit:   # 定缺: declared, and none of that suit held
        assert params.get("missing") in SUIT_OF, params
        assert not any(t in SUIT_OF[params["missing"]] for t in everything), params
    else:
        assert "missing" not in params
    # the ruleset prices it as a legal win
    calc = calculate(params, RULESETS)
    assert not calc.score.below_minimum, params
    assert calc.hand is not None and calc.score.reading is not None
    if params["by"] == WinBy.DISCARD.value:
        assert params["discarder"] != params["seat"]
    else:
        assert "discarder" not in params


@pytest.mark.parametrize("rid", RULE_IDS)
@pytest.mark.parametrize("level", LEVELS)
def test_a_hundred_seeds_deal_legal_complete_scoring_hands(rid, level):
    for seed in range(100):
        d = deal(RULESETS[rid], f"sweep-{seed}", 1 + seed % 7, level)
        assert_legal(d)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rid=st.sampled_from(RULE_IDS), level=st.sampled_from(LEVELS),
       seed=st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=16),
       n=st.integers(min_value=1, max_value=1000))
def test_any_seed_deals_a_legal_hand_that_scores(rid, level, seed, n):
    assert_legal(deal(RULESETS[rid], seed, n, level))


@pytest.mark.parametrize("rid", RULE_IDS)
@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_deals_the_same_hand(rid, level):
    first = [d.params for d in series(RULESETS[rid], "class-7", 10, level)]
    again = [d.params for d in series(RULESETS[rid], "class-7", 10, level)]
    assert first == again
    assert len({tuple(sorted(p.items())) for p in first}) >= 8, "ten hands, not one hand ten times"
    other = [d.params for d in series(RULESETS[rid], "class-8", 10, level)]
    assert other != first


def test_a_hand_does_not_depend_on_the_hands_dealt_before_it():
    rs = RULESETS["hong-kong"]
    alone = deal(rs, "lesson", 7, "patterns").params
    series(rs, "other", 5, "limit")
    assert deal(rs, "lesson", 7, "patterns").params == alone
    assert series(rs, "lesson", 7, "patterns")[-1].params == alone


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown level"):
        deal(RULESETS["hong-kong"], "x", 1, "expert")


PLAIN = {"all-chows", "base-win", "self-draw", "no-bonus-tiles", "no-flowers-at-all",
         "concealed-hand"}


def _counted(rid: str, level: str, hands: int) -> tuple[Counter, int]:
    """How often each pattern counts over many deals, and how many deals were plain only."""
    found: Counter = Counter()
    plain = 0
    for seed in range(hands):
        d = deal(RULESETS[rid], f"w{seed}", 1, level)
        counted = {i.pattern.id for i in d.calculation.score.counted}
        found.update(counted)
        plain += counted <= PLAIN
    return found, plain


@pytest.mark.parametrize("rid, wanted", [
    ("hong-kong", {"half-flush", "full-flush", "all-pongs", "dragon-pong", "seat-wind",
                   "round-wind", "small-three-dragons", "seven-pairs", "own-flower",
                   "complete-flower-set", "mixed-terminals"}),
    ("hong-kong-course", {"half-flush", "full-flush", "all-pongs", "dragon-pong", "seat-wind",
                          "mixed-orphans", "seven-pairs", "own-flower", "complete-season-set"}),
    ("family", {"half-flush", "all-pongs", "dragon-pong", "seat-wind-pong", "seven-pairs",
                "own-flower", "all-four-flowers", "small-three-dragons"}),
    ("sichuan", {"all-triplets", "golden-hook", "seven-pairs", "all-one-suit",
                 "terminals-everywhere", "root", "kong-blossom"}),
    ("sichuan-sbr", {"all-pungs", "full-flush", "seven-pairs", "golden-wait", "root"}),
])
def test_the_patterns_level_brings_up_the_interesting_patterns(rid, wanted):
    found, plain = _counted(rid, "patterns", 200)
    assert wanted <= set(found), wanted - set(found)
    assert plain < 200 * 0.1, "patterns, not plain chows"


@pytest.mark.parametrize("rid", [r for r in RULE_IDS if limit_patterns(RULESETS[r])])
def test_the_limit_level_deals_every_limit_hand_of_the_ruleset(rid):
    rs = RULESETS[rid]
    found, _ = _counted(rid, "limit", 300)
    assert {p.id for p in limit_patterns(rs)} <= set(found)
    for seed in range(50):
        d = deal(rs, f"l{seed}", 1, "limit")
        assert any(is_limit(i.pattern) for i in d.calculation.score.counted), d.params


def test_the_limit_level_without_limit_hands_deals_the_top_of_the_table():
    rs = RULESETS["sichuan-sbr"]   # seed 002: 3+ fan is the 8-point top of the table
    assert not limit_patterns(rs)
    for seed in range(50):
        assert deal(rs, f"t{seed}", 1, "limit").calculation.score.total_fan >= 3


@pytest.mark.parametrize("rid", RULE_IDS)
def test_the_plain_level_deals_no_honours(rid):
    for seed in range(60):
        d = deal(RULESETS[rid], f"p{seed}", 1, "plain")
        concealed, _, meld_tiles = tiles_of(d.params)
        assert not any(t.is_honour for t in concealed + tuple(meld_tiles)), d.params


def test_seven_pairs_is_switched_on_where_it_is_a_house_rule():
    rs = RULESETS["hong-kong"]
    for seed in range(300):
        d = deal(rs, f"w{seed}", 1, "patterns")
        if any(i.pattern.id == "seven-pairs" for i in d.calculation.score.counted):
            assert d.params["options"] == "seven-pairs"
            break
    else:
        pytest.fail("no seven-pairs hand in 300 deals")


def test_a_dealt_description_is_refused_if_tampered_with():
    """The legality checks above have teeth: the scorer refuses a fifth copy of a tile."""
    params = dict(deal(RULESETS["sichuan"], "x", 1, "plain").params)
    first = parse_tiles(params["hand"])[0]
    params["hand"] = params["hand"] + first.code * 4
    with pytest.raises(HandError):
        calculate(params, RULESETS)


def test_merged_themes_combine_and_contradictions_are_refused():
    flush = Spec(targets=("full-flush",), flush="one", honours="none")
    pongs = Spec(targets=("all-pongs",), sets="pongs")
    both = merge(flush, pongs)
    assert both is not None and both.targets == ("full-flush", "all-pongs")
    assert (both.flush, both.sets, both.honours) == ("one", "pongs", "none")
    assert merge(flush, Spec(honours="required")) is None
    assert merge(Spec(shape="seven-pairs"), Spec(shape="thirteen-orphans")) is None
