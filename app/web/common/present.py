"""Between HTTP and the core: request arguments in, permalinks and JSON-ready values out."""
from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from urllib.parse import quote_plus

from flask import current_app, g, has_request_context, render_template, request, url_for
from markupsafe import Markup, escape
from werkzeug.datastructures import MultiDict

from app.base.i18n import N_, Msg
from app.hands.phrases import listing
from app.hands.tiles import tile as parse_tile
from app.rules.house import split
from app.rules.model import CITATION, DEFAULT_WORDS, Amount, Words, family_fields
from app.scoring.calculation import Calculation, WaitsResult
from app.scoring.payments import fmt
from app.vocabulary.hand import describe

from .fragments import cache
from .i18n import explicit_lang, once_a_request, page_lang, say_here, template_gettext, written
from .i18n import page_gettext as _

# Fields that may hold several values; in links they are written compactly (`flowers=13`,
# `events=a,b`), in forms they arrive repeated (`flowers=1&flowers=3`).
LIST_FIELDS = ("flowers", "seasons", "events", "options", "won", "ticks")
DIGIT_LISTS = ("flowers", "seasons")
MAX_VALUES = 64            # more values than this for one name is refused
MAX_QUERY = 4096           # characters
MAX_QUERY_WITH_SHEET = 8000   # a page that carries a game sheet along (`sheet=…`) may be longer


class TooMuch(ValueError):
    """A request larger than any real hand description."""


def page_params() -> dict[str, str]:
    """The current page request's arguments; 414 or 400 for requests no hand needs."""
    from flask import abort, request
    if len(request.query_string) > query_limit():
        abort(414)
    try:
        return params_from(request.args)
    except TooMuch:
        abort(400)


def query_limit() -> int:
    """The longest address this request may have: longer when it carries a game sheet."""
    return MAX_QUERY_WITH_SHEET if "sheet" in request.args else MAX_QUERY


def params_from(args: MultiDict) -> dict[str, str]:
    """Flatten request arguments to one string per name, as the core reads them."""
    params: dict[str, str] = {}
    for key in args:
        values = args.getlist(key)
        if len(values) > MAX_VALUES:
            raise TooMuch(f"{key}: {len(values)} values is too many")
        if key in LIST_FIELDS:
            params[key] = ",".join(v for v in values if v)
        else:
            params[key] = values[-1]   # a repeated single field: the last one wins
    return params


def form_data(params: Mapping[str, str]) -> MultiDict:
    """Expand compact list fields so WTForms check boxes see one value each."""
    data = MultiDict()
    for key, value in params.items():
        if key in DIGIT_LISTS:
            for char in value.replace(",", ""):
                data.add(key, char)
        elif key in LIST_FIELDS:
            for part in value.replace(" ", ",").split(","):
                if part:
                    data.add(key, part)
        else:
            data.add(key, value)
    return data


PERMALINK_ORDER = ("rules", "house", "hand", "win", "melds", "by", "seat", "round", "flowers", "seasons",
                   "events", "missing", "ticks", "fan", "options", "min", "cap", "curve", "payment",
                   "stake", "discarder", "winner", "won", "liable")


def permalink(params: Mapping[str, str], path: str = "/") -> str:
    """A stable link in the public vocabulary, empty values left out; a club's variant
    (`<family>~<code>`) as `rules=<family>&house=<code>`."""
    family, code = split(params.get("rules", ""))
    if code:
        params = {**params, "rules": family, "house": code}
    query = "&".join([f"{k}={_quoted(params[k])}" for k in PERMALINK_ORDER if params.get(k)])
    return f"{path}?{query}" if query else path


def _quoted(value: str) -> str:
    """A value as urlencode(…, safe=",:") writes it: most are plain and stay as they are.

    >>> _quoted("123m,ckong:5555z"), _quoted("a b&c")
    ('123m,ckong:5555z', 'a+b%26c')
    """
    return value if _PLAIN_VALUE.fullmatch(value) else quote_plus(value, safe=",:")


_PLAIN_VALUE = re.compile(r"[A-Za-z0-9_.~,:-]*")   # what quote_plus(safe=",:") keeps as it is


