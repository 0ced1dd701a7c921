"""The public hand description (docs/hand-notation.md) read into a Hand, with field errors.

>>> h = parse_hand({"hand": "123m456m789m234p55s", "by": "self-draw", "seat": "S"})
>>> h.win.code, h.context.by.value, h.context.seat
('5s', 'self-draw', 'S')
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from operator import eq

from app.base.errors import FieldError, HandError, message_of
from app.base.i18n import Msg
from app.hands.events import EVENT_RULES, event_errors
from app.hands.hand import SEATS, Hand, Meld, MeldKind, WinBy, WinContext
from app.hands.phrases import tile_said
from app.hands.tiles import (
    NUM_KINDS,
    TILES,
    Tile,
    canonical,
    format_tiles,
    parse_tiles,
    plain_indexes,
    tiles_at,
)

MAX_LENGTH = {  # characters; longer input is an error, not a slow request
    "hand": 100, "win": 10, "melds": 120, "by": 20, "seat": 5, "round": 5,
    "flowers": 20, "seasons": 20, "events": 200, "missing": 5,
}
HAND_FIELDS = tuple(MAX_LENGTH)
_HAND_LIMIT, _MELDS_LIMIT, _WIN_LIMIT = MAX_LENGTH["hand"], MAX_LENGTH["melds"], MAX_LENGTH["win"]
MAX_MELDS = 4
_BY_ALIASES = {"self-draw": WinBy.SELF_DRAW, "selfdraw": WinBy.SELF_DRAW, "self": WinBy.SELF_DRAW,
               "tsumo": WinBy.SELF_DRAW, "discard": WinBy.DISCARD, "ron": WinBy.DISCARD}
_MELD_TOKEN = re.compile(r"(?:(?P<prefix>chow|pong|kong|ckong|akong):)?(?P<tiles>.*)", re.DOTALL)
_EVENT_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def parse_hand(params: Mapping[str, str], *, complete: bool = True,
               names: Mapping[str, str] | None = None) -> Hand:
    """Read hand-description parameters into a Hand, or raise HandError listing every problem.

    complete=True reads a winning hand (14 tiles, a kong counting 3, the winning tile among
    them); complete=False reads a hand waiting to win (13 tiles, no winning tile).
    """
    hand = _read_plain(params, complete)
    return hand if hand is not None else _read_in_full(params, complete, names or {})


def _read_plain(params: Mapping[str, str], complete: bool) -> Hand | None:
    """Read a plainly written, valid description fast, or return None for _read_in_full.

    Plainly written: the tiles in plain notation (see plain_indexes), the melds split by
    single commas. This reader accepts only what _read_in_full accepts, reads it into the
    same Hand, and leaves every problem to _read_in_full to word.
    """
    context = plain_context(params)
    return None if context is None else plain_hand(params, context, complete)


def plain_context(params: Mapping[str, str]) -> WinContext | None:
    """The context fields (by, seat, round, bonus tiles, events, missing suit) of a plainly
    written description, or None for _read_in_full to word what is wrong."""
    get = params.get
    return _plain_context(get("by"), get("seat"), get("round"), get("flowers"), get("seasons"),
                          get("events"), get("missing"))


def plain_hand(params: Mapping[str, str], context: WinContext, complete: bool = True
               ) -> Hand | None:
    """The tiles of a plainly written description around its context (plain_context), or
    None for _read_in_full (see _read_plain)."""
    get = params.get
    text, melds_text, win_text = get("hand", ""), get("melds", ""), get("win", "")
    if len(text) > _HAND_LIMIT or len(melds_text) > _MELDS_LIMIT or len(win_text) > _WIN_LIMIT:
        return None
    typed = plain_indexes(text)
    declared = _plain_melds(melds_text)
    if typed is None or declared is None:
        return None
    melds, meld_indexes = declared
    if len(typed) + 3 * len(melds) != (14 if complete else 13):
        return None
    order = sorted(typed)
    held = sorted(typed + meld_indexes) if melds else order
    if any(map(eq, held, held[4:])):  # five of a kind, side by side once sorted; a set has four
        return None
    concealed = tiles_at(order)
    win = None
    if complete:
        # INTERFACE: the winning tile defaults to the last tile of `hand`
        win = _plain_tile(win_text) if win_text.strip() else TILES[typed[-1]]
        if win is None or win not in typed:
            return None
        if context.events:
            errors: list[FieldError] = []
            _check_events(errors, context, melds, concealed, win)
            if errors:
                return None
    return Hand(concealed, melds, win, context)


@lru_cache(maxsize=256)  # few distinct contexts, so remembered
def _plain_context(*texts: str | None) -> WinContext | None:
    """Read the context fields, in _CONTEXT_READERS order, into a WinContext, or return None."""
    given = {name: text for (name, _, _), text in zip(_CONTEXT_READERS, texts, strict=True) if text is not None}
    if any(len(text) > MAX_LENGTH[name] for name, text in given.items()):
        return None
    return _read_context([], given)


def _plain_melds(text: str) -> tuple[tuple[Meld, ...], bytes] | None:
    """Read a `melds` field split by single commas into melds and tile indexes, or return None."""
    if not text:
        return (), b""
    tokens = text.split(",")
    if len(tokens) > MAX_MELDS:
        return None
    try:
        melds, indexes = zip(*map(_plain_meld, tokens), strict=True)
    except ValueError:
        return None
    return melds, b"".join(indexes)


@lru_cache(maxsize=1024)  # few distinct tokens, so remembered
def _plain_meld(token: str) -> tuple[Meld, bytes]:
    """Read a meld token holding no whitespace into the meld and its tile indexes."""
    if token.split() != [token]:  # whitespace separates tokens too; the full reader splits there
        raise ValueError(f"{token!r} holds whitespace")
    meld = read_meld(token)
    return meld, bytes(meld.tiles)


@lru_cache(maxsize=256)  # few distinct values, so remembered
def _plain_tile(text: str) -> Tile | None:
    """Read the one tile a short field such as `win` names, or return None."""
    try:
        tiles = parse_tiles(text)
    except ValueError:
        return None
    return tiles[0] if len(tiles) == 1 else None


def _read_in_full(params: Mapping[str, str], complete: bool,
                  names: Mapping[str, str] | None = None) -> Hand:
    """Read any description, or raise HandError listing every problem."""
    errors: list[FieldError] = []
    for name, value in params.items():
        limit = MAX_LENGTH.get(name)
        if limit is not None and len(value) > limit:
            errors.append(FieldError(name, Msg("{n} characters is too long (at most {limit})",
                                               n=len(value), limit=limit)))
    if errors:
        raise HandError(errors)

    typed = _field(errors, "hand", _read_concealed, params.get("hand", ""))
    melds = _field(errors, "melds", _read_melds, params.get("melds", ""))
    context = _read_context(errors, params)
    win: Tile | None = None
    if typed is not None and melds is not None:
        _check_copies(errors, typed, melds)
        _check_size(errors, typed, melds, complete)
        if complete and typed:
            win = _field(errors, "win", _read_win, params.get("win", ""), typed)
    if context is not None and melds is not None and win is not None:
        _check_events(errors, context, melds, typed or (), win, names)
    if errors:
        raise HandError(errors)
    return Hand(concealed=tuple(sorted(typed)), melds=melds, win=win, context=context)


def _field(errors: list[FieldError], name: str, reader, *args):
    """Run one field's reader, turning its ValueError into a FieldError."""
    try:
        return reader(*args)
    except ValueError as err:   # NotationError too
        errors.append(FieldError(name, message_of(err)))
    return None


