"""The scoring budget: counted only where one is opened, refused past it naming the field."""
from __future__ import annotations

import pytest

from app.scoring import budget
from app.scoring.budget import TooMuchWork, charge, opened, used
from app.vocabulary import score as calculate

HAND = {"rules": "hong-kong", "hand": "123m456m789m234p55s", "by": "self-draw"}


def test_nothing_is_counted_outside_an_opened_budget():
    for _ in range(3):
        calculate(HAND)
    assert used() == 0


def test_each_full_scoring_counts_one_and_the_one_past_the_budget_is_refused_naming_the_field():
    with opened("hands", most=2):
        calculate(HAND)
        calculate(HAND)
        assert used() == 2
        with pytest.raises(TooMuchWork) as refused:
            calculate(HAND)
    assert refused.value.field == "hands" and refused.value.most == 2
    assert "more than 2 scorings" in str(refused.value)
    assert used() == 0   # closed with the block


def test_a_long_request_steps_aside_every_few_scorings(monkeypatch):
    paused = []
    monkeypatch.setattr(budget, "_pause", [lambda: paused.append(used())])
    with opened("hand", most=100):
        charge(budget.PAUSE_EVERY * 3)
        assert len(paused) == 1       # one charge of many: one pause
        for _ in range(budget.PAUSE_EVERY):
            charge()
        assert len(paused) == 2


def dearest_variant(family: str = "hong-kong-course") -> str:
    """A variant adding MAX_CHANGES patterns, one a detector in turn: the dearest scoring."""
    from app.rules.house import MAX_CHANGES, House, PatternChange, encode, known_detectors
    from app.rules.loader import registry
    detectors = known_detectors()
    table = registry()[family].categories[0].id
    return encode(House(family, patterns=tuple(
        PatternChange(f"x{i}", fan=1, name=(f"x{i}", "", ""), detect=detectors[i % len(detectors)],
                      category=table) for i in range(MAX_CHANGES))))


def test_a_scoring_costs_one_unit_under_every_family_and_more_under_a_variant_of_many_patterns():
    from app.rules.loader import registry
    rulesets = registry()
    assert {name: budget.units(rulesets[name]) for name in rulesets} == {name: 1 for name in rulesets}
    dear = rulesets[dearest_variant()]
    assert budget.units(dear) == 3 and len(dear.patterns) > 2 * budget.UNIT_PATTERNS


def test_a_dear_variant_gets_proportionally_fewer_scorings_and_its_refusal_says_how_many():
    asked = {**HAND, "rules": dearest_variant()}
    with opened("hands", most=9):
        for _ in range(3):
            calculate(asked)
        assert used() == 9
        with pytest.raises(TooMuchWork) as refused:
            calculate(asked)
    assert refused.value.most == 3 and "more than 3 scorings" in str(refused.value)
