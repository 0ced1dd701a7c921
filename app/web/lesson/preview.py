"""Link previews: what a chat or forum (WeChat, WhatsApp, Discord, Telegram, Slack…) shows of a
pasted calculator address.

Every page's head carries Open Graph and Twitter tags (`link_preview`, base.html): its title, a
description (for a scored hand: the fan and who pays whom, in the page's language) and a
picture. The picture of a scored hand is `/og/hand.png?<the hand's canonical query>`: a PNG of
1200 × 630, drawn here from the tiles' own drawings (static/tiles/sprite.svg, drawing.py) and
the result, rasterised by resvg (the `resvg-py` wheel: no browser, no external service, no
system library). Other pages show `/og/site.png`. The PNGs are answers like any other GET
(serving/caching.py: ETag and Cache-Control from the build and the address) and are kept in
memory by their address (`_png`), so a chat's crawler asking again costs nothing.

A page naming a shared sheet's token says its title and description only: no picture address
and no `og:url`, so the token goes nowhere it was not already.
"""
from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

from flask import Blueprint, Response, abort, current_app
from markupsafe import Markup, escape

from app import vocabulary
from app.base.errors import HandError
from app.scoring.budget import TooMuchWork
from app.scoring.calculation import Calculation
from app.scoring.payments import fmt
from app.web.common.forms import SEAT_NAMES
from app.web.common.i18n import gettext_page as _
from app.web.common.i18n import page_lang, say_here
from app.web.common.present import canonical_params, page_params, permalink, value_label
from app.web.serving.hosts import public_root, public_url
from app.web.serving.privacy import private_request

from .drawing import TILE_H, TILE_W, sprite_symbols

bp = Blueprint("preview", __name__)

WIDTH, HEIGHT = 1200, 630   # the size Open Graph consumers ask for (1.91 : 1)
MARGIN = 48
FONTS = ("DejaVu Sans, Liberation Sans, Noto Sans CJK HK, Noto Sans CJK SC, "
         "WenQuanYi Micro Hei, sans-serif")
LOCALES = {"en": "en_GB", "zh-Hant": "zh_HK", "zh-Hans": "zh_CN"}
INK, PAPER, MUTED, WON, PAID = "#1b2448", "#f6f1e4", "#5a5f73", "#0b6e3d", "#9c1c1c"


# ---------------------------------------------------------------- the words
def seat_word(seat: str) -> str:
    """A seat as a sentence says it: East, 東 / 东 (the family's wind)."""
    return value_label("seat", seat) if page_lang() != "en" else SEAT_NAMES[seat].split()[0]


def _stop() -> str:
    return ". " if page_lang() == "en" else "。"


def result_heading(calc: Calculation) -> str:
    """'4 fan under Hong Kong 36 hands', as the card's title says it."""
    return _("%(fan)s fan under %(rules)s", fan=calc.score.total_fan,
             rules=say_here(calc.ruleset.name))


def payments_sentence(calc: Calculation) -> str:
    """Who pays whom, the winner first: 'Who pays whom: South +96, East −32, …'."""
    rows = sorted(calc.payments, key=lambda p: p.amount <= 0)
    comma = ", " if page_lang() == "en" else "，"
    listed = comma.join(f"{seat_word(p.seat)} {'+' if p.amount > 0 else ''}{fmt(p.amount)}"
                        for p in rows if p.amount)
    colon = ": " if page_lang() == "en" else "："
    return f"{_('Who pays whom')}{colon}{listed}" if listed else ""


def hand_description(calc: Calculation) -> str:
    """The fan and who pays, in the page's language: a preview's description."""
    score = calc.score
    parts = [result_heading(calc)]
    if score.capped_fan != score.total_fan:
        parts.append(_("Paid as %(fan)s fan, the cap.", fan=score.capped_fan).rstrip(".。"))
    if score.below_minimum:
        parts.append(_("%(fan)s fan is below the minimum of %(min)s.", fan=score.total_fan,
                       min=score.settings.min).rstrip(".。"))
    parts.append(payments_sentence(calc))
    return _stop().join(p for p in parts if p).strip() + (
        "." if page_lang() == "en" else "。")


def site_description() -> str:
    return _("Score a mahjong hand: its fan and who pays whom, under Hong Kong, Sichuan or "
             "your family's rules. Every result is a link to share.")