def canonical_params(calc: Calculation, given: Mapping[str, str]) -> dict[str, str]:
    """The request rewritten canonically: the hand sorted, defaults made explicit."""
    params = {k: v for k, v in given.items() if k in PERMALINK_ORDER and v}
    params["rules"] = calc.ruleset.id
    if calc.hand is not None:
        params.update(describe(calc.hand))
    if calc.table.discarder and "discarder" in given:
        params["discarder"] = calc.table.discarder
    return params


def number(amount: Amount) -> int | float:
    """An exact amount for JSON: whole numbers as ints, halves and quarters as floats."""
    if isinstance(amount, Fraction):
        return amount.numerator if amount.denominator == 1 else float(amount)
    return amount


def score_json(calc: Calculation, given: Mapping[str, str]) -> dict:
    """The answer of GET /api/score (described in /api/openapi.json)."""
    score = calc.score
    params = canonical_params(calc, given)
    return {
        "rules": calc.ruleset.id,
        "valid": True,
        "hand": calc.hand.description if calc.hand is not None else None,
        "permalink": permalink(params, "/ticks" if calc.ticks is not None else "/"),
        "grouping": list(score.reading.grouping) if score.reading is not None else [],
        # the name a Name: its English, or its Chinese in a Chinese answer (see i18n)
        "patterns": [{"id": i.pattern.id, "name": i.pattern.name, "name_zh": i.pattern.name.zh,
                      "fan": i.fan, "count": i.count, "counted": i.counted, "note": i.note}
                     for i in score.items],
        "total_fan": score.total_fan,
        "capped_fan": score.capped_fan,
        "below_minimum": score.below_minimum,
        "minimum": score.settings.min,
        "cap": score.settings.cap,
        "curve": score.settings.curve,
        "payment": score.settings.payment,
        "points": score.points,
        "payments": [{"seat": p.seat, "role": p.role, "amount": number(p.amount), "reason": p.reason}
                     for p in calc.payments],
        "assumed": [{"field": a.field, "value": a.value, "reason": a.reason} for a in calc.assumed],
        # of ticks: what they were read to imply (rulings 86, 87)
        **({"inferred": list(calc.inferred)} if calc.ticks is not None else {}),
    }


def waits_json(result: WaitsResult) -> dict:
    """The answer of GET /api/waits (described in /api/openapi.json)."""
    waits = []
    for w in result.waits:
        entry = {"tile": w.tile.code, "left": w.left}
        calc = w.winning if w.only_self_draw else w.calculation
        if calc is None:
            entry.update({"wins": False, "note": w.refusal})
        else:
            score = calc.score
            winner = next(p for p in calc.payments if p.role == "winner")
            entry.update({"wins": w.can_win, "total_fan": score.total_fan,
                          "capped_fan": score.capped_fan, "points": score.points,
                          "collects": number(winner.amount),
                          "grouping": list(score.reading.grouping) if score.reading else []})
        if w.only_self_draw:
            entry.update({"only_self_draw": True, "note": Msg("wins only by self-draw")})
        waits.append(entry)
    answer = {"rules": result.ruleset.id, "valid": True, "ready": result.ready,
              "can_win": result.can_win, "waits": waits}
    if result.house_rules:
        answer["house_rules"] = [
            {"option": h.option, "waits": [t.code for t in h.tiles],
             "note": Msg("ready under the house rule {rule}, off: add {param} to play it",
                         rule=result.ruleset.by_id[h.option].name, param=f"options={h.option}")}
            for h in result.house_rules]
    return answer


def tile_img(tile, cls: str = "tile") -> Markup:
    """A tile's <img>, named for screen readers (macros.html's tile_img; a page has ~60).

    The name is in the page's family's script: simplified on a Sichuan page (一万, 一条).
    """
    imgs = _tile_imgs()
    try:
        return imgs[tile, cls]
    except KeyError:
        make = _tile_svg if request.environ.get(INLINE_TILES) else _tile_img
        found = imgs[tile, cls] = make(request.script_root, tile, tile_naming(), cls)
        return found


def tile_imgs(tiles, cls: str = "tile") -> Markup:
    """Tiles' <img>s side by side (a group, a meld): one template call for the lot."""
    imgs = _tile_imgs()
    try:
        return Markup("".join([imgs[t, cls] for t in tiles]))
    except KeyError:
        return Markup("".join([tile_img(t, cls) for t in tiles]))


