"""What to discard: the /discard page, /embed/discard, the JSON of GET /api/discard, and
the practice "What would you discard?" (/practice/discard).

The page is the calculator's tile picker with a 14-tile hand; the answer is a table of
every distinct discard, best first, each ready discard linking to its waits' breakdowns
(calculator permalinks). The practice deals seeded hands (app/practice/discard_practice.py), or
asks a teacher's hand (`hand=` and its context, the /discard vocabulary), and marks the discard
chosen by the outlook's expected value over `draws` (the usual order when the outlook cannot
weigh it); every state is a link, the score included.
"""
from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from urllib.parse import urlencode

from flask import Blueprint, current_app, redirect
from markupsafe import Markup

from app.advice.discard import DiscardChoice, DiscardResult, discard_order
from app.advice.outlook import (
    DEFAULT_DRAWS,
    OutlookResult,
    outlook,
    outlook_words,
)
from app.advice.outlook import percent as chance_percent
from app.base.errors import HandError
from app.base.i18n import Msg
from app.hands.hand import Hand
from app.hands.tiles import TILES, Tile, canonical, format_tiles, parse_tiles, tile
from app.practice.discard_practice import (
    QUESTION_FIELDS,
    DiscardDeal,
    DiscardVerdict,
    check_discard,
)
from app.rules.model import Ruleset
from app.scoring.budget import TooMuchWork
from app.vocabulary.discard import calculate_discards, question, read_draws, wanted
from app.vocabulary.hand import message_of
from app.vocabulary.practice import deal_discard
from app.web.common.forms import DiscardForm, attach_errors, set_choices
from app.web.common.i18n import with_lang
from app.web.common.picker import (
    MELD_KINDS,
    PICKER_ACTIONS,
    apply_picker,
    focus_after,
    palette,
    picker_state,
)
from app.web.common.present import form_data, number, page_params, permalink, render_page
from app.web.practice.routes import (
    MAX_HAND,
    new_series,
    read_record,
    score_text,
    series_number,
    try_another,
    unknown_ruleset,
)

from .curve import Curve, win_curve

bp = Blueprint("discard", __name__)

KEPT_AFTER_PICKING = ("seen", "outlook", "draws", "draft", "target", "newmeld")   # not in
# PERMALINK_ORDER, kept by hand


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
    wait = next((w for w in choice.waits if w.tile_code == tile_code), None)
    if wait is not None and wait.value.only_self_draw:   # ruling 82: the way it can win
        params["by"] = "self-draw"
    return permalink(params, "/")


@bp.get("/discard")
def discard_page():
    return _discard(embed=False)


@bp.get("/embed/discard")
def discard_embed():
    return _discard(embed=True)


@dataclass(frozen=True, slots=True)
class Weighed:
    """What came of weighing the hand asked: its discards (and outlook), or errors and a status."""

    result: DiscardResult | None = None
    outlook: OutlookResult | None = None
    loose: list[str] = field(default_factory=list)
    status: int = 200


class RulesetOrder:
    """The usual order and the outlook's sentences as a page's ruleset words them."""

    __slots__ = ()

    @property
    def order(self) -> str:
        """The usual order in words, as this ruleset plays (its missing suit, if any)."""
        return discard_order(self.ruleset)

    @property
    def outlook_words(self) -> Mapping:
        return outlook_words(self.ruleset)


@dataclass(frozen=True, slots=True)
class DiscardPage(RulesetOrder):
    """What discard.html shows: every discard weighed, the outlook if asked, and the form."""

    form: DiscardForm
    ruleset: Ruleset
    embed: bool
    picker: dict   # picker_state: the hand's tiles, melds and the meld being built
    palette: Markup
    action_path: str
    outlook_asked: bool
    result: DiscardResult | None = None
    outlook: OutlookResult | None = None
    loose: list[str] = field(default_factory=list)
    links: dict[tuple[str, str], str] = field(default_factory=dict)   # (discard, wait) → link
    curves: dict[str, Curve] = field(default_factory=dict)   # by discard
    permalink: str = ""
    meld_kinds: tuple = MELD_KINDS
    default_draws: int = DEFAULT_DRAWS


