"""The practice's hands written in the public vocabulary: the description a dealt hand's links
carry (the calculator's for Count the Fan, /discard's for the discard drill).

>>> from app.rules.loader import registry
>>> dealt = deal(registry()["hong-kong"], "class-7", 1, "plain")
>>> from app.vocabulary import score
>>> score(dealt.params).score.total_fan == dealt.calculation.score.total_fan
True
"""
from __future__ import annotations

from dataclasses import replace

from app.hands.hand import WinBy
from app.hands.tiles import canonical
from app.practice import dealer, discard_practice
from app.practice.dealer import Deal
from app.practice.discard_practice import KEPT, DiscardDeal
from app.rules.model import Ruleset
from app.vocabulary.hand import describe


def deal(ruleset: Ruleset, seed: str, n: int = 1, level: str = "patterns") -> Deal:
    """Hand n of a seeded series (app/practice/dealer.deal), with its description."""
    dealt = dealer.deal(ruleset, seed, n, level)
    return replace(dealt, params=deal_params(dealt))


def series(ruleset: Ruleset, seed: str, count: int, level: str = "patterns") -> list[Deal]:
    """The first `count` hands of a seeded series, each with its description."""
    return [replace(d, params=deal_params(d)) for d in dealer.series(ruleset, seed, count, level)]


def deal_params(dealt: Deal) -> dict[str, str]:
    """A dealt winning hand as the calculator reads it: its description (describe), the
    events in the dealer's order, the discarder and the house rules."""
    table = dealt.calculation.table
    params = {"rules": dealt.ruleset.id, **describe(dealt.calculation.hand)}
    if dealt.events:   # in the dealer's order, in describe's place
        params["events"] = ",".join(dealt.events)
    if table.by is WinBy.DISCARD:
        params["discarder"] = table.discarder
    if dealt.options:
        params["options"] = ",".join(dealt.options)
    return params


def deal_discard(ruleset: Ruleset, seed: str, n: int = 1) -> DiscardDeal:
    """Hand n of the discard series (app/practice/discard_practice.deal_discard), with its
    description for /discard's links."""
    dealt = discard_practice.deal_discard(ruleset, seed, n)
    params = discard_params(dealt)
    return replace(dealt, params=params, analysis=replace(dealt.analysis, params=dict(params)))


def discard_params(dealt: DiscardDeal) -> dict[str, str]:
    """A dealt 14-tile hand as /discard reads it: the tiles and the context that still holds
    before the discard (KEPT), the dealt hand's house rules."""
    hand = dealt.hand
    ctx = hand.context
    params = {"rules": dealt.ruleset.id, "hand": canonical(hand.concealed)}
    context = {
        "melds": ",".join(m.token for m in hand.melds), "seat": ctx.seat, "round": ctx.round,
        "flowers": "".join(map(str, ctx.flowers)), "seasons": "".join(map(str, ctx.seasons)),
        "missing": ctx.missing or "", "options": ",".join(dealt.options),
    }
    params.update({k: v for k, v in context.items() if v and k in KEPT})
    return params