def tile_name(tile) -> str:
    """A tile's accessible name in the script of the page's family ('1 Characters 一万')."""
    return _label(tile, tile_naming())


def tile_said(tile) -> str:
    """A tile in a sentence of the page (打 七筒): its name on a Chinese page, in the names its
    pictures carry; its notation in English (7p), as English players write it. A code is read."""
    found = parse_tile(tile) if isinstance(tile, str) else tile
    return tile_name(found) if _chinese() else found.code


def tile_named(tile) -> Markup:
    """A tile drawn with its name written beside it (a row of the discard tables, the advice's
    heading): on a Chinese page the name is the text and the picture adds nothing for a screen
    reader (hidden from it, so the name is not said twice); in English the named picture, then
    the notation (5s)."""
    if not _chinese():
        return Markup("{} {}").format(tile_img(tile), tile.code)
    return Markup('<span aria-hidden="true">{}</span> {}').format(tile_img(tile), tile_name(tile))


def tiles_said(tiles) -> str:
    """Tiles listed in a sentence: "7p, 8p" in English, 七筒、八筒 in Chinese."""
    return ("、" if _chinese() else ", ").join(tile_said(t) for t in tiles)


def meld_tiles_said(meld) -> str:
    """A meld's tiles in a sentence: 345m in English; on a Chinese page a pong or a kong by its
    tile's name (九筒), a run by its numbers and then its suit (三四五萬), as players say them."""
    found = meld if isinstance(meld, Mapping) else {"tiles": meld.tiles, "token": meld.token}
    tiles = tuple(found.get("tiles") or ())   # a picker's meld is a dict (picker.picker_state)
    if not _chinese() or not tiles:
        return found["token"].split(":")[-1]
    names = [tile_name(t) for t in tiles]
    if len(set(tiles)) == 1:
        return names[0]
    if all(t.suit == tiles[0].suit for t in tiles) and not tiles[0].is_honour:
        return "".join(n[:-1] for n in names) + names[0][-1]
    return "、".join(names)


def _label(tile, naming: str) -> str:
    """`traditional`/`simplified`: English and Chinese; `zh-Hant…`/`zh-Hans…`: Chinese alone, a
    suited tile's name ending in the suit word the naming gives (`zh-Hant:萬筒條`: 五條).

    >>> from app.hands.tiles import tile
    >>> [_label(tile("5s"), n) for n in ("zh-Hant:萬筒條", "zh-Hans:万筒索", "zh-Hans", "simplified")]
    ['五條', '五索', '五条', '5 Bamboo 五条']
    """
    if naming.startswith("zh-"):
        lang, _, words = naming.partition(":")
        name = tile.name_zh if lang == "zh-Hant" else tile.name_zh_hans
        at = "mps".find(tile.suit) if words else -1
        return name[:-1] + words[at] if at >= 0 else name
    return f"{tile.name_en} {tile.name_zh_hans}" if naming == "simplified" else tile.label


def tile_naming() -> str:
    """How this page names tiles: in its language if Chinese, else English and the family's script."""
    return once_a_request(_TILE_NAMING, lambda r: _naming())


def _naming() -> str:
    """`traditional`/`simplified` on an English page; on a Chinese one its language and the
    family's suit words (`zh-Hant:萬筒條`), which its tile names end in."""
    lang = page_lang()
    if lang == "en":
        return tile_script()
    suits = page_words().suits
    return f"{lang}:{suits['m']}{suits['p']}{suits['s']}"


_TILE_NAMING = "mahjong.tile_naming"


def _tile_imgs() -> dict:
    """This page's tile <img>s by (tile, class): its mount point's and tile naming's table."""
    return once_a_request(_TILE_IMGS, lambda r: _tile_table(
        r.script_root, tile_naming(), bool(r.environ.get(INLINE_TILES))))


_TILE_IMGS = "mahjong.tile_imgs"
# Set in a request's environ by a renderer whose page cannot fetch the sprite (the Markdown
# extension): its tiles are inline <svg>s, each a <use> of a symbol the page carries once.
INLINE_TILES = "mahjong.inline_tiles"


@lru_cache(maxsize=64)
def _tile_table(root: str, naming: str, inline: bool = False) -> dict:
    """The <img>s made so far for one mount point and tile naming (at most 42 tiles × the
    classes the templates use), shared by every request that names tiles so."""
    return {}