def _discard(embed: bool):
    path = "/embed/discard" if embed else "/discard"
    params = page_params()
    action = next((a for a in PICKER_ACTIONS if a in params), None)
    problem = None
    if action is not None:
        edited, problem = apply_picker(params, action)
        if problem is None:
            return redirect(with_lang(discard_link(edited, path) + focus_after(action, params,
                                                                                edited)))
        params = edited
    rulesets = current_app.extensions["rulesets"]
    ruleset = _ruleset_or_default(params.get("rules"))
    form = DiscardForm(form_data(params))
    set_choices(form, ruleset, _sorted(rulesets))
    if problem is not None:   # a tap that could not be done: said beside its field
        attach_errors(form, (problem,))
        weighed = Weighed()
    else:
        weighed = _weighed(form, params, rulesets)
    page = DiscardPage(form=form, ruleset=ruleset, embed=embed, action_path=path,
                       picker=picker_state(params, ruleset), palette=palette(ruleset),
                       outlook_asked=wanted(params), loose=weighed.loose)
    if weighed.result is not None:
        page = replace(page, result=weighed.result, outlook=weighed.outlook,
                       links=wait_links(weighed.result), curves=outlook_curves(weighed.outlook),
                       permalink=discard_link(params, path))
    return render_page("discard.html", page), weighed.status


def _ruleset_or_default(rid: str | None) -> Ruleset:
    """The ruleset the address names, or the default one when it names none we have."""
    rulesets = current_app.extensions["rulesets"]
    return rulesets.get(rid or current_app.config["DEFAULT_RULES"]) or rulesets[
        current_app.config["DEFAULT_RULES"]]


def _sorted(rulesets) -> list[Ruleset]:
    return sorted(rulesets.values(), key=lambda r: r.id)


def _weighed(form: DiscardForm, params: Mapping[str, str], rulesets) -> Weighed:
    """The hand asked weighed, with the outlook when asked; errors beside their fields."""
    if not (params.get("hand") or params.get("melds")):
        return Weighed()
    try:
        result = calculate_discards(params, rulesets)
        return Weighed(result=result, outlook=asked_outlook(result, params, rulesets))
    except HandError as err:
        return Weighed(loose=attach_errors(form, err.errors), status=400 if wanted(params) else 200)
    except TooMuchWork as err:   # the form comes back filled in, the refusal beside the field
        return Weighed(loose=attach_errors(form, err.errors), status=413)


def wait_links(result: DiscardResult) -> dict[tuple[str, str], str]:
    """Each wait of each discard: its calculator permalink (see wait_link)."""
    return {(c.tile.code, w.tile_code): wait_link(result, c, w.tile_code)
            for c in result.choices for w in c.waits}


def outlook_curves(found: OutlookResult | None) -> dict:
    """Each weighed discard's chance to win by draws left, drawn as a curve."""
    if not found:
        return {}
    return {o.tile.code: win_curve(o.chances.win) for o in found.choices if o.chances}


def asked_outlook(result: DiscardResult, params: Mapping[str, str], rulesets
                  ) -> OutlookResult | None:
    """The outlook when the request asks for it (`outlook=1`, `draws=`), else None."""
    if not wanted(params):
        return None
    return outlook(result, read_draws(params), rulesets)


def discard_json(result: DiscardResult, seen_outlook: OutlookResult | None = None) -> dict:
    """The answer of GET /api/discard (described in /api/openapi.json)."""
    hand = result.hand
    answer = {
        "rules": result.ruleset.id,
        "valid": True,
        "hand": canonical(hand.concealed),
        "melds": ",".join(m.token for m in hand.melds),
        "seen": format_tiles(TILES[i] for i, n in enumerate(result.table.seen) for _ in range(n)),
        "shanten": result.shanten,
        "order": discard_order(result.ruleset),
        "discards": [_choice_json(result, c) for c in result.choices],
    }
    if seen_outlook is not None:
        answer["outlook"] = outlook_json(seen_outlook, result.ruleset)
        weighed = {o.tile.code: o for o in seen_outlook.choices if o.chances is not None}
        for entry in answer["discards"]:   # INTERFACE's names, on each discard the outlook weighed
            o = weighed.get(entry["tile"])
            if o is not None:
                entry.update(p_ready=_chance(o.ready), p_win=_chance(o.win), expected=round(o.value, 4))
    return answer


def outlook_json(found: OutlookResult, ruleset) -> dict:
    """The `outlook` of GET /api/discard?outlook=1: each discard's chances, best first."""
    return {
        "draws": found.draws, **outlook_words(ruleset), "exact": not found.bounded, "bounded": found.bounded,
        "states": found.states, "scorings": found.scorings,
        "discards": [{"tile": o.tile.code, "shanten": o.choice.option.shanten,
                      "weighed": o.chances is not None,
                      "ready": _chance(o.ready), "win": _chance(o.win),
                      "value": round(o.value, 4), "reasons": list(o.reasons),
                      "by_draws_left": {"win": [_chance(p) for p in o.chances.win],
                                        "ready": [_chance(p) for p in o.chances.ready],
                                        "value": [round(v, 4) for v in o.chances.value]}
                      if o.chances else None}
                     for o in found.choices],
    }


