"""The outlook (app/advice/outlook.py), checked by two plain oracles written here.

- exhaustive: every draw sequence on small cases (a few draws), the same model written as a
  plain expectimax, each win priced straight through `calculate`; it agrees to float rounding,
  hands with melds included (MELDED: pongs, kongs exposed and concealed, chows, each family;
  the oracle counts the melds' sets and copies itself);
- Monte Carlo: seeded games played one draw at a time, keeping and throwing tiles as the
  recurrence's own choices say; the recurrence's chance to win lies in the simulation's 99%
  interval. `MAHJONG_OUTLOOK_HANDS` (default 3) plays that many hands a family and shanten
  (3 x 6 families and dials x shanten 0-2 = 54 hands), and two dead waits their exchanges.
"""
from __future__ import annotations

import math
import os
import random
import shlex
from array import array

import pytest

from app.advice import recurrence
from app.advice.outlook import _CACHE, DEFAULT_DRAWS, Search, outlook
from app.advice.recurrence import FAR, READY, Graph, solve
from app.base.errors import HandError
from app.hands.efficiency import shanten
from app.hands.tiles import NUM_KINDS, SUIT_OFFSET, TILES, canonical, tile
from app.rules.loader import registry
from app.vocabulary import score as calculate
from app.vocabulary.discard import calculate_discards, read_draws
from tests.advice.outlook_hands import FAMILIES, dealt
from tests.conftest import build_solver

RULESETS = registry()
HANDS = int(os.environ.get("MAHJONG_OUTLOOK_HANDS", "3"))
GAMES = int(os.environ.get("MAHJONG_OUTLOOK_GAMES", "600"))
Z99 = 2.5758