def tile_script() -> str:
    """The script tiles are named in on this page: the family's own when the address names it.

    Worked out once a request (a page names about forty tiles).
    """
    return once_a_request(_TILE_SCRIPT, lambda r: _tile_script())


def _tile_script() -> str:
    ruleset = _named_ruleset()
    lang = page_lang()
    if lang != "en":
        return "simplified" if lang == "zh-Hans" else "traditional"
    return ("simplified" if ruleset is not None and ruleset.words.script == "simplified"
            else "traditional")


_TILE_SCRIPT = "mahjong.tile_script"


def site_nav(ruleset=None) -> Markup:
    """The brand and the main navigation, rendered once per language, family brand and mount."""
    brand = page_words(ruleset).brand
    parts = cache("form_parts")
    key = ("site-nav", request.script_root, explicit_lang(), brand)
    found = parts.get(key)
    return found if found is not None else parts.put(key, parts.macro("site_nav")(brand))


def template_url_for(endpoint: str, **values) -> str:
    """Templates' url_for: Flask's, kept per endpoint, values, mount point and `lang=` (a page
    builds the same few: its style sheet and script, its rules page, the API's address).

    An address made absolute (`_external`, `_scheme`…) or relative to the blueprint (".x"),
    or one built outside a request, is built each time."""
    if (endpoint[:1] == "." or any(name[:1] == "_" for name in values)
            or not has_request_context()):
        return url_for(endpoint, **values)
    try:
        key = (endpoint, tuple(sorted(values.items())), request.script_root, explicit_lang())
        hash(key)
    except TypeError:   # a value that is a list …
        return url_for(endpoint, **values)
    urls = cache("template_urls")
    found = urls.get(key)
    return found if found is not None else urls.put(key, url_for(endpoint, **values))



def page_words(ruleset=None):
    """The words a page's headings and labels use: its ruleset's, else the family the address
    names (`rules=` or /rules/<rid>), else the Cantonese defaults."""
    if ruleset is None:   # asked for by each seat and role a Chinese page names
        words = once_a_request(_PAGE_WORDS, lambda r: _words(None))
        return words if words is not None else _words(None)
    return _words(ruleset)


_PAGE_WORDS = "mahjong.page_words"


def page_family_fields() -> dict[str, str]:
    """The page family's words as catalog fields (`win_word` → 食糊 or 胡牌)."""
    return family_fields(page_words())


def _words(ruleset):
    lang = page_lang()
    found = ruleset or _named_ruleset()
    if found is not None:
        return found.words_in(lang)
    return DEFAULT_WORDS["zh_hans"] if lang == "zh-Hans" else Words()


def _named_ruleset():
    """The ruleset the address names (`rules=`, or /rules/<rid>), else the page's own default
    (a round's: `page_default_rules`), or the rules a view named for its page (a shared sheet's,
    `g.page_rules`), if any."""
    rid = (request.args.get("rules") or (request.view_args or {}).get("rid", "") or g.get("page_rules", "")
           or current_app.extensions.get("page_default_rules", {}).get(request.endpoint, ""))
    # a club's variant speaks its family's words: the family's own, so that no page's words
    # build a variant (a refused or shed request's error page names the family)
    return current_app.extensions["rulesets"].get(rid.partition("~")[0])


def _tile_img(root: str, tile, script: str, cls: str) -> Markup:
    """Made once per tile, script, class and mount point (see _tile_table): url_for and
    escaping were a quarter of a page.

    Every tile is a view of one sprite (static/tiles/sprite.svg): a page fetches one image.
    """
    label = _label(tile, script)
    src = url_for("static", filename="tiles/sprite.svg") + f"#t{tile.code}"
    return Markup('<img class="{}" src="{}" alt="{}" title="{}" width="30" height="40">').format(
        cls, src, label, label)


def _tile_svg(root: str, tile, script: str, cls: str) -> Markup:
    """A tile as an inline <svg> that uses its symbol (`#mj-t5s`; tile_symbols draws them)."""
    label = _label(tile, script)
    # xlink:href, not href: Material for MkDocs' instant navigation rewrites every [href] of a
    # new page and throws on an SVG <use>'s (read-only); data-search-exclude keeps its search
    # index free of tile names
    return Markup('<svg class="{}" role="img" aria-label="{}" width="30" height="40" '
                  'viewBox="0 0 60 80" data-search-exclude><title>{}</title>'
                  '<use xlink:href="#mj-t{}"/></svg>').format(
        cls, label, label, tile.code)