def _read_concealed(text: str) -> tuple[Tile, ...]:
    if not text.strip():
        raise ValueError(Msg("no tiles given; type the concealed tiles, e.g. 123m456p789s234p55s"))
    tiles = parse_tiles(text)
    bonus = [t.code for t in tiles if t.is_bonus] if tiles and max(tiles) >= NUM_KINDS else []
    if bonus:
        raise ValueError(
            Msg("{tiles} is a bonus tile; give flowers and seasons in their own fields",
                tiles=bonus[0]) if len(bonus) == 1 else
            Msg("{tiles} are bonus tiles; give flowers and seasons in their own fields",
                tiles=" ".join(bonus)))
    return tiles


def _read_melds(text: str) -> tuple[Meld, ...]:
    tokens = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    if len(tokens) > MAX_MELDS:
        raise ValueError(Msg("{n} melds given; a hand has at most {most}", n=len(tokens),
                             most=MAX_MELDS))
    return tuple(read_meld(token) for token in tokens)


@lru_cache(maxsize=1024)
def read_meld(token: str) -> Meld:
    """Read one meld token: '123m' chow, '777m' pong, '1111z' exposed kong, 'ckong:5555z'.

    >>> read_meld("akong:7777p").kind.value
    'akong'
    """
    match = _MELD_TOKEN.fullmatch(token)
    prefix, body = match["prefix"], match["tiles"]
    tiles = tuple(sorted(parse_tiles(body)))
    if any(t.is_bonus for t in tiles):
        raise ValueError(Msg("'{token}' holds a bonus tile; flowers and seasons are not melds",
                             token=token))
    alike = len({t.index for t in tiles}) == 1
    if len(tiles) == 4:
        if not alike:
            raise ValueError(Msg("'{token}' is not a meld: four tiles make a kong only when all"
                                 " four are alike (a chow has three tiles)", token=token))
        if prefix in ("chow", "pong"):
            raise ValueError(Msg("'{token}' has four tiles: write it as {kong}, {ckong} or {akong}",
                                 token=token, kong="kong:", ckong="ckong:", akong="akong:"))
        return Meld(MeldKind(prefix or "kong"), tiles)
    if len(tiles) != 3:
        raise ValueError(Msg("'{token}' is not a meld: a meld has three tiles (four for a kong)",
                             token=token))
    if prefix in ("kong", "ckong", "akong"):
        raise ValueError(Msg("'{token}' has three tiles: a kong needs four alike", token=token))
    if alike:
        if prefix == "chow":
            raise ValueError(Msg("'{token}' is three alike: that is a pong, not a chow",
                                 token=token))
        return Meld(MeldKind.PONG, tiles)
    if prefix == "pong":
        raise ValueError(Msg("'{token}' is not a pong: a pong needs three alike", token=token))
    if len({t.suit for t in tiles}) > 1:
        raise ValueError(Msg("'{token}' is not a meld: a chow needs three tiles of one suit",
                             token=token))
    if tiles[0].is_honour:
        raise ValueError(Msg("'{token}' is not a meld: a chow cannot be made of honours",
                             token=token))
    if not (tiles[1].index == tiles[0].index + 1 and tiles[2].index == tiles[0].index + 2):
        raise ValueError(Msg("'{token}' is not a meld: a chow needs three consecutive tiles",
                             token=token))
    return Meld(MeldKind.CHOW, tiles)


