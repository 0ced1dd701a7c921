"""The three languages: texts that carry all three, and sentences a page can say in any.

A ruleset's names and explanations are `Text` values, written in the YAML in English,
Traditional Chinese (Hong Kong wording) and Simplified Chinese (Mainland wording). A
sentence the core builds (a refusal, a payment reason) is a `Msg`: it reads as English
wherever a plain string is expected, and keeps its message id and parameters so the web
layer can look it up in a gettext catalog and say it in the reader's language.

>>> m = Msg("pays {n} × {base}", n=2, base=8)
>>> m, m.msgid
('pays 2 × 8', 'pays {n} × {base}')
>>> say(m, "zh-Hant", {"pays {n} × {base}": "付 {n} × {base}"}.get)
'付 2 × 8'
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

LANGS = ("en", "zh-Hant", "zh-Hans")          # what `lang=` accepts, as written in URLs
DEFAULT_LANG = "en"
FIELDS = {"en": "en", "zh-Hant": "zh_hant", "zh-Hans": "zh_hans"}   # lang → YAML key
SCRIPTS = ("zh_hant", "zh_hans")


@dataclass(frozen=True, slots=True)
class Text:
    """A shown text in English, Traditional and Simplified Chinese.

    `native` names the script an English page shows beside the English (a Sichuan name in
    simplified characters, a Hong Kong one in traditional).

    >>> t = Text("Kong blossom", "槓上花", "杠上花", native="zh_hans")
    >>> str(t), t.zh, t.in_lang("zh-Hant")
    ('Kong blossom', '杠上花', '槓上花')
    """

    en: str
    zh_hant: str = ""
    zh_hans: str = ""
    native: str = "zh_hant"

    def __str__(self) -> str:
        return self.en

    def __bool__(self) -> bool:
        return bool(self.en)

    @property
    def zh(self) -> str:
        """The Chinese an English page shows beside the English: the family's own script."""
        return getattr(self, self.native) or self.zh_hant or self.zh_hans

    def in_lang(self, lang: str) -> str:
        """This text in a page language (`en`, `zh-Hant`, `zh-Hans`)."""
        return getattr(self, FIELDS.get(lang, "en")) or self.en


NO_TEXT = Text("")


@dataclass(frozen=True, slots=True)
class TileText(Text):
    """A suited tile's name (五索, 五条): its Chinese ends in its suit's word, which the page's
    family may write otherwise (條 under Sichuan rules in traditional script, 索 under Hong Kong
    rules in simplified); `say` puts the family's word in when the edge gives it.

    >>> t = TileText("5s", "五索", "五条", suit="s")
    >>> t.in_lang("zh-Hant"), t.in_family("zh-Hant", {"s": "條"}), t.in_family("en", {"s": "條"})
    ('五索', '五條', '5s')
    """

    suit: str = ""

    def in_family(self, lang: str, suits: Mapping[str, str] | None) -> str:
        said = self.in_lang(lang)
        word = (suits or {}).get(self.suit) if lang != DEFAULT_LANG else None
        return said[:-1] + word if word else said


def quoted(value: str) -> Text:
    """A value as typed, inside a sentence: quoted in English ('zzz'), plain in Chinese, whose
    sentence puts it in 「」 itself (review B-20).

    >>> quoted("zzz").en, quoted("zzz").in_lang("zh-Hans")
    ("'zzz'", 'zzz')
    """
    return Text(repr(value), value or "''", value or "''")


@dataclass(frozen=True, slots=True)
class Name(Text):
    """A name: written in English sentences as "Half flush 混一色", English and the family's Chinese.

    >>> str(Name("Half flush", "混一色", "混一色")), Name("Half flush", "混一色", "混一色").in_lang("zh-Hans")
    ('Half flush 混一色', '混一色')
    """

    def __str__(self) -> str:
        return f"{self.en} {self.zh}".strip()


class Msg(str):
    """An English sentence that remembers how it was made, so it can be said in another language.

    `msgid` is a gettext message id with `{name}` fields; parameters may themselves be
    `Text` or `Msg` values, said in the same language. Equal to its English wording, so code
    and tests that compare strings keep working.
    """

    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, /, **params: Any) -> Msg:
        english = msgid.format(**{k: _english(v) for k, v in params.items()}) if params else msgid
        made = super().__new__(cls, english)
        made.msgid = msgid
        made.params = params
        return made

    def __reduce__(self):   # copies and pickles keep the message id
        return (_remake, (self.msgid, self.params))


