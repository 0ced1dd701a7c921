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
