"""The core's sentences (refusals, notation errors, payment reasons, assumed values, notes) in
each language: English exactly as before, every one translated in both Chinese catalogs, and
said with the family's own words."""
from __future__ import annotations

import re

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from app.base.errors import HandError, NotationError
from app.base.i18n import Msg, Text
from app.hands.tiles import parse_tiles
from app.vocabulary import score as calculate
from app.vocabulary import waits as calculate_waits
from app.web.common.i18n import say_here
from tests.apps import shared_app

APP = shared_app()
CHINESE = ("zh-Hant", "zh-Hans")
WORD = re.compile(r"[A-Za-z]{2,}")
# Ids and notation a refusal echoes from the request: not sentences, the same in every language.
ECHOED = re.compile(r"'[^']*'|“[^”]*”|「[^」]*」|[a-z0-9]+(?:-[a-z0-9]+)+|\b[a-z]+\b(?=、|$)")

# Requests that reach every kind of sentence the core says about a hand.
REQUESTS = [
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "discarder": "N"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s"},
    {"rules": "hong-kong", "hand": "111m999m111p999p11s", "by": "self-draw"},
    {"rules": "hong-kong-course", "hand": "123m789m55s", "melds": "777p,ckong:5555z",
     "by": "self-draw", "flowers": "13", "events": "kong-replacement"},
    {"rules": "hong-kong-course", "hand": "55z66z77z99s", "melds": "555z,666z,123m", "liable": "W",
     "discarder": "N"},
    {"rules": "hong-kong-course", "hand": "55z66z77z99s", "melds": "555z,666z,123m", "liable": "W",
     "discarder": "S"},
    {"rules": "hong-kong", "hand": "55z66z77z99s", "melds": "555z,666z,123m", "liable": "W",
     "discarder": "S"},
    {"rules": "sichuan", "hand": "111p123p777p789p55p", "by": "self-draw", "missing": "m",
     "won": "N"},
    {"rules": "sichuan", "hand": "111p123p777p789p55p", "missing": "p"},
    {"rules": "sichuan", "hand": "111p123p777p789p55p", "missing": "m", "winner": "S"},
    {"rules": "hong-kong", "hand": "123m456x", "stake": "-1", "min": "99"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "events": "heavenly-hand",
     "by": "discard"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "events": "earthly-hand", "seat": "E"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "events": "earthly-hand,heavenly-hand"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "events": "kong-replacement",
     "by": "self-draw"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "won": "S"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "seat": "S", "winner": "W"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "liable": "S", "by": "self-draw"},
    {"rules": "hong-kong", "hand": "11m22m33m44m55m66m77m", "by": "self-draw"},
    {"rules": "hong-kong", "hand": "19m19p19s1234567z1m"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "cap": "1", "min": "3"},
    {"rules": "hong-kong", "ticks": "heavenly-hand,earthly-hand"},
    {"rules": "hong-kong", "ticks": "half-flush*3"},
    {"rules": "hong-kong", "ticks": "half-flush", "by": "sideways"},
    # Refusals of the table, events, liability, family conditions, dials, ticks and notation.
    {"rules": "hong-kong-course", "hand": "99s123m", "melds": "555z,666z,777z", "liable": "W",
     "discarder": "N"},
    {"rules": "hong-kong-course", "hand": "99s123m", "melds": "555z,666z,777z", "liable": "W",
     "discarder": "S"},
    {"rules": "hong-kong-course", "hand": "99s123m", "melds": "555z,666z,777z", "liable": "W",
     "by": "self-draw"},
    {"rules": "hong-kong", "hand": "99s123m", "melds": "555z,666z,777z", "liable": "W",
     "discarder": "W"},
    {"rules": "hong-kong-course", "hand": "123m456m789m234p55s", "liable": "W", "discarder": "W"},
    {"rules": "hong-kong-course", "hand": "123m456m789m234p55s", "liable": "E", "discarder": "W"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "events": "earthly-hand", "seat": "S",
     "discarder": "W"},
    {"rules": "hong-kong", "hand": "123m456m789m55s", "melds": "234p", "events": "earthly-hand",
     "seat": "S"},
    {"rules": "hong-kong", "hand": "123m456m789m55s", "melds": "234p", "events": "heavenly-hand",
     "by": "self-draw"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "events": "flower-replacement",
     "by": "self-draw"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "events": "kong-on-kong",
     "by": "self-draw"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "events": "robbing-the-kong,last-discard",
     "win": "5s"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "events": "heavenly-hand",
     "by": "self-draw", "seat": "S"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "by": "self-draw", "discarder": "S"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "discarder": "E"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "liable": "E"},
    {"rules": "sichuan", "hand": "111p123p777p789p55p", "missing": "m", "won": "E,S,W"},
    {"rules": "sichuan", "hand": "111p123p777p789p55p", "missing": "m", "won": "S",
     "discarder": "S"},
    {"rules": "sichuan", "hand": "111p123p777p789p55p", "missing": "m", "flowers": "1"},
    {"rules": "sichuan", "hand": "111p123p777p789p11z", "missing": "m"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "missing": "m"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "events": "kong-cannon"},
    {"rules": "nope"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "cap": "none"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "payment": "x", "curve": "y",
     "options": "z", "min": "x1"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "min": "20"},
    {"rules": "hong-kong", "ticks": " ".join(["half-flush"] * 61)},
    {"rules": "hong-kong", "ticks": "nope"},
    {"rules": "hong-kong", "ticks": "dragon-pong*5"},
    {"rules": "hong-kong", "ticks": "heavenly-hand"},
    {"rules": "hong-kong", "ticks": "self-draw", "by": "discard"},
    {"rules": "hong-kong", "ticks": "earthly-hand", "seat": "E"},
    {"rules": "hong-kong", "ticks": "heavenly-hand", "seat": "S"},
    {"rules": "hong-kong", "hand": "11m11m33m44m55m66m77m", "by": "self-draw",
     "options": "seven-pairs"},
    {"rules": "sichuan", "hand": "11m22m33m44m55m66m77m", "missing": "p"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "flowers": "1234", "seasons": "1234"},
    {"rules": "hong-kong", "hand": "123m456m789m234p55s", "by": "nope"},
    {"rules": "hong-kong", "hand": "fl9"},
    {"rules": "hong-kong", "hand": "0m"},
    {"rules": "hong-kong", "hand": "12"},
    {"rules": "hong-kong", "hand": "1\u0663m"},
    {"rules": "hong-kong", "hand": "1" * 300},
]


