"""The README's examples work: every API call it shows, and the command-line example."""
from __future__ import annotations

import re
import shlex

import pytest

from app.cli import main
from app.web import create_app

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
CURLS = [shlex.split(line) for line in README.splitlines() if line.startswith("curl ")]


def test_the_readme_shows_one_call_per_api_endpoint():
    app = create_app()
    endpoints = {r.rule for r in app.url_map.iter_rules() if r.rule.startswith("/api/")}
    shown = {re.sub(r"^https?://[^/]+", "", next(w for w in c if "://" in w)).split("?")[0]
             for c in CURLS}
    assert shown == endpoints


@pytest.mark.parametrize("words", CURLS, ids=[next(w for w in c if "://" in w) for c in CURLS])
def test_each_api_call_in_the_readme_answers(words):
    client = create_app().test_client()
    url = re.sub(r"^https?://[^/]+", "", next(w for w in words if "://" in w))
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


def test_the_command_line_examples_in_the_readme_run(capsys):
    lines = [shlex.split(line.split("#")[0]) for line in README.splitlines()
             if line.startswith("mahjong-calculator score")]
    assert lines
    for words in lines:
        assert main(words[1:]) == 0
        assert "Total:" in capsys.readouterr().out
