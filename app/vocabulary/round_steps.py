"""The round ledger built by taps: one line of the round's text from a step's fields, and back.

The text notation (`parse_round_text`) stays the one state of a round; each step of the
ledger page (the missing suits, a kong, a win, the end of the wall) writes or rewrites one
of its lines, and an edit reads a line back into the step's fields. Errors of a settled
round are traced back to the line (and the field) they belong to.
"""
from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass

from app.base.errors import FieldError, HandError
from app.base.i18n import Msg
from app.hands.hand import SEATS
from app.hands.tiles import parse_tiles
from app.table.settlement import KONG_KINDS, WALL_STATUSES

from .round import parse_round_text, read_round

STEPS = ("missing", "kong", "win", "wall")
SUITS = ("m", "p", "s")


@dataclass(frozen=True, slots=True)
class TextLine:
    """One line of the round's text: what it is and, for a kong or a win, which event."""

    number: int             # index among the text's lines
    kind: str               # missing, options, kong, win, wall, note (blank or comment), other
    text: str
    event: int | None = None


def text_lines(text: str) -> tuple[TextLine, ...]:
    """The lines of a round's text, each with its kind and event index.

    >>> [(ln.kind, ln.event) for ln in text_lines("missing E=p\\nkong E concealed 5m\\n\\nwin S self-draw")]
    [('missing', None), ('kong', 0), ('note', None), ('win', 1)]
    """
    found, events = [], 0
    for number, line in enumerate(text.splitlines()):
        stripped = line.strip()
        head = stripped.split(maxsplit=1)[0].lower() if stripped else ""
        if not stripped or stripped.startswith("#"):
            found.append(TextLine(number, "note", line))
        elif head in ("kong", "win"):
            found.append(TextLine(number, head, stripped, events))
            events += 1
        elif head in ("missing", "options", "wall"):
            found.append(TextLine(number, head, stripped))
        else:
            found.append(TextLine(number, "other", stripped))
    return tuple(found)


def _fail(errors: list[FieldError]) -> None:
    if errors:
        raise HandError(errors)


def _seat(value: str, name: str, errors: list[FieldError], required: bool = True) -> str:
    seat = value.strip().upper()
    if not seat:
        if required:
            errors.append(FieldError(name, Msg("choose a seat")))
        return ""
    if seat not in SEATS:
        errors.append(FieldError(name, Msg("'{seat}' is not a seat; use E, S, W or N", seat=value[:10])))
        return ""
    return seat


def _tiles(value: str, name: str, errors: list[FieldError]) -> str:
    """Tile notation as typed or picked, without spaces; an error when it cannot be read."""
    compact = re.sub(r"\s+", "", value)
    try:
        parse_tiles(compact)
    except ValueError as err:
        errors.append(FieldError(name, str(err)))
    return compact


def missing_line(suits: Mapping[str, str]) -> str:
    """The `missing` line from each seat's declared suit (定缺); blank suits are left out.

    >>> missing_line({"E": "p", "S": "m", "W": "", "N": "s"})
    'missing E=p S=m N=s'
    """
    errors = [FieldError(f"missing_{seat}", Msg("'{suit}' is not a suit; use m, p or s", suit=suits[seat][:10]))
              for seat in SEATS if suits.get(seat, "") not in ("", *SUITS)]
    _fail(errors)
    return " ".join(["missing", *(f"{seat}={suits[seat]}" for seat in SEATS if suits.get(seat))])


def kong_line(fields: Mapping[str, str]) -> str:
    """A kong: seat, kind, tile, and whose discard for an exposed one.

    >>> kong_line({"seat": "S", "kind": "exposed", "tile": "3p", "from": "W"})
    'kong S exposed 3p from W'
    """
    errors: list[FieldError] = []
    seat = _seat(fields.get("seat", ""), "seat", errors)
    kind = fields.get("kind", "").strip().lower()
    if kind not in KONG_KINDS:
        errors.append(FieldError("kind", Msg("choose exposed, concealed or added")))
    tile = fields.get("tile", "").strip()
    if not tile:
        errors.append(FieldError("tile", Msg("pick the kong's tile")))
    source = _seat(fields.get("from", ""), "from", errors, required=False)
    _fail(errors)
    words = ["kong", seat, kind, tile]
    if source:
        words += ["from", source]
    if kind == "added" and fields.get("held"):
        words.append("held")
    line = " ".join(words)
    _check_alone(line)
    return line


