"""Property-based fuzzing of the parser and of every route, through one app's test client.

Each generated request must be answered without a 5xx and without a traceback in the
body. The module sends well over 10,000 requests (counted, and checked by the last test);
examples are spread over routes in proportion to how cheap they are, to keep CI quick.
`MAHJONG_FUZZ_SCALE=10 pytest tests/web/test_fuzz.py` fuzzes ten times longer.
"""
from __future__ import annotations

import json
import os
import re
from collections import Counter
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.base.errors import HandError
from app.hands.tiles import parse_tiles
from app.rules.loader import registry
from app.vocabulary import score as calculate
from app.vocabulary import waits as calculate_waits
from app.vocabulary.hand import EVENT_RULES, describe, parse_hand, read_meld
from tests.apps import shared_app
from tests.strategies import complete_hands

# The count at the end reads what the tests above sent in this process: under pytest-xdist the
# module stays on one worker (`make test`'s --dist loadscope keeps every module whole; this
# group does the same for --dist loadgroup).
pytestmark = pytest.mark.xdist_group("fuzz")

RULESETS = registry()
APP = shared_app()                 # the app the page tests share (tests/apps.py)
CLIENT = APP.test_client()
HAS_SETTLE = any(r.rule == "/api/settle" for r in APP.url_map.iter_rules())

SENT: Counter[str] = Counter()     # requests sent, by test
STATUS: Counter[int] = Counter()
TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \"[^\"]+\.py\", line \d+|"
                       r"werkzeug\.debug|__debugger__")

# --- what requests are made of ------------------------------------------------------------

NAMES = ["rules", "hand", "win", "melds", "by", "seat", "round", "flowers", "seasons", "events",
         "missing", "ticks", "fan", "options", "min", "cap", "curve", "payment", "stake",
         "discarder", "winner", "won", "liable", "add", "remove", "make", "unmeld", "clear",
         "undraft", "draft", "target", "n.dragon-pong", "n.", "x"]
IDS = sorted({i for r in RULESETS.values() for i in (
    [r.id] + [p.id for p in r.patterns] + list(r.curves) + list(r.payments)
    + list(r.option_ids) + list(r.events))} | set(EVENT_RULES))
TOKENS = IDS + ["E", "S", "W", "N", "m", "p", "s", "z", "self-draw", "discard", "none", "meld",
                "hand", "chow", "pong", "kong", "ckong", "akong", "0", "1", "13", "14", "-1",
                "99999999999999999999", "1/0", "0.5", "nan", "inf", "²", "١", "５", "東",
                "../rulesets/sichuan", "%00", "<script>", "1e400"]
TILE_TEXT = st.text(alphabet="0123456789mpsz ,:fle", max_size=40)
NO_SURROGATES = st.characters(exclude_categories=("Cs",))
JUNK = st.text(alphabet=NO_SURROGATES, max_size=30)
LONG = st.builds(lambda c, n: c * n, st.sampled_from(["9", "1m", "a", "中", ","]),
                 st.integers(100, 5000))


def _value():
    return st.one_of(st.sampled_from(TOKENS), TILE_TEXT, JUNK,
                     st.lists(st.sampled_from(TOKENS), max_size=6).map(",".join),
                     st.builds(lambda s, n: f"{s}*{n}", st.sampled_from(IDS), st.integers(-3, 200)),
                     LONG)


@st.composite
def described_hands(draw) -> dict[str, str]:
    """A real winning hand written in the public vocabulary, so requests reach the scoring."""
    hand = draw(complete_hands(honours=draw(st.booleans())))
    return describe(hand)


@st.composite
def queries(draw) -> list[tuple[str, str]]:
    """Query pairs: often a real hand with a few fields changed, sometimes pure noise."""
    pairs: list[tuple[str, str]] = []
    if draw(st.booleans()):
        pairs += list(draw(described_hands()).items())
        if draw(st.booleans()):   # thirteen tiles: the waits
            hand = pairs[0][1]
            tiles = parse_tiles(hand)
            pairs = [(k, v) for k, v in pairs if k not in ("hand", "win")]
            pairs.append(("hand", "".join(t.code for t in tiles[:-1])))
    if draw(st.booleans()):
        pairs.append(("rules", draw(st.sampled_from(sorted(RULESETS) + ["nope", ""]))))
    extra = draw(st.lists(st.tuples(st.one_of(st.sampled_from(NAMES), JUNK), _value()), max_size=5))
    pairs += extra
    if draw(st.integers(0, 9)) == 0:   # repeated parameters
        name, value = draw(st.sampled_from(NAMES)), draw(_value())
        pairs += [(name, value)] * draw(st.integers(2, 70))
    return pairs


