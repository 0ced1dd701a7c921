"""The hand card (/card): one scored hand as a compact figure for a lesson page.

The card shows what the result page shows of a hand (the same macros: grouping, breakdown,
minimum note, payments) and nothing to edit: it links to the calculator instead. Its options
are in the address: `show=` any of tiles, breakdown, payments; `theme=light|dark`.
"""
from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from flask import Blueprint, current_app, render_template, request

from app import vocabulary
from app.base.errors import FieldError, HandError
from app.base.i18n import Msg
from app.web.common.present import canonical_params, page_params, permalink
from app.web.serving.hosts import public_root

bp = Blueprint("card", __name__)

PARTS = ("tiles", "breakdown", "payments")
THEMES = ("light", "dark")


def read_show(values: list[str]) -> tuple[frozenset[str], list[FieldError]]:
    """The parts a card shows (`show=tiles,payments` or repeated); all when none is named."""
    named = [part.strip() for v in values for part in v.split(",") if part.strip()]
    unknown = [n for n in named if n not in PARTS]
    if unknown:
        return frozenset(PARTS), [FieldError("show", Msg("'{part}' is not a part of a card: "
                                                         "name any of {parts}",
                                                         part=unknown[0], parts=", ".join(PARTS)))]
    return frozenset(named or PARTS), []


def read_theme(value: str) -> tuple[str, list[FieldError]]:
    """The card's colours: light (the default) or dark."""
    value = value.strip() or "light"
    if value not in THEMES:
        return "light", [FieldError("theme", Msg("'{value}' is not a theme: {light} or {dark}",
                                                 value=value, light="light", dark="dark"))]
    return value, []


def card_options(args) -> tuple[frozenset[str], str, list[FieldError]]:
    show, show_errors = read_show(args.getlist("show"))
    theme, theme_errors = read_theme(args.get("theme", ""))
    return show, theme, show_errors + theme_errors


def hand_params(params: dict[str, str]) -> dict[str, str]:
    """The hand description alone, without the card's own options."""
    return {k: v for k, v in params.items() if k not in ("show", "theme")}


def card_figure(params: dict[str, str], args) -> dict:
    """What a card shows, for card_figure.html: the hand scored by the core, or its errors.

    The /card page and the Markdown extension (app/web/lesson/markdown.py) both draw this."""
    show, theme, errors = card_options(args)
    calc = None
    if not errors:
        if not (params.get("hand") or params.get("ticks") or params.get("fan")):
            errors = [FieldError("hand", Msg("a card needs a hand: add {param} (MPSZ notation) "
                                             "to the address", param="hand=…"))]
        else:
            try:
                calc = vocabulary.score(params, current_app.extensions["rulesets"])
            except HandError as err:
                errors = list(err.errors)
    ruleset = current_app.extensions["rulesets"].get(params.get("rules", "")) or (
        calc.ruleset if calc else None)
    if calc is not None:
        canonical = canonical_params(calc, params)
        calculator_link = permalink(canonical, "/ticks" if calc.ticks is not None else "/")
    else:
        calculator_link = permalink(params, "/")
    return {"calc": calc, "errors": errors, "show": show, "theme": theme, "ruleset": ruleset,
            "calculator_link": calculator_link}


@bp.get("/card")
def card():
    figure = card_figure(hand_params(page_params()), request.args)
    page = render_template("card.html", **figure, embed=True,
                           card_self=card_link(figure["calc"], hand_params(page_params()))
                           if figure["calc"] else "")
    return page, 400 if figure["errors"] else 200


def card_link(calc, params: dict[str, str], canonical: dict[str, str] | None = None) -> str:
    """The card of a scored hand ("Embed this hand" on a result page); `canonical` is the
    request's canonical_params when the page has them already."""
    return permalink(canonical or canonical_params(calc, params), "/card")


@bp.app_template_global()
def ways_in(card: str) -> dict[str, str]:
    """The three ways a lesson page takes this hand, as text to copy (macros.html, ways_in):
    the card's address (oEmbed sites: pasted alone on a line), the embed.js element, and the
    Markdown block (app/web/lesson/markdown.py). `card` is the card's link, lang included."""
    root = public_root()
    query = urlsplit(card).query
    return {
        "link": f"{root}/card?{query}",
        "snippet": (f'<div data-mahjong="{query}" data-view="card"></div>\n'
                    f'<script src="{root}/static/embed.js" async></script>'),
        "markdown": "```mahjong\n" + " ".join(f"{k}={v}" for k, v in parse_qsl(query)) + "\n```",
    }
