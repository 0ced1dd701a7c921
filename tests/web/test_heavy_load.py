"""The production server under heavy requests: the health check stays answered, nothing 5xx.

32 connections from a separate load process replay, for 15 s, the heaviest accepted requests
of the pages that score little but render much (the round ledger with three nine-gates hands
at the wall's end, what to discard for a nine-gates hand, its waits page) and of the
settlement API, and worst-case outlooks (`outlook=1`: the hands that weigh the most states,
page and API, and the one that prices the most winning hands), while this process alone asks `/api/health`
every 50 ms (`tests/load/heavy_load.py`, whose on-demand run is `make load-heavy`). The
outlook caches its answers, so each distinct outlook is worked out at most once a worker
here (a second or two of both cores at the start); the on-demand run cycles through 648.

What is asserted is an outcome, never a time: every heavy answer is a 200, nothing is 5xx and
every health check is answered while the load runs (each within the probe's 5 s socket
deadline). How fast the health check is answered under this load is the bench's: `make
load-heavy` measures it (and fails its run past a 1 s p99); this test prints its median and
p99 for the log. Measured on a 2-core machine shared with other work (load average 4-5),
requests taking turns in each worker (`app/web/serving/turns.py`) gave a health median of
19-29 ms and a p99 of 0.2-0.35 s; before them the same load gave a median of 0.9-1.3 s and a
p99 of 1.1-2.2 s.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path
from urllib.parse import urlencode

import pytest

from app.advice import outlook as outlook_module
from app.web.advice import routes as advice_routes
from tests.load import heavy_load
from tests.production import ProductionServer

SECONDS = 15
CONNECTIONS = 32


@pytest.fixture(scope="module")
def heavy() -> list[tuple[str, str, bytes | None]]:
    nine = heavy_load.NINE_GATES
    wall = f"wall E hand={nine}p;S hand={nine}s;W hand={nine}m;N not-ready"
    return [("GET", "/round?" + urlencode({"rules": "sichuan", "round": wall}), None),
            ("GET", "/discard?rules=hong-kong&hand=1112345678999p9p", None),
            ("GET", f"/?rules=sichuan&hand={nine}p", None),
            ("POST", "/api/settle", heavy_load.json.dumps({
                "rules": "sichuan", "events": [], "end": {"type": "wall", "hands": {
                    "E": {"hand": f"{nine}p"}, "S": {"hand": f"{nine}s"}, "W": {"hand": f"{nine}m"},
                    "N": {"status": "not-ready"}}}}).encode())]


def _outlook_query(entry: tuple[str, str, int, int], draws: int) -> str:
    rules, hand, _, _ = entry
    return urlencode({**heavy_load._outlook_params(rules, hand), "outlook": "1", "draws": draws})


@pytest.fixture(scope="module")
def outlooks() -> list[tuple[str, str, bytes | None]]:
    """The heaviest outlook (API, 18 draws), the next (page, 30 draws), the one that prices the
    most winning hands (API). Three, not more: with the four heaviest at both endpoints (nine),
    one run on this busy machine served 100 answers or fewer in 15 s, most of them outlooks
    worked out cold."""
    first, second = heavy_load.OUTLOOK_HANDS[:2]
    return [("GET", "/api/discard?" + _outlook_query(first, 18), None),
            ("GET", "/discard?" + _outlook_query(second, 30), None),
            ("GET", "/api/discard?" + _outlook_query(heavy_load.MOST_SCORINGS, 18), None)]


def test_worst_case_outlooks_are_weighed_within_the_budget(outlooks):
    client = heavy_load.counting_app().test_client()
    heaviest, page, most = (client.get(path) for _, path, _ in outlooks)
    assert [a.status_code for a in (heaviest, page, most)] == [200] * 3
    for answer, entry in ((heaviest, heavy_load.OUTLOOK_HANDS[0]),
                          (most, heavy_load.MOST_SCORINGS)):
        weighed = answer.get_json()["outlook"]
        assert weighed["exact"] and not weighed["bounded"]
        assert (weighed["states"], weighed["scorings"]) == entry[2:]
    assert 'class="win-curve"' in page.get_data(as_text=True)


def test_an_outlook_past_the_budget_is_bounded_and_said(monkeypatch):
    """No hand known reaches the outlook's budget (MOST_SCORINGS weighs 1,557 states), so the
    budget is lowered to 500 states here: the API and the page then give the usual order and
    say why no figures were worked out."""
    monkeypatch.setattr(advice_routes, "outlook", partial(outlook_module.outlook, max_states=500))
    client = heavy_load.counting_app().test_client()
    query = _outlook_query(heavy_load.MOST_SCORINGS, 18)
    answer = client.get("/api/discard?" + query)
    assert answer.status_code == 200
    bounded = answer.get_json()["outlook"]
    assert not bounded["exact"] and "more work than one request may do" in bounded["bounded"]
    assert bounded["states"] == 501
    said = client.get("/discard?" + query)
    assert said.status_code == 200
    assert "Not weighed: more work than one request may do" in said.get_data(as_text=True)


def test_heavy_requests_are_accepted_and_priced_within_the_budget(heavy):
    app = heavy_load.counting_app()
    for method, path, body in heavy:
        status, scorings = heavy_load._scorings(app, method, path, body)
        assert status == 200, path
        assert scorings >= 9, (path, scorings)   # each prices many waits: a heavy request


def test_health_stays_answered_under_32_heavy_connections(tmp_path: Path, heavy, outlooks):
    with ProductionServer(tmp_path, env={"FLASK_DEBUG": None}) as server:
        for method, path, body in heavy:   # warm both workers (the outlooks: cold, on purpose)
            heavy_load.ask(server.port, method, path, body)
            heavy_load.ask(server.port, method, path, body)
        got = heavy_load.replay_all(server.port, heavy + outlooks, duration=SECONDS,
                                    connections=CONNECTIONS)
    # each of the 32 connections had its heavy answers (a client waits for the one it asked
    # past the end of the run), each a 200 or shed at once (429/503: an outlook is heavy work,
    # two an address at a time, app/web/serving/turns.py), and the health check was answered
    assert got["answers"] >= CONNECTIONS, got
    assert got["server_errors"] == 0, got
    assert got["bad"] == 0, got
    assert got["health"] >= 1 and got["health_bad"] == 0, got
    # how fast is the bench's to say (`make load-heavy`, which fails its run past a 1 s p99);
    # printed here for the log, never a pass or a fail
    print(f"health p50 {got['health_p50'] * 1000:.0f} ms, p99 {got['health_p99'] * 1000:.0f} ms,"
          f" {got['answers'] / SECONDS:.0f} heavy answers a second")


def test_ordinary_visitors_are_served_while_heavy_work_is_shed(tmp_path: Path):
    """A short `make load-heavy` fair-turns case: 16 clients cycle outlooks under the dearest
    legal variants and new variants, while visitors ask a score, a result page, a rules page and
    a sheet's poll one at a time. Asserted: an order, never a time: every visitor is served,
    heavy work is shed (429/503, at once) rather than queued, nothing else fails."""
    cases = dict(heavy_load.fair_cases())
    mix = [r for pair in zip(cases["variant outlooks"][:24], cases["new variants"][:24], strict=True)
           for r in pair]
    with ProductionServer(tmp_path, env={"FLASK_DEBUG": None}) as server:
        visitors = heavy_load.visitor_requests(server.port)
        for request in visitors * 2:   # warm both workers' pages
            heavy_load.ask(server.port, *request)
        got = heavy_load.replay_fair(server.port, mix, visitors, duration=8, connections=16)
    print(heavy_load.fair_line("short fair run", got))
    assert got["visits"] >= 5 and got["visits_bad"] == 0, got
    assert got["shed"] > 0 and got["other"] == 0, got
    assert got["health_bad"] == 0, got