def _sentences(params: dict[str, str]) -> list[str]:
    """Every sentence the core says about one request: refusals, or reasons and notes."""
    said: list[str] = []
    try:
        calc = calculate(params)
        said += [p.reason for p in calc.payments] + [a.reason for a in calc.assumed]
        said += [i.note for i in calc.score.items if i.note]
    except HandError as err:
        said += [e.message for e in err.errors]
    if "hand" in params:
        try:
            waits = calculate_waits(params)
            said += [w.refusal for w in waits.waits if w.refusal]
        except HandError as err:
            said += [e.message for e in err.errors]
    return said


def _core(sentences: list[str]) -> list[Msg]:
    """The sentences the core made (the hand reader's own, in app/vocabulary/hand.py, aside)."""
    return [s for s in sentences if isinstance(s, Msg)]


def _msgids(value) -> set[str]:
    """The message ids of a sentence and of every sentence inside it."""
    if not isinstance(value, Msg):
        return set()
    return {value.msgid}.union(*(_msgids(v) for v in value.params.values()))


def _all_msgids() -> set[str]:
    return set().union(*(_msgids(m) for params in REQUESTS for m in _core(_sentences(params))))


def _in(lang: str, value):
    with APP.test_request_context(f"/?lang={lang}"):
        return say_here(value)


def test_the_requests_reach_many_core_sentences():
    assert len(_all_msgids()) >= 80, sorted(_all_msgids())


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("params", REQUESTS, ids=lambda p: "&".join(f"{k}={v}" for k, v in p.items()))
def test_every_core_sentence_is_said_in_chinese(params, lang):
    for sentence in _core(_sentences(params)):
        said = _in(lang, sentence)
        english = WORD.findall(ECHOED.sub("", said))
        assert not english, f"{sentence!r} in {lang}: {said!r}"
        assert re.search(r"[\u4e00-\u9fff]", said), said


def test_a_payment_reason_reads_in_english_exactly_as_before():
    calc = calculate(REQUESTS[0])
    reasons = [str(p.reason) for p in calc.payments]
    assert reasons == ["won on N's discard: 3 fan → 8 per unit; collects from every payer",
                       "pays 1 × 8 beside the discarder (Discarder pays half)",
                       "pays 1 × 8 beside the discarder (Discarder pays half)",
                       "discarded the winning tile: pays 2 × 8 (Discarder pays half)"]
    assert _in("en", calc.payments[0].reason) == reasons[0]


@pytest.mark.parametrize("rules, lang, word", [
    ("hong-kong", "zh-Hant", "出銃"), ("hong-kong", "zh-Hans", "出铳"),
    ("sichuan", "zh-Hant", "點炮"), ("sichuan", "zh-Hans", "点炮"),
])
def test_the_discarders_payment_names_the_familys_own_word(rules, lang, word):
    calc = calculate({"rules": rules, "hand": "111p123p777p789p55p", "discarder": "N",
                      "missing": "m" if rules == "sichuan" else ""})
    discarder = next(p for p in calc.payments if p.role == "discarder")
    winner = next(p for p in calc.payments if p.role == "winner")
    assert word in _in(lang, discarder.reason)
    assert _in(lang, winner.reason).startswith(("北家" if lang == "zh-Hant" else "北家") + word)


