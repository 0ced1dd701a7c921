"""The command line (`mahjong-calculator`, `python -m app`): score a hand, check a ruleset file."""
from __future__ import annotations

import subprocess
import sys

from app.cli import main
from app.rules.loader import RULESET_DIR

from .conftest import ROOT


def test_score_prints_the_breakdown_and_who_pays(capsys):
    code = main(["score", "rules=sichuan", "hand=111p123p777p789p55p", "by=self-draw"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Four of a kind" in out and "根" in out and "×2" in out
    assert "Total: 8 fan" in out and "8 fan = 8 points" in out
    assert "E  winner      +      24" in out and out.count("pays 1 × 8") == 3


def test_score_reports_each_bad_field_and_fails(capsys):
    code = main(["score", "rules=sichuan", "hand=123m", "seat=Q"])
    err = capsys.readouterr().err
    assert code == 1
    assert "seat: 'Q' is not a wind" in err and "hand: 3 tiles in the hand; a winning hand needs 14" in err


def test_score_refuses_words_that_are_not_key_value(capsys):
    assert main(["score", "sichuan"]) == 2
    assert "'sichuan' is not key=value" in capsys.readouterr().err


def test_no_command_prints_the_usage_and_an_unknown_one_fails(capsys):
    assert main([]) == 0
    assert "check-rules FILE" in capsys.readouterr().out
    assert main(["frobnicate"]) == 2
    assert "unknown command 'frobnicate'" in capsys.readouterr().err


HOUSE = """\
extends: hong-kong
name: {en: Our house, zh_hant: 家規, zh_hans: 家规}
dials: {min: 0}
patterns:
  - {id: all-pongs, fan: 5}
"""


def test_score_reads_the_rulesets_of_mahjong_ruleset_dir(tmp_path, monkeypatch, capsys):
    (tmp_path / "our-house.yaml").write_text(HOUSE, encoding="utf-8")   # extends a shipped family
    monkeypatch.setenv("MAHJONG_RULESET_DIR", str(tmp_path))
    assert main(["score", "rules=our-house", "hand=111m222p333s444m55p", "by=self-draw"]) == 0
    assert "對對糊" in capsys.readouterr().out
    assert main(["score", "rules=hong-kong", "hand=111m222p333s444m55p"]) == 1
    assert "unknown ruleset 'hong-kong'" in capsys.readouterr().err   # only that folder is read


def test_check_rules_says_ok_for_every_shipped_file(capsys):
    files = sorted(str(p) for p in RULESET_DIR.glob("*.yaml"))
    assert len(files) >= 5 and main(["check-rules", *files]) == 0
    assert capsys.readouterr().out.count(": ok (") == len(files)


def test_check_rules_names_the_file_and_key_of_a_mistake(tmp_path, capsys):
    bad = tmp_path / "ours.yaml"
    bad.write_text(HOUSE.replace("fan: 5", "fan: 5, detect: ful_flush"), encoding="utf-8")
    assert main(["check-rules", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ours.yaml: patterns[") and "ful_flush" in err
    assert main(["check-rules", str(tmp_path / "missing.yaml")]) == 1
    assert "missing.yaml: no such file" in capsys.readouterr().err


def test_check_rules_passes_a_house_file_kept_outside_the_shipped_folder(tmp_path, capsys):
    (tmp_path / "ours.yaml").write_text(HOUSE, encoding="utf-8")
    assert main(["check-rules", str(tmp_path / "ours.yaml")]) == 0
    assert "ours.yaml: ok (ours:" in capsys.readouterr().out


def test_python_dash_m_app_is_the_same_command():
    out = subprocess.run([sys.executable, "-m", "app", "score", "rules=hong-kong",
                          "hand=123m456m789m234p55s", "by=self-draw", "seat=S"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Total:" in out.stdout


def test_serve_takes_its_settings_from_the_environment_only(capsys):
    assert main(["serve", "--port", "80"]) == 2
    assert "HOST, PORT and WEB_CONCURRENCY" in capsys.readouterr().err
