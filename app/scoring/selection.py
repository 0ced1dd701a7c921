"""Price a hand under a ruleset: detect patterns on every reading, apply relations, keep the best.

Tile mode (`score`) and tick-box mode (`score_ticks`) share one selection: both turn what
they are given into a found key (the detectors' facts, or the ticks with the packages they
form), and among the patterns present count the set worth the most fan such that no counted
pattern includes, replaces or shares a tier with another (a 例牌 stands alone). Everything
present but not counted is kept with the reason.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from app.base.errors import FieldError, HandError
from app.base.i18n import Msg, Text
from app.hands.hand import Hand, MeldKind, WinBy, WinContext
from app.hands.phrases import listing, plain
from app.hands.readings import Reading, Shape, ShapeRules, readings, special_shapes
from app.hands.tiles import SUIT_OFFSET, Tile
from app.rules.detectors import (
    CONTEXT_ONLY,
    DETECTORS,
    GATED,
    GATES,
    PER_ITEM_DETECTORS,
    WIN_READING,
    Detector,
    always,
)
from app.rules.model import Amount, Pattern, Ruleset
from app.rules.words import house_rule_switch, way_of


@dataclass(frozen=True, slots=True)
class Settings:
    """The dials and switches of one calculation."""

    min: int
    cap: int | None
    curve: str
    payment: str
    stake: Amount
    options: frozenset[str] = frozenset()
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Settings key the scoring and payment caches, looked up for every hand: hash once
        object.__setattr__(self, "_hash", hash((self.min, self.cap, self.curve, self.payment,
                                                self.stake, self.options)))

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True, slots=True)
class Item:
    """One line of the breakdown: a pattern present in the hand, counted or not and why."""

    pattern: Pattern
    count: int
    fan: int          # what it adds (0 when not counted)
    counted: bool
    note: str = ""


class Score(NamedTuple):
    """The priced hand: the reading chosen, the breakdown, the totals and base points.

    An immutable NamedTuple rather than a frozen dataclass, like Reading: every request
    makes one, and a tuple is made several times faster.
    """

    ruleset: Ruleset
    settings: Settings
    reading: Reading | None
    items: tuple[Item, ...]
    total_fan: int
    capped_fan: int
    below_minimum: bool
    points: int

    @property
    def counted(self) -> tuple[Item, ...]:
        return tuple(i for i in self.items if i.counted)


def default_settings(ruleset: Ruleset) -> Settings:
    d = ruleset.dials
    return Settings(d.min, d.cap, d.curve, d.payment, d.stake)


@lru_cache(maxsize=256)
def inactive(ruleset: Ruleset, options: frozenset[str]) -> dict[str, str]:
    """The patterns out of play under these switches, each with the reason."""
    off: dict[str, str] = {}
    for p in ruleset.patterns:
        if p.optional and p.id not in options:
            off[p.id] = Msg("house rule, off ({switch} turns it on)",
                            switch=house_rule_switch(ruleset, p.id))
        elif p.flowers and not ruleset.flowers_in_play(options):
            off[p.id] = Msg("flowers are not in play")
    for other in ruleset.patterns:
        if other.optional and other.id in options:
            for pid in other.supersedes:
                off[pid] = Msg("superseded by the house rule {rule}", rule=other.name)
    return off


# --- tile mode -------------------------------------------------------------------------


def score(hand: Hand, ruleset: Ruleset, settings: Settings | None = None) -> Score:
    """Price a complete hand: the best reading under the ruleset, with its breakdown."""
    settings = settings or default_settings(ruleset)
    check_tiles(hand, ruleset, settings)
    ctx = hand.context
    return price(hand, pricing(ruleset, settings, ctx.events, ctx.by))


def price(hand: Hand, how: Pricing) -> Score:
    """Price a complete hand whose tiles check_tiles has passed, as `how` says (see score)."""
    found = readings(hand, how.rules)
    if not found:
        raise HandError([FieldError("hand", not_a_win(hand, how.ruleset, how.settings))])
    return price_readings(found, hand.context, how)


def price_readings(found: tuple[Reading, ...], ctx: WinContext, how: Pricing) -> Score:
    """Price the readings of one hand (not none) won in `ctx`: the reading worth the most, as
    `how` prices it; a HandError when a reading holds an instant win made another way."""
    detected, packages = how.plan
    choices = how.choices
    packaged = choices.packaged
    best: tuple | None = None
    held = 0
    for reading in found:
        key = detected(reading, ctx)
        if packages:
            found_key = key
            key = packaged.get(found_key)
            if key is None:
                if len(packaged) >= Choices.limit:
                    packaged.clear()
                key = packaged[found_key] = with_packages(found_key, packages)
        held |= key   # a count's bits are non-zero exactly when the pattern is present
        choice = choices[key]
        if best is None or choice[0] > best[0]:
            best, chosen = choice, reading
    if held & how.instant:   # any reading holding an instant win refuses the other ways
        refuse_other_ways(held, how.ruleset, how.settings, ctx.by)
    return tuple.__new__(Score, (how.ruleset, how.settings, chosen, best[1], best[2], best[3],
                                 best[4], best[5]))


class Pricing(NamedTuple):
    """What pricing a hand needs that depends only on the ruleset, the dials, the events and
    the way of winning (see pricing); the same object for every hand that shares them."""

    ruleset: Ruleset
    settings: Settings
    rules: ShapeRules
    plan: Plan
    instant: int   # the found key's bits of the ruleset's instant wins (0: none)
    choices: Choices


class Choices(dict):
    """Found key -> ((total, tie-break), items, total, capped, below minimum, points): the
    selection and the totals of a set of patterns found, filled on first sight and emptied
    at `limit` entries (odd input could otherwise grow it without end)."""

    limit = 1024

    def __init__(self, ruleset: Ruleset, settings: Settings, by: WinBy) -> None:
        super().__init__()
        self.ruleset, self.settings, self.by = ruleset, settings, by
        self.packaged: dict[int, int] = {}   # found key -> with its packages (with_packages)

    def __missing__(self, found: int) -> tuple:
        items, total, tie_break = _select(found, self.ruleset, self.settings, self.by)
        choice = ((total, tie_break), items, *_totals(self.ruleset, self.settings, total))
        if len(self) >= self.limit:
            self.clear()
            self.packaged.clear()
        self[found] = choice
        return choice


@lru_cache(maxsize=256)
def pricing(ruleset: Ruleset, settings: Settings, events: frozenset[str], by: WinBy) -> Pricing:
    """The shapes, detection plan, instant wins and remembered choices for these hands."""
    return Pricing(ruleset, settings, _shape_rules(ruleset, settings.options),
                   _plan(ruleset, events), _instant_bits(ruleset),
                   Choices(ruleset, settings, by))


@lru_cache(maxsize=256)
def _shape_rules(ruleset: Ruleset, options: frozenset[str]) -> ShapeRules:
    return ruleset.shape_rules(options)


def check_tiles(hand: Hand, ruleset: Ruleset, settings: Settings) -> None:
    """Refuse tiles, bonus tiles and events that this ruleset does not have."""
    errors: list[FieldError] = []
    ctx = hand.context
    honour_kinds, missing_kinds = barred_kinds(ruleset, ctx.missing)
    tiles = hand.concealed + tuple(t for m in hand.melds for t in m.tiles) if (
        honour_kinds or ctx.missing) else ()
    if honour_kinds:
        honours = sorted({t for t in tiles if t in honour_kinds})
        if honours:
            errors.append(_without_honours(ruleset, tuple(honours)))
    if not ruleset.claimed_chows:
        chows = [m for m in hand.melds if m.kind is MeldKind.CHOW]
        if chows:
            errors.append(FieldError("melds", Msg("{rules} claims only pongs and kongs, never a"
                                                  " chow ({melds}): a run counts held in the hand",
                                                  rules=plain(ruleset.name),
                                                  melds=" ".join(m.token for m in chows))))
    if (ctx.flowers or ctx.seasons) and not ruleset.flowers_in_play(settings.options):
        errors.append(FieldError("flowers", Msg("{rules} is played without flowers and seasons",
                                                rules=plain(ruleset.name))))
    if missing_kinds:
        held = sorted({t for t in tiles if t in missing_kinds})
        if held:
            errors.append(FieldError("hand", Msg("the hand holds its declared missing suit"
                                                 " ({tiles}); it cannot win until that suit is"
                                                 " gone (定缺: 缺一门)",
                                                 tiles=" ".join(t.code for t in held))))
    elif ctx.missing and not ruleset.missing_suit:
        errors.append(FieldError("missing", Msg("{rules} has no declared missing suit",
                                                rules=plain(ruleset.name))))
    for event in sorted(ctx.events):
        spec = ruleset.events.get(event)
        if spec is None:
            known = listing(ruleset.events) or Msg("none")
            errors.append(FieldError("events", Msg("{rules} does not price the event {event}"
                                                   " (its events: {known})",
                                                   rules=plain(ruleset.name), event=event,
                                                   known=known)))
        elif spec.by is not None and spec.by is not ctx.by:
            errors.append(FieldError("events", Msg("{event} in {rules} is a {way} win ({name})",
                                                   event=event, rules=plain(ruleset.name),
                                                   way=way_of(ruleset, spec.by), name=spec.name)))
    if errors:
        raise HandError(errors)


_NO_KINDS: frozenset[int] = frozenset()
_HONOUR_KINDS = frozenset(range(27, 34))
_SUIT_KINDS = {suit: frozenset(range(lo, lo + 9)) for suit, lo in SUIT_OFFSET.items()}


def barred_kinds(ruleset: Ruleset, missing: str | None) -> tuple[frozenset[int], frozenset[int]]:
    """The tile kinds check_tiles refuses in a hand, melds included: the honours in a family
    played without them, and the declared missing suit where the family declares one."""
    return (_NO_KINDS if ruleset.honours else _HONOUR_KINDS,
            _SUIT_KINDS[missing] if missing and ruleset.missing_suit else _NO_KINDS)


# A family without honours refuses every hand holding one (most of a mixed corpus under
# Sichuan): the refusal depends only on which honours are held, so each is worded once.
@lru_cache(maxsize=256)
def _without_honours(ruleset: Ruleset, honours: tuple[Tile, ...]) -> FieldError:
    """The refusal of these honours (sorted, each once) in a family played without them."""
    return FieldError("hand", Msg("{rules} is played without honours; remove {tiles}",
                                  rules=plain(ruleset.name),
                                  tiles=" ".join(t.code for t in honours)))


@lru_cache(maxsize=64)
def _instant(ruleset: Ruleset) -> tuple[Pattern, ...]:
    return tuple(p for p in ruleset.patterns if p.instant)


def _instant_bits(ruleset: Ruleset) -> int:
    """The bits of a found key that count the ruleset's instant wins (0 when it has none)."""
    bits = 0
    for p in _instant(ruleset):
        bits |= MOST_COUNT << COUNT_BITS * p.position
    return bits