def cite(text: str, ruleset) -> Markup:
    """A ruleset's text for a page: each cited ruling links to its entry on the rules page.

    The text is said in the page language (a Chinese text cites "裁定 N"). The loader has
    refused any seed number or seed file name in the text, so none is shown."""
    shown = str(escape(say_here(text)))
    known = {r.id for r in ruleset.rulings}
    page = url_for("rules.ruleset", rid=ruleset.id)

    def link(match: re.Match) -> str:
        return re.sub(r"\d+", lambda n: (f'<a href="{page}#ruling-{n[0]}">{n[0]}</a>'
                                         if int(n[0]) in known else n[0]), match[0])
    return Markup(CITATION.sub(link, shown))


# The words of the hand description as a Chinese page shows them; an English page shows the
# description's own words (`by = discard`, `E`, `pong`), as the public vocabulary writes them.
FIELD_LABELS = {
    "rules": N_("Rules"), "hand": N_("The hand"), "win": N_("Winning tile"), "melds": N_("Declared melds"),
    "by": N_("How the hand was won"), "seat": N_("Winner's seat"), "round": N_("Round wind"),
    "flowers": N_("Flowers"), "seasons": N_("Seasons"), "events": N_("How the winning tile came"),
    "missing": N_("Declared missing suit"), "ticks": N_("Patterns"), "fan": N_("Fan"),
    "options": N_("House rules"), "min": N_("Minimum fan"), "cap": N_("Fan cap"),
    "curve": N_("Doubling curve"), "payment": N_("Who pays on a discard"), "stake": N_("Stake"),
    "discarder": N_("Discarder"), "winner": N_("Winner"), "won": N_("Already won this round"),
    "liable": N_("Liable player"), "draft": N_("Meld being built"), "show": N_("Parts shown"),
    "theme": N_("Colours"), "seen": N_("Tiles seen on the table"),
    "house": N_("Club rules code"), "base": N_("Sheet version you saw"),
    "version": N_("Sheet version you saw"), "action": N_("Change"), "line": N_("Hand"),
}
# (Some message ids below are looked up on Chinese pages only, so each may say which sense it
# has: "single" is a kind of group and a kind of wait, "none" a role and a missing suit.)
ROLE_LABELS = {"winner": N_("winner"), "discarder": N_("discarder"), "payer": N_("payer"),
               "liable": N_("liable"), "already-won": N_("already won"),
               "none": N_("none (no part in the payment)")}
KIND_LABELS = {"chow": N_("chow"), "pong": N_("pong"), "kong": N_("kong"),   # a declared meld
               "ckong": N_("concealed kong"), "akong": N_("added kong")}
GROUP_LABELS = {"chow": N_("chow (a group of the hand)"), "pong": N_("pong (a group of the hand)"),
                "kong": N_("kong (a group of the hand)"), "pair": N_("pair (a group of the hand)"),
                "single": N_("single tile (a group of the hand)")}
WAIT_LABELS = {"single": N_("single (a wait)"), "edge": N_("edge"), "closed": N_("closed"),
               "two-sided": N_("two-sided"), "pair-pair": N_("pair-pair"),
               "thirteen-sided": N_("thirteen-sided")}


def _chinese() -> bool:
    return page_lang() != "en"


def pattern_names(ruleset, ids) -> object:
    """Patterns a sentence lists, by their names (their ids only where the ruleset has none)."""
    return listing(ruleset.by_id[i].name if i in ruleset.by_id else i for i in ids)


def gap() -> str:
    """The space between two words of a sentence made of parts: none in Chinese, where a space
    beside full-width punctuation or between characters is a stray one (review B-22)."""
    return "" if _chinese() else " "


def field_label(field: str) -> str:
    """A hand-description field as a page names it: `stake` in English, its label in Chinese."""
    return _(FIELD_LABELS[field]) if _chinese() and field in FIELD_LABELS else field