def test_a_seat_in_a_sentence_is_said_as_a_wind_in_chinese():
    calc = calculate({"rules": "hong-kong", "hand": "123m456m789m234p55s", "winner": "S"})
    taken = next(a for a in calc.assumed if a.field == "discarder")
    assert str(taken.reason) == "no discarder given: the seat after the winner, W"
    assert _in("zh-Hant", taken.reason).endswith("西") and "W" not in _in("zh-Hans", taken.reason)


def test_an_event_is_named_in_both_languages_of_an_english_page_and_alone_in_chinese():
    with pytest.raises(HandError) as err:
        calculate(REQUESTS[11])
    message = err.value.errors[0].message
    assert message.startswith("天糊 (Dealer's dealt hand wins) needs a self-draw win")
    assert _in("zh-Hans", message).startswith("天胡") or _in("zh-Hans", message).startswith("天糊")
    assert "Dealer" not in _in("zh-Hant", message)


def test_a_notation_error_keeps_its_sentence_through_str():
    with pytest.raises(NotationError) as err:
        parse_tiles("123m456x")
    said = str(err.value)
    assert isinstance(said, Msg)
    assert said == ("'456' is followed by 'x', not a suit letter (m, p, s or z)"
                    " (in '123m456x' at position 5)")
    assert _in("zh-Hant", said) == "「456」後面是 'x'，不是花色字母（m、p、s 或 z）（'123m456x' 第 5 個字元）"


def test_an_api_refusal_is_said_in_the_language_asked():
    client = APP.test_client()
    english = client.get("/api/score?rules=hong-kong&hand=123m456m789m234p55s&stake=x").get_json()
    chinese = client.get("/api/score?rules=hong-kong&hand=123m456m789m234p55s&stake=x"
                         "&lang=zh-Hans").get_json()
    assert english["errors"][0]["message"].startswith("'x' is not a stake")
    assert chinese["errors"][0]["message"].startswith("“x”不是有效的底注")


def test_every_core_message_met_has_both_translations_in_the_catalogs():
    msgids = _all_msgids()
    for locale in ("zh_Hant", "zh_Hans"):
        with open(f"app/translations/{locale}/LC_MESSAGES/messages.po", "rb") as f:
            catalog = read_po(f)
        missing = [m for m in sorted(msgids) if not (catalog.get(m) and catalog.get(m).string)]
        assert not missing, f"{locale}: {missing}"


CORE = ("practice/answers", "rules/conditions", "hands/events", "base/errors", "scoring/payments", "hands/phrases",
        "scoring/calculation", "vocabulary/request", "scoring/selection", "hands/tiles", "scoring/budget")


def test_every_sentence_written_in_the_core_has_both_translations():
    msgids = {message for name in CORE
              for _, message, _, _ in extract_from_file("python", f"app/{name}.py",
                                                        keywords={"Msg": None, "N_": None})}
    assert len(msgids) > 120
    for locale in ("zh_Hant", "zh_Hans"):
        with open(f"app/translations/{locale}/LC_MESSAGES/messages.po", "rb") as f:
            catalog = read_po(f)
        missing = [m for m in sorted(msgids) if not (catalog.get(m) and catalog.get(m).string)]
        assert not missing, f"{locale}: {missing}"


def test_a_name_passed_as_a_ruleset_name_reads_alone_in_english_sentences():
    with pytest.raises(HandError) as err:
        calculate({"rules": "hong-kong", "hand": "123m456m789m234p55s", "won": "S"})
    message = err.value.errors[0].message
    assert message.startswith("Hong Kong 36 hands ends the hand at the first win")
    assert isinstance(message.params["rules"], Text)


@pytest.mark.parametrize("rules, lang, way", [
    ("hong-kong", "zh-Hant", "食出銃"), ("hong-kong", "zh-Hans", "食出铳"),
    ("sichuan", "zh-Hant", "點炮胡"), ("sichuan", "zh-Hans", "点炮胡"),
])
def test_a_way_of_winning_is_said_in_the_familys_words(rules, lang, way):
    with pytest.raises(HandError) as err:
        calculate({"rules": rules, "ticks": "self-draw", "by": "discard"})
    message = err.value.errors[0].message
    assert message.endswith("needs a self-draw win, not a discard")
    assert _in(lang, message).endswith(way)
