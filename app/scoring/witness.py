"""Tick sets read into the facts of a hand, by finding hands that hold them (rulings 86-89).

A tick set is the facts of one hand. Which hand is not said, so the facts are read by search:
hands are drawn towards what each ticked pattern needs of the tiles (its detector) and of the
table (its events, its way of winning, its bonus tiles), in the request's context (the way of
winning, the seat, the round and the bonus tiles when given; the rest drawn freely), and each is
priced as tile mode prices it (the ruleset's own detectors, the one selection, the request's
dials). A hand whose priced reading (the one tile mode chooses) holds every ticked pattern, the
per-item ones at least as many times as ticked, is a witness. Then (ruling 87, as the lead
reads it: "the price of a tick set is the price of the tiles those facts force"):

- the price of the ticks is the LEAST tile price among the witnesses, and their facts are what
  that cheapest witness's priced reading holds: a self-draw the way of winning implies
  (ruling 86), a bigger pattern every witness forms (四暗刻, 大三元, 龙七对: ruling 87's cases),
  or a pattern the cheapest hand holding the ticks cannot do without (these are named);
- a tick set with no witness is one no hand holds in this context (ruling 88);

so the tick price is the tile price of a hand (the cheapest witness, the one "Edit as tiles"
opens) by construction.

How the least is found, and what is bounded. The selection is monotone: a found key holding
more patterns (or more of a per-item one) is never priced lower, since every set of patterns
allowed before stays allowed (fan values are not negative). So no holding hand costs less than
the ticks themselves with what the context alone forces (the self-draw of a self-drawn win,
the given bonus tiles' patterns): the floor. The search

1. draws hands towards the ticks (seeded by what is asked; every other one plain, holding little
   beside them: see draw), up to DRAWS of them or WITNESSES witnesses, and stops as soon as a witness is priced at the floor: that witness is then the
   least, provably;
2. otherwise, from the cheapest witness drawn, descends: every hand one step away (one set or
   the pair replaced by any other, a set declared, concealed or made a kong, another winning
   tile, another round, no flower or one, no season or one, where those were not given) is
   priced, and the search goes on from the holding ones priced no higher than the best so far
   (cheapest first, each hand once), until the floor is reached, DESCENT hands are priced,
   or STALL hands in a row have not lowered the price.

A price above the floor is therefore the least among the hands drawn and their neighbourhood,
not proved the least of all hands: tests/scoring/test_ticks_oracle.py compares it with an
exhaustive enumeration of every hand of small tile universes (it must never be dearer than the
cheapest enumerated hand holding the ticks), and tests/scoring/test_ticks_proof.py counts, per
family, how many priced sets reached the floor. The answer is remembered per ruleset, house
rules, cap, ticks and context.
"""
from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field, replace
from functools import lru_cache

from app.base.errors import HandError
from app.hands.events import EVENT_RULES, event_errors
from app.hands.hand import SEATS, Hand, Meld, MeldKind, WinBy, WinContext
from app.hands.readings import GroupKind, Reading, Shape, readings
from app.hands.tiles import TILES
from app.rules.conditions import family_errors
from app.rules.detectors import DETECTORS
from app.rules.model import Pattern, Ruleset

from .selection import (
    COUNT_BITS,
    MOST_COUNT,
    Pricing,
    Settings,
    check_tiles,
    default_settings,
    present_in,
    pricing,
    refuse_other_ways,
    tick_key,
)

DRAWS = 600        # hands drawn at most for one tick set
WITNESSES = 48     # witnesses drawn before the descent takes over
DESCENT = 3000     # hands priced at most while descending from the cheapest witness drawn
STALL = 250        # hands priced in a row without a lower price that end the descent
KEPT = 8           # witnesses remembered beside the cheapest (the rest only read)