def assumed_label(field: str) -> str:
    """A field as the list of assumptions names it: its label in every language ("Winner's
    seat"), where an error beside the form names the field as typed (`seat`)."""
    if field not in FIELD_LABELS:
        return field
    return _(FIELD_LABELS[field]) if _chinese() else FIELD_LABELS[field]


def value_label(field: str, value: str) -> str:
    """A field's value as a page shows it: a seat's wind, a way of winning; else as it is."""
    if not _chinese():
        return value
    if field in ("seat", "winner", "round", "discarder", "liable") and value in ("E", "S", "W", "N"):
        return page_words().winds[value]
    if field == "by" and value in ("discard", "self-draw"):
        words = page_words()
        return words.discard if value == "discard" else words.self_draw
    return value


def role_label(role: str) -> str:
    """A payment row's role (`winner`, `payer` …) in the page language; the discarder in the
    family's own term (出銃者, 点炮者)."""
    if not _chinese() or role not in ROLE_LABELS:
        return role
    return page_words().discarder if role == "discarder" else _(ROLE_LABELS[role])


def kind_label(kind: str) -> str:
    """A declared meld's kind (`pong`, `ckong` …): the notation in English, a name in Chinese."""
    return _(KIND_LABELS[kind]) if _chinese() and kind in KIND_LABELS else kind


def group_label(kind: str) -> str:
    """The kind of a group the hand was read into (`pong`, `pair` …), in the page language."""
    return _(GROUP_LABELS[kind]) if _chinese() and kind in GROUP_LABELS else kind


def wait_label(wait: str) -> str:
    """The shape of a wait (`edge`, `two-sided` …) in the page language."""
    return _(WAIT_LABELS[wait]) if _chinese() and wait in WAIT_LABELS else wait


def hand_grouping(score) -> Markup:
    """The hand as the reading grouped it, the winning tile's group marked (macros.html's
    hand_grouping: the result page, the card, the drill), written here rather than by a macro
    a group: a page's dearest part once, its dozen template calls a group."""
    reading = score.reading
    if not reading:
        return Markup("")
    english = page_lang() == "en"
    spans = []
    for index, group in enumerate(reading.groups):
        hidden = group.meld is not None and group.meld.value == "ckong"
        won = index == reading.win_group
        classes = (" declared" if group.declared else "") + (" concealed-kong" if hidden else "") + (
            " won" if won else "")
        if hidden:
            tiles = _concealed_kong(group.tiles, template_gettext)
            said = template_gettext(N_("kong (concealed)")) if english else escape(kind_label("ckong"))
        else:
            tiles = tile_imgs(group.tiles)
            said = escape(group_label(group.kind.value))
            if group.declared:
                said += (" " if english else "") + template_gettext(N_("(declared)"))
        if won:
            said += " ← " + template_gettext(N_("winning tile, %(wait)s wait"),
                                                wait=wait_label(reading.wait.value))
        spans.append(f'<span class="group{classes}">{tiles}<small>{said}</small></span>')
    label = template_gettext(N_("Grouping"))
    return Markup(f'\n  <p class="grouping" aria-label="{label}">\n    {"".join(spans)}\n  </p>\n')


def fan_breakdown(score) -> Markup:
    """The patterns found, counted or not and why, and the total (macros.html's fan_breakdown,
    written here: five template calls a row)."""
    english = page_lang() == "en"
    rows = []
    for item in score.items:
        name = written(say_here(item.pattern.name))
        if item.count > 1:
            name += f" ×{item.count}"
        chinese = f'<td lang="zh">{written(item.pattern.name.zh)}</td>' if english else ""
        if item.counted:
            fan, note = item.fan, template_gettext(N_("counted"))
        else:
            fan, note = "—", template_gettext(N_("not counted: %(why)s"), why=say_here(item.note))
        rows.append(f'\n    <tr class="{"counted" if item.counted else "not-counted"}">\n'
                    f'      <th scope="row">{name}</th>\n      {chinese}\n'
                    f'      <td class="num">{fan}</td>\n      <td>{note}</td>\n    </tr>\n  ')
    if not rows:
        given = template_gettext(N_("No pattern: %(fan)s fan given directly."), fan=score.total_fan)
        rows.append(f'\n    <tr><td colspan="{4 if english else 3}">{given}</td></tr>\n  ')
    capped = (template_gettext(N_("capped at %(fan)s"), fan=score.capped_fan)
              if score.capped_fan != score.total_fan else "")
    heads, total = _breakdown_heads(english), template_gettext(N_("Total"))
    return Markup(f'<table class="breakdown">\n  \n  {heads}\n  <tbody>\n  {"".join(rows)}\n  </tbody>'
                  f'\n  <tfoot>\n    <tr><th scope="row">{total}</th>{"<td></td>" if english else ""}'
                  f'<td class="num">{score.total_fan}</td>\n        <td>{capped}</td></tr>\n  </tfoot>'
                  f'\n</table>')


