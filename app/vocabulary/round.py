"""A blood-battle round's hands in the public vocabulary (`hand=`, `melds=`, `events=` of each
win, the tiles shown at the wall's end) read into values for app/table/settlement.py.

>>> from app.table.settlement import parse_round_text, read_round
>>> ledger = settle_round(read_round(parse_round_text("win S discard from E hand=123p456p789p123s55s")))
>>> ledger.totals["S"] > 0 > ledger.totals["E"]
True
"""
from __future__ import annotations

from collections.abc import Mapping

from app.base.errors import HandError
from app.hands.hand import Hand
from app.rules.model import Ruleset
from app.scoring.calculation import Ask
from app.table.settlement import WALL_STATUSES, Ledger, Round, RoundHands, Win
from app.table.settlement import settle_round as settle

from .hand import parse_hand
from .request import read_ask, read_ruleset, read_settings


def settle_round(round_: Round, rulesets: Mapping[str, Ruleset] | None = None,
                 prices: dict | None = None) -> Ledger:
    """Read a round's hands and settle it (app/table/settlement.settle_round)."""
    return settle(round_, read_hands(round_, rulesets), prices)


def read_hands(round_: Round, rulesets: Mapping[str, Ruleset] | None = None) -> RoundHands:
    """The ruleset, the switches, each win's request and the tiles shown at the wall's end;
    a refusal of the switches or of one hand is kept for the settlement to raise in its turn."""
    ruleset = read_ruleset({"rules": round_.rules}, rulesets)
    try:
        settings = read_settings({"options": round_.options}, ruleset)
    except HandError as err:
        settings = err
    wins: dict[int, Ask | HandError] = {}
    for step, event in enumerate(round_.events):
        if isinstance(event, Win):
            try:
                wins[step] = read_ask(_win_params(event, round_), rulesets)
            except HandError as err:
                wins[step] = err
    wall: dict[str, Hand | HandError] = {}
    for seat, given in (round_.wall_hands or {}).items():
        if given.get("status") not in WALL_STATUSES:   # a shortcut shows no tiles
            try:
                wall[seat] = parse_hand(dict(given), complete=False)
            except HandError as err:
                wall[seat] = err
    return RoundHands(ruleset, settings, wins, wall)


def _win_params(event: Win, round_: Round) -> dict[str, str]:
    """The win as the calculator asks it: its tiles and events, its seat, way and discarder,
    the winner's missing suit and the round's switches (who won before is added in turn)."""
    params = dict(event.params)
    params.update({"rules": round_.rules, "by": event.by.value, "seat": event.seat})
    if event.discarder:
        params["discarder"] = event.discarder
    if round_.missing.get(event.seat):
        params["missing"] = round_.missing[event.seat]
    if round_.options:
        params["options"] = round_.options
    return params
