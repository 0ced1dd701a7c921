"""The round ledger: a whole Sichuan blood-battle round, as a page (GET) and as POST /api/settle."""
from __future__ import annotations

import json
from collections.abc import Mapping
from urllib.parse import urlencode

from flask import Blueprint, current_app, jsonify, redirect, render_template, request
from flask_babel import gettext as _

from app.base.errors import FieldError, HandError
from app.hands.hand import SEATS
from app.scoring.budget import TooMuchWork
from app.scoring.calculation import Calculation
from app.table.settlement import KONG_KINDS, Ledger
from app.table.sheet import Entry
from app.vocabulary.hand import describe
from app.vocabulary.round import parse_round_text, read_round, settle_round
from app.vocabulary.round_steps import (
    STEPS,
    drop_line,
    errors_by_line,
    fields_of,
    kong_line,
    missing_line,
    put_line,
    text_lines,
    wall_fields,
    wall_line,
    wall_part,
    wall_parts,
    win_line,
)
from app.vocabulary.sheet import format_entry
from app.web.common.forms import PICKER_TILES
from app.web.common.i18n import with_lang
from app.web.common.picker import MELD_KINDS, PICKER_ACTIONS, apply_picker
from app.web.common.picker import picker_state as picker_view
from app.web.common.present import number, permalink, query_limit

from .sheet import add_link

bp = Blueprint("rounds", __name__)
DEFAULT_ROUND_RULES = "sichuan"   # a round without `rules=`: a blood battle


@bp.record_once
def _words_of_a_round(state) -> None:
    """A round page without `rules=` is said in its default family's words (胡牌, not 食糊)."""
    state.app.extensions.setdefault("page_default_rules", {})["rounds.round_page"] = DEFAULT_ROUND_RULES

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
        return jsonify({"valid": False, "errors": [{"field": "", "message": _("the body is not %(encoding)s", encoding="UTF-8")}]}), 400
    if _depth(text) > MAX_DEPTH:
        return jsonify({"valid": False, "errors": [{"field": "", "message":
                        _("the %(format)s nests deeper than a round does (at most %(most)s levels)",
                          format="JSON", most=MAX_DEPTH)}]}), 400
    try:
        data = json.loads(text)
    except ValueError as err:
        return jsonify({"valid": False, "errors": [{"field": "", "message": _("not %(format)s: %(error)s", format="JSON", error=err)}]}), 400
    try:
        ledger = settle_round(read_round(data), current_app.extensions["rulesets"])
    except HandError as err:
        return jsonify({"valid": False, "errors": [{"field": e.field, "message": e.message}
                                                   for e in err.errors]}), 400
    return jsonify(ledger_json(ledger))


STEP_FIELDS = ("seat", "kind", "tile", "from", "held", "by", "hand", "melds", "win", "events", "draft",
               "target", "newmeld", "meldsat", "status", *(f"missing_{seat}" for seat in SEATS))
PICKER_FIELDS = ("hand", "melds", "draft", "target", "newmeld", "meldsat")   # what a step's picker reads
STEP_NAMES = {"missing": "the missing suits", "kong": "a kong", "win": "a win", "wall": "the end of the wall"}