HONOURS = list(range(27, 34))
WINDS, DRAGONS = list(range(27, 31)), list(range(31, 34))
TERMINALS = [s * 9 + n for s in range(3) for n in (0, 8)]
ORPHANS = TERMINALS + HONOURS
SIMPLES = [t for t in range(27) if t % 9 not in (0, 8)]
NEAR_TERMINALS = [t for t in range(27) if t % 9 in (0, 1, 2, 6, 7, 8)]
WIND_OF = dict(zip(SEATS, WINDS, strict=True))
SUIT_DRAGON = {"jade_dragon": (32, 2), "ruby_dragon": (33, 0), "pearl_dragon": (31, 1)}
PONG_SHAPES = ("all_pongs", "golden_hook", "all_pongs_single_wait", "four_concealed_pongs",
               "four_concealed_pongs_no_kongs", "terminals_and_honours", "four_kongs")


@dataclass(frozen=True, slots=True)
class TickContext:
    """What a tick request says of the win besides the ticks: None where it says nothing."""

    by: WinBy
    seat: str = "E"
    round: str | None = None
    flowers: tuple[int, ...] | None = None
    seasons: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class TickFacts:
    """What a tick set stands for: the facts of the cheapest witness's priced reading (counts by
    pattern id, the ticks among them), the patterns every witness found holds, the witnesses
    (the cheapest first), how many hands were drawn and priced, and whether the price met the
    floor (so is provably the least)."""

    facts: dict[str, int]
    common: frozenset[str]
    witnesses: tuple[Hand, ...]
    draws: int
    least: bool = False

    @property
    def held(self) -> bool:
        return bool(self.witnesses)


def shown(pattern: Pattern) -> bool:
    """Whether tiles can show the pattern (a detector, an event, or a package of them)."""
    return bool(pattern.detect or pattern.events or pattern.requires)


def tick_facts(ruleset: Ruleset, settings: Settings, ticks: tuple[tuple[str, int], ...],
               context: TickContext) -> TickFacts:
    """Read a tick set (pattern id, count) in a context into the facts of a hand (see above),
    remembered per ruleset, ticks, context and the dials that choose the cheapest hand: the
    house rules and the cap (a limit hand is worth the cap); the minimum, the curve, the
    payments and the stake follow the fan total, so they do not."""
    settings = replace(default_settings(ruleset), cap=settings.cap, options=settings.options)
    return _tick_facts(ruleset, settings, ticks, context)


class _Search:
    """One tick set's search: what a hand must hold, how it is priced, the best found so far."""

    def __init__(self, ruleset: Ruleset, settings: Settings, ticks: tuple[tuple[str, int], ...],
                 context: TickContext) -> None:
        self.ruleset, self.settings, self.context = ruleset, settings, context
        self.wanted = {pid: n for pid, n in ticks if shown(ruleset.by_id[pid])}
        options = settings.options | {pid for pid in self.wanted if ruleset.by_id[pid].optional}
        self.rules = ruleset.shape_rules(frozenset(options))
        self.bonus = ruleset.flowers_in_play(options)
        self.shift = {pid: COUNT_BITS * ruleset.by_id[pid].position for pid in self.wanted}
        # priced under the dials asked: a ticked house rule left off is searched for, and
        # listed as off, as tiles list it
        self.floor = self.cost(self._pricing(context.by, frozenset()),
                               tick_key({**self.wanted, **forced(ruleset, context)}, ruleset))
        self.best: tuple | None = None        # (cost, hand, key of its priced reading)
        self.witnesses: list[Hand] = []     # the first KEPT found
        self.found = 0
        self.common: int | None = None
        self.priced = 0

    def _pricing(self, by: WinBy, events: frozenset[str]) -> Pricing:
        return pricing(self.ruleset, self.settings, events, by)

    @staticmethod
    def cost(how: Pricing, key: int) -> tuple[int, int]:
        """What a found key is priced at: its fan total (the points and every payment follow
        it), then how many patterns it holds (the plainer hand first among equals)."""
        choice = how.choices[key]
        return choice[2], sum(1 for item in choice[1])

    def consider(self, hand: Hand) -> tuple[int, int] | None:
        """Price one hand: a witness is kept (and the cheapest remembered) and its cost
        returned; None when the hand is not a witness."""
        self.priced += 1
        found = self._priced(hand)
        if found is None:
            return None
        cost, key, held = found
        self.found += 1
        if len(self.witnesses) < KEPT:
            self.witnesses.append(hand)
        self.common = held if self.common is None else _meet(self.common, held)
        if self.best is None or cost < self.best[0]:
            self.best = (cost, hand, key)
        return cost

    @property
    def at_floor(self) -> bool:
        return self.best is not None and self.best[0][0] <= self.floor[0]

    def _priced(self, hand: Hand) -> tuple[tuple[int, int], int, int] | None:
        """The hand's cost, the found key of its priced reading and what every reading holding
        the ticks holds; None when the rules refuse the hand or its priced reading does not
        hold the ticks."""
        ruleset = self.ruleset
        try:
            check_tiles(hand, ruleset, self.settings)
            if event_errors(hand.context, hand.melds, hand.concealed, hand.win) or (
                    hand.context.events and family_errors(ruleset, hand)):
                return None
        except HandError:
            return None
        how = self._pricing(hand.context.by, hand.context.events)
        detected, packages = how.plan
        best = None
        every = 0
        for reading in readings(hand, self.rules):
            key = detected(reading, hand.context)
            for shift, needs in packages:
                if all(key >> need & MOST_COUNT for need in needs):
                    key |= 1 << shift
            every |= key
            choice = how.choices[key]
            if best is None or choice[0] > best[0]:   # as tile mode chooses (selection.price)
                best = (choice[0], key)
        if best is None:
            return None
        key = best[1]
        if any(key >> self.shift[pid] & MOST_COUNT < n for pid, n in self.wanted.items()):
            return None
        try:   # an instant win held some other way refuses the hand (大花糊 on a discard, ruling 79)
            refuse_other_ways(every, ruleset, self.settings, hand.context.by)
        except HandError:
            return None
        return self.cost(how, key), key, key


