"""A blood-battle round in its notations: the ledger page's text (one event a line), the JSON
shape of /api/round, and each win's hand in the calculator's vocabulary (`hand=`, `melds=`,
`events=`), read into values for app/table/settlement.py.

>>> ledger = settle_round(read_round(parse_round_text("win S discard from E hand=123p456p789p123s55s")))
>>> ledger.totals["S"] > 0 > ledger.totals["E"]
True
"""
from __future__ import annotations

import re
import shlex
from collections.abc import Mapping

from app.base.errors import FieldError, HandError
from app.base.i18n import N_, Msg
from app.hands.hand import SEATS, Hand, WinBy
from app.hands.tiles import parse_tiles
from app.rules.model import Ruleset
from app.scoring.calculation import Ask
from app.table.settlement import (
    KONG_KINDS,
    MAX_EVENTS,
    WALL_STATUSES,
    Kong,
    Ledger,
    Round,
    RoundHands,
    Win,
)
from app.table.settlement import settle_round as settle

from .hand import parse_hand
from .request import read_ask, read_ruleset, read_settings


def read_round(data: Mapping) -> Round:
    """Check the shape of a JSON round and build it."""
    if not isinstance(data, Mapping):
        raise _fail("round", Msg("expected a {format} object", format="JSON"))
    rules = data.get("rules", "sichuan")
    if not isinstance(rules, str):
        raise _fail("rules", Msg("expected a ruleset id"))
    missing = data.get("missing", {})
    if not isinstance(missing, Mapping):
        raise _fail("missing", Msg("expected an object such as {example}", example='{"E": "m", "S": "p"}'))
    for seat, suit in missing.items():
        if seat not in SEATS:
            raise _fail("missing", Msg("'{seat}' is not a seat; use E, S, W or N", seat=str(seat)[:10]))
        if suit not in ("m", "p", "s"):
            raise _fail("missing", Msg("{seat}: '{suit}' is not a suit; use m, p or s", seat=seat,
                                       suit=str(suit)[:10]))
    raw_events = data.get("events", [])
    if not isinstance(raw_events, list):
        raise _fail("events", Msg("expected a list of events"))
    if len(raw_events) > MAX_EVENTS:
        raise _fail("events", Msg("{n} events is more than a round can hold (at most {most})",
                                  n=len(raw_events), most=MAX_EVENTS))
    events = tuple(_read_event(e, i) for i, e in enumerate(raw_events))
    end = data.get("end")
    wall_hands = None
    if "end" in data:   # as documented: an object, never null or another type
        if not isinstance(end, Mapping) or end.get("type") != "wall":
            raise _fail("end", Msg("expected {shape}", shape='{"type": "wall", "hands": {...}}'))
        hands = end.get("hands", {})
        if not isinstance(hands, Mapping):
            raise _fail("end.hands", Msg("expected an object of seat → hand"))
        wall_hands = {}
        for seat, hand in hands.items():
            if seat not in SEATS:
                raise _fail("end.hands", Msg("'{seat}' is not a seat", seat=str(seat)[:10]))
            if not isinstance(hand, Mapping):
                raise _fail(f"end.hands.{seat}", Msg("expected {shape}", shape='{"hand": ..., "melds": ...}'))
            _check_strings(hand, ("hand", "melds", "status"), f"end.hands.{seat}")
            if "status" in hand and hand["status"] not in WALL_STATUSES:
                raise _fail(f"end.hands.{seat}.status", Msg("'{status}' is not a status; use {first} or {second}",
                                                            status=hand["status"][:20], first="not-ready",
                                                            second="pig"))
            wall_hands[seat] = {k: v for k, v in hand.items() if k in ("hand", "melds", "status")}
    options = data.get("options", "")
    if not isinstance(options, str):
        raise _fail("options", Msg("expected the options as one comma-separated string"))
    return Round(rules, dict(missing), events, wall_hands, options)


def _check_strings(raw: Mapping, keys: tuple[str, ...], where: str) -> None:
    """Fields that hold text must be JSON strings (a number or a list is not read as text)."""
    for key in keys:
        if key in raw and not isinstance(raw[key], str):
            raise _fail(f"{where}.{key}", Msg("expected a string"))


