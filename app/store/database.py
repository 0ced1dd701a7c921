"""The two databases behind one small DB-API interface: SQLite (a file, WAL) or PostgreSQL.

Every call has its own transaction (SQLite: its own connection; PostgreSQL: one borrowed from
the process's pool), so any number of processes (gunicorn workers, instances behind a
balancer) can share one database: SQLite serialises writers with
BEGIN IMMEDIATE, PostgreSQL with a row lock on the sheet (sheets.py). A write is confirmed only
after its COMMIT returned, and both databases make a commit durable before that (SQLite's
synchronous=FULL in WAL mode, PostgreSQL's default fsync), so a killed server keeps it.
"""
from __future__ import annotations

import os
import sqlite3
import threading
import weakref
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from .schema import MIGRATIONS

DATABASE_FILE = "sheets.sqlite3"
BUSY_TIMEOUT = 30.0      # seconds a writer waits for SQLite's lock before giving up
POOL_SIZE = 4            # PostgreSQL connections one process keeps at most (requests take turns)
CLOSE_TIMEOUT = 5.0      # seconds closing the pool waits for connections still lent


class Database:
    """One database: `transaction()` yields a cursor whose SQL uses `?` placeholders."""

    kind = ""

    @contextmanager
    def transaction(self) -> Iterator[Cursor]:
        raise NotImplementedError

    @contextmanager
    def read(self) -> Iterator[Cursor]:
        """A cursor for one statement that only reads (a poll): no transaction around it, so
        it waits for no writer's lock and costs the database one round trip."""
        raise NotImplementedError

    def close(self) -> None:
        """Let go of what the database holds open (PostgreSQL's pool; SQLite holds nothing)."""

    def migrate(self) -> int:
        """Apply the migrations not yet applied; the schema's version after."""
        with self.transaction() as cur:
            cur.lock_schema()
            cur.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        for number, statements in enumerate(MIGRATIONS, 1):
            with self.transaction() as cur:
                cur.lock_schema()
                cur.execute("SELECT version FROM schema_version")
                row = cur.fetchone()
                done = row[0] if row else 0
                if done >= number:
                    continue
                for statement in statements:
                    cur.execute(statement)
                if row:
                    cur.execute("UPDATE schema_version SET version = ?", (number,))
                else:
                    cur.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
        return len(MIGRATIONS)


class Cursor:
    """A DB-API cursor that reads `?` placeholders on either database."""

    def __init__(self, raw, placeholder: str, lock_sql: str = "") -> None:
        self.raw = raw
        self.placeholder = placeholder
        self.lock_sql = lock_sql

    def execute(self, sql: str, params: tuple = ()) -> Cursor:
        if self.placeholder != "?":
            sql = sql.replace("?", self.placeholder)
        self.raw.execute(sql, params)
        return self

    def fetchone(self):
        return self.raw.fetchone()

    def fetchall(self):
        return self.raw.fetchall()

    @property
    def rowcount(self) -> int:
        """Rows the last statement wrote (0 for an insert its ON CONFLICT let go)."""
        return self.raw.rowcount

    def lock_schema(self) -> None:
        """Keep two processes from migrating at once."""
        if self.lock_sql:
            self.raw.execute(self.lock_sql)


class SQLiteDatabase(Database):
    kind = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as conn:
            conn.execute("PRAGMA journal_mode=WAL")

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    @contextmanager
    def transaction(self) -> Iterator[Cursor]:
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")   # the write lock first: no upgrade deadlock
            try:
                yield Cursor(conn.cursor(), "?")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            conn.close()

    @contextmanager
    def read(self) -> Iterator[Cursor]:
        conn = self._connect()
        try:
            yield Cursor(conn.cursor(), "?")   # autocommit: the statement is its own transaction
        finally:
            conn.close()


class PostgresDatabase(Database):
    """PostgreSQL through a pool of connections (psycopg_pool): a transaction borrows one and
    gives it back, so a poll costs a query, not a connection (a TCP handshake, authentication
    and a new server process). The pool is made on first use in the process that uses it, so
    each gunicorn worker has its own, made after the fork; a connection is checked before it
    is lent (one the server dropped is replaced), and `close()` (or the process's exit) closes
    them all."""

    kind = "postgresql"

    def __init__(self, url: str, pool_size: int = POOL_SIZE) -> None:
        import psycopg  # only when PostgreSQL is asked for
        self.psycopg = psycopg
        self.url = url
        self.pool_size = pool_size
        self._pool = None
        self._pid = 0
        self._inherited: list = []
        self._lock = threading.Lock()   # gevent's under gunicorn's gevent worker (patched)

    def pool(self):
        """This process's pool, made now if it has none (a forked child never shares its
        parent's connections)."""
        with self._lock:
            if self._pool is None or self._pid != os.getpid():
                from psycopg_pool import ConnectionPool
                if self._pool is not None:   # the parent's: its sockets are the parent's too,
                    self._inherited.append(self._pool)   # never closed (nor collected) here
                self._pool = ConnectionPool(self.url, min_size=1, max_size=self.pool_size,
                                            kwargs={"autocommit": True}, open=True, check=ConnectionPool.check_connection,
                                            name="mahjong-sheets")
                self._pid = os.getpid()
                # closed at exit, or when this database is dropped (a test's)
                weakref.finalize(self, _close_in, self._pid, self._pool)
            return self._pool

    @contextmanager
    def transaction(self) -> Iterator[Cursor]:
        with self.pool().connection() as conn:
            with conn.transaction(), conn.cursor() as raw:   # commits on leaving, rolls back on error
                yield Cursor(raw, "%s", "SELECT pg_advisory_xact_lock(2929)")

    @contextmanager
    def read(self) -> Iterator[Cursor]:
        with self.pool().connection() as conn, conn.cursor() as raw:   # autocommit
            yield Cursor(raw, "%s")

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                _close_in(self._pid, self._pool)
            self._pool = None


def _close_in(pid: int, pool) -> None:
    """Close a pool in the process that made it (a forked child inherits the finalizer too)."""
    if os.getpid() == pid:
        pool.close(timeout=CLOSE_TIMEOUT)


def data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The folder the SQLite file lives in: MAHJONG_DATA_DIR, else ./data."""
    return Path(environ.get("MAHJONG_DATA_DIR") or "data")


def open_database(environ: Mapping[str, str] = os.environ) -> Database:
    """PostgreSQL when MAHJONG_DATABASE_URL names one, else SQLite in the data folder; migrated."""
    url = environ.get("MAHJONG_DATABASE_URL", "").strip()
    if url.startswith(("postgresql://", "postgres://")):
        db: Database = PostgresDatabase(url)
    elif url:
        raise ValueError(f"MAHJONG_DATABASE_URL={url[:40]!r}: give a postgresql:// address, or leave it"
                         " unset for SQLite in MAHJONG_DATA_DIR")
    else:
        db = SQLiteDatabase(data_dir(environ) / DATABASE_FILE)
    db.migrate()
    return db
