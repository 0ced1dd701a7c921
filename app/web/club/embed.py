"""The club on its own site: the season's standings and a member's card as embedded views
(/c/<view token>/embed/standings, /c/<view token>/embed/members/<id>), framed by oEmbed (the
club's view pages name their /oembed address) or by embed.js (`data-view="standings"` or
`"member"`), fitted to their content as every embedded view is (static/app.js).

Only the view link is ever embedded: it only shows. An embedded view opened with the
organiser's or the member's link is refused (and framed by no site), and such a link frames as
nothing in an oEmbed answer, so neither reaches another site's page, a frame or a cache.
"""
from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import parse_qsl, urlencode

from flask import Response, render_template
from markupsafe import Markup

from app.base.i18n import Msg
from app.web.lesson.oembed import Frame
from app.web.serving import privacy
from app.web.serving.privacy import carries_token

from .member import member_page_of
from .routes import _error, _open, _private, bp, standings_of, store

EMBED_LINES = 12            # the embedded standings show the leaders; the whole table is a tap away
BESIDE = Markup(' target="_blank" rel="noopener"')
KEPT = ("season", "sort", "lang")        # what an embedded view's address keeps of the page's
_PAGE = re.compile(r"/c/([A-Za-z0-9_-]{1,64})(?:/embed)?/(standings|members/([0-9]{1,9}))")


def _viewed(token: str):
    """The club a view link opens; refused (403, framed by no site) for any other link."""
    club = _open(token)
    if club.role != "view":
        privacy.mark_edit_page()
        _error(403, Msg("Refused"), Msg("Only the club's view link can be embedded: it only shows. Embed the"
                                        " view link given on the club's page, never this one."))
    return club


@bp.get("/c/<token>/embed/standings")
def embed_standings(token: str):
    page, status = standings_of(_viewed(token), token, path="embed/standings", target=BESIDE)
    leaders = replace(page, lines=page.lines[:EMBED_LINES])
    return _private(Response(render_template("club/embed_standings.html", page=leaders, embed=True,
                                             members=len(page.lines)), status))


@bp.get("/c/<token>/embed/members/<int:member_id>")
def embed_member(token: str, member_id: int):
    page = member_page_of(_viewed(token), token, member_id, target=BESIDE)
    return _private(Response(render_template("club/embed_member.html", page=page, embed=True)))


def club_frame(path: str, query: str) -> Frame | None:
    """What a club page frames as in an oEmbed answer: its standings or a member's card, for the
    view link alone (None for the organiser's or the member's link, an unknown club or member)."""
    found = _PAGE.fullmatch(path)
    if found is None or carries_token("", query):
        return None
    token, member = found[1], int(found[3]) if found[3] else None
    peeked = store().peek(token, member)
    if peeked is None or peeked[0] != "view" or (member is not None and peeked[2] is None):
        return None
    kept = urlencode([(k, v) for k, v in parse_qsl(query) if k in KEPT])
    if member is None:
        return Frame(f"/c/{token}/embed/standings", kept, Msg("Standings: {club}", club=peeked[1]), "standings")
    return Frame(f"/c/{token}/embed/members/{member}", kept,
                 Msg("{name}: a season at {club}", name=peeked[2], club=peeked[1]), "member")


@bp.record_once
def _frames_club_pages(state) -> None:
    state.app.extensions.setdefault("token_frames", []).append(club_frame)

