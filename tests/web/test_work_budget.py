"""One scoring budget for every entry point: past it a 413 naming the field, the cheap checks
(a fifth copy of a tile) before any pricing, and a sub-result repeated in a request priced once."""
from __future__ import annotations

import json
import urllib.parse

import pytest

from app.scoring.budget import MAX_SCORINGS
from app.web import create_app
from tests.apps import shared_app

NINE_GATES = "1112345678999"     # waits on all nine tiles of its suit
WALL = f"wall E hand={NINE_GATES}p;S hand={NINE_GATES}s;W hand={NINE_GATES}m;N not-ready"
HEAVY_ROUND = f"ledger / {WALL}"   # 27 scorings at the wall's end


def _client(most: int):
    return create_app({"SCORING_BUDGET": most}).test_client()


def _sheet(lines: list[str]) -> str:
    return urllib.parse.urlencode({"rules": "sichuan", "hands": "\n".join(lines)}, safe=",:=/")


@pytest.mark.parametrize("method, url, body, field", [
    ("GET", "/api/waits?rules=sichuan&hand=1112345678999p", None, "hand"),
    ("GET", "/api/discard?rules=sichuan&hand=11123456789999p", None, "hand"),
    ("POST", "/api/settle", {"rules": "sichuan", "events": [], "end": {"type": "wall", "hands": {
        "E": {"hand": f"{NINE_GATES}p"}, "S": {"hand": f"{NINE_GATES}s"}, "W": {"hand": f"{NINE_GATES}m"},
        "N": {"status": "not-ready"}}}}, "events"),
])
def test_every_api_entry_point_is_refused_413_past_the_same_budget_naming_the_field(method, url, body, field):
    client = _client(5)
    response = client.open(url, method=method, data=json.dumps(body) if body else None,
                           content_type="application/json" if body else None)
    assert response.status_code == 413, response.get_data(as_text=True)[:300]
    assert response.json["valid"] is False
    [error] = response.json["errors"]
    assert error["field"] == field and "more than 5 scorings" in error["message"]
    # with the budget of the production app, the same request is answered
    assert shared_app().test_client().open(url, method=method, data=json.dumps(body) if body else None,
                                           content_type="application/json" if body else None).status_code == 200


@pytest.mark.parametrize("url, field", [
    ("/?rules=sichuan&hand=1112345678999p", "hand"),                    # 13 tiles: the page shows the waits
    ("/discard?rules=sichuan&hand=11123456789999p", "hand"),
    (f"/round?rules=sichuan&round={urllib.parse.quote(WALL)}", "round"),
])
def test_every_page_is_refused_413_past_the_same_budget_naming_the_field(url, field):
    response = _client(5).get(url)
    assert response.status_code == 413, response.status_code
    page = response.get_data(as_text=True)
    assert "this asks for more than 5 scorings" in page
    assert f'id="{field}-error' in page   # beside its field (hand-error, round-errors)
    assert "Traceback" not in page


@pytest.mark.parametrize("url, filled_in, beside", [
    ("/?rules=sichuan&hand=1112345678999p", 'value="1112345678999p"', 'id="hand-error"'),
    ("/embed?rules=sichuan&hand=1112345678999p", 'value="1112345678999p"', 'id="hand-error"'),
    ("/discard?rules=sichuan&hand=11123456789999p", 'value="11123456789999p"', 'id="hand-error"'),
    (f"/round?rules=sichuan&round={urllib.parse.quote(WALL)}", "N not-ready", 'id="round-errors"'),
])
def test_a_page_past_the_budget_is_its_own_form_filled_in_with_the_refusal_beside_the_field(
        url, filled_in, beside):
    response = _client(5).get(url)
    assert response.status_code == 413
    page = response.get_data(as_text=True)
    assert "Too much to work out" not in page        # not the generic error page
    assert filled_in in page                         # the form as it was sent
    error = page[page.index(beside):]                # the refusal, in the field's own error list
    assert "this asks for more than 5 scorings" in error[:error.index("</ul>")]


def test_a_quiz_prices_only_the_hand_it_asks_so_forty_hands_fit_a_small_budget():
    hands = urllib.parse.urlencode([("hands", f"123m456m789m{n}{n}{n}p55s") for n in range(1, 10)] * 4)
    assert _client(5).get("/practice?rules=hong-kong&" + hands).status_code == 200


def test_a_sheet_past_the_budget_comes_back_filled_in_with_the_refusal_beside_its_hands():
    client = _client(40)
    other = f"ledger / wall E hand={NINE_GATES}s;S hand={NINE_GATES}m;W hand={NINE_GATES}p;N pig"
    query = _sheet([HEAVY_ROUND, other])   # two rounds, other hands at each seat: 54 scorings
    response = client.get("/sheet?" + query)
    assert response.status_code == 413
    page = response.get_data(as_text=True)
    assert "this asks for more than 40 scorings" in page
    assert "N pig" in page and "N not-ready" in page       # the hands are still in the form
    csv_answer = client.get("/sheet.csv?" + query)
    assert csv_answer.status_code == 413 and csv_answer.mimetype == "text/csv"
    assert csv_answer.get_data(as_text=True).splitlines()[1].startswith('"hands","this asks for more than 40')


def test_the_same_round_entered_many_times_is_priced_once():
    # 60 copies of a 27-scoring round fit in a budget of 30: the copies are not priced again
    response = _client(30).get("/sheet.csv?" + _sheet([HEAVY_ROUND] * 60))
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert len(response.get_data(as_text=True).splitlines()) > 60


def test_a_hand_shown_at_several_walls_ends_is_priced_once():
    rounds = [HEAVY_ROUND.replace("N not-ready", status) for status in ("N not-ready", "N pig")]
    assert _client(30).get("/sheet.csv?" + _sheet(rounds)).status_code == 200


def test_a_fifth_copy_at_the_walls_end_is_refused_before_any_wait_is_priced():
    wall = f"wall E hand={NINE_GATES}p;S hand={NINE_GATES}p;W hand={NINE_GATES}m;N not-ready"
    client = _client(1)   # pricing even one wait would be refused 413
    response = client.get("/round", query_string={"rules": "sichuan", "round": wall})
    assert response.status_code == 200   # the page shows the refusal beside the round
    assert "a fifth 1p in the round" in response.get_data(as_text=True)
    response = client.get("/sheet.csv?" + _sheet(["ledger / " + wall]))
    assert response.status_code == 200 and "a fifth 1p in the round" in response.get_data(as_text=True)


def test_the_budget_is_stated_and_no_real_night_comes_near_it():
    assert MAX_SCORINGS == 400
    # a full night of 100 different hands is 100 scorings
    hands = [f"hand=123m456m789m{n}{n}{n}p55s by=self-draw" for n in range(1, 10)] * 11
    response = shared_app().test_client().get(
        "/sheet.csv?" + urllib.parse.urlencode({"rules": "hong-kong", "hands": "\n".join(hands[:100])}, safe=",:=/"))
    assert response.status_code == 200
