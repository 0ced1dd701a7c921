"""The page language: chosen by `lang=` in the address, kept by every link and form.

No cookie and no session: the language is part of every permalink, so a page stays
cacheable and shareable. Only `/` without `lang` reads Accept-Language, and answers with a
redirect to the address with `lang` (and `Vary: Accept-Language`). Gettext catalogs live in
`app/translations/` (`make translations` extracts and updates them; they are compiled at
install or build time). Ruleset texts carry their own translations (`app.base.i18n.Text`).
"""
from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, quote_plus, urlencode, urlsplit

from babel import support
from flask import Flask, current_app, has_request_context, redirect, request
from flask.globals import _cv_request
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel, Domain, get_locale, get_translations
from markupsafe import Markup, escape

from app.base.i18n import (
    DEFAULT_LANG,
    LANGS,
    N_,
    Msg,
    Text,
    from_accept_language,
    pick_lang,
    say,
    say_all,
)
from app.base.resources import PACKAGE

TRANSLATIONS = PACKAGE / "translations"
LOCALES = {"en": "en", "zh-Hant": "zh_Hant", "zh-Hans": "zh_Hans"}   # lang= → catalog folder
# Each language named in itself, for the switch on every page.
SELF_NAMES = {"en": "English", "zh-Hant": "繁體中文", "zh-Hans": "简体中文"}


def install(app: Flask) -> None:
    """Wire the language into requests, links, templates and JSON answers."""
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    babel = Babel(app, locale_selector=lambda: LOCALES[page_lang()])
    babel.domain_instance = FamilyDomain()
    app.url_defaults(_keep_lang)
    app.before_request(_language_of_front_page)
    app.before_request(_known_api_language)
    app.after_request(_content_language)
    app.jinja_env.finalize = _finalize
    # Templates look each sentence up in the request's catalog, found once a request: Flask-
    # Babel's callables find the locale and the catalog again for each of ~70 sentences a page
    # says, through two of Jinja's calls each. These do what Jinja's "newstyle" gettext does
    # (the result is markup, its %(fields)s are escaped) in one plain call.
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext,
                                 ngettext=template_ngettext)
    app.jinja_env.globals.update(page_lang=page_lang, with_lang=with_lang, lang_input=lang_input,
                                 named=named, language_switch=language_switch)
    app.json = _SayingJSON(app)
    app.jinja_env.filters.update(say=say_here)


class FamilyDomain(Domain):
    """The catalogs said in the page family's words: a translation's `{win_word}`,
    `{discarder_word}` … (app/rules/model.py FAMILY_WORDS) become the words of the family the
    page is about (食糊 under Hong Kong rules, 胡牌 under Sichuan ones), for every lookup: the
    templates', the forms' labels and the core's sentences alike. One filled-in catalog is kept
    for each language and set of words."""

    def __init__(self) -> None:
        super().__init__()
        self.filled: dict[tuple, support.Translations] = {}

    def get_translations(self):
        base = super().get_translations()
        if not isinstance(base, support.Translations) or not has_request_context() or not base._catalog:
            return base   # an empty catalog (English, the language of the sentences): nothing to fill
        seen = once_a_request(_FILLED, lambda r: {})   # a page asks a hundred times
        found = seen.get(id(base))
        if found is None:
            fields = current_app.extensions["family_fields"]()
            key = (str(get_locale()), tuple(fields.items()))
            found = self.filled.get(key)
            if found is None:
                found = self.filled[key] = filled_catalog(base, fields)
            seen[id(base)] = found
        return found


_FILLED = "mahjong.filled_catalogs"


def filled_catalog(base: support.Translations, fields: dict[str, str]) -> support.Translations:
    """A copy of a catalog with the family's words put in for their fields."""
    filled = copy.copy(base)
    filled._catalog = {key: fill_words(text, fields) for key, text in base._catalog.items()}
    return filled


def fill_words(text: str, fields: dict[str, str]) -> str:
    """A translation with the family's words in place of their fields.

    >>> fill_words("不是合法{win_word}：{fan} 番", {"win_word": "食糊"})
    '不是合法食糊：{fan} 番'
    """
    if "_word" not in text:
        return text
    for name, word in fields.items():
        text = text.replace("{" + name + "}", word)
    return text


def once_a_request(key: str, make: Callable[[Any], Any]) -> Any:
    """A value worked out once a request and kept in its environ; None outside a request.

    Reads Flask's request context without its proxy: the page language is asked about a
    hundred times a page."""
    ctx = _cv_request.get(None)
    if ctx is None:
        return None
    environ = ctx.request.environ
    try:
        return environ[key]
    except KeyError:
        found = environ[key] = make(ctx.request)
        return found


def explicit_lang() -> str | None:
    """The language the address names with `lang=`, or None."""
    return once_a_request("mahjong.lang", lambda r: pick_lang(r.args.get("lang")))


