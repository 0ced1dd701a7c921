"""Fair turns (app/web/serving/turns.py, shedding.py): heavy work in a lane of its own, a
request past its wait answered 503 with Retry-After, readiness that says so, and new club
variants counted per address."""
from __future__ import annotations

import threading

import pytest

from app.rules.house import House, PatternChange, encode
from app.web.serving import shedding, turns

SCORE = "/api/score?rules=hong-kong&hand=123m456m789m111p55s&by=self-draw"
OUTLOOK = "/api/discard?rules=hong-kong&hand=344456778m3456p8s&outlook=1"


@pytest.fixture
def lanes(monkeypatch):
    """The worker's lanes with threading's semaphores (acquire with a timeout, as gevent's)."""
    monkeypatch.setattr(turns, "QUEUE_DEADLINE", 0.05)
    turns.set_lock(threading.Semaphore(1), threading.Semaphore(turns.HEAVY_AT_ONCE))
    yield turns._lanes[0]
    turns.set_lock(None)


def new_variant(n: int) -> str:
    return encode(House("hong-kong", dials=(("cap", 8 + n % 5),),
                        patterns=(PatternChange("all-pongs", fan=10 + n % 80),)))


def test_what_is_heavy(app):
    rulesets = app.extensions["rulesets"]
    kept = new_variant(0)
    rulesets.house(kept)

    def heavy(query: str, length: str = "") -> bool:
        return shedding.heavy({"QUERY_STRING": query, "CONTENT_LENGTH": length}, rulesets)

    assert not heavy("rules=hong-kong&hand=123m")
    assert heavy("rules=hong-kong&hand=123m&outlook=1") and not heavy("hand=123m&outlook=0")
    assert not heavy(f"rules={kept}&hand=1m") and heavy(f"rules={new_variant(1)}&hand=1m")
    assert heavy(f"rules=hong-kong&house={new_variant(2).partition('~')[2]}")
    assert heavy("hands=" + "x" * shedding.HEAVY_SIZE) and heavy("", str(shedding.HEAVY_SIZE + 1))


def test_a_request_that_waits_past_its_deadline_is_answered_503_with_retry_after(client, lanes):
    lanes.lock.acquire()   # another request holds the turn
    try:
        api = client.get(SCORE)
        page = client.get("/?rules=hong-kong&hand=123m456m789m111p55s&lang=zh-Hant")
        english = client.get("/?rules=hong-kong&hand=123m456m789m111p55s")
        ready = client.get("/api/ready")
        health = client.get("/api/health")
    finally:
        lanes.lock.release()
    assert api.status_code == 503 and api.headers["Retry-After"] == str(turns.RETRY_AFTER)
    assert api.json["valid"] is False and "busy" in api.json["errors"][0]["message"]
    assert api.headers["Cache-Control"] == "no-store"
    assert page.status_code == 503 and "Retry-After" in page.headers
    assert "busy" in english.get_data(as_text=True) and "busy" not in page.get_data(as_text=True)
    assert ready.status_code == 503 and ready.json["ready"] is False
    assert health.status_code == 200   # liveness: still up
    assert client.get(SCORE).status_code == 200   # the turn is free again: served


def test_readiness_fails_while_the_oldest_wait_is_past_the_deadline(client, lanes):
    now = [100.0]
    lanes.clock = lambda: now[0]
    assert client.get("/api/ready").status_code == 200
    lanes.waiting[0] = 100.0 - 2 * turns.QUEUE_DEADLINE   # a request waiting since then
    got = client.get("/api/ready")
    assert got.status_code == 503 and got.json["wait"] == pytest.approx(2 * turns.QUEUE_DEADLINE)
    del lanes.waiting[0]
    assert client.get("/api/ready").status_code == 200


def test_heavy_work_waits_in_its_lane_and_one_address_may_not_hold_it_all(client, lanes):
    lanes.heavy_lock.acquire()   # the lane is taken: a heavy request waits, then is shed
    try:
        assert client.get(OUTLOOK).status_code == 503
        assert client.get(SCORE).status_code == 200   # a light one is served meanwhile
    finally:
        lanes.heavy_lock.release()
    lanes.heavy_by_client["127.0.0.1"] = turns.HEAVY_PER_CLIENT   # its own under way already
    refused = client.get(OUTLOOK)
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    assert "long calculations" in refused.json["errors"][0]["message"]
    assert client.get(OUTLOOK, environ_base={"REMOTE_ADDR": "10.0.0.2"}).status_code == 200
    del lanes.heavy_by_client["127.0.0.1"]
    assert not lanes.heavy_by_client   # each heavy request's count is given back


def test_a_long_request_gives_up_its_turn_when_it_steps_aside(lanes):
    others = []
    assert lanes.lock.acquire(timeout=1)
    token = turns._holding.set(True)
    try:
        turns.pass_turn(lambda: others.append(lanes.lock.acquire(blocking=False) and
                                              (lanes.lock.release() or True)))
    finally:
        turns._holding.reset(token)
        lanes.lock.release()
    assert others == [True]   # while it stepped aside another request could take the turn


def test_new_variants_from_one_address_are_counted_a_minute(app, client, monkeypatch):
    now = [0.0]
    monkeypatch.setitem(app.extensions, "new_variants", shedding.NewVariants(most=2, clock=lambda: now[0]))
    codes = [new_variant(100 + n) for n in range(4)]
    for rules in codes[:2]:
        assert client.get(f"/api/score?rules={rules}&hand=123m456m789m111p55s").status_code == 200
    assert client.get(f"/api/score?rules={codes[0]}&hand=123m456m789m111p55s").status_code == 200   # kept
    refused = client.get(f"/api/score?rules=hong-kong&house={codes[2].partition('~')[2]}&hand=1m")
    assert refused.status_code == 429 and refused.json["errors"][0]["field"] == "house"
    assert int(refused.headers["Retry-After"]) > 0 and "at most 2" in refused.json["errors"][0]["message"]
    page = client.get(f"/?rules={codes[2]}&hand=123m456m789m111p55s")
    assert page.status_code == 429 and "house" in page.get_data(as_text=True)
    assert client.get(f"/api/score?rules={codes[2]}&hand=123m456m789m111p55s",
                      environ_base={"REMOTE_ADDR": "10.0.0.3"}).status_code == 200   # another address
    now[0] += 61
    assert client.get(f"/api/score?rules={codes[3]}&hand=123m456m789m111p55s").status_code == 200
