"""A whole Sichuan blood-battle round: kong money, each win, and the end-of-round settlement.

The round is read from a JSON-shaped mapping (the API) or from a few lines of text (the
ledger page); both become the same `Round`. `settle_round` prices it with a ruleset whose
`settlement:` section gives the kong amounts and the end-of-round rules, and returns a
ledger: one line per payment with a reason, running totals, and totals that sum to zero.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from app.base.errors import FieldError, HandError
from app.base.i18n import N_, Msg, Text
from app.hands.hand import SEATS, Hand, MeldKind, WinBy, WinContext
from app.hands.phrases import seat as seat_name
from app.hands.phrases import tile_said
from app.hands.readings import waits
from app.hands.tiles import Tile
from app.rules.model import Amount, Ruleset, SettlementRules
from app.scoring.budget import charge
from app.scoring.calculation import Ask, Calculation, Seats, agreed_seats, price_ask, pricer
from app.scoring.payments import fmt
from app.scoring.selection import Settings

KONG_KINDS = ("exposed", "concealed", "added")
# a player still in at the wall's end may be entered without tiles: not ready (没下叫), or
# still holding the declared missing suit (花猪, which is never ready either)
WALL_STATUSES = ("not-ready", "pig")
MAX_EVENTS = 40
# The kongs' own names (the ledger's reasons give them in Chinese in every language), and
# the kinds as a refusal names them (the notation's word in English).
KONG_NAMES = {"exposed": Text("直杠", "直槓", "直杠"), "concealed": Text("暗杠", "暗槓", "暗杠"),
              "added": Text("补杠", "補槓", "补杠")}
KONG_KIND_WORDS = {kind: Text(kind, name.zh_hant, name.zh_hans) for kind, name in KONG_NAMES.items()}


@dataclass(frozen=True, slots=True)
class Kong:
    seat: str
    kind: str                # exposed (直杠), concealed (暗杠), added (补杠)
    tile: Tile
    discarder: str | None = None   # exposed: whose discard made it
    drawn: bool = True       # added: the fourth tile was just drawn (SBR pays only then)


@dataclass(frozen=True, slots=True)
class Win:
    seat: str
    by: WinBy
    discarder: str | None
    params: Mapping[str, str]      # the hand description (hand, melds, win, events …)


@dataclass(frozen=True, slots=True)
class Round:
    rules: str
    missing: Mapping[str, str]
    events: tuple[Kong | Win, ...]
    wall_hands: Mapping[str, Mapping[str, str]] | None = None   # the wall ran out: who held what
    options: str = ""


@dataclass(frozen=True, slots=True)
class RoundHands:
    """A round's hands read into values (app/vocabulary/round.py): each refusal is kept, to be
    raised where the settlement comes to it, so a round's errors keep their order."""

    ruleset: Ruleset
    settings: Settings | HandError               # the round's switches (`options`)
    wins: Mapping[int, Ask | HandError]          # by event index: the win asked (`won` added in turn)
    wall: Mapping[str, Hand | HandError] = field(default_factory=dict)   # by seat: tiles shown
    # by event index: the event ids a win names, as written (its moment is checked before
    # its hand is read)
    events: Mapping[int, frozenset[str]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Line:
    """One payment of the ledger."""

    step: int            # index of the event it belongs to (len(events) = the end)
    kind: str            # kong, win, void, transfer, flower-pig, ready-check, refund
    payer: str
    payee: str
    amount: Amount
    reason: str          # a Msg: said in the reader's language


@dataclass(frozen=True, slots=True)
class EndState:
    """A player still in at the wall's end: pig, ready, and the best wait's value."""

    seat: str
    pig: bool
    ready: bool
    best: int = 0                  # points of the best wait (as a discard win)
    best_tile: Tile | None = None
    calculation: Calculation | None = None


@dataclass(frozen=True, slots=True)
class Ledger:
    ruleset: Ruleset
    round: Round
    lines: tuple[Line, ...]
    running: tuple[Mapping[str, Amount], ...]   # totals after each event (and after the end)
    totals: Mapping[str, Amount]
    wins: Mapping[int, Calculation] = field(default_factory=dict)   # by event index
    end: tuple[EndState, ...] = ()
    labels: tuple[str, ...] = ()


def _fail(field_name: str, message: str) -> HandError:
    return HandError([FieldError(field_name, message)])


# --- settling ------------------------------------------------------------------------


def settle_round(round_: Round, hands: RoundHands, prices: dict | None = None) -> Ledger:
    """Price every event of the round in order, then the end, as the ruleset says.

    `prices` keeps the wall's-end price of each hand for the caller (a sheet of many rounds
    prices a hand shown at several walls' ends once). The fifth-copy and kong checks run
    before the wall's end is priced: a round refused for them costs no pricing of its waits.
    """
    ruleset = hands.ruleset
    if ruleset.settlement is None:
        name = Text(ruleset.name.en, ruleset.name.zh_hant, ruleset.name.zh_hans)
        raise _fail("rules", Msg("{name} has no round settlement (try {first} or {second})", name=name,
                                 first="sichuan", second="sichuan-sbr"))
    settings = hands.settings
    if isinstance(settings, HandError):
        raise settings
    rules = ruleset.settlement_with(settings.options)
    stake = settings.stake
    lines: list[Line] = []
    running: list[dict[str, Amount]] = []
    totals: dict[str, Amount] = {s: 0 for s in SEATS}
    won: list[str] = []
    kong_income: list[tuple[int, str, str, Amount]] = []    # (step, payee, payer, amount) still held
    last_kong: dict[str, int] = {}
    wins: dict[int, Calculation] = {}
    labels: list[str] = []
    copies = [0] * 34

    def pay(step: int, kind: str, payer: str, payee: str, amount: Amount, reason: str) -> None:
        if not amount:
            return
        lines.append(Line(step, kind, payer, payee, amount, reason))
        totals[payer] -= amount
        totals[payee] += amount

    for step, event in enumerate(round_.events):
        where = f"events[{step}]"
        if len(won) >= 3:
            raise _fail(where, Msg("the round is over: three players have already won"))
        if event.seat in won:
            raise _fail(where, Msg("{seat} has already won this round and takes no further part",
                                   seat=seat_name(event.seat)))
        if event.discarder is not None and event.discarder in won:
            raise _fail(where, Msg("{seat} has already won, so makes no discard", seat=seat_name(event.discarder)))
        if isinstance(event, Kong):
            labels.append(Msg(_KONG_LABELS[event.kind], seat=seat_name(event.seat), tile=tile_said(event.tile)))
            _count_kong(copies, event, where)
            amount = rules.kong_payments[event.kind] * stake
            name = KONG_NAMES[event.kind]
            if event.kind == "added" and rules.added_kong_needs_drawn_tile and not event.drawn:
                pay(step, "kong", event.seat, event.seat, 0, "")
                labels[-1] = Msg("{label} (tile held since earlier: no payment)", label=labels[-1])
            elif event.kind == "exposed":
                pay(step, "kong", event.discarder, event.seat, amount,
                    Msg("{name}: {discarder} discarded the fourth {tile}", name=name,
                        discarder=seat_name(event.discarder), tile=tile_said(event.tile)))
                kong_income.append((step, event.seat, event.discarder, amount))
            else:
                for payer in SEATS:
                    if payer != event.seat and payer not in won:
                        pay(step, "kong", payer, event.seat, amount,
                            Msg("{name} of {tile}: every player still in pays", name=name, tile=tile_said(event.tile)))
                        kong_income.append((step, event.seat, payer, amount))
            last_kong[event.seat] = step
        else:
            _check_win_moment(round_, step, event, hands.events.get(step, frozenset()), where)
            calc = _price_win(hands.wins[step], won, where)
            wins[step] = calc
            if event.discarder:
                labels.append(Msg("{seat} wins by discard on {discarder}'s discard", seat=seat_name(event.seat),
                                  discarder=seat_name(event.discarder)))
            else:
                labels.append(Msg("{seat} wins by self-draw", seat=seat_name(event.seat)))
            for p in calc.payments:
                if p.amount < 0:
                    pay(step, "win", p.seat, event.seat, -p.amount,
                        Msg("{seat}'s win, {fan} fan: {reason}", seat=seat_name(event.seat),
                            fan=calc.score.capped_fan, reason=p.reason))
            events_here = calc.hand.context.events if calc.hand else frozenset()
            if "kong-cannon" in events_here and event.discarder in last_kong and (
                    rules.kong_transfer_on_cannon or rules.kong_void_on_cannon):
                step_of_kong = last_kong[event.discarder]
                for entry in [k for k in kong_income if k[0] == step_of_kong]:
                    kong_income.remove(entry)
                    _, payee, payer, amount = entry
                    if rules.kong_transfer_on_cannon:
                        pay(step, "transfer", payee, event.seat, amount,
                            Msg("呼叫转移: {seat} won on the discard right after {payee}'s kong, so the"
                                " {amount} {payer} paid for it goes to {seat}", seat=seat_name(event.seat),
                                payee=seat_name(payee), amount=fmt(amount), payer=seat_name(payer)))
                    else:
                        pay(step, "void", payee, payer, amount,
                            Msg("{payee}'s kong is void: {seat} won on the discard right after it",
                                payee=seat_name(payee), seat=seat_name(event.seat)))
            won.append(event.seat)
        running.append(dict(totals))

    end_states: tuple[EndState, ...] = ()
    end_step = len(round_.events)
    still_in = [s for s in SEATS if s not in won]
    if round_.wall_hands is not None:
        if len(won) >= 3:
            raise _fail("end", Msg("three players have won: the wall cannot also run out"))
        missing_hands = [s for s in still_in if s not in round_.wall_hands]
        if missing_hands:
            raise _fail("end.hands", Msg("give the tiles of every player still in: {seats}",
                                         seats=", ".join(missing_hands)))
        extra = [s for s in round_.wall_hands if s in won]
        if extra:
            raise _fail("end.hands", Msg("{seats} already won; only players still in show their tiles",
                                         seats=", ".join(extra)))
    _check_kongs_shown(round_, wins, hands)
    _check_copies_across(round_, wins, hands)
    if round_.wall_hands is not None:
        prices = {} if prices is None else prices
        end_states = tuple(_end_state(seat, round_, hands, settings, prices) for seat in still_in)
        _settle_wall(end_states, rules, stake, pay, end_step)
        refunders = [e.seat for e in end_states
                     if rules.refund == "never-won" or (not e.ready or e.pig)]
    elif len(won) == 3:
        refunders = still_in if rules.refund == "never-won" else []
    else:
        refunders = []
    for seat in refunders:
        for entry in [k for k in kong_income if k[1] == seat]:
            kong_income.remove(entry)
            _, payee, payer, amount = entry
            pay(end_step, "refund", payee, payer, amount,
                Msg("退税: {payee} never won, so returns the kong money {payer} paid",
                    payee=seat_name(payee), payer=seat_name(payer)) if rules.refund == "never-won" else
                Msg("退税: {payee} is not ready at the wall's end, so returns the kong money {payer} paid",
                    payee=seat_name(payee), payer=seat_name(payer)))
    if round_.wall_hands is not None or refunders:
        running.append(dict(totals))
        labels.append(Msg("end of the round"))
    return Ledger(ruleset, round_, tuple(lines), tuple(running), dict(totals), wins, end_states,
                  tuple(labels))


def _before(round_: Round, step: int, event: Win) -> Kong | Win | None:
    """The event this win's tile came right after, passing over other wins on the same discard."""
    for earlier in reversed(round_.events[:step]):
        if (isinstance(earlier, Win) and earlier.by is WinBy.DISCARD
                and earlier.discarder == event.discarder):
            continue    # 一炮多响: several players win on one discard (ruling 15)
        return earlier
    return None


def _check_win_moment(round_: Round, step: int, event: Win, events: frozenset[str],
                      where: str) -> None:
    """A 杠上炮 follows the discarder's kong; a robbed kong was never made (seed 000)."""
    before = _before(round_, step, event)
    if "kong-cannon" in events:
        if not (isinstance(before, Kong) and before.seat == event.discarder):
            what = (Msg("another player's kong") if isinstance(before, Kong) else
                    Msg("a win") if isinstance(before, Win) else Msg("nothing"))
            raise _fail(f"{where}.events", Msg("杠上炮 ({event}) is a win on the discard made right after the"
                                               " discarder's kong, but {seat}'s discard here follows {what};"
                                               " enter {seat}'s kong just before this win",
                                               event="kong-cannon", seat=seat_name(event.discarder), what=what))
    if "robbing-the-kong" in events and isinstance(before, Kong) and (
            before.seat == event.discarder):
        raise _fail(f"events[{step - 1}]", Msg("{seat}'s {kind} kong of {tile} was robbed ({where}), so it never"
                                               " happened and no kong money changes hands (抢杠胡):"
                                               " remove that kong line", seat=seat_name(before.seat),
                                               kind=KONG_KIND_WORDS[before.kind], tile=tile_said(before.tile),
                                               where=where))


def _count_kong(copies: list[int], kong: Kong, where: str) -> None:
    copies[kong.tile] += 4
    if copies[kong.tile] > 4:
        raise _fail(where, Msg("a kong of {tile}: all four copies are already in use", tile=tile_said(kong.tile)))


def _price_win(asked: Ask | HandError, won: list[str], where: str) -> Calculation:
    """The win as asked with the players who won before it: one scoring, its refusal named
    by the event's fields."""
    charge(1, None if isinstance(asked, HandError) else asked.ruleset)
    try:
        if isinstance(asked, HandError):
            raise asked
        return price_ask(replace(asked, seats=replace(asked.seats, won=tuple(won))))
    except HandError as err:
        raise HandError([FieldError(f"{where}.{e.field}", e.message) for e in err.errors]) from None


def _end_state(seat: str, round_: Round, hands: RoundHands, settings: Settings,
               prices: dict) -> EndState:
    """Pig or not, ready or not, and the best wait's value as a discard win (ruling 20)."""
    given = dict(round_.wall_hands[seat])
    missing = round_.missing.get(seat)
    key = (hands.ruleset.id, seat, tuple(sorted(given.items())), missing, round_.options)
    if key not in prices:
        prices[key] = _price_end(seat, given, missing, hands, settings)
    return prices[key]


def _price_end(seat: str, given: dict, missing: str | None, hands: RoundHands,
               settings: Settings) -> EndState:
    if given.get("status") in WALL_STATUSES:   # entered without tiles
        return EndState(seat, given["status"] == "pig", False)
    ruleset = hands.ruleset
    hand = _wall_hand(hands, seat)
    tiles = hand.concealed + tuple(t for m in hand.melds for t in m.tiles)
    pig = bool(missing) and any(t.suit == missing for t in tiles)
    if pig:
        return EndState(seat, True, False)
    best: tuple[int, Tile, Calculation] | None = None
    # each wait priced as a win on a discard from the next seat: one scoring a wait
    context = WinContext(by=WinBy.DISCARD, seat=seat, missing=missing or None)
    _, winner, assumed = agreed_seats(seat, None)
    priced = pricer(Ask(ruleset, settings, hand=Hand((), context=context),
                        seats=Seats(seat, winner, SEATS[(SEATS.index(seat) + 1) % 4]),
                        by_given=True, assumed=assumed))
    for wait in waits(hand, ruleset.shape_rules(settings.options)):
        if missing and wait.tile.suit == missing:
            continue   # a tile of the missing suit never counts (ruling 20)
        try:
            calc = priced(Hand(tuple(sorted(hand.concealed + (wait.tile,))), hand.melds,
                               wait.tile, context))
        except HandError:
            continue
        if best is None or calc.score.points > best[0]:
            best = (calc.score.points, wait.tile, calc)
    if best is None:
        return EndState(seat, False, False)
    return EndState(seat, False, True, best[0], best[1], best[2])


def _settle_wall(states, rules: SettlementRules, stake, pay, step: int) -> None:
    """查花猪 then 查叫, among the players still in."""
    pigs = [e for e in states if e.pig]
    clean = [e for e in states if not e.pig]
    if rules.flower_pig:
        for pig in pigs:
            for other in clean:
                pay(step, "flower-pig", pig.seat, other.seat, rules.flower_pig * stake,
                    Msg("查花猪: {seat} still holds its missing suit and pays every player who cleared it",
                        seat=seat_name(pig.seat)))
    ready = [e for e in states if e.ready]
    payers = [e for e in states if not e.ready and (rules.pig_pays_ready_check or not e.pig)]
    for payer in payers:
        for r in ready:
            pay(step, "ready-check", payer.seat, r.seat, r.best * stake,
                Msg("查叫: {payer} is not ready and pays {payee}'s best wait ({tile}, {points} points)",
                    payer=seat_name(payer.seat), payee=seat_name(r.seat), tile=tile_said(r.best_tile), points=r.best))


_KONG_LABELS = {"exposed": N_("{seat} exposed kong of {tile}"), "concealed": N_("{seat} concealed kong of {tile}"),
                "added": N_("{seat} added kong of {tile}")}
_KONG_WORDS = {"exposed": Msg("an exposed kong (直杠)"), "concealed": Msg("a concealed kong (暗杠)"),
               "added": Msg("an added kong (补杠)")}
_KONG_MELD = {"exposed": MeldKind.KONG, "concealed": MeldKind.CKONG, "added": MeldKind.AKONG}


def _wall_hand(hands: RoundHands, seat: str) -> Hand:
    """The tiles a player still in showed at the wall's end, or their refusal, named."""
    hand = hands.wall[seat]
    if isinstance(hand, HandError):
        raise HandError([FieldError(f"end.hands.{seat}.{e.field}", e.message) for e in hand.errors])
    return hand


def _shown_hands(round_: Round, wins: Mapping[int, Calculation],
                 hands: RoundHands) -> dict[str, tuple[str, Hand]]:
    """Each player's tiles as last shown: at their win, or at the wall's end."""
    shown: dict[str, tuple[str, Hand]] = {}
    for step, calc in wins.items():
        shown[round_.events[step].seat] = (f"events[{step}]", calc.hand)
    for seat, given in (round_.wall_hands or {}).items():
        if given.get("status") not in WALL_STATUSES:   # a shortcut shows no tiles
            shown[seat] = (f"end.hands.{seat}", _wall_hand(hands, seat))
    return shown


def _check_kongs_shown(round_: Round, wins: Mapping[int, Calculation], hands: RoundHands) -> None:
    """A kong declared in the round is among its declarer's melds when their tiles are shown,
    and a kong among a winner's melds was declared in the round before the win."""
    shown = _shown_hands(round_, wins, hands)
    for step, event in enumerate(round_.events):
        if isinstance(event, Kong) and event.seat in shown:
            where, hand = shown[event.seat]
            kind = _KONG_MELD[event.kind]
            if not any(m.kind is kind and m.first == event.tile for m in hand.melds):
                prefix = {"exposed": "kong:", "concealed": "ckong:", "added": "akong:"}[event.kind]
                token = f"{prefix}{event.tile.code[0] * 4}{event.tile.suit}"
                raise _fail(f"{where}.melds", Msg("{seat} declared a {kind} kong of {tile} ({event}): list it"
                                                  " in the melds as {meld}", seat=seat_name(event.seat),
                                                  kind=KONG_KIND_WORDS[event.kind], tile=tile_said(event.tile),
                                                  event=f"events[{step}]",
                                                  meld=token))
    kind_word = {v: k for k, v in _KONG_MELD.items()}
    for step, calc in wins.items():
        seat = round_.events[step].seat
        declared = {(_KONG_MELD[e.kind], e.tile) for e in round_.events[:step]
                    if isinstance(e, Kong) and e.seat == seat}
        for meld in calc.hand.melds if calc.hand else ():
            if meld.is_kong and (meld.kind, meld.first) not in declared:
                word = kind_word[meld.kind]
                source = " from SEAT" if word == "exposed" else ""
                line = f"kong {seat} {word} {meld.first.code}{source}"
                raise _fail(f"events[{step}].melds", Msg("{seat} shows {meld}, {kong} the round never declared:"
                                                         " enter '{line}' before the win, where its kong money"
                                                         " is paid", seat=seat_name(seat), meld=meld.token,
                                                         kong=_KONG_WORDS[word],
                                                         line=line))


def _check_copies_across(round_: Round, wins: Mapping[int, Calculation], hands: RoundHands) -> None:
    """A fifth copy of a tile anywhere in the round (hands, melds and kongs together) is refused."""
    counts = [0] * 34
    shown = _shown_hands(round_, wins, hands)
    for where, hand in shown.values():
        for t in hand.concealed + tuple(t for m in hand.melds for t in m.tiles):
            counts[t] += 1
            if counts[t] > 4:
                raise _fail(where, Msg("a fifth {tile} in the round: only four exist", tile=tile_said(t)))
    for step, event in enumerate(round_.events):
        if isinstance(event, Kong) and event.seat not in shown:
            counts[event.tile] += 4   # an unshown declarer still holds all four
            if counts[event.tile] > 4:
                raise _fail(f"events[{step}]", Msg("a kong of {tile}: some of its four copies are in other"
                                                   " players' hands", tile=tile_said(event.tile)))
