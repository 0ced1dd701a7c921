"""What to discard: the /discard page, /embed/discard, and the JSON of GET /api/discard.

The page is the calculator's tile picker with a 14-tile hand; the answer is a table of
every distinct discard, best first, each ready discard linking to its waits' breakdowns
(calculator permalinks).
"""
from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

from flask import Blueprint, current_app, redirect, render_template

from ..discard import DISCARD_ORDER, DiscardChoice, DiscardResult, calculate_discards
from ..errors import HandError
from ..tiles import TILES, canonical, format_tiles, parse_tiles
from .forms import PICKER_TILES, DiscardForm, attach_errors, set_choices
from .pages import MELD_KINDS, PICKER_ACTIONS, _focus_after, _picker, apply_picker
from .present import form_data, number, page_params, permalink

bp = Blueprint("discard", __name__)

KEPT_AFTER_PICKING = ("seen", "draft", "target")   # not in PERMALINK_ORDER, kept by hand


def discard_link(params: Mapping[str, str], path: str = "/discard") -> str:
    """A /discard permalink: the public vocabulary, then the tiles seen (and picker state)."""
    link = permalink(params, path)
    extra = [(k, params[k]) for k in KEPT_AFTER_PICKING if params.get(k)]
    if extra:
        link += ("&" if "?" in link else "?") + urlencode(extra, safe=",")
    return link


def wait_link(result: DiscardResult, choice: DiscardChoice, tile_code: str) -> str:
    """The calculator permalink of winning on this wait after this discard: its breakdown."""
    params = {k: v for k, v in result.params.items() if k not in ("seen", "win", *KEPT_AFTER_PICKING)}
    params["rules"] = result.ruleset.id
    params["hand"] = canonical(choice.hand_after.concealed + parse_tiles(tile_code))
    params["win"] = tile_code
    return permalink(params, "/")


@bp.get("/discard")
def discard_page():
    return _discard(embed=False)


@bp.get("/embed/discard")
def discard_embed():
    return _discard(embed=True)


def _discard(embed: bool):
    path = "/embed/discard" if embed else "/discard"
    params = page_params()
    action = next((a for a in PICKER_ACTIONS if a in params), None)
    problem = None
    if action is not None:
        edited, problem = apply_picker(params, action)
        if problem is None:
            return redirect(discard_link(edited, path) + _focus_after(action, params, edited))
        params = edited
    rulesets = current_app.extensions["rulesets"]
    ruleset = rulesets.get(params.get("rules") or current_app.config["DEFAULT_RULES"])
    ruleset = ruleset or rulesets[current_app.config["DEFAULT_RULES"]]
    form = DiscardForm(form_data(params))
    set_choices(form, ruleset, sorted(rulesets.values(), key=lambda r: r.id))
    loose: list[str] = []
    result = None
    if problem is not None:
        attach_errors(form, (problem,))
    elif params.get("hand") or params.get("melds"):
        try:
            result = calculate_discards(params, rulesets)
        except HandError as err:
            loose = attach_errors(form, err.errors)
    links = {}
    if result is not None:
        links = {(c.tile.code, w.tile_code): wait_link(result, c, w.tile_code)
                 for c in result.choices for w in c.waits}
    return render_template(
        "discard.html", form=form, ruleset=ruleset, result=result, loose=loose, embed=embed,
        picker=_picker(params), palette=PICKER_TILES, meld_kinds=MELD_KINDS, links=links,
        order=DISCARD_ORDER, permalink=discard_link(params, path) if result else "",
        action_path=path)


def discard_json(result: DiscardResult) -> dict:
    """The answer of GET /api/discard (described in /api/openapi.json)."""
    hand = result.hand
    return {
        "rules": result.ruleset.id,
        "valid": True,
        "hand": canonical(hand.concealed),
        "melds": ",".join(m.token for m in hand.melds),
        "seen": format_tiles(TILES[i] for i, n in enumerate(result.table.seen) for _ in range(n)),
        "shanten": result.shanten,
        "order": DISCARD_ORDER,
        "discards": [_choice_json(result, c) for c in result.choices],
    }


def _choice_json(result: DiscardResult, choice: DiscardChoice) -> dict:
    option = choice.option
    return {
        "tile": choice.tile.code,
        "shanten": option.shanten,
        "forms": list(option.forms),
        "improving": [{"tile": i.tile.code, "left": i.left} for i in option.improving],
        "left": option.left,
        "must_go": choice.must_go,
        "ready": choice.ready,
        "can_win": choice.can_win,
        "value": number(choice.value),
        "reasons": list(choice.reasons),
        "waits": [_wait_json(result, choice, w) for w in choice.waits],
    }


def _wait_json(result: DiscardResult, choice: DiscardChoice, wait) -> dict:
    entry = {"tile": wait.tile_code, "left": wait.left, "wins": wait.wins,
             "permalink": wait_link(result, choice, wait.tile_code)}
    calc = wait.value.calculation
    if calc is None:
        entry["note"] = wait.value.refusal
    else:
        score = calc.score
        entry.update({"total_fan": score.total_fan, "capped_fan": score.capped_fan,
                      "points": score.points, "collects": number(wait.collects),
                      "note": "below the minimum" if score.below_minimum else ""})
    return entry
