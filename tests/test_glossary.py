"""The glossary (app/translations/GLOSSARY.md): no catalog message and no ruleset text of a
script uses a word its "never use" column names."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po

from app.web.common.i18n import TRANSLATIONS

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = TRANSLATIONS / "GLOSSARY.md"
SCRIPTS = {"zh_Hant": "zh_hant", "zh_Hans": "zh_hans"}   # catalog folder → ruleset key


def never_used(locale: str) -> dict[str, str]:
    """The words the glossary's table for one script says never to use, each with its concept."""
    sections = re.split(r"^## ", GLOSSARY.read_text("utf-8"), flags=re.M)
    section = next(s for s in sections if s.startswith(("繁體", "简体")[locale == "zh_Hans"]))
    words: dict[str, str] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("concept", "---"):
            words.update({w: cells[0] for w in cells[2].split("、") if w})
    return words


def _catalog_texts(locale: str):
    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        for message in read_po(handle, locale=locale):
            if message.id:
                strings = [message.string] if isinstance(message.string, str) else message.string
                yield from ((message.id, s) for s in strings)


def _ruleset_texts(key: str, value, path: str = ""):
    """Every text of a ruleset in one script: `zh_hant:` values, names and the family's words."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key and isinstance(v, str):
                yield path, v
            elif k == key and isinstance(v, dict):   # words: {zh_hant: {win: 食糊 …}}
                yield from ((f"{path}.{k}.{w}", t) for w, t in v.items() if isinstance(t, str))
            else:
                yield from _ruleset_texts(key, v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _ruleset_texts(key, item, f"{path}[{i}]")


@pytest.mark.parametrize("locale", SCRIPTS)
def test_the_glossary_names_words_never_to_use_for_each_script(locale):
    assert len(never_used(locale)) >= 15


@pytest.mark.parametrize("locale", SCRIPTS)
def test_no_catalog_message_uses_a_word_the_glossary_rules_out(locale):
    words = never_used(locale)
    found = [(word, msgid, text) for msgid, text in _catalog_texts(locale)
             for word in words if word in text]
    assert not found, f"{locale}: {found[:5]}"


@pytest.mark.parametrize("locale", SCRIPTS)
@pytest.mark.parametrize("path", sorted((ROOT / "rulesets").glob("*.yaml")), ids=lambda p: p.name)
def test_no_ruleset_text_uses_a_word_the_glossary_rules_out(locale, path):
    words = never_used(locale)
    data = yaml.safe_load(path.read_text("utf-8"))
    found = [(word, where, text[:60]) for where, text in _ruleset_texts(SCRIPTS[locale], data)
             for word in words if word in text]
    assert not found, f"{path.name} in {locale}: {found[:5]}"
