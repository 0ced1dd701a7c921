"""The round ledger: a whole Sichuan blood-battle round, as a page (GET) and as POST /api/settle."""
from __future__ import annotations

import json

from flask import Blueprint, current_app, jsonify, render_template, request

from ..description import describe
from ..errors import FieldError, HandError
from ..request import Calculation
from ..settlement import Ledger, parse_round_text, read_round, settle_round
from .present import MAX_QUERY, number, permalink

bp = Blueprint("rounds", __name__)

MAX_DEPTH = 8             # a round is at most four objects deep
EXAMPLE = """missing E=p S=m W=s N=p
win E self-draw hand=123s456s789s234s55s
kong S concealed 9p
kong W exposed 2m from N
wall S hand=123p456p23p55p melds=ckong:9999p; W hand=1357m1357p46m melds=kong:2222m; N hand=13m456m789m12p33s8m"""


def win_link(calc: Calculation) -> str:
    """The calculator link that shows one win's breakdown."""
    params = {"rules": calc.ruleset.id, **describe(calc.hand)}
    if calc.table.discarder:
        params["discarder"] = calc.table.discarder
    if calc.table.won:
        params["won"] = ",".join(sorted(calc.table.won))
    if calc.settings.options:
        params["options"] = ",".join(sorted(calc.settings.options))
    return permalink(params)


def ledger_json(ledger: Ledger) -> dict:
    """The answer of POST /api/settle."""
    labels = ledger.labels
    return {
        "rules": ledger.ruleset.id,
        "valid": True,
        "lines": [{"step": line.step, "event": labels[line.step] if line.step < len(labels) else "end",
                   "kind": line.kind, "payer": line.payer, "payee": line.payee,
                   "amount": number(line.amount), "reason": line.reason} for line in ledger.lines],
        "running": [{seat: number(v) for seat, v in totals.items()} for totals in ledger.running],
        "totals": {seat: number(v) for seat, v in ledger.totals.items()},
        "wins": [{"step": step, "seat": ledger.round.events[step].seat,
                  "total_fan": calc.score.total_fan, "points": calc.score.points,
                  "permalink": win_link(calc)} for step, calc in sorted(ledger.wins.items())],
        "end": [{"seat": e.seat, "pig": e.pig, "ready": e.ready, "best": e.best,
                 "best_tile": e.best_tile.code if e.best_tile else None} for e in ledger.end],
    }


def _depth(text: str) -> int:
    """How deeply the JSON text nests objects and lists (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


@bp.post("/api/settle")
def settle_api():
    body = request.get_data(cache=False, as_text=False)   # at most bodies.MAX_BODY: 413 past it
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return jsonify({"valid": False, "errors": [{"field": "", "message": "the body is not UTF-8"}]}), 400
    if _depth(text) > MAX_DEPTH:
        return jsonify({"valid": False, "errors": [{"field": "", "message":
                        f"the JSON nests deeper than a round does (at most {MAX_DEPTH} levels)"}]}), 400
    try:
        data = json.loads(text)
    except ValueError as err:
        return jsonify({"valid": False, "errors": [{"field": "", "message": f"not JSON: {err}"}]}), 400
    try:
        ledger = settle_round(read_round(data), current_app.extensions["rulesets"])
    except HandError as err:
        return jsonify({"valid": False, "errors": [{"field": e.field, "message": e.message}
                                                   for e in err.errors]}), 400
    return jsonify(ledger_json(ledger))


@bp.get("/round")
def round_page():
    rulesets = current_app.extensions["rulesets"]
    with_rounds = sorted((r for r in rulesets.values() if r.settlement is not None), key=lambda r: r.id)
    rules = request.args.get("rules", "sichuan")
    text = request.args.get("round", "")
    errors: list[FieldError] = []
    ledger = None
    if len(request.query_string) > MAX_QUERY:
        errors.append(FieldError("round", f"the round is too long for a link (at most {MAX_QUERY} characters)"))
    elif text.strip():
        try:
            ledger = settle_round(read_round(parse_round_text(text, rules)), rulesets)
        except HandError as err:
            errors = list(err.errors)
    return render_template("round.html", rulesets=with_rounds, rules=rules, text=text,
                           errors=errors, ledger=ledger, example=EXAMPLE, win_link=win_link,
                           link=permalink({"rules": rules, "round": text}, "/round") if ledger else "")
