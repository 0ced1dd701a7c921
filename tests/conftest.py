"""Shared fixtures: the app and its test client, the test data shipped in tests/data/ (corpus,
seed tables), the stored-sheet databases."""
from __future__ import annotations

import atexit
import importlib.util
import json
import os
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]

# No test writes a shared sheet into the checkout or into a real data folder: an app the tests
# make without its own STORE_ENV keeps its sheets in a temporary folder, removed when the run
# (each xdist worker its own) ends.
os.environ["MAHJONG_DATA_DIR"] = tempfile.mkdtemp(prefix="mahjong-test-data-")
atexit.register(shutil.rmtree, os.environ["MAHJONG_DATA_DIR"], ignore_errors=True)
os.environ.pop("MAHJONG_DATABASE_URL", None)
DATA = Path(__file__).resolve().parent / "data"


def build_solver():
    """tools/build_solver.py, loaded by its path: what `make` and a wheel's build compile the
    outlook's solver with (`compiler()`: the C compiler's command, or None where there is none)."""
    spec = importlib.util.spec_from_file_location("build_solver", ROOT / "tools" / "build_solver.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def load_corpus(name: str, folder: Path = DATA / "corpus") -> list[dict]:
    """Read one corpus file's hands (tests/data/corpus/, made by tests/data/make_corpus.py)."""
    return json.loads((folder / name).read_text(encoding="utf-8"))["hands"]


# Hypothesis in this suite: no per-example deadline and no "too slow" health check. Both are
# timings, which a busy machine breaks (a 257 ms example under load failed a 200 ms deadline
# while two busy loops ran); speed is measured in tests/bench/, never asserted here.
settings.register_profile("suite", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


def pytest_collection_modifyitems(items):
    """Every test its own node id. schemathesis names each API operation's test by it
    (`…[GET /api/score]`) but gives them all the function's node id, and pytest-xdist's
    --dist loadscope (`make test`) hands a worker node ids: it ran the first operation alone."""
    count = Counter(item.nodeid for item in items)
    for item in items:
        module, _, name = item.nodeid.rpartition("::")
        if count[item.nodeid] > 1 and item.name != name:
            if hasattr(item, "_id"):   # pytest 9 keeps the id as a NodeId
                item._id = item.parent.id.child(item.name)
            else:
                item._nodeid = f"{module}::{item.name}"
    twice = [nodeid for nodeid, n in Counter(item.nodeid for item in items).items() if n > 1]
    assert not twice, f"tests with the same node id: {twice}"


@pytest.fixture(scope="session")
def app():
    """The app with its default settings, one for the whole run (tests/apps.py): for the tests
    that only ask it. A test that changes an app's config or needs other settings makes its own
    with create_app({...}); the stored sheets it writes go to this run's temporary data folder."""
    from tests.apps import shared_app
    return shared_app()


@pytest.fixture
def client(app):
    """A fresh test client of the shared app (no cookie carried over from another test)."""
    return app.test_client()


@pytest.fixture(scope="session")
def postgres():
    """Debian's PostgreSQL on loopback for this run (tests/postgres.py), stopped after."""
    from tests.postgres import Postgres
    server = Postgres().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_env(request, tmp_path):
    """The settings that open a fresh stored-sheet database: SQLite in a temporary folder, or
    a new database on the suite's PostgreSQL."""
    if request.param == "sqlite":
        return {"MAHJONG_DATA_DIR": str(tmp_path / "data")}
    return {"MAHJONG_DATABASE_URL": request.getfixturevalue("postgres").new_database()}