def forced(ruleset: Ruleset, context: TickContext) -> dict[str, int]:
    """The patterns the context alone holds in every hand: the self-draw of a self-drawn win,
    and the bonus-tile patterns of flowers and seasons given (the floor of a tick price)."""
    needs = {"self_draw": (), "own_flower": ("flowers",), "all_flowers": ("flowers",),
             "own_season": ("seasons",), "all_seasons": ("seasons",),
             "no_bonus_tiles": ("flowers", "seasons"), "all_bonus_tiles": ("flowers", "seasons")}
    ctx = WinContext(context.by, context.seat, context.round or "E", context.flowers or (),
                     context.seasons or ())
    out = {}
    for p in ruleset.patterns:
        given = needs.get(p.detect or "")
        if p.events or given is None or any(getattr(context, n) is None for n in given):
            continue
        n = DETECTORS[p.detect](None, ctx)   # these read the context only
        if n:
            out[p.id] = n
    return out


@lru_cache(maxsize=4096)
def _tick_facts(ruleset: Ruleset, settings: Settings, ticks: tuple[tuple[str, int], ...],
                context: TickContext) -> TickFacts:
    search = _Search(ruleset, settings, ticks, context)
    patterns = [ruleset.by_id[pid] for pid in search.wanted
                for _ in range(max(1, search.wanted[pid]))]
    rng = random.Random(f"{ruleset.id}|{sorted(ticks)}|{context}")
    draws = 0
    while draws < DRAWS and not search.at_floor and search.found < WITNESSES:
        draws += 1
        hand = draw(rng, ruleset, patterns, context, search.bonus)
        if hand is not None:
            search.consider(hand)
    if search.best is not None and not search.at_floor:
        descend(search)
    if search.best is None:
        return TickFacts(dict(ticks), frozenset(), (), draws)
    _, cheapest, key = search.best
    facts = dict(ticks)
    for pid, n in present_in(key, ruleset).items():
        facts[pid] = max(n, facts.get(pid, 0))
    others = tuple(h for h in search.witnesses if h is not cheapest)
    common = frozenset(present_in(search.common or 0, ruleset))
    return TickFacts(facts, common, (cheapest, *others), draws, search.at_floor)


