"""The kept variants (loader.Rulesets): least recently used let go first, refusals remembered
for a while, each variant let go handed to `on_evict`."""
from __future__ import annotations

import pytest

from app.rules.house import House, HouseError, PatternChange, encode
from app.rules.loader import RULESET_DIR, load_all


def code(n: int) -> str:
    return encode(House("hong-kong", dials=(("cap", 8 + n % 5),),
                        patterns=(PatternChange("all-pongs", fan=n),)))


@pytest.fixture
def rulesets(monkeypatch):
    now = [0.0]
    found = load_all(RULESET_DIR)
    found._clock = lambda: now[0]
    found.now = now
    monkeypatch.setattr(found, "MAX_HOUSES", 3)
    return found


def test_a_lookup_refreshes_a_kept_variant_and_the_least_recently_used_goes(rulesets):
    let_go = []
    rulesets.on_evict = let_go.append
    first = rulesets.house(code(1))
    rulesets.house(code(2))
    rulesets.house(code(3))
    assert rulesets.house(code(1)) is first   # a hit: kept, and now the most recently used
    rulesets.house(code(4))
    assert [r.id for r in let_go] == [code(2)]
    assert rulesets.kept(code(1)) and not rulesets.kept(code(2))
    built = rulesets.built
    assert rulesets.house(code(1)) is first and rulesets.built == built


def test_a_code_that_does_not_build_is_refused_again_without_building_until_it_is_forgotten(rulesets):
    stake_of_two = encode(House("hong-kong", dials=(("cap", 99),)))   # outside the family's caps
    with pytest.raises(HouseError) as first:
        rulesets.house(stake_of_two)
    built = rulesets.built
    assert rulesets.kept(stake_of_two)
    with pytest.raises(HouseError) as again:
        rulesets.house(stake_of_two)
    assert rulesets.built == built and again.value.message == first.value.message
    rulesets.now[0] += rulesets.REFUSAL_SECONDS
    assert not rulesets.kept(stake_of_two)
    with pytest.raises(HouseError):
        rulesets.house(stake_of_two)
    assert rulesets.built == built + 1


def test_a_damaged_code_is_remembered_too(rulesets):
    with pytest.raises(HouseError):
        rulesets.house("hong-kong~1AAAA")
    assert rulesets.kept("hong-kong~1AAAA")