def _remake(msgid: str, params: dict[str, Any]) -> Msg:
    return Msg(msgid, **params)


def _english(value: Any) -> Any:
    if isinstance(value, Text):
        return str(value)
    return value


def N_(msgid: str) -> str:
    """Mark a fixed string for the catalog without translating it here."""
    return msgid


def say(value: Any, lang: str, gettext: Callable[[str], str | None],
        suits: Mapping[str, str] | None = None) -> Any:
    """A `Text` or `Msg` in `lang`, its parameters said the same way; anything else as it is.

    `gettext` maps a message id to its translation (None or "" when there is none: then
    the English stands); `suits` are the page family's suit words, which a tile's name
    (`TileText`) ends in.
    """
    if isinstance(value, TileText):
        return value.in_family(lang, suits)
    if isinstance(value, Text):
        return value.in_lang(lang)
    if isinstance(value, Msg):
        if lang == DEFAULT_LANG and not value.params:
            return str.__str__(value)
        wording = (gettext(value.msgid) or value.msgid) if lang != DEFAULT_LANG else value.msgid
        return wording.format(**{k: say(v, lang, gettext, suits) for k, v in value.params.items()})
    return value


def say_all(value: Any, lang: str, gettext: Callable[[str], str | None],
            suits: Mapping[str, str] | None = None) -> Any:
    """`say` through dicts, lists and tuples: a JSON answer in `lang`."""
    if isinstance(value, dict):
        return {k: say_all(v, lang, gettext, suits) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [say_all(v, lang, gettext, suits) for v in value]
    return say(value, lang, gettext, suits)


def pick_lang(value: str | None) -> str | None:
    """The page language a `lang=` value names, or None when it names none we have.

    >>> [pick_lang(v) for v in ("zh-hant", "zh_Hans", "zh-TW", "EN", "fr", None)]
    ['zh-Hant', 'zh-Hans', 'zh-Hant', 'en', None, None]
    """
    if not value:
        return None
    return _TAGS.get(value.strip().replace("_", "-").lower())


_HANT = ("zh-hant", "zh-tw", "zh-hk", "zh-mo", "zh-hant-tw", "zh-hant-hk", "zh-hant-mo")
_HANS = ("zh-hans", "zh-cn", "zh-sg", "zh", "zh-hans-cn", "zh-hans-sg")
_TAGS = {"en": "en", **{t: "zh-Hant" for t in _HANT}, **{t: "zh-Hans" for t in _HANS}}


def from_accept_language(header: str | None) -> str | None:
    """The language an Accept-Language header prefers among ours, or None for none of them.

    Traditional never falls back to Simplified: a zh-TW reader who would take English next
    gets English, not Simplified.

    >>> from_accept_language("zh-HK,zh;q=0.9,en;q=0.8")
    'zh-Hant'
    >>> from_accept_language("zh-CN,en;q=0.5"), from_accept_language("en-GB,zh-TW;q=0.5")
    ('zh-Hans', 'en')
    >>> from_accept_language("fr"), from_accept_language("zh-Hant-TW")
    (None, 'zh-Hant')
    """
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate((header or "").split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, number = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(number)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            ranked.append((-quality, position, tag.strip().lower()))
    for _, _, tag in sorted(ranked):
        found = _accept(tag)
        if found:
            return found
    return None


def _accept(tag: str) -> str | None:
    """One Accept-Language range: `zh-Hant-*`, `zh-TW`… → Traditional; `en-*` → English."""
    parts = tag.split("-")
    if parts[0] == "en":
        return "en"
    if parts[0] != "zh":
        return None
    rest = parts[1:]
    if not rest:
        return "zh-Hans"
    if rest[0] == "hant" or rest[0] in ("tw", "hk", "mo"):
        return "zh-Hant"
    if rest[0] == "hans" or rest[0] in ("cn", "sg"):
        return "zh-Hans"
    return None
