"""A club's variant carried in a link (app/rules/house.py): the code, its checks, and that the
link and the downloaded YAML file price every hand alike."""
from __future__ import annotations

import base64
import json
import subprocess
import sys
import zlib
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.base.errors import HandError
from app.rules.house import (
    MAX_CODE,
    House,
    HouseError,
    PatternChange,
    decode,
    differences,
    encode,
    problems,
)
from app.rules.loader import load_all, registry
from app.rules.stakes import read_stake
from app.vocabulary import score as calculate
from app.vocabulary.request import price_example
from tests.bench.bench_scoring import our_params
from tests.conftest import load_corpus

ROOT = Path(__file__).resolve().parents[2]

# A typical season's changes, ten of them: three dials, a house rule always on at its own
# value, four fan values, a pattern renamed in three languages, one switched off.
SEASON = House("hong-kong", dials=(("cap", 10), ("min", 1), ("payment", "discarder-pays-all")),
               patterns=(PatternChange("seven-pairs", fan=4, on=True),
                         PatternChange("all-pongs", fan=4), PatternChange("half-flush", fan=4),
                         PatternChange("full-flush", fan=8), PatternChange("mixed-terminals", fan=2),
                         PatternChange("all-chows", name=("Plain hand", "雞平糊", "鸡平糊")),
                         PatternChange("no-bonus-tiles", on=False)))


def test_a_code_reads_back_as_the_variant_it_was_made_from():
    assert decode(encode(SEASON)) == SEASON


def test_ten_typical_changes_fit_in_300_characters():
    text = encode(SEASON)
    assert len(SEASON.dials) + len(SEASON.patterns) == 10
    assert len(f"rules={text}") <= 300, len(text)


def test_the_variant_prices_with_its_changes():
    rs = registry()[encode(SEASON)]
    assert (rs.dials.cap, rs.dials.min, rs.dials.payment) == (10, 1, "discarder-pays-all")
    assert rs.by_id["seven-pairs"].fan == 4 and not rs.by_id["seven-pairs"].optional
    assert rs.seven_pairs is True   # the shape follows the house rule switched on
    assert rs.by_id["no-bonus-tiles"].optional
    assert rs.by_id["all-chows"].name.zh_hant == "雞平糊"
    calc = calculate({"rules": rs.id, "hand": "11m22m33p44p55s66s77z", "win": "7z",
                      "by": "self-draw"})
    assert {i.pattern.id: i.fan for i in calc.score.counted} == {"self-draw": 1, "seven-pairs": 4}
    # the family itself is unchanged: seven pairs is still off there
    with pytest.raises(HandError):
        calculate({"rules": "hong-kong", "hand": "11m22m33p44p55s66s77z", "win": "7z"})


def test_the_same_variant_is_one_ruleset_object():
    assert registry()[encode(SEASON)] is registry()[encode(SEASON)]


def test_differences_name_every_change():
    rs, base = registry()[encode(SEASON)], registry()["hong-kong"]
    found = {(d.pattern, d.what) for d in differences(rs, base)}
    assert found == {(None, "cap"), (None, "min"), (None, "payment"), ("seven-pairs", "on"),
                     ("all-pongs", "fan"), ("half-flush", "fan"), ("full-flush", "fan"),
                     ("mixed-terminals", "fan"), ("all-chows", "name"), ("no-bonus-tiles", "off")}
    assert differences(base, base) == ()


RENAMED = House("hong-kong", categories=(("flowers", ("Bonus tiles", "花", "花")),),
                curves=(("full-spicy", ("Doubling", "", "")),))


def test_a_variant_renames_the_familys_tables_and_curves():
    assert decode(encode(RENAMED)) == RENAMED
    rs, base = registry()[encode(RENAMED)], registry()["hong-kong"]
    name = next(c.name for c in rs.categories if c.id == "flowers")
    assert (name.en, name.zh_hant, name.zh_hans) == ("Bonus tiles", "花", "花")
    assert rs.curves["full-spicy"].name.en == "Doubling"
    assert rs.curves["full-spicy"].name.zh_hant == base.curves["full-spicy"].name.zh_hant   # kept
    assert [(d.what, d.after.en) for d in differences(rs, base)] == [("category", "Bonus tiles"),
                                                                      ("curve-name", "Doubling")]
    hand = {"hand": "123m456m789m234p55s", "win": "5s", "flowers": "1234"}
    assert calculate({"rules": rs.id, **hand}).payments == calculate({"rules": "hong-kong", **hand}).payments


def test_a_pattern_added_from_a_detector_counts_and_excludes():
    house = House("family", patterns=(PatternChange(
        "all-simples", fan=2, name=("All simples", "斷么", "断幺"), detect="all_simples",
        category=registry()["family"].categories[0].id, excludes=("chicken",)
        if "chicken" in registry()["family"].by_id else ()),))
    assert problems(house, registry()["family"]) == []
    rs = registry()[encode(house)]
    calc = calculate({"rules": rs.id, "hand": "234m456m678p234s55s", "win": "5s",
                      "by": "self-draw"})
    assert "all-simples" in {i.pattern.id for i in calc.score.counted}


