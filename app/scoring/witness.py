"""Tick sets read into the facts of a hand, by finding hands that hold them (rulings 86-89).

A tick set is the facts of one hand. Which hand is not said, so the facts are read by search:
hands are drawn towards what each ticked pattern needs of the tiles (its detector) and of the
table (its events, its way of winning, its bonus tiles), in the request's context (the way of
winning, the seat, the round and the bonus tiles when given; the rest drawn freely), and each is
read by the ruleset's own detectors. A hand one of whose readings holds every ticked pattern,
the per-item ones at least as many times as ticked, is a witness. Then:

- the facts of the ticks are what every witness holds (the ticks among them): a self-draw the
  way of winning implies (ruling 86), a bigger pattern every such hand forms (ruling 87);
- a tick set with no witness is one no hand holds in this context (ruling 88);

and the selection prices the facts exactly as tile mode prices a hand's patterns.

The search is bounded (DRAWS hands at most, stopping at WITNESSES witnesses), seeded by what is
asked, so the same request always reads the same, and remembered per ruleset, house rules,
ticks and context. A bounded search can miss a rare witness: tests/scoring/test_ticks_proof.py
checks, on a seeded corpus of hands per family, that no tick set a hand holds is refused and
that the facts read are the facts of the witnesses (docs/rules.md, "Tick boxes").
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import lru_cache

from app.base.errors import HandError
from app.hands.events import EVENT_RULES, event_errors
from app.hands.hand import SEATS, Hand, Meld, MeldKind, WinBy, WinContext
from app.hands.readings import readings
from app.hands.tiles import TILES
from app.rules.conditions import family_errors
from app.rules.model import Pattern, Ruleset

from .selection import (
    COUNT_BITS,
    MOST_COUNT,
    Settings,
    _plan,
    check_tiles,
    default_settings,
    inactive,
    key_of,
    refuse_other_ways,
    tick_key,
    with_packages,
)

DRAWS = 600        # hands drawn at most for one tick set
WITNESSES = 48     # enough witnesses to read what they all hold

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
    """What a tick set stands for: the facts every witness holds (counts by pattern id, the
    ticks among them), the witnesses found and how many hands were drawn to find them."""

    facts: dict[str, int]
    witnesses: tuple[Hand, ...]
    draws: int

    @property
    def held(self) -> bool:
        return bool(self.witnesses)


def shown(pattern: Pattern) -> bool:
    """Whether tiles can show the pattern (a detector, an event, or a package of them)."""
    return bool(pattern.detect or pattern.events or pattern.requires)


def tick_facts(ruleset: Ruleset, settings: Settings, ticks: tuple[tuple[str, int], ...],
               context: TickContext, plain: bool = False) -> TickFacts:
    """Read a tick set (pattern id, count) in a context into the facts of a hand (see above):
    only the house rules of the dials matter, so the answer is remembered per switches.

    With `plain`, the search draws on (within its bound) until one witness holds just the
    facts, and puts it first: the hand the tick page's "Edit as tiles" opens."""
    return _tick_facts(ruleset, settings.options, ticks, context, plain)


@lru_cache(maxsize=4096)
def _tick_facts(ruleset: Ruleset, options: frozenset[str], ticks: tuple[tuple[str, int], ...],
                context: TickContext, plain: bool = False) -> TickFacts:
    settings = replace(default_settings(ruleset), options=options)
    wanted = {pid: n for pid, n in ticks if shown(ruleset.by_id[pid])}
    options = options | {pid for pid in wanted if ruleset.by_id[pid].optional}
    rules = ruleset.shape_rules(frozenset(options))
    bonus = ruleset.flowers_in_play(settings.options)
    patterns = [ruleset.by_id[pid] for pid in wanted for _ in range(max(1, wanted[pid]))]
    rng = random.Random(f"{ruleset.id}|{sorted(ticks)}|{context}")
    least = tick_key(wanted, ruleset)
    # what could count beside the ticks: the patterns in play (one inside a ticked pattern too:
    # the ordinary reading counts when it is worth more, ruling 75)
    aside = inactive(ruleset, frozenset(options))
    mask = key_of({p.id: MOST_COUNT for p in ruleset.patterns if p.id not in aside}, ruleset)
    least &= mask
    witnesses: list[Hand] = []
    keys: list[int] = []
    common: int | None = None
    draws = 0
    while draws < DRAWS:
        draws += 1
        hand = draw(rng, ruleset, patterns, context, bonus)
        if hand is None:
            continue
        found = _held(hand, ruleset, settings, rules, wanted)
        if found is None:
            continue
        held, every = found
        witnesses.append(hand)
        keys.append(every & mask)
        common = held if common is None else _meet(common, held)
        if common & mask == least and least in keys:
            break   # nothing but the ticks could count, and a hand holds just them: enough
        if len(witnesses) >= WITNESSES and (not plain or common & mask in keys):
            break   # what they all hold is read (and with `plain`, a hand holds just that)
    if common is not None and len(witnesses) > 1:
        # the witness first that holds just the facts (its tiles price as they do)
        plain = [n for n, key in enumerate(keys) if key == common & mask]
        if plain:
            witnesses.insert(0, witnesses.pop(plain[0]))
    facts = dict(ticks)
    if common is not None:
        for p in ruleset.patterns:
            n = common >> COUNT_BITS * p.position & MOST_COUNT
            if n > facts.get(p.id, 0):
                facts[p.id] = n
    return TickFacts(facts, tuple(witnesses), draws)