def _meet(a: int, b: int) -> int:
    """The patterns two found keys both hold, each the fewer times."""
    out, shift = 0, 0
    while a and b:
        n = min(a & MOST_COUNT, b & MOST_COUNT)
        out |= n << shift
        a, b, shift = a >> COUNT_BITS, b >> COUNT_BITS, shift + COUNT_BITS
    return out


# --- descending from the cheapest witness ------------------------------------------------

SIZE = {GroupKind.PONG: 3, GroupKind.KONG: 4, GroupKind.CHOW: 3, GroupKind.PAIR: 2}
# how a replaced set keeps its place: concealed stays concealed, declared stays declared
EXPOSED = (MeldKind.PONG, MeldKind.CHOW, MeldKind.KONG, MeldKind.AKONG)
Part = tuple[GroupKind, int, MeldKind | None]


def descend(search: _Search) -> None:
    """From the cheapest witness, price every hand one step away, and go on from the cheapest
    holding hands priced no higher than the best so far (a step that keeps the price is taken
    too: lowering it may need two steps, such as a pair changed and then a set), each hand
    once, cheapest first, until the floor is reached, no hand is left to step from, or DESCENT
    hands have been priced (see the module's docstring)."""
    budget = search.priced + DESCENT
    cost, start, _ = search.best
    lowered = search.priced   # when the price last fell
    frontier = [(cost, 0, start)]
    seen = {start}
    order = 1
    while frontier and not search.at_floor and search.priced < budget:
        cost, _, hand = heapq.heappop(frontier)
        if cost > search.best[0]:
            continue
        reading = _priced_reading(search, hand)
        if reading is None or reading.shape is Shape.THIRTEEN_ORPHANS:
            continue
        parts = tuple((g.kind, g.index, g.meld) for g in reading.groups)
        for near in neighbours(search, parts, hand.win.index, hand.context):
            if near in seen:
                continue
            seen.add(near)
            best = search.best[0]
            found = search.consider(near)
            if found is not None and found < best:
                lowered = search.priced
            if found is not None and found <= search.best[0]:
                heapq.heappush(frontier, (found, order, near))
                order += 1
            if search.at_floor or search.priced >= min(budget, lowered + STALL):
                return


def _priced_reading(search: _Search, hand: Hand) -> Reading | None:
    how = search._pricing(hand.context.by, hand.context.events)
    detected, packages = how.plan
    best = None
    for reading in readings(hand, search.rules):
        key = detected(reading, hand.context)
        for shift, needs in packages:
            if all(key >> need & MOST_COUNT for need in needs):
                key |= 1 << shift
        choice = how.choices[key]
        if best is None or choice[0] > best[0]:
            best = (choice[0], reading)
    return None if best is None else best[1]


def neighbours(search: _Search, parts: tuple[Part, ...], win: int, ctx: WinContext):
    """Every hand one step from these parts (sets and pair, each with how it was declared)."""
    ruleset, context = search.ruleset, search.context
    kinds = 34 if ruleset.honours else 27
    sets = [(GroupKind.PONG, t) for t in range(kinds)] + [
        (GroupKind.CHOW, t) for t in range(27) if t % 9 <= 6]
    for i, (kind, t, meld) in enumerate(parts):
        if kind is GroupKind.PAIR:
            options = [(GroupKind.PAIR, u, None) for u in range(kinds) if u != t]
        else:
            options = [_placed(k, u, meld, ruleset.claimed_chows) for k, u in sets
                       if (k, u) != (GroupKind.PONG if kind is GroupKind.KONG else kind, t)]
            options += _declared(kind, t, meld, ruleset.claimed_chows)
        for part in options:
            if part is None:
                continue
            changed = parts[:i] + (part,) + parts[i + 1:]
            hand = build(changed, win, ctx, _tiles(part))
            if hand is not None:
                yield hand
    held = {u for kind, t, meld in parts if meld is None for u in _tiles((kind, t, meld))}
    for u in sorted(held - {win}):
        hand = build(parts, u, ctx)
        if hand is not None:
            yield hand
    variants = []
    if context.round is None:
        variants += [WinContext(ctx.by, ctx.seat, r, ctx.flowers, ctx.seasons, ctx.events)
                     for r in SEATS if r != ctx.round]
    others = [(), (1,), (2,), (3,), (4,)]   # no bonus tile, or one
    if search.bonus and context.flowers is None:
        variants += [WinContext(ctx.by, ctx.seat, ctx.round, f, ctx.seasons, ctx.events)
                     for f in others if f != ctx.flowers]
    if search.bonus and context.seasons is None:
        variants += [WinContext(ctx.by, ctx.seat, ctx.round, ctx.flowers, f, ctx.events)
                     for f in others if f != ctx.seasons]
    for other in variants:
        hand = build(parts, win, other)
        if hand is not None:
            yield hand


