"""The shipped corpus holds the oracle's answers, and its generator draws hands our core agrees on.

tests/data/make_corpus.py recomputes every answer field with the `mahjong` library (the oracle,
pinned in the test extra); a corpus drawn afresh with another seed is held to the same agreement
checks as the shipped one, so the agreement is not a property of one fixed set of hands.
"""
from __future__ import annotations

import json
import sys

import pytest

from app.hands.hand import Hand
from app.hands.readings import Shape, waits
from app.hands.tiles import parse_tiles, tile
from tests.hands.test_corpus import RIICHI, corpus_hand, groupings

from .conftest import DATA, load_corpus

sys.path.insert(0, str(DATA))
import make_corpus  # noqa: E402


def test_every_answer_in_the_shipped_corpus_is_what_the_oracle_computes():
    assert make_corpus.check() == []


def test_the_check_finds_an_answer_that_was_changed(tmp_path):
    for name in make_corpus.FILES:
        (tmp_path / name).write_text((DATA / "corpus" / name).read_text())
    data = json.loads((tmp_path / "tenpai.json").read_text())
    data["hands"][3]["waits"] = data["hands"][3]["waits"][1:] or ["1m"]
    (tmp_path / "tenpai.json").write_text(json.dumps(data))
    assert make_corpus.check(tmp_path) == [f"tenpai.json[3]: {data['hands'][3]['hand']}"]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """A corpus of 300 hands a file drawn with a seed of its own."""
    folder = tmp_path_factory.mktemp("corpus")
    make_corpus.write(folder, make_corpus.generate(300, seed=7), seed=7)
    return folder


def test_a_freshly_drawn_corpus_has_the_shipped_files_and_shapes(fresh):
    assert make_corpus.check(fresh) == []
    standard = load_corpus("complete_standard.json", fresh)
    assert any(m["type"] == "kan" for e in standard for m in e["melds"])
    assert any(not e["melds"] for e in standard) and any(e["melds"] for e in standard)
    sources = {e["source"] for e in load_corpus("tenpai.json", fresh)}
    assert sources == {"standard", "standard_single_suit", "chiitoitsu", "kokushi"}


def test_our_readings_agree_with_the_oracle_on_freshly_drawn_complete_hands(fresh):
    for name in ("complete_standard.json", "complete_chiitoi.json"):
        for entry in load_corpus(name, fresh):
            hand = corpus_hand(entry)
            ours = groupings(hand, RIICHI, Shape.STANDARD) | groupings(hand, RIICHI, Shape.SEVEN_PAIRS)
            assert ours == {tuple(sorted(d)) for d in entry["decompositions"]}, entry["tiles"]


def test_our_waits_agree_with_the_oracle_on_freshly_drawn_ready_hands(fresh):
    for entry in load_corpus("tenpai.json", fresh):
        ready = Hand(concealed=tuple(sorted(parse_tiles(entry["hand"]))))
        ours = sorted((w.tile.code for w in waits(ready, RIICHI)), key=tile)
        assert ours == sorted(entry["waits"], key=tile), entry["hand"]
