"""A teacher's quiz: exactly the hands a teacher wrote, in order, one description a line.

A line is the hand description's words, `name=value`, separated by spaces or `&`, as a game
sheet's line is (`hand=123m456m789m234p55s by=self-draw seat=S`); a first word without `=`
is the hand itself (`123m456m789m234p55s by=self-draw`). A line may also set the table's
dials (`min=`, `cap=`, …) for its hand. Blank lines and lines starting with `#` are skipped.

>>> read_lines(split_lines(["123m456m789m234p55s by=self-draw\\n# a note", "hand=111m222p333s444z55z&seat=S"]))
({'hand': '123m456m789m234p55s', 'by': 'self-draw'}, {'hand': '111m222p333s444z55z', 'seat': 'S'})
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from app.base.errors import FieldError, HandError
from app.base.i18n import Msg
from app.rules.model import Ruleset
from app.scoring.calculation import Calculation

from .request import score as calculate
from .sheet import DIAL_KEYS, HAND_KEYS

MAX_HANDS = 40
ASKS = {"fan": Msg("the total fan"), "breakdown": Msg("every item that counts"),
        "payments": Msg("what each seat gains or pays")}
REVEALS = ("after", "never")
LINE_KEYS = tuple(k for k in HAND_KEYS if k not in ("ticks", "fan")) + DIAL_KEYS


def split_lines(values: Sequence[str]) -> list[str]:
    """The teacher's lines: each value of `hands` may hold several, one per line."""
    lines = [ln.strip() for v in values for ln in v.splitlines()]
    return [ln for ln in lines if ln and not ln.startswith("#")]


def read_line(line: str, number: int) -> dict[str, str]:
    """One line as a hand description; a HandError on field `hands` naming the line."""
    words = [w for w in re.split(r"[\s&]+", line) if w]
    params: dict[str, str] = {}
    for index, word in enumerate(words):
        key, eq, value = word.partition("=")
        if not eq and index == 0:
            key, value = "hand", word
        elif not eq:
            raise HandError.single("hands", Msg("hand {n}: '{word}' is not {form}", n=number,
                                                word=word[:20], form="name=value"))
        if key not in LINE_KEYS:
            raise HandError.single("hands", Msg("hand {n}: '{key}' is not part of a hand; use"
                                                " {keys}", n=number, key=key[:20],
                                                keys=", ".join(LINE_KEYS)))
        params[key] = value
    if not params.get("hand"):
        raise HandError.single("hands", Msg("hand {n}: no tiles; a quiz hand needs {field} (MPSZ"
                                            " notation)", n=number, field="hand=…"))
    return params


def read_lines(lines: Sequence[str]) -> tuple[dict[str, str], ...]:
    if not lines:
        raise HandError.single("hands", Msg("no hands: give one hand description a line"))
    if len(lines) > MAX_HANDS:
        raise HandError.single("hands", Msg("{n} hands is more than a quiz takes ({most})",
                                            n=len(lines), most=MAX_HANDS))
    return tuple(read_line(line, i) for i, line in enumerate(lines, 1))


def quiz_hand(ruleset: Ruleset, line: Mapping[str, str], dials: Mapping[str, str],
              number: int) -> Calculation:
    """Score hand `number` of the quiz: its line over the quiz's own rules and dials."""
    params = {**{k: v for k, v in dials.items() if k in DIAL_KEYS and v}, **line,
              "rules": ruleset.id}
    try:
        return calculate(params, {ruleset.id: ruleset})
    except HandError as err:
        raise HandError([FieldError("hands", Msg("hand {n}: {field}: {message}", n=number,
                                                 field=e.field, message=e.message)
                                    if e.field else Msg("hand {n}: {message}", n=number,
                                                        message=e.message))
                         for e in err.errors]) from err


def format_line(params: Mapping[str, str]) -> str:
    """A hand description as a quiz line (the inverse of read_line)."""
    return " ".join(f"{k}={params[k]}" for k in LINE_KEYS if params.get(k))


__all__ = ["ASKS", "REVEALS", "MAX_HANDS", "split_lines", "read_line", "read_lines",
           "quiz_hand", "format_line"]