def percent(p: float) -> str:
    """A chance as the page shows it.

    >>> percent(0.4513), percent(1.0), percent(0.0004)
    ('45.1%', '100%', '0.04%')
    """
    return chance_percent(p) + "%"


def _chance(p: float) -> float:
    return round(min(1.0, max(0.0, p)), 6)


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
    calc = wait.value.winning if wait.value.only_self_draw else wait.value.calculation
    if calc is None:
        entry["note"] = wait.value.refusal
    else:
        score = calc.score
        entry.update({"total_fan": score.total_fan, "capped_fan": score.capped_fan,
                      "points": score.points, "collects": number(wait.collects),
                      "note": Msg("below the minimum") if score.below_minimum else ""})
    if wait.value.only_self_draw:
        entry.update({"only_self_draw": True, "note": Msg("wins only by self-draw")})
    return entry


# --- practice: "What would you discard?" ----------------------------------------------------



QUESTION_SHOWN = ("hand", "melds", "missing", "seen", "draws")   # the question form's fields


@dataclass(frozen=True, slots=True)
class DiscardPracticePage(RulesetOrder):
    """What practice_discard.html shows: the hand dealt (or the teacher's question), the
    discard chosen marked, and where to go next. A page of problems has no deal."""

    ruleset: Ruleset
    embed: bool
    rulesets: list
    seed: str
    asked: bool
    form: DiscardForm | None
    kept: dict[str, str]
    problems: list[str] = field(default_factory=list)
    n: int = 1
    dealt: DiscardDeal | None = None
    hand: Hand | None = None
    verdict: DiscardVerdict | None = None
    problem: str = ""
    record: tuple[int, int] = (0, 0)
    after: tuple[int, int] = (0, 0)
    links: dict[tuple[str, str], str] = field(default_factory=dict)   # (discard, wait) → link
    next_link: str = ""
    again_link: str = ""
    question_link: str = ""
    analysis_link: str = ""
    carried: dict[str, str] = field(default_factory=dict)
    draws: int = DEFAULT_DRAWS
    outlook: OutlookResult | None = None
    curves: dict[str, Curve] = field(default_factory=dict)   # by discard
    choices: list[Tile] = field(default_factory=list)
    default_draws: int = DEFAULT_DRAWS


@bp.get("/practice/discard")
def discard_practice():
    """Deal hand n of a seeded series, or a teacher's hand; mark the discard chosen."""
    params = page_params()
    embed = params.get("embed") == "1"
    rid = params.get("rules") or current_app.config["DEFAULT_RULES"]
    rulesets = current_app.extensions["rulesets"]
    problems = [] if rid in rulesets else [unknown_ruleset(rid, rulesets)]
    ruleset = _ruleset_or_default(rid)
    asked = "hand" in params   # a teacher's question: the hand itself, no series
    seed = params.get("seed", "").strip()
    if not asked and not seed and not problems:   # a new series: a seed, so the link replays it
        return new_series(practice_link(ruleset.id, secrets.token_hex(4), 1, "", embed))
    form = question_form(params, ruleset, rulesets) if asked else None
    page = DiscardPracticePage(
        ruleset=ruleset, embed=embed, rulesets=_sorted(rulesets), seed=seed, asked=asked,
        form=form, kept={k: params[k] for k in QUESTION_FIELDS
                         if form and k in form.hidden_fields and params.get(k, "").strip()})
    draws = _draws(params, form, problems)
    if asked:
        (dealt, status), n = teachers_deal(params, ruleset, form, problems), 1
    else:
        (dealt, n), status = series_deal(params, ruleset, seed, problems), 400
    if dealt is None:
        return render_page("practice_discard.html", replace(page, problems=problems, n=n)), status
    return render_page("practice_discard.html", _marked_page(page, dealt, n, params, draws))


def _draws(params: Mapping[str, str], form: DiscardForm | None, problems: list[str]) -> int:
    """The draws left the address gives (the first turn's when none); a bad one is a problem."""
    try:
        return read_draws(params)
    except HandError as err:
        problems += attach_errors(form, err.errors) if form else [e.message for e in err.errors]
        return DEFAULT_DRAWS


