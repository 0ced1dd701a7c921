"""The round ledger page and POST /api/settle."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from app.vocabulary.round import parse_round_text
from app.web.table.rounds import EXAMPLE

ROUNDS = yaml.safe_load((Path(__file__).resolve().parents[1] / "golden" / "rounds" / "blood-battle.yaml")
                        .read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", ROUNDS, ids=[c["id"] for c in ROUNDS])
def test_the_api_settles_every_golden_round(client, case):
    response = client.post("/api/settle", json=parse_round_text(case["round"], case["rules"]))
    assert response.status_code == 200
    body = response.get_json()
    assert body["valid"] and body["totals"] == case["totals"]
    assert [[l["step"], l["kind"], l["payer"], l["payee"], l["amount"]] for l in body["lines"]
            if l["step"] in {e[0] for e in case["lines"]}] == case["lines"]


def test_the_ledger_page_shows_totals_ledger_and_running_totals(client):
    response = client.get("/round", query_string={"rules": "sichuan", "round": EXAMPLE})
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    for caption in ("Final totals", "Ledger", "Running totals", "At the wall's end"):
        assert f"<caption>{caption}</caption>" in page
    assert "查花猪" in page and "查叫" in page and "退税" in page
    assert 'class="permalink"' in page


def test_each_win_links_to_its_breakdown_in_the_calculator(client):
    body = client.post("/api/settle", json=parse_round_text(EXAMPLE)).get_json()
    (win,) = body["wins"]
    shown = client.get(win["permalink"])
    assert shown.status_code == 200 and "<caption>Fan breakdown</caption>" in shown.get_data(as_text=True)
    api = client.get("/api/score?" + win["permalink"].split("?", 1)[1]).get_json()
    assert api["total_fan"] == win["total_fan"] == 6


def test_a_bad_round_comes_back_with_the_text_kept_and_the_message(client):
    text = "kong E concealed 5m\nkong S concealed 5m"
    page = client.get("/round", query_string={"rules": "sichuan", "round": text}).get_data(as_text=True)
    assert "events[1]: a kong of 5m: all four copies are already in use" in page
    assert "kong S concealed 5m</textarea>" in page


@pytest.mark.parametrize("body, fragment", [
    ("[" * 50 + "]" * 50, "nests deeper"),
    ("not json", "not JSON"),
    (json.dumps({"rules": "sichuan", "events": "kong"}), "expected a list of events"),
    (json.dumps({"rules": "hong-kong", "events": []}), "has no round settlement"),
    (json.dumps({"rules": "nope"}), "unknown ruleset"),
    (json.dumps({"events": [{"type": "kong", "seat": "X"}]}), "'X' is not a seat"),
    (json.dumps({"events": [{"type": "win", "seat": "E", "by": "discard", "from": "E"}]}),
     "cannot win on their own discard"),
    (json.dumps({"events": [{"type": "kong", "seat": "E", "kind": "concealed", "tile": "5m"}] * 41}),
     "more than a round can hold"),
])
def test_a_bad_settlement_request_answers_400_with_the_reason(client, body, fragment):
    response = client.post("/api/settle", data=body, content_type="application/json")
    assert response.status_code == 400
    errors = response.get_json()["errors"]
    assert any(fragment in e["message"] for e in errors), errors


def test_a_settlement_body_past_the_limit_answers_413_with_the_reason(client):
    response = client.post("/api/settle", data="x" * 70000, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["errors"] == [{"field": "", "message":
                                              "the body is 70000 bytes; at most 65536"}]


def test_settle_is_described_in_the_openapi_document(client):
    doc = client.get("/api/openapi.json").get_json()
    assert "post" in doc["paths"]["/api/settle"]
    assert {"Round", "Ledger"} <= set(doc["components"]["schemas"])
