"""The tile picker every hand form shares (calculator, discard adviser, round ledger): one
click at a time rewrites the hand description in the address, with no script needed.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import urlencode

from flask import request
from markupsafe import Markup

from app.base.errors import FieldError, NotationError
from app.base.i18n import N_, Msg, TileText
from app.hands.tiles import TILES, format_tiles, parse_tiles
from app.vocabulary.hand import message_of, read_meld

from .forms import PICKER_TILES
from .fragments import PLACEHOLDER, FragmentCache, cache
from .present import permalink, tile_naming, tile_script

PICKER_ACTIONS = ("add", "remove", "make", "unmeld", "clear", "undraft", "start", "undo")
MELD_KINDS = ("chow", "pong", "kong", "ckong", "akong")
TILE_BY_CODE = {t.code: t for t in TILES}
# A meld in two taps: its kind (`start`, kept in the address as `newmeld`), then one tile.
# The kinds in the order a player meets them, named in words (not the notation's `ckong`).
TWO_TAP_KINDS = ("pong", "chow", "kong", "ckong", "akong")
KIND_WORDS = {"pong": N_("pong"), "chow": N_("chow"), "kong": N_("exposed kong"),
              "ckong": N_("concealed kong"), "akong": N_("added kong")}
# Each tile button of the two-tap palette, named for screen readers in the page's language.
KIND_TILE_LABELS = {"pong": N_("Pong of %(tile)s"), "chow": N_("Chow from %(tile)s"),
                    "kong": N_("Exposed kong of %(tile)s"),
                    "ckong": N_("Concealed kong of %(tile)s"),
                    "akong": N_("Added kong of %(tile)s")}


def form_parts() -> FragmentCache:
    """This app's rendered parts of the calculator form (see forms.FormView and fragments.py)."""
    return cache("form_parts")


def palette(ruleset) -> Markup:
    """The tile palette's buttons: the same for every page of a ruleset, tile script and mount."""
    parts = form_parts()
    key = ("palette", ruleset.id, request.script_root, tile_script())
    return parts.get(key) or parts.put(key, parts.macro("palette")(PICKER_TILES, ruleset))


def remove_buttons(tiles) -> Markup:
    """The picker's hand as buttons that remove each tile (macros.html remove_button): a tile's
    button is rendered once per tile, mount, tile naming and language, its place left as a
    placeholder; here each is numbered (a macro call per tile was a tenth of a page)."""
    parts = form_parts()
    key = ("remove-buttons", request.script_root, tile_naming())
    made = parts.get(key)
    if made is None:
        made = parts.put(key, {})   # tile → its button around the placeholder (≤ 42 tiles)
    out = []
    for place, t in enumerate(tiles):
        chunks = made.get(t)
        if chunks is None:
            chunks = made[t] = str(parts.macro("remove_button")(PLACEHOLDER, t)).split(PLACEHOLDER)
        out.append(str(place).join(chunks))
    return Markup("".join(out))


def focus_after(action: str, params: dict[str, str], edited: dict[str, str]) -> str:
    """The fragment that brings keyboard focus back where the click was (app.js focuses it).

    After adding: the tile just picked. After removing a tile from the hand: the tile now in
    its place (or the last one), else the palette tile of the one removed. A tile that makes
    the hand complete (13 tiles: the waits; 14: the score) brings the result into view.
    """
    if action == "add" and edited.get("target") != "meld" and tile_count(edited) >= 13:
        return "#result"
    if action == "add" and params.get("newmeld") and tile_count(edited) >= 13:
        return "#result"
    if action == "start":
        return "#new-meld"
    if action == "undo":
        return "#undo"
    if action == "add" and params["add"] in TILE_BY_CODE:
        return f"#add-{params['add']}"
    if action == "remove":
        left = len(parse_tiles(edited.get("hand", "")))
        if left:
            return f"#remove-{min(whole_number(params['remove'], 0), left - 1)}"
        removed = parse_tiles(params.get("hand", ""))[whole_number(params["remove"], 0)]
        return f"#add-{removed.code}"
    return ""


def whole_number(text: str, default: int) -> int:
    """An ASCII whole number, else the default (str.isdigit also passes '²', which int refuses)."""
    text = text.strip()
    return int(text) if re.fullmatch(r"[0-9]+", text) else default


def tile_count(params: dict[str, str]) -> int:
    """Tiles in the hand, a meld counting 3; -1 when the notation cannot be read."""
    try:
        tiles = len(parse_tiles(params.get("hand", "")))
    except NotationError:
        return -1
    melds = [t for t in re.split(r"[,\s]+", params.get("melds", "").strip()) if t]
    return tiles + 3 * len(melds)


