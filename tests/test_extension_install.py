"""The Markdown extension installs light and honestly: the README's own command, run in a fresh
virtual environment, brings what drawing a figure needs and none of the server's packages, and
MkDocs then builds a lesson site whose project has an `app/` folder of its own (the calculator's
package is `app` too: mahjong_markdown loads it by its path, never the project's)."""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import venv
from pathlib import Path

import pytest

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
SERVER_ONLY = {"gunicorn", "gevent", "greenlet", "psycopg", "psycopg-binary", "psycopg-pool",
               "xiangting", "resvg-py", "zope-event", "zope-interface"}


def run(args: list, cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("PYTHONPATH", "VIRTUAL_ENV", "MAHJONG_RULESET_DIR", "PIP_REQUIRE_VIRTUALENV")}
    out = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                         timeout=timeout, env={**clean, "NO_MKDOCS_2_WARNING": "1"})
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return out


def readme_install_command() -> list[str]:
    """The README's command for a Markdown site, its clone's path as the README writes it."""
    lines = [line for line in README.splitlines() if line.startswith("pip install ")]
    assert len(lines) == 1, lines
    return shlex.split(lines[0].split("#")[0])


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with the README's command run in it (the clone being this checkout)."""
    folder = tmp_path_factory.mktemp("extension")
    venv.create(folder / "venv", with_pip=True)
    python = folder / "venv" / "bin" / "python"
    command = readme_install_command()
    assert command[:2] == ["pip", "install"]
    target = Path(next(w for w in command[2:] if not w.startswith("-")))
    (folder / target.parts[0]).symlink_to(ROOT, target_is_directory=True)   # "a clone of this repository"
    run([python, "-m", *command, "-c", ROOT / "constraints.txt"], folder)
    return python


def test_the_readmes_command_brings_no_server_package(installed: Path):
    listed = json.loads(run([installed, "-m", "pip", "list", "--format=json"], ROOT).stdout)
    names = {_normal(p["name"]) for p in listed}
    assert "mahjong-calculator-markdown" in names and "markdown" in names and "flask" in names
    assert "mahjong-scoring-calculator" not in names   # the calculator's own package: the server
    assert not names & SERVER_ONLY, names & SERVER_ONLY
    assert len(names - {"pip", "setuptools"}) <= 16, sorted(names)
    # the calculator's code inside it: its sources, never the checkout's compiled solver
    (package,) = installed.parent.parent.glob("lib/python*/site-packages/mahjong_markdown")
    assert list(package.rglob("_recurrence.c")) and not list(package.rglob("_recurrence.so*"))


def test_mkdocs_builds_a_site_whose_project_has_its_own_app_folder(installed: Path, tmp_path):
    run([installed, "-m", "pip", "install", "--quiet", "-c", ROOT / "constraints.txt", "mkdocs"],
        tmp_path)
    project = tmp_path / "lessons"
    (project / "app").mkdir(parents=True)
    (project / "app" / "__init__.py").write_text(
        'raise ImportError("the lesson project\'s own app package was imported")\n')
    (project / "docs").mkdir()
    (project / "docs" / "index.md").write_text(
        "# Lesson\n\nThe pair {mahjong 55s}.\n\n```mahjong\n"
        "rules=hong-kong hand=123m456m789m234p55s by=self-draw seat=S\n```\n", encoding="utf-8")
    (project / "mkdocs.yml").write_text(
        'site_name: Lessons\nmarkdown_extensions:\n  - mahjong: {base_url: "https://calc.example.org"}\n')
    done = run([installed, "-m", "mkdocs", "build", "--strict"], project)   # the project first on sys.path
    page = (project / "site" / "index.html").read_text(encoding="utf-8")
    assert page.count('class="mahjong-figure') == 1 and "4 fan" in page, done.stderr
    assert 'href="https://calc.example.org/?rules=hong-kong' in page
