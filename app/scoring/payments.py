"""Who pays whom: turn a Score's base points into one signed row per seat, summing to zero."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from app.base.i18n import Msg
from app.hands.hand import SEATS, WinBy
from app.hands.phrases import plain
from app.hands.phrases import seat as _seat
from app.rules.model import Amount, Liability, Ruleset, exact
from app.rules.words import discard_words

from .selection import Score, Settings

ROLES = ("winner", "discarder", "payer", "liable", "already-won", "none")


@dataclass(frozen=True, slots=True)
class Table:
    """Who sits where for this win."""

    winner: str = "E"
    by: WinBy = WinBy.DISCARD
    discarder: str | None = None
    won: frozenset[str] = frozenset()       # Sichuan: seats that already won (they do not pay)
    liable: str | None = None               # 包牌 / 9-cards
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # a Table keys the payment cache, looked up for every hand: hash once
        object.__setattr__(self, "_hash", hash((self.winner, self.by, self.discarder, self.won,
                                                self.liable)))

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True, slots=True)
class Payment:
    """One seat's signed gain and the reason for it."""

    seat: str
    role: str
    amount: Amount
    reason: str


def next_seat(seat: str) -> str:
    """The seat after this one, E → S → W → N → E (ruling 76's default discarder)."""
    return SEATS[(SEATS.index(seat) + 1) % 4]


def fmt(amount: Amount) -> str:
    """An exact amount as people write it: 16, 0.5, 1/3."""
    if isinstance(amount, int):
        return str(amount)
    if amount.denominator == 1:
        return str(amount.numerator)
    as_float = float(amount)
    return f"{as_float:g}" if Fraction(as_float) == amount else f"{amount.numerator}/{amount.denominator}"


def applicable_liability(score: Score, table: Table, exposed_melds: int | None) -> Liability | None:
    """The ruleset's liability rule that pins `table.liable` for this win, if any.

    exposed_melds is None in tick-box mode, where the melds are not known.
    """
    if table.liable is None:
        return None
    counted = {i.pattern.id for i in score.counted}
    for rule in score.ruleset.liability:
        if rule.pattern is not None and rule.pattern not in counted:
            continue
        if exposed_melds is not None and exposed_melds < rule.exposed_melds:
            continue
        if table.by is WinBy.SELF_DRAW and not rule.self_draw:
            continue
        if table.by is WinBy.DISCARD and not (rule.discard and table.discarder == table.liable):
            continue
        return rule
    return None


def settle(score: Score, table: Table, exposed_melds: int | None = None,
           taken: str | None = None) -> tuple[Payment, ...]:
    """Who pays whom, one row per seat E S W N.

    taken: why the discarder was taken when the request named none (ruling 76); the
    discarder's row says it.
    """
    return _settle(score.ruleset, score.settings, table, score.points, score.total_fan,
                   score.capped_fan, score.below_minimum,
                   applicable_liability(score, table, exposed_melds), taken)


# The rows depend on the score only through its totals and the liability rule, which
# many hands share, so each combination is priced once and its rows reused.
@lru_cache(maxsize=1024)
def _settle(ruleset: Ruleset, settings: Settings, table: Table, points: int, total_fan: int,
            capped_fan: int, below_minimum: bool, liability: Liability | None,
            taken: str | None = None) -> tuple[Payment, ...]:
    """The rows for these totals at this table (see settle)."""
    rows = _rows(ruleset, settings, table, points, total_fan, capped_fan, below_minimum,
                 liability)
    if taken is None:
        return rows
    return tuple(Payment(p.seat, p.role, p.amount,
                         Msg("{reason} — taken as the discarder: {why}", reason=p.reason,
                             why=taken))
                 if p.seat == table.discarder and p.role != "winner" else p for p in rows)