def _meet(a: int, b: int) -> int:
    """The patterns two found keys both hold, each the fewer times."""
    out, shift = 0, 0
    while a and b:
        n = min(a & MOST_COUNT, b & MOST_COUNT)
        out |= n << shift
        a, b, shift = a >> COUNT_BITS, b >> COUNT_BITS, shift + COUNT_BITS
    return out


def _held(hand: Hand, ruleset: Ruleset, settings: Settings, rules, wanted: dict[str, int]
          ) -> tuple[int, int] | None:
    """What every reading of the hand holding the wanted patterns holds, and what any reading
    holds (found keys), or None when the rules refuse the hand or no reading holds them."""
    try:
        check_tiles(hand, ruleset, settings)
        if event_errors(hand.context, hand.melds, hand.concealed, hand.win) or (
                hand.context.events and family_errors(ruleset, hand)):
            return None
    except HandError:
        return None
    detected, packages = _plan(ruleset, hand.context.events)
    shift = {pid: COUNT_BITS * ruleset.by_id[pid].position for pid in wanted}
    common: int | None = None
    every = 0
    for reading in readings(hand, rules):
        key = with_packages(detected(reading, hand.context), packages)
        every |= key
        if all(_count(key, shift[pid]) >= n for pid, n in wanted.items()):
            common = key if common is None else _meet(common, key)
    if common is None:
        return None
    try:   # an instant win held some other way refuses the hand (大花糊 on a discard, ruling 79)
        refuse_other_ways(every, ruleset, settings, hand.context.by)
    except HandError:
        return None
    return common, every


def _count(key: int, shift: int) -> int:
    return key >> shift & MOST_COUNT


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
    if rng.random() < 0.5 and len(pool) > 9:   # narrow it, so flushes and dragons happen
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
        0 if needs.concealed or needs.first_go_around else rng.choice([0, 0, 1, 2, 3, 4]))
    want_kongs = 4 if needs.all_kongs else max(needs.kongs, rng.choice([0, 0, 0, 1, 2]))
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
           seat: str, bonus: bool) -> tuple[int, ...]:
    """The flowers (or seasons) of a drawn hand: as given, else as wanted, else drawn."""
    if given is not None:
        return given
    text = wanted if wanted is not None else rng.choice(["", "", "1234", "1", "2", "3", "4"])
    number = str(SEATS.index(seat) + 1)
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
    needs = Needs(self_draw=context.by is WinBy.SELF_DRAW)
    for p in patterns:
        _add(needs, p, ruleset, rng, chosen)
    if needs.roots and rng.random() < 0.5:   # four alike as kongs, else held (123m 123m 11m)
        needs.kongs = max(needs.kongs, needs.roots)
    seat = context.seat
    round_ = context.round or rng.choice(SEATS)
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
        flowers = _bonus(rng, context.flowers, needs.flowers, needs.own_flower, seat, needs.bonus)
        seasons = _bonus(rng, context.seasons, needs.seasons, needs.own_season, seat, False)
    ctx = WinContext(context.by, seat, round_, flowers, seasons, events)
    return Hand(tuple(TILES[t] for t in sorted(concealed)), tuple(melds), TILES[win], ctx)