def refuse_other_ways(found: int, ruleset: Ruleset, settings: Settings, by: WinBy) -> None:
    """Refuse a win made another way than an instant win the hand holds (大花糊, ruling 79).

    An instant win ends the hand the moment it is held, so a description holding it and won
    otherwise cannot have happened.
    """
    off = inactive(ruleset, settings.options)
    for p in _instant(ruleset):
        if p.by is not by and p.id not in off and found >> COUNT_BITS * p.position & MOST_COUNT:
            raise HandError([FieldError("by", Msg("{pattern} wins the moment it is held, as a"
                                                  " {way} win; a hand holding it cannot be a"
                                                  " {by} win", pattern=p.name,
                                                  way=way_of(ruleset, p.by),
                                                  by=way_of(ruleset, by)))])


def not_a_win(hand: Hand, ruleset: Ruleset, settings: Settings) -> Msg:
    """Say why complete-looking tiles do not win here, and what would make them win."""
    # the standard form was read already (it found nothing): the special forms' counts say
    # the rest, and the words are made once per ruleset, dials and forms
    return _not_a_win(ruleset, settings.options, special_shapes(hand))


@lru_cache(maxsize=256)
def _not_a_win(ruleset: Ruleset, options: frozenset[str], shapes: frozenset[Shape]) -> Msg:
    rules = ruleset.shape_rules(options)
    name = plain(ruleset.name)
    if Shape.SEVEN_PAIRS in shapes:
        if isinstance(ruleset.seven_pairs, str) and not rules.seven_pairs:
            return Msg("seven pairs is a house rule in {rules}, off: add {switch} to play it",
                       rules=name, switch=house_rule_switch(ruleset, ruleset.seven_pairs))
        if rules.seven_pairs and not rules.seven_pairs_quads:
            return Msg("seven pairs in {rules} must be seven different pairs; four alike do not"
                       " count as two pairs", rules=name)
        if not rules.seven_pairs:
            return Msg("{rules} has no seven-pairs hand", rules=name)
    if Shape.THIRTEEN_ORPHANS in shapes:
        if isinstance(ruleset.thirteen_orphans, str):
            return Msg("thirteen orphans is a house rule in {rules}, off: add {switch} to play"
                       " it", rules=name, switch=house_rule_switch(ruleset, ruleset.thirteen_orphans))
        return Msg("{rules} has no thirteen-orphans hand", rules=name)
    if rules.seven_pairs:
        return Msg("the tiles do not make a winning hand: four sets and a pair or seven pairs are"
                   " needed")
    return Msg("the tiles do not make a winning hand: four sets and a pair are needed")