class Oracle:
    """The model written plainly: shanten from scratch, each win priced by `calculate`."""

    def __init__(self, params: dict[str, str]):
        self.params = params
        self.result = calculate_discards(params, RULESETS)
        ruleset = self.result.ruleset
        self.rules = ruleset.shape_rules(self.result.settings.options)
        self.table = self.result.table
        self.start = tuple(self.result.hand.concealed_counts)
        self.melds = len(self.result.hand.melds)
        # the copies in the player's own melds, claimed or concealed, counted tile by tile
        self.melded = [sum(t == i for meld in self.result.hand.melds for t in meld.tiles)
                       for i in range(NUM_KINDS)]
        self.kinds = range(NUM_KINDS if ruleset.honours else 27)
        self.prices: dict = {}
        self.shantens: dict = {}

    def shanten(self, counts) -> int:
        key = tuple(counts)
        if key not in self.shantens:
            self.shantens[key] = shanten(list(counts), self.melds, self.rules, self.table)
        return self.shantens[key]

    def left(self, counts) -> list[int]:
        """Copies neither seen, nor melded, nor in the starting 14, nor in the hand now (the
        model)."""
        return [max(0, 4 - self.table.seen[i] - self.melded[i] - max(self.start[i], counts[i]))
                if i in self.kinds else 0 for i in range(NUM_KINDS)]

    def price(self, counts, kind) -> float | None:
        """What the winner collects by self-draw on `kind`, or None when it cannot be declared."""
        key = (tuple(counts), kind)
        if key not in self.prices:
            trial = {**self.params, "by": "self-draw", "win": TILES[kind].code,
                     "hand": canonical(TILES[i] for i in range(NUM_KINDS) for _ in range(counts[i]))}
            try:
                calc = calculate(trial, RULESETS)
                won = not calc.score.below_minimum
            except HandError:
                won = False
            self.prices[key] = (float(next(p.amount for p in calc.payments if p.role == "winner"))
                                if won else None)
        return self.prices[key]

    def after_draw(self, counts, kind, s):
        """The 13-tile hands a player may keep after drawing `kind`: the drawn tile thrown, or
        (when it brings the hand closer) any discard that keeps it that close."""
        grown = list(counts)
        grown[kind] += 1
        kept = [tuple(counts)]
        if self.shanten(grown) < s:
            dead = self.missing_held(grown)   # while held, they go first
            for d in range(NUM_KINDS):
                if grown[d] and d != kind and (d in dead or not dead):
                    grown[d] -= 1
                    if self.shanten(grown) == s - 1:
                        kept.append(tuple(grown))
                    grown[d] += 1
            if dead and len(kept) == 1:   # no tile of it keeps the hand that close: any may go
                for d in range(NUM_KINDS):
                    if grown[d] and d != kind:
                        grown[d] -= 1
                        if self.shanten(grown) == s - 1:
                            kept.append(tuple(grown))
                        grown[d] += 1
        return kept

    def wins(self, counts, kind) -> bool:
        grown = list(counts)
        grown[kind] += 1
        return self.shanten(grown) == -1 and self.price(grown, kind) is not None

    def dead(self, counts) -> bool:
        """Ready, but no tile left to draw wins with a hand the rules let be declared."""
        left = self.left(counts)
        return self.shanten(counts) == 0 and not any(
            left[kind] and self.wins(counts, kind) for kind in range(NUM_KINDS))

    def exchanges(self, counts, kind):
        """A dead wait's 13-tile hands after drawing `kind`: the drawn tile thrown, or kept
        for any other discard that leaves a ready hand whose wait is not dead."""
        grown = list(counts)
        grown[kind] += 1
        kept = [tuple(counts)]
        for d in range(NUM_KINDS):
            if grown[d] and d != kind:
                grown[d] -= 1
                if self.shanten(grown) == 0 and not self.dead(grown):
                    kept.append(tuple(grown))
                grown[d] += 1
        return kept

    def missing_held(self, counts) -> list[int]:
        """The kinds of the declared missing suit the hand holds (a kept draw throws one)."""
        if self.table.missing is None:
            return []
        lo = SUIT_OFFSET[self.table.missing]
        return [m for m in range(lo, lo + 9) if counts[m]]

    def exhaustive(self, counts, t) -> tuple[float, float, float]:
        """(value, chance to win, chance to be ready) with t draws left: every sequence."""
        s = self.shanten(counts)
        if t == 0:
            return 0.0, 0.0, float(s == 0)
        left = self.left(counts)
        total = sum(left)
        dead = self.dead(counts)
        value = win = ready = 0.0
        for kind in range(NUM_KINDS):
            if not left[kind]:
                continue
            p = left[kind] / total
            grown = list(counts)
            grown[kind] += 1
            if s == 0 and self.wins(counts, kind):
                outcome = (self.price(grown, kind), 1.0, 1.0)
            elif dead:
                outcome = max(self.exhaustive(kept, t - 1)
                              for kept in self.exchanges(counts, kind))
            elif s == 0:
                outcome = self.exhaustive(counts, t - 1)
            else:
                outcome = max(self.exhaustive(kept, t - 1)
                              for kept in self.after_draw(counts, kind, s))
            value += p * outcome[0]
            win += p * outcome[1]
            ready += p * outcome[2]
        return value, win, (1.0 if s == 0 else ready)

    def play(self, counts, draws, search: Search, rng: random.Random) -> tuple[bool, float]:
        """One game: draw, keep or throw as the recurrence's figures choose; (won, collected)."""
        counts = tuple(counts)
        for t in range(draws, 0, -1):
            left = self.left(counts)
            kind = rng.choices(range(NUM_KINDS), weights=left)[0]
            s = self.shanten(counts)
            grown = list(counts)
            grown[kind] += 1
            if s == 0 and self.wins(counts, kind):
                return True, self.price(grown, kind)
            if s == 0 and not self.dead(counts):
                continue
            kept_ones = (self.exchanges(counts, kind) if s == 0 else
                         self.after_draw(counts, kind, s))
            counts = max(kept_ones, key=lambda kept: (
                search.chances(kept).value[t - 1], search.chances(kept).win[t - 1],
                search.chances(kept).ready[t - 1]))
        return False, 0.0


def _search(oracle: Oracle, draws: int) -> Search:
    return Search.of(oracle.result, draws, RULESETS, 10**6, 10**6)


def _after(oracle: Oracle, tile_code: str) -> tuple[int, ...]:
    counts = list(oracle.start)
    counts[tile(tile_code)] -= 1
    return tuple(counts)


