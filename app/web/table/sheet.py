"""The game sheet (/sheet): a night's hands, running totals and who pays whom, all in the link.

Every step is a GET that returns a new link: adding a hand (from a calculator result or a
round of the ledger), removing or replacing one, moving the seats. Nothing is kept on the
server and no cookie is set; static/app.js also keeps the last sheet in the browser's storage.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, quote, urlencode

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request
from flask_babel import gettext as _
from wtforms import Form

from app.base.errors import FieldError, HandError
from app.base.i18n import Msg
from app.hands.hand import SEATS
from app.hands.phrases import listing
from app.rules.model import Ruleset
from app.scoring.budget import TooMuchWork
from app.scoring.calculation import Calculation
from app.scoring.payments import fmt
from app.table.sheet import (
    FIRST_SEATS,
    MAX_ENTRIES,
    Entry,
    Night,
    Row,
    Sheet,
    add_entry,
    canonical,
    remove_entry,
)
from app.vocabulary.sheet import (
    DIAL_KEYS,
    HAND_KEYS,
    format_entry,
    parse_entry,
    price_sheet,
    read_seats,
    read_sheet,
    sheet_params,
)
from app.web.common.exports import csv_text
from app.web.common.forms import DialsMixin, attach_errors, set_choices
from app.web.common.i18n import page_lang, say_here, with_lang
from app.web.common.present import canonical_params, errors_json, form_data, number, permalink

bp = Blueprint("sheet", __name__)

# A sheet travels inside other links (the calculator's, the ledger's), which a server takes up
# to about 8 KB: past this many characters the sheet says so and offers its export.
LINK_LIMIT = 4000
MAX_SHEET_QUERY = 8000     # the longest /sheet address read at all
SHEET_KEYS = ("rules", "names", *DIAL_KEYS, "seats", "hands")
SAFE = ",:=/"              # left as they are in a query value: the sheet's links stay readable
# calculator defaults an entry leaves out (INTERFACE.md / ruling 76)
ENTRY_DEFAULTS = {"by": "discard", "seat": "E", "round": "E"}


class SheetForm(DialsMixin, Form):
    """The night's settings: the ruleset and its dials (names and seats are plain inputs)."""


def rules_errors(args: Mapping[str, str], rulesets) -> list[FieldError]:
    """A `rules=` given must name a loaded ruleset, an empty one included (absent: the default).

    The page, the CSV and GET /api/sheet refuse it alike, beside the rules field; the API's
    document lists the ids as an enum.
    """
    if "rules" not in args or args["rules"] in rulesets:
        return []
    ids = listing(sorted(rulesets))
    if not args["rules"].strip():
        return [FieldError("rules", Msg("no rules given (rules= is empty); choose one of {ids}", ids=ids))]
    return [FieldError("rules", Msg("unknown ruleset {rules}; choose one of {ids}",
                                    rules=repr(args["rules"][:40]), ids=ids))]


def _form(params: Mapping[str, str], rulesets):
    form = SheetForm(form_data({k: v for k, v in params.items() if k in ("rules", *DIAL_KEYS)}))
    ruleset = rulesets.get(params.get("rules", "")) or rulesets[current_app.config["DEFAULT_RULES"]]
    set_choices(form, ruleset, sorted(rulesets.values(), key=lambda r: r.id))
    return form, ruleset


def sheet_link(sheet: Sheet, path: str = "/sheet", **extra: str) -> str:
    """The sheet's own address (or another path carrying its parameters)."""
    items = list(sheet_params(sheet).items()) + [(k, v) for k, v in extra.items() if v]
    return f"{path}?{urlencode(items, safe=SAFE)}"


def sheet_query(sheet: Sheet) -> str:
    """The sheet as the value other pages carry in their `sheet` parameter."""
    return urlencode(list(sheet_params(sheet).items()), safe=SAFE)


