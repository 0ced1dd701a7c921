"""Loading ruleset files: the schema check names the file and the key of every mistake."""
from __future__ import annotations

import copy

import pytest

from app.base.errors import RulesetError
from app.base.i18n import Name
from app.rules.checks import build_ruleset
from app.rules.loader import load_ruleset, registry
from app.rules.model import Curve

MINIMAL = {
    "name": {"en": "Test", "zh_hant": "測試", "zh_hans": "測試"},
    "dials": {"min": 0, "cap": 8, "curve": "doubling", "payment": "split"},
    "curves": [{"id": "doubling", "name": {"en": "Doubling", "zh_hant": "加倍", "zh_hans": "加倍"}, "kind": "doubling"}],
    "payments": [{"id": "split", "name": {"en": "Split", "zh_hant": "半銃", "zh_hans": "半銃"},
                  "discard": {"discarder": 2, "others": 1}, "self_draw": {"each": 2}}],
    "events": [{"id": "last-tile", "name": {"en": "Last tile", "zh_hant": "海底", "zh_hans": "海底"}, "by": "self-draw"}],
    "categories": [{"id": "hands", "name": {"en": "Hands", "zh_hant": "番種", "zh_hans": "番種"}}],
    "patterns": [
        {"id": "all-pongs", "name": {"en": "All pongs", "zh_hant": "對對糊", "zh_hans": "對對糊"}, "fan": 3, "category": "hands",
         "detect": "all_pongs"},
        {"id": "full-flush", "name": {"en": "Full flush", "zh_hant": "清一色", "zh_hans": "清一色"}, "fan": 6, "category": "hands",
         "detect": "full_flush"},
        {"id": "pure-pongs", "name": {"en": "Pure pongs", "zh_hant": "清碰", "zh_hans": "清碰"}, "fan": 10, "category": "hands",
         "requires": ["all-pongs", "full-flush"], "includes": ["all-pongs", "full-flush"]},
    ],
}


def build(change=None, stem="test"):
    data = copy.deepcopy(MINIMAL)
    if change:
        change(data)
    return build_ruleset(data, f"{stem}.yaml", stem)


def test_a_minimal_ruleset_loads_and_expands_relations():
    rs = build()
    assert rs.id == "test" and [p.id for p in rs.packages] == ["pure-pongs"]
    assert rs.by_id["pure-pongs"].excludes == {"all-pongs", "full-flush"}
    assert rs.events["last-tile"].by.value == "self-draw"


