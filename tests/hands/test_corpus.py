"""Agreement with the reference corpus (answers of the `mahjong` library, riichi rules).

For standard four-sets-plus-a-pair shapes every rule family agrees with the library.
Where our families differ (Sichuan: seven pairs may hold four alike, no thirteen orphans,
no honours at all), the tests below state the difference instead of hiding it.
"""
from __future__ import annotations

from app.hands.hand import Hand, Meld, MeldKind
from app.hands.readings import Shape, ShapeRules, is_complete, readings, waits
from app.hands.tiles import parse_tiles, tile
from tests.conftest import load_corpus
from tests.strategies import naive_complete

RIICHI = ShapeRules(seven_pairs=True, seven_pairs_quads=False, thirteen_orphans=True)
SICHUAN = ShapeRules(seven_pairs=True, seven_pairs_quads=True, thirteen_orphans=False)

COMPLETE_STANDARD = load_corpus("complete_standard.json")
COMPLETE_CHIITOI = load_corpus("complete_chiitoi.json")
TENPAI = load_corpus("tenpai.json")
RANDOM13 = load_corpus("random13.json")


def corpus_hand(entry: dict) -> Hand:
    """Build a Hand from a corpus entry (chi/pon/kan melds; a closed kan is concealed)."""
    melds = []
    for m in entry["melds"]:
        kind = {"chi": MeldKind.CHOW, "pon": MeldKind.PONG}.get(m["type"])
        if kind is None:
            kind = MeldKind.KONG if m["opened"] else MeldKind.CKONG
        melds.append(Meld(kind, tuple(sorted(parse_tiles(m["tiles"])))))
    return Hand(concealed=tuple(sorted(parse_tiles(entry["concealed"]))), melds=tuple(melds),
                win=tile(entry["win_tile"]))


def groupings(hand: Hand, rules: ShapeRules, shape: Shape) -> set[tuple[str, ...]]:
    return {tuple(sorted(r.grouping)) for r in readings(hand, rules) if r.shape is shape}


def test_the_standard_corpus_contains_hands_with_declared_kongs_and_several_readings():
    assert any(any(m["type"] == "kan" for m in e["melds"]) for e in COMPLETE_STANDARD)
    assert any(len(e["decompositions"]) > 1 for e in COMPLETE_STANDARD)


def test_the_corpus_is_all_there():
    assert (len(COMPLETE_STANDARD), len(COMPLETE_CHIITOI), len(TENPAI), len(RANDOM13)) == (
        2000, 500, 2000, 2000)


def test_standard_decompositions_agree_with_the_library_on_every_hand():
    disagreements = []
    for entry in COMPLETE_STANDARD:
        hand = corpus_hand(entry)
        ours = groupings(hand, RIICHI, Shape.STANDARD) | groupings(hand, RIICHI, Shape.SEVEN_PAIRS)
        theirs = {tuple(sorted(d)) for d in entry["decompositions"]}
        if ours != theirs:
            disagreements.append((entry["tiles"], ours, theirs))
    assert not disagreements, disagreements[:3]


def test_every_reading_of_a_corpus_hand_uses_its_tiles_and_is_the_same_under_sichuan_shapes():
    for entry in COMPLETE_STANDARD:
        hand = corpus_hand(entry)
        assert is_complete(hand.concealed_counts, len(hand.melds), RIICHI)
        assert groupings(hand, SICHUAN, Shape.STANDARD) == groupings(hand, RIICHI, Shape.STANDARD)


def test_seven_pairs_hands_agree_with_the_library():
    for entry in COMPLETE_CHIITOI:
        hand = corpus_hand(entry)
        ours = groupings(hand, RIICHI, Shape.SEVEN_PAIRS) | groupings(hand, RIICHI, Shape.STANDARD)
        assert ours == {tuple(sorted(d)) for d in entry["decompositions"]}, entry["tiles"]


def test_seven_pairs_are_not_a_shape_where_the_rules_leave_them_out():
    no_pairs = ShapeRules(seven_pairs=False, thirteen_orphans=False)
    for entry in COMPLETE_CHIITOI[:100]:
        hand = corpus_hand(entry)
        assert not groupings(hand, no_pairs, Shape.SEVEN_PAIRS)


def test_waits_agree_with_the_library_on_every_ready_hand():
    disagreements = []
    for entry in TENPAI:
        ready = Hand(concealed=tuple(sorted(parse_tiles(entry["hand"]))))
        ours = [w.tile.code for w in waits(ready, RIICHI)]
        if sorted(ours, key=lambda c: tile(c)) != sorted(entry["waits"], key=lambda c: tile(c)):
            disagreements.append((entry["hand"], ours, entry["waits"]))
    assert not disagreements, disagreements[:3]


def _special_only(counts: list[int], rules: ShapeRules) -> bool:
    return is_complete(counts, 0, rules) and not is_complete(
        counts, 0, ShapeRules(seven_pairs=False, thirteen_orphans=False))


def test_sichuan_waits_differ_from_the_library_only_by_quads_in_seven_pairs_and_no_orphans():
    gained = lost = 0
    for entry in TENPAI:
        ready = Hand(concealed=tuple(sorted(parse_tiles(entry["hand"]))))
        ours = {w.tile.code for w in waits(ready, SICHUAN)}
        theirs = set(entry["waits"])
        for code in ours - theirs:      # four alike as two pairs: only Sichuan wins on these
            counts = ready.concealed_counts
            counts[tile(code).index] += 1
            assert 4 in counts and _special_only(counts, SICHUAN), (entry["hand"], code)
            gained += 1
        for code in theirs - ours:      # thirteen orphans: not a Sichuan hand
            counts = ready.concealed_counts
            counts[tile(code).index] += 1
            assert _special_only(counts, RIICHI), (entry["hand"], code)
            lost += 1
    kokushi = sum(len(e["waits"]) for e in TENPAI if e["source"] == "kokushi")
    assert lost == kokushi and lost > 0
    assert gained > 0  # the corpus holds such hands: the difference is exercised


def test_a_random_hand_is_ready_exactly_when_the_library_counts_it_zero_shanten():
    disagreements = []
    for entry in RANDOM13:
        ready = Hand(concealed=tuple(sorted(parse_tiles(entry["hand"]))))
        if bool(waits(ready, RIICHI)) != (entry["shanten"] == 0):
            disagreements.append(entry)
    # The library counts a hand ready even when every copy of its wait is in the hand;
    # we do not (INTERFACE: such a tile is no wait). Each disagreement must be that case:
    # only a fifth copy of a tile held four times would complete it.
    for entry in disagreements:
        assert entry["shanten"] == 0, entry
        counts = Hand(concealed=parse_tiles(entry["hand"])).concealed_counts
        fours = [i for i, c in enumerate(counts) if c == 4]
        assert any(naive_complete(counts[:i] + [5] + counts[i + 1:]) for i in fours), entry
