"""HTML pages: the calculator (tile picker or typed hand), tick-box mode and the embed view.

Every form is a GET: a result is a permalink, there is no session, cookie or CSRF token,
so a lesson site can frame it. Without JavaScript the tile picker works by links that
rewrite the hand in the address and come back to the page.
"""
from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template

from app import vocabulary
from app.base.errors import HandError
from app.rules.detectors import PER_ITEM_DETECTORS
from app.scoring.budget import TooMuchWork
from app.scoring.report import explain_points
from app.vocabulary.request import tick_params
from app.web.common.forms import (
    CalculatorForm,
    FormView,
    TicksForm,
    attach_errors,
    set_choices,
)
from app.web.common.i18n import with_lang
from app.web.common.picker import (
    MELD_KINDS,
    PICKER_ACTIONS,
    apply_picker,
    focus_after,
    form_parts,
    palette,
    permalink_with_picker,
    picker_state,
    tile_count,
    whole_number,
)
from app.web.common.present import canonical_params, form_data, page_params, permalink
from app.web.lesson.card import card_link
from app.web.table.sheet import add_link, entry_line

bp = Blueprint("pages", __name__)


def _ruleset(params: dict[str, str]):
    rulesets = current_app.extensions["rulesets"]
    rid = params.get("rules") or current_app.config["DEFAULT_RULES"]
    return rulesets.get(rid), rulesets


@bp.get("/")
def calculator():
    return _calculator(embed=False)


@bp.get("/embed")
def embed():
    return _calculator(embed=True)


def _calculator(embed: bool):
    params = page_params()
    action = next((a for a in PICKER_ACTIONS if a in params), None)
    if action is not None:
        edited, problem = apply_picker(params, action)
        if problem is None:
            link = permalink_with_picker(edited, "/embed" if embed else "/")
            return redirect(with_lang(link) + focus_after(action, params, edited))
        params = edited
    ruleset, rulesets = _ruleset(params)
    shown = ruleset or rulesets[current_app.config["DEFAULT_RULES"]]
    form = FormView(CalculatorForm, form_data(params), shown, _sorted(rulesets), form_parts())
    loose: list[str] = []
    calc = waits = None
    link = ""
    canonical: dict[str, str] = {}
    status = 200
    building = False
    if action is not None and problem is not None:
        form.attach_errors((problem,))
    elif params.get("hand") or params.get("melds") or params.get("fan"):   # fan: points-only mode
        try:
            if tile_count(params) == 13:
                waits = vocabulary.waits(params, rulesets)
            else:
                calc = vocabulary.score(params, rulesets)
                canonical = canonical_params(calc, params)
                link = permalink(canonical)
        except HandError as err:
            loose = form.attach_errors(err.errors)
            building = _still_building(params, err.errors)
        except TooMuchWork as err:   # the form comes back filled in, the refusal beside the field
            loose = form.attach_errors(err.errors)
            status = 413
    return render_template(
        "calculator.html", form=form, ruleset=shown, calc=calc, waits=waits, loose=loose,
        embed=embed, permalink=link, picker=picker_state(params, shown), palette=palette(shown),
        arithmetic=explain_points(calc) if calc else "",
        ticks_link=_ticks_link(calc, params) if calc and calc.hand is not None else "",
        card_link=card_link(calc, params, canonical) if calc else "",
        fan="" if params.get("hand") else params.get("fan", ""), meld_kinds=MELD_KINDS,
        building=building, carried=_carried(params), sheet_add=_sheet_add(calc, params) if calc and not embed else ""), status


def _still_building(params: dict[str, str], errors) -> bool:
    """A hand short of 13 tiles whose one problem is that it is short: a hand being picked,
    not a mistake (its count stays beside the field; the page raises no alarm)."""
    return 0 < tile_count(params) < 13 and len(errors) == 1 and errors[0].field == "hand"


def _sorted(rulesets) -> list:
    return sorted(rulesets.values(), key=lambda r: r.id)


def _carried(params: dict[str, str]) -> dict[str, str]:
    """The game sheet this page carries along (see /sheet), to keep in every form and link."""
    return {k: params[k] for k in ("sheet", "entry") if params.get(k)}


def _sheet_add(calc, params: dict[str, str]) -> str:
    """"Add to the sheet": the carried sheet (or a new one under these rules) with this hand."""
    return add_link(entry_line(calc, params), params.get("sheet", ""), calc.ruleset.id, params,
                    params.get("entry", ""))


def _ticks_link(calc, params: dict[str, str]) -> str:
    """The same win in tick-box mode: the patterns that counted and the way of winning and
    discarder actually used, so that it prices the same (tick_params)."""
    return permalink(tick_params(calc, params), "/ticks")


@bp.get("/ticks")
def ticks():
    params = page_params()
    ruleset, rulesets = _ruleset(params)
    form = TicksForm(form_data(params))
    ruleset_or_default = ruleset or rulesets[current_app.config["DEFAULT_RULES"]]
    set_choices(form, ruleset_or_default, sorted(rulesets.values(), key=lambda r: r.id))
    counts = _tick_counts(params)
    loose: list[str] = []
    calc = None
    if "ticks" in params or any(k.startswith("n.") for k in params):
        merged = dict(params)
        merged["ticks"] = _merge_counts(params.get("ticks", ""), counts)
        try:
            calc = vocabulary.score(merged, rulesets)
        except HandError as err:
            loose = attach_errors(form, err.errors)
    return render_template("ticks.html", form=form, ruleset=ruleset_or_default, calc=calc,
                           carried=_carried(params),
                           sheet_add=_sheet_add(calc, merged) if calc else "",
                           card_link=card_link(calc, merged) if calc else "",
                           loose=loose, counts=counts, ticked=_ticked(params),
                           per_item=PER_ITEM_DETECTORS,
                           arithmetic=explain_points(calc) if calc else "",
                           permalink=permalink(dict(params, ticks=_merge_counts(
                               params.get("ticks", ""), counts)), "/ticks") if calc else "")


def _ticked(params: dict[str, str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for token in [t for t in params.get("ticks", "").split(",") if t]:
        pid, _, n = token.partition("*")
        found[pid] = found.get(pid, 0) + whole_number(n, 1)
    return found


def _tick_counts(params: dict[str, str]) -> dict[str, int]:
    """Per-item counts typed beside the tick boxes (`n.dragon-pong=2`)."""
    counts = {}
    for key, value in params.items():
        if key.startswith("n.") and whole_number(value, -1) >= 0:
            counts[key[2:]] = whole_number(value, -1)
    return counts


def _merge_counts(ticks: str, counts: dict[str, int]) -> str:
    """The ticks with their counts: a typed count beats one written in the link."""
    out = []
    for pid, n in _ticked({"ticks": ticks}).items():
        n = counts.get(pid, n)
        out.append(f"{pid}*{n}" if n > 1 else pid)
    return ",".join(out)


