"""HTML pages: the calculator (tile picker or typed hand), tick-box mode and the embed view.

Every form is a GET: a result is a permalink, there is no session, cookie or CSRF token,
so a lesson site can frame it. Without JavaScript the tile picker works by links that
rewrite the hand in the address and come back to the page.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from flask import Blueprint, current_app, redirect
from markupsafe import Markup

from app import vocabulary
from app.base.errors import HandError
from app.rules.detectors import PER_ITEM_DETECTORS
from app.rules.model import Ruleset
from app.scoring.budget import TooMuchWork
from app.scoring.calculation import Calculation, WaitsResult
from app.scoring.report import explain_points
from app.vocabulary.request import tick_params, witness_params
from app.web.common.forms import (
    CalculatorForm,
    FormView,
    TicksForm,
    attach_errors,
    name_seats,
    set_choices,
)
from app.web.common.i18n import say_here, template_gettext, with_lang
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
from app.web.common.present import canonical_params, form_data, page_params, permalink, render_page
from app.web.lesson.card import card_link
from app.web.table.sheet import add_link, carried_players, entry_line

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


@dataclass(frozen=True, slots=True)
class CalculatorPage:
    """What calculator.html shows: the hand's score (or its waits) and the form to change it."""

    form: FormView
    ruleset: Ruleset
    embed: bool
    picker: dict   # picker_state: the hand's tiles, melds and the meld being built
    palette: Markup
    carried: dict[str, str]
    fan: str = ""
    calc: Calculation | None = None
    waits: WaitsResult | None = None
    loose: list[str] = field(default_factory=list)
    building: bool = False
    permalink: str = ""
    arithmetic: str = ""
    ticks_link: str = ""
    card_link: str = ""
    sheet_add: str = ""
    players: Mapping[str, str] = field(default_factory=dict)   # seat -> name, from a carried sheet
    meld_kinds: tuple = MELD_KINDS
    title: Markup = Markup()   # the head's <title>, its preview's og:title too (made once a page)
    carried_items: tuple = ()   # `carried` sorted by key (a kept section's key)


@dataclass(frozen=True, slots=True)
class Scored:
    """What came of scoring the hand asked: a score, its waits, or the errors and a status."""

    calc: Calculation | None = None
    waits: WaitsResult | None = None
    canonical: dict[str, str] = field(default_factory=dict)
    loose: list[str] = field(default_factory=list)
    building: bool = False
    status: int = 200


def _calculator(embed: bool):
    params = page_params()
    action = next((a for a in PICKER_ACTIONS if a in params), None)
    problem = None
    if action is not None:
        edited, problem = apply_picker(params, action)
        if problem is None:
            link = permalink_with_picker(edited, "/embed" if embed else "/")
            return redirect(with_lang(link) + focus_after(action, params, edited))
        params = edited
    ruleset, rulesets = _ruleset(params)
    shown = ruleset or rulesets[current_app.config["DEFAULT_RULES"]]
    form = FormView(CalculatorForm, form_data(params), shown, _sorted(rulesets), form_parts())
    form.players = tuple(carried_players(params).items())   # opened from a sheet: its names
    if problem is not None:   # a tap that could not be done: said beside its field
        form.attach_errors((problem,))
        scored = Scored()
    else:
        scored = _scored(form, params, rulesets)
    return render_page("calculator.html", _calculator_page(form, shown, params, scored, embed)), \
        scored.status


def _scored(form: FormView, params: dict[str, str], rulesets) -> Scored:
    """The hand asked scored (13 tiles: its waits); errors beside their fields."""
    if not (params.get("hand") or params.get("melds") or params.get("fan")):   # fan: points only
        return Scored()
    try:
        if tile_count(params) == 13:
            return Scored(waits=vocabulary.waits(params, rulesets))
        calc = vocabulary.score(params, rulesets)
        return Scored(calc=calc, canonical=canonical_params(calc, params))
    except HandError as err:
        return Scored(loose=form.attach_errors(err.errors),
                      building=_still_building(params, err.errors))
    except TooMuchWork as err:   # the form comes back filled in, the refusal beside the field
        return Scored(loose=form.attach_errors(err.errors), status=413)


