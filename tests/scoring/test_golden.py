"""Every worked example of the seed pages, stated as data in tests/golden/, checked to the unit."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from app.base.errors import HandError
from app.vocabulary import score as calculate

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
# How many cases each file must hold: an example cannot silently drop out.
EXPECTED_COUNTS = {"sichuan": 15, "hong-kong": 59, "family": 40, "sichuan-sbr": 26,
                   "hong-kong-course": 135}


def _load() -> dict[str, dict]:
    return {path.stem: yaml.safe_load(path.read_text(encoding="utf-8"))
            for path in sorted(GOLDEN.glob("*.yaml"))}


FILES = _load()
CASES = [(name, case) for name, data in FILES.items() for case in data["cases"]]


def test_no_golden_case_has_dropped_out():
    assert {name: len(data["cases"]) for name, data in FILES.items()} == EXPECTED_COUNTS
    ids = [case["id"] for _, case in CASES]
    assert len(ids) == len(set(ids)), "golden case ids must be unique"


def amount(value) -> Fraction:
    return Fraction(str(value))


@pytest.mark.parametrize("name, case", CASES, ids=[case["id"] for _, case in CASES])
def test_golden_case(name, case):
    params = {"rules": FILES[name]["ruleset"],
              **{k: str(v) for k, v in case["params"].items()}}
    expect = case["expect"]
    if "error" in expect:
        with pytest.raises(HandError) as err:
            calculate(params)
        messages = [(e.field, e.message) for e in err.value.errors]
        want = expect["error"]
        assert any(f == want["field"] and want["contains"] in m for f, m in messages), messages
        return
    result = calculate(params)
    score = result.score
    if "counted" in expect:
        assert {i.pattern.id: i.fan for i in score.counted} == expect["counted"]
    for pattern_id in expect.get("not_counted", []):
        item = next((i for i in score.items if i.pattern.id == pattern_id), None)
        assert item is not None and not item.counted and item.note, pattern_id
    assert score.total_fan == expect["total_fan"]
    assert score.capped_fan == expect.get("capped_fan", expect["total_fan"] if score.settings.cap is None
                                          else min(expect["total_fan"], score.settings.cap))
    if "points" in expect:
        assert score.points == expect["points"]
    assert score.below_minimum == expect.get("below_minimum", False)
    if "payments" in expect:
        got = {p.seat: p.amount for p in result.payments}
        assert got == {seat: amount(v) for seat, v in expect["payments"].items()}
        assert sum(got.values()) == 0
