"""GET /api/sheet: the game sheet as JSON, the same numbers as the page and the CSV."""
from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest

from app.scoring.payments import fmt
from app.web import create_app
from app.web.table.rounds import EXAMPLE
from tests.html_tables import Page

NIGHT = {"rules": "hong-kong", "names": "Ann,Bob,Cy,Di", "hands": "\n".join([
    "hand=123456789m234p55s by=self-draw",
    "hand=123456789m234p55s seat=S discarder=N",
    "hand=123456789m234p55s by=self-draw seat=W at=2341",
    "hand=123456789m234p55s seat=N discarder=S",
])}
BELOW = "hand=123m456m789p55s melds=234s win=5s flowers=1 seat=S discarder=W"   # 1 fan
ROUND = "ledger at=3412 / " + " / ".join(ln for ln in EXAMPLE.splitlines() if ln.strip())
SHEETS = [
    NIGHT,
    {**NIGHT, "hands": NIGHT["hands"] + "\n" + BELOW + "\nhand=123m456m789m234p56s", "stake": "3"},
    {"rules": "sichuan", "names": "Ann,Bob,Cy,Di",
     "hands": "hand=123s456s789s234s55s by=self-draw missing=p\n" + ROUND + "\nhand=11s22s33s44s55s66s77s"},
    {"rules": "sichuan", "stake": "0.5", "hands": ROUND + "\n" + ROUND.replace("at=3412", "at=2143")},
]


def _amount(cell: str) -> str:
    """A page or CSV cell as fmt writes an amount: without the '+' and the CSV's quote."""
    return cell.lstrip("'+")


def _said(value) -> str:
    return fmt(Fraction(str(value)))


@pytest.mark.parametrize("query", SHEETS, ids=["hong-kong", "below-minimum-and-refused", "sichuan-round",
                                               "two-rounds-half-stake"])
def test_the_totals_and_transfers_are_the_pages_and_the_csvs(client, query):
    answer = client.get("/api/sheet", query_string=query)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    night = answer.json
    totals = [_said(v) for v in night["totals"]]
    assert any(v != "0" for v in totals)
    # the page
    page = client.get("/sheet", query_string=query).get_data(as_text=True)
    assert [_amount(c) for c in [cells for _, cells in Page(page).table("Totals")][1]] == totals
    # the CSV: its total row and its transfers
    rows = list(csv.reader(io.StringIO(client.get("/sheet.csv", query_string=query).get_data(as_text=True))))
    total_row = next(r for r in rows if r and r[0] == "total")
    assert [_amount(c) for c in total_row[6:10]] == totals
    players = [p["name"] for p in night["players"]]
    start = rows.index(["payer", "payee", "amount"]) + 1
    assert rows[start:] == [[players[t["payer"] - 1], players[t["payee"] - 1], _said(t["amount"])]
                            for t in night["transfers"]]
    # each row's amounts and running totals as the CSV has them, zero-sum, the last row's the totals
    assert len(night["rows"]) == len(query["hands"].splitlines())
    for row, line in zip(night["rows"], rows[1:], strict=False):
        assert [_amount(c) for c in line[6:14]] == [_said(v) for v in row["amounts"] + row["running"]]
        assert sum(Fraction(str(v)) for v in row["amounts"]) == 0
    assert night["rows"][-1]["running"] == night["totals"]


def test_a_round_entry_pays_its_ledgers_totals_by_the_players_at_its_seats(client):
    ledger = client.get("/round", query_string={"rules": "sichuan", "round": EXAMPLE})
    assert ledger.status_code == 200
    final = [_amount(c) for c in [cells for _, cells in Page(ledger.get_data(as_text=True))
                                  .table("Final totals")][1]]          # by seat E, S, W, N
    [row] = client.get("/api/sheet", query_string={"rules": "sichuan", "hands": ROUND}).json["rows"]
    assert row["kind"] == "round" and row["result"] == "round"
    assert row["seats"] == {"E": 3, "S": 4, "W": 1, "N": 2}
    by_seat = [_said(row["amounts"][row["seats"][s] - 1]) for s in "ESWN"]
    assert by_seat == final


def test_a_hand_below_the_minimum_is_not_a_win_and_pays_0_with_the_reason(client):
    rows = client.get("/api/sheet", query_string={**NIGHT, "hands": NIGHT["hands"] + "\n" + BELOW}).json["rows"]
    below = rows[4]
    assert below["result"] == "not-a-win" and below["total_fan"] == 1
    assert below["amounts"] == [0, 0, 0, 0] and below["running"] == rows[3]["running"]
    assert "1 fan is below the minimum 3, so nobody pays" in below["reason"]
    assert [r["result"] for r in rows[:4]] == ["win"] * 4 and rows[0]["reason"] is None


def test_a_hand_that_cannot_be_priced_is_refused_on_its_row_and_the_others_count(client):
    answer = client.get("/api/sheet", query_string={**NIGHT, "hands": "hand=12m\n" + NIGHT["hands"]})
    assert answer.status_code == 200
    first, *others = answer.json["rows"]
    assert first["result"] == "refused" and first["amounts"] == [0, 0, 0, 0]
    assert first["errors"][0]["field"] == "hand" and "14" in first["errors"][0]["message"]
    assert answer.json["totals"] == [88, -40, -88, 40]


@pytest.mark.parametrize("query, field, words", [
    ({"rules": "hong-kong", "names": "Ann,ann"}, "names", "named twice"),
    ({"rules": "hong-kong", "hands": "hand=123456789m234p55s\nnonsense"}, "hands", "hand 2:"),
    ({"rules": "hong-kong", "hands": "hand=123456789m234p55s min=1"}, "hands", "'min' is not part of a hand"),
    ({"rules": "mahjong-of-mars"}, "rules", "unknown ruleset"),
    ({"rules": "hong-kong", "seats": "1123"}, "seats", "is not a seating"),
    ({"rules": "hong-kong", "min": "99"}, "min", "99"),
])
def test_a_sheet_that_cannot_be_read_is_400_with_field_errors(client, query, field, words):
    answer = client.get("/api/sheet", query_string=query)
    assert answer.status_code == 400 and answer.json["valid"] is False
    assert any(e["field"] == field and words in e["message"] for e in answer.json["errors"]), answer.json


def test_the_answer_is_said_in_the_language_asked(client):
    query = {**NIGHT, "hands": BELOW, "lang": "zh-Hant"}
    [row] = client.get("/api/sheet", query_string=query).json["rows"]
    assert "食糊" in row["reason"] and "lang=zh-Hant" in row["breakdown"]


def test_a_sheet_past_the_work_budget_is_413_naming_the_hands():
    small = create_app({"SCORING_BUDGET": 2}).test_client()
    answer = small.get("/api/sheet", query_string=NIGHT | {"hands": NIGHT["hands"].replace("seat=S ", "")})
    assert answer.status_code == 413 and answer.json["errors"][0]["field"] == "hands"


def test_an_address_longer_than_any_sheet_is_a_400(client):
    answer = client.get("/api/sheet", query_string={"rules": "hong-kong", "hands": "x" * 9000})
    assert answer.status_code == 400 and answer.json["errors"][0]["field"] == ""


def test_an_empty_rules_is_refused_as_the_document_says_not_taken_for_the_default(client):
    answer = client.get("/api/sheet?rules=")
    assert answer.status_code == 400 and answer.json["errors"][0]["field"] == "rules"
    assert client.get("/api/sheet").json["rules"] == "hong-kong"