def _placed(kind: GroupKind, t: int, meld: MeldKind | None, chows: bool) -> Part | None:
    """A set of this kind in the place of one declared as `meld`."""
    if meld is None:
        return kind, t, None
    if kind is GroupKind.CHOW:
        return (kind, t, MeldKind.CHOW) if meld in EXPOSED and chows else None
    if meld.is_kong:
        return GroupKind.KONG, t, meld
    return kind, t, MeldKind.PONG


def _declared(kind: GroupKind, t: int, meld: MeldKind | None, chows: bool) -> list[Part]:
    """The same tiles declared otherwise: concealed, declared, or (a pong) a kong."""
    if kind is GroupKind.CHOW:
        return [(kind, t, MeldKind.CHOW if meld is None else None)] if chows else []
    ways = [(GroupKind.PONG, t, None), (GroupKind.PONG, t, MeldKind.PONG)] + [
        (GroupKind.KONG, t, k) for k in (MeldKind.KONG, MeldKind.CKONG, MeldKind.AKONG)]
    return [w for w in ways if w != (kind, t, meld)]


def _tiles(part: Part) -> list[int]:
    kind, t, _ = part
    return [t, t + 1, t + 2] if kind is GroupKind.CHOW else [t] * SIZE[kind]


def build(parts: tuple[Part, ...], win: int, ctx: WinContext, instead: list[int] = ()
          ) -> Hand | None:
    """The hand of these parts, won on `win` (when no longer held: on a tile of `instead`, the
    part that changed, else on any concealed tile), or None when a kind is held five times."""
    counts = [0] * 34
    concealed: list[int] = []
    melds: list[Meld] = []
    for part in parts:
        tiles = _tiles(part)
        for u in tiles:
            counts[u] += 1
        if part[2] is None:
            concealed += tiles
        else:
            melds.append(Meld(part[2], tuple(TILES[u] for u in tiles)))
    if max(counts) > 4 or not concealed:
        return None
    if win not in concealed:
        win = next((u for u in instead if u in concealed), concealed[0])
    return Hand(tuple(TILES[u] for u in sorted(concealed)), tuple(melds), TILES[win], ctx)


# --- drawing a hand towards patterns --------------------------------------------------------


@dataclass
class Needs:
    """What the patterns ask of a drawn hand (None: anything)."""

    shape: str | None = None
    pools: list[list[int]] = field(default_factory=list)   # every tile kind from each of these
    sets: str | None = None               # "chows" or "pongs"
    pongs: list[int] = field(default_factory=list)
    pair: int | None = None
    seat_pong: bool = False
    round_pong: bool = False
    kongs: int = 0
    roots: int = 0                        # four alike (根), as many as ticked
    all_kongs: bool = False
    quad: bool = False
    concealed: bool = False
    no_kongs: bool = False
    declared: int | None = None
    win_on_pair: bool = False
    win_single: bool = False
    self_draw: bool = False
    outside: bool = False                 # a terminal or honour in every set and the pair
    first_go_around: bool = False
    bonus: bool = False
    flowers: str | None = None
    seasons: str | None = None
    own_flower: bool = False
    own_season: bool = False
    plain: bool = False                   # drawn to hold little else (see draw)


def _suit_pool(rng: random.Random) -> list[int]:
    s = rng.randrange(3)
    return list(range(9 * s, 9 * s + 9))


