"""Every pattern carries an example hand that scores it; every worked example is a golden case."""
from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
import yaml

from app.rules.loader import registry
from app.vocabulary import score as calculate

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


EXAMPLES = [(rid, ex) for rid, rs in registry().items() for ex in rs.examples]
GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@cache
def _golden_cases(rid: str) -> list[dict]:
    return yaml.safe_load((GOLDEN / f"{rid}.yaml").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("rid", sorted(registry()))
def test_every_ruleset_carries_worked_examples_with_unique_ids(rid):
    ids = [ex.id for ex in registry()[rid].examples]
    assert ids, f"{rid}.yaml has no worked examples"
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("rid, example", EXAMPLES, ids=[f"{rid}:{ex.id}" for rid, ex in EXAMPLES])
def test_a_worked_example_is_a_golden_case_and_scores_as_stated(rid, example):
    """Copied from tests/golden, not invented: same hand description, same expected numbers."""
    twins = [c for c in _golden_cases(rid)
             if {k: str(v) for k, v in c["params"].items()} == dict(example.params)]
    assert twins, f"{rid}: worked example {example.id} matches no golden case"
    for case in twins:
        assert case["expect"]["total_fan"] == example.total_fan, case["id"]
        assert {s: Fraction(str(a)) for s, a in case["expect"]["payments"].items()} == example.payments
    result = calculate({"rules": rid, **example.params})
    assert result.score.total_fan == example.total_fan
    assert {p.seat: p.amount for p in result.payments} == example.payments