@pytest.mark.parametrize("change, field", [
    (House("hong-kong", dials=(("min", 40),)), "min"),
    (House("hong-kong", dials=(("cap", 2), ("min", 3))), "cap"),
    (House("hong-kong", dials=(("curve", "nope"),)), "curve"),
    (House("hong-kong", dials=(("payment", "nope"),)), "payment"),
    (House("hong-kong", categories=(("nope", ("A", "", "")),)), "category.nope"),
    (House("hong-kong", curves=(("nope", ("A", "", "")),)), "curve.nope"),
    (House("hong-kong", patterns=(PatternChange("brand-new", fan=2, name=("X", "", "")),)), "new.detect"),
    (House("hong-kong", patterns=(PatternChange("brand-new", fan=2, detect="all_pongs",
                                                name=("X", "", "")),)), "new.category"),
    (House("hong-kong", patterns=(PatternChange("all-pongs", excludes=("nope",)),)), "excludes.all-pongs"),
    (House("hong-kong", patterns=(PatternChange("Brand New", fan=2, detect="all_pongs", category="hand-patterns",
                                                name=("X", "", "")),)), "new.id"),
    (House("hong-kong", patterns=(PatternChange("all-pongs", fan=2, detect="all_pongs", category="hand-patterns",
                                                name=("X", "", "")),)), "new.id"),
    (House("hong-kong", patterns=(PatternChange("brand-new", fan=2, detect="all_pongs", category="hand-patterns",
                                                name=("X", "", ""), excludes=("nope",)),)), "new.excludes"),
])
def test_each_problem_is_named_by_its_field(change, field):
    assert field in {name for name, _ in problems(change, registry()[change.base])}


@pytest.mark.parametrize("text, words", [
    ("hong-kong~2abc", "newer version"),
    ("hong-kong~", "not one this calculator wrote"),
    ("hong-kong~1!!", "damaged"),
    ("hong-kong~1AAAA", "damaged"),
    ("Hong Kong~1AAAA", "start with the id of a family"),
    ("hong-kong~1" + "A" * (MAX_CODE + 1), "too long"),
])
def test_a_bad_code_is_refused_with_a_clear_sentence(text, words):
    with pytest.raises(HouseError) as err:
        decode(text)
    assert words in err.value.message
    with pytest.raises(HandError) as refused:
        calculate({"rules": text, "hand": "123m456m789m234p55s"})
    assert refused.value.errors[0].field == "rules"


def _code_of(doc: object, raw: bytes | None = None) -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(raw if raw is not None else json.dumps(doc).encode()) + packer.flush()
    return "hong-kong~1" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


@pytest.mark.parametrize("doc", [
    [], {"x": 1}, {"d": {"cap": "10"}}, {"d": {"min": True}}, {"p": [["all-pongs", {"f": -1}]]},
    {"p": [["all-pongs", {"zz": 1}]]}, {"p": [["All Pongs", {}]]}, {"p": [["all-pongs", {"o": 2}]]},
    {"n": ["a", "b"]}, {"p": [["all-pongs", {"x": ["a b"]}]]},
])
def test_only_known_keys_and_types_are_read(doc):
    with pytest.raises(HouseError, match="damaged"):
        decode(_code_of(doc))


def test_a_code_that_inflates_past_its_bound_is_refused_unread():
    bomb = _code_of(None, raw=b'{"n":["' + b"a" * 200_000 + b'","",""]}')
    assert len(bomb) < MAX_CODE   # small on the wire, large inflated
    with pytest.raises(HouseError, match="damaged"):
        decode(bomb)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
               max_size=200))
def test_any_code_is_read_or_refused_never_crashes(code):
    try:
        decode("hong-kong~1" + code)
    except HouseError:
        pass


def test_the_yaml_download_checks_and_prices_every_hand_as_the_link(tmp_path):
    """Dropped into MAHJONG_RULESET_DIR, the YAML file prices the corpus exactly as the link."""
    text = encode(SEASON)
    (tmp_path / "hong-kong-club.yaml").write_text(registry().house_yaml(SEASON), encoding="utf-8")
    checked = subprocess.run([sys.executable, "-m", "app", "check-rules",
                              str(tmp_path / "hong-kong-club.yaml")],
                             capture_output=True, text=True, cwd=ROOT)
    assert checked.returncode == 0 and "ok" in checked.stdout, checked.stdout + checked.stderr
    from_file = load_all(tmp_path)
    compared = 0
    for entry in load_corpus("complete_standard.json")[:600] + load_corpus("complete_chiitoi.json")[:100]:
        params = our_params(entry, "hong-kong") if entry.get("melds") is not None else None
        if params is None:
            continue
        outcomes = []
        for rules, sets in ((text, None), ("hong-kong-club", from_file)):
            try:
                calc = calculate({**params, "rules": rules}, sets)
                outcomes.append((calc.score.capped_fan, [(i.pattern.id, i.fan) for i in calc.score.counted],
                                 [(p.seat, p.amount) for p in calc.payments]))
            except HandError as err:
                outcomes.append(("refused", [e.message for e in err.errors]))
        assert outcomes[0] == outcomes[1], entry
        compared += 1
    assert compared == 700


