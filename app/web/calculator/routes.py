"""HTML pages: the calculator (tile picker or typed hand), tick-box mode and the embed view.

Every form is a GET: a result is a permalink, there is no session, cookie or CSRF token,
so a lesson site can frame it. Without JavaScript the tile picker works by links that
rewrite the hand in the address and come back to the page.
"""
from __future__ import annotations

import re

from flask import Blueprint, current_app, redirect, render_template, request
from markupsafe import Markup

from app.base.errors import FieldError, HandError, NotationError
from app.base.i18n import Msg
from app.hands.description import message_of, read_meld
from app.hands.tiles import TILES, format_tiles, parse_tiles
from app.rules.detectors import PER_ITEM_DETECTORS
from app.scoring.calculation import calculate, calculate_waits
from app.scoring.report import explain_points
from app.web.common.forms import (
    PICKER_TILES,
    CalculatorForm,
    FormView,
    PartCache,
    TicksForm,
    attach_errors,
    set_choices,
)
from app.web.common.present import canonical_params, form_data, page_params, permalink, tile_script
from app.web.lesson.card import card_link

bp = Blueprint("pages", __name__)

PICKER_ACTIONS = ("add", "remove", "make", "unmeld", "clear", "undraft")
MELD_KINDS = ("chow", "pong", "kong", "ckong", "akong")


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
            return redirect(link + _focus_after(action, params, edited))
        params = edited
    ruleset, rulesets = _ruleset(params)
    shown = ruleset or rulesets[current_app.config["DEFAULT_RULES"]]
    form = FormView(CalculatorForm, form_data(params), shown, _sorted(rulesets), _parts())
    loose: list[str] = []
    calc = waits = None
    link = ""
    if action is not None and problem is not None:
        form.attach_errors((problem,))
    elif params.get("hand") or params.get("melds") or params.get("fan"):   # fan: points-only mode
        try:
            if _tile_count(params) == 13:
                waits = calculate_waits(params, rulesets)
            else:
                calc = calculate(params, rulesets)
                link = permalink(canonical_params(calc, params))
        except HandError as err:
            loose = form.attach_errors(err.errors)
    return render_template(
        "calculator.html", form=form, ruleset=shown, calc=calc, waits=waits, loose=loose,
        embed=embed, permalink=link, picker=_picker(params), palette=_palette(shown),
        arithmetic=explain_points(calc) if calc else "",
        ticks_link=_ticks_link(calc, params) if calc and calc.score.items else "",
        card_link=card_link(calc, params) if calc else "",
        fan="" if params.get("hand") else params.get("fan", ""), meld_kinds=MELD_KINDS,
        carried=_carried(params), sheet_add=_sheet_add(calc, params) if calc and not embed else "")


def _sorted(rulesets) -> list:
    return sorted(rulesets.values(), key=lambda r: r.id)


def _parts() -> PartCache:
    """This app's rendered parts of the calculator form (see forms.FormView)."""
    return current_app.extensions["form_parts"]


def _palette(ruleset) -> Markup:
    """The tile palette's buttons: the same for every page of a ruleset, tile script and mount."""
    parts = _parts()
    key = ("palette", ruleset.id, request.script_root, tile_script())
    return parts.get(key) or parts.put(key, parts.macro("palette")(PICKER_TILES, ruleset))


def _carried(params: dict[str, str]) -> dict[str, str]:
    """The game sheet this page carries along (see /sheet), to keep in every form and link."""
    return {k: params[k] for k in ("sheet", "entry") if params.get(k)}


def _sheet_add(calc, params: dict[str, str]) -> str:
    """"Add to the sheet": the carried sheet (or a new one under these rules) with this hand."""
    from app.web.table.sheet import add_link, entry_line
    return add_link(entry_line(calc, params), params.get("sheet", ""), calc.ruleset.id, params,
                    params.get("entry", ""))


def _focus_after(action: str, params: dict[str, str], edited: dict[str, str]) -> str:
    """The fragment that brings keyboard focus back where the click was (app.js focuses it).

    After adding: the tile just picked. After removing a tile from the hand: the tile now in
    its place (or the last one), else the palette tile of the one removed.
    """
    if action == "add" and params["add"] in TILE_BY_CODE:
        return f"#add-{params['add']}"
    if action == "remove":
        left = len(parse_tiles(edited.get("hand", "")))
        if left:
            return f"#remove-{min(_whole_number(params['remove'], 0), left - 1)}"
        removed = parse_tiles(params.get("hand", ""))[_whole_number(params["remove"], 0)]
        return f"#add-{removed.code}"
    return ""


def _whole_number(text: str, default: int) -> int:
    """An ASCII whole number, else the default (str.isdigit also passes '²', which int refuses)."""
    text = text.strip()
    return int(text) if re.fullmatch(r"[0-9]+", text) else default


def _tile_count(params: dict[str, str]) -> int:
    """Tiles in the hand, a meld counting 3; -1 when the notation cannot be read."""
    try:
        tiles = len(parse_tiles(params.get("hand", "")))
    except NotationError:
        return -1
    melds = [t for t in re.split(r"[,\s]+", params.get("melds", "").strip()) if t]
    return tiles + 3 * len(melds)