def detect(reading: Reading, ctx: WinContext, ruleset: Ruleset) -> dict[str, int]:
    """Count every pattern present in one reading (relations not yet applied)."""
    return present_in(found_key(reading, ctx, _plan(ruleset, ctx.events)), ruleset)


# What a reading holds travels as a found key: three bits per pattern of the ruleset, at
# 3 x its position, holding how many times it is present (0-7). An int is built, hashed
# and remembered faster than a dict of pattern ids.
COUNT_BITS = 3
MOST_COUNT = (1 << COUNT_BITS) - 1
assert max(PER_ITEM_DETECTORS.values()) <= MOST_COUNT, "a count would spill into the next pattern"


def found_key(reading: Reading, ctx: WinContext, plan: Plan) -> int:
    """The patterns present in one reading, as a found key (relations not yet applied)."""
    detected, packages = plan
    return with_packages(detected(reading, ctx), packages)


def with_packages(key: int, packages: Packages) -> int:
    """The found key with every package whose required patterns it holds (清七对 from 七对 + 清一色)."""
    for shift, needs in packages:
        for need in needs:   # a loop, not all(...): this runs for every reading priced
            if not key >> need & MOST_COUNT:
                break
        else:
            key |= 1 << shift
    return key


def tick_key(ticks: Mapping[str, int], ruleset: Ruleset) -> int:
    """The found key a tick set stands for, as tiles would produce it.

    A ticked package stands for the patterns it requires as well, and ticked patterns that
    make a package form it, so that the one selection then applies to the same facts.
    """
    present = dict(ticks)
    for pid in ticks:
        for need in ruleset.by_id[pid].requires:
            present.setdefault(need, 1)
    return with_packages(key_of(present, ruleset), _plan(ruleset, frozenset())[1])


