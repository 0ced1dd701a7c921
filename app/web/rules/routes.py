"""Rules pages: every table of a ruleset rendered from its YAML, the data the calculator uses."""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from flask import Blueprint, abort, current_app, render_template, request

from app.base.errors import HandError, NotationError
from app.hands.tiles import parse_tiles
from app.rules.house import decode, differences, is_house, joined
from app.rules.model import Ruleset
from app.vocabulary.quiz import LINE_KEYS, MAX_HANDS, format_line, quiz_hand
from app.web.common.i18n import with_lang
from app.web.common.links import refuse_damaged_house
from app.web.common.present import permalink

bp = Blueprint("rules", __name__, url_prefix="/rules")


@bp.get("/")
def index():
    rulesets = sorted(current_app.extensions["rulesets"].values(), key=lambda r: r.id)
    return render_template("rules_index.html", rulesets=rulesets)


@dataclass(frozen=True, slots=True)
class RulesetPage:
    """What ruleset.html shows: a ruleset's tables, its worked examples and, for a club's
    variant, what it changes of its family's rules."""

    rs: Ruleset
    example_links: dict[str, str]
    worked: list[tuple]
    quiz_link: str
    house_base: Ruleset | None
    house_changes: tuple
    house_changed: set[str]
    house_base_fans: dict[str, int]


@bp.get("/<rid>")
def ruleset(rid: str):
    house = request.args.get("house", "").strip()
    rid = joined(rid, house)   # /rules/<family>?house=<code>
    if house:   # a damaged `house=` is named; a path naming no ruleset stays a 404
        refuse_damaged_house(rid)
    rs = current_app.extensions["rulesets"].get(rid)   # looked up, never used as a path
    if rs is None:
        abort(404)
    base = house_base(rs)
    changes = differences(rs, base) if base else ()
    quiz = quiz_link(rs)
    page = RulesetPage(
        rs=rs, example_links=example_links(rs), worked=worked_examples(rs),
        quiz_link=with_lang(quiz) if quiz else "", house_base=base, house_changes=changes,
        house_changed={d.pattern for d in changes if d.pattern},
        house_base_fans={d.pattern: d.before for d in changes if d.what == "fan"})
    return render_template("ruleset.html", page=page)


def example_links(rs: Ruleset) -> dict[str, str]:
    """Each pattern's example as a link: the calculator (or the tick boxes) priced."""
    return {p.id: _example_link(rs, p.example_params) for p in rs.patterns if p.example_params}


def _example_link(rs: Ruleset, params: dict[str, str], path: str = "") -> str:
    params = {"rules": rs.id, **params}
    return with_lang(permalink(params, path or ("/ticks" if "ticks" in params else "/")))


def worked_examples(rs: Ruleset) -> list[tuple]:
    """Each worked example with its link, its concealed tiles and its card's link."""
    return [(ex, _example_link(rs, ex.params), _tiles(ex.params.get("hand", "")),
             _example_link(rs, ex.params, "/card")) for ex in rs.examples]


def house_base(rs):
    """The family a club's variant was made from; None for a family's own ruleset."""
    if not is_house(rs.id):
        return None
    return current_app.extensions["rulesets"].get(decode(rs.id).base)


def _tiles(hand: str) -> list:
    """A worked example's concealed tiles, shown beside it (none when it gives no tiles)."""
    try:
        return list(parse_tiles(hand))
    except NotationError:
        return []


def quiz_link(rs) -> str:
    """"Quiz me on these": the worked examples that are whole tile hands, as a teacher's quiz."""
    lines = []
    for number, ex in enumerate(rs.examples, 1):
        if "hand" not in ex.params or not set(ex.params) <= set(LINE_KEYS):
            continue
        try:
            quiz_hand(rs, ex.params, {}, number)
        except HandError:
            continue   # an example of a refusal is no question
        lines.append(format_line(ex.params))
    if not lines:
        return ""
    items = [("rules", rs.id), *[("hands", line) for line in lines[:MAX_HANDS]], ("ask", "fan"),
             ("reveal", "after")]
    return "/practice?" + urlencode(items, safe="/,")
