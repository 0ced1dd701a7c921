"""A sheet played apart brought into a club night as one of its tables (the organiser's link).

Two steps, nothing kept between them: the link (a shared sheet's edit or view link, /s/…, or an
address-only sheet, /sheet?…, its hands in its words) is read and checked against the season's
rules, then a form names each of the sheet's players and asks which member sat there. Sent,
the table joins the night (app/store/clubs.py, bring_sheet): a shared sheet as it stands, its
later hands counted as they come; an address-only sheet stored as a new shared sheet the
members record on. One sheet is one table of the club, however often it is brought.
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from urllib.parse import parse_qs, urlsplit

from flask import Response, current_app, g, redirect, render_template, request

from app.base.errors import FieldError, HandError
from app.base.i18n import Msg
from app.scoring.budget import TooMuchWork, opened
from app.store.clubs import Club, Member, NotAllowed, Season, Table, folded, member_token_of
from app.store.sheets import SheetGone, Stored, TooMany, token_hash
from app.table.sheet import Sheet
from app.vocabulary.request import read_ruleset
from app.vocabulary.sheet import price_sheet, read_sheet
from app.web.serving.hosts import public_host
from app.web.table.sheet import SHEET_KEYS, _seats_arg
from app.web.table.stored import as_stored
from app.web.table.stored import store as sheet_store

from .routes import (
    _errors,
    _from_here,
    _open,
    _page_link,
    _private,
    _refused,
    _render_night,
    bp,
    seat_names,
    store,
)
from .season import sheet_of

MAX_LINK = 12_000      # characters of a pasted link (an address-only sheet carries its hands)
SEATS = ("seat1", "seat2", "seat3", "seat4")


@dataclass(frozen=True, slots=True)
class Brought:
    """A sheet read from its link: the sheet, the stored sheet it is (None: address-only), and
    what names it in the club (`source`)."""

    sheet: Sheet
    stored: Stored | None
    source: str


def _refuse(message: Msg) -> HandError:
    return HandError.single("sheet", message)


def _stored(parts, token: str) -> Brought:
    hosts = {request.host.lower(), public_host().lower()}
    if parts.netloc and parts.netloc.lower() not in hosts:
        raise _refuse(Msg("this shared sheet is kept by another site ({host}): only a sheet of this calculator"
                          " can be brought in", host=parts.netloc[:60]))
    try:
        stored = sheet_store().open(token)
    except SheetGone:
        raise _refuse(Msg("no shared sheet has this address: it was never made, or nobody used it for a long"
                          " time and it expired")) from None
    return Brought(sheet_of(stored), stored, token_hash(stored.view_token))


def _address_only(query: str) -> Brought:
    args = parse_qs(query, keep_blank_values=True)
    params = {k: args[k][-1] for k in SHEET_KEYS if k in args and k != "seats"}
    params.update(_seats_arg(_Args(args)))
    params["rules"] = params.get("rules") or current_app.config["DEFAULT_RULES"]
    sheet = read_sheet(params, args.get("names", []))
    words = "&".join(f"{k}={v}" for k, v in sorted(params.items()) if v)
    return Brought(sheet, None, "address:" + hashlib.sha256(words.encode()).hexdigest())


class _Args(dict):
    def getlist(self, key: str) -> list[str]:
        return self.get(key, [])


def read_link(text: str) -> Brought:
    """The sheet a pasted link names: a shared sheet (/s/<token>) or an address-only sheet
    (/sheet?…); refused beside the field for anything else."""
    text = text.strip()
    if not text:
        raise _refuse(Msg("paste the sheet's link: a shared sheet's ({shared}) or a sheet's address ({address})",
                          shared="…/s/…", address="…/sheet?…"))
    if len(text) > MAX_LINK:
        raise _refuse(Msg("a link of at most {most} characters", most=MAX_LINK))
    parts = urlsplit(text if "://" in text or text.startswith("/") else "https://" + text)
    path = parts.path.rstrip("/")
    if path.startswith("/s/") and path.count("/") == 2 and 0 < len(path) - 3 <= 64:
        return _stored(parts, path[3:])
    if path == "/sheet" and parts.query:
        return _address_only(parts.query)
    raise _refuse(Msg("'{link}' is not a sheet's link: paste a shared sheet's link ({shared}) or a sheet's address"
                      " ({address})", link=text[:60], shared="…/s/…", address="…/sheet?…"))


def check_rules(sheet: Sheet, season: Season) -> None:
    """A sheet plays the season's rules, with no dial of its own, or it is refused."""
    rulesets = current_app.extensions["rulesets"]
    played = read_ruleset({"rules": sheet.rules}, rulesets)
    wanted = read_ruleset({"rules": season.rules}, rulesets)
    if played.id != wanted.id:
        raise _refuse(Msg("this sheet is played under {sheet_rules}, the season under {season_rules}: a season's"
                          " tables all keep its rules", sheet_rules=played.name, season_rules=wanted.name))
    if sheet.dials:
        raise _refuse(Msg("this sheet sets {dials}, which the season's tables do not: a season's tables all keep"
                          " its rules", dials=", ".join(f"{k}={v}" for k, v in sheet.dials)))