def apply_picker(params: dict[str, str], action: str) -> tuple[dict[str, str], FieldError | None]:
    """Carry out one tile-picker click on the hand description; say why if it cannot be done."""
    edited = {k: v for k, v in params.items() if k not in PICKER_ACTIONS}
    value = params[action]
    try:
        if action == "add":
            t = parse_tiles(value)
            if len(t) != 1:
                return edited, FieldError("hand", Msg("'{value}' is not one tile", value=value))
            key = "draft" if params.get("target") == "meld" else "hand"
            edited[key] = format_tiles(parse_tiles(edited.get(key, "")) + t)
        elif action == "remove":
            tiles = list(parse_tiles(edited.get("hand", "")))
            index = _whole_number(value, -1)
            if not 0 <= index < len(tiles):
                return edited, FieldError("hand", Msg("there is no tile {value} to remove", value=value))
            removed = tiles.pop(index)
            edited["hand"] = format_tiles(tiles)
            if edited.get("win") == removed.code and removed not in tiles:
                edited.pop("win")
        elif action == "make":
            if value not in MELD_KINDS:
                return edited, FieldError("draft", Msg("'{value}' is not a kind of meld", value=value))
            token = format_tiles(parse_tiles(edited.get("draft", "")))
            if not token:
                return edited, FieldError("draft", Msg("pick the tiles of the new meld first"
                                                       " (choose 'a new meld', then click its tiles)"))
            meld = read_meld(token if value in ("chow", "pong") else f"{value}:{token}")
            edited["melds"] = ",".join(filter(None, [edited.get("melds", ""), meld.token]))
            edited.pop("draft", None)
            edited["target"] = "hand"
        elif action == "unmeld":
            melds = [t for t in re.split(r"[,\s]+", edited.get("melds", "").strip()) if t]
            index = _whole_number(value, -1)
            if not 0 <= index < len(melds):
                return edited, FieldError("melds", Msg("there is no meld {value} to remove", value=value))
            melds.pop(index)
            edited["melds"] = ",".join(melds)
        elif action == "undraft":
            edited.pop("draft", None)
        elif action == "clear":
            for key in ("hand", "melds", "draft", "win"):
                edited.pop(key, None)
    except NotationError as err:
        return edited, FieldError("draft" if action == "make" else "hand", message_of(err))
    except ValueError as err:
        return edited, FieldError("draft", message_of(err))
    return edited, None


def permalink_with_picker(params: dict[str, str], path: str) -> str:
    """A link that also keeps the picker's own state (the meld being built, its target)."""
    from urllib.parse import urlencode
    link = permalink(params, path)
    extra = [(k, params[k]) for k in ("draft", "target", "sheet", "entry") if params.get(k)]
    if extra:
        link += ("&" if "?" in link else "?") + urlencode(extra)
    return link


def _picker(params: dict[str, str]) -> dict:
    """What the picker shows: the hand's tiles, the melds and the meld being built."""
    def tiles_of(text: str):
        try:
            return list(parse_tiles(text))
        except NotationError:
            return []
    melds = []
    for token in [t for t in re.split(r"[,\s]+", params.get("melds", "").strip()) if t]:
        try:
            meld = read_meld(token)
            melds.append({"token": token, "tiles": list(meld.tiles), "kind": meld.kind.value})
        except ValueError:
            melds.append({"token": token, "tiles": [], "kind": "?"})
    return {"hand": tiles_of(params.get("hand", "")), "melds": melds,
            "draft": tiles_of(params.get("draft", "")), "target": params.get("target", "hand"),
            "base": {k: v for k, v in params.items() if k not in PICKER_ACTIONS}}


def _ticks_link(calc, params: dict[str, str]) -> str:
    """The same hand in tick-box mode, pre-ticked with what tile mode recognised."""
    ticks = ",".join(f"{i.pattern.id}*{i.count}" if i.count > 1 else i.pattern.id
                     for i in calc.score.items)
    keep = {k: v for k, v in params.items()
            if k in ("rules", "by", "seat", "discarder", "won", "liable", "options", "min", "cap",
                     "curve", "payment", "stake")}
    keep["rules"] = calc.ruleset.id
    keep["ticks"] = ticks
    return permalink(keep, "/ticks")


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
        if merged["ticks"]:
            try:
                calc = calculate(merged, rulesets)
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
        found[pid] = found.get(pid, 0) + _whole_number(n, 1)
    return found


def _tick_counts(params: dict[str, str]) -> dict[str, int]:
    """Per-item counts typed beside the tick boxes (`n.dragon-pong=2`)."""
    counts = {}
    for key, value in params.items():
        if key.startswith("n.") and _whole_number(value, -1) >= 0:
            counts[key[2:]] = _whole_number(value, -1)
    return counts


def _merge_counts(ticks: str, counts: dict[str, int]) -> str:
    """The ticks with their counts: a typed count beats one written in the link."""
    out = []
    for pid, n in _ticked({"ticks": ticks}).items():
        n = counts.get(pid, n)
        out.append(f"{pid}*{n}" if n > 1 else pid)
    return ",".join(out)


TILE_BY_CODE = {t.code: t for t in TILES}