Edit = tuple[dict[str, str], FieldError | None]


def apply_picker(params: dict[str, str], action: str) -> Edit:
    """Carry out one tile-picker click on the hand description; say why if it cannot be done."""
    edited = {k: v for k, v in params.items() if k not in PICKER_ACTIONS}
    try:
        return _TAPS[action](edited, params, params[action])
    except NotationError as err:
        return edited, FieldError("draft" if action == "make" else "hand", message_of(err))
    except ValueError as err:
        return edited, FieldError("draft", message_of(err))


def _tap_add(edited: dict[str, str], params: dict[str, str], value: str) -> Edit:
    """A tile tapped: to the hand, to the meld being built, or closing a two-tap meld."""
    t = parse_tiles(value)
    if len(t) != 1:
        return edited, FieldError("hand", Msg("'{value}' is not one tile", value=value))
    kind = edited.pop("newmeld", "")
    if kind:
        return _two_tap_meld(edited, kind, t[0])
    key = "draft" if params.get("target") == "meld" else "hand"
    edited[key] = format_tiles(parse_tiles(edited.get(key, "")) + t)
    return edited, None


def _tap_start(edited: dict[str, str], params: dict[str, str], value: str) -> Edit:
    """A two-tap meld begun: its kind, waiting for its tile."""
    if value not in TWO_TAP_KINDS:
        return edited, FieldError("draft", Msg("'{value}' is not a kind of meld", value=value))
    edited["newmeld"] = value
    return edited, None


def _tap_remove(edited: dict[str, str], params: dict[str, str], value: str) -> Edit:
    """The hand's tile at `value` taken out (and the winning tile, if it was the last such)."""
    tiles = list(parse_tiles(edited.get("hand", "")))
    index = whole_number(value, -1)
    if not 0 <= index < len(tiles):
        return edited, FieldError("hand", Msg("there is no tile {value} to remove", value=value))
    removed = tiles.pop(index)
    edited["hand"] = format_tiles(tiles)
    _hand_tile_gone(edited, index)
    if edited.get("win") == removed.code and removed not in tiles:
        edited.pop("win")
    return edited, None


def _tap_make(edited: dict[str, str], params: dict[str, str], value: str) -> Edit:
    """The meld being built declared, as the kind `value` names."""
    if value not in MELD_KINDS:
        return edited, FieldError("draft", Msg("'{value}' is not a kind of meld", value=value))
    token = format_tiles(parse_tiles(edited.get("draft", "")))
    if not token:
        return edited, FieldError("draft", Msg("pick the tiles of the new meld first"
                                               " (choose 'a new meld', then click its tiles)"))
    meld = read_meld(token if value in ("chow", "pong") else f"{value}:{token}")
    _add_meld(edited, meld.token)
    edited.pop("draft", None)
    edited["target"] = "hand"
    return edited, None


def _tap_unmeld(edited: dict[str, str], params: dict[str, str], value: str) -> Edit:
    """The declared meld at `value` taken back."""
    melds = _melds(edited)
    index = whole_number(value, -1)
    if not 0 <= index < len(melds):
        return edited, FieldError("melds", Msg("there is no meld {value} to remove", value=value))
    melds.pop(index)
    edited["melds"] = ",".join(melds)
    places = melds_at(params)
    _set_melds_at(edited, places[:index] + places[index + 1:])
    return edited, None


def _dropping(*keys: str) -> Callable[..., Edit]:
    """A tap that forgets these keys of the description."""
    def tap(edited: dict[str, str], params: dict[str, str], value: str) -> Edit:
        for key in keys:
            edited.pop(key, None)
        return edited, None
    return tap


_TAPS: dict[str, Callable[..., Edit]] = {
    "add": _tap_add, "start": _tap_start, "remove": _tap_remove, "make": _tap_make,
    "unmeld": _tap_unmeld, "undo": lambda edited, params, value: undo(edited),
    "undraft": _dropping("draft", "newmeld", "target"),
    "clear": _dropping("hand", "melds", "draft", "win", "newmeld", "meldsat"),
}


def _melds(params: dict[str, str]) -> list[str]:
    return [t for t in re.split(r"[,\s]+", params.get("melds", "").strip()) if t]


def melds_at(params: dict[str, str]) -> list[int]:
    """How many hand tiles there were when each meld was made (`meldsat=0,3`), one a meld;
    a meld the address says nothing of was made before the hand's tiles (0)."""
    said = [whole_number(t, 0) for t in params.get("meldsat", "").split(",")] if params.get("meldsat") else []
    return (said + [0] * len(_melds(params)))[:len(_melds(params))]


