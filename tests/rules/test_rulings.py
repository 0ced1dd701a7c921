"""Each family in its own words: the lesson named by title, rulings as data, every citation linked."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
import yaml

from app.base.errors import RulesetError
from app.rules.loader import RULESET_DIR, load_ruleset, registry
from app.rules.model import cited
from tests.apps import shared_app

RULESETS = registry()
APP = shared_app()
SEED_FILE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")


def page(path: str) -> str:
    with APP.test_client() as client:
        response = client.get(path)
    assert response.status_code == 200, path
    return response.get_data(as_text=True)


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_the_rules_page_names_no_seed_file_and_no_seed_number(rid):
    text = page(f"/rules/{rid}")
    assert not SEED_FILE.search(text)
    assert not re.search(r"\bseeds? 00\d", text)
    assert RULESETS[rid].source.en in html.unescape(text)


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_every_ruling_the_rules_page_cites_links_to_its_entry_on_the_page(rid):
    text = page(f"/rules/{rid}")
    linked = set(re.findall(rf'href="/rules/{rid}#ruling-(\d+)"', text))
    entries = set(re.findall(r'<dt id="ruling-(\d+)">', text))
    assert linked and linked <= entries
    unlinked = re.sub(r"<a [^>]*>\d+</a>", "", re.sub(r"<dt [^>]*>.*?</dt>", "", text))
    assert not cited(unlinked), cited(unlinked)


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_the_rulings_are_in_the_body_and_the_title_is_plain_text(rid):
    text = page(f"/rules/{rid}")
    title = re.search(r"<title>(.*?)</title>", text, re.S)[1]
    assert title == f"{html.escape(RULESETS[rid].name.en)} rules — Mahjong scoring calculator"
    body = text[text.index("<body"):]
    assert '<h2 id="rulings">' in body and body.count('<dt id="ruling-') == len(RULESETS[rid].rulings)


def test_the_points_page_links_its_convention_and_curve_citations():
    text = page("/points?rules=hong-kong&fan=5&payment=discarder-pays-half")
    assert 'href="/rules/hong-kong#ruling-36"' in text


def test_a_citation_of_a_ruling_the_file_does_not_hold_stops_loading(tmp_path: Path):
    data = yaml.safe_load((RULESET_DIR / "family.yaml").read_text(encoding="utf-8"))
    data["patterns"][0]["explain"]["en"] = "Four runs and a pair (ruling 99)."
    path = tmp_path / "family.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    assert str(caught.value) == ("family.yaml: patterns[0].explain.en: cites ruling 99, which is not"
                                 " under rulings")


def test_a_seed_file_name_in_a_shown_text_stops_loading(tmp_path: Path):
    data = yaml.safe_load((RULESET_DIR / "sichuan.yaml").read_text(encoding="utf-8"))
    data["source"] = "seed 000 (000_1d9e0c5840061c09.txt)"
    path = tmp_path / "sichuan.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(RulesetError, match="sichuan.yaml: source: names a seed file"):
        load_ruleset(path)


def test_a_ruling_listed_twice_stops_loading(tmp_path: Path):
    data = yaml.safe_load((RULESET_DIR / "sichuan-sbr.yaml").read_text(encoding="utf-8"))
    data["rulings"].append(dict(data["rulings"][0]))
    path = tmp_path / "sichuan-sbr.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(RulesetError, match=r"rulings\[\d+\]\.id: ruling \d+ is listed twice"):
        load_ruleset(path)


def test_a_sichuan_page_speaks_mandarin_in_simplified_characters_and_hong_kong_cantonese():
    sichuan = page("/?rules=sichuan")
    assert "On a discard 点炮" in sichuan and "Bamboo 条" in sichuan and "East 东" in sichuan
    assert 'alt="1 Characters 一万"' in sichuan and "萬" not in sichuan.split("<main")[-1]
    hong_kong = page("/?rules=hong-kong")
    assert "On a discard 出銃" in hong_kong and "East 東" in hong_kong


def test_the_missing_suit_message_says_ding_que_not_the_flower_pig_check():
    with APP.test_client() as client:
        answer = client.get("/api/score", query_string={
            "rules": "sichuan", "hand": "123m456m789m234p55p", "missing": "m"}).json
    message = answer["errors"][0]["message"]
    assert "定缺" in message and "缺一门" in message and "查花猪" not in message


def test_the_family_nine_cards_refusal_does_not_borrow_the_hong_kong_pao_wording():
    with APP.test_client() as client:
        answer = client.get("/api/score", query_string={
            "rules": "family", "hand": "222p55p", "melds": "123p,456m,789p", "win": "5p",
            "liable": "S", "discarder": "S"}).json
    message = answer["errors"][0]["message"]
    assert "9-cards" in message and "pins nobody" not in message and "包" not in message


@pytest.mark.parametrize("text", ["seed 003 example 1", "as Seeds 001 and 003 say"])
def test_a_seed_named_by_number_in_an_example_source_stops_loading(tmp_path: Path, text):
    data = yaml.safe_load((RULESET_DIR / "hong-kong.yaml").read_text(encoding="utf-8"))
    data["examples"][2]["source"] = text
    path = tmp_path / "hong-kong.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(RulesetError, match=r"hong-kong\.yaml: examples\[2\]\.source: names a seed by number"):
        load_ruleset(path)


def test_every_shipped_example_source_names_its_lesson_by_the_rulesets_source_title():
    for rs in registry().values():
        for example in rs.examples:
            assert rs.source.en.split(" — ")[0] in example.source.en, (rs.id, example.id)
            for lang in ("zh-Hant", "zh-Hans"):   # the title, quoted (「…」, “…”) or before ——
                source = rs.source.in_lang(lang)
                quoted = re.search(r"[「“]([^」”]+)[」”]", source)
                title = quoted[1] if quoted else source.split("——")[0]
                assert title in example.source.in_lang(lang), (rs.id, example.id, lang)


# RULINGS.md: ruling 82 holds in every family, ruling 83 where a minimum can stop a win
ADVICE_RULINGS = {"hong-kong": (82, 83), "hong-kong-course": (82, 83), "family": (82, 83),
                  "sichuan": (82,), "sichuan-sbr": (82,)}
ADVICE_WORDS = {"en": ("either way", "winnable first"), "zh-Hant": ("兩種方式都計", "排先"),
                "zh-Hans": ("两种方式都计", "排先")}


@pytest.mark.parametrize("lang", sorted(ADVICE_WORDS))
@pytest.mark.parametrize("rid", sorted(ADVICE_RULINGS))
def test_the_advice_rulings_82_and_83_are_listed_on_the_rules_page_in_each_language(rid, lang):
    text = page(f"/rules/{rid}?lang={lang}")
    either_way, winnable_first = ADVICE_WORDS[lang]
    entries = dict(re.findall(r'<dt id="ruling-(\d+)">.*?</dt>\s*<dd>(.*?)</dd>', text, re.S))
    assert "82" in entries and either_way in entries["82"]
    assert ("83" in entries) is (83 in ADVICE_RULINGS[rid])
    if 83 in ADVICE_RULINGS[rid]:
        assert winnable_first in entries["83"] and 'href="/rules/' in entries["83"]   # cites 82
