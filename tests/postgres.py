"""A throw-away PostgreSQL for the tests: Debian's server on loopback, in a temporary folder.

`make test` installs Debian's `postgresql` when it is missing (`make postgresql`). The suite
runs initdb and pg_ctl from it, as the `postgres` system user when the tests run as root
(PostgreSQL refuses to run as root), listening on 127.0.0.1 only, on a free port, with trust
authentication (loopback, a folder only this run knows), and stops it afterwards.
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from tests.waiting import free_port


def _binary(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [shutil.which(name) or ""]
    if not found[-1]:
        raise RuntimeError(f"PostgreSQL's {name} is missing: `make postgresql` installs Debian's postgresql")
    return found[-1]


class Postgres:
    """One running server; `new_database()` gives each test a database of its own."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="mahjong-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:    # initdb and postgres refuse root: run them as `postgres`
            self.as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.folder, "postgres")
            os.chmod(self.folder, 0o700)
        self.user = "postgres" if self.as_user else os.environ.get("USER", "postgres")
        self.count = 0

    def _run(self, *command: str) -> None:
        subprocess.run([*self.as_user, *command], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, cwd="/")

    def start(self) -> Postgres:
        self._run(_binary("initdb"), "-D", str(self.data), "--auth=trust", "-U", self.user,
                  "--encoding=UTF8", "--no-sync")
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} "
                   "-c max_connections=200")
        self._run(_binary("pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "log"), "-w",
                  "-t", "60", "-o", options, "start")
        return self

    def stop(self) -> None:
        try:
            self._run(_binary("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database's address."""
        import psycopg
        self.count += 1
        name = f"t{os.getpid()}_{self.count}_{int(time.time() * 1000) % 100000}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)
