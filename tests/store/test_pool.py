"""PostgreSQL through psycopg's own pool (app/store/database.py): a transaction borrows a
connection rather than opening one, a connection the server dropped is replaced, a forked
process (a gunicorn worker) makes its own pool, close() lets them all go, and gunicorn's
gevent workers serve polls on a handful of kept connections."""
from __future__ import annotations

import os
import urllib.request

import psycopg
import pytest

from app.store.database import POOL_SIZE, PostgresDatabase, open_database
from app.store.sheets import SheetStore, view_token_of
from tests.waiting import stop_group, wait_for
from tests.web.test_stored_servers import NIGHT, _post, _serve


def _backends(postgres, url: str) -> set[int]:
    """The server processes connected to the database of `url` (this query's own left out)."""
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(postgres.url(), autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                            (name,)).fetchall()
    return {pid for (pid,) in rows}


def _backend_pid(db: PostgresDatabase) -> int:
    with db.transaction() as cur:
        cur.execute("SELECT pg_backend_pid()")
        return cur.fetchone()[0]


@pytest.fixture
def url(postgres):
    return postgres.new_database()


def test_transactions_borrow_the_same_connection(postgres, url):
    db = open_database({"MAHJONG_DATABASE_URL": url})
    kept = {_backend_pid(db) for _ in range(20)}
    assert 1 <= len(kept) <= POOL_SIZE and kept <= _backends(postgres, url)
    assert {_backend_pid(db) for _ in range(20)} <= kept   # none opened for them
    db.close()
    assert wait_for(lambda: _backends(postgres, url), lambda left: not left, 10) == set()


def test_a_connection_the_server_dropped_is_replaced(postgres, url):
    db = open_database({"MAHJONG_DATABASE_URL": url})
    store = SheetStore(db)
    token = store.create(NIGHT, [])
    dropped = _backend_pid(db)
    with psycopg.connect(postgres.url(), autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(%s)", (dropped,))
    assert store.version(token) == 0   # answered, on a new connection
    assert _backend_pid(db) != dropped
    db.close()


def test_a_forked_process_makes_its_own_pool_and_leaves_the_parents_alone(postgres, url):
    db = open_database({"MAHJONG_DATABASE_URL": url})
    parent = {_backend_pid(db) for _ in range(10)}
    read, write = os.pipe()
    child = os.fork()
    if child == 0:   # the child: its own connection; exiting must not close the parent's
        try:
            os.write(write, str(_backend_pid(db)).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        child_backend = int(pipe.read())
    os.waitpid(child, 0)
    assert child_backend not in parent
    assert {_backend_pid(db) for _ in range(10)} <= parent   # the parent's own, still working
    db.close()


def test_gevent_workers_poll_on_kept_connections(postgres, url):
    proc, base = _serve({"MAHJONG_DATABASE_URL": url}, workers=2)
    try:
        status, edit = _post(base + "/sheet/share", NIGHT)
        assert status == 303
        poll = f"{base}/s/{view_token_of(edit.rsplit('/', 1)[1])}/version"

        def polls(n: int) -> set[int]:
            for _ in range(n):
                with urllib.request.urlopen(poll, timeout=30) as r:
                    assert r.status == 200
            return _backends(postgres, url)

        before = polls(40)
        assert 0 < len(before) <= 2 * POOL_SIZE
        assert polls(40) == before   # no connection opened for a poll
    finally:
        stop_group(proc)   # SIGTERM: each worker closes its pool (server.worker_exit)
    assert wait_for(lambda: _backends(postgres, url), lambda left: not left, 30) == set()


def test_a_stopping_worker_closes_its_pool(postgres, url):
    """gunicorn's worker_exit hook (app/web/serving/server.py) closes the app's pool."""
    from types import SimpleNamespace

    from app.web import create_app
    from app.web.serving.server import worker_exit
    app = create_app({"STORE_ENV": {"MAHJONG_DATABASE_URL": url}})
    assert app.test_client().post("/sheet/share", data=NIGHT).status_code == 303
    assert _backends(postgres, url)
    worker_exit(None, SimpleNamespace(wsgi=app))
    assert wait_for(lambda: _backends(postgres, url), lambda left: not left, 10) == set()