def test_a_variant_carries_its_familys_worked_examples_priced_under_it():
    rulesets = load_all(price=price_example)
    base = rulesets["hong-kong"]
    variant = rulesets.house(encode(House("hong-kong", patterns=(PatternChange("small-three-dragons", fan=6),))))
    assert [ex.id for ex in variant.examples] == [ex.id for ex in base.examples]
    for ex in variant.examples:
        scored = calculate({**ex.params, "rules": variant.id}, rulesets)
        assert ex.total_fan == scored.score.total_fan
        assert dict(ex.payments) == {p.seat: p.amount for p in scored.payments}
        assert ex.before is base.examples[[b.id for b in base.examples].index(ex.id)]
    changed = {ex.id: (ex.before.total_fan, ex.total_fan) for ex in variant.examples
               if ex.total_fan != ex.before.total_fan}
    assert changed == {"little-three-dragons": (5, 6)}   # the one worked hand holding it


def test_a_variants_pattern_examples_are_priced_under_it_and_under_the_family():
    rulesets = load_all(price=price_example)
    variant = rulesets.house(encode(House("hong-kong", patterns=(
        PatternChange("small-three-dragons", fan=6), PatternChange("seven-pairs", on=True)))))
    example = variant.pattern_examples["small-three-dragons"]
    assert example.before.total_fan + 1 == example.total_fan == calculate(
        {**example.params, "rules": variant.id}, rulesets).score.total_fan
    pairs = variant.pattern_examples["seven-pairs"]   # a house rule in the family, on here
    assert "options" in pairs.before.params and "options" not in pairs.params
    assert pairs.total_fan == pairs.before.total_fan
    assert load_all().house(variant.id).pattern_examples == {}   # unpriced without scoring


# Stakes as a club types them (issue 37): whole numbers, decimals and fractions. A stake of 2 once
# made a code that never built: the code held the string "2" and the ruleset schema reads a
# string only as a fraction like 1/2.
TYPED_STAKES = st.one_of(
    st.integers(1, 1000).map(str),
    st.integers(1, 100_000).map(lambda n: f"{n // 100}.{n % 100:02d}".rstrip("0").rstrip(".")),   # 0.5, 2.25
    st.tuples(st.integers(1, 1000), st.integers(1, 1000)).map(lambda t: f"{t[0]}/{t[1]}"))
EXAMPLE_STAKES = ("2", "3", "10", "1000", "0.5", "2.5", "0.25", "1/3", "2/3", "7/4")


def _staked(typed: str) -> House:
    return House("hong-kong", dials=(("stake", read_stake(typed)),))


@settings(max_examples=300, deadline=None)
@given(TYPED_STAKES)
def test_every_stake_the_form_reads_round_trips_exactly_through_the_code(typed):
    stake = read_stake(typed)
    assert stake == Fraction(typed) and stake > 0
    assert isinstance(stake, int) == (Fraction(typed).denominator == 1)   # whole stakes stay ints
    decoded = decode(encode(_staked(typed)))
    assert decoded == _staked(typed) and dict(decoded.dials)["stake"] == Fraction(typed)


@settings(max_examples=40, deadline=None)
@given(TYPED_STAKES)
def test_every_stake_makes_a_code_that_builds_with_that_exact_stake(typed):
    variant = registry().house(encode(_staked(typed)))
    assert variant.dials.stake == Fraction(typed)


@pytest.mark.parametrize("typed", EXAMPLE_STAKES)
def test_a_stake_builds_prices_and_downloads_exactly(typed, tmp_path):
    """The money of a variant is the family's times its stake (the family's is 1), in the link
    and in the downloaded YAML file alike."""
    assert registry()["hong-kong"].dials.stake == 1
    code = encode(_staked(typed))
    hand = {"hand": "123m456m789m234p55s", "seat": "S", "by": "self-draw"}
    family = calculate({**hand, "rules": "hong-kong"})
    club = calculate({**hand, "rules": code})
    assert [(p.seat, p.amount) for p in club.payments] == [
        (p.seat, p.amount * Fraction(typed)) for p in family.payments]
    (tmp_path / "hong-kong-club.yaml").write_text(registry().house_yaml(_staked(typed)), encoding="utf-8")
    assert load_all(tmp_path)["hong-kong-club"].dials.stake == Fraction(typed)


@pytest.mark.parametrize("typed", ["0", "0.0", "0/3", "1/0", "-1", "1e3", "1,5", "½", "١", "1000001",
                                   "0.", ".5", "1/2/3", "1234567890", ""])
def test_a_stake_that_is_not_a_positive_number_is_read_as_none(typed):
    assert read_stake(typed) is None


def test_a_code_whose_stake_is_not_a_stake_is_refused():
    for stake in ("0", "abc", 2, None, "1/0"):
        with pytest.raises(HouseError, match="damaged"):
            decode(_code_of({"d": {"stake": stake}}))
