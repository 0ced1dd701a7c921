"""A hostile club rules code (`house=`) is refused with HouseError, never anything else.

Fuzzed four ways: any text after the version, any bytes deflated into a code, any JSON of the
code's own keys with values of any type, and valid codes with their JSON mutated byte by byte;
each code is read (`decode`) and built (`Rulesets.house`, with its examples priced) as every
page does. The two cases that once gave 500 (nesting deep enough to exhaust json's recursion,
a lone surrogate in a name) are tests of their own, and so is every endpoint that reads
`house=` (tests/web/test_house_param.py has the links that work)."""
from __future__ import annotations

import base64
import json
import re
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.house import (
    _ZDICT,
    MAX_DEPTH,
    VERSION,
    House,
    HouseError,
    PatternChange,
    _raw,
    decode,
    encode,
)
from app.rules.loader import Rulesets

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def code_of(raw: bytes) -> str:
    """A `house=` value holding `raw` as its document (deflated as encode() does)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, zdict=_ZDICT)
    return VERSION + base64.urlsafe_b64encode(packer.compress(raw) + packer.flush()).decode().rstrip("=")


DEEP = code_of(b'{"p":' + b"[" * 3000 + b"]" * 3000 + b"}")
SURROGATE = code_of(b'{"n":["\\ud800","",""]}')


@pytest.fixture(scope="module")
def rulesets(app) -> Rulesets:
    return app.extensions["rulesets"]


def read_and_build(rulesets: Rulesets, family: str, code: str) -> None:
    """Read and build a code as a page does: a Ruleset, or HouseError; anything else fails."""
    rules = f"{family}~{code}"
    try:
        house = decode(rules)
    except HouseError as err:
        assert str(err.message)
        return
    assert isinstance(house, House)
    try:
        rulesets.house(rules)
    except HouseError as err:
        assert str(err.message)


def test_json_nested_past_the_recursion_limit_is_refused_by_its_depth():
    with pytest.raises(HouseError) as refused:
        decode(f"hong-kong~{DEEP}")
    assert f"more than {MAX_DEPTH} levels deep" in str(refused.value.message)


def test_a_depth_just_past_the_limit_is_refused_and_a_code_we_write_is_not():
    nested = code_of(b'{"p":[["seven-pairs",{"x":' + b"[" * MAX_DEPTH + b"]" * MAX_DEPTH + b"}]]}")
    with pytest.raises(HouseError, match="levels deep"):
        decode(f"hong-kong~{nested}")
    deepest = House("hong-kong", name=("A", "", ""), patterns=(
        PatternChange("seven-pairs", fan=4, name=("B", "", ""), excludes=("all-pongs",)),))
    assert decode(encode(deepest)) == deepest


def test_brackets_inside_a_name_are_not_nesting():
    house = House("hong-kong", name=("[[[[[[[[{{{{{{{{", "]]]]]", "\\\"[["))
    assert decode(encode(house)) == house


def test_a_lone_surrogate_in_a_name_is_refused():
    with pytest.raises(HouseError) as refused:
        decode(f"hong-kong~{SURROGATE}")
    assert "lone surrogate" in str(refused.value.message)


def test_a_whole_surrogate_pair_is_a_character_and_reads():
    house = decode(f"hong-kong~{code_of(json.dumps({'n': ['🀄 club', '', '']}).encode())}")
    assert house.name == ("🀄 club", "", "")


@FUZZ
@given(st.text(max_size=200))
def test_any_text_as_a_code(rulesets, text):
    read_and_build(rulesets, "hong-kong", text)
    read_and_build(rulesets, "hong-kong", VERSION + text)


@FUZZ
@given(st.binary(max_size=400))
def test_any_bytes_as_the_document(rulesets, raw):
    read_and_build(rulesets, "sichuan", code_of(raw))


JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70)
                    | st.floats(allow_nan=True) | st.text(max_size=12)
                    | st.sampled_from(["hong-kong", "seven-pairs", "all-pongs", "flowers", "1/2",
                                       "0", "99", "linear", "all_pongs", "\ud800", "\x00"]),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(list("ndpcvfox") + ["cap", "min", "stake",
                                                                          "curve", "payment"]),
                                      inner, max_size=4),
                    max_leaves=20)
DOCUMENT = st.fixed_dictionaries({}, optional={
    "n": JSON, "d": st.dictionaries(st.sampled_from(["min", "cap", "curve", "payment", "stake"]), JSON),
    "p": st.lists(st.tuples(st.sampled_from(["seven-pairs", "all-pongs", "new-one", "x"]),
                            st.dictionaries(st.sampled_from(list("fnodcx")), JSON)).map(list)
                  | JSON, max_size=5),
    "c": JSON, "v": JSON})


@FUZZ
@given(DOCUMENT, st.sampled_from(["hong-kong", "sichuan", "taiwanese", "nope"]))
def test_any_document_of_the_codes_keys(rulesets, doc, family):
    raw = json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")
    read_and_build(rulesets, family, code_of(raw))


VALID = [
    House("hong-kong", dials=(("cap", 10), ("min", 1), ("payment", "discarder-pays-all")),
          patterns=(PatternChange("seven-pairs", fan=4, on=True),
                    PatternChange("all-pongs", fan=3, name=("Pongs", "碰碰", "碰碰"))),
          categories=(("flowers", ("Bonus", "花", "花")),)),
    House("sichuan", name=("Our table", "", ""), dials=(("stake", 2),),
          patterns=(PatternChange("pure-seven-pairs", fan=3, excludes=("seven-pairs",)),)),
]


@FUZZ
@given(st.sampled_from(VALID), st.data())
def test_valid_codes_mutated(rulesets, house, data):
    raw = bytearray(_raw(house))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw)))
        how = data.draw(st.sampled_from(["replace", "insert", "delete"]))
        byte = data.draw(st.sampled_from(list(b'[]{}",:0123456789-\\u') + [0, 0xFF, 0xED]) | st.integers(0, 255))
        if how == "insert":
            raw.insert(at, byte)
        elif at < len(raw):
            if how == "replace":
                raw[at] = byte
            else:
                del raw[at]
    read_and_build(rulesets, house.base, code_of(bytes(raw)))


@pytest.mark.parametrize("code", [DEEP, SURROGATE, "1AAAA", "9abc", "1" + "A" * 1300, "1***"],
                         ids=["deep", "surrogate", "damaged", "newer", "long", "not-base64"])
def test_every_endpoint_that_reads_house_refuses_it_by_name(client, code):
    """The API, the card, the rules page and oEmbed answer 400 naming `house`; the calculator
    page and its embed come back with the form filled in and the refusal named `house` above
    it (the form has no `house` field: the code rides in its links)."""
    query = {"rules": "hong-kong", "house": code, "hand": "123m456p789s11z"}
    link = "http://localhost/?" + "&".join(f"{k}={v}" for k, v in query.items())
    answers = {
        "/api/score": client.get("/api/score", query_string=query),
        "/card": client.get("/card", query_string=query),
        "/rules/hong-kong": client.get("/rules/hong-kong", query_string={"house": code}),
        "/oembed": client.get("/oembed", query_string={"url": link}),
        "/oembed /rules": client.get("/oembed", query_string={
            "url": f"http://localhost/rules/hong-kong?house={code}"}),
    }
    for where, answer in answers.items():
        assert answer.status_code == 400, where
        body = answer.get_data(as_text=True)
        assert "house" in body and "club rules" in body, where
    api = answers["/api/score"].get_json()
    assert [e["field"] for e in api["errors"]] == ["house"]
    for path in ("/", "/embed"):
        page = client.get(path, query_string=query)
        assert page.status_code == 200
        body = page.get_data(as_text=True)
        assert "<li>house: " in body and "club rules" in body and 'value="123m456p789s11z"' in body, path


@pytest.mark.parametrize("code", [DEEP, SURROGATE], ids=["deep", "surrogate"])
def test_no_address_answers_500_to_a_hostile_code(app, client, code):
    """Every GET address the app has (its path filled with a family or a token), asked with
    the code beside a hand, a sheet and a quiz: a refusal or a page, never a 500."""
    paths = set()
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        path = rule.rule
        for arg in rule.arguments:
            path = path.replace(f"<{arg}>", "hong-kong").replace(f"<string:{arg}>", "hong-kong")
        paths.add(re.sub(r"<[^>]+>", "x", path))
    query = {"rules": "hong-kong", "house": code, "hand": "123m456p789s11z", "by": "self-draw",
             "hands": "hand=123m456m789m234p55s seat=S discarder=N", "seed": "1"}
    for path in sorted(paths):
        assert client.get(path, query_string=query).status_code < 500, path