def page_lang() -> str:
    """The language this page is written in."""
    return explicit_lang() or DEFAULT_LANG


def template_gettext(string: str, **fields: Any) -> Markup:
    """`{{ _("…") }}` and `{% trans %}` in a template: the sentence in the page language."""
    catalog = _page_catalog()
    said = Markup(catalog.ugettext(string) if catalog else string)
    return said % fields if fields or "%%" in said else said   # most have nothing to fill in


def template_ngettext(singular: str, plural: str, num: int, **fields: Any) -> Markup:
    catalog = _page_catalog()
    said = catalog.ungettext(singular, plural, num) if catalog else (singular if num == 1 else plural)
    return Markup(said) % {"num": num, **fields}


def _page_catalog():
    """The page's gettext catalog, or None on an English page (then nothing is looked up)."""
    return once_a_request("mahjong.catalog",
                 lambda r: get_translations() if page_lang() != DEFAULT_LANG else None)


def gettext_page(string: str, **variables: Any) -> str:
    """Flask-Babel's gettext (the sentence in the page language, its %(fields)s filled in, not
    escaped) from the catalog found once a request: a page's Python-side sentences (its head's
    preview) without the locale and catalog found again for each."""
    catalog = _page_catalog()
    said = catalog.ugettext(string) if catalog else string
    return said % variables if variables else said


def page_gettext(msgid: str) -> str:
    """Flask-Babel's gettext(msgid) on this page, from the catalog found once a request (its
    own lookup finds the locale and the catalog again: most of a Chinese page's labels)."""
    return (_page_catalog() or get_translations()).ugettext(msgid)


def gettext_here(msgid: str) -> str:
    """The catalog's translation of a message id in the page language ('' when none)."""
    translated = page_gettext(msgid)
    return translated if translated != msgid else ""


def gettext_in_locale(msgid: str) -> str:
    """gettext_here in Flask-Babel's current locale: within force_locale, the forced one's."""
    translated = get_translations().gettext(msgid)
    return translated if translated != msgid else ""


def say_here(value: Any) -> Any:
    """A Text or Msg in the page language (a tile's name in its family's suit words); anything
    else as it is."""
    lang = page_lang()
    if lang == DEFAULT_LANG:
        return say(value, lang, gettext_here) if isinstance(value, Text) else value
    return say(value, lang, gettext_here, page_suits())


def say_json(value: Any) -> Any:
    """A JSON answer's sentences in the page language."""
    lang = page_lang()
    return say_all(value, lang, gettext_here, page_suits() if lang != DEFAULT_LANG else None)


def page_suits() -> dict[str, str]:
    """The page family's suit words in the page's script (條 under Sichuan rules): the end of
    each suited tile's name on a Chinese page."""
    return once_a_request(_SUITS, lambda r: dict(current_app.extensions["family_suits"]()))


_SUITS = "mahjong.page_suits"


def _finalize(value: Any) -> Any:
    """Every `{{ value }}` of a template: Text and Msg values in the page language."""
    if type(value) in _PLAIN:   # most values: no lookup at all
        return value
    if isinstance(value, Text | Msg):
        return say_here(value)
    return value


_PLAIN = frozenset({str, int, Markup, float, bool, type(None)})


def written(value: Any) -> Markup:
    """A value as a template's `{{ value }}` writes it: in the page language, escaped."""
    return escape(_finalize(value))


def with_lang(url: str, lang: str | None = None) -> str:
    """A site address with this page's `lang=` (or the one given), kept or replaced.

    >>> with_lang("/sheet?rules=sichuan&lang=en", "zh-Hant")
    '/sheet?rules=sichuan&lang=zh-Hant'
    """
    lang = lang or explicit_lang()
    if not lang:
        return url
    head, tail = _lang_slot(url)
    return f"{head}{_lang_pair(lang)}{tail}"


_SAFE = ",:/"
# Characters parse_qsl and urlencode(safe=_SAFE) give back as they are ('+' is a space both
# ways); an escape ('%2C') may come back otherwise, so an address with one is parsed.
_PLAIN_QUERY = re.compile(r"[A-Za-z0-9_.~,:/+=&-]*")


def _lang_pair(lang: str) -> str:
    """`lang=…` as urlencode(safe=_SAFE) writes the pair (the site's languages written once)."""
    found = _LANG_PAIRS.get(lang)
    return found if found is not None else f"lang={quote_plus(lang, safe=_SAFE)}"


_LANG_PAIRS = {lang: f"lang={quote_plus(lang, safe=_SAFE)}" for lang in LANGS}


