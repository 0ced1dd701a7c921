"""Shared sheets through real servers (gunicorn, as `make run` starts it): two instances on one
PostgreSQL, and a server killed with SIGKILL while hands are being added, on both databases."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.waiting import free_port, stop_group, wait_until_up

ROOT = Path(__file__).resolve().parents[2]
NIGHT = {"rules": "hong-kong", "names": "Ann,Bob,Cy,Di", "hands": "hand=123456789m234p55s by=self-draw"}
SEATS = "ESWN"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def _serve(env: dict[str, str], workers: int = 2) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "app", "serve"], cwd=ROOT, start_new_session=True,
                            env={**os.environ, **env, "HOST": "127.0.0.1", "PORT": str(port),
                                 "WEB_CONCURRENCY": str(workers)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    wait_until_up(url + "/api/health", proc)
    return proc, url


def _post(url: str, data: dict[str, str]) -> tuple[int, str]:
    body = urllib.parse.urlencode(data).encode()
    try:
        with OPENER.open(urllib.request.Request(url, body), timeout=30) as r:
            return r.status, r.headers.get("Location", "")
    except urllib.error.HTTPError as err:
        return err.code, err.headers.get("Location", "")


def _json(url: str) -> dict:
    import json
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


def _line(n: int) -> str:
    return f"hand=123456789m234p55s by=self-draw seat={SEATS[n % 4]}"


def test_two_instances_on_one_postgresql_share_a_sheet_and_take_edits_through_both(postgres):
    env = {"MAHJONG_DATABASE_URL": postgres.new_database()}
    a, url_a = _serve(env)
    b, url_b = _serve(env)
    try:
        status, edit = _post(url_a + "/sheet/share", NIGHT)
        assert status == 303
        confirmed = []

        def phone(url: str, first: int) -> None:
            for n in range(first, first + 20):
                status, _ = _post(url + edit + "/change", {"action": "add", "line": _line(n)})
                confirmed.append(status)

        threads = [threading.Thread(target=phone, args=(u, i * 20)) for i, u in enumerate([url_a, url_b] * 2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert confirmed == [303] * 80
        seen_a, seen_b = _json(url_a + edit + ".json"), _json(url_b + edit + ".json")
        assert seen_a == seen_b
        assert seen_a["version"] == 81 and len(seen_a["rows"]) == 81
        assert all(sum(row["running"]) == 0 for row in seen_a["rows"])
        # a correction through B, based on what A showed, then a stale one through A
        hand2 = seen_a["hands"][1]["id"]
        fix = {"action": "correct", "hand": str(hand2), "base": str(seen_a["version"]),
               "line": "hand=111m456m789m234p55s by=self-draw seat=S"}
        assert _post(url_b + edit + "/change", fix)[0] == 303
        assert _post(url_a + edit + "/change", {**fix, "line": _line(3)})[0] == 409
        assert _json(url_a + edit + ".json")["hands"][1]["line"] == fix["line"] + " at=1234"
    finally:
        stop_group(a)
        stop_group(b)


def test_a_server_killed_mid_write_loses_no_hand_it_had_confirmed(database_env):
    proc, url = _serve(database_env, workers=2)
    status, edit = _post(url + "/sheet/share", NIGHT)
    assert status == 303
    confirmed: list[str] = []
    stop = threading.Event()

    def phone(k: int) -> None:
        n = 0
        while not stop.is_set():
            n += 1
            line = f"{_line(n)} round={SEATS[k]}"   # each phone's hands told apart by their round wind
            try:
                status, _ = _post(url + edit + "/change", {"action": "add", "line": line})
            except OSError:
                return
            if status == 303:
                confirmed.append(line)

    threads = [threading.Thread(target=phone, args=(k,)) for k in range(4)]
    try:
        for t in threads:
            t.start()
        while len(confirmed) < 60:
            threading.Event().wait(0.01)
        os.killpg(proc.pid, signal.SIGKILL)          # master and workers, mid-stream
        stop.set()
        for t in threads:
            t.join()
        proc.wait()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    again, url = _serve(database_env, workers=1)
    try:
        # the sheet keeps each hand with its seats written out (at=…)
        lines = [re.sub(r" at=\d{4}$", "", h["line"]) for h in _json(url + edit + ".json")["hands"]]
        kept = {line: lines.count(line) for line in set(lines)}
        for line in set(confirmed):
            assert kept.get(line, 0) >= confirmed.count(line), f"{line} was confirmed but is gone"
        assert len(lines) >= 1 + len(confirmed)
        assert _post(url + edit + "/change", {"action": "add", "line": _line(0)})[0] == 303
    finally:
        stop_group(again)


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch):
    for key in ("http_proxy", "HTTP_PROXY"):
        monkeypatch.delenv(key, raising=False)
