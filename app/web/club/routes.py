"""The club's pages: /club makes one; /c/<token> opens it as its link allows.

The organiser's link adds and renames members, starts seasons and nights (seating the members
present at tables, each table a stored sheet); the member's link opens the tables' sheets to
record hands; the view link shows the nights, standings and ratings. No cookie, no account:
the token in the address is the capability (app/store/clubs.py), and every /c/ answer is kept
by no cache and sends no referrer (app/web/serving/privacy.py).
"""
from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlencode, urlsplit

from flask import Blueprint, Response, abort, current_app, g, redirect, render_template, request
from markupsafe import Markup

from app.base.errors import FieldError, HandError
from app.base.i18n import Msg
from app.club.rating import MODEL, PARAMETERS
from app.club.seating import METHODS, Plan, meetings, seat, shape
from app.club.standings import COLUMNS, Biggest, Line, sorted_lines
from app.rules.model import Ruleset
from app.store.clubs import (
    MAX_NAME,
    MAX_NOTE,
    Club,
    ClubGone,
    ClubStore,
    Member,
    NotAllowed,
    Season,
    folded,
)
from app.store.sheets import EXPIRE_DAYS, TooMany
from app.table.settlement import Ledger
from app.vocabulary.request import read_ruleset
from app.web.common.i18n import page_lang, say_here, with_lang
from app.web.serving import privacy
from app.web.table.rounds import win_link
from app.web.table.sheet import breakdown_link
from app.web.table.stored import qr_svg

from .season import SeasonView, byes_so_far, season_view

bp = Blueprint("club", __name__)

MAX_POST_BODY = 16 * 1024
MAX_SEED = 20


def store() -> ClubStore:
    """The app's club store, on the stored sheets' database (opened and migrated on first use)."""
    found = current_app.extensions.get("club_store")
    if found is None:
        from app.web.table.stored import store as sheet_store
        sheets = sheet_store()
        found = ClubStore(sheets.db, sheets)
        current_app.extensions["club_store"] = found
    return found


# --- answers ---------------------------------------------------------------------------------


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Robots-Tag"] = "noindex"
    return response


def _error(status: int, title: Msg, message: Msg):
    abort(_private(Response(render_template("error.html", code=status, title=title, message=message), status)))


def _open(token: str) -> Club:
    try:
        club = store().open(token)
    except ClubGone:
        _error(404, Msg("Not found"), Msg("No club has this address: it was never made, or nobody opened it for"
                                          " {days} days and it expired.", days=EXPIRE_DAYS))
    if club.manages:
        privacy.mark_edit_page()   # the organiser's pages: framed by no site
    return club


def _refused(err: NotAllowed):
    _error(403, Msg("Refused"), Msg("This link only shows the club: changes are made with the organiser's link.")
           if err.role == "view" else Msg("The member link records hands at the tables: the club is managed with"
                                          " the organiser's link."))


def _from_here() -> None:
    hosts = (request.host, current_app.config.get("SERVER_NAME") or "")
    if privacy.cross_site(request.headers.get("Origin"), request.headers.get("Sec-Fetch-Site"), hosts):
        _error(403, Msg("Refused"), Msg("A club is made and changed only from this calculator's own pages: this"
                                        " request came from another site, so nothing was saved."))
    if (request.content_length or 0) > MAX_POST_BODY:
        abort(413)


def _page_link(token: str, path: str = "") -> str:
    return with_lang(f"/c/{token}{path}")


# --- making a club ---------------------------------------------------------------------------


def _families() -> tuple[Ruleset, ...]:
    rulesets = current_app.extensions["rulesets"]
    return tuple(rulesets[rid] for rid in sorted(rulesets))


def _rules_given(form: Mapping[str, str]) -> str:
    """The rules a form names: a house variant's code or link when given, else the family chosen."""
    house = form.get("house", "").strip()
    if house:
        query = parse_qs(urlsplit(house).query).get("rules") if "rules=" in house else None
        return (query[0] if query else house).strip()
    return form.get("rules", "").strip()


def _checked_rules(form: Mapping[str, str]) -> str:
    rules = _rules_given(form)
    try:
        read_ruleset({"rules": rules}, current_app.extensions["rulesets"])
    except HandError as err:
        raise HandError([FieldError("house" if form.get("house", "").strip() else "rules", e.message)
                         for e in err.errors]) from None
    return rules


