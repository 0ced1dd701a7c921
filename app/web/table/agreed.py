"""An agreed hand on a shared sheet, in four taps: who won, how (self-draw or who dealt in), the
fan, confirm. Most hands at a real table are agreed aloud ("4 番 自摸, 阿明"): the form writes
them as the sheet's own `fan=` line, so the store prices them with the same engine, dials,
minimum, cap and conventions as a typed `fan=4 by=self-draw seat=S` (no second pricing path).

The same form corrects a hand in place (`/s/<token>?fix=<id>`): its winner, way of winning and
discarder (and, for an agreed hand, its fan) on the first screen; a hand with tiles keeps them.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.base.errors import FieldError, HandError
from app.base.i18n import Msg
from app.hands.hand import SEATS
from app.rules.model import Ruleset
from app.table.sheet import Entry, Sheet
from app.vocabulary.request import read_settings
from app.vocabulary.sheet import format_entry
from app.web.common.forms import SEAT_NAMES
from app.web.common.i18n import page_lang

FIELDS = ("winner", "from", "fan")   # the form's fields; an error of one is shown beside it
SELF_DRAW = "self-draw"
MOST_BUTTONS = 13                    # fan buttons at most (the minimum up to the cap)


def seat_word(ruleset: Ruleset | None, seat: str) -> str:
    """A seat as the page names it: the family's wind on a Chinese page, East … North in English."""
    if page_lang() == "en" or ruleset is None:
        return SEAT_NAMES[seat].split()[0]
    return ruleset.words_in(page_lang()).winds[seat]


def seat_players(sheet: Sheet, seating: Sequence[int], ruleset: Ruleset | None) -> tuple[tuple[str, str], ...]:
    """(seat, "阿明 (南)") for E, S, W, N as the players sit at this hand."""
    return tuple((seat, f"{sheet.player(seating[i])} ({seat_word(ruleset, seat)})")
                 for i, seat in enumerate(SEATS))


def fan_choices(sheet: Sheet, ruleset: Ruleset) -> tuple[int, ...]:
    """The fan buttons: the sheet's minimum up to its cap (at most MOST_BUTTONS of them)."""
    settings = read_settings(dict(sheet.dials), ruleset)
    top = settings.min + MOST_BUTTONS - 1
    if settings.cap is not None:
        top = min(top, settings.cap)
    return tuple(range(settings.min, max(top, settings.min) + 1))


@dataclass(frozen=True, slots=True)
class AgreedForm:
    """What the agreed-hand form shows: the players at their seats, the fan buttons, what is chosen."""

    players: tuple[tuple[str, str], ...]
    fans: tuple[int, ...]
    winner: str = ""
    way: str = ""                 # "self-draw" or the discarder's seat
    fan: str = ""
    tiled: bool = False           # a corrected hand with tiles: its fan comes from them
    hand_id: int | None = None    # the hand corrected (None: a new hand)
    number: int | None = None
    base: str = ""

    @property
    def correcting(self) -> bool:
        return self.hand_id is not None


def chosen(entry: Entry | None, form: Mapping[str, str], table=None) -> dict[str, str]:
    """What the form shows as chosen: what was sent (a refused form comes back filled in), else
    the corrected hand's winner, way of winning (its priced `table`, defaults taken) and fan."""
    if any(form.get(k) for k in FIELDS):
        return {k: form.get(k, "") for k in FIELDS}
    if entry is None or entry.is_round:
        return {}
    params = dict(entry.params)
    if table is None:
        way = SELF_DRAW if params.get("by") == SELF_DRAW else params.get("discarder", "")
        return {"winner": params.get("seat", ""), "from": way, "fan": params.get("fan", "")}
    way = table.discarder or SELF_DRAW
    return {"winner": table.winner, "from": way, "fan": params.get("fan", "")}


def _refused(winner: str, way: str, fan: str, tiled: bool) -> list[FieldError]:
    """What the form leaves unsaid or says wrong, each beside its field."""
    errors = []
    if winner not in SEATS:
        errors.append(FieldError("winner", Msg("choose who won")))
    if way not in (*SEATS, SELF_DRAW):
        errors.append(FieldError("from", Msg("choose self-draw or who dealt in")))
    elif way == winner:
        errors.append(FieldError("from", Msg("the winner cannot win on their own discard")))
    if not tiled and not (fan.isdecimal() and len(fan) <= 3):
        errors.append(FieldError("fan", Msg("choose the fan")))
    return errors


def agreed_line(form: Mapping[str, str], entry: Entry | None = None) -> str:
    """The sheet line the form says (HandError beside its fields): a new `fan=` hand, or the
    corrected hand with its winner, way of winning (and fan, for an agreed one) replaced."""
    if entry is not None and entry.is_round:
        raise HandError.single("winner", Msg("a round of the ledger is corrected in the ledger"))
    winner, way, fan = (form.get(k, "").strip() for k in FIELDS)
    tiled = entry is not None and "fan" not in dict(entry.params)
    errors = _refused(winner, way, fan, tiled)
    if errors:
        raise HandError(errors)
    kept = {k: v for k, v in (entry.params if entry else ()) if k not in ("by", "seat", "discarder", "fan")}
    params = {} if tiled else {"fan": str(int(fan))}
    if way == SELF_DRAW:
        params["by"] = SELF_DRAW
    params["seat"] = winner
    if way != SELF_DRAW:
        params["discarder"] = way
    ordered = {**kept, **params} if tiled else {**params, **kept}   # a hand's tiles first
    return format_entry(Entry(tuple(ordered.items()), at=entry.at if entry else None))


@dataclass(frozen=True, slots=True)
class LineWords:
    """A hand line waiting to be confirmed, as the players check it: who won and how, by name;
    its tiles (drawn), its melds (a concealed kong face down) and its agreed fan."""

    who: str
    tiles: tuple = ()
    melds: tuple[tuple[str, tuple], ...] = ()   # (kind, tiles)
    fan: str = ""


def line_words(line: str, sheet: Sheet, seating: Sequence[int], ruleset: Ruleset | None) -> LineWords | None:
    """The words of a sheet line (None when it cannot be read: the refusal says why)."""
    from flask_babel import gettext as _

    from app.hands.tiles import parse_tiles
    from app.vocabulary.hand import read_meld
    from app.vocabulary.sheet import parse_entry

    try:
        entry = parse_entry(line)
        params = dict(entry.params)
        tiles = tuple(parse_tiles(params.get("hand", "")))
        melds = tuple((m.kind.value, tuple(m.tiles)) for m in map(read_meld, filter(None, params.get("melds", "").split(","))))
    except (HandError, ValueError):
        return None
    if entry.is_round:
        return LineWords(_("Round: %(n)s lines", n=len(entry.round_text.splitlines())))
    at = entry.at or seating
    seat = params.get("seat", "E") if params.get("seat", "E") in SEATS else "E"
    name = sheet.player(at[SEATS.index(seat)])
    wind = seat_word(ruleset, seat)
    if params.get("by") == SELF_DRAW:
        who = _("%(winner)s (%(seat)s) self-drew", winner=name, seat=wind)
    elif params.get("discarder") in SEATS:
        who = _("%(winner)s (%(seat)s) won on %(discarder)s's discard", winner=name, seat=wind,
                discarder=sheet.player(at[SEATS.index(params["discarder"])]))
    else:
        who = _("%(winner)s (%(seat)s) won on a discard", winner=name, seat=wind)
    fan = _("%(fan)s fan", fan=params["fan"]) if params.get("fan") else ""
    return LineWords(who, tiles, melds, fan)
