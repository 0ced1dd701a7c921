"""The built wheel works on its own: installed into a fresh virtual environment outside the
checkout, its command prices a README example, checks the shipped rulesets and serves pages.

Run twice: with the pinned versions `make run` installs (constraints.txt) and with the lowest
versions pyproject.toml admits (constraints-lowest.txt), so a lower bound that no longer works
fails here.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT, build_solver
from .waiting import free_port, stop_group, wait_until_up

README_EXAMPLE = ["rules=hong-kong", "hand=123m456m789m234p55s", "by=self-draw", "seat=S"]


def run(args: list, cwd: Path, timeout: float = 600, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("PYTHONPATH", "VIRTUAL_ENV", "MAHJONG_RULESET_DIR", "PIP_REQUIRE_VIRTUALENV")}
    out = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                         timeout=timeout, env={**clean, **env})
    assert out.returncode == 0, out.stdout + out.stderr
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", folder, ROOT], ROOT)
    (built,) = folder.glob("mahjong_scoring_calculator-*.whl")
    return built


def test_the_wheel_carries_the_web_app_rulesets_templates_and_static_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("rulesets", "templates", "static"):
        shipped = {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts}
        assert shipped and {f"app/{name}" for name in shipped} <= names, folder
    assert {"app/web/__init__.py", "app/cli.py", "app/web/serving/server.py"} <= names
    # the Markdown extension is its own distribution (markdown-extension/): no file of it here,
    # so both install into one environment
    assert not any(n.startswith("mahjong_markdown/") for n in names)
    metadata = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    for field in ("License-Expression: MIT", "Requires-Python: >=3.11", "Project-URL: Source",
                  "Classifier: Framework :: Flask", "Requires-Dist: flask>=3.0",
                  "Requires-Dist: gunicorn[gevent]>=27.0", "Requires-Dist: psycopg[binary]"):
        assert field in metadata
    entry_points = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "mahjong-calculator = app.cli:main" in entry_points
    assert "mahjong_markdown" not in entry_points


def test_the_wheel_carries_the_outlooks_compiled_solver_where_a_c_compiler_is(wheel):
    """Built where a C compiler is, the wheel carries the solver it compiled (once: not the
    checkout's own as well) and is tagged for this platform; where none is, it is pure Python."""
    names = zipfile.ZipFile(wheel).namelist()
    wheel_file = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
    assert "app/advice/_recurrence.c" in names
    if build_solver().compiler() is None:
        assert "app/advice/_recurrence.so" not in names and wheel.name.endswith("-py3-none-any.whl")
        assert "Root-Is-Purelib: true" in wheel_file
    else:
        assert names.count("app/advice/_recurrence.so") == 1
        assert not wheel.name.endswith("-any.whl") and "Root-Is-Purelib: false" in wheel_file


def _po_messages(locale: str) -> dict[str, str]:
    from babel.messages.pofile import read_po
    with (ROOT / "app" / "translations" / locale / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return {m.id: m.string for m in read_po(handle) if m.id and isinstance(m.id, str)}


PAGES = """
import json, sys
from app.base.resources import folder
from app.web import create_app
client = create_app().test_client()
home = client.get("/")
score = client.get("/api/score?rules=hong-kong&hand=123m456m789m234p55s&by=self-draw&seat=S")
style = client.get("/static/style.css")
rules = client.get("/rules/sichuan")
rules_zh = client.get("/rules/sichuan?lang=zh-Hant")
from babel.messages.mofile import read_mo
catalogs = {}
from app.web.common.i18n import TRANSLATIONS
for mo in sorted(TRANSLATIONS.glob("*/LC_MESSAGES/messages.mo")):
    with mo.open("rb") as handle:
        catalogs[mo.parent.parent.name] = {m.id: m.string for m in read_mo(handle) if m.id and isinstance(m.id, str)}
from app.advice import outlook, recurrence
from app.rules.loader import registry
from app.vocabulary.discard import calculate_discards
rulesets = registry()
asked = calculate_discards({"rules": "hong-kong", "hand": "123m456p78s1122z57z"}, rulesets)
compiled = recurrence.solver_compiled() is not None
first = outlook.outlook(asked, outlook.DEFAULT_DRAWS, rulesets)
recurrence.solver_compiled = lambda: None   # numpy's figures, to be equal to the last bit
outlook._CACHE.clear()
same = outlook.outlook(asked, outlook.DEFAULT_DRAWS, rulesets) == first
print(json.dumps({"templates": str(folder("templates")), "home": home.status_code,
                  "solver": [compiled, str(recurrence.LIBRARY), same],
                  "rules_zh": [rules_zh.status_code, rules_zh.headers["Content-Language"],
                               rules_zh.get_data(as_text=True) != rules.get_data(as_text=True)],
                  "catalogs": catalogs,
                  "home_text": home.get_data(as_text=True)[:20000], "score": score.status_code,
                  "json": score.json, "style": style.status_code, "rules": rules.status_code}))
"""


@pytest.mark.parametrize("constraints", ["constraints.txt", "constraints-lowest.txt"])
def test_the_installed_wheel_scores_checks_and_serves_from_outside_the_checkout(
        wheel, tmp_path, constraints):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    run([bin_dir / "python", "-m", "pip", "install", "--quiet", "-c", ROOT / constraints,
         wheel], tmp_path)   # `pip install .`: no extra, the whole calculator
    work = tmp_path / "elsewhere"
    work.mkdir()
    pins = dict(line.split("==") for line in (ROOT / constraints).read_text().splitlines()
                if "==" in line and not line.startswith("#"))
    versions = json.loads(run([bin_dir / "python", "-c", "import json, importlib.metadata as m;"
                               "print(json.dumps({d: m.version(d) for d in"
                               " ('flask', 'werkzeug', 'wtforms', 'pyyaml', 'gunicorn', 'gevent')}))"],
                              work).stdout)
    pinned = {d.lower(): v for d, v in pins.items()}
    assert versions == {d: pinned[d] for d in versions}   # what was asked for was installed

    scored = run([bin_dir / "mahjong-calculator", "score", *README_EXAMPLE], work)
    assert "Total:" in scored.stdout and "S  winner" in scored.stdout

    pages = json.loads(run([bin_dir / "python", "-c", PAGES], work).stdout)
    assert Path(pages["templates"]).is_relative_to(env_dir)   # the package's copy, not ours
    assert (pages["home"], pages["score"], pages["style"], pages["rules"]) == (200, 200, 200, 200)
    assert "<form" in pages["home_text"] and pages["json"]["valid"] is True
    assert pages["json"]["total_fan"] > 0
    assert pages["rules_zh"] == [200, "zh-Hant", True]
    compiled, library, same = pages["solver"]
    assert compiled == (build_solver().compiler() is not None) and same   # the wheel's solver, where built
    assert Path(library).is_relative_to(env_dir)
    for locale in ("zh_Hant", "zh_Hans"):   # compiled into the wheel from the catalogs we ship
        assert pages["catalogs"][locale] == _po_messages(locale), locale

    shipped = env_dir.glob("lib/python*/site-packages/app/rulesets/*.yaml")
    checked = run([bin_dir / "mahjong-calculator", "check-rules", *sorted(shipped)], work)
    assert checked.stdout.count(": ok (") >= 5


@pytest.mark.parametrize("constraints", ["constraints.txt", "constraints-lowest.txt"])
def test_the_installed_command_serves_the_calculator(wheel, tmp_path, constraints):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    run([env_dir / "bin" / "python", "-m", "pip", "install", "--quiet", "-c",
         ROOT / constraints, wheel], tmp_path)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MAHJONG_RULESET_DIR")}
    proc = subprocess.Popen([env_dir / "bin" / "mahjong-calculator", "serve"], cwd=tmp_path,
                            env={**env, "HOST": "127.0.0.1", "PORT": str(port),
                                 "WEB_CONCURRENCY": "1"},
                            start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base + "/api/health", proc)
        with urllib.request.urlopen(base + "/", timeout=30) as r:
            assert r.status == 200 and "<form" in r.read().decode()
        query = "&".join(README_EXAMPLE)
        with urllib.request.urlopen(f"{base}/api/score?{query}", timeout=30) as r:
            answer = json.load(r)
        assert answer["valid"] is True and answer["payments"]
    finally:
        stop_group(proc)
