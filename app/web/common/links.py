"""The request every view reads, with a link's `house=` folded into its `rules=`.

A club's variant travels as `rules=<family>&house=<code>` (the vocabulary of the links), and
inside the app as one ruleset id, `<family>~<code>` (app/rules/house.py), which every lookup
of a ruleset already resolves. Folding the two at the request, once, means every page, card,
embed, oEmbed frame and API answer honours `house=` without a line of its own; the older
single form `rules=<family>~<code>` still works. The `house` field stays in the arguments,
so a damaged code is refused as `house` (app/vocabulary/request.read_ruleset).
"""
from __future__ import annotations

from flask import Request, abort, current_app
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.utils import cached_property

from app.base.i18n import Msg
from app.rules.house import HouseError, is_house, joined


class LinkRequest(Request):
    """Flask's request, its query's `house` joined to its `rules` (see the module)."""

    @cached_property
    def args(self) -> ImmutableMultiDict[str, str]:
        args = Request.args.fget(self)   # werkzeug's own reading of the query string
        house = args.get("house", "").strip()
        if not house:
            return args
        rules = joined(args.get("rules", "").strip() or current_app.config["DEFAULT_RULES"], house)
        items = [(k, v) for k, v in args.items(multi=True) if k != "rules"]
        return ImmutableMultiDict([("rules", rules), *items])


def refuse_damaged_house(rules: str, field: str = "house") -> None:
    """Answer 400 naming `field` when a `rules` value names a club's variant whose code does
    not read or does not build (pages that look a ruleset up rather than read a request)."""
    if not is_house(rules):
        return
    try:
        current_app.extensions["rulesets"].house(rules)
    except HouseError as err:
        abort(400, description=Msg("{field}: {message}", field=field, message=err.message))
