"""Which requests are heavy, and the answers of a request not served: busy (503), too many
long calculations from one address (429), too many new club variants from one address (429).

`Turns` (turns.py) asks `heavy` of each request before the app reads it: an outlook
(`outlook=` on), a club's variant the worker has not built yet (nor refused a moment ago), or a
long query or body (a night's sheet, a round). What it marks `SHED` the app answers here with
`Busy`, in the page's language or the API's JSON shape, with `Retry-After`. New variants are
counted per client address, in the app, so the test client and `make dev` count them too: at
most NEW_VARIANTS_PER_MINUTE a minute each worker builds for one address (a variant is 30-200
ms of work; kept or refused, it is not built again).
"""
from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

from flask import Flask, current_app, request

from app.base.i18n import Msg
from app.rules.house import HouseError, decode, is_house, joined

from .turns import SHED

HEAVY_SIZE = 2048             # bytes of query and body past which a request is heavy
NEW_VARIANTS_PER_MINUTE = 12  # new club variants one address may have a worker build a minute
MAX_CLIENTS = 4096            # addresses whose new variants are counted (the oldest forgotten)
ON = {"1", "true", "on", "yes"}


class Busy(Exception):
    """A request answered without its work: `status` (503 or 429), the field it names ("" for
    none), the sentence, and the seconds to wait (`Retry-After`)."""

    def __init__(self, status: int, field: str, message: str, retry: int):
        super().__init__(message)
        self.status, self.field, self.message, self.retry = status, field, message, retry


def heavy(environ: dict[str, Any], rulesets) -> bool:
    """Whether a request is heavy work: an outlook, a variant to build, a long query or body."""
    query = environ.get("QUERY_STRING", "")
    length = environ.get("CONTENT_LENGTH") or "0"
    if len(query) + (int(length) if length.isdecimal() else 0) > HEAVY_SIZE:
        return True
    if "outlook" not in query and "house" not in query and "rules" not in query:
        return False
    args = dict(parse_qsl(query))
    if args.get("outlook", "").strip().lower() in ON:
        return True
    rules = args.get("rules", "").strip() or "hong-kong"
    rules = joined(rules, args.get("house", "").strip())
    return is_house(rules) and not rulesets.kept(rules)


class NewVariants:
    """Each client address's new variants in the last minute (one worker's count)."""

    def __init__(self, most: int = NEW_VARIANTS_PER_MINUTE, clock: Callable[[], float] = time.monotonic):
        self.most, self.clock = most, clock
        self.seen: OrderedDict[str, deque[float]] = OrderedDict()

    def wait(self, client: str) -> int:
        """0 when `client` may have one more variant built now (and it is counted), else the
        seconds until it may."""
        now = self.clock()
        times = self.seen.pop(client, None) or deque()
        while times and times[0] <= now - 60:
            times.popleft()
        self.seen[client] = times
        if len(self.seen) > MAX_CLIENTS:
            self.seen.popitem(last=False)
        if len(times) >= self.most:
            return max(1, int(times[0] + 60 - now) + 1)
        times.append(now)
        return 0


def install(app: Flask) -> None:
    """Answer what `Turns` shed, and count each address's new variants."""
    app.extensions["new_variants"] = NewVariants(app.config.get("NEW_VARIANTS_PER_MINUTE",
                                                                NEW_VARIANTS_PER_MINUTE))
    app.before_request(_answer_shed)
    app.before_request(_count_new_variant)


def _answer_shed() -> None:
    shed = request.environ.get(SHED)
    if shed is None:
        return
    why, seconds = shed
    if why == "heavy":
        raise Busy(429, "", Msg("this address already has long calculations under way (an outlook,"
                                " new club rules, a long sheet): try again in {seconds} seconds",
                                seconds=seconds), seconds)
    raise Busy(503, "", Msg("the calculator is busy: more requests are waiting than it can answer"
                            " in time; try again in {seconds} seconds", seconds=seconds), seconds)


def _count_new_variant() -> None:
    rules = request.args.get("rules", "")
    if not is_house(rules) or current_app.extensions["rulesets"].kept(rules):
        return
    try:
        decode(rules)   # a code that does not read is refused at once, built by nobody
    except HouseError:
        return
    seconds = current_app.extensions["new_variants"].wait(request.remote_addr or "")
    if seconds:
        raise Busy(429, "house", Msg("too many new club rules from one address this minute (at most"
                                     " {most}): try again in {seconds} seconds",
                                     most=current_app.extensions["new_variants"].most,
                                     seconds=seconds), seconds)