def _add(needs: Needs, pattern: Pattern, ruleset: Ruleset, rng: random.Random,
         events: dict[str, str]) -> None:
    """What one pattern needs, added to the needs (a package: what its parts need); `events`:
    the event drawn for each ticked pattern resting on events."""
    for part in pattern.requires:
        _add(needs, ruleset.by_id[part], ruleset, rng, events)
    d = pattern.detect or ""
    if pattern.id in events:
        event = events[pattern.id]
        rule = EVENT_RULES[event]
        needs.kongs = max(needs.kongs, rule.kongs)
        needs.first_go_around |= rule.first_go_around
        needs.bonus |= rule.bonus_tiles
        needs.win_single |= event == "robbing-the-kong"
    if d == "standard_shape" or d == "terminals_everywhere":
        needs.shape = "standard"
    needs.outside |= d == "terminals_everywhere"
    if d == "all_chows":
        needs.shape, needs.sets = "standard", "chows"
    if d in PONG_SHAPES or d in SUIT_DRAGON:
        needs.shape, needs.sets = "standard", "pongs"
    if d == "golden_hook":
        needs.declared, needs.win_on_pair = 4, True
    if d == "all_pongs_single_wait":
        needs.win_on_pair = True
    if d in ("four_concealed_pongs", "four_concealed_pongs_no_kongs"):
        needs.concealed = True
        if not needs.self_draw:
            needs.win_on_pair = True
    if d in ("four_concealed_pongs_no_kongs", "concealed_hand_no_kongs"):
        needs.no_kongs = True
    if d in ("concealed_hand", "concealed_hand_no_kongs"):
        needs.concealed = True
    if d == "four_kongs":
        needs.all_kongs = True
    if d in ("seven_pairs", "seven_pairs_with_quad"):
        needs.shape = "seven-pairs"
        needs.quad = needs.quad or d == "seven_pairs_with_quad"
    if d == "thirteen_orphans":
        needs.shape = "thirteen-orphans"
    if d in ("pure_nine_gates", "nine_gates_true_wait_on_discard"):
        needs.shape = "nine-gates"
    pools = {"full_flush": _suit_pool(rng), "all_honours": HONOURS, "all_terminals": TERMINALS,
             "terminals_and_honours": ORPHANS, "all_simples": SIMPLES,
             "terminals_everywhere": NEAR_TERMINALS}
    if d in pools:
        needs.pools.append(pools[d])
    if d == "half_flush":
        needs.pools.append(_suit_pool(rng) + HONOURS)
    if d == "dragon_pongs":
        free = [t for t in DRAGONS if t not in needs.pongs]
        if free:
            needs.pongs.append(rng.choice(free))
    if d in ("small_three_dragons", "great_three_dragons"):
        dragons = rng.sample(DRAGONS, 3)
        needs.pongs += dragons[:2] if d == "small_three_dragons" else dragons
        if d == "small_three_dragons":
            needs.pair = dragons[2]
    if d in ("small_four_winds", "great_four_winds"):
        winds = rng.sample(WINDS, 4)
        needs.pongs += winds[:3] if d == "small_four_winds" else winds
        if d == "small_four_winds":
            needs.pair = winds[3]
    needs.seat_pong |= d == "seat_wind_pong"
    needs.round_pong |= d == "round_wind_pong"
    if d in SUIT_DRAGON:
        dragon, suit = SUIT_DRAGON[d]
        needs.pongs.append(dragon)
        needs.pools.append(list(range(9 * suit, 9 * suit + 9)) + [dragon])
    needs.roots += d == "roots"
    needs.own_flower |= d == "own_flower"
    needs.own_season |= d == "own_season"
    if d == "no_bonus_tiles":
        needs.flowers, needs.seasons = "", ""
    if d in ("all_flowers", "all_bonus_tiles"):
        needs.flowers = "1234"
    if d in ("all_seasons", "all_bonus_tiles"):
        needs.seasons = "1234"