def _set_melds_at(edited: dict[str, str], places: list[int]) -> None:
    """Write `meldsat`, left out while every meld came before the hand's tiles (the old links)."""
    if any(places):
        edited["meldsat"] = ",".join(map(str, places))
    else:
        edited.pop("meldsat", None)


def _add_meld(edited: dict[str, str], token: str) -> None:
    """A meld made now joins the melds, after the hand's tiles picked so far."""
    places = melds_at(edited)
    edited["melds"] = ",".join(filter(None, [edited.get("melds", ""), token]))
    try:
        held = len(parse_tiles(edited.get("hand", "")))
    except NotationError:
        held = 0
    _set_melds_at(edited, places + [held])


def _hand_tile_gone(edited: dict[str, str], index: int) -> None:
    """The hand's tile at `index` is gone: the melds made after it came one tile earlier."""
    _set_melds_at(edited, [at - 1 if at > index else at for at in melds_at(edited)])


def last_step(params: dict[str, str]) -> tuple[str, object] | None:
    """What one-tap undo takes back, read from the hand itself (the address keeps the order
    of the taps, `meldsat` where the melds came among the tiles): a chosen meld kind, the
    last tile of the meld being built, else the hand's last tile or the last meld, whichever
    came later. (kind, the tile or meld) or None when there is nothing."""
    try:
        draft = list(parse_tiles(params.get("draft", "")))
        hand = list(parse_tiles(params.get("hand", "")))
    except NotationError:
        return None
    if params.get("newmeld"):
        return "newmeld", params["newmeld"]
    if draft:
        return "draft", draft[-1]
    melds = _melds(params)
    if melds and melds_at(params)[-1] >= len(hand):
        return "meld", melds[-1]
    if hand:
        return "hand", hand[-1]
    return ("meld", melds[-1]) if melds else None


def undo(edited: dict[str, str]) -> tuple[dict[str, str], FieldError | None]:
    """One-tap undo: the address before the last picker tap (see last_step)."""
    step = last_step(edited)
    if step is None:
        return edited, FieldError("hand", Msg("there is nothing to undo"))
    kind = step[0]
    if kind == "newmeld":
        edited.pop("newmeld")
    elif kind == "draft":
        edited["draft"] = format_tiles(parse_tiles(edited["draft"])[:-1])
    elif kind == "hand":
        tiles = list(parse_tiles(edited["hand"]))
        removed = tiles.pop()
        edited["hand"] = format_tiles(tiles)
        _hand_tile_gone(edited, len(tiles))
        if edited.get("win") == removed.code and removed not in tiles:
            edited.pop("win")
    else:
        _set_melds_at(edited, melds_at(edited)[:-1])
        edited["melds"] = ",".join(_melds(edited)[:-1])
    for key in ("hand", "draft", "melds"):
        if key in edited and not edited[key]:
            edited.pop(key)
    return edited, None


def meld_tiles(kind: str, t) -> list | None:
    """The tiles of a meld of this kind named by one tile (a chow by its first); None when
    the tile cannot make it (a chow of honours, or from an 8 or a 9)."""
    if t.is_bonus:
        return None
    if kind == "chow":
        if not t.is_suited or t.rank > 7:
            return None
        return [t, TILES[t.index + 1], TILES[t.index + 2]]
    return [t] * (3 if kind == "pong" else 4)


def tiles_used(params: dict[str, str]) -> dict:
    """How many of each tile the hand, its melds and the meld being built already hold."""
    used: dict = {}
    texts = [params.get("hand", ""), params.get("draft", "")]
    texts += [t.split(":")[-1] for t in re.split(r"[,\s]+", params.get("melds", "").strip()) if t]
    for text in texts:
        try:
            for t in parse_tiles(text):
                used[t] = used.get(t, 0) + 1
        except NotationError:
            continue
    return used


def allowed_tiles(kind: str, params: dict[str, str]) -> set:
    """The palette's tiles that can make a meld of this kind: the run or the copies exist
    and no tile would be a fifth copy."""
    used = tiles_used(params)
    allowed = set()
    for t in PICKER_TILES:
        tiles = meld_tiles(kind, t)
        if tiles is None:
            continue
        need: dict = {}
        for x in tiles:
            need[x] = need.get(x, 0) + 1
        if all(used.get(x, 0) + n <= 4 for x, n in need.items()):
            allowed.add(t)
    return allowed