def _read_event(raw, i: int) -> Kong | Win:
    where = f"events[{i}]"
    if not isinstance(raw, Mapping):
        raise _fail(where, Msg("expected an object"))
    kind = raw.get("type")
    seat = raw.get("seat")
    if seat not in SEATS:
        raise _fail(f"{where}.seat", Msg("'{seat}' is not a seat; use E, S, W or N", seat=str(seat)[:10]))
    source = raw.get("from")
    if source is not None and source not in SEATS:
        raise _fail(f"{where}.from", Msg("'{seat}' is not a seat", seat=str(source)[:10]))
    if kind == "kong":
        how = raw.get("kind")
        if how not in KONG_KINDS:
            raise _fail(f"{where}.kind", Msg("'{kind}' is not a kong kind; use {first}, {second} or {third}",
                                             kind=str(how)[:20], first="exposed", second="concealed", third="added"))
        _check_strings(raw, ("tile",), where)
        if "drawn" in raw and not isinstance(raw["drawn"], bool):
            raise _fail(f"{where}.drawn", Msg("expected {first} or {second}", first="true", second="false"))
        try:
            tiles = parse_tiles(raw.get("tile", ""))
        except ValueError as err:
            raise _fail(f"{where}.tile", str(err)) from None
        if len(tiles) != 1 or tiles[0].is_bonus:
            raise _fail(f"{where}.tile", Msg("give the one tile of the kong, e.g. 5m"))
        if how == "exposed" and source is None:
            raise _fail(f"{where}.from", Msg("an exposed kong is made from someone's discard: say whose"))
        if how != "exposed" and source is not None:
            raise _fail(f"{where}.from", Msg(_NOT_FROM_A_DISCARD[how]))
        if source == seat:
            raise _fail(f"{where}.from", Msg("a player cannot kong their own discard"))
        return Kong(seat, how, tiles[0], source, bool(raw.get("drawn", True)))
    if kind == "win":
        by = raw.get("by", "discard")
        if by not in ("self-draw", "discard"):
            raise _fail(f"{where}.by", Msg("'{by}' is not a way of winning", by=str(by)[:20]))
        win_by = WinBy(by)
        if win_by is WinBy.DISCARD and source is None:
            raise _fail(f"{where}.from", Msg("a discard win needs the discarder"))
        if win_by is WinBy.SELF_DRAW and source is not None:
            raise _fail(f"{where}.from", Msg("a self-drawn win has no discarder"))
        if source == seat:
            raise _fail(f"{where}.from", Msg("a player cannot win on their own discard"))
        _check_strings(raw, ("hand", "melds", "win", "events"), where)
        params = {k: raw[k] for k in ("hand", "melds", "win", "events") if raw.get(k)}
        return Win(seat, win_by, source, params)
    raise _fail(f"{where}.type", Msg("'{kind}' is not an event; use {first} or {second}", kind=str(kind)[:20],
                                     first="kong", second="win"))


_NOT_FROM_A_DISCARD = {"concealed": N_("a concealed kong is not made from a discard"),
                       "added": N_("an added kong is not made from a discard")}


def line_error(number: int, problem: Msg) -> HandError:
    """An error of one line of the round's text: "line 3: …" (the problem kept apart for the page)."""
    return _fail("round", Msg("line {number}: {problem}", number=number, problem=problem))


_LINE_WORD = re.compile(r"[A-Za-z0-9:=,_-]+")


