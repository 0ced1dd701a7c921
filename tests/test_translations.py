"""The gettext catalogs: up to date with the code and templates, every message translated,
compiled as the app reads them; and the language a page is in, chosen by the address."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

from app.rules.model import FAMILY_WORDS
from app.web.common.i18n import LOCALES, TRANSLATIONS
from tests.apps import shared_app

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = sorted(l for l in LOCALES.values() if l != "en")
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None,
            "Msg": None, "N_": None}
FIELD = re.compile(r"\{[a-z_]+\}|%\([a-z_]+\)s")
# The family's words a translation may add as fields (filled in by the page: 食糊 or 胡牌).
WORD_FIELDS = {"{" + key + "_word}" for key in FAMILY_WORDS}


def _extracted() -> set[str]:
    """Every message id the code and templates hold now (what `make translations` extracts)."""
    found: set[str] = set()
    method_map = [("app/**.py", "python"), ("templates/**.html", "jinja2")]
    options = {"templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    for _, _, message, _, _ in extract_from_dir(str(ROOT), method_map, options, KEYWORDS):
        found.add(message if isinstance(message, str) else message[0])
    return found


def _po(locale: str):
    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=locale)


@pytest.fixture(scope="module")
def extracted() -> set[str]:
    return _extracted()


@pytest.mark.parametrize("locale", CATALOGS)
def test_the_catalog_holds_every_message_of_the_code_and_templates_and_no_other(locale, extracted):
    held = {m.id if isinstance(m.id, str) else m.id[0] for m in _po(locale) if m.id}
    missing, stale = sorted(extracted - held), sorted(held - extracted)
    assert not missing, f"{locale}: not in the catalog (run make translations): {missing[:10]}"
    assert not stale, f"{locale}: no longer in the code (run make translations): {stale[:10]}"


@pytest.mark.parametrize("locale", CATALOGS)
def test_every_message_is_translated_keeping_its_fields(locale):
    for message in _po(locale):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        assert all(strings) and not message.fuzzy, f"{locale}: untranslated: {ids[0]!r}"
        for text in strings:
            own = [f for f in FIELD.findall(text) if f not in WORD_FIELDS]
            assert sorted(own) == sorted(FIELD.findall(ids[-1])), (locale, ids[0], text)
            assert not re.search(r"[A-Za-z]{3,}", FIELD.sub("", text)), (locale, ids[0], text)


@pytest.mark.parametrize("locale", CATALOGS)
def test_the_compiled_catalog_the_app_reads_is_the_catalog(locale):
    mo = TRANSLATIONS / locale / "LC_MESSAGES" / "messages.mo"
    assert mo.exists(), f"{mo.name} for {locale} is not compiled: run make catalogs"
    compiled = read_mo(io.BytesIO(mo.read_bytes()))
    def pairs(catalog):
        return {(m.id if isinstance(m.id, str) else m.id[0],
                 m.string if isinstance(m.string, str) else tuple(m.string)) for m in catalog if m.id}
    assert pairs(compiled) == pairs(_po(locale)), f"{locale}: stale .mo: run make catalogs"


# --- the language of a page -------------------------------------------------------------

APP = shared_app()


@pytest.mark.parametrize("header, lang", [
    ("zh-TW,zh;q=0.9", "zh-Hant"), ("zh-HK", "zh-Hant"), ("zh-MO,en;q=0.5", "zh-Hant"),
    ("zh-Hant", "zh-Hant"), ("zh-CN", "zh-Hans"), ("zh-SG", "zh-Hans"), ("zh-Hans-CN", "zh-Hans"),
    ("zh", "zh-Hans"), ("fr-FR,zh-TW;q=0.3", "zh-Hant"),
])
def test_the_front_page_without_lang_follows_accept_language_by_a_redirect(header, lang):
    response = APP.test_client().get("/?rules=sichuan", headers={"Accept-Language": header})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/?rules=sichuan&lang={lang}"
    assert "Accept-Language" in response.headers["Vary"]


@pytest.mark.parametrize("header", ["en-GB,en;q=0.9", "zh-TW;q=0.5,en-US", "fr", "", "zh-Hant;q=0"])
def test_the_front_page_stays_english_when_the_reader_prefers_english_or_no_chinese(header):
    response = APP.test_client().get("/", headers={"Accept-Language": header})
    assert response.status_code == 200 and response.headers["Content-Language"] == "en"
    assert "Accept-Language" in response.headers["Vary"]


def test_traditional_never_falls_back_to_simplified():
    response = APP.test_client().get("/", headers={"Accept-Language": "zh-TW,en;q=0.8,zh-CN;q=0.5"})
    assert response.headers["Location"] == "/?lang=zh-Hant"
    response = APP.test_client().get("/", headers={"Accept-Language": "en,zh-CN;q=0.5"})
    assert response.status_code == 200


@pytest.mark.parametrize("path", ["/ticks", "/rules/", "/sheet", "/api/score?hand=1m"])
def test_only_the_front_page_reads_accept_language(path):
    response = APP.test_client().get(path, headers={"Accept-Language": "zh-TW"})
    assert response.status_code != 302 and response.headers["Content-Language"] == "en"
    assert "Accept-Language" not in response.headers.get("Vary", "")


def test_an_address_with_lang_is_answered_in_it_whatever_the_reader_sends():
    response = APP.test_client().get("/?lang=en", headers={"Accept-Language": "zh-TW"})
    assert response.status_code == 200 and response.headers["Content-Language"] == "en"
    page = APP.test_client().get("/?lang=zh-Hans", headers={"Accept-Language": "en"})
    assert page.headers["Content-Language"] == "zh-Hans"
    assert '<html lang="zh-Hans">' in page.get_data(as_text=True)


@pytest.mark.parametrize("value, lang", [("zh-hant", "zh-Hant"), ("zh_Hans", "zh-Hans"),
                                         ("zh-TW", "zh-Hant"), ("fr", "en"), ("", "en")])
def test_a_lang_value_is_read_leniently_and_an_unknown_one_gives_english(value, lang):
    response = APP.test_client().get(f"/rules/?lang={value}")
    assert response.status_code == 200 and response.headers["Content-Language"] == lang


def test_every_page_offers_the_other_languages_as_plain_links():
    text = APP.test_client().get("/ticks?rules=sichuan&lang=zh-Hans").get_data(as_text=True)
    switch = re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', text)
    assert [lang for _, lang in switch] == ["en", "zh-Hant", "zh-Hans"]
    assert [href.replace("&amp;", "&") for href, _ in switch] == [
        "/ticks?rules=sichuan&lang=en", "/ticks?rules=sichuan&lang=zh-Hant",
        "/ticks?rules=sichuan&lang=zh-Hans"]


def test_a_page_in_each_language_is_its_own_cache_entry():
    client = APP.test_client()
    tags = {client.get(f"/rules/sichuan?lang={lang}").headers["ETag"]
            for lang in ("en", "zh-Hant", "zh-Hans")}
    assert len(tags) == 3


@pytest.mark.parametrize("request_line", [("get", "/api/score?hand=123m&lang=fr"),
                                          ("post", "/api/settle?lang=klingon")])
def test_the_api_refuses_a_language_it_does_not_have_naming_the_field(request_line):
    method, url = request_line
    response = getattr(APP.test_client(), method)(url, json={})
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["field"] == "lang"
    assert "zh-Hant" in response.get_json()["errors"][0]["message"]


PLAIN_AND_NOT = ["/", "/?", "/?rules=hong-kong&hand=123m456m&lang=en", "/sheet?add=hand=1m",
                 "/?a&b=&&c=1&lang", "/?=x&lang=zh-Hant&lang=en", "/card?hand=1m+2m#top",
                 "/?melds=777p,ckong:5555z&x=/y~z", "/?a=1#", "/?melds=777p%2Cckong%3A5555z",
                 "/?q=%20%E4%B8%AD&x=%2f", "//evil.example/x?a=1", "http://h.example/p?a=1&lang=en",
                 "/p\t?a=1", "/?a=1\n&b=2", " /?a=1", "/x?y?z=1#f#g", "/?la+ng=1&lang+=2", ""]


@pytest.mark.parametrize("url", PLAIN_AND_NOT)
def test_a_link_gets_its_language_as_if_its_address_were_parsed_and_encoded_again(url):
    from app.web.common.i18n import _lang_slot, _lang_slot_parsed
    assert _lang_slot(url) == _lang_slot_parsed(url)


@given(st.tuples(st.sampled_from(["", "/", "/?", "/card?hand="]),
                 st.text(alphabet="/?#&=%+,:;~._- aZ09\t2Cé", max_size=30)).map("".join))
def test_the_plain_reading_of_an_address_is_the_parsed_one(url):
    from app.web.common.i18n import _lang_slot, _lang_slot_parsed
    assert _lang_slot(url) == _lang_slot_parsed(url)
