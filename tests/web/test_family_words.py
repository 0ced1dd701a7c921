"""Each family in its players' own words: a Hong Kong-family page never shows a Sichuan-only
word (点炮, 胡牌, 起胡), a Sichuan page never a Cantonese one (出銃, 食糊, 起糊), in either
script; every catalog message said in each family's words (its `words:`) keeps to them."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from babel.messages.pofile import read_po

from app.rules.loader import registry
from app.rules.model import family_fields
from app.web.common.i18n import TRANSLATIONS, fill_words
from tests.web import test_languages

RULESETS = registry()
SCRIPTS = {"zh-Hant": "zh_Hant", "zh-Hans": "zh_Hans"}
# Words only one kind of table uses (review chinese-wording-2026-12, HT-01, HT-02, HS-01, HT-03).
NEVER = {
    "cantonese": re.compile(r"點炮|点炮|胡牌|起胡|和牌|滿貫|满贯"),
    "mandarin": re.compile(r"出銃|出铳|食糊|起糊|食出|(?<!含)糊|和牌"),
}
# Sentences only a blood-battle round says (the ledger): Sichuan families' alone.
SICHUAN_ONLY = ("app/table/settlement.py", "app/vocabulary/round.py", "app/vocabulary/round_steps.py",
                "templates/round.html")
HANDS = {"cantonese": "hand=123m456m789m234p55s", "mandarin": "hand=111p123p777p789p55p&missing=m"}


def speech(rid: str) -> str:
    """How the family's table talks: Cantonese (食糊) or Mandarin (胡牌), from its words."""
    return "cantonese" if RULESETS[rid].words_in("zh-Hant").win == "食糊" else "mandarin"


def family_pages(rid: str) -> list[str]:
    """Every kind of page under one family: empty and with a result, errors included."""
    hand = HANDS[speech(rid)]
    pages = [f"/?rules={rid}", f"/?rules={rid}&{hand}", f"/?rules={rid}&{hand}&by=self-draw",
             f"/?rules={rid}&hand=123m456x&melds=12m", f"/?rules={rid}&hand=123m456m",
             f"/ticks?rules={rid}", f"/points?rules={rid}&fan=3", f"/points?rules={rid}&fan=1&min=3",
             f"/discard?rules={rid}", f"/practice?rules={rid}&seed=42&n=1",
             f"/practice/discard?rules={rid}&seed=42&n=1", f"/rules/{rid}",
             f"/card?rules={rid}&{hand}&by=self-draw", f"/embed?rules={rid}&{hand}",
             f"/sheet?rules={rid}"]
    if RULESETS[rid].settlement is not None:
        pages.append(f"/round?rules={rid}")
    return pages


def _family_of(url: str) -> str | None:
    parts = urlsplit(url)
    if "rules" in parse_qs(parts.query):
        return parse_qs(parts.query)["rules"][0]
    if parts.path.startswith("/rules/") and parts.path[len("/rules/"):]:
        return parts.path[len("/rules/"):]
    return "sichuan" if parts.path == "/round" else None


PAGES = sorted({(rid, url) for rid in RULESETS for url in family_pages(rid)}
               | {(_family_of(url), url) for url in test_languages.PAGES.values() if _family_of(url)})


def _shown_text(body: str) -> str:
    return re.sub(r"<[^>]+>", " ", body)


@pytest.mark.parametrize("lang", SCRIPTS)
@pytest.mark.parametrize("rid, url", PAGES)
def test_a_page_shows_only_its_familys_words(client, rid, url, lang):
    response = client.get(url + ("&" if "?" in url else "?") + f"lang={lang}")
    assert response.status_code in (200, 400), url
    text = _shown_text(response.get_data(as_text=True))
    assert "_word}" not in text, url
    found = [text[max(0, m.start() - 20):m.end() + 10] for m in NEVER[speech(rid)].finditer(text)]
    assert not found, f"{rid} ({speech(rid)}) page {url} in {lang} says: {found[:5]}"


def _messages(locale: str):
    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        for message in read_po(handle, locale=locale):
            if message.id:
                strings = [message.string] if isinstance(message.string, str) else message.string
                yield message, strings


@pytest.mark.parametrize("lang", SCRIPTS)
@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_every_catalog_message_said_in_a_familys_words_keeps_to_them(rid, lang):
    fields = family_fields(RULESETS[rid].words_in(lang))
    wrong = []
    for message, strings in _messages(SCRIPTS[lang]):
        if speech(rid) == "cantonese" and all(loc[0] in SICHUAN_ONLY for loc in message.locations):
            continue
        for text in strings:
            said = fill_words(text, fields)
            if NEVER[speech(rid)].search(said) or "_word}" in said:
                wrong.append((message.id, said))
    assert not wrong, f"{rid} in {lang}: {len(wrong)} messages, e.g. {wrong[:5]}"


def test_the_words_differ_between_the_families_where_their_tables_do():
    hk, sichuan = RULESETS["hong-kong"].words_in("zh-Hans"), RULESETS["sichuan"].words_in("zh-Hans")
    assert (hk.win, hk.discarder, hk.minimum, hk.chow) == ("食糊", "出铳者", "起糊", "上")
    assert (sichuan.win, sichuan.discarder, sichuan.minimum, sichuan.chow) == ("胡牌", "点炮者", "起胡", "吃")


# A tile's name ends in its suit's word, which families write otherwise: 條 under Sichuan rules
# in traditional script, 索 under Hong Kong ones in simplified (their `words: suits`).
# Not a word going on (一條龍, a pattern; 一條連結, a link).
TILE_NAME = re.compile(r"[一二三四五六七八九]([萬万筒索條条])(?![\u4e00-\u9fff])")
BAMBOO_PAGES = (
    "/?rules={rid}&hand=123m456m789m234s55s&by=self-draw&seat=S&missing=p",  # the groups, the picker
    "/?rules={rid}&hand=5s5s5s5s5s1m2m3m4m5m6m7m8m9m",                          # a refusal naming 五索/五條
    "/api/score?rules={rid}&hand=5s5s5s5s5s1m2m3m4m5m6m7m8m9m",
    "/discard?rules={rid}&hand=1m2m3m4m5m6m7m8m9m2s3s4s5s5s",                   # reasons, tables, alt text
    "/practice/discard?rules={rid}&seed=7&n=1",
)


@pytest.mark.parametrize("lang", SCRIPTS)
@pytest.mark.parametrize("rid", ["hong-kong", "sichuan", "sichuan-sbr", "family"])
def test_a_tiles_name_ends_in_its_familys_suit_word(client, rid, lang):
    suits = RULESETS[rid].words_in(lang).suits
    words = {suits["m"], suits["p"], suits["s"]}
    seen = set()
    for page in BAMBOO_PAGES:
        url = page.format(rid=rid) + f"&lang={lang}"
        body = client.get(url).get_data(as_text=True)
        found = {m.group(0) for m in TILE_NAME.finditer(body)}
        assert not {n for n in found if n[-1] not in words}, f"{url}: {sorted(found)}"
        seen |= found
    assert any(n.endswith(suits["s"]) for n in seen), sorted(seen)   # bamboo named at all


def test_the_ledger_names_a_kongs_tile_in_the_familys_words(client):
    line = "kong S concealed 5s"
    body = client.get(f"/round?rules=sichuan&lang=zh-Hant&round=missing+E%3Dp+S%3Dp+W%3Dp+N%3Dp%0A{line}"
                      ).get_data(as_text=True)
    assert "五條" in body and "五索" not in body
