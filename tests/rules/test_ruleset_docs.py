"""rulesets/README.md documents the ruleset format: its example builds and every name it must give is there."""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
import yaml

from app.rules.checks import (
    PATTERN_OPTIONAL,
    PATTERN_REQUIRED,
    TOP_OPTIONAL,
    TOP_REQUIRED,
    _Checker,
    build_ruleset,
)
from app.rules.detectors import DETECTORS, PER_ITEM_DETECTORS
from app.rules.loader import load_all
from app.rules.model import CURVE_KINDS, REFUND_RULES
from app.vocabulary import score as calculate
from app.vocabulary.hand import EVENT_RULES

README = Path(__file__).resolve().parents[2] / "rulesets" / "README.md"
EXAMPLE_HEADING = "## A minimal ruleset"


def readme() -> str:
    return README.read_text(encoding="utf-8")


def minimal_example(text: str) -> str:
    """The first ```yaml block after the heading "A minimal ruleset"."""
    _, found, after = text.partition(EXAMPLE_HEADING + "\n")
    assert found, f"{README.name} has no heading {EXAMPLE_HEADING!r}"
    block = re.search(r"^```yaml\n(.*?)^```$", after, re.DOTALL | re.MULTILINE)
    assert block, f"no ```yaml block under {EXAMPLE_HEADING!r}"
    return block[1]


def example_ruleset():
    return build_ruleset(yaml.safe_load(minimal_example(readme())), "example.yaml", "example")


def test_the_minimal_example_builds_and_scores_a_hand_as_the_readme_says():
    ruleset = example_ruleset()
    calc = calculate({"rules": "example", "hand": "444m666p88m", "melds": "222m,555p",
                      "win": "8m"}, {"example": ruleset})
    assert [i.pattern.id for i in calc.score.counted] == ["all-pongs"]
    assert (calc.score.total_fan, calc.score.points) == (3, 8)
    assert {p.seat: p.amount for p in calc.payments} == {"E": 32, "S": -16, "W": -8, "N": -8}


def test_every_pattern_of_the_minimal_example_scores_with_its_own_example():
    ruleset = example_ruleset()
    for pattern in ruleset.patterns:
        calc = calculate({"rules": "example", **pattern.example}, {"example": ruleset})
        assert pattern.id in {i.pattern.id for i in calc.score.counted}, pattern.id


@pytest.mark.parametrize("name", sorted(DETECTORS))
def test_every_detector_is_listed_with_its_docstring(name):
    doc = inspect.getdoc(DETECTORS[name]).splitlines()[0]
    section = readme().partition("\n## Detectors\n")[2].partition("\n## ")[0]
    row = next((line for line in section.splitlines() if line.startswith(f"| `{name}` |")), None)
    assert row is not None, f"detector {name} is not listed in {README.name}"
    assert doc in row, f"{name}: the README's row does not give its docstring {doc!r}"
    if name in PER_ITEM_DETECTORS:
        assert "Per item" in row and f"up to {PER_ITEM_DETECTORS[name]}" in row, name


@pytest.mark.parametrize("key", TOP_REQUIRED + TOP_OPTIONAL + PATTERN_REQUIRED + PATTERN_OPTIONAL)
def test_every_top_level_and_pattern_key_is_documented(key):
    assert f"`{key}`" in readme()


def _section_keys() -> set[str]:
    """Every key the checker accepts in some section, as it asks for them while loading the
    shipped files (`_Checker.mapping` is given each section's required and optional keys)."""
    keys: set[str] = set()
    mapping = _Checker.mapping

    def spy(self, value, path, required, optional):
        keys.update(required, optional)
        return mapping(self, value, path, required, optional)

    _Checker.mapping = spy
    try:
        load_all()
    finally:
        _Checker.mapping = mapping
    return keys


def test_the_shipped_files_show_the_checker_every_section():
    assert {"kong_payments", "kong_transfer_on_cannon", "self_draw", "exposed_melds", "zh_hans",
            "total_fan", "uncapped", "seven_pairs_quads", "settlement"} <= _section_keys()


@pytest.mark.parametrize("key", sorted(_section_keys()))
def test_every_section_key_is_documented(key):
    """As `key`, or as the last part of a dotted path such as `expect.total_fan`."""
    assert re.search(rf"`(?:[a-z_]+\.)*{key}`", readme()), key


@pytest.mark.parametrize("value", CURVE_KINDS + REFUND_RULES + tuple(EVENT_RULES))
def test_every_curve_kind_refund_rule_and_event_is_documented(value):
    assert f"`{value}`" in readme()


def test_the_house_variant_example_loads_over_hong_kong(tmp_path):
    import shutil

    from app.rules.loader import RULESET_DIR, load_ruleset
    _, found, after = readme().partition("## A house variant: `extends`\n")
    assert found
    block = re.search(r"^```yaml\n(.*?)^```$", after, re.DOTALL | re.MULTILINE)
    shutil.copy(RULESET_DIR / "hong-kong.yaml", tmp_path / "hong-kong.yaml")
    (tmp_path / "house.yaml").write_text(block[1], encoding="utf-8")
    house = load_ruleset(tmp_path / "house.yaml")
    assert house.by_id["all-pongs"].fan == 5 and "nine-gates" not in house.by_id
    assert house.patterns[-1].id == "lucky-sevens" and house.dials.min == 1