def _lang_slot(url: str) -> tuple[str, str]:
    """The address around its `lang=`: what comes before (the path, '?', the other pairs
    re-encoded, '&' if any) and after (the fragment), as urlsplit, parse_qsl and urlencode
    make them (_lang_slot_parsed). A site link (a permalink, this page's address) is mostly
    plain pairs: those are kept as written rather than decoded and encoded again.
    """
    rest, _, fragment = url.partition("#")
    path, _, query = rest.partition("?")
    if (url[:1] != "/" or url[1:2] == "/" or any(c in url for c in "\t\r\n")
            or not _PLAIN_QUERY.fullmatch(query)):
        return _lang_slot_parsed(url)
    pairs = []
    for pair in query.split("&"):
        key, equals, value = pair.partition("=")
        if pair and key != "lang":   # an '=' in a value is written %3D
            pairs.append(f"{key}={value.replace('=', '%3D')}" if "=" in value
                         else pair if equals else pair + "=")
    return f"{path}?{'&'.join(pairs)}{'&' if pairs else ''}", f"#{fragment}" if fragment else ""


def _lang_slot_parsed(url: str) -> tuple[str, str]:
    """_lang_slot by parsing the address and encoding its query again."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "lang"]
    encoded = urlencode(query, safe=_SAFE)
    return (f"{parts.path}?{encoded}{'&' if encoded else ''}",
            f"#{parts.fragment}" if parts.fragment else "")


def lang_input() -> Markup:
    """The hidden field that carries the language through a GET form."""
    lang = explicit_lang()
    return Markup('<input type="hidden" name="lang" value="%s">') % lang if lang else Markup("")


def language_links() -> list[tuple[str, str, str, bool]]:
    """(lang, its own name, this page in it, whether it is this page's) for the switch."""
    here = request.full_path if request.query_string else request.path
    current = page_lang()
    head, tail = _lang_slot(here)   # the address read once for the three
    return [(lang, SELF_NAMES[lang], f"{head}{_lang_pair(lang)}{tail}", lang == current)
            for lang in LANGS]


def language_switch() -> Markup:
    """The switch every page carries: this page in each language, as plain links.

    Written with escape() rather than Markup's `%`, which wraps each value (the same text).
    """
    links = "".join(
        f'\n    <a href="{escape(href)}" hreflang="{escape(lang)}" lang="{escape(lang)}"'
        f'{_CURRENT if current else ""}>{escape(label)}</a>'
        for lang, label, href, current in language_links())
    named = escape(template_gettext(N_("Language")))
    return Markup(f'<nav class="languages" aria-label="{named}">{links}\n  </nav>')


_CURRENT = ' aria-current="page"'


def _keep_lang(endpoint: str | None, values: dict[str, Any]) -> None:
    """url_for() keeps the page's language on every page address (not on static files)."""
    lang = explicit_lang()
    if lang and endpoint != "static" and "lang" not in values:
        values["lang"] = lang


def _language_of_front_page():
    """`/` without `lang`: the reader's Accept-Language picks the language, by a redirect."""
    if request.path != "/" or "lang" in request.args:
        return None
    wanted = from_accept_language(request.headers.get("Accept-Language"))
    if wanted in (None, DEFAULT_LANG):
        return None
    response = redirect(with_lang(request.full_path if request.query_string else "/", wanted), 302)
    response.headers["Vary"] = "Accept-Language"
    response.headers["Cache-Control"] = "no-cache"
    return response


def _known_api_language():
    """The API refuses a language it does not have, naming the field; a page reads it as English."""
    lang = request.args.get("lang")
    if not request.path.startswith("/api/") or lang is None or pick_lang(lang) is not None:
        return None
    message = Msg("unknown language {lang}; choose one of {langs}", lang=repr(lang[:20]),
                  langs=", ".join(LANGS))
    return current_app.json.response({"valid": False, "errors": [{"field": "lang",
                                                                  "message": message}]}), 400


def _content_language(response):
    """Content-Language on every answer in a language; Vary where Accept-Language chose."""
    response.headers["Content-Language"] = page_lang()
    if request.path == "/" and "lang" not in request.args:
        response.vary.add("Accept-Language")
    return response


class _SayingJSON(DefaultJSONProvider):
    """JSON answers say their sentences (Msg) and texts (Text) in the page language."""

    sort_keys = False   # keep answers in the order INTERFACE.md shows

    @staticmethod
    def default(o: Any) -> Any:
        if isinstance(o, Text):
            return o.en
        return DefaultJSONProvider.default(o)

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if has_request_context() and page_lang() != DEFAULT_LANG:
            obj = say_json(obj)
        return super().dumps(obj, **kwargs)


def named(value: Text) -> Markup:
    """A name as a page shows it: English with the family's Chinese, or the Chinese alone."""
    lang = page_lang()
    if lang == DEFAULT_LANG:
        return Markup('%s <span lang="%s">%s</span>') % (value.en, _script_tag(value.native),
                                                         value.zh)
    return escape(value.in_lang(lang))


def _script_tag(native: str) -> str:
    return "zh-Hans" if native == "zh_hans" else "zh-Hant"