def entry_line(calc: Calculation, params: Mapping[str, str]) -> str:
    """A calculator result as one sheet line: its hand and table, defaults left out."""
    given = canonical_params(calc, params)
    last = re.search(r"([0-9])([mpsz])\s*$", given.get("hand", ""))
    if last and given.get("win") == last[1] + last[2]:
        given.pop("win")    # the default: the last tile of the hand
    words = [f"{k}={given[k].replace(' ', ',')}" for k in HAND_KEYS
             if given.get(k) and ENTRY_DEFAULTS.get(k) != given[k]]
    return " ".join(words)


def add_link(line: str, carried: str, rules: str, dials: Mapping[str, str], entry: str = "") -> str:
    """Where "Add to the sheet" goes: the carried sheet (or a new one with these rules) plus the line."""
    base = carried or urlencode([("rules", rules)] + [(k, dials[k]) for k in DIAL_KEYS if dials.get(k)],
                                safe=SAFE)
    extra = [("add", line)] + ([("put", entry)] if entry else [])
    return f"/sheet?{base}&{urlencode(extra, safe=SAFE)}"


def stored_return_link(args) -> str:
    """Where /sheet?stored=… goes (a shared sheet, app/web/table/stored.py): its page, the hand to confirm."""
    extra = [(k, args[k]) for k in ("add", "hand", "base") if args.get(k)]
    query = urlencode(extra, safe=SAFE)
    return with_lang(f"/s/{quote(args['stored'][:64], safe='')}" + (f"?{query}" if query else ""))


def carried_players(carried: Mapping[str, str]) -> dict[str, str]:
    """The players by seat ({"S": "阿明", …}) of the sheet a calculator, tick-box or ledger page
    carries (its `sheet`, and `entry` when it corrects one): the seating of that hand, else of
    the next; {} when the sheet names nobody or cannot be read (the page then says seats)."""
    params = dict(parse_qsl(carried.get("sheet", "")[:MAX_SHEET_QUERY]))
    if not params.get("names", "").strip(","):
        return {}
    try:
        if "stored" in params:   # a shared sheet carries its names and this hand's seating
            sheet = read_sheet({"names": params["names"]})
            seating = read_seats(params["seats"]) if params.get("seats") else FIRST_SEATS
        else:
            sheet = read_sheet(params)
            number = _number(carried.get("entry", ""))
            seating = sheet.seating()[number - 1] if 1 <= number <= len(sheet.entries) else sheet.next_seats()
    except HandError:
        return {}
    return {seat: sheet.player(seating[i]) for i, seat in enumerate(SEATS)}


def _names() -> list[str]:
    return request.args.getlist("names")


def _seats_arg(args) -> dict[str, str]:
    """The seats as one string: the form sends four selects (E, S, W, N), a link sends '2341'."""
    values = args.getlist("seats")
    return {"seats": "".join(values) if len(values) == 4 else (values[-1] if values else "")}


def _number(text: str) -> int:
    return int(text) if text.strip().isdecimal() and len(text.strip()) < 4 else -1   # not "²"


@dataclass(frozen=True, slots=True)
class HandRow:
    """One row of a sheet's hands as a page shows it: the priced row and its words and links."""

    row: Row
    entry: str          # the hand's words without the seating (format_entry)
    breakdown: str      # where its breakdown is (breakdown_link)
    winner: str         # the player at the winner's seat ("" without a calculation)
    discarder: str      # the player at the discarder's seat ("" for a self-draw)
    seating: tuple[tuple[str, str], ...]   # (seat, player) for E, S, W, N


def hand_rows(night: Night | None) -> tuple[HandRow, ...]:
    """The night's rows with what the page says of each."""
    if night is None:
        return ()
    sheet = night.sheet
    return tuple(_hand_row(row, sheet) for row in night.rows)


def _hand_row(row: Row, sheet: Sheet) -> HandRow:
    seating = tuple((seat, sheet.player(row.seats[i])) for i, seat in enumerate(SEATS))
    at = dict(seating)
    table = row.calculation.table if row.calculation is not None else None
    return HandRow(row, _describe_entry(row.entry), breakdown_link(row.entry, sheet),
                   at[table.winner] if table else "", at.get(table.discarder or "", "") if table else "",
                   seating)