# hands with melds, each family: the melded copies are the player's own, never drawn (a pong
# or chow beside a wait on its tiles, a kong that leaves a wait no copy; Sichuan has no chows)
MELDED = [
    ({"rules": "hong-kong", "hand": "123m46p789s11z7z", "melds": "555p"}, "7z", 3),
    ({"rules": "hong-kong", "hand": "123m46p789s11z7z", "melds": "5555p"}, "7z", 2),
    ({"rules": "hong-kong", "hand": "123m456p78s22z5z", "melds": "ckong:9999s"}, "5z", 3),
    ({"rules": "hong-kong", "hand": "123m456p78s22z5z", "melds": "789s"}, "5z", 3),
    ({"rules": "hong-kong", "hand": "13m666z78s22z57z", "melds": "222m",
      "min": "1"}, "7z", 3),
    ({"rules": "sichuan", "hand": "123m456m46p77p9p", "melds": "555p", "missing": "s"}, "9p", 3),
    ({"rules": "sichuan", "hand": "123m45m789p77p9p", "melds": "kong:6666m", "missing": "s"},
     "9p", 3),
    ({"rules": "sichuan", "hand": "789m45m789p77p9p", "melds": "ckong:3333m", "missing": "s"},
     "9p", 3),
    ({"rules": "sichuan", "hand": "13m456m78p2356p", "melds": "222m", "missing": "s"}, "6p", 3),
    ({"rules": "sichuan-sbr", "hand": "123m456m46p77p9p", "melds": "555p", "missing": "s"},
     "9p", 3),
    ({"rules": "sichuan-sbr", "hand": "123m45m789p77p9p", "melds": "kong:6666m", "missing": "s"},
     "9p", 3),
    ({"rules": "sichuan-sbr", "hand": "789m45m789p77p9p", "melds": "ckong:3333m",
      "missing": "s"}, "9p", 3),
    ({"rules": "family", "hand": "123m46p789s11z7z", "melds": "555p"}, "7z", 3),
    ({"rules": "family", "hand": "123m46p789s11z7z", "melds": "kong:5555p"}, "7z", 2),
    ({"rules": "family", "hand": "123m456p78s22z5z", "melds": "ckong:9999s"}, "5z", 3),
    ({"rules": "family", "hand": "123m456p78s22z5z", "melds": "789s"}, "5z", 3),
    ({"rules": "hong-kong-course", "hand": "123m46p789s11z7z", "melds": "555p"}, "7z", 3),
    ({"rules": "hong-kong-course", "hand": "123m46p789s11z7z", "melds": "5555p"}, "7z", 2),
    ({"rules": "hong-kong-course", "hand": "555z456p78s22z1m", "melds": "ckong:9999s"}, "1m",
     3),
    ({"rules": "hong-kong-course", "hand": "123m456p78s22z5z", "melds": "789s"}, "5z", 3),
    ({"rules": "hong-kong-course", "hand": "123m78s22z5z", "melds": "555p,ckong:1111z"},
     "5z", 3),
]

SMALL = [  # (params, discard, draws): small enough to enumerate every draw sequence
    ({"rules": "hong-kong", "hand": "123m456p789s11z22z7z"}, "7z", 3),
    ({"rules": "hong-kong", "hand": "123m456p789s11z22z7z", "min": "5"}, "7z", 3),
    ({"rules": "hong-kong", "hand": "123m456p78s1122z57z"}, "5z", 2),
    ({"rules": "sichuan", "hand": "123m456m789p23555p", "missing": "s"}, "5p", 3),
    ({"rules": "sichuan", "hand": "123m456m789p2356p1s", "missing": "s"}, "1s", 2),
    # the missing suit held after the discard: it goes first, whatever is drawn
    ({"rules": "sichuan", "hand": "123m456m789p2356p1s", "missing": "s"}, "6p", 3),
    ({"rules": "sichuan", "hand": "123m456m789p235p19s", "missing": "s"}, "9s", 2),
    ({"rules": "family", "hand": "1199m2288p3377s4z5z"}, "5z", 2),
    # ready now, but no wait reaches the minimum: the dead wait's exchanges
    ({"rules": "family", "hand": "44455599m12s4447z", "min": "5"}, "7z", 2),
    ({"rules": "hong-kong", "hand": "888m1155568888p8s", "min": "5"}, "8s", 2),
    ({"rules": "hong-kong-course", "hand": "111m466888p44555z", "min": "5"}, "6p", 2),
    *MELDED,
]