def _check(response, method: str = "GET") -> None:
    STATUS[response.status_code] += 1
    # a picture (/og/*.png, a link preview's) is bytes, not text
    body = "" if response.mimetype.startswith("image/") else response.get_data(as_text=True)
    assert response.status_code < 500, (response.status_code, body[:500])
    assert not TRACEBACK.search(body), body[:2000]
    assert "Set-Cookie" not in response.headers
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert "Content-Security-Policy" in response.headers
    if response.mimetype == "application/json" and method != "HEAD":
        answer = response.json
        if response.status_code == 400:
            assert answer["valid"] is False and answer["errors"], answer


def _get(test: str, url: str):
    SENT[test] += 1
    response = CLIENT.get(url)
    _check(response)
    return response


SCALE = max(1, int(os.environ.get("MAHJONG_FUZZ_SCALE", "1")))   # on demand: fuzz longer
FUZZ = settings(deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])

# --- the parser ---------------------------------------------------------------------------


@settings(FUZZ, max_examples=2000 * SCALE)
@given(st.one_of(TILE_TEXT, JUNK, LONG))
def test_tile_notation_either_reads_or_says_why(text):
    try:
        tiles = parse_tiles(text)
    except ValueError as err:
        assert str(err)
    else:
        assert all(0 <= t < 42 for t in tiles)


@settings(FUZZ, max_examples=1500 * SCALE)
@given(st.one_of(TILE_TEXT, JUNK, st.builds(lambda p, t: f"{p}:{t}", st.sampled_from(
    ["kong", "ckong", "akong", "chow", "pong", "fish", ""]), TILE_TEXT)))
def test_a_meld_token_either_reads_or_says_why(token):
    try:
        meld = read_meld(token)
    except ValueError as err:
        assert str(err)
    else:
        assert len(meld.tiles) in (3, 4)


@settings(FUZZ, max_examples=800 * SCALE)
@given(queries())
def test_the_hand_description_either_reads_or_names_the_field(pairs):
    params = dict(pairs)
    for reader in (parse_hand, calculate, calculate_waits):
        try:
            reader(params) if reader is parse_hand else reader(params, RULESETS)
        except HandError as err:
            assert err.errors and all(e.message for e in err.errors)


# --- every route --------------------------------------------------------------------------

# every GET route without a path argument reads the query: pages added later are fuzzed too
QUERY_ROUTES = sorted(r.rule for r in APP.url_map.iter_rules()
                      if "GET" in r.methods and not r.arguments and r.endpoint != "static")


@settings(FUZZ, max_examples=300 * SCALE)
@given(queries())
def test_every_page_answers_a_generated_query(pairs):
    """Each generated query goes to every page and API route that reads one."""
    query = urlencode(pairs)
    for path in QUERY_ROUTES:
        response = _get("query", f"{path}?{query}")
        if path.startswith("/api/") and path != "/api/openapi.json":
            assert response.status_code in (200, 400)
        else:
            assert response.status_code in (200, 302, 400, 414)


@settings(FUZZ, max_examples=1500 * SCALE)
@given(queries())
def test_the_api_answers_a_generated_query_with_json(pairs):
    query = urlencode(pairs)
    for path in ("/api/score", "/api/waits"):
        response = _get("api", f"{path}?{query}")
        assert response.status_code in (200, 400) and response.mimetype == "application/json"
        assert isinstance(response.json["valid"], bool)


@settings(FUZZ, max_examples=1500 * SCALE)
@given(st.binary(max_size=200), st.sampled_from(["/", "/api/score", "/api/waits", "/api/score"]))
def test_raw_query_bytes_never_break_a_route(raw, path):
    """Percent-encoded arbitrary bytes: invalid UTF-8, NULs, lone '&' and '='."""
    _get("bytes", f"{path}?{quote(raw, safe='=&')}")


PATHS = st.one_of(
    st.builds(lambda s: "/rules/" + quote(s, safe=""), st.one_of(st.sampled_from(sorted(RULESETS)), JUNK)),
    st.builds(lambda s: "/static/" + quote(s, safe="/"), st.one_of(
        st.sampled_from(["style.css", "app.js", "tiles/5z.svg", "../app/__init__.py",
                         "..%2f..%2fpyproject.toml", "tiles/"]), JUNK)),
    # never '//' + junk: the test client would read the junk as a host name
    st.builds(lambda s: "/" + quote(s, safe="/").lstrip("/"), JUNK),
    st.builds(lambda s: "/api/" + quote(s, safe="/"), JUNK),
    st.sampled_from(["/", "/embed", "/ticks", "/rules", "/rules/", "/api/openapi.json",
                     "/api/score", "/api/settle", "/round", "//", "/./", "/%2e%2e/"]),
)


