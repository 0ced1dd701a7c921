"""A game sheet's entries read and priced in order: each hand line through the calculator's
reader, each ledger entry through the round's; app/table/sheet.py tallies the night.

>>> from app.table.sheet import read_sheet
>>> night = price_sheet(read_sheet({"hands": "hand=123m456m789m234p55s by=self-draw seat=S"}))
>>> night.rows[0].amounts[1] > 0, sum(night.totals)
(True, 0)
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from app.base.errors import HandError
from app.rules.model import Ruleset
from app.scoring.calculation import Calculation
from app.table.settlement import Ledger, parse_round_text, read_round
from app.table.sheet import Entry, Night, Sheet, tally

from .request import read_ruleset, read_settings, score
from .round import settle_round


def price_sheet(sheet: Sheet, rulesets: Mapping[str, Ruleset] | None = None) -> Night:
    """Price every entry under the sheet's rules and dials; a bad entry counts nothing, with its errors."""
    ruleset = read_ruleset({"rules": sheet.rules}, rulesets)
    dials = dict(sheet.dials)
    settings = read_settings(dials, ruleset)
    # the same hand or round entered twice is priced once, and a hand shown at several walls'
    # ends once (settle_round's prices): a long sheet of near-copies costs what its distinct parts do
    done: dict[object, Calculation | Ledger | HandError] = {}
    prices: dict = {}
    priced: list[Calculation | Ledger | HandError] = []
    for entry in sheet.entries:
        if entry.is_round:
            priced.append(_once(done, entry.round_text, lambda e=entry: _price_round(
                e, ruleset, settings.options, rulesets, prices)))
        else:
            params = {**dict(entry.params), "rules": ruleset.id, **dials}
            priced.append(_once(done, tuple(sorted(params.items())),
                                lambda p=params: score(p, rulesets)))
    return tally(sheet, ruleset, settings, priced)


def _once(done: dict, key, price: Callable[[], Calculation | Ledger]
          ) -> Calculation | Ledger | HandError:
    """price() the first time a key is seen, its result (or its refusal) again after."""
    if key not in done:
        try:
            done[key] = price()
        except HandError as err:
            done[key] = err
    return done[key]


def _price_round(entry: Entry, ruleset: Ruleset, options: frozenset[str],
                 rulesets: Mapping[str, Ruleset] | None, prices: dict | None = None) -> Ledger:
    """Settle a ledger entry under the sheet's ruleset; the sheet's switches unless the round names its own."""
    data = parse_round_text(entry.round_text, ruleset.id)
    if not data.get("options") and options:
        data["options"] = ",".join(sorted(o for o in options if o in ruleset.option_ids))
    return settle_round(read_round(data), rulesets, prices)