@pytest.mark.parametrize("params, discard, draws", SMALL)
def test_the_recurrence_agrees_with_every_draw_sequence_enumerated(params, discard, draws):
    oracle = Oracle(params)
    counts = _after(oracle, discard)
    value, win, ready = oracle.exhaustive(counts, draws)
    found = _search(oracle, draws).chances(counts)
    assert found.value[draws] == pytest.approx(value, rel=1e-12, abs=1e-12)
    assert found.win[draws] == pytest.approx(win, rel=1e-12, abs=1e-12)
    assert found.ready[draws] == pytest.approx(ready, rel=1e-12, abs=1e-12)


ONE_DRAW = [  # hands with melds (and tiles seen): the outlook's pool against the table's
    {"rules": "hong-kong", "hand": "123m46p789s11z7z", "melds": "555p", "seen": "6p"},
    {"rules": "hong-kong", "hand": "123m456p78s22z5z", "melds": "789s", "seen": "9s1z"},
    {"rules": "family", "hand": "123m456p78s22z5z", "melds": "ckong:9999s", "seen": "6s"},
    {"rules": "sichuan", "hand": "123m45m789p77p9p", "melds": "kong:6666m", "missing": "s",
     "seen": "3m7p"},
    {"rules": "sichuan-sbr", "hand": "13m456m78p2356p", "melds": "222m", "missing": "s"},
    {"rules": "hong-kong-course", "hand": "123m78s22z5z", "melds": "555p,ckong:1111z",
     "seen": "9s"},
]


@pytest.mark.parametrize("params", ONE_DRAW)
def test_one_draw_chances_are_the_tables_copies_left_over_the_tiles_not_the_players(params):
    """Over one draw, the chance to win (ready) is the table's winning (improving) copies left
    over every tile neither the player's own (concealed, melded: a kong's four) nor seen."""
    result = calculate_discards({**params, "by": "self-draw"}, RULESETS)
    hand = result.hand
    own = len(hand.concealed) + sum(len(meld.tiles) for meld in hand.melds)
    pool = 4 * (NUM_KINDS if result.ruleset.honours else 27) - own - sum(result.table.seen)
    weighed = [o for o in outlook(result, 1, RULESETS).choices if o.chances]
    assert any(o.win > 0 or 0 < o.ready < 1 for o in weighed)   # some figure is not 0 or 1
    for o in weighed:
        if o.choice.ready:
            assert o.win == pytest.approx(sum(w.left for w in o.choice.waits if w.wins) / pool)
        else:   # one tile from ready: an improving draw makes it ready; further, nothing can
            assert o.win == 0
            near = o.choice.option.shanten == 1
            assert o.ready == pytest.approx(o.choice.option.left / pool if near else 0)


def test_a_ready_hand_below_the_minimum_is_worth_nothing_and_never_wins():
    oracle = Oracle({"rules": "hong-kong", "hand": "123m456p789s11z22z7z", "min": "13"})
    chances = _search(oracle, 5).chances(_after(oracle, "7z"))
    assert chances.ready[5] == 1.0 and chances.win[5] == 0.0 and chances.value[5] == 0.0


DEAD_WAITS = [  # ready after the discard, but no wait reaches the minimum
    ({"rules": "family", "hand": "44455599m12s4447z", "min": "5"}, "7z"),
    ({"rules": "hong-kong", "hand": "888m1155568888p8s", "min": "5"}, "8s"),
]


@pytest.mark.parametrize("params, discard", DEAD_WAITS)
def test_a_dead_wait_can_still_win_by_an_exchange_and_says_so(params, discard):
    found = _outlook(**params)
    dead = next(o for o in found.choices if o.tile.code == discard)
    assert dead.choice.ready and not dead.choice.can_win
    assert dead.win > 0 and dead.value > 0
    assert any(r.startswith("ready now but ") and "-fan minimum" in r for r in dead.reasons)
    assert "it can still win by keeping a draw for a wait that can be declared" in dead.reasons


# each family at its own dials, and Hong Kong at a 6-fan minimum, where many wins are refused
DIALS = [(rules, {}) for rules in FAMILIES] + [("hong-kong", {"min": "6"})]
MONTE_CARLO = [(rules, dials, shanten, i) for rules, dials in DIALS for shanten in (0, 1, 2)
               for i in range(HANDS)]


