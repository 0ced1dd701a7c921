"""The README and the docs pages show what works: every API call, every command-line example,
the README's first hand as it prints, every variable the app reads, and links that lead
somewhere. The README stays short, with the two set-up commands on its first screen."""
from __future__ import annotations

import re
import shlex

import pytest

from app.cli import main

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {path.name: path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md"))}
SHOWN = {"README.md": README, **{f"docs/{name}": text for name, text in DOCS.items()}}
CURLS = [(where, shlex.split(line)) for where, text in SHOWN.items()
         for line in text.splitlines() if line.startswith("curl ")]


def _url(words: list[str]) -> str:
    return re.sub(r"^https?://[^/]+", "", next(w for w in words if "://" in w))


def test_the_api_page_shows_one_call_per_api_endpoint(app):
    endpoints = {r.rule for r in app.url_map.iter_rules() if r.rule.startswith("/api/")}
    shown = {_url(words).split("?")[0] for where, words in CURLS if where == "docs/api.md"}
    assert shown == endpoints


@pytest.mark.parametrize("where, words", CURLS,
                         ids=[f"{where}:{_url(words)[:60]}" for where, words in CURLS])
def test_each_api_call_shown_answers(client, where, words):
    url = _url(words)
    if "-X" in words:
        body = words[words.index("-d") + 1]
        response = client.open(url, method=words[words.index("-X") + 1], data=body,
                               content_type="application/json")
    else:
        response = client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)
    answer = response.get_json()
    assert answer is not None
    if url.startswith(("/api/score", "/api/waits", "/api/settle")):
        assert answer["valid"] is True
    if url.startswith("/api/waits"):
        assert [w["tile"] for w in answer["waits"]] == ["1s", "4s"]


def test_the_command_line_examples_shown_run(capsys):
    lines = [(where, shlex.split(line.split("#")[0])) for where, text in SHOWN.items()
             for line in text.splitlines() if line.startswith("mahjong-calculator score")]
    assert {where for where, _ in lines} >= {"README.md", "docs/getting-started.md"}
    for where, words in lines:
        assert main(words[1:]) == 0, where
        assert "Total:" in capsys.readouterr().out, where


def test_the_readme_first_hand_prints_what_the_readme_says(capsys):
    command = re.search(r"^mahjong-calculator (score .*)$", README, re.M)[1]
    printed = re.search(r"^prints:\n\n```text\n(.*?)^```", README, re.M | re.S)[1]
    assert main(shlex.split(command)) == 0
    assert capsys.readouterr().out == printed


def test_the_readme_is_short_with_the_two_commands_on_its_first_screen():
    lines = README.splitlines()
    assert len(lines) <= 150
    first_screen = lines[:40]
    for command in ("make run ", "make test "):
        assert any(line.startswith(command) for line in first_screen), command


def test_the_readme_links_lead_to_files_of_the_checkout():
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    local = [link for link in links if "://" not in link]
    assert "docs/images/result-page.png" in local
    assert {f"docs/{name}" for name in DOCS} <= set(local)   # every docs page is linked
    missing = [link for link in local if not (ROOT / link).is_file()]
    assert not missing


def test_the_settings_table_lists_every_variable_the_app_reads():
    read = set()
    for path in (ROOT / "app").rglob("*.py"):
        read |= set(re.findall(r'"((?:MAHJONG_[A-Z_]+)|WEB_CONCURRENCY|FLASK_DEBUG)"',
                               path.read_text(encoding="utf-8")))
    table = DOCS["serving.md"].split("## Settings", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([A-Z_]+)`", table, re.M))
    assert read, "no variable found: the pattern no longer matches the code"
    assert read <= listed, sorted(read - listed)


@pytest.mark.parametrize("path, pages", [
    ("/api/score", ["hand-notation.md", "rules.md"]),
    ("/api/waits", ["hand-notation.md", "rules.md"]),
    ("/api/discard", ["hand-notation.md", "rules.md", "discard.md"]),
    ("/api/sheet", ["rules.md", "sheets.md"]),
])
def test_the_docs_name_every_parameter_the_api_describes(client, path, pages):
    spec = client.get("/api/openapi.json").get_json()
    params = {p["name"] for p in spec["paths"][path]["get"]["parameters"]}
    text = "\n".join(DOCS[page] for page in pages)
    named = set(re.findall(r"`([a-z]+)(?:=[^`]*)?`", text))
    assert params, path
    assert params <= named, sorted(params - named)
