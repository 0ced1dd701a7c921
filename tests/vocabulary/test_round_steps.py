"""The round ledger by taps: each step writes one line of the round's text, and reads it back."""
from __future__ import annotations

import pytest

from app.base.errors import FieldError, HandError
from app.vocabulary.round import parse_round_text, read_round, settle_round
from app.vocabulary.round_steps import (
    drop_line,
    errors_by_line,
    fields_of,
    kong_line,
    missing_line,
    put_line,
    text_lines,
    wall_fields,
    wall_line,
    wall_part,
    wall_parts,
    win_line,
)
from app.web.table.rounds import EXAMPLE


@pytest.mark.parametrize("line", [
    "kong S exposed 3p from W", "kong E concealed 5m", "kong N added 7s held",
    "win E self-draw hand=123s456s789s234s55s",
    "win S discard from N hand=345m678m456s678s99s melds=777p win=9s events=kong-cannon",
])
def test_a_step_reads_back_into_the_fields_that_write_it_again(line):
    build = kong_line if line.startswith("kong") else win_line
    assert build(fields_of(line)) == line


def test_a_kong_step_names_each_field_it_lacks():
    with pytest.raises(HandError) as caught:
        kong_line({"kind": "sideways"})
    assert {e.field for e in caught.value.errors} == {"seat", "kind", "tile"}


def test_a_step_is_checked_alone_and_its_errors_name_the_steps_own_fields():
    with pytest.raises(HandError) as caught:
        kong_line({"seat": "S", "kind": "exposed", "tile": "3p"})
    assert caught.value.errors == (FieldError(
        "from", "an exposed kong is made from someone's discard: say whose"),)
    with pytest.raises(HandError, match="a discard win needs the discarder"):
        win_line({"seat": "E", "by": "discard", "hand": "123s456s789s234s55s"})
    with pytest.raises(HandError, match="pick the winner's concealed tiles"):
        win_line({"seat": "E", "by": "self-draw"})


def test_the_missing_suits_go_first_and_the_wall_last():
    text = put_line("", "kong E concealed 5m")
    text = put_line(text, "wall S not-ready")
    text = put_line(text, "win W self-draw hand=123s456s789s234s55s")
    text = put_line(text, missing_line({"E": "p", "S": "m", "W": "s", "N": "p"}))
    assert text.splitlines() == ["missing E=p S=m W=s N=p", "kong E concealed 5m",
                                 "win W self-draw hand=123s456s789s234s55s", "wall S not-ready"]
    assert put_line(text, "missing E=m").splitlines()[0] == "missing E=m"
    assert put_line(text, "kong S concealed 9p", number=1).splitlines()[1] == "kong S concealed 9p"


def test_the_wall_is_entered_one_player_at_a_time():
    parts = {}
    for fields in ({"seat": "S", "hand": "123p456p23p55p", "melds": "ckong:9999p"},
                   {"seat": "W", "status": "not-ready"}, {"seat": "N", "status": "pig"}):
        seat, part = wall_part(fields)
        parts[seat] = part
    line = wall_line(parts)
    assert line == "wall S hand=123p456p23p55p melds=ckong:9999p; W not-ready; N pig"
    assert wall_parts(line) == parts
    assert wall_fields(line, "W") == {"seat": "W", "status": "not-ready"}
    assert wall_fields(line, "S")["melds"] == "ckong:9999p"


def test_a_round_built_step_by_step_settles_as_the_same_round_typed():
    text = ""
    text = put_line(text, missing_line({"E": "p", "S": "m", "W": "s", "N": "p"}))
    text = put_line(text, win_line({"seat": "E", "by": "self-draw", "hand": "123s456s789s234s55s"}))
    text = put_line(text, kong_line({"seat": "S", "kind": "concealed", "tile": "9p"}))
    text = put_line(text, kong_line({"seat": "W", "kind": "exposed", "tile": "2m", "from": "N"}))
    text = put_line(text, wall_line(dict([
        wall_part({"seat": "S", "hand": "123p456p23p55p", "melds": "ckong:9999p"}),
        wall_part({"seat": "W", "hand": "1357m1357p46m", "melds": "kong:2222m"}),
        wall_part({"seat": "N", "hand": "13m456m789m12p33s8m"})])))
    tapped = settle_round(read_round(parse_round_text(text)))
    typed = settle_round(read_round(parse_round_text(EXAMPLE)))
    assert tapped.lines == typed.lines and tapped.totals == typed.totals


def test_an_error_is_traced_to_its_line_and_field():
    text = "missing E=p\n\nkong W exposed 2m from N\nwin E discard from S hand=123s\nwall S not-ready"
    try:
        settle_round(read_round(parse_round_text(text)))
    except HandError as err:
        placed, loose = errors_by_line(text, err.errors)
    assert list(placed) == [3] and placed[3][0].field == "hand" and loose == []
    placed, _ = errors_by_line(text, (FieldError("end.hands.S.hand", "no"), FieldError("round", "line 2: odd")))
    assert placed == {4: [FieldError("S hand", "no")], 1: [FieldError("round", "odd")]}


def test_lines_know_which_event_they_are():
    kinds = [(ln.kind, ln.event) for ln in text_lines("# note\nkong E concealed 5m\nwin S self-draw\nwall")]
    assert kinds == [("note", None), ("kong", 0), ("win", 1), ("wall", None)]


def test_removing_a_line_that_is_not_there_says_so():
    assert drop_line("missing E=p\nkong E concealed 5m", 0) == "kong E concealed 5m"
    for number in (None, 5, -1):
        with pytest.raises(HandError, match="no such line"):
            drop_line("missing E=p", number)