def parse_round_text(text: str, rules: str = "sichuan") -> dict:
    """Read the ledger page's text: one event a line, into the JSON shape.

    >>> parse_round_text("missing E=m S=p\\nkong E concealed 5p\\nwin S discard from E hand=123p")["events"][0]
    {'type': 'kong', 'seat': 'E', 'kind': 'concealed', 'tile': '5p'}
    """
    data: dict = {"rules": rules, "missing": {}, "events": []}
    lines = [ln.strip() for ln in text.splitlines()]
    if len(lines) > MAX_EVENTS + 10:
        raise _fail("round", Msg("{n} lines is too many (at most {most})", n=len(lines), most=MAX_EVENTS + 10))
    for number, line in enumerate(lines, 1):
        if not line or line.startswith("#"):
            continue
        try:
            words = shlex.split(line)
        except ValueError:
            raise line_error(number, Msg("unbalanced quotes")) from None
        head, rest = words[0].lower(), words[1:]
        pairs = dict(w.split("=", 1) for w in rest if "=" in w)
        plain = [w for w in rest if "=" not in w]
        if head == "missing":
            data["missing"].update({k.upper(): v.lower() for k, v in pairs.items()})
        elif head == "options":
            data["options"] = ",".join(filter(None, [data.get("options", ""), *rest]))
        elif head == "kong":
            if len(plain) < 3:
                raise line_error(number, Msg("write '{form}'", form="kong SEAT exposed|concealed|added TILE"
                                                                  " [from SEAT] [held]"))
            event = {"type": "kong", "seat": plain[0].upper(), "kind": plain[1].lower(), "tile": plain[2]}
            if "from" in plain:
                event["from"] = _after(plain, "from", number)
            if "held" in plain:
                event["drawn"] = False
            data["events"].append(event)
        elif head == "win":
            if len(plain) < 2:
                raise line_error(number, Msg("write '{form}'", form="win SEAT self-draw|discard [from SEAT]"
                                                                  " hand=… [melds=…] [win=…] [events=…]"))
            event = {"type": "win", "seat": plain[0].upper(), "by": plain[1].lower()}
            if "from" in plain:
                event["from"] = _after(plain, "from", number)
            event.update({k: v for k, v in pairs.items() if k in ("hand", "melds", "win", "events")})
            data["events"].append(event)
        elif head == "wall":
            hands = {}
            for part in " ".join(rest).split(";"):
                bits = part.split()
                if not bits:
                    continue
                seat = bits[0].rstrip(":").upper()
                hands[seat] = dict(b.split("=", 1) for b in bits[1:] if "=" in b)
                hands[seat].update(("status", b.lower()) for b in bits[1:] if "=" not in b)
            data["end"] = {"type": "wall", "hands": hands}
        else:
            raise line_error(number, Msg("'{head}' is not {heads} or {last}", head=head[:20],
                                         heads="missing, options, kong, win", last="wall"))
    return data


def _after(words: list[str], key: str, number: int) -> str:
    at = words.index(key)
    if at + 1 >= len(words):
        raise line_error(number, Msg("'{key}' needs a seat after it", key=key))
    return words[at + 1].upper()


def _fail(field_name: str, message: str) -> HandError:
    return HandError([FieldError(field_name, message)])


def settle_round(round_: Round, rulesets: Mapping[str, Ruleset] | None = None,
                 prices: dict | None = None) -> Ledger:
    """Read a round's hands and settle it (app/table/settlement.settle_round)."""
    return settle(round_, read_hands(round_, rulesets), prices)


def read_hands(round_: Round, rulesets: Mapping[str, Ruleset] | None = None) -> RoundHands:
    """The ruleset, the switches, each win's request and the tiles shown at the wall's end;
    a refusal of the switches or of one hand is kept for the settlement to raise in its turn."""
    ruleset = read_ruleset({"rules": round_.rules}, rulesets)
    try:
        settings = read_settings({"options": round_.options}, ruleset)
    except HandError as err:
        settings = err
    wins: dict[int, Ask | HandError] = {}
    events: dict[int, frozenset[str]] = {}
    for step, event in enumerate(round_.events):
        if isinstance(event, Win):
            events[step] = frozenset(e for e in re.split(r"[,\s]+", event.params.get(
                "events", "").strip().lower()) if e)
            try:
                wins[step] = read_ask(_win_params(event, round_), rulesets)
            except HandError as err:
                wins[step] = err
    wall: dict[str, Hand | HandError] = {}
    for seat, given in (round_.wall_hands or {}).items():
        if given.get("status") not in WALL_STATUSES:   # a shortcut shows no tiles
            try:
                wall[seat] = parse_hand(dict(given), complete=False)
            except HandError as err:
                wall[seat] = err
    return RoundHands(ruleset, settings, wins, wall, events)


def _win_params(event: Win, round_: Round) -> dict[str, str]:
    """The win as the calculator asks it: its tiles and events, its seat, way and discarder,
    the winner's missing suit and the round's switches (who won before is added in turn)."""
    params = dict(event.params)
    params.update({"rules": round_.rules, "by": event.by.value, "seat": event.seat})
    if event.discarder:
        params["discarder"] = event.discarder
    if round_.missing.get(event.seat):
        params["missing"] = round_.missing[event.seat]
    if round_.options:
        params["options"] = round_.options
    return params