@bp.get("/round")
def round_page():
    rulesets = current_app.extensions["rulesets"]
    with_rounds = sorted((r for r in rulesets.values() if r.settlement is not None), key=lambda r: r.id)
    args = request.args
    rules = args.get("rules", DEFAULT_ROUND_RULES)
    text = args.get("round", "")
    carried = {k: args[k] for k in ("sheet", "entry") if args.get(k)}
    errors: list[FieldError] = []
    ledger = None
    limit = query_limit()
    step = args.get("step", "") if args.get("step", "") in STEPS else ""
    fields = {k: ",".join(args.getlist(k)) if k == "events" else args.get(k, "") for k in STEP_FIELDS
              if args.get(k)}
    row = _line_number(args.get("row", ""))
    step_errors: list[FieldError] = []
    if len(request.query_string) > limit:
        errors.append(FieldError("round", _("the round is too long for a link (at most %(most)s characters)",
                                            most=limit)))
        text = text[:limit]
    elif "drop" in args:
        try:
            return redirect(_round_link(rules, drop_line(text, _line_number(args["drop"])), carried) + "#events")
        except HandError as err:
            errors += err.errors
    elif step:
        action = next((a for a in PICKER_ACTIONS if a in args), None)
        if action is not None:
            fields, problem = apply_picker({**fields, action: args[action]}, action)
            if problem is None:   # the address follows the tap, as the calculator's does
                kept = {"row": str(row)} if row is not None else {}
                return redirect(_round_link(rules, text, carried, step=step, **kept, **fields)
                                + "#step-" + step)
            step_errors.append(problem)
        elif args.get("do") == "add":
            try:
                added = _apply_step(step, fields, text, row, rules, rulesets)
                return redirect(_round_link(rules, added, carried) + "#events")
            except HandError as err:
                step_errors += err.errors
    elif not text and not args.get("rules"):
        step = "missing"      # a new round starts with the suits each player declared missing
    if step == "missing" and not any(k.startswith("missing_") for k in fields):
        fields.update(fields_of(next((ln.text for ln in text_lines(text) if ln.kind == "missing"), "")))
    status = 200
    if text.strip() and not errors:
        try:
            ledger = settle_round(read_round(parse_round_text(text, rules)), rulesets)
        except HandError as err:
            errors = list(err.errors)
        except TooMuchWork as err:   # the round comes back as it was, the refusal beside it
            errors = list(err.errors)
            status = 413
    placed, loose = errors_by_line(text, tuple(errors))
    ruleset = rulesets.get(rules) or rulesets[DEFAULT_ROUND_RULES]
    lines = [ln for ln in text_lines(text) if ln.kind != "note"]
    return render_template(
        "round.html", embed=args.get("embed") == "1", rulesets=with_rounds, rules=rules, text=text, errors=loose, placed=placed,
        all_errors=errors, ledger=ledger, example=EXAMPLE, win_link=lambda calc: with_lang(win_link(calc)),
        link=with_lang(permalink({"rules": rules, "round": text}, "/round")) if ledger else "",
        carried=carried, sheet_add=with_lang(_sheet_add(text, rules, carried)) if ledger else "",
        lines=lines, step=step, fields=fields, row=row, step_errors=_by_field(step_errors),
        step_name=STEP_NAMES.get(step, ""), ruleset=ruleset, palette=PICKER_TILES, seats=SEATS,
        picker=picker_view({k: v for k, v in fields.items() if k in PICKER_FIELDS}, ruleset),
        idle_picker=picker_view({}, ruleset),
        meld_kinds=MELD_KINDS, kong_kinds=KONG_KINDS, edit_link=lambda ln: _edit_links(ln, rules, text, carried),
        drop_link=lambda ln: _round_link(rules, text, carried, drop=str(ln.number)),
        step_link=lambda name: _round_link(rules, text, carried, step=name) + "#step-" + name), status


def _line_number(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() and len(text) < 4 else None


def _round_link(rules: str, text: str, carried: Mapping[str, str], **extra: str) -> str:
    """The ledger page for this round, the sheet it carries kept along."""
    query = [("rules", rules), ("round", text)] + list(carried.items()) + list(extra.items())
    return with_lang("/round?" + urlencode([(k, v) for k, v in query if v], safe=",:"))


def _edit_links(line, rules: str, text: str, carried) -> list[tuple[str, str]]:
    """Where "edit" goes for one line: its step, open with the line's fields (a wall: one per seat:
    (the seat, the link); "" for a line of one step)."""
    if line.kind in ("kong", "win"):
        return [("", _round_link(rules, text, carried, step=line.kind, row=str(line.number),
                                 **fields_of(line.text)) + "#step-" + line.kind)]
    if line.kind == "missing":
        return [("", _round_link(rules, text, carried, step="missing") + "#step-missing")]
    if line.kind == "wall":
        return [(seat, _round_link(rules, text, carried, step="wall", **wall_fields(line.text, seat))
                 + "#step-wall") for seat in wall_parts(line.text)]
    return []


def _by_field(errors: list[FieldError]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for e in errors:
        found.setdefault(e.field, []).append(e.message)
    return found


def _apply_step(step: str, fields: Mapping[str, str], text: str, row: int | None, rules: str,
                rulesets) -> str:
    """The round's text with the step's line written in; refused when the line itself is wrong."""
    seat = ""
    if step == "missing":
        line = missing_line({s: fields.get(f"missing_{s}", "") for s in SEATS})
    elif step == "kong":
        line = kong_line(fields)
    elif step == "win":
        line = win_line(fields)
    else:
        seat, part = wall_part(fields)
        current = next((ln.text for ln in text_lines(text) if ln.kind == "wall"), "")
        line = wall_line({**wall_parts(current), seat: part})
    added = put_line(text, line, row if step in ("kong", "win") else None)
    try:
        settle_round(read_round(parse_round_text(added, rules)), rulesets)
    except HandError as err:
        number = next(ln.number for ln in reversed(text_lines(added)) if ln.text.strip() == line)
        placed, _ = errors_by_line(added, err.errors)
        own = [e for e in placed.get(number, []) if step != "wall" or e.field.startswith(f"{seat} ")]
        if own:
            raise HandError([FieldError(e.field.removeprefix(f"{seat} "), e.message) for e in own]) from None
    return added


def _sheet_add(text: str, rules: str, carried: dict[str, str]) -> str:
    """"Add this round to the sheet": the round as one ledger entry of the carried (or a new) sheet."""
    line = format_entry(Entry(round_text=text))
    return add_link(line, carried.get("sheet", ""), rules, {}, carried.get("entry", ""))