@settings(FUZZ, max_examples=2500 * SCALE)
@given(PATHS, st.sampled_from(["GET", "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]))
def test_any_path_and_method_answers_without_a_server_error(path, method):
    SENT["paths"] += 1
    response = CLIENT.open(path, method=method)
    _check(response, method)
    rid = path.removeprefix("/rules/")
    if path.startswith("/rules/") and rid and response.status_code == 200 and method == "GET":
        assert rid in RULESETS   # a ruleset page only for a loaded ruleset id


# --- POST /api/settle (the round ledger) --------------------------------------------------

SEATS = st.sampled_from(["E", "S", "W", "N", "X", ""])
JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                         JUNK, st.sampled_from(TOKENS))
ANY_JSON = st.recursive(JSON_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(JUNK, inner, max_size=4)), max_leaves=8)
SICHUAN_HANDS = ["123s456s789s234s55s", "111p123p777p789p55p", "11m22m33m44m55m66m77m",
                 "123p456p789p11s", "123m456m789m234m5m", "1112345678999p", "22m"]


@st.composite
def rounds(draw) -> object:
    """Round bodies near the documented shape, with any part replaced by other JSON."""
    event = st.fixed_dictionaries({"type": st.sampled_from(["kong", "win", "fish"]), "seat": SEATS},
                                  optional={"kind": st.sampled_from(["exposed", "concealed", "added", "x"]),
                                            "tile": st.one_of(TILE_TEXT, JSON_SCALARS),
                                            "from": SEATS, "drawn": JSON_SCALARS,
                                            "by": st.sampled_from(["self-draw", "discard", 3]),
                                            "hand": st.one_of(TILE_TEXT, st.sampled_from(SICHUAN_HANDS)),
                                            "melds": TILE_TEXT, "win": TILE_TEXT,
                                            "events": st.sampled_from(TOKENS)})
    body = draw(st.fixed_dictionaries({}, optional={
        "rules": st.one_of(st.sampled_from(["sichuan", "sichuan-sbr", "hong-kong", "nope"]), ANY_JSON),
        "missing": st.one_of(st.dictionaries(SEATS, st.sampled_from(["m", "p", "s", "z", 1])), ANY_JSON),
        "events": st.one_of(st.lists(st.one_of(event, ANY_JSON), max_size=6), ANY_JSON),
        "end": st.one_of(st.fixed_dictionaries({"type": st.just("wall"), "hands": st.dictionaries(
            SEATS, st.fixed_dictionaries({}, optional={"hand": TILE_TEXT, "melds": TILE_TEXT}))}),
            ANY_JSON),
        "options": st.one_of(JUNK, ANY_JSON)}))
    return body if draw(st.integers(0, 5)) else draw(ANY_JSON)


@pytest.mark.skipif(not HAS_SETTLE, reason="POST /api/settle is not there yet")
@settings(FUZZ, max_examples=800 * SCALE)
@given(rounds())
def test_the_settlement_api_answers_any_json_with_a_ledger_or_field_errors(body):
    SENT["settle"] += 1
    response = CLIENT.post("/api/settle", data=json.dumps(body), content_type="application/json")
    _check(response, "POST")
    assert response.status_code in (200, 400) and response.mimetype == "application/json"


@pytest.mark.skipif(not HAS_SETTLE, reason="POST /api/settle is not there yet")
@settings(FUZZ, max_examples=500 * SCALE)
@given(st.binary(max_size=300), st.sampled_from(["application/json", "text/plain", "", None]))
def test_the_settlement_api_answers_any_body(raw, content_type):
    SENT["settle"] += 1
    response = CLIENT.post("/api/settle", data=raw, content_type=content_type)
    _check(response, "POST")
    assert response.status_code in (200, 400, 415) and response.mimetype == "application/json"


# --- the count ----------------------------------------------------------------------------


def test_zz_the_fuzzing_sent_at_least_10000_requests():
    """Runs last in this module: when every fuzz test above ran, they sent 10,000+ requests."""
    expected = {"query", "api", "bytes", "paths"} | ({"settle"} if HAS_SETTLE else set())
    if set(SENT) != expected:
        pytest.skip(f"only {sorted(SENT)} of the fuzz tests ran")
    total = sum(SENT.values())
    print(f"\nfuzz: {total} requests {dict(SENT)}; status codes {dict(sorted(STATUS.items()))}")
    assert total >= 10_000, dict(SENT)
    assert not any(code >= 500 for code in STATUS)
