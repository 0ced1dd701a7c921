"""A club made on the live server over HTTP, as the organiser's and the members' phones would make
it: eight members, a night at two tables, two hands at each; its three links."""
from __future__ import annotations

import re
import urllib.parse
import urllib.request

MEMBERS = ["Ann", "Bob", "陳大文", "Di", "Eve", "李小龍", "Gus", "Hal"]
HANDS = ("hand=123m456m789m234p55s by=self-draw seat=E", "hand=111m222m333m444p55p seat=S discarder=W")


class _Stay(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None          # a 303 is read, not followed


_opener = urllib.request.build_opener(_Stay)


def _post(url: str, fields: list[tuple[str, str]]) -> str:
    """POST a form; where its 303 sends."""
    request = urllib.request.Request(url, data=urllib.parse.urlencode(fields).encode(), method="POST")
    try:
        _opener.open(request, timeout=30)
    except urllib.error.HTTPError as err:
        if err.code == 303:
            return urllib.parse.urlsplit(err.headers["Location"]).path
        raise
    raise AssertionError(f"{url}: no redirect")


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read().decode()


def played_club(live_server: str, name: str = "Thursday club") -> dict[str, str]:
    """A club with a night of eight played: {"organiser", "member", "view": its links (paths)}."""
    link = _post(f"{live_server}/club/new", [("name", name), ("rules", "hong-kong"), ("season", "Spring")])
    for member in MEMBERS:
        _post(f"{live_server}{link}/members", [("name", member)])
    night = _post(f"{live_server}{link}/nights", [("method", "random"), ("seed", "11")]
                  + [("present", str(i)) for i in range(1, len(MEMBERS) + 1)])
    for sheet in re.findall(r'href="(/s/[^"]+)" id="sheet-', _get(live_server + night)):
        for line in HANDS:
            _post(f"{live_server}{sheet}/change", [("action", "add"), ("line", line)])
    page = _get(live_server + link)
    return {role: re.search(rf'href="(/c/[^"]+)" id="{role}-link"', page)[1]
            for role in ("organiser", "member", "view")}