@dataclass(frozen=True, slots=True)
class SheetPage:
    """What sheet.html shows: the form, the sheet and its priced night, the links around it."""

    form: Form
    ruleset: Ruleset
    sheet: Sheet | None
    night: Night | None
    hands: tuple[HandRow, ...]
    loose: tuple[FieldError, ...]        # errors shown above the form, beside no field of it
    names: tuple[str, ...]
    hands_text: str
    seats: tuple[int, ...]               # who sits where for the next hand
    link: str                            # the sheet's own address ("" without a sheet)
    state: Mapping[str, str]             # the sheet's parameters, for the forms' hidden fields
    add_hand: str
    add_round: str
    print_view: bool
    seat_names: tuple[str, ...] = SEATS
    link_limit: int = LINK_LIMIT
    max_entries: int = MAX_ENTRIES

    @property
    def too_long(self) -> bool:
        return len(self.link) > LINK_LIMIT

    @property
    def full(self) -> bool:
        """No room for another hand."""
        return self.night is not None and len(self.night.rows) >= MAX_ENTRIES

    @property
    def started(self) -> bool:
        """The sheet has hands."""
        return bool(self.sheet and self.sheet.entries)

    @property
    def hands_refused(self) -> bool:
        """An error of the hands' text, which opens the text's details."""
        return any(getattr(e, "field", None) == "hands" for e in self.loose)


@bp.get("/sheet")
def sheet_page():
    """The sheet of the link: a change asked for comes back as a redirect to the changed sheet."""
    if len(request.query_string) > MAX_SHEET_QUERY:
        abort(414)
    args = request.args
    if args.get("stored"):   # a shared sheet carried through the calculator or the ledger, back
        return redirect(stored_return_link(args))
    rulesets = current_app.extensions["rulesets"]
    params = _page_params(args)
    refused = rules_errors(args, rulesets)
    form, ruleset = _form(params, rulesets)
    errors: list[FieldError] = list(refused)
    sheet = night = None
    status = 200
    try:
        sheet = read_sheet(params, _names())
    except HandError as err:
        errors += err.errors
    if sheet is not None and not refused:
        try:
            changed = _changed(sheet, args)
        except HandError as err:
            changed = None
            errors += err.errors
        if changed is not None:
            return redirect(changed)
        night, status = _priced(sheet, rulesets, errors)
    attach_errors(form, tuple(errors))
    return render_template("sheet.html", page=_page_of(form, ruleset, sheet, night, errors, params),
                           ruleset=ruleset), status


def _priced(sheet: Sheet, rulesets, errors: list[FieldError]) -> tuple[Night | None, int]:
    """The sheet priced, and the page's status; a refusal joins `errors` (413: too much work)."""
    try:
        return price_sheet(sheet, rulesets), 200
    except HandError as err:
        errors += err.errors
    except TooMuchWork as err:   # the sheet comes back as it was, the refusal beside its hands
        errors.append(FieldError(err.field, err.message))
        return None, 413
    return None, 200


def _page_params(args) -> dict[str, str]:
    """The sheet's parameters as the page reads them: the default rules, the seats as one string;
    a form whose rules were changed (`was=`) drops the old ruleset's dials and switches."""
    params = {k: args.get(k, "") for k in SHEET_KEYS if k in args}
    params.update(_seats_arg(args))
    params["rules"] = params.get("rules") or current_app.config["DEFAULT_RULES"]
    if args.get("was") and args["was"] != params["rules"]:
        for key in ("min", "cap", "curve", "payment", "options"):
            params.pop(key, None)
    return params


def _changed(sheet: Sheet, args) -> str | None:
    """Where an edit, a removal or an addition goes (HandError when it cannot be made); None: none asked."""
    if "edit" in args:
        number = _number(args["edit"])
        if not 1 <= number <= len(sheet.entries):
            raise HandError.single("edit", _("there is no hand %(number)s on the sheet",
                                             number=args["edit"][:6]))
        return edit_link(number, sheet)
    if "remove" in args:
        changed = remove_entry(sheet, _number(args["remove"]))
    elif "add" in args:
        put = _number(args["put"]) if args.get("put") else None
        changed = add_entry(sheet, parse_entry(args["add"], "add"), put)
    else:
        return None
    return with_lang(sheet_link(canonical(changed))) + "#hands"