_CONTEXT_READERS = (  # (field, WinContext attribute, reader); an absent field keeps the default
    ("by", "by", lambda text: _read_by(text)),
    ("seat", "seat", lambda text: _read_seat(text)),
    ("round", "round", lambda text: _read_seat(text)),
    ("flowers", "flowers", lambda text: _read_bonus_numbers(text)),
    ("seasons", "seasons", lambda text: _read_bonus_numbers(text)),
    ("events", "events", lambda text: _read_events(text)),
    ("missing", "missing", lambda text: _read_missing(text)),
)


def _read_context(errors: list[FieldError], params: Mapping[str, str]) -> WinContext | None:
    before = len(errors)
    given = {}
    for name, attribute, reader in _CONTEXT_READERS:
        text = params.get(name)
        if text:
            given[attribute] = _field(errors, name, reader, text)
    if len(errors) > before:
        return None
    return WinContext(**given) if given else _DEFAULT_CONTEXT


_DEFAULT_CONTEXT = WinContext()


def _read_by(text: str) -> WinBy:
    key = text.strip().lower()
    if not key:
        return WinBy.DISCARD  # ruling 76
    if key not in _BY_ALIASES:
        raise ValueError(Msg("'{text}' is not a way of winning; use {self_draw} or {discard}",
                             text=text, self_draw="self-draw", discard="discard"))
    return _BY_ALIASES[key]


def _read_seat(text: str) -> str:
    key = text.strip().upper()
    if not key:
        return "E"  # ruling 76
    if key not in SEATS:
        raise ValueError(Msg("'{text}' is not a wind; use E, S, W or N", text=text))
    return key


def _read_bonus_numbers(text: str) -> tuple[int, ...]:
    digits = [c for c in text if c not in ", "]
    numbers: list[int] = []
    for char in digits:
        if char not in "1234":
            raise ValueError(Msg("'{char}' in '{text}' is not a bonus tile number; use 1-4",
                                 char=char, text=text))
        if int(char) in numbers:
            raise ValueError(Msg("{char} is listed twice in '{text}'; there is one of each",
                                 char=char, text=text))
        numbers.append(int(char))
    return tuple(sorted(numbers))


def _read_events(text: str) -> frozenset[str]:
    ids = [e for e in re.split(r"[,\s]+", text.strip().lower()) if e]
    for event in ids:
        if event not in EVENT_RULES:
            shown = event if _EVENT_ID.fullmatch(event) else repr(event)
            raise ValueError(Msg("unknown event {event}; known events: {known}", event=shown,
                                 known=", ".join(EVENT_RULES)))
    if len(set(ids)) != len(ids):
        raise ValueError(Msg("an event is listed twice in '{text}'", text=text))
    return frozenset(ids)