@pytest.mark.parametrize("rules, dials, shanten, i", MONTE_CARLO)
def test_simulated_games_agree_with_the_chance_to_win(rules, dials, shanten, i):
    params = {**dealt(rules, shanten, HANDS, RULESETS)[i], **dials}
    oracle = Oracle(params)
    best = oracle.result.choices[0]   # the usual order's first discard: the efficient one
    _simulate(oracle, best.tile.code, f"{rules}-{shanten}-{i}")


@pytest.mark.parametrize("params, discard", DEAD_WAITS)
def test_simulated_games_agree_on_a_dead_waits_exchanges(params, discard):
    _simulate(Oracle(params), discard, params["hand"])


@pytest.mark.parametrize("params, discard", [
    ({"rules": "hong-kong", "hand": "123m456p78s22z5z", "melds": "789s"}, "5z"),
    ({"rules": "family", "hand": "123m46p789s11z7z", "melds": "kong:5555p"}, "7z"),
    ({"rules": "sichuan", "hand": "13m456m78p2356p", "melds": "222m", "missing": "s"}, "6p"),
    ({"rules": "hong-kong-course", "hand": "123m78s22z5z", "melds": "555p,ckong:1111z"}, "5z"),
])
def test_simulated_games_agree_on_hands_with_melds(params, discard):
    """Over 12 draws, where the melded copies left out of the wall weigh most."""
    _simulate(Oracle(params), discard, params["hand"] + params["melds"])


CLEARING = [  # the declared missing suit still held after the discard: it goes first
    ({"rules": "sichuan", "hand": "123m456m789p2356p1s", "missing": "s"}, "6p"),
    ({"rules": "sichuan-sbr", "hand": "113m456m78p2356p19s", "missing": "s"}, "1m"),
]


@pytest.mark.parametrize("params, discard", CLEARING)
def test_simulated_games_agree_while_the_missing_suit_goes_first(params, discard):
    _simulate(Oracle(params), discard, params["hand"])


@pytest.mark.parametrize("params, discard", CLEARING)
def test_a_tile_of_the_missing_suit_is_ranked_first_as_in_the_usual_order(params, discard):
    found = _outlook(**params)
    assert found.choices[0].choice.must_go
    assert [o.choice.must_go for o in found.choices] == sorted(
        (o.choice.must_go for o in found.choices), reverse=True)


def _simulate(oracle: Oracle, discard: str, seed: str, draws: int = 12) -> None:
    search = _search(oracle, draws)
    counts = _after(oracle, discard)
    expected = search.chances(counts)
    rng = random.Random(seed)
    played = [oracle.play(counts, draws, search, rng) for _ in range(GAMES)]
    wins = sum(won for won, _ in played)
    p = expected.win[draws]
    half = Z99 * math.sqrt(max(p * (1 - p), 1e-9) / GAMES) + 1 / GAMES
    assert abs(wins / GAMES - p) <= half, (oracle.params, discard, wins, p)


# --- the answer as a whole ------------------------------------------------------------------


def _outlook(**params):
    return outlook(calculate_discards(params, RULESETS), read_draws(params), RULESETS)


def test_discards_are_ranked_by_expected_value_then_chance_to_win():
    found = _outlook(rules="hong-kong", hand="123m456p78s1122z57z")
    weighed = [o for o in found.choices if o.chances]
    keys = [(-round(o.value, 9), -round(o.win, 12)) for o in weighed]
    assert keys == sorted(keys) and not found.bounded
    assert [o for o in found.choices if not o.chances] == list(found.choices[len(weighed):])


def test_a_hand_past_the_bound_keeps_the_usual_order_and_says_so():
    result = calculate_discards({"rules": "hong-kong", "hand": "1379m1379p1379s13z"}, RULESETS)
    found = outlook(result, DEFAULT_DRAWS, RULESETS)
    assert result.shanten > 2 and "past the bound" in found.bounded
    assert [o.tile for o in found.choices] == [c.tile for c in result.choices]


def test_more_work_than_the_budget_gives_the_usual_order_and_says_so():
    result = calculate_discards({"rules": "hong-kong", "hand": "123m456p78s1122z57z"}, RULESETS)
    found = outlook(result, DEFAULT_DRAWS, RULESETS, max_states=20)
    assert "more work than one request may do" in found.bounded
    assert [o.tile for o in found.choices] == [c.tile for c in result.choices]
    assert all(o.chances is None for o in found.choices)