def _page_of(form: Form, ruleset: Ruleset, sheet: Sheet | None, night: Night | None,
                errors: list[FieldError], params: Mapping[str, str]) -> SheetPage:
    add_hand, add_round = _add_links(sheet)
    return SheetPage(
        form=form, ruleset=ruleset, sheet=sheet, night=night, hands=hand_rows(night),
        loose=tuple(e for e in errors if not _on_the_form(form, e)),
        names=sheet.names if sheet else _padded(_names()), hands_text=params.get("hands", ""),
        seats=sheet.next_seats() if sheet else FIRST_SEATS,
        link=with_lang(sheet_link(canonical(sheet))) if sheet is not None else "",
        state=sheet_params(canonical(sheet)) if sheet else {},
        add_hand=add_hand, add_round=add_round, print_view=request.args.get("view") == "print")


def _on_the_form(form: Form, error: FieldError) -> bool:
    """Whether attach_errors put the error beside one of the form's fields."""
    hidden = getattr(form, "hidden_fields", set())
    field = getattr(form, error.field, None) if error.field and error.field not in hidden else None
    return field is not None and hasattr(field, "errors")


def _add_links(sheet: Sheet | None) -> tuple[str, str]:
    """The calculator and the round ledger, opened under the sheet's rules, carrying it along."""
    if sheet is None:
        return "", ""
    carried = sheet_query(canonical(sheet))
    hand = permalink({"rules": sheet.rules, **dict(sheet.dials)}) + "&" + urlencode({"sheet": carried}, safe=SAFE)
    return with_lang(hand), with_lang("/round?" + urlencode({"rules": sheet.rules, "sheet": carried}, safe=SAFE))


def _padded(names: list[str]) -> tuple[str, ...]:
    names = (names[0].split(",") if len(names) == 1 else names)[:4]
    return tuple(names + [""] * (4 - len(names)))


def _describe_entry(entry: Entry) -> str:
    """A line for people: the hand's words without the seating."""
    return format_entry(entry, with_at=False)


def breakdown_link(entry: Entry, sheet: Sheet) -> str:
    """Where an entry's breakdown is: the calculator (or tick boxes, or the round ledger)."""
    if entry.is_round:
        return with_lang("/round?" + urlencode({"rules": sheet.rules, "round": entry.round_text}))
    params = {**dict(entry.params), "rules": sheet.rules, **dict(sheet.dials)}
    return with_lang(permalink(params, "/ticks" if "ticks" in params else "/"))


def edit_link(number: int, sheet: Sheet) -> str:
    """Hand `number` opened where it was made, carrying the sheet, to be put back in its place."""
    link = breakdown_link(sheet.entries[number - 1], sheet)
    return f"{link}&{urlencode({'sheet': sheet_query(canonical(sheet)), 'entry': str(number)}, safe=SAFE)}"


def request_night(args) -> Night:
    """The night a /sheet.csv or /api/sheet query describes, priced (HandError, TooMuchWork as raised)."""
    rulesets = current_app.extensions["rulesets"]
    refused = rules_errors(args, rulesets)
    if refused:
        raise HandError(refused)
    params = {k: args.get(k, "") for k in SHEET_KEYS if k in args}
    params.update(_seats_arg(args))
    params.setdefault("rules", current_app.config["DEFAULT_RULES"])   # as the page takes it
    return price_sheet(read_sheet(params, args.getlist("names")), rulesets)


@bp.get("/sheet.csv")
def sheet_csv():
    if len(request.query_string) > MAX_SHEET_QUERY:
        abort(414)
    try:
        night = request_night(request.args)
    except (HandError, TooMuchWork) as err:
        refused = err.errors if isinstance(err, HandError) else (FieldError(err.field, err.message),)
        text = csv_text([("field", "message"), *((e.field, say_here(e.message)) for e in refused)])
        return Response(text, 400 if isinstance(err, HandError) else 413, mimetype="text/csv")
    return Response(night_csv(night), mimetype="text/csv", headers={
        "Content-Disposition": 'attachment; filename="mahjong-sheet.csv"'})