def key_of(present: Mapping[str, int], ruleset: Ruleset) -> int:
    """The found key of patterns counted by id."""
    key = 0
    for pid, count in present.items():
        if not 0 <= count <= MOST_COUNT:
            raise ValueError(f"{pid} counted {count} times; at most {MOST_COUNT}")
        key |= count << COUNT_BITS * ruleset.by_id[pid].position
    return key


def present_in(key: int, ruleset: Ruleset) -> dict[str, int]:
    """The patterns of a found key by id, in ruleset order (that of their positions)."""
    ids = _ids_by_position(ruleset)
    present = {}
    while key:   # the lowest pattern present, each in turn: a few of the ruleset's dozens
        shift = (key & -key).bit_length() - 1
        shift -= shift % COUNT_BITS
        present[ids[shift // COUNT_BITS]] = key >> shift & MOST_COUNT
        key &= ~(MOST_COUNT << shift)
    return present


@lru_cache(maxsize=64)
def _ids_by_position(ruleset: Ruleset) -> tuple[str, ...]:
    ids = [""] * len(ruleset.patterns)
    for p in ruleset.patterns:
        ids[p.position] = p.id
    return tuple(ids)


# What tile mode checks: a function (reading, context) -> found key running the detectors,
# and the packages as (shift, (shifts of the patterns the package is quoted for, ...)).
Packages = tuple[tuple[int, tuple[int, ...]], ...]
Plan = tuple[Callable[[Reading, WinContext], int], Packages]


@lru_cache(maxsize=256)
def _plan(ruleset: Ruleset, events: frozenset[str]) -> Plan:
    """What tile mode checks when these events happened (see Plan).

    A pattern resting on events alone is present whenever one of them happened; the
    detectors are grouped behind their gates and run in one function made for the plan.
    """
    checks, packages = _checks(ruleset, events)
    return _detection(ruleset.id, checks), packages


@lru_cache(maxsize=256)
def context_plan(ruleset: Ruleset, ctx: WinContext) -> Plan:
    """_plan for the hands won in this one context: the same detectors behind the same gates
    find the same key, but those reading only the context (CONTEXT_ONLY) run once, here (on
    no reading), and start every key with what they found."""
    checks, packages = _checks(ruleset, ctx.events)
    start = 0
    kept: dict[str | None, list[tuple[int, Detector]]] = {}
    for gate, found in checks.items():
        if gate in CONTEXT_ONLY:
            if not GATES[gate](None, ctx):   # type: ignore[arg-type]
                continue   # closed for every hand in this context
            gate = None
        for shift, detector in found:
            if gate is None and detector.__name__ in CONTEXT_ONLY:   # behind no reading's gate
                start |= detector(None, ctx) << shift   # type: ignore[arg-type]
            else:
                kept.setdefault(gate, []).append((shift, detector))
    return _detection(ruleset.id, kept, start), packages


@lru_cache(maxsize=256)
def win_tests(ruleset: Ruleset, ctx: WinContext) -> tuple[Callable[[Reading, WinContext], object],
                                                          ...]:
    """The tests (detectors.WIN_READING) of the detectors a hand won in this context runs that
    may find otherwise on another winning tile of the same hand: where none holds on any of
    its readings, every winning tile of the hand is priced alike."""
    checks, _ = _checks(ruleset, ctx.events)
    return tuple(dict.fromkeys(WIN_READING[d.__name__] for found in checks.values()
                               for _, d in found if d.__name__ in WIN_READING))


def _checks(ruleset: Ruleset, events: frozenset[str]
            ) -> tuple[dict[str | None, list[tuple[int, Detector]]], Packages]:
    """The detectors of a plan by their gate (None: ungated), each with its pattern's shift,
    and the packages (see Plan)."""
    checks: dict[str | None, list[tuple[int, Detector]]] = {}
    for p in ruleset.patterns:
        if p.requires or not (p.detect or p.events):
            continue
        if p.events and events.isdisjoint(p.events):
            continue
        detector = DETECTORS[p.detect] if p.detect else always
        gate = GATED.get(p.detect or "")
        checks.setdefault(gate, []).append((COUNT_BITS * p.position, detector))
    shift = {p.id: COUNT_BITS * p.position for p in ruleset.patterns}
    packages = tuple((shift[p.id], tuple(shift[q] for q in p.requires)) for p in ruleset.packages)
    return checks, packages


def _detection(name: str, checks: Mapping[str | None, Sequence[tuple[int, Detector]]],
               start: int = 0) -> Callable[[Reading, WinContext], int]:
    """One function that runs these detectors behind their gates and packs what they find.

    Written out and compiled once per plan, so that scoring a reading is one call with the
    detectors inline, not a loop over them (about a fifth faster). For example:

        def detected(r, ctx):
            key = 0
            n = all_chows(r, ctx)
            if n: key |= n << 0
            if no_chows(r, ctx):
                n = all_pongs(r, ctx)
                if n: key |= n << 6
            return key
    """
    lines = ["def detected(r, ctx):", f"    key = {start}"]
    for gate, found in checks.items():
        indent = "    "
        if gate is not None:
            lines.append(f"    if {gate}(r, ctx):")
            indent = "        "
        shifts: dict[Detector, list[int]] = {}   # a detector several patterns rest on runs once
        for shift, detector in found:
            shifts.setdefault(detector, []).append(shift)
        for detector, at in shifts.items():
            lines += [f"{indent}n = {detector.__name__}(r, ctx)",
                      f"{indent}if n: key |= {' | '.join(f'n << {shift}' for shift in at)}"]
    lines.append("    return key")
    namespace: dict[str, object] = {**DETECTORS, **GATES}
    exec(compile("\n".join(lines), f"<detection plan for {name}>", "exec"), namespace)
    return namespace["detected"]


# --- tick-box mode -----------------------------------------------------------------------


def score_ticks(ticks: Mapping[str, int], ruleset: Ruleset, settings: Settings | None = None,
                by: WinBy = WinBy.DISCARD) -> Score:
    """Price ticked patterns: the found key they stand for (tick_key), then the one selection."""
    settings = settings or default_settings(ruleset)
    unknown = [t for t in ticks if t not in ruleset.by_id]
    if unknown:
        raise HandError([FieldError("ticks", Msg("unknown pattern {pattern} in {rules}",
                                                 pattern=listing(unknown),
                                                 rules=plain(ruleset.name)))])
    items, total, _ = _select(tick_key(ticks, ruleset), ruleset, settings, by)
    return _finish(ruleset, settings, None, items, total)


def score_fan(fan: int, ruleset: Ruleset, settings: Settings | None = None) -> Score:
    """A hand already counted: only the fan total is known (points-only mode)."""
    settings = settings or default_settings(ruleset)
    return _finish(ruleset, settings, None, (), fan)


# --- the selection ---------------------------------------------------------------------


def value(p: Pattern, count: int, settings: Settings) -> int:
    """What a counted pattern adds: its fan per item, the cap for a limit hand, and for a 例牌
    listed at its own value that value or the cap when the cap is lower (rulings 43, 84)."""
    if settings.cap is not None:
        if p.limit:
            return settings.cap
        if p.capped:
            return min(p.fan * count, settings.cap)
    return p.fan * count


def select(present: Mapping[str, int], ruleset: Ruleset, settings: Settings,
           by: WinBy) -> tuple[tuple[Item, ...], int, tuple[int, ...]]:
    """Choose which present patterns count: the allowed set worth the most fan.

    Returns the items (in ruleset order), the total, and a tie-break key that prefers
    the more specific patterns (those listed later in the file). The choice depends only
    on which patterns are present, so it is remembered.
    """
    return _select(key_of(present, ruleset), ruleset, settings, by)


@lru_cache(maxsize=4096)
def _select(found: int, ruleset: Ruleset, settings: Settings,
            by: WinBy) -> tuple[tuple[Item, ...], int, tuple[int, ...]]:
    """select() for the patterns of a found key."""
    present = present_in(found, ruleset)
    by_id, conflicts = ruleset.by_id, ruleset.conflicts
    off = inactive(ruleset, settings.options)
    notes: dict[str, str] = {}
    eligible: list[str] = []
    for pid in present:
        if pid in off:
            notes[pid] = off[pid]
        elif by_id[pid].by is not None and by_id[pid].by is not by:
            notes[pid] = Msg("needs a {way} win", way=way_of(ruleset, by_id[pid].by))
        else:
            eligible.append(pid)
    in_play = frozenset(eligible)
    contested = [pid for pid in eligible if conflicts[pid] & in_play]
    worth = {pid: value(by_id[pid], present[pid], settings) for pid in eligible}
    base = sum(worth[pid] for pid in eligible if pid not in contested)

    best_set = _best_set(contested, worth, {pid: by_id[pid].position for pid in contested},
                         conflicts)
    best_key = _key(best_set, worth, by_id) if contested else None
    counted = {pid for pid in eligible if pid not in contested} | set(best_set)
    chosen = [by_id[pid] for pid in best_set]
    for pid in contested:
        if pid not in counted:
            notes[pid] = _why_not(by_id[pid], chosen, present, settings)
    items = []
    for pid in sorted(present, key=lambda i: by_id[i].position):
        p, n = by_id[pid], present[pid]
        if pid in counted:
            items.append(Item(p, n, worth[pid], True))
        else:
            items.append(Item(p, n, 0, False, notes[pid]))
    total = base + (best_key[0] if best_key else 0)
    key = tuple(sorted((by_id[i].position for i in counted), reverse=True))
    return tuple(items), total, key


def _key(chosen, worth: Mapping[str, int], by_id) -> tuple[int, tuple[int, ...]]:
    """A choice's worth, then its tie-break: the more specific patterns (listed later) first."""
    return (sum(worth[pid] for pid in chosen),
            tuple(sorted((by_id[pid].position for pid in chosen), reverse=True)))


def _best_set(contested: Sequence[str], worth: Mapping[str, int], position: Mapping[str, int],
              conflicts: Mapping[str, frozenset[str]]) -> tuple[str, ...]:
    """Of the contested patterns, the maximal set of patterns no two of which conflict that is
    worth the most fan, ties to the set whose highest position not in the other is its own
    (the order of `_key`'s tie-break, which is that of sorted positions, highest first).

    Exact, and quick for any club's variant: a pattern that conflicts with every other (a
    limit hand, 例牌) is weighed alone against the best of the rest; the rest splits into
    groups that share no conflict, each chosen on its own (worth adds up, and the tie-break
    is decided by the highest position that differs, which lies in one group); within a
    group a branch stops when no choice below it can beat the best found (a bound on worth
    and tie-break both) or when a pattern left out could no longer be blocked (a set that
    leaves out a pattern it does not conflict with is not maximal). The plain search of
    every subset took seconds for one hand under a variant adding 60 patterns.
    """
    pool = frozenset(contested)
    alone = [pid for pid in contested if pool - {pid} <= conflicts[pid]]
    rest = [pid for pid in contested if pid not in alone]
    chosen: list[str] = []
    for group in _groups(rest, conflicts):
        chosen += _best_in_group(group, worth, position, conflicts)
    candidates = [tuple(chosen)] if chosen else []
    candidates += [(pid,) for pid in alone]

    def rank(pids: tuple[str, ...]) -> tuple[int, tuple[int, ...]]:
        return sum(worth[p] for p in pids), tuple(sorted((position[p] for p in pids), reverse=True))
    best = max(candidates, key=rank) if candidates else ()
    order = {pid: i for i, pid in enumerate(contested)}
    return tuple(sorted(best, key=order.__getitem__))   # as contested lists them (the notes' order)


def _groups(pids: Sequence[str], conflicts: Mapping[str, frozenset[str]]) -> list[list[str]]:
    """The patterns split into groups joined by conflicts (connected components)."""
    left, groups = set(pids), []
    for pid in pids:
        if pid not in left:
            continue
        group, todo = [], [pid]
        left.discard(pid)
        while todo:
            here = todo.pop()
            group.append(here)
            for other in conflicts[here] & left:
                left.discard(other)
                todo.append(other)
        groups.append(group)
    return groups


def _best_in_group(group: list[str], worth: Mapping[str, int], position: Mapping[str, int],
                   conflicts: Mapping[str, frozenset[str]]) -> list[str]:
    """`_best_set` within one group of conflicting patterns: a search with its bounds."""
    nodes = sorted(group, key=lambda pid: -position[pid])   # the tie-break's order: found early
    later = [frozenset(nodes[i + 1:]) for i in range(len(nodes))]
    best: list = [None, []]

    def rank(pids) -> tuple[int, tuple[int, ...]]:
        return (sum(max(worth[p], 0) for p in pids),
                tuple(sorted((position[p] for p in pids), reverse=True)))

    def search(k: int, chosen: list[str], blocked: frozenset[str], skipped: list[str]) -> None:
        if best[0] is not None and rank(chosen + [p for p in nodes[k:] if p not in blocked]) <= best[0]:
            return   # nothing below can beat the best (every pattern left added is the bound)
        if k == len(nodes):
            if any(q not in blocked for q in skipped):
                return   # a pattern left out that nothing chosen blocks: not maximal
            key = (sum(worth[p] for p in chosen), rank(chosen)[1])
            if best[0] is None or key > best[0]:
                best[0], best[1] = key, list(chosen)
            return
        pid = nodes[k]
        if pid in blocked:
            search(k + 1, chosen, blocked, skipped)
            return
        now = blocked | conflicts[pid]
        if all(q in now or (conflicts[q] & later[k]) - now for q in skipped):
            chosen.append(pid)
            search(k + 1, chosen, now, skipped)
            chosen.pop()
        if (conflicts[pid] & later[k]) - blocked:   # left out, it may still be blocked below
            search(k + 1, chosen, blocked, skipped + [pid])

    search(0, [], frozenset(), [])
    return best[1]


def _why_not(p: Pattern, chosen: Sequence[Pattern], present: Mapping[str, int],
             settings: Settings) -> str:
    """The reason a present pattern was left out, naming what counted instead."""
    for q in chosen:
        if q.alone:
            return Msg("{pattern} is a limit hand (例牌): no other fan counts beside it",
                       pattern=q.name)
        if p.id in q.includes:
            return Msg("included in {pattern}", pattern=q.name)
        if p.id in q.replaces:
            return Msg("replaced by {pattern}", pattern=q.name)
    for q in chosen:
        if p.group is not None and p.group == q.group:
            mine, theirs = value(p, present[p.id], settings), value(q, present[q.id], settings)
            group = GROUP_WORDS.get(p.group, p.group)
            if mine == theirs:
                return Msg("only one {group} counts: {pattern} is the more specific", group=group,
                           pattern=q.name)
            return Msg("only one {group} counts: {pattern} is worth more", group=group,
                       pattern=q.name)
    for q in chosen:
        if q.id in p.excludes or p.alone:
            return Msg("the hand is worth more without it ({pattern} and the rest count instead)",
                       pattern=q.name)
    return Msg("not counted")


# A pattern group's id as the notes say it ("only one special counts").
GROUP_WORDS = {"special": Text("special", "特殊牌型", "特殊牌型"),
               "tier": Text("tier", "同級番種", "同级番种")}


def _finish(ruleset: Ruleset, settings: Settings, reading: Reading | None,
            items: tuple[Item, ...], total: int) -> Score:
    return tuple.__new__(Score, (ruleset, settings, reading, items,
                                 *_totals(ruleset, settings, total)))


def _totals(ruleset: Ruleset, settings: Settings, total: int) -> tuple[int, int, bool, int]:
    """The total, the capped total, whether it is below the minimum, and the base points."""
    capped = total if settings.cap is None else min(total, settings.cap)
    below = total < settings.min   # ruling 38: the uncapped total meets the minimum
    return total, capped, below, ruleset.curves[settings.curve].points(capped)