def test_more_draws_never_lower_the_chances():
    found = _outlook(rules="sichuan", hand="123m456m789p2356p1s", missing="s")
    for o in found.choices:
        if o.chances:
            for series in o.chances:
                assert all(a <= b + 1e-12 for a, b in zip(series, series[1:], strict=False))


@pytest.mark.parametrize("raw", ["0", "31", "abc", "-1", "1000"])
def test_a_number_of_draws_out_of_range_is_refused_on_its_field(raw):
    with pytest.raises(HandError) as err:
        read_draws({"draws": raw})
    assert err.value.errors[0].field == "draws"


@pytest.mark.parametrize("minimum", ["", "5"])
def test_a_slower_flush_can_be_worth_more_than_the_quick_discard(minimum):
    params = {"rules": "hong-kong", "hand": "123333667p57s667z", "min": minimum}
    result = calculate_discards(params, RULESETS)
    found = outlook(result, 12, RULESETS)
    quick = next(o for o in found.choices if o.tile == result.choices[0].tile)
    best = found.choices[0]
    assert result.choices[0].tile.code == "7z" and best.tile.code == "5s"
    assert best.choice.option.shanten > quick.choice.option.shanten
    assert best.value > 3 * quick.value and best.value > 0
    assert any("worth more than 7z, the usual first choice" in r for r in best.reasons)


def test_the_flush_discard_says_which_patterns_it_keeps_alive_and_the_quick_one_gives_up():
    params = {"rules": "hong-kong", "hand": "123333667p57s667z"}
    result = calculate_discards(params, RULESETS)
    found = outlook(result, 12, RULESETS)
    best, quick = found.choices[0], next(o for o in found.choices if o.tile.code == "7z")
    flush = str(RULESETS["hong-kong"].pattern("half-flush").name)
    assert "half-flush" in best.alive and "half-flush" not in quick.alive
    assert f"keeps {flush} alive" in best.reasons
    assert f"gives up {flush}" in quick.reasons


def test_the_same_hand_written_two_ways_is_one_cache_entry():
    written = [{"rules": "hong-kong", "hand": "123m456p78s1122z57z", "seen": "1z5z"},
               {"rules": "hong-kong", "hand": "7z5z2z2z1z1z8s7s6p5p4p3m2m1m", "seen": "5z1z",
                "min": "3", "by": "discard"}]   # the tiles reversed, one by one; the default minimum
    results = [calculate_discards(params, RULESETS) for params in written]
    first, second = (outlook(r, 9, RULESETS) for r in results)
    assert second is first   # the second asked is the first's answer, from the cache
    other = calculate_discards({**written[0], "min": "4"}, RULESETS)
    assert outlook(other, 9, RULESETS) is not first   # other dials, another entry


def _searched_graphs(rules: str):
    """The graphs searched over every discard of dealt 1- and 2-shanten hands of a family."""
    for far in (1, 2):
        for params in dealt(rules, far, 2, RULESETS):
            graph = _searched_graph(params)
            assert len(graph.kind) > 20
            yield graph


def _searched_graph(params: dict):
    """The graph searched over every discard of a hand, its wins priced (dead waits moved)."""
    oracle = Oracle(params)
    search = _search(oracle, DEFAULT_DRAWS)
    weighed = [_after(oracle, c.tile.code) for c in oracle.result.choices if c.option.shanten <= 2]
    for after in weighed:
        search.search(after)
    search.chances(weighed[0])   # the pending wins priced, and the graph solved once
    return search.graph


# dealt hands whose dead waits, moved to their exchanges once the walk is done, lead to states
# finished later than the dead wait was: the finishing order is made again (Graph.order)
MOVED = [{"rules": "sichuan", "hand": "2599m3335567777p", "missing": "s"},
         {"rules": "sichuan-sbr", "hand": "5567m1233334567p", "missing": "s"},
         {"rules": "sichuan-sbr", "hand": "7999m1233334888p", "missing": "s"},
         {"rules": "sichuan-sbr", "hand": "558m11266677778p", "missing": "s"}]