def priced_totals(sheet: Sheet) -> tuple[object, ...]:
    """What each player won on the sheet; refused when a hand on it counts nothing (it could not
    be priced), which the standings would silently leave out."""
    try:
        with opened("hands"):
            night = price_sheet(sheet, current_app.extensions["rulesets"])
    except TooMuchWork as err:
        raise _refuse(err.message) from None
    for row in night.rows:
        if row.errors:
            raise _refuse(Msg("hand {number} on this sheet cannot be counted: {problem}", number=row.number,
                              problem=row.errors[0].message))
    return tuple(night.totals)


@dataclass(frozen=True, slots=True)
class BringPage:
    """club/bring.html: the sheet's players, each to be named a member."""

    club: Club
    token: str
    night: object
    season: Season
    link: str
    players: tuple[str, ...]               # the sheet's names, "" where it has none
    totals: tuple[object, ...]             # what each won there
    hands: int
    watched: bool                          # brought by its view link: the members only watch it
    values: Mapping[str, str] = field(default_factory=dict)
    errors: Mapping[str, str] = field(default_factory=dict)

    def chosen(self, seat: int) -> str:
        """The member chosen for a player (by number, 1-4): as sent, else the one of that name."""
        key = SEATS[seat - 1]
        if key in self.values:
            return self.values[key]
        name = folded(self.players[seat - 1])
        found = [m for m in self.club.members if name and folded(m.name) == name]
        return str(found[0].id) if len(found) == 1 else ""

    @property
    def members(self) -> tuple[Member, ...]:
        return self.club.members


def _page(club: Club, token: str, night, brought: Brought, totals: tuple, values=None) -> BringPage:
    sheet = brought.sheet
    return BringPage(club, token, night, club.season(night.season), request.form.get("sheet", "").strip(),
                     sheet.names, totals, len(sheet.entries),
                     brought.stored is not None and not brought.stored.editable, values or {})


def _seats(form: Mapping[str, str], page: BringPage) -> list[int]:
    """The member at each of the sheet's places, each once; refused beside its place."""
    known = {m.id for m in page.club.members}
    errors: dict[str, Msg] = {}
    seats: list[int] = []
    for number, key in enumerate(SEATS, 1):
        text = form.get(key, "").strip()
        player = page.players[number - 1] or str(number)
        member = int(text) if text.isdecimal() and len(text) < 10 else 0
        if member not in known:
            errors[key] = Msg("say which member sat at {player}'s place", player=player)
        elif member in seats:
            first = page.players[seats.index(member)] or str(seats.index(member) + 1)
            errors[key] = Msg("{member} is already at {player}'s place: a member sits at one place",
                              member=page.club.member(member).label, player=first)
        seats.append(member)
    if errors:
        raise HandError([FieldError(k, m) for k, m in errors.items()])
    return seats


def _record(token: str, night_id: int, brought: Brought, seats: list[int], club: Club) -> Table:
    """The sheet made a table of the night (or the table it is already)."""
    stored = brought.stored
    if stored is None:     # address-only: stored now, once (its id from the club's link and its words)
        settings, lines, priced = as_stored(brought.sheet, seat_names(club, tuple(seats)))
        share = hashlib.sha256(f"club-brought:{member_token_of(token)}:{brought.source}".encode()).hexdigest()
        edit = sheet_store().create(settings, lines, request.remote_addr or "", priced, share_id=share)
        stored = sheet_store().open(edit)
    return store().bring_sheet(token, night_id, seats, brought.source, stored.view_token, stored.edit_token)


@bp.post("/c/<token>/nights/<int:night_id>/sheets")
def bring_sheet(token: str, night_id: int):
    _from_here()
    club = _open(token)
    if not club.manages:
        _refused(NotAllowed(club.role, "organiser"))
    night = club.night(night_id)
    if night is None:
        return _render_night(club, token, night_id)      # its 404
    form = {k: request.form.get(k, "") for k in ("sheet", *SEATS)}
    try:
        brought = read_link(form["sheet"])
        check_rules(brought.sheet, club.season(night.season))
        totals = priced_totals(brought.sheet)
    except HandError as err:      # the sheet's own refusals (a hand it cannot read …) said beside the link
        beside = HandError([FieldError("sheet", e.message) for e in err.errors])
        return _render_night(club, token, night_id, _errors(beside), 400, values=form)
    page = _page(club, token, night, brought, totals, {k: v for k, v in form.items() if k in SEATS and "confirm" in
                                                request.form})
    if "confirm" not in request.form:
        return _render_bring(page)
    try:
        table = _record(token, night_id, brought, _seats(form, page), club)
    except NotAllowed as err:
        _refused(err)
    except HandError as err:
        if "sheet" in {e.field for e in err.errors}:
            return _render_night(club, token, night_id, _errors(err), 400, values=form)
        return _render_bring(replace(page, errors=_errors(err)), 429 if isinstance(err, TooMany) else 400)
    return redirect(_page_link(token, f"/nights/{night_id}") + f"#table-{table.round}-{table.number}", 303)


def _render_bring(page: BringPage, status: int = 200) -> Response:
    g.page_rules = page.season.rules.split("~")[0]
    return _private(Response(render_template("club/bring.html", page=page), status))
