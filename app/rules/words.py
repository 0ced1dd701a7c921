"""A family's own words in the core's sentences: its way of winning, its word for the discard,
how to switch one of its house rules on (the ruleset's `words:` and pattern names)."""
from __future__ import annotations

from app.base.i18n import Text
from app.hands.hand import WinBy
from app.hands.phrases import WAY

from .model import Ruleset


def way_of(ruleset: Ruleset, by: WinBy) -> Text:
    """The way of winning in the family's own words (`words:` self_draw, discard_win):
    自摸; 食出銃 (Cantonese), 点炮胡 (Mandarin)."""
    key = "self_draw" if by is WinBy.SELF_DRAW else "discard_win"
    return Text(WAY[by].en, *(getattr(ruleset.words_in(lang), key) for lang in ("zh-Hant", "zh-Hans")))


def discard_words(ruleset: Ruleset) -> dict[str, Text]:
    """The family's word for discarding the winning tile (出銃, 點炮; 出铳, 点炮) as a sentence
    uses it: `discard`, `discarded` and `discarder`, each reading as that English word."""
    hant, hans = (ruleset.words_in(lang) for lang in ("zh-Hant", "zh-Hans"))
    return {"discard": Text("discard", hant.discard, hans.discard),
            "discarded": Text("discarded", hant.discard, hans.discard),
            "discarder": Text("discarder", hant.discarder, hans.discarder)}


def house_rule_switch(ruleset: Ruleset, option: str) -> Text:
    """How to switch a house rule on: `options=seven-pairs` in English, the ticked box in Chinese."""
    name = ruleset.by_id[option].name if option in ruleset.by_id else None
    hant_rule, hans_rule = (ruleset.words_in(lang).house_rule for lang in ("zh-Hant", "zh-Hans"))
    hant = f"在「{hant_rule}」中剔選「{name.zh_hant}」" if name else f"在「{hant_rule}」中剔選"
    hans = f"在“{hans_rule}”中勾选“{name.zh_hans}”" if name else f"在“{hans_rule}”中勾选"
    return Text(f"options={option}", hant, hans)