@dataclass(frozen=True, slots=True)
class NewClubPage:
    families: tuple[Ruleset, ...]
    values: Mapping[str, str]
    errors: Mapping[str, str]


@bp.get("/club")
def new_club():
    return render_template("club/new.html", page=NewClubPage(_families(), {"rules": current_app.config[
        "DEFAULT_RULES"]}, {}))


@bp.post("/club/new")
def create():
    _from_here()
    form = {k: request.form.get(k, "") for k in ("name", "rules", "house", "season")}
    try:
        rules = _checked_rules(form)
        token = store().create(form["name"], rules, form["season"] or say_here(Msg("Season 1")),
                               request.remote_addr or "")
    except HandError as err:
        status = 429 if isinstance(err, TooMany) else 400
        return render_template("club/new.html", page=NewClubPage(_families(), form, _errors(err))), status
    return redirect(_page_link(token), 303)


def _errors(err: HandError) -> dict[str, str]:
    found: dict[str, str] = {}
    for e in err.errors:
        found.setdefault(e.field, say_here(e.message))
    return found


# --- the club's page ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClubPage:
    """What club/club.html shows: the club as the link sees it, its forms, their errors."""

    club: Club
    token: str
    season: Season
    families: tuple[Ruleset, ...]
    last_present: frozenset[int]
    values: Mapping[str, str] = field(default_factory=dict)
    errors: Mapping[str, str] = field(default_factory=dict)
    renaming: int | None = None
    plan: Plan | None = None         # the tables drawn for the members ticked, to be confirmed
    methods: tuple[str, ...] = METHODS
    expire_days: int = EXPIRE_DAYS
    max_name: int = MAX_NAME
    max_note: int = MAX_NOTE

    def link(self, role: str) -> str:
        return f"/c/{self.club.tokens[role]}" if role in self.club.tokens else ""

    def name(self, member_id: int) -> str:
        return member_name(self.club, member_id)

    def names(self, member_ids) -> str:
        return (", " if page_lang() == "en" else "、").join(self.name(m) for m in member_ids)

    def shape(self) -> tuple[int, int]:
        """(tables of four, sitting out) for the members ticked now."""
        return shape(len(self.last_present))

    def shown(self) -> str:
        """The tables shown, as the confirm form carries them (the start checks it still holds)."""
        return shown_tables(self.plan) if self.plan else ""


def _club_page(club: Club, token: str, values=None, errors=None, renaming: int | None = None,
               plan: Plan | None = None) -> ClubPage:
    """The club's page; the night form ticks those of the form sent back, else those of the last
    night, else everyone."""
    values = values or {}
    if "present" in values:
        last = tuple(int(v) for v in values["present"].split(",") if v.isdecimal() and len(v) < 10)
    else:
        last = club.nights[-1].present if club.nights else tuple(m.id for m in club.members)
    return ClubPage(club, token, club.season(), _families(), frozenset(last), values, errors or {},
                    renaming, plan)


def _render_club(page: ClubPage, status: int = 200) -> Response:
    g.page_rules = page.season.rules.split("~")[0]
    return _private(Response(render_template("club/club.html", page=page), status))


@bp.get("/c/<token>")
def club_page(token: str):
    club = _open(token)
    return _render_club(_club_page(club, token))


def _change(token: str, make, values: Mapping[str, str], renaming: int | None = None, anchor: str = ""):
    """Make a change with the organiser's link; the club's page again (its errors beside their
    fields, the form filled in) when it is refused."""
    _from_here()
    try:
        make(store())
    except ClubGone:
        _open(token)
    except NotAllowed as err:
        _refused(err)
    except HandError as err:
        status = 429 if isinstance(err, TooMany) else 400
        return _render_club(_club_page(_open(token), token, values, _errors(err), renaming), status)
    return redirect(_page_link(token) + anchor, 303)


@bp.post("/c/<token>/members")
def add_member(token: str):
    form = {"name": request.form.get("name", ""), "note": request.form.get("note", "")}
    return _change(token, lambda s: s.add_member(token, form["name"], form["note"]), form, anchor="#members")


