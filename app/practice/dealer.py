"""Deal random winning hands for the Count the Fan practice, legal under a ruleset.

A deal is a pure function of (ruleset, seed, hand number, level): `random.Random` is seeded
from those four, so the same link deals the same hand to a whole class. Each hand is built
on purpose around a theme drawn for its level (plain chows and pongs; a pattern such as a
flush, all pongs, honour pongs, seven pairs or flowers; or one of the ruleset's limit
hands), then checked by the scorer: it must be accepted (tile counts, honours, flowers,
missing suit, events), meet the ruleset's minimum, and count the pattern it was built for.

>>> from app.rules.loader import registry
>>> hk = registry()["hong-kong"]
>>> first = deal(hk, "class-7", 1, "patterns")
>>> first.calculation.hand == deal(hk, "class-7", 1, "patterns").calculation.hand
True
>>> first.calculation.score.below_minimum
False
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import lru_cache

from app.base.errors import HandError
from app.base.i18n import Msg
from app.hands.hand import SEATS, Hand, Meld, MeldKind, WinBy, WinContext
from app.hands.tiles import TILES
from app.rules.model import Pattern, Ruleset
from app.scoring.calculation import Ask, Calculation, Seats, agreed_seats, calculate
from app.scoring.selection import Settings

LEVELS = ("plain", "patterns", "limit")
MAX_TRIES = 600            # themes drawn per hand before giving up (never reached in the tests)
SUIT_BASE = {"m": 0, "p": 9, "s": 18}
WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
WIND_OF_SEAT = dict(zip(SEATS, WINDS, strict=True))
SEAT_NUMBER = {"E": 1, "S": 2, "W": 3, "N": 4}
BIG_FAN = 8                # a pattern this large is dealt at the limit level
# Detectors that every ordinary hand meets by chance: not a theme of their own.
PLAIN_DETECTORS = frozenset({"standard_shape", "all_chows", "concealed_hand",
                             "concealed_hand_no_kongs", "self_draw", "no_bonus_tiles"})


@dataclass(frozen=True, slots=True)
class Spec:
    """What a dealt hand must look like: the theme's constraints, merged when themes combine."""

    targets: tuple[str, ...] = ()          # pattern ids the hand is built to count
    shape: str = "standard"                # standard | seven-pairs | thirteen-orphans | nine-gates
    flush: str = ""                        # "" mixed suits; "one" any single suit; or m / p / s
    honours: str = "some"                  # none | some | required | only
    sets: str = "mixed"                    # mixed | chows | pongs
    tiles: str = "any"                     # any | terminals | orphans | ends | simples
    forced: tuple[tuple[str, int], ...] = ()   # sets that must be there: ("pong", 31)
    pair: int | None = None                # the pair's tile kind, when the theme fixes it
    quad: bool = False                     # some tile held four times (根, 龙七对)
    kongs: int = 0
    exposure: str = "some"                 # none | some | all (declared melds)
    by: WinBy | None = None
    win_on_pair: bool = False              # the winning tile completes the pair
    rob: bool = False                      # the winning tile is held once (robbing the kong)
    events: tuple[str, ...] = ()
    seat: str = ""
    round: str = ""
    bonus: str = "random"                  # random | none | any | own | flower-set | season-set | all
    options: tuple[str, ...] = ()
    discarder: str = ""


_UNION = ("targets", "forced", "events", "options")
_EITHER = ("quad", "win_on_pair", "rob")


def merge(a: Spec, b: Spec) -> Spec | None:
    """Both themes at once, or None when they contradict each other."""
    out = {}
    for f in fields(Spec):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if f.name in _UNION:
            out[f.name] = x + tuple(v for v in y if v not in x)
        elif f.name in _EITHER:
            out[f.name] = x or y
        elif f.name == "kongs":
            out[f.name] = max(x, y)
        elif x == y or y == f.default:
            out[f.name] = x
        elif x == f.default:
            out[f.name] = y
        else:
            return None
    return Spec(**out)


@dataclass(frozen=True, slots=True)
class Deal:
    """Hand n of a seeded series: the theme it was built on, its score (the hand in it)."""

    ruleset: Ruleset
    seed: str
    n: int
    level: str
    # the hand description a link gives: written by app/vocabulary/practice.py (unread here)
    params: Mapping[str, str]
    targets: tuple[str, ...]
    calculation: Calculation
    events: tuple[str, ...] = ()   # the hand's events and house rules, in the theme's order
    options: tuple[str, ...] = ()