def win_line(fields: Mapping[str, str]) -> str:
    """A win: seat, self-draw or from whom, the hand and its melds, the events.

    >>> win_line({"seat": "E", "by": "self-draw", "hand": "123s456s789s234s55s"})
    'win E self-draw hand=123s456s789s234s55s'
    """
    errors: list[FieldError] = []
    seat = _seat(fields.get("seat", ""), "seat", errors)
    by = fields.get("by", "").strip().lower() or "discard"
    if by not in ("self-draw", "discard"):
        errors.append(FieldError("by", Msg("choose self-draw or a discard")))
    source = _seat(fields.get("from", ""), "from", errors, required=False)
    hand = _tiles(fields.get("hand", ""), "hand", errors)
    if not hand:
        errors.append(FieldError("hand", Msg("pick the winner's concealed tiles, the winning tile included")))
    melds = ",".join(m for m in re.split(r"[,\s]+", fields.get("melds", "").strip()) if m)
    win = fields.get("win", "").strip()
    events = ",".join(e for e in re.split(r"[,\s]+", fields.get("events", "").strip()) if e)
    _fail(errors)
    words = ["win", seat, by] + (["from", source] if source else []) + [f"hand={hand}"]
    words += [f"{k}={v}" for k, v in (("melds", melds), ("win", win), ("events", events)) if v]
    line = " ".join(words)
    _check_alone(line)
    return line


def wall_part(fields: Mapping[str, str]) -> tuple[str, str]:
    """One player's part of the `wall` line: (seat, "hand=… melds=…" or a status)."""
    errors: list[FieldError] = []
    seat = _seat(fields.get("seat", ""), "seat", errors)
    status = fields.get("status", "").strip().lower() or "tiles"
    if status not in ("tiles", *WALL_STATUSES):
        errors.append(FieldError("status", Msg("choose the tiles, not ready, or still holds the missing suit")))
    if status != "tiles":
        _fail(errors)
        return seat, status
    hand = _tiles(fields.get("hand", ""), "hand", errors)
    if not hand:
        errors.append(FieldError("hand", Msg("pick the player's concealed tiles, or choose a shortcut")))
    melds = ",".join(m for m in re.split(r"[,\s]+", fields.get("melds", "").strip()) if m)
    _fail(errors)
    return seat, " ".join([f"hand={hand}"] + ([f"melds={melds}"] if melds else []))


def wall_parts(line: str) -> dict[str, str]:
    """The parts of a `wall` line by seat.

    >>> wall_parts("wall S hand=123p melds=ckong:9999p; W not-ready")
    {'S': 'hand=123p melds=ckong:9999p', 'W': 'not-ready'}
    """
    body = line.strip()[len("wall"):] if line.strip().lower().startswith("wall") else line
    parts = {}
    for part in body.split(";"):
        bits = part.split()
        if bits:
            parts[bits[0].rstrip(":").upper()] = " ".join(bits[1:])
    return parts


def wall_line(parts: Mapping[str, str]) -> str:
    """A `wall` line from its parts, in seat order."""
    return "wall " + "; ".join(f"{seat} {parts[seat]}" for seat in SEATS if seat in parts)


def _check_alone(line: str) -> None:
    """Check the line's event on its own (seats, kinds, tiles), naming the step's fields."""
    try:
        read_round(parse_round_text(line))
    except HandError as err:
        raise HandError([FieldError(_field_of(e.field), e.message) for e in err.errors]) from None


def _field_of(field: str) -> str:
    """'events[3].from' → 'from'; 'end.hands.W.hand' → 'hand'."""
    return re.sub(r"^(events\[\d+\]|end\.hands(\.[ESWN])?|end)\.?", "", field) or "round"


