"""A member's page (their nights, their names, a plot drawn here as SVG) and the exports: a
season's standings and a member's nights as CSV and JSON."""
from __future__ import annotations

import datetime
from dataclasses import dataclass
from fractions import Fraction

from flask import Response, current_app, g, jsonify, render_template, request
from markupsafe import Markup

from app.base.errors import HandError
from app.base.i18n import Msg, Text
from app.club.rating import MODEL, PARAMETERS, Rated
from app.club.standings import Line, Standings
from app.store.clubs import Club, Member
from app.store.sheets import EXPIRE_DAYS
from app.vocabulary.request import read_ruleset
from app.web.common.exports import csv_text
from app.web.common.i18n import say_here, with_lang
from app.web.common.present import number

from .plot import history_plot
from .routes import _open, _private, _season_of, biggest_link, bp, member_name, member_of, store
from .season import SeasonView, night_standings, season_view


@bp.app_template_filter("club_date")
def club_date(at: float) -> str:
    """A moment as its date (UTC), 2026-12-07."""
    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d")


@bp.app_template_global("club_expires")
def club_expires(club: Club) -> tuple[str, int]:
    """The day the club is deleted if nobody opens it again (opening this page moved it on),
    and the days an opening keeps it."""
    return club_date(club.used + EXPIRE_DAYS * 86400), EXPIRE_DAYS


@bp.app_template_global("rules_name")
def rules_name(rules: str) -> Text | str:
    """A season's rules by their name (a family's, or a house variant's)."""
    try:
        return read_ruleset({"rules": rules}, current_app.extensions["rulesets"]).name
    except HandError:
        return rules[:40]


@dataclass(frozen=True, slots=True)
class NightLine:
    """One night of a member's season: their line of that night alone, their rating after it."""

    night: int
    at: float
    line: Line
    running: object          # their season total after this night
    rated: Rated | None


@dataclass(frozen=True, slots=True)
class MemberPage:
    club: Club
    token: str
    member: Member
    view: SeasonView
    line: Line | None
    nights: tuple[NightLine, ...]
    plot: Markup
    target: Markup = Markup("")      # the embedded card opens the club's pages beside its frame

    def biggest_link(self) -> str:
        return biggest_link(self.view, self.line.biggest) if self.line and self.line.biggest else ""

    def export_link(self, kind: str) -> str:
        return f"/c/{self.token}/members/{self.member.id}.{kind}?season={self.view.season.id}"

    def embed_address(self) -> str:
        """The card's address on the view link, whole: what a club's own site pastes (oEmbed)."""
        return request.host_url.rstrip("/") + f"/c/{self.club.tokens['view']}/members/{self.member.id}"

    def rating_text(self) -> str:
        found = self.view.ratings.get(self.member.id)
        return f"{found[-1].rating:.1f}" if found else "–"


def member_nights(club: Club, view: SeasonView, member_id: int) -> tuple[NightLine, ...]:
    rated = {r.night: r for r in view.ratings.get(member_id, ())}
    found, running = [], 0
    for night in view.nights:
        if not any(member_id in t.seats for t in night.tables):
            continue
        line = night_standings(view, [night.id]).line(member_id)
        if line is None:
            continue
        running += line.total
        found.append(NightLine(night.id, night.at, line, running, rated.get(night.id)))
    return tuple(found)


def _member_page(token: str, member_id: int) -> MemberPage:
    return member_page_of(_open(token), token, member_id)


def member_page_of(club: Club, token: str, member_id: int, **shown) -> MemberPage:
    """A member's season as `?season=` asks (404 for no such member); `shown`: the embedded
    card's links' target."""
    member = member_of(club, member_id)
    season = _season_of(club)
    view = season_view(club, store(), token, season)
    nights = member_nights(club, view, member_id)
    g.page_rules = season.rules.split("~")[0]
    plot = history_plot([n.night for n in nights], [float(n.running) for n in nights],
                        [n.rated.rating if n.rated else 0.0 for n in nights],
                        (say_here(Msg("Season total")), say_here(Msg("Rating"))),
                        say_here(Msg("{name}'s season, night by night", name=member.label)))
    return MemberPage(club, token, member, view, view.standings.line(member_id), nights, plot, **shown)


@bp.get("/c/<token>/members/<int:member_id>")
def member_page(token: str, member_id: int):
    page = _member_page(token, member_id)
    return _private(Response(render_template("club/member.html", page=page)))


# --- exports ---------------------------------------------------------------------------------


def _amount(value) -> object:
    return number(value) if isinstance(value, Fraction | int) else value


