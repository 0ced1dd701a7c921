"""Properties of scoring and payments over generated hands, for every shipped ruleset."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.base.errors import HandError
from app.rules.loader import registry
from app.vocabulary import score as calculate
from app.vocabulary.hand import describe
from tests.strategies import complete_hands

RULESETS = sorted(registry())


@st.composite
def requests(draw):
    """A ruleset, a legal winning hand for it, and a table and dials to price it with."""
    rid = draw(st.sampled_from(RULESETS))
    rs = registry()[rid]
    hand = draw(complete_hands(honours=rs.honours))
    params = describe(hand)
    params["rules"] = rid
    params["by"] = draw(st.sampled_from(["self-draw", "discard"]))
    params["seat"] = draw(st.sampled_from("ESWN"))
    params["payment"] = draw(st.sampled_from(sorted(rs.payments)))
    if params["by"] == "discard":
        params["discarder"] = draw(st.sampled_from([s for s in "ESWN" if s != params["seat"]]))
    if rs.missing_suit and draw(st.booleans()):
        others = [s for s in "ESWN" if s != params["seat"] and s != params.get("discarder")]
        params["won"] = ",".join(draw(st.lists(st.sampled_from(others), max_size=2, unique=True)))
    if rs.flowers:
        params["flowers"] = "".join(map(str, draw(st.lists(st.integers(1, 4), unique=True, max_size=4))))
    return params


def priced(params):
    try:
        return calculate(params)
    except HandError:
        return None   # e.g. the hand holds a pattern the ruleset does not allow


@settings(max_examples=250, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_payments_always_sum_to_zero_and_have_one_row_per_seat(params):
    result = priced(params)
    if result is None:
        return
    assert [p.seat for p in result.payments] == ["E", "S", "W", "N"]
    assert sum((p.amount for p in result.payments), Fraction(0)) == 0
    assert all(p.reason for p in result.payments)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(requests(), st.data())
def test_raising_the_cap_never_lowers_a_payment(params, data):
    rs = registry()[params["rules"]]
    low_cap, high_cap = sorted(data.draw(st.lists(st.integers(max(rs.cap_range[0], rs.dials.min),
                                                               rs.cap_range[1]),
                                                   min_size=2, max_size=2)))
    low = priced({**params, "cap": str(low_cap)})
    high = priced({**params, "cap": str(high_cap)})
    if low is None or high is None:
        return
    for a, b in zip(low.payments, high.payments, strict=True):
        assert abs(b.amount) >= abs(a.amount), (a, b)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
@example({"hand": "11122233344455m", "win": "5m", "by": "discard", "seat": "E", "round": "E",
          "rules": "family", "payment": "family", "discarder": "S", "flowers": ""})
def test_ticking_what_tile_mode_recognised_gives_the_same_total(params):
    tiles = priced(params)
    if tiles is None:
        return
    # What counted: a pattern shown as not counting (e.g. a self-draw limit hand won on a
    # discard) is not something a player would tick, and ticking it is refused.
    ticks = ",".join(f"{i.pattern.id}*{i.count}" for i in tiles.score.items if i.counted)
    if not ticks:
        return
    ticked = calculate({k: v for k, v in params.items()
                        if k in ("rules", "by", "seat", "payment", "discarder", "won", "options")}
                       | {"ticks": ticks})
    assert ticked.score.total_fan == tiles.score.total_fan
    assert [p.amount for p in ticked.payments] == [p.amount for p in tiles.payments]
