"""The command line prints a hand's breakdown and payments for lesson authors."""
from __future__ import annotations

from app.__main__ import main


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
    assert "seat: 'Q' is not a wind" in err and "hand: 3 tiles in the hand make 3" in err


def test_score_refuses_words_that_are_not_key_value(capsys):
    assert main(["score", "sichuan"]) == 2
    assert "'sichuan' is not key=value" in capsys.readouterr().err


def test_run_explains_itself(capsys):
    assert main(["run"]) == 0
    assert "python -m app score" in capsys.readouterr().out