def deal(ruleset: Ruleset, seed: str, n: int = 1, level: str = "patterns") -> Deal:
    """Deal hand n of the series named by seed, at a difficulty level."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    rng = random.Random(f"{ruleset.id}/{level}/{seed}/{n}")
    for _ in range(MAX_TRIES):
        spec, floor = theme(rng, ruleset, level)
        if spec is None:
            continue
        built = build(rng, ruleset, spec)
        if built is None:
            continue
        ask = built
        if max(ask.hand.counts) > 4:   # a fifth copy: no set holds it
            continue
        try:
            calc = calculate(ask)
        except HandError:
            continue
        score = calc.score
        counted = {i.pattern.id for i in score.counted}
        if score.below_minimum or score.total_fan < floor:
            continue
        if spec.targets and counted.isdisjoint(spec.targets):
            continue
        return Deal(ruleset, seed, n, level, {}, spec.targets, calc, spec.events, spec.options)
    raise RuntimeError(Msg("no {level} hand could be dealt for {rules} from seed {seed}",
                           level=level, rules=ruleset.id, seed=repr(seed)))


def series(ruleset: Ruleset, seed: str, count: int, level: str = "patterns") -> list[Deal]:
    """The first `count` hands of a seeded series (a teacher's ten hands)."""
    return [deal(ruleset, seed, n, level) for n in range(1, count + 1)]


# --- themes ----------------------------------------------------------------------------


def theme(rng: random.Random, ruleset: Ruleset, level: str) -> tuple[Spec | None, int]:
    """Draw what the next hand is built around, and the least total fan it must reach."""
    if level == "plain":   # chows and pongs of the suits, nothing else on purpose
        return Spec(honours="none", sets="chows" if rng.random() < 0.2 else "mixed"), 0
    if level == "limit":
        found = limit_patterns(ruleset)
        if found:
            return spec_for(rng, ruleset, rng.choice(found)), 0
        # No limit hand in the table (SBR): two patterns together, at the top of the scale.
        first, second = (spec_for(rng, ruleset, rng.choice(pattern_patterns(ruleset)))
                         for _ in range(2))
        if first is None or second is None:
            return None, 0
        return merge(first, second), top_of_scale(ruleset)
    spec = spec_for(rng, ruleset, rng.choice(pattern_patterns(ruleset)))
    if spec is not None and rng.random() < 0.35:   # now and then two patterns in one hand
        extra = spec_for(rng, ruleset, rng.choice(pattern_patterns(ruleset)))
        combined = merge(spec, extra) if extra is not None else None
        spec = combined or spec
    return spec, 0


def top_of_scale(ruleset: Ruleset) -> int:
    """The fan where the default curve stops rising (a table curve's last row), else 0."""
    curve = ruleset.curves[ruleset.dials.curve]
    return len(curve.table) - 1 if curve.kind == "table" else 0


def dealable(ruleset: Ruleset, p: Pattern) -> bool:
    """Whether tiles can show this pattern here: not tick-only, not a house rule left off."""
    if p.tick_only:
        return False
    if p.optional and p.id != ruleset.seven_pairs:   # house rules stay off, seven pairs aside
        return False
    if p.flowers and not ruleset.flowers:
        return False
    return spec_for(random.Random(0), ruleset, p) is not None


def is_limit(p: Pattern) -> bool:
    """A limit or special hand, or one as large as one (8 fan and up)."""
    return p.limit or p.alone or p.group == "special" or p.fan >= BIG_FAN


@lru_cache(maxsize=64)
def limit_patterns(ruleset: Ruleset) -> tuple[Pattern, ...]:
    """The hands the limit level deals: the ruleset's special and limit hands."""
    return tuple(p for p in ruleset.patterns if is_limit(p) and dealable(ruleset, p))


@lru_cache(maxsize=64)
def pattern_patterns(ruleset: Ruleset) -> tuple[Pattern, ...]:
    """The patterns the patterns level deals: everything between plain and limit."""
    return tuple(p for p in ruleset.patterns if not is_limit(p)
                 and p.detect not in PLAIN_DETECTORS and dealable(ruleset, p))


def spec_for(rng: random.Random, ruleset: Ruleset, p: Pattern) -> Spec | None:
    """The constraints that make tiles show pattern p, or None when no tiles can."""
    if p.requires:   # a package: all its parts at once, counted as the package
        spec: Spec | None = Spec()
        for part in p.requires:
            sub = spec_for(rng, ruleset, ruleset.by_id[part])
            spec = merge(spec, sub) if spec is not None and sub is not None else None
        return replace(spec, targets=(p.id,)) if spec is not None else None
    if p.events:
        spec = _event_spec(rng, ruleset, p)
    elif p.detect:
        spec = _detector_spec(rng, ruleset, p.detect)
    else:
        return None
    if spec is None:
        return None
    if p.by is not None:
        if spec.by is not None and spec.by is not p.by:
            return None
        spec = replace(spec, by=p.by)
    options = (p.id,) if p.optional else ()
    return replace(spec, targets=(p.id,), options=spec.options + options)


def _event_spec(rng: random.Random, ruleset: Ruleset, p: Pattern) -> Spec | None:
    events = [e for e in p.events if e in ruleset.events]
    if not events:
        return None
    event = rng.choice(events)
    by = ruleset.events[event].by
    spec = {
        "kong-replacement": Spec(kongs=1, by=WinBy.SELF_DRAW),
        "kong-on-kong": Spec(kongs=2, by=WinBy.SELF_DRAW),
        "flower-replacement": Spec(by=WinBy.SELF_DRAW, bonus="any"),
        "robbing-the-kong": Spec(by=WinBy.DISCARD, rob=True),
        "kong-cannon": Spec(by=WinBy.DISCARD),
        "last-discard": Spec(by=WinBy.DISCARD),
        "last-tile": Spec(),
        "heavenly-hand": Spec(seat="E", by=WinBy.SELF_DRAW, exposure="none"),
        "earthly-hand": Spec(seat=rng.choice(SEATS[1:]), exposure="none"),
    }[event]
    if by is not None:
        if spec.by is not None and spec.by is not by:
            return None
        spec = replace(spec, by=by)
    if event == "earthly-hand" and (spec.by or p.by) is not WinBy.SELF_DRAW:
        spec = replace(spec, by=WinBy.DISCARD, discarder="E")   # the dealer's first discard
    if event == "flower-replacement" and not ruleset.flowers:
        return None
    return replace(spec, events=(event,))


def _detector_spec(rng: random.Random, ruleset: Ruleset, detect: str) -> Spec | None:
    honours = ruleset.honours
    dragons = list(DRAGONS)
    rng.shuffle(dragons)
    winds = list(WINDS)
    rng.shuffle(winds)
    if detect in ("standard_shape",):
        return Spec()
    if detect == "all_chows":
        return Spec(sets="chows")
    if detect == "all_pongs":
        return Spec(sets="pongs")
    if detect == "golden_hook":
        return Spec(sets="pongs", exposure="all", win_on_pair=True)
    if detect == "all_pongs_single_wait":
        return Spec(sets="pongs", win_on_pair=True)
    if detect == "four_kongs":
        return Spec(sets="pongs", kongs=4)
    if detect == "seven_pairs":
        return Spec(shape="seven-pairs") if _seven_pairs_playable(ruleset) else None
    if detect == "seven_pairs_with_quad":
        return (Spec(shape="seven-pairs", quad=True)
                if _seven_pairs_playable(ruleset) and ruleset.seven_pairs_quads else None)
    if detect == "thirteen_orphans":
        return Spec(shape="thirteen-orphans") if honours and ruleset.thirteen_orphans else None
    if detect in ("pure_nine_gates", "nine_gates_true_wait_on_discard"):
        return Spec(shape="nine-gates")
    if detect == "full_flush":
        return Spec(flush="one", honours="none")
    if detect == "half_flush":
        return Spec(flush="one", honours="required") if honours else None
    if detect == "all_honours":
        return Spec(honours="only", sets="pongs") if honours else None
    if detect == "all_terminals":
        return Spec(tiles="terminals", honours="none", sets="pongs")
    if detect == "terminals_and_honours":
        if not honours:
            return None
        terminal = rng.choice([SUIT_BASE[s] + r for s in "mps" for r in (0, 8)])
        return Spec(tiles="orphans", honours="required", sets="pongs",
                    forced=(("pong", terminal),))
    if detect == "terminals_everywhere":
        return Spec(tiles="ends", honours="none")
    if detect == "all_simples":
        return Spec(tiles="simples", honours="none")
    if detect == "roots":
        return Spec(quad=True)
    if not honours and detect in ("dragon_pongs", "seat_wind_pong", "round_wind_pong",
                                  "small_three_dragons", "great_three_dragons",
                                  "small_four_winds", "great_four_winds", "jade_dragon",
                                  "ruby_dragon", "pearl_dragon"):
        return None
    if detect == "dragon_pongs":
        return Spec(forced=tuple(("pong", d) for d in dragons[:rng.choice((1, 1, 2))]))
    if detect == "seat_wind_pong":
        seat = rng.choice(SEATS)
        return Spec(seat=seat, forced=(("pong", WIND_OF_SEAT[seat]),))
    if detect == "round_wind_pong":
        wind = rng.choice(SEATS)
        return Spec(round=wind, forced=(("pong", WIND_OF_SEAT[wind]),))
    if detect == "small_three_dragons":
        return Spec(forced=(("pong", dragons[0]), ("pong", dragons[1])), pair=dragons[2])
    if detect == "great_three_dragons":
        return Spec(forced=tuple(("pong", d) for d in dragons))
    if detect == "small_four_winds":
        return Spec(forced=tuple(("pong", w) for w in winds[:3]), pair=winds[3])
    if detect == "great_four_winds":
        return Spec(forced=tuple(("pong", w) for w in winds))
    if detect in ("jade_dragon", "ruby_dragon", "pearl_dragon"):
        dragon, suit = {"jade_dragon": (32, "s"), "ruby_dragon": (33, "m"),
                        "pearl_dragon": (31, "p")}[detect]
        return Spec(flush=suit, sets="pongs", forced=(("pong", dragon),),
                    pair=SUIT_BASE[suit] + rng.randrange(9))
    if detect in ("concealed_hand", "concealed_hand_no_kongs"):
        return Spec(exposure="none")
    if detect in ("four_concealed_pongs", "four_concealed_pongs_no_kongs"):
        return Spec(sets="pongs", exposure="none", by=WinBy.SELF_DRAW)
    if detect in ("own_flower", "own_season", "all_flowers", "all_seasons", "no_bonus_tiles"):
        if not ruleset.flowers:
            return None
        return Spec(bonus={"own_flower": "own-flower", "own_season": "own-season",
                           "all_flowers": "flower-set", "all_seasons": "season-set",
                           "no_bonus_tiles": "none"}[detect])
    if detect == "all_bonus_tiles":   # an instant win: only ever self-drawn (ruling 79)
        return Spec(bonus="all", by=WinBy.SELF_DRAW) if ruleset.flowers else None
    if detect == "self_draw":
        return Spec(by=WinBy.SELF_DRAW)
    return None


def _seven_pairs_playable(ruleset: Ruleset) -> bool:
    return ruleset.seven_pairs is not False


# --- building the tiles ------------------------------------------------------------------


def build(rng: random.Random, ruleset: Ruleset, spec: Spec) -> Ask | None:
    """Tiles, melds and the win context that meet a spec, as the request they make; None if
    stuck."""
    suits = ["m", "p", "s"]
    missing = ""
    if ruleset.missing_suit:   # 定缺: declare a suit and deal none of it
        missing = rng.choice(suits)
        suits.remove(missing)
    if spec.flush in SUIT_BASE:
        if spec.flush not in suits:
            return None
        suits = [spec.flush]
    elif spec.flush == "one":
        suits = [rng.choice(suits)]
    honours = ruleset.honours and spec.honours != "none"
    if spec.honours in ("required", "only") and not ruleset.honours:
        return None
    if spec.shape == "seven-pairs":
        shaped = _seven_pairs(rng, spec, suits, honours, ruleset)
    elif spec.shape == "thirteen-orphans":
        shaped = _thirteen_orphans(rng)
    elif spec.shape == "nine-gates":
        shaped = _nine_gates(rng, suits)
    else:
        shaped = _standard(rng, spec, suits, honours)
    if shaped is None:
        return None
    concealed, melds, pair = shaped
    if spec.shape != "standard" and (spec.kongs or spec.forced or spec.exposure == "all"):
        return None
    win = _winning_tile(rng, spec, concealed, melds, pair)
    if win is None:
        return None
    return _describe(rng, ruleset, spec, concealed, melds, win, missing)


def _suited(suits: list[str], tiles: str) -> list[int]:
    """Suited tile kinds a set or pair may be made of under the tiles constraint."""
    ranks = {"terminals": (0, 8), "orphans": (0, 8), "ends": (0, 8),
             "simples": range(1, 8)}.get(tiles, range(9))
    return [SUIT_BASE[s] + r for s in suits for r in ranks]


def _chow_starts(suits: list[str], tiles: str) -> list[int]:
    if tiles in ("terminals", "orphans"):
        return []
    ranks = {"ends": (0, 6), "simples": range(1, 6)}.get(tiles, range(7))
    return [SUIT_BASE[s] + r for s in suits for r in ranks]


def _standard(rng: random.Random, spec: Spec, suits: list[str], honours: bool):
    """Four sets and a pair: (concealed tiles, melds as (kind, tiles), pair kind)."""
    counts = [0] * 34
    sets: list[tuple[str, int]] = []

    def take(kind: str, i: int) -> bool:
        need = (i, i + 1, i + 2) if kind == "chow" else (i, i, i)
        if any(counts[t] + need.count(t) > 4 for t in set(need)):
            return False
        for t in need:
            counts[t] += 1
        sets.append((kind, i))
        return True

    suited = [] if spec.honours == "only" else _suited(suits, spec.tiles)
    honour_kinds = list(range(27, 34)) if honours and spec.tiles not in ("terminals", "ends",
                                                                          "simples") else []
    starts = [] if spec.sets == "pongs" or spec.honours == "only" else _chow_starts(suits, spec.tiles)
    for kind, i in spec.forced:
        if (i >= 27 and not honours) or (i < 27 and i not in suited) or not take(kind, i):
            return None
    pair = spec.pair
    if pair is not None:
        if (pair >= 27 and not honours) or (pair < 27 and pair not in suited) or counts[pair] > 2:
            return None
        counts[pair] += 2
    if spec.quad:
        if rng.random() < 0.5 or not starts:   # held four times in a kong
            spec = replace(spec, kongs=max(spec.kongs, 1))
        else:                                  # or a pong beside a chow through it
            start = rng.choice(starts)
            if not (take("pong", start + rng.randrange(3)) and take("chow", start)):
                return None
    if spec.honours == "required" and not any(i >= 27 for _, i in sets) and (
            pair is None or pair < 27):
        if rng.random() < 0.6 or pair is not None:
            if not take("pong", rng.choice(honour_kinds)):
                return None
        else:
            pair = rng.choice(honour_kinds)
            counts[pair] += 2
    pongs_needed = spec.kongs - sum(1 for kind, _ in sets if kind == "pong")
    chow_share = {"chows": 1.0, "pongs": 0.0}.get(spec.sets, 0.7)
    for _ in range(40):
        if len(sets) == 4:
            break
        open_slots = 4 - len(sets)
        if starts and pongs_needed < open_slots and rng.random() < chow_share:
            take("chow", rng.choice(starts))
            continue
        pool = suited + honour_kinds
        if spec.honours == "only":
            pool = honour_kinds
        elif honour_kinds and spec.honours == "some" and rng.random() > 0.15:
            pool = suited or honour_kinds
        if pool and take("pong", rng.choice(pool)):
            pongs_needed -= 1
    if len(sets) != 4:
        return None
    if pair is None:
        pool = honour_kinds if spec.honours == "only" else suited + (
            honour_kinds if spec.honours != "some" or rng.random() < 0.2 else [])
        free = [i for i in pool if counts[i] <= 2]
        if not free:
            return None
        pair = rng.choice(free)
        counts[pair] += 2
    pongs = [k for k, (kind, _) in enumerate(sets) if kind == "pong"]
    if len(pongs) < spec.kongs:
        return None
    kongs = set(rng.sample(pongs, spec.kongs))
    for k in kongs:
        if counts[sets[k][1]] != 3:   # the fourth copy is already elsewhere
            return None
    expose = {"none": 0.0, "all": 1.0}.get(spec.exposure, 0.3)
    concealed: list[int] = [pair, pair]
    melds: list[tuple[str, tuple[int, ...]]] = []
    for k, (kind, i) in enumerate(sets):
        tiles = (i, i + 1, i + 2) if kind == "chow" else (i, i, i)
        if k in kongs:
            if spec.exposure == "none":
                how = "ckong"
            elif spec.exposure == "all":
                how = rng.choice(("kong", "kong", "akong"))
            else:
                how = rng.choice(("kong", "kong", "ckong", "akong"))
            melds.append((how, (i,) * 4))
        elif rng.random() < expose:
            melds.append((kind, tiles))
        else:
            concealed.extend(tiles)
    return concealed, melds, pair


def _seven_pairs(rng: random.Random, spec: Spec, suits: list[str], honours: bool,
                 ruleset: Ruleset):
    if spec.sets != "mixed" or spec.tiles not in ("any", "simples", "terminals"):
        return None
    pool = [] if spec.honours == "only" else _suited(suits, spec.tiles)
    if honours and spec.tiles == "any":
        pool += list(range(27, 34))
    if spec.honours == "required":
        if not honours:
            return None
        kinds = [rng.choice(range(27, 34))]
        pool = [i for i in pool if i != kinds[0]]
    else:
        kinds = []
    distinct = 6 if spec.quad else 7
    rest = distinct - len(kinds)
    if len(pool) < rest:
        return None
    kinds += rng.sample(pool, rest)
    tiles = [i for i in kinds for _ in (0, 1)]
    if spec.quad:
        if not ruleset.seven_pairs_quads:
            return None
        tiles += [kinds[-1]] * 2
    return tiles, [], None


def _thirteen_orphans(rng: random.Random):
    kinds = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    return kinds + [rng.choice(kinds)], [], None


def _nine_gates(rng: random.Random, suits: list[str]):
    base = SUIT_BASE[rng.choice(suits)]
    tiles = [base] * 3 + [base + r for r in range(1, 8)] + [base + 8] * 3
    return tiles + [base + rng.randrange(9)], [], None


def _winning_tile(rng: random.Random, spec: Spec, concealed: list[int],
                  melds: list[tuple[str, tuple[int, ...]]], pair: int | None) -> int | None:
    if spec.shape == "nine-gates":
        return concealed[-1]   # the extra tile: the true nine-gate wait
    if spec.win_on_pair:
        return pair
    if spec.rob:   # the robbed player held the other three: one copy here
        everywhere = concealed + [t for _, tiles in melds for t in tiles]
        once = [t for t in concealed if everywhere.count(t) == 1]
        return rng.choice(once) if once else None
    return rng.choice(concealed)


def _describe(rng: random.Random, ruleset: Ruleset, spec: Spec, concealed: list[int],
              melds: list[tuple[str, tuple[int, ...]]], win: int, missing: str) -> Ask:
    """The hand and its win context, as the request they make."""
    by = spec.by or (WinBy.SELF_DRAW if rng.random() < 0.35 else WinBy.DISCARD)
    seat = spec.seat or rng.choice(SEATS)
    round_wind = spec.round or rng.choice(("E", "E", "S", "W", "N"))
    flowers, seasons = _bonus(rng, spec.bonus, seat) if ruleset.flowers else ((), ())
    discarder = None
    if by is WinBy.DISCARD:
        discarder = spec.discarder or rng.choice([s for s in SEATS if s != seat])
    context = WinContext(by=by, seat=seat, round=round_wind, flowers=flowers, seasons=seasons,
                         events=frozenset(spec.events), missing=missing or None)
    hand = Hand(tuple(sorted(TILES[i] for i in concealed)),
                tuple(Meld(MeldKind(how), tuple(sorted(TILES[i] for i in tiles)))
                      for how, tiles in melds), TILES[win], context)
    seat, winner, assumed = agreed_seats(seat, None)
    seats = Seats(seat, winner, discarder)
    return Ask(ruleset, _settings(ruleset, spec.options), hand=hand, seats=seats,
                       by_given=True, round_given=True, assumed=assumed)


@lru_cache(maxsize=64)
def _settings(ruleset: Ruleset, options: tuple[str, ...]) -> Settings:
    """The ruleset's own dials with these house rules on (the default payment's own curve)."""
    d = ruleset.dials
    return Settings(d.min, d.cap, ruleset.payments[d.payment].curve or d.curve, d.payment,
                    d.stake, frozenset(options))


def _bonus(rng: random.Random, want: str, seat: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Flowers and seasons held: (flower numbers, season numbers)."""
    if want == "none" or (want == "random" and rng.random() < 0.45):
        return (), ()
    own = SEAT_NUMBER[seat]
    if want == "all":
        return (1, 2, 3, 4), (1, 2, 3, 4)
    if want == "flower-set":
        return (1, 2, 3, 4), tuple(sorted(rng.sample(range(1, 5), rng.choice((0, 0, 1)))))
    if want == "season-set":
        return tuple(sorted(rng.sample(range(1, 5), rng.choice((0, 0, 1))))), (1, 2, 3, 4)
    drawn = set(rng.sample(range(8), rng.choice((1, 1, 2, 2, 3))))
    if want == "own-flower":
        drawn.add(own - 1)
    elif want == "own-season":
        drawn.add(own + 3)
    flowers = tuple(sorted(i + 1 for i in drawn if i < 4))
    seasons = tuple(sorted(i - 3 for i in drawn if i >= 4))
    return flowers, seasons


__all__ = ["LEVELS", "Deal", "Spec", "deal", "series", "merge", "limit_patterns",
           "pattern_patterns"]