def line_json(line: Line, club: Club, view: SeasonView) -> dict:
    biggest = line.biggest
    rated = view.ratings.get(line.member)
    return {
        "member": line.member, "name": member_name(club, line.member), "total": _amount(line.total),
        "nights": line.nights, "hands": line.hands, "won": line.won, "self_draws": line.self_draws,
        "discard_wins": line.discard_wins, "deal_ins": line.deal_ins,
        "average_fan": None if line.average_fan is None else round(float(line.average_fan), 3),
        "biggest": None if biggest is None else {
            "fan": biggest.fan, "pattern": biggest.pattern.id if biggest.pattern else None,
            "night": biggest.night, "round": biggest.round, "table": biggest.table, "hand": biggest.hand,
            "event": biggest.event,
            "link": biggest_link(view, biggest)},
        "rating": None if not rated else {"mu": round(rated[-1].mu, 4), "sigma": round(rated[-1].sigma, 4),
                                          "rating": round(rated[-1].rating, 4)},
    }


def _head() -> list[str]:
    return [say_here(m) for m in (Msg("Rank"), Msg("Member id"), Msg("Member"), Msg("Total"), Msg("Nights"),
                                  Msg("Hands"), Msg("Won"), Msg("Self-draws"), Msg("Wins on a discard"),
                                  Msg("Deal-ins"), Msg("Biggest hand (fan)"), Msg("Its largest pattern"),
                                  Msg("Average fan won"), Msg("Rating"))]


def _csv_row(rank: int, data: dict) -> list[object]:
    biggest = data["biggest"] or {}
    return [rank, data["member"], data["name"], data["total"], data["nights"], data["hands"], data["won"],
            data["self_draws"], data["discard_wins"], data["deal_ins"], biggest.get("fan", ""),
            biggest.get("pattern") or "", "" if data["average_fan"] is None else data["average_fan"],
            "" if data["rating"] is None else data["rating"]["rating"]]


def _standings_json(club: Club, view: SeasonView, standings: Standings) -> dict:
    return {
        "club": club.name, "season": {"id": view.season.id, "name": view.season.name, "rules": view.season.rules},
        "nights": len(view.nights), "tables": standings.tables, "hands": standings.hands,
        "zero_sum": standings.zero_sum, "total": _amount(standings.total),
        "missing_tables": [list(m) for m in view.missing],
        "rating": {"model": MODEL, "package": "openskill", "shown": "mu - 3 sigma",
                   "parameters": dict(PARAMETERS)},
        "standings": [line_json(line, club, view) for line in standings.lines],
    }


def _download(text: str, name: str) -> Response:
    return _private(Response(text, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{name}"'}))


def _json(found: dict) -> Response:
    return _private(jsonify(found))


@bp.get("/c/<token>/standings.json")
def standings_json(token: str):
    club = _open(token)
    view = season_view(club, store(), token, _season_of(club))
    return _json(_standings_json(club, view, view.standings))


@bp.get("/c/<token>/standings.csv")
def standings_csv(token: str):
    club = _open(token)
    view = season_view(club, store(), token, _season_of(club))
    rows = [_head(), *(_csv_row(i, line_json(line, club, view)) for i, line in enumerate(view.standings.lines, 1))]
    return _download(csv_text(rows), f"club-season-{view.season.id}.csv")


def _member_json(page: MemberPage) -> dict:
    return {
        "club": page.club.name, "season": {"id": page.view.season.id, "name": page.view.season.name},
        "member": {"id": page.member.id, "name": page.member.name, "note": page.member.note,
                   "names": [{"name": h.name, "note": h.note, "since": club_date(h.at)} for h in page.member.history]},
        "season_line": line_json(page.line, page.club, page.view) if page.line else None,
        "nights": [{"night": n.night, "date": club_date(n.at), "total": _amount(n.line.total),
                    "season_total": _amount(n.running), "hands": n.line.hands, "won": n.line.won,
                    "self_draws": n.line.self_draws, "discard_wins": n.line.discard_wins,
                    "deal_ins": n.line.deal_ins,
                    "rating": None if n.rated is None else round(n.rated.rating, 4)} for n in page.nights],
    }


@bp.get("/c/<token>/members/<int:member_id>.json")
def member_json(token: str, member_id: int):
    return _json(_member_json(_member_page(token, member_id)))


@bp.get("/c/<token>/members/<int:member_id>.csv")
def member_csv(token: str, member_id: int):
    page = _member_page(token, member_id)
    head = [say_here(m) for m in (Msg("Night"), Msg("Date"), Msg("Total"), Msg("Season total"), Msg("Hands"),
                                  Msg("Won"), Msg("Self-draws"), Msg("Wins on a discard"), Msg("Deal-ins"),
                                  Msg("Rating"))]
    rows = [head, *([n["night"], n["date"], n["total"], n["season_total"], n["hands"], n["won"], n["self_draws"],
                     n["discard_wins"], n["deal_ins"], "" if n["rating"] is None else n["rating"]]
                    for n in _member_json(page)["nights"])]
    return _download(csv_text(rows), f"club-member-{page.member.id}.csv")




@bp.app_template_global("club_night_link")
def club_night_link(sheet_view_token: str) -> str:
    """A table's sheet's way back to its club night (the club's view link: it only shows), or ""
    for a sheet of no club (the stored sheet's page shows it)."""
    found = store().night_of_sheet(sheet_view_token)
    return with_lang(f"/c/{found[0]}/nights/{found[1]}") if found else ""
