"""Words the core's sentences share: a name said alone, seats, ways of winning, lists.

Each is a `Text` or a `Msg`, so a sentence built from it is said whole in the reader's
language; in English each reads exactly as the plain words always did.

>>> listing(["a", "b", "c"]), listing(["a", "b"], OR), listing(["a"])
('a, b, c', 'a or b', 'a')
>>> str(SEAT["N"]), SEAT["N"].in_lang("zh-Hant"), str(WAY[WinBy.DISCARD])
('N', '北', 'discard')
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.base.i18n import N_, Msg, Text

from .hand import WinBy

# How the parts of a list are joined: English ", " / "; " / " or " / " and ".
COMMA = N_("{first}, {rest}")
SEMICOLON = N_("{first}; {rest}")
OR = N_("{first} or {rest}")
AND = N_("{first} and {rest}")

SEAT = {"E": Text("E", "東", "东"), "S": Text("S", "南", "南"),
        "W": Text("W", "西", "西"), "N": Text("N", "北", "北")}

# The way of winning as the sentences name it: "a self-draw win", "not a discard"; where no
# family is known, in the Cantonese words every family starts from (rulesets.DEFAULT_WORDS).
WAY = {WinBy.SELF_DRAW: Text("self-draw", "自摸", "自摸"),
       WinBy.DISCARD: Text("discard", "食出銃", "食出铳")}


def way_of(ruleset, by: WinBy) -> Text:
    """The way of winning in the family's own words (`words:` self_draw, discard_win):
    自摸; 食出銃 (Cantonese), 点炮胡 (Mandarin)."""
    key = "self_draw" if by is WinBy.SELF_DRAW else "discard_win"
    return Text(WAY[by].en, *(getattr(ruleset.words_in(lang), key) for lang in ("zh-Hant", "zh-Hans")))


def discard_words(ruleset) -> dict[str, Text]:
    """The family's word for discarding the winning tile (出銃, 點炮; 出铳, 点炮) as a sentence
    uses it: `discard`, `discarded` and `discarder`, each reading as that English word."""
    hant, hans = (ruleset.words_in(lang).discard for lang in ("zh-Hant", "zh-Hans"))
    return {"discard": Text("discard", hant, hans), "discarded": Text("discarded", hant, hans),
            "discarder": Text("discarder", f"{hant}者", f"{hans}者")}


def house_rule_switch(ruleset, option: str) -> Text:
    """How to switch a house rule on: `options=seven-pairs` in English, the ticked box in Chinese."""
    name = ruleset.by_id[option].name if option in ruleset.by_id else None
    hant = f"在家規中勾選「{name.zh_hant}」" if name else "在家規中勾選"
    hans = f"在家规中勾选“{name.zh_hans}”" if name else "在家规中勾选"
    return Text(f"options={option}", hant, hans)


def plain(name: Text) -> Text:
    """A name said alone: English without the Chinese beside it (what `name.en` wrote)."""
    return Text(name.en, name.zh_hant, name.zh_hans, name.native)


def seat(letter: str | None) -> Any:
    """A seat letter as a sentence says it (東 in Chinese); anything else as it is."""
    return SEAT.get(letter or "", letter)


def listing(items: Iterable[Any], how: str = COMMA) -> Any:
    """Items joined into one phrase, `how` saying the joint in each language."""
    parts = list(items)
    if not parts:
        return ""
    joined = parts[-1]
    for item in reversed(parts[:-1]):
        joined = Msg(how, first=item, rest=joined)
    return joined
