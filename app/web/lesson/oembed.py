"""oEmbed (https://oembed.com): a lesson site's editor turns a calculator link into a frame.

`GET /oembed?url=<a calculator permalink>&maxwidth=&maxheight=&format=json` answers a `rich`
object whose `html` is the frame: a result, a card or a rules page's worked example becomes
its hand card; a practice series, a discard question and its quiz, a round and the embed view
frame themselves; fan to payment frames its compact embed, a table's own rules (`/house?rules=
…&house=…`) and a shared sheet's view link (`/s/<view token>`) their embed views, a club's view
link its standings or a member's card. Every such page names its oEmbed address in an absolute
discovery `<link>` (see `discovery_link`). Any other capability link (a shared sheet's edit
link, a club's organiser or member link) and a page carrying a shared sheet
(`sheet=stored=…`) frame as nothing and name no oEmbed address: those tokens stay out of other
sites' pages.
"""
from __future__ import annotations

import itertools
import re
from typing import NamedTuple
from urllib.parse import quote_plus, unquote, urlencode, urlsplit

from flask import Blueprint, Response, abort, current_app, jsonify, request
from flask_babel import force_locale
from markupsafe import escape

from app.base.i18n import Msg, Text, pick_lang, say
from app.rules.house import joined
from app.web.common.i18n import LOCALES, gettext_in_locale, page_lang, say_here
from app.web.common.links import refuse_damaged_house
from app.web.common.present import permalink
from app.web.serving.hosts import public_host, public_root, public_url
from app.web.serving.privacy import carries_token

from .preview import thumbnail

bp = Blueprint("oembed", __name__)

PROVIDER = "Mahjong scoring calculator"
DEFAULT_WIDTH = 600
MAX_DIMENSION = 10_000
# WordPress fits a frame to the height it reports, but never above this (wp-embed.js)
HEIGHT_CAP = 1000

# Each view's content height at a frame width, measured in chromium for typical hands
# (tests/browser/test_wordpress_frame.py checks them within 20 % at 600 px): (width, height) points, nearest
# widths first; between two points the height is interpolated, outside them the nearest.
HEIGHTS = {
    "card": ((320, 615), (390, 555), (500, 537), (600, 510), (700, 478)),   # en, zh between
    "calculator": ((320, 737), (350, 677), (390, 650), (500, 633)),
    # no hand yet: the hand, the picker and Score, the rest folded (compact up to 640 px)
    "calculator-form": ((320, 880), (500, 870), (640, 780), (650, 850), (700, 820)),
    "quiz": ((320, 840), (390, 780), (500, 800), (600, 735), (700, 715)),
    "teachers-quiz": ((320, 908), (350, 885), (390, 839), (500, 788), (600, 702), (700, 647)),
    "discard": ((320, 840), (600, 840), (700, 665)),
    "discard-quiz": ((320, 663), (350, 583), (500, 574), (600, 475), (700, 452)),
    "round": ((320, HEIGHT_CAP),),
    # the compact fan-to-payment widget: five rows of its table around the fan asked
    "points": ((320, 1000), (390, 985), (600, 870), (700, 860)),
    # a shared sheet's view link: its totals and who pays whom (whatever the night's length)
    "sheet": ((320, 520), (390, 500), (600, 500)),
    # a table's own rules: its first changes and the worked hands it prices differently
    "house": ((320, 600), (390, 520), (600, 420)),
    # a club's view link (app/web/club/embed.py): the standings of eight members (each line
    # more is about 33 px, twelve at most), a member's card with a night's plot (it widens)
    "standings": ((320, 520), (390, 520), (600, 475)),
    "member": ((320, 630), (390, 650), (600, 715)),
}


class Frame(NamedTuple):
    """What an oEmbed answer frames: a path of this calculator, its query, a name, a view."""

    path: str
    query: str
    title: Msg      # said in the language of the framed page (its `lang=`)
    view: str       # a key of HEIGHTS


def content_height(view: str, width: int) -> int:
    """The height a view's content takes in a frame this wide (see HEIGHTS).

    >>> content_height("card", 600), content_height("card", 550), content_height("card", 200)
    (510, 524, 615)
    """
    points = HEIGHTS[view]
    if width <= points[0][0]:
        return points[0][1]
    for (w0, h0), (w1, h1) in itertools.pairwise(points):
        if width <= w1:
            return round(h0 + (h1 - h0) * (width - w0) / (w1 - w0))
    return points[-1][1]


