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

from app.base.i18n import N_, Msg, Text, TileText

from .hand import WinBy

# How the parts of a list are joined: English ", " / "; " / " or " / " and ".
COMMA = N_("{first}, {rest}")
SEMICOLON = N_("{first}; {rest}")
OR = N_("{first} or {rest}")
AND = N_("{first} and {rest}")

SEAT = {"E": Text("E", "東", "东"), "S": Text("S", "南", "南"),
        "W": Text("W", "西", "西"), "N": Text("N", "北", "北")}

# The way of winning as the sentences name it: "a self-draw win", "not a discard"; where no
# family is known, in the Cantonese words every family starts from (app/rules/model.py,
# DEFAULT_WORDS); app/rules/words.py says it in a family's own words.
WAY = {WinBy.SELF_DRAW: Text("self-draw", "自摸", "自摸"),
       WinBy.DISCARD: Text("discard", "食出銃", "食出铳")}


def tile_said(tile) -> TileText:
    """A tile inside a sentence: its notation in English (5s), its name in Chinese (五索, 五条),
    ending in the page family's suit word where the page gives it (TileText).

    >>> from app.hands.tiles import tile
    >>> t = tile_said(tile("5s")); str(t), t.in_lang("zh-Hant"), t.in_lang("zh-Hans")
    ('5s', '五索', '五条')
    """
    return TileText(tile.code, tile.name_zh, tile.name_zh_hans, suit=tile.suit)


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