def _read_missing(text: str) -> str | None:
    key = text.strip().lower()
    if not key:
        return None
    if key not in ("m", "p", "s"):
        raise ValueError(Msg("'{text}' is not a suit; the missing suit is m, p or s", text=text))
    return key


def _read_win(text: str, typed: tuple[Tile, ...]) -> Tile:
    if not text.strip():
        return typed[-1]  # INTERFACE: default is the last tile of `hand`
    tiles = _one_or_more(text)
    if len(tiles) != 1:
        raise ValueError(Msg("'{text}' is {n} tiles; give the one winning tile", text=text,
                             n=len(tiles)))
    win = tiles[0]
    if win not in typed:
        raise ValueError(Msg("{tile} is not in the hand; the hand lists the concealed tiles"
                             " including the winning tile", tile=tile_said(win)))
    return win


@lru_cache(maxsize=256)
def _one_or_more(text: str) -> tuple[Tile, ...]:
    """Tiles of a short field such as `win` (few distinct values, so remembered)."""
    return parse_tiles(text)


def _check_copies(errors: list[FieldError], typed: tuple[Tile, ...], melds: tuple[Meld, ...]) -> None:
    counts = [0] * NUM_KINDS
    for t in typed:
        counts[t] += 1
    for m in melds:
        for t in m.tiles:
            counts[t] += 1
    if max(counts) <= 4:
        return
    for i, n in enumerate(counts):
        if n > 4:
            code = tile_said(TILES[i])
            errors.append(FieldError("hand", Msg(
                "{n} copies of {tile} (hand and melds together); a set has only four",
                n=n, tile=code) if melds else Msg(
                "{n} copies of {tile} (in the hand); a set has only four", n=n, tile=code)))


def _check_size(errors: list[FieldError], typed: tuple[Tile, ...], melds: tuple[Meld, ...],
                complete: bool) -> None:
    needed = 14 if complete else 13
    have = len(typed) + 3 * len(melds)
    if have != needed:
        what = Msg("a winning hand") if complete else Msg("a hand waiting to win")
        hint = _size_hint(typed, melds, needed)
        if melds:   # the count of the tiles, the melds and their sum: each said once
            errors.append(FieldError("hand", Msg(
                "{tiles} in the hand{melds} make {have}; {what} needs {needed}"
                " (each meld counts 3, a kong too){hint}",
                tiles=_tiles(len(typed)), melds=Msg(" and {melds}", melds=_melds(len(melds))),
                have=have, what=what, needed=needed, hint=hint)))
        else:
            errors.append(FieldError("hand", Msg("{tiles} in the hand; {what} needs {needed}{hint}",
                                                 tiles=_tiles(len(typed)), what=what,
                                                 needed=needed, hint=hint)))


def _tiles(n: int) -> Msg:
    return Msg("{n} tile", n=n) if n == 1 else Msg("{n} tiles", n=n)


def _melds(n: int) -> Msg:
    return Msg("{n} meld", n=n) if n == 1 else Msg("{n} melds", n=n)


def _size_hint(typed: tuple[Tile, ...], melds: tuple[Meld, ...], needed: int) -> str:
    concealed_needed = needed - 3 * len(melds)
    if not melds or concealed_needed <= 0:
        return ""
    return Msg(": with these melds, type {n} concealed tiles", n=concealed_needed)


def _check_events(errors: list[FieldError], context: WinContext, melds: tuple[Meld, ...],
                  typed: tuple[Tile, ...], win: Tile, names: Mapping[str, str] | None = None) -> None:
    errors += event_errors(context, melds, typed, win, names)   # rules: app/hands/events.py


def describe(hand: Hand) -> dict[str, str]:
    """Write a Hand back as description parameters (the inverse of parse_hand)."""
    ctx = hand.context
    params = {"hand": canonical(hand.concealed)}
    if hand.win is not None:
        params["win"] = hand.win.code
    if hand.melds:
        params["melds"] = ",".join(m.token for m in hand.melds)
    params["by"] = ctx.by.value
    params["seat"] = ctx.seat
    params["round"] = ctx.round
    if ctx.flowers:
        params["flowers"] = "".join(map(str, ctx.flowers))
    if ctx.seasons:
        params["seasons"] = "".join(map(str, ctx.seasons))
    if ctx.events:
        params["events"] = ",".join(sorted(ctx.events))
    if ctx.missing:
        params["missing"] = ctx.missing
    return params


__all__ = ["EVENT_RULES", "HAND_FIELDS", "parse_hand", "read_meld", "describe", "format_tiles", "message_of"]