@pytest.mark.parametrize("params", MOVED, ids=[p["hand"] for p in MOVED])
def test_the_solvers_agree_once_dead_waits_are_moved_to_their_exchanges(params):
    """The compiled and plain solvers follow the finishing order, numpy does not: on a graph
    whose states moved, all three give the same figures on every state only if the order is
    made again (the plain one refuses a choice not finished before it is read)."""
    graph = _searched_graph(params)
    plain, arrays = solve(graph, plain=True), solve(graph, compiled=False)
    compiled = solve(graph) if recurrence.solver_compiled() is not None else plain
    for i in range(len(graph.kind)):
        assert compiled.chances(i) == plain.chances(i) == arrays.chances(i), i


@pytest.mark.parametrize("rules", FAMILIES)
def test_the_array_solver_and_the_plain_one_agree_to_the_last_bit(rules):
    """recurrence.py's three solvers (compiled, numpy, and plain Python) do the same operations
    in the same order, on every state searched of dealt 1- and 2-shanten hands. numpy is a
    dependency, so it runs wherever the suite does; the compiled one wherever a C compiler is
    on PATH (`make` builds it then: its absence there fails here)."""
    compiler = build_solver().compiler()
    if compiler is not None:
        assert recurrence.solver_compiled() is not None, \
            f"{compiler[0]} is on PATH, but app/advice/_recurrence.so is not built: make install"
    for graph in _searched_graphs(rules):
        arrays, plain = solve(graph, compiled=False), solve(graph, plain=True)
        assert arrays._table is not None and plain._rows is not None   # each the one asked
        compiled = solve(graph) if compiler is not None else plain
        assert compiler is None or compiled._flat is not None
        for i in range(len(graph.kind)):
            assert compiled.chances(i) == plain.chances(i) == arrays.chances(i)


def test_the_compiled_solver_is_built_wherever_a_c_compiler_is():
    """`make install` (and a wheel's build) compiles _recurrence.c wherever a C compiler is on
    PATH; where none is, the solve falls back (the test below), and this says so."""
    compiler = build_solver().compiler()
    if compiler is None:
        pytest.skip("no C compiler on PATH: the compiled solver is not built here")
    assert recurrence.solver_compiled() is not None, shlex.join(compiler)


def test_the_solve_falls_back_to_numpy_then_plain_python_where_the_library_does_not_load(
        monkeypatch):
    """Without the compiled library (no C compiler where it was installed) the outlook solves
    with numpy, and without numpy in plain Python: the same figures, the same advice."""
    params = {"rules": "hong-kong", "hand": "123m456p78s1122z57z", "seen": "1z5z"}
    oracle = Oracle(params)
    search = _search(oracle, DEFAULT_DRAWS)
    search.search(_after(oracle, "5z"))
    graph = search.graph
    expected = [solve(graph, plain=True).chances(i) for i in range(len(graph.kind))]
    first = outlook(calculate_discards(params, RULESETS), DEFAULT_DRAWS, RULESETS)
    monkeypatch.setattr(recurrence, "solver_compiled", lambda: None)
    arrays = solve(graph)
    assert arrays._table is not None
    assert [arrays.chances(i) for i in range(len(graph.kind))] == expected
    monkeypatch.setattr(recurrence, "numpy", lambda: None)
    plain = solve(graph)
    assert plain._rows is not None
    assert [plain.chances(i) for i in range(len(graph.kind))] == expected
    _CACHE.clear()
    again = outlook(calculate_discards(params, RULESETS), DEFAULT_DRAWS, RULESETS)
    assert again is not first and again == first


def test_the_compiled_solver_refuses_a_graph_out_of_order_rather_than_read_what_is_not_solved():
    """A choice read before its state is finished (or an index out of range) is refused with a
    ValueError: the compiled solver never reads figures not yet worked out."""
    if recurrence.solver_compiled() is None:
        pytest.skip("the compiled solver is not built here")
    graph = Graph(3)
    ready = graph.state(READY, p_win=0.5, gain=2.0)
    far = graph.state(FAR, [0.25], [graph.choice([ready])])
    assert solve(graph).chances(far) == solve(graph, plain=True).chances(far)
    graph.done = array("i", [~0, ready, far])   # the choice before the state it keeps
    with pytest.raises(ValueError, match="out of order"):
        solve(graph)
    graph.done = array("i", [ready, ~0, far])
    graph.members[0] = 7   # a state that is not there
    with pytest.raises(ValueError, match="out of its range"):
        solve(graph)