def fields_of(line: str) -> dict[str, str]:
    """Read a kong or win line back into its step's fields (the inverse of kong_line, win_line).

    >>> fields_of("win S discard from N hand=123m melds=777p events=kong-cannon")["from"]
    'N'
    """
    try:
        words = shlex.split(line)
    except ValueError:
        return {}
    if not words:
        return {}
    head, rest = words[0].lower(), words[1:]
    plain = [w for w in rest if "=" not in w]
    pairs = dict(w.split("=", 1) for w in rest if "=" in w)
    fields: dict[str, str] = {}
    if "from" in plain and plain.index("from") + 1 < len(plain):
        fields["from"] = plain[plain.index("from") + 1].upper()
        plain = [w for i, w in enumerate(plain) if i not in (plain.index("from"), plain.index("from") + 1)]
    if head == "kong" and len(plain) >= 3:
        fields.update(seat=plain[0].upper(), kind=plain[1].lower(), tile=plain[2])
        if "held" in plain[3:]:
            fields["held"] = "1"
    elif head == "win" and len(plain) >= 2:
        fields.update(seat=plain[0].upper(), by=plain[1].lower())
        fields.update({k: v for k, v in pairs.items() if k in ("hand", "melds", "win", "events")})
    elif head == "missing":
        fields.update({f"missing_{k.upper()}": v.lower() for k, v in pairs.items()})
    return fields


def wall_fields(line: str, seat: str) -> dict[str, str]:
    """One seat's part of a `wall` line as the wall step's fields."""
    part = wall_parts(line).get(seat, "")
    if part in WALL_STATUSES:
        return {"seat": seat, "status": part}
    pairs = dict(w.split("=", 1) for w in part.split() if "=" in w)
    return {"seat": seat, "status": "tiles", **{k: v for k, v in pairs.items() if k in ("hand", "melds")}}


def put_line(text: str, line: str, number: int | None = None) -> str:
    """The text with the line put in place of line `number`, or added where it belongs.

    A `missing` line goes first (replacing any), a `wall` line last (replacing any), a kong
    or a win before the wall.
    """
    lines = text.splitlines()
    kind = line.split(maxsplit=1)[0].lower()
    if number is not None and 0 <= number < len(lines):
        lines[number] = line
    elif kind in ("missing", "wall"):
        at = next((i for i, ln in enumerate(lines) if ln.strip().lower().startswith(kind)), None)
        if at is not None:
            lines[at] = line
        elif kind == "missing":
            lines.insert(0, line)
        else:
            lines.append(line)
    else:
        at = next((i for i, ln in enumerate(lines) if ln.strip().lower().startswith("wall")), len(lines))
        lines.insert(at, line)
    return "\n".join(ln for ln in lines if ln.strip())


def drop_line(text: str, number: int | None) -> str:
    """The text without line `number`."""
    lines = text.splitlines()
    if number is None or not 0 <= number < len(lines):
        raise HandError.single("round", Msg("there is no such line to remove"))
    return "\n".join(ln for i, ln in enumerate(lines) if i != number and ln.strip())


def _without_line(message: str, prefix: str) -> str:
    """A "line N: …" message without its prefix, still a Msg when it was one."""
    if isinstance(message, Msg) and "problem" in message.params:
        return message.params["problem"]
    return message[len(prefix):]


def errors_by_line(text: str, errors: tuple[FieldError, ...]) -> tuple[dict[int, list[FieldError]], list[FieldError]]:
    """Trace each error of a settled round to its line: (line number → errors, errors of no line).

    Each error keeps only the field inside the line ('events[2].from' → 'from').
    """
    lines = text_lines(text)
    by_event = {ln.event: ln.number for ln in lines if ln.event is not None}
    first = {kind: next((ln.number for ln in lines if ln.kind == kind), None) for kind in ("missing", "wall")}
    placed: dict[int, list[FieldError]] = {}
    loose: list[FieldError] = []
    for error in errors:
        number = None
        event = re.match(r"events\[(\d+)\]", error.field)
        line_said = re.match(r"line (\d+): ", error.message)
        if event:
            number = by_event.get(int(event[1]))
        elif error.field.startswith("end"):
            number = first["wall"]
        elif error.field == "missing":
            number = first["missing"]
        elif error.field == "round" and line_said:
            number = int(line_said[1]) - 1
            error = FieldError("round", _without_line(error.message, line_said[0]))
        seat = re.match(r"end\.hands\.([ESWN])", error.field)
        field = f"{seat[1]} {_field_of(error.field)}" if seat else _field_of(error.field)
        if number is None:
            loose.append(error)
        else:
            placed.setdefault(number, []).append(FieldError(field, error.message))
    return placed, loose