def frame_for(url: str, host: str, rulesets) -> Frame | None:
    """The frame a calculator address embeds as; None for an address of another site or a
    page that is not a permalink (an empty form, the API, an unknown ruleset), or an address
    naming a shared sheet's token (`sheet=stored=…`: the frame would carry it to every reader)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.lower():
        return None
    if carries_token(parts.path, parts.query):
        return _token_frame(parts.path, parts.query)
    path = parts.path or "/"
    framed = FRAMES.get(path)
    if framed is not None:
        return framed(parts.query, _args(parts.query))
    rules = re.fullmatch(r"/rules/([a-z0-9-]+(?:~[A-Za-z0-9_-]+)?)", unquote(path))   # a club's too
    args = _args(parts.query)
    found = rulesets.get(joined(rules[1], args.get("house", ""))) if rules else None
    # `?example=<id>` names a worked example as `#worked-<id>` does, in the part of the address
    # a server sees (WordPress fetches the page for its discovery link: no fragment reaches us)
    fragment = f"worked-{args['example']}" if args.get("example") else parts.fragment
    return _rules_example(found, fragment) if found is not None else None


def _token_frame(path: str, query: str) -> Frame | None:
    """A page behind a capability link frames only as the view that owns it says (a shared
    sheet's view link: app/web/table/stored.py registers `sheet_frame` in `token_frames`; a club's:
    app/web/club/embed.py, `club_frame`); any other, as nothing."""
    for frame in current_app.extensions.get("token_frames", ()):
        found = frame(path, query)
        if found is not None:
            return found
    return None


def _hand(args: dict[str, str]) -> str:
    """What a calculator address scores: its hand, its ticks or its fan ("" for an empty form)."""
    return args.get("hand") or args.get("ticks") or args.get("fan") or ""


def _card(query: str, args: dict[str, str]) -> Frame | None:
    """A result, its tick boxes or its card: the hand card."""
    hand = _hand(args)
    return Frame("/card", query, Msg("Mahjong hand card: {hand}", hand=hand), "card") if hand else None


def _calculator(query: str, args: dict[str, str]) -> Frame:
    """The embed view: itself, with a result or the empty form."""
    return Frame("/embed", query, Msg("Mahjong scoring calculator"),
                 "calculator" if _hand(args) else "calculator-form")


def _practice(query: str, args: dict[str, str]) -> Frame | None:
    """A practice series (seed=) or a teacher's hands (hands=)."""
    if not (args.get("seed") or args.get("hands")):
        return None
    return Frame("/embed/practice", query, Msg("Mahjong quiz: count the fan"),
                 "teachers-quiz" if args.get("hands") else "quiz")


def _discard(query: str, args: dict[str, str]) -> Frame | None:
    """What to discard from a hand."""
    if not (args.get("hand") or args.get("melds")):
        return None
    return Frame("/embed/discard", query, Msg("What to discard"), "discard")


def _discard_quiz(query: str, args: dict[str, str]) -> Frame | None:
    """A series of discard questions, or one question."""
    if not (args.get("seed") or args.get("hand")):
        return None
    return Frame("/practice/discard", urlencode({**args, "embed": "1"}), Msg("What would you discard?"),
                 "discard-quiz")


def _round(query: str, args: dict[str, str]) -> Frame | None:
    """A round's ledger."""
    if not args.get("round"):
        return None
    return Frame("/round", urlencode({**args, "embed": "1"}), Msg("Mahjong round ledger"), "round")


def _points(query: str, args: dict[str, str]) -> Frame:
    """Fan to payment, the page or its embed: the compact embed."""
    return Frame("/embed/points", urlencode({k: v for k, v in args.items() if k != "embed"}),
                 Msg("Fan to payment"), "points")


def _house(query: str, args: dict[str, str]) -> Frame | None:
    """A table's own rules (`/house?rules=<family>&house=<code>`): its embed view; the empty
    builder frames as nothing."""
    if not (args.get("rules") and args.get("house")):
        return None
    return Frame("/house", urlencode({**args, "embed": "1"}), Msg("Your club's rules"), "house")


# The pages that frame as something, by path (a rules page's worked example: _rules_example).
FRAMES = {"/": _card, "/ticks": _card, "/card": _card, "/embed": _calculator,
          "/practice": _practice, "/embed/practice": _practice, "/discard": _discard,
          "/embed/discard": _discard, "/practice/discard": _discard_quiz, "/round": _round,
          "/points": _points, "/embed/points": _points, "/house": _house}


def _rules_example(ruleset, fragment: str) -> Frame | None:
    """A rules page's worked example (`#worked-<id>`) or pattern example (`#<pattern>`)."""
    params = None
    worked = fragment.removeprefix("worked-")
    for example in ruleset.examples:
        if fragment.startswith("worked-") and example.id == worked:
            params = {"rules": ruleset.id, **example.params}
    pattern = ruleset.by_id.get(fragment)
    if params is None and pattern is not None and pattern.example_params:
        params = {"rules": ruleset.id, **pattern.example_params}
    if params is None:
        return None
    link = permalink(params, "")
    name = ruleset.name   # a Text: its English alone in the English title
    return Frame("/card", link.removeprefix("?"), Msg("Mahjong hand card: {hand}", hand=Text(
        name.en, name.zh_hant, name.zh_hans, name.native)), "card")