# ---------------------------------------------------------------- the tags
def hand_image(calc: Calculation, link: str = "") -> str:
    """The address of a scored hand's picture: its canonical query on /og/hand.png (`link`:
    the page's permalink to this hand, when it has one already)."""
    query = urlsplit(link or permalink(canonical_params(calc, page_params()), "/")).query
    lang = page_lang()
    if lang != "en":
        query += f"&lang={lang}"
    return f"{public_root()}/og/hand.png?{query}"


def link_preview(title: str, calc: Calculation | None = None,
                 description: str | None = None, link: str = "") -> Markup:
    """The head's preview tags (base.html): Open Graph, Twitter's card and a description
    (`link`: the page's permalink to the scored hand, for its picture's address)."""
    private = private_request()
    if calc is not None and description is None:
        description = hand_description(calc)
    description = description or site_description()
    image = ""
    if not private:
        image = hand_image(calc, link) if calc is not None and calc.hand is not None else (
            f"{public_root()}/og/site.png" + (f"?lang={page_lang()}" if page_lang() != "en" else ""))
    tags = [
        ("name", "description", description),
        ("property", "og:type", "website"),
        ("property", "og:site_name", _("Mahjong scoring calculator")),
        ("property", "og:title", title),
        ("property", "og:description", description),
        ("property", "og:locale", LOCALES.get(page_lang(), "en_GB")),
    ]
    if not private:
        tags += [("property", "og:url", public_url()),
                 ("property", "og:image", image),
                 ("property", "og:image:width", str(WIDTH)),
                 ("property", "og:image:height", str(HEIGHT)),
                 ("property", "og:image:alt", description)]
    # Twitter's (X's) cards read og:title, og:description and og:image where their own are missing
    tags.append(("name", "twitter:card", "summary_large_image" if image else "summary"))
    return Markup("\n  ".join([f'<meta {attr}="{key}" content="{escape(value)}">'
                               for attr, key, value in tags]))


# ---------------------------------------------------------------- the picture
def _text(x: float, y: float, size: int, words: str, fill: str = INK, weight: str = "normal",
          anchor: str = "start") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" font-weight="{weight}" '
            f'fill="{fill}" text-anchor="{anchor}">{escape(words)}</text>')


def _tiles(groups: list[list[str]], top: int, height: int) -> tuple[str, set[str]]:
    """The hand's groups as a row of tiles across the picture, a gap between groups."""
    count = sum(len(g) for g in groups)
    gap = 18
    room = WIDTH - 2 * MARGIN - gap * (len(groups) - 1)
    scale = min(height / TILE_H, room / (count * TILE_W))
    w, h = TILE_W * scale, TILE_H * scale
    x = (WIDTH - (count * w + gap * (len(groups) - 1))) / 2
    out, used = [], set()
    for group in groups:
        for code in group:
            used.add(code)
            out.append(f'<use href="#og-t{code}" x="{x:.1f}" y="{top}" '
                       f'width="{w:.1f}" height="{h:.1f}"/>')
            x += w
        x += gap
    return "".join(out), used


def hand_groups(calc: Calculation) -> list[list[str]]:
    """The tiles to draw, group by group: as the reading grouped them, else as held."""
    if calc.score.reading:
        return [[t.code for t in g.tiles] for g in calc.score.reading.groups]
    if calc.hand is None:   # tick boxes: no tiles
        return []
    return [[t.code for t in calc.hand.concealed]] + [[t.code for t in m.tiles]
                                                       for m in calc.hand.melds]


def _payment_boxes(calc: Calculation) -> list[str]:
    """Who pays whom as a box a seat: the winner's gain in green, each payer's loss in red."""
    rows = [p for p in sorted(calc.payments, key=lambda p: p.amount <= 0) if p.amount]
    body = []
    for i, p in enumerate(rows):
        width = (WIDTH - 2 * MARGIN) / len(rows)
        x = MARGIN + i * width
        colour = WON if p.amount > 0 else PAID
        body += [f'<rect x="{x + 6:.1f}" y="400" width="{width - 12:.1f}" height="130" '
                 f'rx="14" fill="#ffffff" stroke="{colour}" stroke-width="3"/>',
                 _text(x + width / 2, 448, 34, seat_word(p.seat), anchor="middle"),
                 _text(x + width / 2, 506, 52, ("+" if p.amount > 0 else "−")
                       + fmt(abs(p.amount)), fill=colour, weight="bold", anchor="middle")]
    return body