def _pool(needs: Needs, rng: random.Random, honours: bool) -> list[int]:
    pool = list(range(34 if honours else 27))
    for p in needs.pools:
        pool = [t for t in pool if t in p]
    if not pool:   # kinds no one pool holds: let the fixed sets decide
        pool = sorted({t for p in needs.pools for t in p})
    if not needs.plain and rng.random() < 0.5 and len(pool) > 9:   # so flushes happen
        suit = rng.randrange(3)
        pool = [t for t in pool if t >= 27 or t // 9 == suit] or pool
    return pool


def _standard(needs: Needs, rng: random.Random, pool: list[int], seat: str, round_: str
              ) -> tuple[list[int], list[Meld], int] | None:
    counts = [0] * 34
    sets: list[tuple[str, int]] = []
    fixed = list(dict.fromkeys(needs.pongs + ([WIND_OF[seat]] if needs.seat_pong else [])
                               + ([WIND_OF[round_]] if needs.round_pong else [])))
    if len(fixed) > 4 or needs.pair in fixed:
        return None
    for t in fixed:
        sets.append(("pong", t))
        counts[t] += 3
    if needs.pair is not None:
        counts[needs.pair] += 2
    kinds = set(pool)
    runs = [t for t in pool if t < 27 and t % 9 <= 6 and t + 1 in kinds and t + 2 in kinds
            and (not needs.outside or t % 9 in (0, 6))] if needs.sets != "pongs" else []
    if needs.outside:
        pool = [t for t in pool if t in ORPHANS]
    while len(sets) < 4:
        options = []
        if needs.sets != "chows":
            options += [("pong", t) for t in pool if counts[t] == 0]
        options += [("chow", t) for t in runs
                    if counts[t] <= 3 and counts[t + 1] <= 3 and counts[t + 2] <= 3]
        if not options:
            return None
        if needs.plain:   # no dragon or seat or round wind set unless nothing else is left
            loud = DRAGONS + [WIND_OF[seat], WIND_OF[round_]]
            options = [o for o in options if o[1] not in loud or o[0] == "chow"] or options
        kind, t = rng.choice(options)
        for k in [t] * 3 if kind == "pong" else [t, t + 1, t + 2]:
            counts[k] += 1
        sets.append((kind, t))
    if needs.sets == "chows" and any(kind == "pong" for kind, _ in sets):
        return None
    pair = needs.pair
    if pair is None:
        pairs = [t for t in pool if counts[t] <= 2]
        if not pairs:
            return None
        pair = rng.choice(pairs)
        counts[pair] += 2
    rng.shuffle(sets)
    declared = needs.declared if needs.declared is not None else (
        0 if needs.concealed or needs.first_go_around else
        1 if needs.plain else rng.choice([0, 0, 1, 2, 3, 4]))
    want_kongs = 4 if needs.all_kongs else max(needs.kongs, 0 if needs.plain else rng.choice(
        [0, 0, 0, 1, 2]))
    if needs.no_kongs or needs.first_go_around:
        want_kongs = 0
    concealed, melds, kongs = [pair, pair], [], 0
    for n, (kind, t) in enumerate(sets):
        if kind == "pong" and kongs < want_kongs and counts[t] == 3:
            counts[t] += 1
            kongs += 1
            how = MeldKind.CKONG if needs.concealed or n >= declared else rng.choice(
                [MeldKind.KONG, MeldKind.CKONG, MeldKind.AKONG])
            melds.append(Meld(how, (TILES[t],) * 4))
            continue
        tiles = [t] * 3 if kind == "pong" else [t, t + 1, t + 2]
        if n < declared:
            melds.append(Meld(MeldKind.PONG if kind == "pong" else MeldKind.CHOW,
                              tuple(TILES[k] for k in tiles)))
        else:
            concealed += tiles
    if kongs < max(needs.kongs, 4 if needs.all_kongs else 0):
        return None
    return concealed, melds, pair


def _seven_pairs(needs: Needs, rng: random.Random, pool: list[int]) -> list[int] | None:
    kinds = list(dict.fromkeys(pool))
    rng.shuffle(kinds)
    tiles: list[int] = []
    quads = max(needs.kongs, int(needs.quad)) or int(rng.random() < 0.2)
    for t in kinds:
        if len(tiles) == 14:
            break
        four = quads > 0 and len(tiles) <= 10
        tiles += [t, t] * (2 if four else 1)
        quads -= four
    return tiles if len(tiles) == 14 else None


def _bonus(rng: random.Random, given: tuple[int, ...] | None, wanted: str | None, own: bool,
           seat: str, bonus: bool, plain: str | None = None) -> tuple[int, ...]:
    """The flowers (or seasons) of a drawn hand: as given, else as wanted, else `plain` when
    drawing a plain hand, else drawn."""
    if given is not None:
        return given
    number = str(SEATS.index(seat) + 1)
    text = wanted if wanted is not None else plain if plain is not None else rng.choice(
        ["", "", "1234", "1", "2", "3", "4"])
    if own and number not in text:
        text += number
    if bonus and not text:
        text = rng.choice("1234")
    return tuple(sorted({int(c) for c in text}))


def draw(rng: random.Random, ruleset: Ruleset, patterns: list[Pattern], context: TickContext,
         bonus: bool) -> Hand | None:
    """One hand drawn to hold these patterns in this context (`bonus`: flowers are in play),
    or None when this draw failed."""
    chosen = {p.id: rng.choice(p.events) for p in patterns if p.events}
    events = frozenset(chosen.values())
    # every other hand is drawn plain: no dragon or seat or round wind set, the round the seat's
    # (another when only one of the two winds is wanted),
    # no flush narrowing, one declared set, no kong, one flower not the seat's own and no season
    # (unless the ticks ask for them), so that the least hand is near
    needs = Needs(self_draw=context.by is WinBy.SELF_DRAW, plain=rng.random() < 0.5)
    for p in patterns:
        _add(needs, p, ruleset, rng, chosen)
    if needs.roots and rng.random() < 0.5:   # four alike as kongs, else held (123m 123m 11m)
        needs.kongs = max(needs.kongs, needs.roots)
    seat = context.seat
    round_ = context.round or (
        rng.choice(SEATS) if not needs.plain else   # plain: the seat's, unless one is wanted
        rng.choice([r for r in SEATS if r != seat]) if needs.round_pong != needs.seat_pong else
        seat)
    shape = needs.shape or rng.choice(["standard"] * 4 + ["seven-pairs"])
    pool = _pool(needs, rng, ruleset.honours)
    melds: list[Meld] = []
    if shape == "standard":
        drawn = _standard(needs, rng, pool, seat, round_)
        if drawn is None:
            return None
        concealed, melds, pair = drawn
    elif shape == "seven-pairs":
        concealed = _seven_pairs(needs, rng, pool)
        if concealed is None:
            return None
        pair = rng.choice(concealed)
    elif shape == "thirteen-orphans":
        concealed = ORPHANS + [rng.choice(ORPHANS)]
        pair = rng.choice(concealed)
    else:
        s = rng.randrange(3) * 9
        extra = s + rng.randrange(9)
        concealed = [s] * 3 + [s + n for n in range(1, 8)] + [s + 8] * 3 + [extra]
        pair = extra
    win = pair if needs.win_on_pair else rng.choice(concealed)
    if needs.win_single:
        single = [t for t in concealed if concealed.count(t) == 1]
        if not single:
            return None
        win = rng.choice(single)
    flowers, seasons = context.flowers or (), context.seasons or ()   # refused unless in play
    if bonus:
        other = str(SEATS.index(seat) % 4 + 1 + 1) if SEATS.index(seat) < 3 else "1"
        plain = (other, "") if needs.plain else (None, None)
        flowers = _bonus(rng, context.flowers, needs.flowers, needs.own_flower, seat, needs.bonus,
                         plain[0])
        seasons = _bonus(rng, context.seasons, needs.seasons, needs.own_season, seat, False,
                         plain[1])
    ctx = WinContext(context.by, seat, round_, flowers, seasons, events)
    return Hand(tuple(TILES[t] for t in sorted(concealed)), tuple(melds), TILES[win], ctx)