def _rows(ruleset: Ruleset, settings: Settings, table: Table, points: int, total_fan: int,
          capped_fan: int, below_minimum: bool, liability: Liability | None
          ) -> tuple[Payment, ...]:
    """The rows before any word on an assumed discarder (see _settle)."""
    rule = ruleset.payments[settings.payment]
    winner = table.winner
    if below_minimum:
        reason = Msg("not a legal win: {fan} fan is below the minimum {min}, so nobody pays",
                     fan=total_fan, min=settings.min)
        return tuple(Payment(s, "winner" if s == winner else "none", 0, reason)
                     for s in SEATS)
    base = points * settings.stake * rule.unit
    owed: dict[str, Amount] = {}
    why: dict[str, Msg] = {}
    convention = plain(rule.name)
    words = discard_words(ruleset)
    role: dict[str, str] = {}
    for seat in SEATS:
        if seat == winner:
            continue
        if seat in table.won:
            role[seat] = "already-won"
            owed[seat] = 0
            why[seat] = Msg("has already won this round, so no longer pays")
            continue
        if table.by is WinBy.SELF_DRAW:
            amount = base * rule.self_draw_each + rule.self_draw_plus * settings.stake
            role[seat] = "payer"
            why[seat] = _self_draw_reason(rule, settings, base, convention)
        elif seat == table.discarder:
            amount = base * rule.discarder
            role[seat] = "discarder"
            why[seat] = Msg("{discarded} the winning tile: pays {n} × {base} ({convention})",
                            discarded=words["discarded"], n=fmt(rule.discarder), base=fmt(base),
                            convention=convention)
        else:
            amount = base * rule.others
            role[seat] = "payer" if amount else "none"
            why[seat] = (Msg("pays {n} × {base} beside the {discarder} ({convention})",
                             n=fmt(rule.others), base=fmt(base), discarder=words["discarder"],
                             convention=convention)
                         if amount else
                         Msg("did not {discard} the winning tile: pays nothing ({convention})",
                             discard=words["discard"], convention=convention))
        owed[seat] = amount
    if liability is not None:
        whole = sum(owed.values())
        for seat in owed:
            if seat == table.liable:
                owed[seat] = whole
                role[seat] = "liable"
                why[seat] = Msg("liable ({rule}): pays the whole {whole} alone",
                                rule=liability.name, whole=fmt(whole))
            elif seat not in table.won:
                owed[seat] = 0
                why[seat] = Msg("{liable} is liable ({rule}) and pays for everyone",
                                liable=_seat(table.liable), rule=liability.name)
                role[seat] = "none"
    elif table.liable in why and table.by is WinBy.DISCARD:   # pinned, but not on this win
        why[table.liable] = Msg("{reason}; liable only on a self-draw or for their own {discard}:"
                                " here {seat} {discarded} the winning tile and pays as usual",
                                reason=why[table.liable], discard=words["discard"],
                                seat=_seat(table.discarder), discarded=words["discarded"])
    collected = sum(owed.values())
    rows = []
    for seat in SEATS:
        if seat == winner:
            reason = _winner_reason(table, capped_fan, base, words["discard"])
            rows.append(Payment(seat, "winner", _tidy(collected), reason))
        else:
            rows.append(Payment(seat, role[seat], _tidy(-owed[seat]), why[seat]))
    return tuple(rows)


def _tidy(amount: Amount) -> Amount:
    return exact(amount) if isinstance(amount, Fraction) else amount


def _self_draw_reason(rule, settings: Settings, base: Amount, convention) -> Msg:
    if rule.self_draw_plus:
        return Msg("self-draw: each player still in pays {n} × {base} + {plus} ({convention})",
                   n=fmt(rule.self_draw_each), base=fmt(base),
                   plus=fmt(rule.self_draw_plus * settings.stake), convention=convention)
    return Msg("self-draw: each player still in pays {n} × {base} ({convention})",
               n=fmt(rule.self_draw_each), base=fmt(base), convention=convention)


def _winner_reason(table: Table, capped_fan: int, base: Amount, discard) -> Msg:
    if table.by is WinBy.SELF_DRAW:
        return Msg("self-drawn: {fan} fan → {base} per unit; collects from every payer",
                   fan=capped_fan, base=fmt(base))
    return Msg("won on {seat}'s {discard}: {fan} fan → {base} per unit; collects from every"
               " payer", seat=_seat(table.discarder), discard=discard, fan=capped_fan,
               base=fmt(base))
