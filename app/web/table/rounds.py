"""The round ledger: a whole Sichuan blood-battle round, as a page (GET) and as POST /api/settle."""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import NamedTuple
from urllib.parse import urlencode

from flask import Blueprint, current_app, jsonify, redirect, render_template, request
from flask_babel import gettext as _

from app.base.errors import FieldError, HandError
from app.base.jsontext import nesting_depth
from app.hands.hand import SEATS
from app.rules.model import Ruleset
from app.scoring.budget import TooMuchWork
from app.scoring.calculation import Calculation
from app.table.settlement import Ledger
from app.table.sheet import Entry
from app.vocabulary.hand import describe
from app.vocabulary.round import parse_round_text, read_round, settle_round
from app.vocabulary.round_steps import (
    STEPS,
    TextLine,
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
from app.web.common.i18n import page_lang, say_here, with_lang
from app.web.common.picker import MELD_KINDS, PICKER_ACTIONS, apply_picker
from app.web.common.picker import picker_state as picker_view
from app.web.common.present import number, permalink, query_limit

from .sheet import add_link, carried_players

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


@bp.post("/api/settle")
def settle_api():
    body = request.get_data(cache=False, as_text=False)   # at most bodies.MAX_BODY: 413 past it
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return jsonify({"valid": False, "errors": [{"field": "", "message": _("the body is not %(encoding)s", encoding="UTF-8")}]}), 400
    if nesting_depth(text) > MAX_DEPTH:
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


@dataclass(frozen=True, slots=True)
class RoundAsk:
    """What a /round address asks: the round so far, the sheet it carries, the step being entered."""

    rules: str
    text: str
    carried: Mapping[str, str]      # `sheet` and `entry`, kept along every link
    step: str                       # one of STEPS, or ""
    fields: Mapping[str, str]       # the step form's fields
    row: int | None                 # the line a step changes (None: a new line)


class Answer(NamedTuple):
    """Where an address that asks for a change goes, or what the page shows instead."""

    ask: RoundAsk
    link: str | None = None                 # the changed round's address
    errors: tuple[FieldError, ...] = ()     # of the round
    step_errors: tuple[FieldError, ...] = ()   # of the step's form


@dataclass(frozen=True, slots=True)
class RoundLine:
    """A line of the round as the events table shows it, with where its edit and remove go."""

    line: TextLine
    edits: tuple[tuple[str, str], ...]     # (seat, link); seat "" for a line of one step
    drop: str
    words: str = ""                        # the line in the page's words ("" : shown as typed)


@dataclass(frozen=True, slots=True)
class RoundPage:
    """What round.html shows: the round's lines, its ledger, the step forms and their errors."""

    ask: RoundAsk
    ruleset: Ruleset
    rulesets: tuple[Ruleset, ...]           # those with a settlement, for the rules select
    lines: tuple[RoundLine, ...]
    placed: Mapping[int, list[FieldError]]  # errors by line number
    errors: tuple[FieldError, ...]          # errors of no line
    all_errors: tuple[FieldError, ...]
    step_errors: Mapping[str, list[str]]    # the step form's errors by field
    ledger: Ledger | None
    wins: Mapping[int, str]                 # a win's step -> its breakdown's link
    link: str                               # the round's own address ("" until it settles)
    sheet_add: str                          # "Add this round to the sheet" ("" until it settles)
    step_links: Mapping[str, str]           # each step's form, opened
    picker: dict                            # the open step's picker (picker_state)
    idle_picker: dict                       # a closed step's
    example: str = EXAMPLE
    palette: tuple = PICKER_TILES
    seats: tuple[str, ...] = SEATS
    players: Mapping[str, str] = field(default_factory=dict)   # seat -> name, from a carried sheet
    meld_kinds: tuple = MELD_KINDS

    def fields_for(self, step: str) -> Mapping[str, str]:
        """The fields a step's form shows: those typed when it is the open one."""
        return self.ask.fields if self.ask.step == step else {}

    def errors_of(self, step: str, field: str) -> list[str]:
        """The errors beside one field of one step's form."""
        return self.step_errors.get(field, []) if self.ask.step == step else []

    def changing(self, step: str) -> bool:
        """The step's form changes a line already written (rather than adding one)."""
        return self.ask.step == step and self.ask.row is not None


@bp.get("/round")
def round_page():
    """The round of the link; a step added, a tap on a picker or a line removed answer a redirect."""
    rulesets = current_app.extensions["rulesets"]
    answer = _answer(_round_ask(request.args), request.args, rulesets)
    if answer.link is not None:
        return redirect(answer.link)
    ask = _with_missing(answer.ask)
    ledger, errors, status = _settled(ask, answer.errors, rulesets)
    page = _page_of(ask, ledger, errors, answer.step_errors, rulesets)
    return render_template("round.html", page=page, ruleset=page.ruleset,
                           embed=request.args.get("embed") == "1"), status


def _round_ask(args) -> RoundAsk:
    step = args.get("step", "")
    return RoundAsk(
        rules=args.get("rules", DEFAULT_ROUND_RULES), text=args.get("round", ""),
        carried={k: args[k] for k in ("sheet", "entry") if args.get(k)},
        step=step if step in STEPS else "",
        fields={k: ",".join(args.getlist(k)) if k == "events" else args.get(k, "") for k in STEP_FIELDS
                if args.get(k)},
        row=_line_number(args.get("row", "")))


def _answer(ask: RoundAsk, args, rulesets) -> Answer:
    """What the address asks for beyond the round: a line removed, a step's tap or its line added."""
    limit = query_limit()
    if len(request.query_string) > limit:
        return Answer(replace(ask, text=ask.text[:limit]), errors=(FieldError(
            "round", _("the round is too long for a link (at most %(most)s characters)", most=limit)),))
    if "drop" in args:
        try:
            dropped = drop_line(ask.text, _line_number(args["drop"]))
        except HandError as err:
            return Answer(ask, errors=tuple(err.errors))
        return Answer(ask, _round_link(ask.rules, dropped, ask.carried) + "#events")
    if ask.step:
        return _step_answer(ask, args, rulesets)
    if not ask.text and (not args.get("rules") or ask.carried):
        return Answer(replace(ask, step="missing"))   # a new round (one for a sheet too) starts with the missing suits
    return Answer(ask)


def _step_answer(ask: RoundAsk, args, rulesets) -> Answer:
    """A tap on the step's picker (the address follows it, as the calculator's does), or its line added."""
    action = next((a for a in PICKER_ACTIONS if a in args), None)
    if action is not None:
        fields, problem = apply_picker({**ask.fields, action: args[action]}, action)
        if problem is not None:
            return Answer(replace(ask, fields=fields), step_errors=(problem,))
        kept = {"row": str(ask.row)} if ask.row is not None else {}
        return Answer(ask, _round_link(ask.rules, ask.text, ask.carried, step=ask.step, **kept, **fields)
                      + "#step-" + ask.step)
    if args.get("do") != "add":
        return Answer(ask)
    try:
        added = _apply_step(ask.step, ask.fields, ask.text, ask.row, ask.rules, rulesets)
    except HandError as err:
        return Answer(ask, step_errors=tuple(err.errors))
    return Answer(ask, _round_link(ask.rules, added, ask.carried) + "#events")


def _with_missing(ask: RoundAsk) -> RoundAsk:
    """The missing-suits step opens with the round's own missing line, unless its fields are given."""
    if ask.step != "missing" or any(k.startswith("missing_") for k in ask.fields):
        return ask
    line = next((ln.text for ln in text_lines(ask.text) if ln.kind == "missing"), "")
    return replace(ask, fields={**ask.fields, **fields_of(line)})


def _settled(ask: RoundAsk, errors: tuple[FieldError, ...], rulesets) -> tuple[Ledger | None, tuple, int]:
    """The round settled (None while it is empty or refused), its errors, the page's status."""
    if not ask.text.strip() or errors:
        return None, errors, 200
    try:
        return settle_round(read_round(parse_round_text(ask.text, ask.rules)), rulesets), (), 200
    except HandError as err:
        return None, tuple(err.errors), 200
    except TooMuchWork as err:   # the round comes back as it was, the refusal beside it
        return None, tuple(err.errors), 413


def _page_of(ask: RoundAsk, ledger: Ledger | None, errors: tuple[FieldError, ...],
                step_errors: tuple[FieldError, ...], rulesets) -> RoundPage:
    rules, text, carried = ask.rules, ask.text, ask.carried
    ruleset = rulesets.get(rules) or rulesets[DEFAULT_ROUND_RULES]
    placed, loose = errors_by_line(text, errors)
    picked = {k: v for k, v in ask.fields.items() if k in PICKER_FIELDS}
    return RoundPage(
        ask=ask, ruleset=ruleset,
        rulesets=tuple(sorted((r for r in rulesets.values() if r.settlement is not None), key=lambda r: r.id)),
        lines=_round_lines(ask, ledger, ruleset),
        placed=placed, errors=tuple(loose), all_errors=errors, step_errors=_by_field(list(step_errors)),
        ledger=ledger, wins={step: with_lang(win_link(calc)) for step, calc in ledger.wins.items()} if ledger else {},
        link=with_lang(permalink({"rules": rules, "round": text}, "/round")) if ledger else "",
        sheet_add=with_lang(_sheet_add(text, rules, carried)) if ledger else "",
        step_links={name: _round_link(rules, text, carried, step=name) + "#step-" + name for name in STEPS},
        picker=picker_view(picked, ruleset), idle_picker=picker_view({}, ruleset),
        players=carried_players(carried))


def _round_lines(ask: RoundAsk, ledger: Ledger | None = None, ruleset: Ruleset | None = None
                 ) -> tuple[RoundLine, ...]:
    """The round's lines as the events table shows them (blank lines and comments left out),
    each said in words where the ledger reads it."""
    rules, text, carried = ask.rules, ask.text, ask.carried
    return tuple(RoundLine(ln, tuple(_edit_links(ln, rules, text, carried)),
                           _round_link(rules, text, carried, drop=str(ln.number)),
                           _line_words(ln, ledger, ruleset, carried_players(carried)))
                 for ln in text_lines(text) if ln.kind != "note")


def _line_words(line: TextLine, ledger: Ledger | None, ruleset: Ruleset | None,
                players: Mapping[str, str]) -> str:
    """A line as the players say it: a kong or a win as the ledger labels it ("南家暗杠 五条"),
    the missing suits by seat and suit; "" where it cannot be read (then it is shown as typed)."""
    if ledger is not None and line.event is not None and line.event < len(ledger.labels):
        return str(say_here(ledger.labels[line.event]))
    if line.kind != "missing" or ruleset is None:
        return ""
    words = ruleset.words_in(page_lang())
    found = fields_of_missing(line.text)
    said = [_("%(seat)s: %(suit)s", seat=_seat_said(seat, words, players), suit=words.suits[suit])
            for seat, suit in found.items() if suit in words.suits]
    return _("Missing suits: %(list)s", list=_(", ").join(said)) if said else ""


def _seat_said(seat: str, words, players: Mapping[str, str]) -> str:
    wind = seat if page_lang() == "en" else words.winds[seat]
    return f"{players[seat]} ({wind})" if players.get(seat) else wind


def fields_of_missing(text: str) -> dict[str, str]:
    """A `missing E=p S=m` line's suits by seat (what it says; the ledger checks it)."""
    pairs = (w.split("=", 1) for w in text.split()[1:] if "=" in w)
    return {k.upper(): v.lower() for k, v in pairs if k.upper() in SEATS}


def _line_number(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdecimal() and len(text) < 4 else None


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
    seat, line = _step_line(step, fields, text)
    added = put_line(text, line, row if step in ("kong", "win") else None)
    try:
        settle_round(read_round(parse_round_text(added, rules)), rulesets)
    except HandError as err:
        own = _own_errors(added, line, seat, err.errors)
        if own:
            raise HandError(own) from None
    return added


def _step_line(step: str, fields: Mapping[str, str], text: str) -> tuple[str, str]:
    """The line a step's form writes, and the seat of a wall's part ("" for the other steps)."""
    if step == "missing":
        return "", missing_line({s: fields.get(f"missing_{s}", "") for s in SEATS})
    if step == "kong":
        return "", kong_line(fields)
    if step == "win":
        return "", win_line(fields)
    seat, part = wall_part(fields)
    current = next((ln.text for ln in text_lines(text) if ln.kind == "wall"), "")
    return seat, wall_line({**wall_parts(current), seat: part})


def _own_errors(added: str, line: str, seat: str, errors) -> list[FieldError]:
    """The errors of the line just written (for a wall: of its seat's part), the seat taken off."""
    number = next(ln.number for ln in reversed(text_lines(added)) if ln.text.strip() == line)
    placed, _loose = errors_by_line(added, errors)
    return [FieldError(e.field.removeprefix(f"{seat} "), e.message) for e in placed.get(number, [])
            if not seat or e.field.startswith(f"{seat} ")]


def _sheet_add(text: str, rules: str, carried: dict[str, str]) -> str:
    """"Add this round to the sheet": the round as one ledger entry of the carried (or a new) sheet."""
    line = format_entry(Entry(round_text=text))
    return add_link(line, carried.get("sheet", ""), rules, {}, carried.get("entry", ""))