@bp.post("/c/<token>/members/<int:member_id>")
def rename_member(token: str, member_id: int):
    form = {"name": request.form.get("name", ""), "note": request.form.get("note", "")}
    return _change(token, lambda s: s.rename_member(token, member_id, form["name"], form["note"]), form,
                   renaming=member_id, anchor="#members")


@bp.post("/c/<token>/seasons")
def new_season(token: str):
    form = {k: request.form.get(k, "") for k in ("season", "rules", "house")}

    def make(s: ClubStore) -> None:
        s.new_season(token, form["season"], _checked_rules(form))
    return _change(token, make, form, anchor="#seasons")


# --- a night ---------------------------------------------------------------------------------


def _seed(text: str) -> str:
    seed = " ".join(text.split())
    if len(seed) > MAX_SEED:
        raise HandError.single("seed", Msg("a seed of at most {most} characters", most=MAX_SEED))
    return seed or str(secrets.randbelow(1_000_000))


def _method(text: str) -> str:
    if text not in METHODS:
        raise HandError.single("method", Msg("'{method}' is not a way of seating: {methods}", method=text[:20],
                                             methods=", ".join(METHODS)))
    return text


def _present(values: list[str]) -> list[int]:
    found = [int(v) for v in values if v.isdecimal() and len(v) < 10]
    if len(set(found)) < 4:
        raise HandError.single("present", Msg("{n} present: tick at least four members (a table seats four)",
                                              n=len(set(found))))
    return found


def plan_round(club: Club, token: str, season: Season, present: list[int], method: str, seed: str) -> Plan:
    """Seat the members present by the method: snake by the season's standings so far, meet by
    its meetings so far, byes to those with the fewest this season."""
    view = season_view(club, store(), token, season) if method == "snake" else None
    earlier = [t.seats for n in club.nights if n.season == season.id for t in n.tables]
    return seat(method, present, seed, view.standings.order() if view else (), meetings(earlier),
                byes_so_far(club, season))


def seat_names(club: Club, seats: tuple[int, ...]) -> str:
    """The players' names a table's sheet shows: each member's name, or their name and note
    where two at the table share a name (cut to the sheet's 20 characters)."""
    members = [club.member(m) for m in seats]
    names = [m.name for m in members]
    shared = {folded(n) for n in names if [folded(x) for x in names].count(folded(n)) > 1}
    shown = [(m.label if folded(m.name) in shared else m.name)[:MAX_NAME].replace(",", " ") for m in members]
    return ",".join(shown)


def _seat(token: str, night_id: int, method: str, seed: str) -> None:
    club = store().open(token)
    night = club.night(night_id)
    season = club.season(night.season)
    plan = plan_round(club, token, season, list(night.present), method, seed)
    settings = [{"rules": season.rules, "names": seat_names(club, t)} for t in plan.tables]
    store().seat_round(token, night_id, plan.method, plan.seed, plan.tables, plan.byes, settings)