def _marked_page(page: DiscardPracticePage, dealt: DiscardDeal, n: int,
                 params: Mapping[str, str], draws: int) -> DiscardPracticePage:
    """The page of one hand dealt: the discard chosen marked, the links on."""
    asked, embed, rid, seed = page.asked, page.embed, page.ruleset.id, page.seed
    drawn = {"draws": params["draws"].strip()} if params.get("draws", "").strip() else {}
    record = read_record(params.get("score", "")) if not asked else (0, 0)
    verdict, problem, found = _marked(dealt, params.get("discard", "").strip(), draws)
    after = (record[0] + int(verdict.correct), record[1] + 1) if verdict else record
    link = question_link({**dealt.params, **drawn}, embed)
    shown = found if verdict is not None and verdict.by_value else None
    return replace(
        page, dealt=dealt, hand=dealt.hand, verdict=verdict, problem=problem, n=n,
        record=record, after=after, links=wait_links(dealt.analysis),
        next_link=practice_link(rid, seed, n + 1, score_text(after), embed, drawn)
        if n < MAX_HAND and not asked else "",
        again_link=link if asked else practice_link(rid, seed, n, score_text(record), embed,
                                                    drawn),
        question_link=link, carried=({**dealt.params, **drawn} if asked else drawn),
        analysis_link=discard_link({**dealt.params, **drawn, **({"outlook": "1"} if shown else {})}),
        draws=draws, outlook=shown, curves=outlook_curves(shown),
        choices=sorted({t for t in dealt.hand.concealed}))


def _marked(dealt: DiscardDeal, chosen: str, draws: int) -> tuple:
    """The discard chosen marked (by the outlook where it can weigh it): the verdict, a problem
    with the choice, and the outlook; (None, "", None) when nothing is chosen."""
    if not chosen:
        return None, "", None
    try:
        picked = tile(chosen)
        check_discard(dealt, picked)   # a tile the hand holds, before weighing anything
        found = outlook(dealt.analysis, draws, current_app.extensions["rulesets"])
        return check_discard(dealt, picked, found), "", found
    except ValueError as err:   # NotationError or HandError: not a tile, or not held
        return None, err.errors[0].message if isinstance(err, HandError) else message_of(err), None


def teachers_deal(params: Mapping[str, str], ruleset, form: DiscardForm, problems: list[str]
                  ) -> tuple[DiscardDeal | None, int]:
    """The teacher's hand as a question, or None and the status (errors beside the fields)."""
    if problems:
        return None, 400
    try:
        dealt = question(ruleset, params)
    except HandError as err:
        problems += attach_errors(form, err.errors)
        return None, 400
    except TooMuchWork as err:   # the form comes back filled in, the refusal beside the field
        problems += attach_errors(form, err.errors)
        return None, 413
    return (None, 400) if form.errors else (dealt, 200)


def series_deal(params: Mapping[str, str], ruleset, seed: str, problems: list[str]
                ) -> tuple[DiscardDeal | None, int]:
    """Hand n of the seeded series and n, or None when the link is bad (problems said)."""
    n = series_number(params, seed, problems)
    if problems:
        return None, n
    try:
        return deal_discard(ruleset, seed, n), n
    except RuntimeError as err:   # never seen in the tests, but say so
        problems.append(try_another(err))
        return None, n


def question_form(params: Mapping[str, str], ruleset, rulesets) -> DiscardForm:
    """The teacher's question as a form: what was given, each error beside its field."""
    form = DiscardForm(form_data(params))
    set_choices(form, ruleset, _sorted(rulesets))
    shown = {k for k in QUESTION_SHOWN if k != "missing" or ruleset.missing_suit}
    form.hidden_fields = {name for name in form._fields if name not in shown}
    return form


def question_link(params: Mapping[str, str], embed: bool) -> str:
    """A link that asks exactly this hand: its description (and `draws`), no series."""
    link = discard_link({k: v for k, v in params.items() if k in ("rules", *QUESTION_FIELDS,
                                                                   "draws")},
                        "/practice/discard")
    return with_lang(link + ("&embed=1" if embed else ""))


def practice_link(rid: str, seed: str, n: int, score: str, embed: bool,
                  drawn: Mapping[str, str] | None = None) -> str:
    """A discard practice address: the series (rules, seed), the hand, the running score."""
    items = [("rules", rid), ("seed", seed), ("n", str(n)), *(drawn or {}).items()]
    if score:
        items.append(("score", score))
    if embed:
        items.append(("embed", "1"))
    return with_lang("/practice/discard?" + urlencode(items))


bp.add_app_template_global(percent, "percent")   # the outlook's chances, in outlook_table.html