def _args(query: str) -> dict[str, str]:
    from urllib.parse import parse_qsl
    return dict(parse_qsl(query, keep_blank_values=False))


def _dimension(name: str) -> int | None:
    raw = request.args.get(name, "").strip()
    if not raw:
        return None
    if not re.fullmatch(r"[0-9]{1,5}", raw) or not 1 <= int(raw) <= MAX_DIMENSION:
        abort(400, description=Msg("{name} must be a whole number of pixels from 1 to {most}",
                                   name=name, most=MAX_DIMENSION))
    return int(raw)


def frame_html(permalink: str, src: str, title: str, width: int, height: int, script: str) -> str:
    """The frame a consumer pastes: a plain link, then the frame, then the script that fits it.

    In the shape WordPress keeps for a provider it does not trust (`wp_filter_oembed_result`):
    its filter keeps one leading `<blockquote>` with a link and the first `<iframe>` (`src`,
    `width`, `height`, `frameborder`, `title`), shows the link until the frame speaks
    wp-embed.js's messages, and strips the rest: `loading`, `style` and the `<script>`, which
    only other consumers run (embed.js fits the frame and hides the link once it speaks).
    The frame's `width` is `100%`, the one width that survives the filter and fits a phone:
    a classic-editor post gives its frames no `max-width` (the block library's rule is only
    for embed blocks); where `style` survives, it caps the frame at `width` px.
    """
    return (f'<blockquote><a href="{escape(permalink)}">{escape(title)}</a></blockquote>'
            f'<iframe src="{escape(src)}" width="100%" height="{height}" frameborder="0" '
            f'title="{escape(title)}" loading="lazy" style="border: 0; max-width: {width}px">'
            f'</iframe><script src="{escape(script)}" async></script>')


@bp.get("/oembed")
def oembed():
    fmt = request.args.get("format", "json").strip() or "json"
    if fmt != "json":
        abort(501, description=Msg("format {format} is not served: only {json}",
                                   format=repr(fmt[:20]), json="json"))
    url = request.args.get("url", "")
    if not url:
        abort(400, description=Msg("name the calculator address to embed: {param}", param="url=…"))
    _refuse_damaged_house(url)
    frame = frame_for(url, public_host(), current_app.extensions["rulesets"])
    if frame is None:
        refused = Msg("That address is not a calculator page that can be embedded.")
        parts = urlsplit(url.strip())
        if carries_token(parts.path, parts.query):   # a capability link: not even its page's links name it
            abort(Response(str(say_here(refused)) + "\n", 404, mimetype="text/plain"))
        abort(404, description=refused)
    max_width, max_height = _dimension("maxwidth"), _dimension("maxheight")
    width = min(DEFAULT_WIDTH, max_width or DEFAULT_WIDTH)
    height = min(content_height(frame.view, width), max_height or HEIGHT_CAP, HEIGHT_CAP)
    root = public_root()
    src = f"{root}{frame.path}" + (f"?{frame.query}" if frame.query else "")
    script = root + "/static/embed.js"
    lang = pick_lang(_args(frame.query).get("lang")) or page_lang()
    title = framed_title(frame.title, lang)
    return jsonify({
        "version": "1.0", "type": "rich", "provider_name": PROVIDER, "provider_url": root + "/",
        "title": title, "width": width, "height": height,
        "html": frame_html(url.strip(), src, title, width, height, script),
        **thumbnail(root, frame.path, frame.query, lang),
    })


def _refuse_damaged_house(url: str) -> None:
    """A 400 naming `house` for an address whose club rules code does not read, as the framed
    page itself would answer."""
    parts = urlsplit(url.strip())
    if parts.netloc.lower() != public_host().lower():
        return   # another site's address: not ours to judge (frame_for answers 404)
    args = _args(parts.query)
    rules = re.fullmatch(r"/rules/([^/]+)", unquote(parts.path))
    rid = rules[1] if rules else args.get("rules", "").strip() or current_app.config["DEFAULT_RULES"]
    house = args.get("house", "").strip()
    if house:   # as the framed page: a damaged `house=` is named, an unknown address is a 404
        refuse_damaged_house(joined(rid, house))


def framed_title(title: Msg, lang: str) -> str:
    """A frame's title in the language of the page it frames (the address's `lang=`)."""
    with force_locale(LOCALES[lang]):
        return say(title, lang, gettext_in_locale)


def discovery_link() -> str:
    """This page's oEmbed address, for its `<link rel="alternate">`; empty when it has none.

    Absolute, because a consumer uses the href as written: WordPress's `WP_oEmbed::discover()`
    fetches it through `wp_http_validate_url()`, which refuses an address without a host."""
    if request.method != "GET" or request.endpoint in (None, "static", "oembed.oembed"):
        return ""
    url = public_url()
    if frame_for(url, public_host(), current_app.extensions["rulesets"]) is None:
        return ""
    return f"{public_root()}/oembed?url={quote_plus(url)}&format=json"   # as urlencode writes it