def _two_tap_meld(edited: dict[str, str], kind: str, t) -> tuple[dict[str, str], FieldError | None]:
    """The second tap of a two-tap meld: the meld of `kind` this tile names joins the melds."""
    if kind not in TWO_TAP_KINDS:
        return edited, FieldError("draft", Msg("'{value}' is not a kind of meld", value=kind))
    if t not in allowed_tiles(kind, edited):
        edited["newmeld"] = kind
        return edited, FieldError("draft", Msg("{tile} cannot make this meld", tile=tile_text(t)))
    token = format_tiles(meld_tiles(kind, t))
    meld = read_meld(token if kind in ("chow", "pong") else f"{kind}:{token}")
    _add_meld(edited, meld.token)
    edited["target"] = "hand"
    return edited, None


def tile_text(t) -> TileText:
    """A tile's name in the three languages, as a message says it ('8 Characters 八萬'; in
    Chinese ending in the family's suit word)."""
    return TileText(t.label, t.name_zh, t.name_zh_hans, suit=t.suit)


def family_kinds(ruleset=None) -> tuple[str, ...]:
    """The meld kinds a family declares: every kind, but a chow only where one may be claimed
    (Sichuan claims pongs and kongs only)."""
    if ruleset is None or ruleset.claimed_chows:
        return TWO_TAP_KINDS
    return tuple(k for k in TWO_TAP_KINDS if k != "chow")


def kinds_left(params: dict[str, str], ruleset=None) -> list[str]:
    """The meld kinds the tiles left can still make: a meld's three places are free in a hand
    of 14, and some tile of the palette makes one (the chosen kind stays while chosen)."""
    count = tile_count(params)
    if count < 0 or count + 3 > 14:
        return [params["newmeld"]] if params.get("newmeld") in TWO_TAP_KINDS else []
    shown = [k for k in family_kinds(ruleset)
             if any(ruleset is None or ruleset.honours or not t.is_honour for t in allowed_tiles(k, params))]
    chosen = params.get("newmeld")
    return shown + [chosen] if chosen in TWO_TAP_KINDS and chosen not in shown else shown


def meld_palette(kind: str, params: dict[str, str], ruleset) -> Markup:
    """The palette while a two-tap meld is chosen: each tile makes the meld at once, the tiles
    that cannot make it are shown but disabled (nothing moves)."""
    return form_parts().macro("meld_palette")(PICKER_TILES, ruleset, kind, allowed_tiles(kind, params),
                                              KIND_TILE_LABELS[kind])


def permalink_with_picker(params: dict[str, str], path: str) -> str:
    """A link that also keeps the picker's own state (the meld being built, its target)."""
    link = permalink(params, path)
    extra = [(k, params[k]) for k in ("draft", "target", "newmeld", "meldsat", "sheet", "entry") if params.get(k)]
    if extra:
        link += ("&" if "?" in link else "?") + urlencode(extra)
    return link


def _tiles_of(text: str) -> list:
    """The tiles of a notation, none when it cannot be read (the field says why)."""
    try:
        return list(parse_tiles(text))
    except NotationError:
        return []


def _picker_meld(token: str) -> dict:
    """A declared meld as the picker draws it; one it cannot read shows as its token alone."""
    try:
        meld = read_meld(token)
    except ValueError:
        return {"token": token, "tiles": [], "kind": "?"}
    return {"token": token, "tiles": list(meld.tiles), "kind": meld.kind.value}


def picker_state(params: dict[str, str], ruleset=None) -> dict:
    """What the picker shows: the hand's tiles, the melds and the meld being built."""
    melds = [_picker_meld(token) for token in _melds(params)]
    hand = _tiles_of(params.get("hand", ""))
    newmeld = params.get("newmeld", "") if params.get("newmeld") in TWO_TAP_KINDS else ""
    places = melds_at(params)
    return {"undo": last_step(params), "melds_at": ",".join(map(str, places)) if any(places) else "",
            "meld_palette": meld_palette(newmeld, params, ruleset) if newmeld and ruleset else "",
            "hand": hand, "buttons": remove_buttons(hand), "melds": melds,
            "draft": _tiles_of(params.get("draft", "")), "target": params.get("target", "hand"),
            "newmeld": newmeld if ruleset else "",
            "kinds": [(k, KIND_WORDS[k]) for k in kinds_left(params, ruleset)],
            "all_kinds": [(k, KIND_WORDS[k]) for k in family_kinds(ruleset)],   # the row keeps its place
            "base": {k: v for k, v in params.items() if k not in PICKER_ACTIONS}}