def _calculator_page(form: FormView, ruleset, params: dict[str, str], scored: Scored,
                     embed: bool) -> CalculatorPage:
    """The page of one request: what was scored, with its links, and the form."""
    calc = scored.calc
    page = CalculatorPage(
        form=form, ruleset=ruleset, embed=embed, picker=picker_state(params, ruleset),
        palette=palette(ruleset), carried=_carried(params), players=dict(form.players),
        fan="" if params.get("hand") else params.get("fan", ""), waits=scored.waits,
        loose=scored.loose, building=scored.building, title=_title(calc, ruleset),
        carried_items=tuple(sorted(_carried(params).items())))
    if calc is None:
        return page
    return replace(
        page, calc=calc, permalink=permalink(scored.canonical), arithmetic=explain_points(calc),
        ticks_link=_ticks_link(calc, params) if calc.hand is not None else "",
        card_link=card_link(calc, params, scored.canonical),
        sheet_add=_sheet_add(calc, params) if not embed else "")


def _title(calc: Calculation | None, ruleset: Ruleset) -> Markup:
    """'4 fan — Hong Kong 36 hands — Mahjong scoring calculator', escaped as the template
    would write it."""
    parts = [template_gettext("%(fan)s fan", fan=calc.score.total_fan)] if calc else []
    return Markup(" — ").join([*parts, say_here(ruleset.name),
                               template_gettext("Mahjong scoring calculator")])


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


@dataclass(frozen=True, slots=True)
class TicksPage:
    """What ticks.html shows: the patterns ticked priced, and the boxes to tick."""

    form: TicksForm
    ruleset: Ruleset
    carried: dict[str, str]
    counts: dict[str, int]
    ticked: dict[str, int]
    loose: list[str] = field(default_factory=list)
    calc: Calculation | None = None
    per_item: Mapping = field(default_factory=lambda: PER_ITEM_DETECTORS)
    arithmetic: str = ""
    permalink: str = ""
    card_link: str = ""
    sheet_add: str = ""
    tiles_link: str = ""   # a witness hand in tile mode, priced as the ticks
    players: Mapping[str, str] = field(default_factory=dict)   # seat -> name, from a carried sheet
    embed: bool = False


@bp.get("/ticks")
def ticks():
    params = page_params()
    ruleset, rulesets = _ruleset(params)
    ruleset = ruleset or rulesets[current_app.config["DEFAULT_RULES"]]
    form = TicksForm(form_data(params))
    set_choices(form, ruleset, _sorted(rulesets))
    players = carried_players(params)
    name_seats(form, tuple(players.items()))
    counts = _tick_counts(params)
    page = TicksPage(form=form, ruleset=ruleset, carried=_carried(params), counts=counts,
                     ticked=_ticked(params), players=players)
    if "ticks" in params or any(k.startswith("n.") for k in params):
        merged = dict(params, ticks=_merge_counts(params.get("ticks", ""), counts))
        try:
            calc = vocabulary.score(merged, rulesets)
        except HandError as err:
            return render_page("ticks.html", replace(page, loose=attach_errors(form, err.errors)))
        page = replace(page, calc=calc, arithmetic=explain_points(calc),
                       permalink=permalink(merged, "/ticks"), card_link=card_link(calc, merged),
                       sheet_add=_sheet_add(calc, merged), tiles_link=_tiles_link(calc, merged))
    return render_page("ticks.html", page)


def _tiles_link(calc: Calculation, params: dict[str, str]) -> str:
    """The ticks as tiles: a hand holding them that prices the same (witness_params)."""
    tiles = witness_params(calc, params)
    return permalink(tiles, "/") if tiles is not None else ""


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