def _breakdown_heads(english: bool) -> str:
    caption, pattern = template_gettext(N_("Fan breakdown")), template_gettext(N_("Pattern"))
    fan, note = template_gettext(N_("Fan")), template_gettext(N_("Note"))
    chinese = '<th scope="col">中文</th>' if english else ""
    return (f'<caption>{caption}</caption>\n  <thead><tr><th scope="col">{pattern}</th>{chinese}'
            f'<th scope="col" class="num">{fan}</th><th scope="col">{note}</th></tr></thead>')


def payment_table(payments, fmt, players=None, why: bool = True) -> Markup:
    """Who pays whom, a row a seat (macros.html's payment_table, written here: four template
    calls a row); `why=False`: no reason a row, for a page that says the rule once under the
    table (fan to payment)."""
    players = players or {}
    rows = []
    for p in payments:
        seat = written(value_label("seat", p.seat))
        if players.get(p.seat):
            seat = f"{written(players[p.seat])} ({seat})"
        rows.append(f'\n    <tr class="role-{written(p.role)}"><th scope="row">{seat}</th><td>'
                    f'{written(role_label(p.role))}</td>\n      <td class="num">'
                    f'{"+" if p.amount > 0 else ""}{written(fmt(p.amount))}</td>'
                    f'{f"<td>{written(p.reason)}</td>" if why else ""}</tr>\n  ')
    heads = "".join(f'<th scope="col"{cls}>{template_gettext(word)}</th>'
                    for word, cls in _PAYMENT_HEADS[:None if why else -1])
    caption = template_gettext(N_("Who pays whom"))
    compact = "" if why else " compact"
    return Markup(f'<table class="payments{compact}">\n  <caption>{caption}</caption>\n  <thead><tr>{heads}'
                  f'</tr></thead>\n  <tbody>\n  {"".join(rows)}\n  </tbody>\n</table>')


_PAYMENT_HEADS = ((N_("Seat"), ""), (N_("Role"), ""), (N_("Amount"), ' class="num"'), (N_("Why"), ""))


def assumed_list(assumed) -> Markup:
    """What the request left out and was assumed (macros.html's assumed_list, written here)."""
    if not assumed:
        return Markup("")
    between = ": " if page_lang() == "en" else " = "
    items = "".join(f"<li><strong>{written(assumed_label(a.field))}{between}"
                    f"{written(value_label(a.field, a.value))}</strong> — {written(a.reason)}</li>"
                    for a in assumed)
    label = template_gettext(N_("Assumed"))
    note = template_gettext(N_("Not given, so assumed (change them in the form):"))
    return Markup(f'<div class="assumed" role="note" aria-label="{label}">\n  <p class="note">'
                  f'{note}</p>\n  <ul class="assumed">{items}</ul>\n</div>')


def _concealed_kong(tiles, gettext) -> str:
    """A concealed kong as players lay it: the two middle tiles face down, the ends face up."""
    face_down = N_("%(tile)s, face down")
    down = "".join(f'<span class="tile face-down" role="img" aria-label="'
                   f'{gettext(face_down, tile=tile_name(t))}"></span>' for t in tiles[1:3])
    return f"{tile_imgs(tiles[:1])}{down}{tile_imgs(tiles[3:])}"


def errors_json(errors) -> dict:
    return {"valid": False, "errors": [{"field": e.field, "message": e.message} for e in errors]}


__all__ = ["params_from", "form_data", "permalink", "score_json", "waits_json", "errors_json",
           "fmt", "TooMuch"]


def render_page(template: str, page) -> str:
    """A page from the one typed object its view built (`page` in the template); base.html
    also reads the page's `embed` and its `ruleset` (the header's brand)."""
    return render_template(template, page=page, embed=page.embed, ruleset=page.ruleset)
