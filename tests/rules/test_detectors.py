"""Detector gates: scoring skips the detectors behind a closed gate, so a closed gate must
never hide a pattern one of its detectors would find."""
from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from app.hands.hand import Hand, WinBy, WinContext
from app.hands.readings import ShapeRules, meld_group, readings, readings_of
from app.hands.tiles import TILES
from app.rules.detectors import DETECTORS, GATED, GATES, WIN_READING
from app.rules.loader import registry
from app.vocabulary.hand import parse_hand
from tests.conftest import load_corpus
from tests.hands.test_corpus import corpus_hand
from tests.strategies import complete_hands

EVERY_SHAPE = ShapeRules(seven_pairs=True, seven_pairs_quads=True, thirteen_orphans=True)
BONUS = st.lists(st.integers(1, 4), unique=True, max_size=4).map(lambda n: tuple(sorted(n)))
CONTEXTS = st.builds(WinContext, by=st.sampled_from(list(WinBy)), seat=st.sampled_from("ESWN"),
                     round=st.sampled_from("ESWN"), flowers=BONUS, seasons=BONUS)
TABLE_CONTEXTS = (WinContext(), WinContext(WinBy.SELF_DRAW, "S", "W", (2,), ()),
                  WinContext(WinBy.DISCARD, "N", "N", (1, 2, 3, 4), (4,)))


def closed_gates_hiding_patterns(hand: Hand, ctx: WinContext, tally: Counter) -> list[str]:
    """Every (gate, detector) where the gate was closed yet the detector fired."""
    wrong = []
    for reading in readings(hand, EVERY_SHAPE):
        for detector, gate in GATED.items():
            open_, fired = GATES[gate](reading, ctx), DETECTORS[detector](reading, ctx)
            tally[gate, open_] += 1
            tally[detector, bool(fired)] += 1
            if fired and not open_:
                wrong.append(f"{gate} closed on {hand.description} but {detector} fired")
    return wrong


def test_every_gated_detector_and_gate_exists():
    assert set(GATED) <= set(DETECTORS)
    assert set(GATED.values()) == set(GATES)


def example_hands() -> list[Hand]:
    """The example hand of every pattern of every ruleset (limit hands among them)."""
    return [parse_hand(p.example) for rs in registry().values() for p in rs.patterns
            if "hand" in p.example]


def test_no_closed_gate_hides_a_pattern_in_the_corpus_or_the_examples():
    tally: Counter = Counter()
    hands = [corpus_hand(e) for e in load_corpus("complete_standard.json")
             + load_corpus("complete_chiitoi.json")]
    wrong = [w for hand in hands for ctx in TABLE_CONTEXTS
             for w in closed_gates_hiding_patterns(hand, ctx, tally)]
    wrong += [w for hand in example_hands()
              for w in closed_gates_hiding_patterns(hand, hand.context, tally)]
    assert wrong == []
    # not vacuous: every gate is both open and closed somewhere, and every gated detector fires
    assert all(tally[gate, True] and tally[gate, False] for gate in GATES)
    assert [d for d in GATED if not tally[d, True]] == []


@settings(max_examples=300)
@given(complete_hands(), CONTEXTS)
def test_no_closed_gate_hides_a_pattern_in_generated_hands(hand, ctx):
    assert closed_gates_hiding_patterns(hand, ctx, Counter()) == []


def mixed_terminals_found(description: str) -> bool:
    hand = parse_hand({"hand": description})
    return any(DETECTORS["terminals_and_honours"](r, hand.context) for r in readings(hand))


def test_mixed_terminals_needs_a_terminal_and_an_honour_but_not_both_a_one_and_a_nine():
    # ruling 80: the two kinds are terminals (1 or 9) and honours
    assert mixed_terminals_found("111m111p111s777z22z")      # 1s, no 9
    assert mixed_terminals_found("999m999p999s777z22z")      # 9s, no 1
    assert mixed_terminals_found("111m999p111s777z22z")
    assert not mixed_terminals_found("111z222z555z666z77z")  # all honours
    assert not mixed_terminals_found("111m999m111p999p11s")  # all terminals


def winning_tile_changes(hand: Hand, ctx: WinContext, varied: Counter) -> list[str]:
    """Every detector that finds otherwise on one split of the hand for another of its tiles
    as the winning tile where WIN_READING does not say it may (not listed, or its test fails
    on the split); `varied` counts the listed ones that did."""
    own = bytearray(34)
    for t in hand.concealed:
        own[t] += 1
    groups = tuple(map(meld_group, hand.melds))
    splits: dict[tuple, list] = {}
    for kind in sorted(set(hand.concealed)):
        for reading in readings_of(bytes(own), TILES[kind], groups, EVERY_SHAPE):
            splits.setdefault((reading.shape, reading.groups), []).append(reading)
    wrong = []
    for split in splits.values():
        for name, detector in DETECTORS.items():
            if len({detector(r, ctx) for r in split}) > 1:
                test = WIN_READING.get(name)
                if test is None or not all(test(r, ctx) for r in split):
                    wrong.append(f"{name} reads the winning tile on {hand.description}")
                varied[name] += 1
    return wrong


# hands on which the detectors that read the winning tile find otherwise for another one:
# nine gates won on the extra tile or not, pongs won on the pair or on a pong
WINNING_TILE_HANDS = ({"hand": "11123455678999m", "win": "5m"},
                      {"hand": "111m222p333s44m555s", "win": "4m"},
                      {"hand": "111m222p333s44z555z", "win": "1m"})


def test_a_detector_reads_the_winning_tile_only_where_win_reading_says():
    """A hand won on one of its tiles or another is read in the same splits; on each split,
    every detector finds the same whichever tile won, but those WIN_READING lists, and those
    only where its test holds (counts_pricer then prices every winning tile of a hand at once).
    Not vacuous: each one listed is seen to find otherwise."""
    varied: Counter = Counter()
    hands = [corpus_hand(e) for e in load_corpus("complete_standard.json")[::4]
             + load_corpus("complete_chiitoi.json")[::4]]
    hands += example_hands() + [parse_hand(h) for h in WINNING_TILE_HANDS]
    contexts = TABLE_CONTEXTS + (WinContext(WinBy.DISCARD),)
    wrong = [w for hand in hands for ctx in contexts + (hand.context,)
             for w in winning_tile_changes(hand, ctx, varied)]
    assert wrong == []
    assert sorted(varied) == sorted(WIN_READING), varied


@settings(max_examples=300)
@given(complete_hands(), CONTEXTS)
def test_a_detector_reads_the_winning_tile_only_where_win_reading_says_in_generated_hands(
        hand, ctx):
    assert winning_tile_changes(hand, ctx, Counter()) == []