def night_csv(night: Night) -> str:
    """The night as a table: one row a hand, then the totals and who pays whom.

    Every cell is quoted and made safe for spreadsheets (exports.csv_text): a name, a hand line
    or a note that starts like a formula, and every negative amount, is written after a quote.
    """
    sheet = night.sheet
    players = [sheet.player(i) for i in range(4)]
    head = _csv_words()
    rows: list[list[object]] = [
        [head["hand"], head["entry"], *SEATS, *players,
         *[head["total of"] % {"player": p} for p in players], head["note"]]]
    for row in night.rows:
        rows.append([row.number, _describe_entry(row.entry), *[players[i] for i in row.seats],
                     *map(fmt, row.amounts), *map(fmt, row.running),
                     _note(row)])
    rows.append([head["total"], "", "", "", "", "", *map(fmt, night.totals), "", "", "", "", ""])
    rows.append([])
    rows.append([head["payer"], head["payee"], head["amount"]])
    rows += [[players[int(t.payer)], players[int(t.payee)], fmt(t.amount)] for t in night.transfers]
    return csv_text(rows)


def night_json(night: Night) -> dict:
    """The answer of GET /api/sheet: the numbers of price_sheet, as the page and the CSV show them.

    Players are numbered 1-4 as in `at=`; amounts are lists in that order.
    """
    sheet = night.sheet
    return {
        "rules": night.ruleset.id,
        "valid": True,
        "link": with_lang(sheet_link(canonical(sheet))),
        "players": [{"number": i + 1, "name": sheet.player(i)} for i in range(4)],
        "rows": [_row_json(row, sheet) for row in night.rows],
        "totals": [number(v) for v in night.totals],
        "transfers": [{"payer": int(t.payer) + 1, "payee": int(t.payee) + 1, "amount": number(t.amount),
                       "payer_name": sheet.player(int(t.payer)), "payee_name": sheet.player(int(t.payee))}
                      for t in night.transfers],
    }


def _row_json(row: Row, sheet: Sheet) -> dict:
    """One row of GET /api/sheet: the entry, its result or refusal, the amounts by player."""
    calc = row.calculation
    if row.errors:
        result = "refused"
    elif row.entry.is_round:
        result = "round"
    else:
        result = "not-a-win" if row.not_a_win else "win"
    found = {
        "number": row.number,
        "kind": "round" if row.entry.is_round else "hand",
        "entry": _describe_entry(row.entry),
        "seats": {seat: row.seats[i] + 1 for i, seat in enumerate(SEATS)},
        "result": result,
        "reason": row.reason,
        "errors": errors_json(row.errors)["errors"],
        "amounts": [number(v) for v in row.amounts],
        "running": [number(v) for v in row.running],
        "breakdown": breakdown_link(row.entry, sheet),
    }
    if calc is not None:
        found.update(winner=calc.table.winner, discarder=calc.table.discarder,
                     total_fan=calc.score.total_fan, points=calc.score.points)
    return found


def _note(row: Row) -> str:
    """A row's note: why it counts nothing (its errors), or why a hand below the minimum pays nothing."""
    if row.errors:
        return "; ".join(f"{e.field}: {say_here(e.message)}" for e in row.errors)
    return say_here(row.reason) if row.reason is not None else ""


def _csv_words() -> dict[str, str]:
    """The CSV's headers in the reader's language (the English ones when the page is English)."""
    english = {"hand": "hand", "entry": "entry", "total of": "%(player)s total", "note": "note",
               "total": "total", "payer": "payer", "payee": "payee", "amount": "amount"}
    if page_lang() == "en":
        return english
    return {"hand": _("hand"), "entry": _("entry"), "total of": _("%(player)s total"), "note": _("note"),
            "total": _("total"), "payer": _("payer"), "payee": _("payee"), "amount": _("amount")}
