"""Plain-text report of a calculation: the breakdown and who pays whom, for the command line."""
from __future__ import annotations

from .payments import fmt
from .request import Calculation


def explain_points(calc: Calculation) -> str:
    """The arithmetic sentence, as the tutorial pages write it ("2⁵ = 32 base points")."""
    score = calc.score
    curve = calc.ruleset.curves[score.settings.curve]
    fan = score.capped_fan
    if curve.kind == "doubling":
        head = f"2{_superscript(fan)} = {score.points} base points"
    elif curve.kind == "linear":
        head = f"{fan} fan = {score.points} points"
    else:
        head = f"{fan} fan → {score.points} points on the {curve.name.en} table"
    if score.total_fan != score.capped_fan:
        head = f"{score.total_fan} fan, capped at {score.capped_fan}: " + head
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