def hand_svg(calc: Calculation) -> str:
    """The picture of a scored hand: the fan, the rules, the tiles and who pays whom."""
    score = calc.score
    fan = (_("%(fan)s fan, paid as %(paid)s", fan=score.total_fan, paid=score.capped_fan)
           if score.capped_fan != score.total_fan else _("%(fan)s fan", fan=score.total_fan))
    body = [_text(MARGIN, 104, 76, fan, weight="bold"),
            _text(MARGIN, 160, 36, say_here(calc.ruleset.name), fill=MUTED)]
    if score.below_minimum:
        body += [_text(WIDTH - MARGIN, 104, 32, _("Not a legal win:").rstrip(":："),
                       fill=PAID, weight="bold", anchor="end"),
                 _text(MARGIN, 440, 36, _("%(fan)s fan is below the minimum of %(min)s.",
                                          fan=score.total_fan, min=score.settings.min))]
    groups = hand_groups(calc)
    tiles, used = _tiles(groups, 200, 150) if groups else ("", set())
    body += [tiles, *_payment_boxes(calc),
             _text(MARGIN, HEIGHT - 36, 28, _("Mahjong scoring calculator"), fill=MUTED),
             _text(WIDTH - MARGIN, HEIGHT - 36, 28, urlsplit(public_root()).netloc,
                   fill=MUTED, anchor="end")]
    return _svg(body, used)


def site_svg() -> str:
    """The picture of a page without a scored hand: the site's name over a row of tiles."""
    tiles, used = _tiles([["1m", "9m"], ["1p", "9p"], ["1s", "9s"],
                          ["1z", "2z", "3z", "4z", "5z", "6z", "7z"]], 250, 130)
    return _svg([_text(MARGIN, 150, 72, _("Mahjong scoring calculator"), weight="bold"),
                 tiles,
                 _text(MARGIN, 500, 34, _("The fan and who pays whom, for every hand."),
                       fill=MUTED),
                 _text(WIDTH - MARGIN, HEIGHT - 36, 28, urlsplit(public_root()).netloc,
                       fill=MUTED, anchor="end")], used)


def _svg(body: list[str], used: set[str]) -> str:
    symbols = sprite_symbols(current_app.static_folder, "og-")
    defs = symbols["face"] + "".join(symbols[c] for c in sorted(used))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" '
            f'xmlns:xlink="http://www.w3.org/1999/xlink" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONTS}">'
            f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{PAPER}"/>'
            f'<defs>{defs}</defs>{"".join(body)}</svg>')


@lru_cache(maxsize=512)
def _png(svg: str) -> bytes:
    """The PNG of a picture, kept by its drawing (which its address decides)."""
    import resvg_py
    return bytes(resvg_py.svg_to_bytes(svg_string=svg))


def _png_answer(svg: str) -> Response:
    return Response(_png(svg), mimetype="image/png")


@bp.get("/og/hand.png")
def hand_png():
    """A scored hand's picture; 400 for an address that names no hand that scores (a picture
    is no place for the page's messages: the page at the same query says them)."""
    params = {k: v for k, v in page_params().items() if k not in ("show", "theme")}
    if not (params.get("hand") or params.get("ticks") or params.get("fan")):
        abort(400)
    try:
        calc = vocabulary.score(params, current_app.extensions["rulesets"])
    except (HandError, TooMuchWork):
        abort(400)
    return _png_answer(hand_svg(calc))


@bp.get("/og/site.png")
def site_png():
    return _png_answer(site_svg())


def thumbnail(root: str, path: str, query: str, lang: str) -> dict:
    """oEmbed's thumbnail fields for a frame (oembed.py): a hand card's picture is its hand's,
    any other frame's the site's; what a consumer shows before, or instead of, the frame."""
    if path == "/card":
        url = f"{root}/og/hand.png?{query}"
    else:
        url = f"{root}/og/site.png" + (f"?lang={lang}" if lang != "en" else "")
    return {"thumbnail_url": url, "thumbnail_width": WIDTH, "thumbnail_height": HEIGHT}
