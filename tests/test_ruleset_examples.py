"""Every pattern of every shipped ruleset carries an example hand, and that hand scores it."""
from __future__ import annotations

import pytest

from app.request import calculate
from app.rulesets import registry

PATTERNS = [(rid, p) for rid, rs in registry().items() for p in rs.patterns]


def test_the_five_rule_families_are_shipped():
    assert {"sichuan"} <= set(registry())


@pytest.mark.parametrize("rid, pattern", PATTERNS, ids=[f"{rid}:{p.id}" for rid, p in PATTERNS])
def test_every_pattern_example_scores_that_pattern(rid, pattern):
    assert pattern.example, f"{rid}: {pattern.id} has no example"
    params = {"rules": rid, **pattern.example}
    if pattern.optional:
        options = [o for o in params.get("options", "").split(",") if o]
        params["options"] = ",".join(dict.fromkeys(options + [pattern.id]))
    if pattern.tick_only:
        assert "ticks" in params, f"{pattern.id} can only be ticked: its example must be ticks"
    result = calculate(params)
    counted = {i.pattern.id for i in result.score.counted}
    assert pattern.id in counted, [(i.pattern.id, i.counted, i.note) for i in result.score.items]
