"""Plain-text report of a calculation: the breakdown and who pays whom, for the command line."""
from __future__ import annotations

from app.base.i18n import Msg, Text

from .calculation import Calculation
from .payments import fmt


def explain_points(calc: Calculation) -> Msg:
    """The arithmetic sentence, as the tutorial pages write it ("2⁵ = 32 base points")."""
    score = calc.score
    curve = calc.ruleset.curves[score.settings.curve]
    fan = score.capped_fan
    if curve.kind == "doubling":
        power = "2" + _superscript(fan)
        head = Msg("{power} = {points} base points", power=power, points=score.points)
    elif curve.kind == "linear":
        head = Msg("{fan} fan = {points} points", fan=fan, points=score.points)
    else:
        name = curve.name   # a Text: its English alone in the English sentence
        head = Msg("{fan} fan → {points} points on the {table} table", fan=fan,
                   points=score.points, table=Text(name.en, name.zh_hant, name.zh_hans, name.native))
    if score.total_fan != score.capped_fan:
        head = Msg("{fan} fan, capped at {cap}: {sentence}", fan=score.total_fan,
                   cap=score.capped_fan, sentence=head)
    return head


def _superscript(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


def render(calc: Calculation) -> str:
    """The whole result as text."""
    score = calc.score
    lines = [f"Rules: {calc.ruleset.name} ({calc.ruleset.id})"]
    if score.reading is not None:
        lines.append("Grouping: " + " ".join(score.reading.grouping))
    lines.append("Fan breakdown:")
    for item in score.items:
        times = f" ×{item.count}" if item.count > 1 else ""
        if item.counted:
            lines.append(f"  {item.pattern.name.en:<32} {item.pattern.name.zh:<8} {item.fan:>4}{times}")
        else:
            lines.append(f"  {item.pattern.name.en:<32} {item.pattern.name.zh:<8}    —  ({item.note})")
    lines.append(f"Total: {score.total_fan} fan" + (
        f", capped at {score.capped_fan}" if score.capped_fan != score.total_fan else ""))
    if score.below_minimum:
        lines.append(f"Below the minimum of {score.settings.min} fan: not a legal win.")
    lines.append(explain_points(calc))
    lines.append(f"Who pays whom ({calc.ruleset.payments[score.settings.payment].name.en}):")
    for p in calc.payments:
        sign = "+" if p.amount > 0 else ""
        lines.append(f"  {p.seat}  {p.role:<11} {sign}{fmt(p.amount):>8}   {p.reason}")
    return "\n".join(lines)
