"""A change whose answer never came back, sent again, lands once: through real servers (gunicorn,
as `make run` starts it) behind a loopback proxy that loses answers (tests/flaky_proxy.py), on
SQLite and PostgreSQL — a lost answer, a server killed with SIGKILL after it committed, and two
taps racing each other."""
from __future__ import annotations

import http.client
import os
import signal
import threading
import urllib.error

import pytest

from app.store.sheets import new_client_id
from tests.flaky_proxy import FlakyProxy
from tests.waiting import stop_group
from tests.web.test_stored_servers import NIGHT, _json, _no_proxy, _post, _serve  # noqa: F401 (_no_proxy: autouse here too)

LINE = "hand=123456789m234p55s seat=W discarder=E"


def _lost(url: str, form: dict[str, str]) -> None:
    """Post through the proxy in "drop" mode: the server answers, the client hears nothing."""
    with pytest.raises((urllib.error.URLError, http.client.HTTPException, ConnectionError)):
        _post(url, form)


def _lines(url: str, edit: str) -> list[str]:
    return [h["line"] for h in _json(url + edit + ".json")["hands"]]


def test_a_change_whose_answer_was_lost_and_is_sent_again_is_recorded_once(database_env):
    proc, url = _serve(database_env, workers=2)
    try:
        with FlakyProxy(url) as proxy:
            status, edit = _post(proxy.url + "/sheet/share", NIGHT)
            assert status == 303
            form = {"action": "add", "line": LINE, "cid": new_client_id()}
            proxy.mode = "drop"
            _lost(proxy.url + edit + "/change", form)
            proxy.mode = "pass"
            status, where = _post(proxy.url + edit + "/change", form)   # the phone sends it again
            assert (status, where) == (303, edit + "#hands")
            assert proxy.forwarded == 2                                 # the server had it twice …
            assert [line.startswith(LINE) for line in _lines(url, edit)] == [False, True]   # … and kept it once
    finally:
        stop_group(proc)


def test_a_change_committed_by_a_server_killed_before_its_answer_is_recorded_once_when_resent(database_env):
    proc, url = _serve(database_env, workers=2)
    try:
        status, edit = _post(url + "/sheet/share", NIGHT)
        assert status == 303
        forms = [{"action": "add", "line": f"{LINE} round={wind}", "cid": new_client_id()} for wind in "ESW"]
        with FlakyProxy(url) as proxy:
            proxy.mode = "drop"
            for form in forms:
                _lost(proxy.url + edit + "/change", form)
        os.killpg(proc.pid, signal.SIGKILL)          # master and workers, answers never sent
        proc.wait()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    again, url = _serve(database_env, workers=1)
    try:
        for form in forms:                           # the queue, replayed after the crash
            assert _post(url + edit + "/change", form) == (303, edit + "#hands")
        lines = _lines(url, edit)
        assert len(lines) == 4
        assert [line.split(" at=")[0] for line in lines[1:]] == [form["line"] for form in forms]
    finally:
        stop_group(again)


def test_two_taps_of_one_form_racing_through_the_server_land_once(database_env):
    proc, url = _serve(database_env, workers=2)
    try:
        status, edit = _post(url + "/sheet/share", NIGHT)
        form = {"action": "add", "line": LINE, "cid": new_client_id()}
        start = threading.Barrier(4)
        answers: list[tuple[int, str]] = []

        def tap() -> None:
            start.wait()
            answers.append(_post(url + edit + "/change", form))

        taps = [threading.Thread(target=tap) for _ in range(4)]
        for t in taps:
            t.start()
        for t in taps:
            t.join()
        assert answers == [(303, edit + "#hands")] * 4
        assert len(_lines(url, edit)) == 2
    finally:
        stop_group(proc)