def _preview(token: str, form: dict[str, str]) -> Response:
    """The tables the members ticked would sit at, said in words (who sits out and why) with a
    button that confirms them; nothing is stored until it is tapped. The seed is drawn here, so
    the confirmed night is the one shown."""
    _from_here()
    club = _open(token)
    if not club.manages:
        _refused(NotAllowed(club.role, "organiser"))
    try:
        method, seed = _method(form["method"]), _seed(form["seed"])
        present = _present(request.form.getlist("present"))
        unknown = [m for m in present if club.member(m) is None]
        if unknown:
            raise HandError.single("present", Msg("the club has no member {id}", id=unknown[0]))
        store().room_for_tables(club, len(set(present)) // 4)
    except HandError as err:
        status = 429 if isinstance(err, TooMany) else 400
        return _render_club(_club_page(club, token, form, _errors(err)), status)
    plan = plan_round(club, token, club.season(), present, method, seed)
    values = {**form, "seed": seed, "present": ",".join(str(m) for m in sorted(set(present)))}
    return _render_club(_club_page(club, token, values, plan=plan))


def shown_tables(plan: Plan) -> str:
    """A plan's tables and byes as the confirm form carries them: '1,2,3,4;5,6,7,8|9'."""
    return ";".join(",".join(map(str, t)) for t in plan.tables) + "|" + ",".join(map(str, plan.byes))


def _as_shown(club: Club, token: str, present: list[int], method: str, seed: str, shown: str | None) -> None:
    """Refuse (beside the ticks) to start a night whose tables, drawn again from the seed shown,
    are no longer those shown: a hand or a night recorded meanwhile moved the standings, the
    meetings or the byes."""
    if shown is not None and shown_tables(plan_round(club, token, club.season(), present, method, seed)) != shown:
        raise HandError.single("present", Msg("the tables changed since they were shown (a hand or a night was"
                                              " recorded meanwhile): look at them again"))


@bp.post("/c/<token>/nights")
def start_night(token: str):
    form = {"method": request.form.get("method", ""), "seed": request.form.get("seed", ""),
            "present": ",".join(request.form.getlist("present"))}
    if request.form.get("preview"):
        return _preview(token, form)
    made: list[int] = []

    def make(s: ClubStore) -> None:
        method, seed = _method(form["method"]), _seed(form["seed"])
        present = _present(request.form.getlist("present"))
        club = s.open(token)
        s.room_for_tables(club, len(set(present)) // 4)    # before the night is kept
        _as_shown(club, token, present, method, seed, request.form.get("shown"))
        night = s.start_night(token, present)
        made.append(night)
        _seat(token, night, method, seed)
    answer = _change(token, make, form, anchor="#night")
    if made and answer.status_code == 303:
        return redirect(_page_link(token, f"/nights/{made[0]}"), 303)
    return answer


@bp.post("/c/<token>/nights/<int:night_id>/rounds")
def seat_round(token: str, night_id: int):
    _from_here()
    club = _open(token)
    if club.night(night_id) is None:
        abort(404)
    try:
        _seat(token, night_id, _method(request.form.get("method", "")), _seed(request.form.get("seed", "")))
    except NotAllowed as err:
        _refused(err)
    except HandError as err:
        return _render_night(_open(token), token, night_id, _errors(err), 429 if isinstance(err, TooMany) else 400)
    return redirect(_page_link(token, f"/nights/{night_id}"), 303)


@dataclass(frozen=True, slots=True)
class NightPage:
    club: Club
    token: str
    night: object
    season: Season
    errors: Mapping[str, str]
    methods: tuple[str, ...] = METHODS
    values: Mapping[str, str] = field(default_factory=dict)     # the bring-a-sheet form, as sent

    def name(self, member_id: int) -> str:
        return member_name(self.club, member_id)

    def names(self, member_ids) -> str:
        return (", " if page_lang() == "en" else "、").join(self.name(m) for m in member_ids)

    def sheet_link(self, sheet_token: str) -> str:
        return with_lang(f"/s/{sheet_token}")

    def shape(self) -> tuple[int, int]:
        """(tables of four, sitting out) for the members here tonight."""
        return shape(len(self.night.present))

    def sheet_qr(self, sheet_token: str) -> Markup:
        """The table's sheet link as a QR code (the share box's own drawing): on the organiser's
        and the member's link the sheet's edit link, on the view link its view link."""
        return qr_svg(request.host_url.rstrip("/") + self.sheet_link(sheet_token))


def _render_night(club: Club, token: str, night_id: int, errors=None, status: int = 200, values=None) -> Response:
    night = club.night(night_id)
    if night is None:
        abort(404)
    season = club.season(night.season)
    g.page_rules = season.rules.split("~")[0]
    page = NightPage(club, token, night, season, errors or {}, values=values or {})
    return _private(Response(render_template("club/night.html", page=page), status))


@bp.get("/c/<token>/nights/<int:night_id>")
def night_page(token: str, night_id: int):
    return _render_night(_open(token), token, night_id)


# --- standings -------------------------------------------------------------------------------


COLUMN_LABELS = {"name": Msg("Member"), "total": Msg("Total"), "nights": Msg("Nights"), "hands": Msg("Hands"),
                 "won": Msg("Won"), "self_draws": Msg("Self-draws"), "discard_wins": Msg("Wins on a discard"),
                 "deal_ins": Msg("Deal-ins"), "biggest": Msg("Biggest hand"), "average_fan": Msg("Average fan won")}
SHOWN = ("name", *(c for c in COLUMNS if c != "name"))


@dataclass(frozen=True, slots=True)
class StandingsPage:
    club: Club
    token: str
    view: SeasonView
    lines: tuple[Line, ...]
    sort: str
    errors: Mapping[str, str]
    columns_shown: tuple[str, ...] = SHOWN
    model: str = MODEL
    path: str = "standings"          # or "embed/standings": the embedded view sorts in its frame
    target: Markup = Markup("")      # the embedded view opens the club's pages beside its frame

    def name(self, member_id: int) -> str:
        return member_name(self.club, member_id)

    def label(self, column: str) -> str:
        return say_here(COLUMN_LABELS[column])

    def sort_link(self, column: str) -> str:
        return with_lang(f"/c/{self.token}/{self.path}?" + urlencode({"season": self.view.season.id, "sort": column}))

    def member_link(self, member_id: int) -> str:
        return with_lang(f"/c/{self.token}/members/{member_id}")

    def embed_address(self) -> str:
        """The standings' address on the view link, whole: what a club's own site pastes to show
        them (oEmbed), whichever link this page was opened with."""
        return (request.host_url.rstrip("/") + f"/c/{self.club.tokens['view']}/standings"
                + (f"?season={self.view.season.id}" if self.view.season.id != self.club.season().id else ""))

    def export_link(self, kind: str) -> str:
        return f"/c/{self.token}/standings.{kind}?season={self.view.season.id}"

    def biggest_link(self, biggest: Biggest) -> str:
        return biggest_link(self.view, biggest)

    @staticmethod
    def average(line: Line) -> str:
        return "–" if line.average_fan is None else f"{float(line.average_fan):.1f}"

    def rating_text(self, member_id: int) -> str:
        found = self.view.ratings.get(member_id)
        return f"{found[-1].rating:.1f}" if found else "–"

    @staticmethod
    def parameters() -> str:
        """The model's parameters as the page states them: mu = 25, sigma = 8.333 …"""
        return ", ".join(f"{name} = {value:.4g}" for name, value in PARAMETERS)


def member_name(club: Club, member_id: int) -> str:
    member = club.member(member_id)
    return member.label if member else f"#{member_id}"


def biggest_link(view: SeasonView, biggest: Biggest) -> str:
    """The result page of a member's biggest hand: the calculator with that hand (a round's
    win: that win's breakdown)."""
    for played in view.tables:
        if (played.night, played.round, played.table) == (biggest.night, biggest.round, biggest.table):
            row = played.priced.rows[biggest.hand - 1]
            if biggest.event is not None and isinstance(row.ledger, Ledger):
                return with_lang(win_link(row.ledger.wins[biggest.event]))
            return breakdown_link(row.entry, played.priced.sheet)
    return ""


def _season_of(club: Club) -> Season:
    text = request.args.get("season", "")
    if not text:
        return club.season()
    try:
        return club.season(int(text) if text.isdecimal() and len(text) < 10 else -1)
    except KeyError:
        abort(404)


def standings_of(club: Club, token: str, **shown) -> tuple[StandingsPage, int]:
    """The season's standings as `?season=` and `?sort=` ask (400 with the error beside the table
    for an unknown column); `shown`: the embedded view's path and links' target."""
    season = _season_of(club)
    view = season_view(club, store(), token, season)
    sort = request.args.get("sort", "total")
    errors, status = {}, 200
    if sort not in COLUMNS:
        errors = {"sort": say_here(Msg("'{sort}' is not a column: sort by one of {columns}", sort=sort[:20],
                                       columns=", ".join(COLUMNS)))}
        sort, status = "total", 400
    names = {m.id: m.label for m in club.members}
    lines = sorted_lines(view.standings.lines, sort, names)
    g.page_rules = season.rules.split("~")[0]
    return StandingsPage(club, token, view, lines, sort, errors, **shown), status


@bp.get("/c/<token>/standings")
def standings_page(token: str):
    page, status = standings_of(_open(token), token)
    return _private(Response(render_template("club/standings.html", page=page), status))


def member_of(club: Club, member_id: int) -> Member:
    member = club.member(member_id)
    if member is None:
        abort(404)
    return member