def _set(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


@pytest.mark.parametrize("change, message", [
    (_set(["patterns", 1, "detect"], "ful_flush"), "test.yaml: patterns[1].detect: unknown detector 'ful_flush'"),
    (_set(["patterns", 0, "fan"], "three"), "test.yaml: patterns[0].fan: expected a whole number of fan, found 'three'"),
    (_set(["patterns", 0, "fan"], True), "patterns[0].fan: expected a whole number of fan, found True"),
    (_set(["patterns", 0, "colour"], "red"), "test.yaml: patterns[0].colour: unknown key"),
    (_set(["patterns", 0, "id"], "All Pongs"), "patterns[0].id: 'All Pongs' is not a kebab-case id"),
    (_set(["patterns", 1, "id"], "all-pongs"), "patterns[1].id: duplicate id 'all-pongs': patterns[0] has it too"),
    (lambda d: d["curves"].append({"id": "doubling", "name": {"en": "Again"}, "kind": "linear"}),
     "test.yaml: curves[1].id: duplicate id 'doubling': curves[0] has it too"),
    (lambda d: d["categories"].append({"id": "hands", "name": {"en": "Hands again"}}),
     "categories[1].id: duplicate id 'hands'"),
    (_set(["payments", 0, "unit"], "1/0"), "test.yaml: payments[0].unit: '1/0' divides by zero"),
    (_set(["dials", "min"], 9), "test.yaml: dials.min: 9 is above dials.cap 8"),
    (_set(["dials", "stake"], 0), "test.yaml: dials.stake: expected a positive stake, found 0"),
    (_set(["patterns", 0, "supersedes"], ["full-flush"]),
     "patterns[0].supersedes: only an optional pattern (a house rule) can supersede others"),
    (_set(["patterns", 0, "replaces"], ["all-pongs"]), "patterns[0].replaces[0]: a pattern cannot name itself"),
    (_set(["patterns", 0, "instant"], True),
     "test.yaml: patterns[0].instant: an instant win needs `by`: the one way it is won"),
    (_set(["patterns", 2, "detect"], "all_pongs"), "patterns[2].requires: a package is present when"),
    (_set(["curves", 0, "table"], [1, 2, 4]), "curves[0].table: only a curve of kind table has one"),
    (lambda d: (d["curves"].append({"id": "flat", "name": {"en": "Flat", "zh_hant": "甲", "zh_hans": "甲"}, "kind": "linear"}),
                d["payments"][0].update(curve="flat")),
     "test.yaml: dials.curve: the default payment 'split' uses the curve 'flat'"),
    (_set(["examples"], [{"id": "one", "title": "One", "params": {"hand": "123m"},
                          "expect": {"payments": {"E": "lots"}}}]),
     "test.yaml: examples[0].expect.payments.E: expected an amount such as 16, -8, 0.5 or -1/3, found 'lots'"),
    (_set(["patterns", 0, "category"], "nope"), "patterns[0].category: unknown category 'nope'"),
    (_set(["patterns", 2, "includes"], ["all-pong"]), "patterns[2].includes[0]: unknown pattern 'all-pong'"),
    (_set(["patterns", 2, "requires"], ["all-pongs", "fullflush"]), "patterns[2].requires[1]: unknown pattern 'fullflush'"),
    (_set(["patterns", 0, "event"], "moon-landing"), "patterns[0].event: event 'moon-landing' is not in this file's events"),
    (_set(["patterns", 0, "by"], "stolen"), "patterns[0].by: expected self-draw or discard"),
    (_set(["dials", "curve"], "spicy"), "test.yaml: dials.curve: unknown curve 'spicy'"),
    (_set(["dials", "payment"], "all"), "dials.payment: unknown payment convention 'all'"),
    (_set(["dials", "min"], 99), "dials.min: 99 is outside ranges.min"),
    (_set(["curves", 0, "kind"], "exponential"), "curves[0].kind: unknown curve kind 'exponential'"),
    (_set(["payments", 0, "discard"], {"discarder": 2}), "payments[0].discard: missing key 'others'"),
    (_set(["payments", 0, "unit"], "lots"), "payments[0].unit: expected a number or a fraction"),
    (_set(["events", 0, "id"], "moon-landing"), "events[0].id: unknown event 'moon-landing'"),
    (_set(["name"], "Test"), "test.yaml: name: expected the text in every language"),
    (_set(["shapes"], {"seven_pairs": "all-pongs"}), "shapes.seven_pairs: expected true, false or the id of an optional pattern"),
    (lambda d: d.pop("patterns"), "test.yaml: (top): missing key 'patterns'"),
    (_set(["id"], "other"), "test.yaml: id: 'other' must equal the file name 'test'"),
    (_set(["summary"], 3), "test.yaml: summary: expected a mapping, found int"),
    (_set(["missing_suit"], "yes"), "test.yaml: missing_suit: expected true or false"),
    (_set(["switches"], [{"id": "transfer", "name": {"en": "Transfer", "zh_hant": "甲", "zh_hans": "甲"},
                          "settlement": {"kong_transfer_on_cannon": True}}]),
     "test.yaml: switches[0].settlement: the file has no settlement section for the switch to change"),
    (_set(["switches"], [{"id": "pigs", "name": {"en": "Pigs"}, "settlement": {"pig_fine": 16}}]),
     "test.yaml: switches[0].settlement.pig_fine: unknown key"),
    (_set(["switches"], [{"id": "bare", "name": {"en": "Bare", "zh_hant": "甲", "zh_hans": "甲"}, "flowers": "no"}]),
     "test.yaml: switches[0].flowers: expected true or false"),
])
def test_a_broken_file_is_refused_naming_the_file_and_key(change, message):
    with pytest.raises(RulesetError) as err:
        build(change)
    assert message in str(err.value)


def test_a_package_of_packages_is_refused():
    def change(data):
        data["patterns"].append({"id": "mega", "name": {"en": "Mega", "zh_hant": "甲", "zh_hans": "甲"}, "fan": 20,
                                 "category": "hands", "requires": ["pure-pongs"]})
    with pytest.raises(RulesetError, match=r"patterns\[3\].requires\[0\]: 'pure-pongs' is itself a package"):
        build(change)


def test_duplicate_keys_in_a_file_are_refused(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text("name: {en: A}\nname: {en: B}\n", encoding="utf-8")
    with pytest.raises(RulesetError, match=r"dup.yaml: not valid YAML: .*duplicate key 'name'"):
        load_ruleset(path)


def test_yaml_that_is_not_safe_is_refused(tmp_path):
    path = tmp_path / "evil.yaml"
    path.write_text("name: !!python/object/apply:os.system ['true']\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="evil.yaml: not valid YAML"):
        load_ruleset(path)


def test_shipped_rulesets_load_with_ids_equal_to_their_file_names():
    for rid, rs in registry().items():
        assert rs.id == rid
        assert rs.dials.curve in rs.curves and rs.dials.payment in rs.payments


@pytest.mark.parametrize("kind, table, points", [
    ("doubling", (), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]),
    ("half-spicy", (), [1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384]),
    ("linear", (), list(range(14))),
    ("table", (1, 2, 4, 8), [1, 2, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8]),
])
def test_curves_reproduce_the_seed_conversion_tables(kind, table, points):
    curve = Curve("c", Name("C", ""), kind, table)
    assert [curve.points(f) for f in range(14)] == points


# --- a house variant: `extends:` another file and list only what differs ------------------

HOUSE = """
extends: hong-kong
name: {en: Our house rules, zh_hant: 家規, zh_hans: 家规}
dials: {min: 1}
patterns:
  - {id: all-pongs, fan: 5}
  - {id: nine-gates, remove: true}
  - id: lucky-sevens
    name: {en: Lucky sevens, zh_hant: 七星, zh_hans: 七星}
    fan: 2
    category: house-rules
    detect: always
    optional: true
"""


def _house(tmp_path, text=HOUSE, name="house"):
    import shutil

    from app.rules.loader import RULESET_DIR
    shutil.copy(RULESET_DIR / "hong-kong.yaml", tmp_path / "hong-kong.yaml")
    (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    return load_ruleset(tmp_path / f"{name}.yaml")


def test_a_house_variant_lists_only_what_differs(tmp_path):
    base, house = registry()["hong-kong"], _house(tmp_path)
    assert house.id == "house" and house.name.en == "Our house rules"
    assert house.dials.min == 1 and house.dials.cap == base.dials.cap
    assert house.by_id["all-pongs"].fan == 5 and house.by_id["all-pongs"].name == base.by_id["all-pongs"].name
    assert "nine-gates" not in house.by_id and house.patterns[-1].id == "lucky-sevens"
    assert set(base.by_id) - {"nine-gates"} < set(house.by_id)
    assert house.examples == () and house.curves.keys() == base.curves.keys()


def test_a_house_variant_scores_with_its_changes(tmp_path):
    from app.vocabulary import score as calculate
    rulesets = {"house": _house(tmp_path), "hong-kong": registry()["hong-kong"]}
    hand = {"hand": "444p666s88m999s", "melds": "222m", "win": "8m"}
    base = calculate({"rules": "hong-kong", **hand}, rulesets).score
    house = calculate({"rules": "house", **hand, "options": "lucky-sevens"}, rulesets).score
    assert house.total_fan == base.total_fan + (5 - 3) + 2


@pytest.mark.parametrize("text, message", [
    ("extends: nowhere\nname: {en: X, zh_hant: 甲, zh_hans: 甲}", "house.yaml: extends: there is no nowhere.yaml beside it and no shipped ruleset of that id"),
    ("extends: house\nname: {en: X, zh_hant: 甲, zh_hans: 甲}", "house.yaml: extends: 'house' leads back to this file"),
    ("extends: [hong-kong]\nname: {en: X, zh_hant: 甲, zh_hans: 甲}", "house.yaml: extends: expected the id of another ruleset file"),
    ("extends: hong-kong\nname: {en: X, zh_hant: 甲, zh_hans: 甲}\npatterns:\n  - {id: no-such, remove: true}",
     "house.yaml: patterns[0].remove: the extended file has no patterns entry 'no-such' to remove"),
    ("extends: hong-kong\nname: {en: X, zh_hant: 甲, zh_hans: 甲}\npatterns:\n  - {id: all-pongs, fan: lots}",
     "house.yaml: patterns["),
])
def test_a_broken_house_variant_is_refused_naming_the_file_and_key(tmp_path, text, message):
    with pytest.raises(RulesetError) as err:
        _house(tmp_path, text)
    assert message in str(err.value)


@pytest.mark.parametrize("key, index", [("patterns", 0), ("categories", 0), ("events", 0),
                                        ("curves", 0), ("payments", 0)])
@pytest.mark.parametrize("script, language", [("zh_hant", "Traditional Chinese"),
                                              ("zh_hans", "Simplified Chinese")])
def test_an_entry_without_a_chinese_name_stops_loading_naming_the_file_and_key(key, index, script,
                                                                              language):
    def change(data):
        del data[key][index]["name"][script]
    with pytest.raises(RulesetError, match=rf"^test\.yaml: {key}\[{index}\]\.name\.{script}: "
                                           rf".* has no {language} translation"):
        build(change)


def test_a_shown_text_in_english_only_stops_loading_naming_the_file_and_key():
    def change(data):
        data["patterns"][0]["explain"] = "Four pongs and a pair."
    with pytest.raises(RulesetError, match=r"^test\.yaml: patterns\[0\]\.explain: expected the text in"
                                           r" every language"):
        build(change)


def test_a_shown_text_missing_one_translation_stops_loading_naming_the_language():
    def change(data):
        data["summary"] = {"en": "A test family.", "zh_hant": "測試。"}
    with pytest.raises(RulesetError, match=r"^test\.yaml: summary\.zh_hans: 'A test family\.' has no"
                                           r" Simplified Chinese translation"):
        build(change)


def test_a_chinese_text_citing_a_ruling_the_file_lacks_is_refused():
    def change(data):
        data["rulings"] = [{"id": 1, "point": {"en": "P", "zh_hant": "點", "zh_hans": "点"},
                            "ruling": {"en": "R", "zh_hant": "裁", "zh_hans": "裁"}}]
        data["patterns"][0]["explain"] = {"en": "Pongs (ruling 1).", "zh_hant": "碰（裁定 1、2）",
                                          "zh_hans": "碰（裁定 1）"}
    with pytest.raises(RulesetError, match=r"^test\.yaml: patterns\[0\]\.explain\.zh_hant: cites"
                                           r" ruling 2, which is not under rulings"):
        build(change)


def test_a_shown_text_says_itself_in_each_language():
    def change(data):
        data["patterns"][0]["explain"] = {"en": "Four pongs.", "zh_hant": "四副刻子。",
                                          "zh_hans": "四副刻子。"}
    explain = build(change).by_id["all-pongs"].explain
    assert [explain.in_lang(lang) for lang in ("en", "zh-Hant", "zh-Hans")] == [
        "Four pongs.", "四副刻子。", "四副刻子。"]


def test_a_family_gives_its_words_in_each_script_and_shows_its_own_beside_english():
    def change(data):
        data["words"] = {"script": "simplified", "zh_hans": {"discard": "点炮"},
                         "zh_hant": {"discard": "點炮"}}
    rs = build(change)
    assert (rs.words.discard, rs.words_in("zh-Hant").discard, rs.words_in("zh-Hans").discard,
            rs.words_in("en").discard) == ("点炮", "點炮", "点炮", "点炮")
    assert rs.by_id["all-pongs"].name.zh == rs.by_id["all-pongs"].name.zh_hans


def test_every_shipped_entry_has_its_chinese_name_in_its_family_script():
    for rs in registry().values():
        named = [*rs.categories, *rs.patterns, *rs.events.values(), *rs.curves.values(),
                 *rs.payments.values(), *rs.switches, *rs.liability]
        assert all(n.name.zh_hant and n.name.zh_hans for n in named), rs.id
        native = "zh_hans" if rs.words.script == "simplified" else "zh_hant"
        assert all(n.name.zh == getattr(n.name, native) for n in named), rs.id


def test_hong_kong_special_dragon_hands_have_descriptive_chinese_names_said_to_be_descriptive():
    hk = registry()["hong-kong"]
    for pid, zh in (("jade-dragon", "發財清索"), ("ruby-dragon", "紅中清萬"), ("pearl-dragon", "白板清筒")):
        assert hk.by_id[pid].name.zh == zh
        assert "descriptive" in hk.by_id[pid].note.en


@pytest.mark.parametrize("entries, message", [
    ([["all-pongs", ["full-flush", "nine-winds"]]],
     "test.yaml: never_together[0][1][1]: unknown pattern 'nine-winds'"),
    ([["all-pongs"]], "test.yaml: never_together[0]: name at least two groups"),
    ([["all-pongs", ["all-pongs"]]], "test.yaml: never_together[0][1][0]: 'all-pongs' is named twice"),
    ([["all-pongs", "full-flush"]],
     "test.yaml: never_together: 'all-pongs' and 'full-flush' are never held together, yet the"
     " package 'pure-pongs' requires both"),
    ("all-pongs", "test.yaml: never_together: expected a list of entries"),
])
def test_a_broken_never_together_entry_is_refused_naming_the_file_and_key(entries, message):
    with pytest.raises(RulesetError) as err:
        build(_set(["never_together"], entries))
    assert message in str(err.value)


def test_never_together_pairs_every_pattern_of_one_group_with_every_one_of_the_others():
    data_change = _set(["never_together"], [[["all-pongs", "pure-pongs"], "full-flush"]])
    with pytest.raises(RulesetError):   # pure-pongs requires full-flush
        build(data_change)
    rs = build(_set(["never_together"], [["all-pongs", "pure-pongs"]]))
    assert rs.never_together == {"all-pongs": {"pure-pongs"}, "pure-pongs": {"all-pongs"}}


def test_an_event_pattern_takes_the_way_of_winning_its_event_needs():
    rs = registry()["sichuan"]
    assert rs.by_id["kong-blossom"].by.value == "self-draw"      # ruling 12
    assert rs.by_id["robbing-the-kong"].by.value == "discard"    # ruling 14
    assert rs.by_id["last-tile"].by is None                      # ruling 11: either way


def test_a_pattern_whose_by_contradicts_its_event_is_refused():
    def change(data):
        data["patterns"].append({"id": "sea", "name": {"en": "Sea", "zh_hant": "甲", "zh_hans": "甲"},
                                 "fan": 1, "category": "hands", "event": "last-tile",
                                 "by": "discard"})
    with pytest.raises(RulesetError, match=r"test.yaml: patterns\[3\].by: discard, but its event"
                                           r" 'last-tile' is a self-draw win"):
        build(change)
