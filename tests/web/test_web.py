"""The web calculator through Flask's test client: every route, every error path, never a 500."""
from __future__ import annotations

import html
import re
from fractions import Fraction
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from app.rules.loader import registry
from app.web import create_app
from tests.html_tables import Page as TablesPage

RULESETS = registry()
HAND = "123m456m789m234p55s"     # seed 001's all-chows hand: 3 fan at East on N's discard


# --- reading pages ---------------------------------------------------------------------


class _Page(TablesPage):
    """A page as the route tests read it: tables by exact caption, rows as lists of cells."""

    def table(self, caption: str) -> list[list[str]] | None:
        for t in self.tables:
            if " ".join(t["caption"].split()) == caption:
                return [cells for _, cells in t["rows"]]
        return None

    @property
    def captions(self) -> list[str]:
        return [" ".join(t["caption"].split()) for t in self.tables]


def page(response) -> _Page:
    return _Page(response.get_data(as_text=True))


def shown_result(response) -> tuple[int, dict[str, Fraction]]:
    """The total fan and each seat's signed amount, as the result tables show them."""
    p = page(response)
    breakdown, payments = p.table("Fan breakdown"), p.table("Who pays whom")
    assert breakdown is not None and payments is not None, p.captions
    total_row = next(row for row in breakdown if row[0] == "Total")
    amounts = {row[0]: Fraction(row[2].replace("+", "")) for row in payments[1:]}
    return int(total_row[2]), amounts


def api_result(answer: dict) -> tuple[int, dict[str, Fraction]]:
    return answer["total_fan"], {p["seat"]: Fraction(str(p["amount"])) for p in answer["payments"]}


def query_of(url: str) -> str:
    return urlsplit(url).query


# --- the calculator --------------------------------------------------------------------


def test_the_empty_calculator_shows_the_form_and_no_result(client):
    response = client.get("/")
    assert response.status_code == 200
    p = page(response)
    assert p.input(id="hand") is not None
    assert p.table("Fan breakdown") is None and p.table("Who pays whom") is None
    assert not p.errors


def test_a_scored_hand_shows_the_fan_breakdown_and_who_pays_whom(client):
    response = client.get("/", query_string={"rules": "hong-kong", "hand": HAND, "discarder": "N"})
    assert response.status_code == 200
    p = page(response)
    assert {"Fan breakdown", "Who pays whom"} <= set(p.captions)
    assert shown_result(response) == (3, {"E": 32, "S": -8, "W": -8, "N": -16})   # HK36-i11
    assert p.input(id="hand")["value"] == HAND


def test_a_thirteen_tile_hand_shows_the_waits_table(client):
    response = client.get("/", query_string={"rules": "sichuan", "hand": "123m456m789p234p5m"})
    assert response.status_code == 200
    rows = page(response).table("Waits")
    assert rows is not None
    assert [row[0].split()[-1] for row in rows[1:]] == ["5m"]


def test_a_hand_that_waits_on_nothing_says_so(client):
    response = client.get("/", query_string={"rules": "hong-kong", "hand": "123m456m789m134p5s"})
    rows = page(response).table("Waits")
    assert rows is not None and "No tile completes this hand." in rows[1][0]


BAD_FORMS = [
    ({"hand": "123m456m789m234p5x"}, "hand", "not a suit letter"),
    ({"hand": "123m456m789m234p50s"}, "hand", "not a tile here"),
    ({"hand": "123m456m789m234p5８s"}, "hand", "not ASCII"),
    ({"hand": "123m456m789m234p555s"}, "hand", "a winning hand needs 14"),
    ({"hand": "<script>alert(1)</script>"}, "hand", "unexpected character"),
    ({"hand": "11m33m55m22p44p66p88p"}, "hand", "options=seven-pairs"),
    ({"hand": HAND, "win": "9p"}, "win", ""),
    ({"hand": HAND, "melds": "12m"}, "melds", ""),
    ({"hand": HAND, "min": "abc"}, "min", "is not a whole number of fan"),
    ({"hand": HAND, "cap": "99"}, "cap", "outside 1-13"),
    ({"hand": HAND, "cap": "none"}, "cap", "always has a cap"),
    ({"hand": HAND, "stake": "-1"}, "stake", "is not a stake"),
    ({"hand": HAND, "options": "fish"}, "options", "unknown option 'fish'"),
    ({"hand": HAND, "flowers": "15"}, "flowers", "not a bonus tile number"),
    ({"hand": HAND, "seat": "X"}, "seat", ""),
    ({"hand": HAND, "discarder": "E"}, "discarder", "cannot win on their own discard"),
    ({"hand": HAND, "events": "fishing"}, "events", ""),
    ({"rules": "nope", "hand": HAND}, "rules", "unknown ruleset 'nope'"),
    ({"rules": "sichuan", "hand": "123m456m789p234p55z"}, "hand", "played without honours"),
    ({"rules": "sichuan", "hand": "123m456m789p234p55m", "missing": "p"}, "hand",
     "holds its declared missing suit"),
]


@pytest.mark.parametrize("query, field, message", BAD_FORMS,
                         ids=[f"{f}={q.get(f, q.get('hand'))}" for q, f, _ in BAD_FORMS])
def test_a_bad_hand_keeps_the_form_as_typed_with_the_message_beside_the_field(
        client, query, field, message):
    query = {"rules": "hong-kong", **query}
    response = client.get("/", query_string=query)
    assert response.status_code == 200
    p = page(response)
    assert p.table("Fan breakdown") is None
    assert field in p.errors, p.errors
    assert any(message in m for m in p.errors[field]), p.errors[field]
    typed = p.input(id="hand")
    assert typed is not None and typed["value"] == query["hand"]
    if field == "hand":
        assert typed.get("aria-invalid") == "true"
    assert "<script>alert" not in response.get_data(as_text=True)


def test_the_embed_view_has_no_site_header_or_footer(client):
    response = client.get("/embed", query_string={"rules": "hong-kong", "hand": HAND})
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert '<header class="site"' not in text and '<footer class="site"' not in text
    assert {"Fan breakdown", "Who pays whom"} <= set(page(response).captions)
    assert '<header class="site"' in client.get("/").get_data(as_text=True)


def test_a_fan_total_link_shows_its_payments_on_the_calculator(client):
    response = client.get("/", query_string={"rules": "hong-kong", "fan": "5", "discarder": "S"})
    assert shown_result(response) == (5, {"E": 128, "S": -64, "W": -32, "N": -32})   # HK36-pay-1
    assert page(response).input(name="fan", type="hidden")["value"] == "5"


# --- the tile picker without JavaScript ------------------------------------------------


def _location(response) -> tuple[str, dict[str, list[str]]]:
    assert response.status_code == 302, response.status_code
    target = urlsplit(response.headers["Location"])
    return target.path, parse_qs(target.query)


@pytest.mark.parametrize("query, path, expected", [
    ({"hand": "123m", "add": "5s"}, "/", {"hand": ["123m5s"]}),
    ({"hand": "123m", "add": "5s", "target": "meld"}, "/", {"hand": ["123m"], "draft": ["5s"],
                                                           "target": ["meld"]}),
    ({"hand": "123m4p", "remove": "1"}, "/", {"hand": ["13m4p"]}),
    ({"hand": "123m", "draft": "777m", "target": "meld", "make": "pong"}, "/",
     {"hand": ["123m"], "melds": ["777m"], "target": ["hand"], "meldsat": ["3"]}),
    ({"hand": "123m", "draft": "1111z", "target": "meld", "make": "ckong"}, "/",
     {"hand": ["123m"], "melds": ["ckong:1111z"], "target": ["hand"], "meldsat": ["3"]}),
    ({"hand": "123m", "melds": "777m,123p", "unmeld": "0"}, "/", {"hand": ["123m"], "melds": ["123p"]}),
    ({"hand": "123m", "melds": "777m", "clear": "1"}, "/", {}),
    ({"hand": "123m", "draft": "77m", "target": "meld", "undraft": "1"}, "/",
     {"hand": ["123m"]}),
], ids=["add", "add-to-meld", "remove", "make-pong", "make-ckong", "unmeld", "clear", "undraft"])
def test_a_picker_action_redirects_to_the_edited_hand(client, query, path, expected):
    got_path, got = _location(client.get("/", query_string={"rules": "hong-kong", **query}))
    assert got_path == path
    assert got == {"rules": ["hong-kong"], **expected}


@pytest.mark.parametrize("query, fragment", [
    ({"hand": "123m", "add": "5s"}, "add-5s"),
    ({"hand": "123m4p", "remove": "1"}, "remove-1"),      # the tile now in its place
    ({"hand": "123m4p", "remove": "3"}, "remove-2"),      # the last one was removed
    ({"hand": "7z", "remove": "0"}, "add-7z"),            # none left: the palette tile
    ({"hand": "123m", "clear": "1"}, ""),
])
def test_a_picker_redirect_brings_the_keyboard_back_where_it_was(client, query, fragment):
    response = client.get("/", query_string={"rules": "hong-kong", **query})
    assert urlsplit(response.headers["Location"]).fragment == fragment


def test_the_picker_in_the_embed_view_stays_in_the_embed_view(client):
    path, got = _location(client.get("/embed", query_string={"hand": "123m", "add": "9p"}))
    assert path == "/embed" and got["hand"] == ["123m9p"]


def test_a_picker_redirect_keeps_the_rest_of_the_description(client):
    query = {"rules": "hong-kong-course", "hand": "123m", "seat": "W", "payment": "hkma",
             "flowers": "13", "add": "1z"}
    _, got = _location(client.get("/", query_string=query))
    assert got == {"rules": ["hong-kong-course"], "hand": ["123m1z"], "seat": ["W"],
                   "flowers": ["13"], "payment": ["hkma"]}


BAD_PICKS = [
    ({"add": "xx"}, "hand", "unexpected character"),
    ({"add": "11m"}, "hand", "is not one tile"),
    ({"add": "0m"}, "hand", "not a tile here"),
    ({"remove": "9"}, "hand", "there is no tile 9 to remove"),
    ({"remove": "-1"}, "hand", "there is no tile -1 to remove"),
    ({"remove": "²"}, "hand", "there is no tile ² to remove"),
    ({"remove": "abc"}, "hand", "there is no tile abc to remove"),
    ({"make": "fish"}, "draft", "'fish' is not a kind of meld"),
    ({"make": "pong"}, "draft", "pick the tiles of the new meld first"),
    ({"make": "pong", "draft": "12m"}, "draft", "'12m' is not a meld"),
    ({"make": "chow", "draft": "135m"}, "draft", ""),
    ({"unmeld": "3"}, "melds", "there is no meld 3 to remove"),
    ({"unmeld": "١"}, "melds", "there is no meld ١ to remove"),
]


@pytest.mark.parametrize("query, field, message", BAD_PICKS,
                         ids=[next(f"{k}={v}" for k, v in q.items()) for q, _, _ in BAD_PICKS])
def test_a_bad_picker_value_keeps_the_page_up_with_a_message(client, query, field, message):
    response = client.get("/", query_string={"rules": "hong-kong", "hand": "123m", **query})
    assert response.status_code == 200
    errors = page(response).errors
    assert field in errors and any(message in m for m in errors[field]), errors


# --- tick-box mode ----------------------------------------------------------------------


def _checked(p: _Page) -> set[str]:
    return {i["value"] for i in p.inputs if i.get("name") == "ticks" and "checked" in i}


def test_the_empty_tick_page_shows_every_pattern_unticked(client):
    response = client.get("/ticks", query_string={"rules": "hong-kong-course"})
    assert response.status_code == 200
    p = page(response)
    boxes = {i["value"] for i in p.inputs if i.get("name") == "ticks"}
    assert boxes == {pat.id for pat in RULESETS["hong-kong-course"].patterns}
    assert not _checked(p) and p.table("Fan breakdown") is None


def test_a_tick_link_arrives_pre_ticked_and_counted(client):
    response = client.get("/ticks", query_string={"rules": "hong-kong-course",
                                                  "ticks": "half-flush,dragon-pong,self-draw"})
    p = page(response)
    assert _checked(p) == {"half-flush", "dragon-pong", "self-draw"}
    assert shown_result(response) == (5, {"E": 36, "S": -12, "W": -12, "N": -12})   # HKC-drill-1


@pytest.mark.parametrize("query", [
    {"ticks": "small-three-dragons,dragon-pong*2"},
    {"ticks": "small-three-dragons,dragon-pong", "n.dragon-pong": "2"},
    {"ticks": "small-three-dragons,dragon-pong*3", "n.dragon-pong": "2"},   # the typed count wins
], ids=["star", "count-box", "count-box-beats-star"])
def test_a_per_item_count_is_read_from_the_link_or_the_count_box(client, query):
    response = client.get("/ticks", query_string={"rules": "hong-kong-course", "discarder": "S",
                                                  **query})
    p = page(response)
    assert p.input(name="n.dragon-pong")["value"] == "2"
    assert shown_result(response) == (5, {"E": 24, "S": -24, "W": 0, "N": 0})   # HKC-drill-4
    dragon_row = next(r for r in p.table("Fan breakdown") if r[0].startswith("Dragon pung"))
    assert dragon_row[0].endswith("×2")


@pytest.mark.parametrize("query", [
    {"ticks": "great-three-dragons,dragon-pong*3"},
    {"ticks": "great-three-dragons,dragon-pong", "n.dragon-pong": "3"},
], ids=["star", "count-box"])
def test_great_three_dragons_with_three_dragon_pongs_counts_8_with_the_pongs_included(
        client, query):
    response = client.get("/ticks", query_string={"rules": "hong-kong-course", "discarder": "S",
                                                  **query})
    total, payments = shown_result(response)
    assert total == 8 and payments == {"E": 64, "S": -64, "W": 0, "N": 0}   # HKC-drill-5
    dragon_row = next(r for r in page(response).table("Fan breakdown") if r[0].startswith("Dragon"))
    assert dragon_row[2] == "—" and "included in Great three dragons" in dragon_row[3]


def test_the_calculator_offers_its_result_as_ticks(client):
    response = client.get("/", query_string={"rules": "hong-kong-course", "hand": "456m789m777z22m",
                                             "melds": "123m", "win": "2m", "by": "self-draw",
                                             "flowers": "2"})
    link = next(a["href"] for a in page(response).links if a.get("href", "").startswith("/ticks?"))
    ticked = client.get(link)
    assert _checked(page(ticked)) == {"half-flush", "dragon-pong", "self-draw"}
    assert shown_result(ticked) == shown_result(response)


@pytest.mark.parametrize("query, message", [
    ({"ticks": "fishing"}, "unknown pattern 'fishing'"),
    ({"ticks": "half-flush", "cap": "0"}, "outside 1-13"),
    ({"ticks": "half-flush", "payment": "fish"}, "unknown payment convention 'fish'"),
    ({"ticks": "half-flush*2"}, "Half flush 混一色 counts once"),
    ({"ticks": "half-flush,half-flush"}, "Half flush 混一色 counts once"),
    ({"ticks": "dragon-pong*4"}, "takes a count from 1 to 3"),
], ids=["unknown-pattern", "cap", "payment", "count-on-a-single-pattern", "ticked-twice",
        "four-dragon-pongs"])
def test_a_bad_tick_request_keeps_the_page_up_with_a_message(client, query, message):
    response = client.get("/ticks", query_string={"rules": "hong-kong-course", **query})
    assert response.status_code == 200
    text = html.unescape(response.get_data(as_text=True))
    assert message in text
    assert page(response).table("Fan breakdown") is None


def _apart_pairs(rs) -> list[tuple[str, str]]:
    """Each pattern never_together keeps apart from others, with the first of them, in file order."""
    pairs = set()
    for p in rs.patterns:
        partners = sorted(rs.never_together.get(p.id, ()), key=lambda q: rs.by_id[q].position)
        if partners:
            pairs.add(tuple(sorted((p.id, partners[0]), key=lambda q: rs.by_id[q].position)))
    return sorted(pairs, key=lambda pair: [rs.by_id[q].position for q in pair])


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_a_tick_set_no_hand_holds_is_refused_beside_the_ticks_with_the_boxes_kept(client, rid):
    rs = RULESETS[rid]
    pairs = _apart_pairs(rs)
    assert len(pairs) >= 3
    for first, second in pairs:
        options = ",".join(pid for pid in (first, second) if rs.by_id[pid].optional)
        response = client.get("/ticks", query_string={"rules": rid, "ticks": [first, second],
                                                      "options": options})
        assert response.status_code == 200
        text = html.unescape(response.get_data(as_text=True))
        beside = re.search(r'<ul class="errors" id="ticks-error">(.*?)</ul>', text, re.S)
        assert beside is not None, (first, second)
        names = [" ".join(filter(None, (rs.by_id[pid].name.en, rs.by_id[pid].name.zh)))
                 for pid in (first, second)]
        assert f"no hand holds these patterns together: {names[0]} and {names[1]}" in beside[1]
        assert _checked(page(response)) == {first, second}
        assert page(response).table("Fan breakdown") is None


# --- rules pages -------------------------------------------------------------------------


def test_the_rules_index_links_every_ruleset(client):
    response = client.get("/rules/")
    assert response.status_code == 200
    hrefs = {a["href"] for a in page(response).links}
    assert {f"/rules/{rid}" for rid in RULESETS} <= hrefs


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_a_rules_page_shows_every_pattern_with_its_fan(client, rid):
    response = client.get(f"/rules/{rid}")
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    for pattern in RULESETS[rid].patterns:
        row = re.search(rf'<tr id="{re.escape(pattern.id)}">(.*?)</tr>', text, re.S)
        assert row is not None, pattern.id
        fan = re.search(r'<td class="num">([^<]*)</td>', row[1])
        assert fan is not None and fan[1].split()[0] == str(pattern.fan), (pattern.id, fan)
        assert html.escape(pattern.name.en, quote=False) in row[1]


@pytest.mark.parametrize("path", [
    "/rules/nope", "/rules/..%2F..%2Fetc", "/rules/..%2F..%2Fetc%2Fpasswd", "/rules/sichuan.yaml",
    "/rules/%2e%2e", "/rules/README", "/rules/Sichuan",
])
def test_an_unknown_ruleset_page_is_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "There is no page at this address." in response.get_data(as_text=True)


# --- worked examples: every link on every rules page ------------------------------------

EXAMPLES = [(rid, ex) for rid, rs in sorted(RULESETS.items()) for ex in rs.examples]


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_every_ruleset_lists_its_worked_examples_as_links(client, rid):
    links = [a for a in page(client.get(f"/rules/{rid}")).links if a.get("class") == "worked-example"]
    assert links, f"{rid} has no worked examples"
    assert [a["data-example"] for a in links] == [ex.id for ex in RULESETS[rid].examples]
    assert len({a["href"] for a in links}) == len(links), "two examples link to the same result"


@pytest.mark.parametrize("rid, example", EXAMPLES, ids=[f"{rid}:{ex.id}" for rid, ex in EXAMPLES])
def test_a_worked_example_link_shows_the_stated_result(client, rid, example):
    links = page(client.get(f"/rules/{rid}")).links
    href = next(a["href"] for a in links
                if a.get("class") == "worked-example" and a.get("data-example") == example.id)
    assert {k: v[0] for k, v in parse_qs(query_of(href)).items()} == {"rules": rid, **example.params}
    response = client.get(href)
    assert response.status_code == 200
    expected = (example.total_fan, {s: Fraction(a) for s, a in example.payments.items()})
    assert shown_result(response) == expected
    answer = client.get("/api/score?" + query_of(href))
    assert answer.status_code == 200, answer.json
    assert api_result(answer.json) == expected


# --- JSON API ----------------------------------------------------------------------------

SCORE_KEYS = ["rules", "valid", "hand", "permalink", "grouping", "patterns", "total_fan",
              "capped_fan", "below_minimum", "points", "payments"]       # the documented answer (api/openapi.json)
PATTERN_KEYS = ["id", "name", "name_zh", "fan", "counted", "note"]
PAYMENT_KEYS = ["seat", "role", "amount"]


def _in_order(keys: list[str], wanted: list[str]) -> bool:
    return [k for k in keys if k in wanted] == wanted


@pytest.mark.parametrize("query", [
    {"rules": "hong-kong", "hand": HAND, "discarder": "N"},
    {"rules": "hong-kong", "hand": "999p111s99s", "melds": "111m,777z", "win": "9s", "flowers": "2",
     "discarder": "N"},
    {"rules": "sichuan", "hand": "11s3333s55s66s77s99s", "by": "self-draw"},
    {"rules": "hong-kong-course", "ticks": "half-flush,dragon-pong,self-draw"},
    {"rules": "hong-kong", "fan": "5", "discarder": "S"},
    {"rules": "family", "hand": "333m888s77s", "melds": "222m,555p", "win": "7s", "discarder": "S",
     "stake": "0.5"},
], ids=["tiles", "melds", "sichuan-cap", "ticks", "fan", "half-stake"])
def test_the_score_answer_is_the_documented_json(client, query):
    response = client.get("/api/score", query_string=query)
    assert response.status_code == 200 and response.mimetype == "application/json"
    answer = response.json
    assert _in_order(list(answer), SCORE_KEYS), list(answer)
    assert answer["rules"] == query["rules"] and answer["valid"] is True
    assert answer["hand"] is None or isinstance(answer["hand"], str)
    assert isinstance(answer["permalink"], str) and answer["permalink"].startswith("/")
    assert all(isinstance(g, str) for g in answer["grouping"])
    for item in answer["patterns"]:
        assert _in_order(list(item), PATTERN_KEYS), list(item)
        assert isinstance(item["id"], str) and isinstance(item["fan"], int)
        assert isinstance(item["counted"], bool) and isinstance(item["note"], str)
        assert item["counted"] or item["note"], item
    for key in ("total_fan", "capped_fan"):
        assert isinstance(answer[key], int) and not isinstance(answer[key], bool)
    assert isinstance(answer["below_minimum"], bool)
    assert isinstance(answer["points"], (int, float))
    seats = []
    for pay in answer["payments"]:
        assert _in_order(list(pay), PAYMENT_KEYS), list(pay)
        assert pay["seat"] in "ESWN" and isinstance(pay["role"], str)
        assert isinstance(pay["amount"], (int, float)) and not isinstance(pay["amount"], bool)
        seats.append(pay["seat"])
    assert sorted(seats) == sorted("ESWN")
    assert sum(Fraction(str(p["amount"])) for p in answer["payments"]) == 0
    assert sum(1 for p in answer["payments"] if p["role"] == "winner") == 1


@pytest.mark.parametrize("query", [
    {"rules": "hong-kong", "hand": "321m 654m 987m 432p 5s5s", "discarder": "N"},
    {"rules": "sichuan", "hand": "11s3333s55s66s77s99s", "by": "self-draw", "won": "S"},
    {"rules": "hong-kong-course", "hand": "123m99m555z", "melds": "777z,666z", "win": "5z",
     "seat": "S", "discarder": "W", "liable": "W", "options": "no-flowers", "payment": "hkma",
     "cap": "10"},
    {"rules": "hong-kong-course", "ticks": "small-three-dragons,dragon-pong*2", "discarder": "S"},
    {"rules": "family", "fan": "3"},
], ids=["unsorted-hand", "sichuan-won", "liable", "ticks", "fan"])
def test_the_permalink_reproduces_the_same_answer(client, query):
    answer = client.get("/api/score", query_string=query).json
    link = answer["permalink"]
    again = client.get("/api/score?" + query_of(link))
    assert again.status_code == 200
    # the link writes the assumed values out, so it assumes only what it still leaves out
    same = {k: v for k, v in again.json.items() if k != "assumed"}
    assert same == {k: v for k, v in answer.items() if k != "assumed"}
    assert again.json["assumed"] == [a for a in answer["assumed"] if a in again.json["assumed"]]
    shown = client.get(link)
    assert shown.status_code == 200
    assert shown_result(shown) == api_result(answer)


def test_the_waits_answer_is_the_documented_json(client):
    response = client.get("/api/waits", query_string={"rules": "sichuan",
                                                      "hand": "1112345678999p"})
    assert response.status_code == 200
    answer = response.json
    assert _in_order(list(answer), ["rules", "valid", "ready", "waits"])
    assert answer["rules"] == "sichuan" and answer["valid"] is True and answer["ready"] is True
    tiles = [w["tile"] for w in answer["waits"]]
    assert tiles == [f"{n}p" for n in range(1, 10)]          # the nine gates wait on every dot
    for wait in answer["waits"]:
        assert _in_order(list(wait), ["tile", "left", "total_fan", "points", "grouping"]), list(wait)
        assert isinstance(wait["left"], int) and 0 <= wait["left"] <= 4
        assert isinstance(wait["total_fan"], int) and isinstance(wait["grouping"], list)
    assert {w["tile"]: w["left"] for w in answer["waits"]}["1p"] == 1     # three 1p held


def test_a_hand_that_is_not_ready_answers_ready_false(client):
    answer = client.get("/api/waits", query_string={"rules": "hong-kong",
                                                    "hand": "123m456m789m134p5s"}).json
    assert answer["valid"] is True and answer["ready"] is False and answer["waits"] == []


def test_a_wait_counts_the_players_own_melds_as_used(client):
    answer = client.get("/api/waits", query_string={"rules": "hong-kong", "hand": "123m55p78p",
                                                    "melds": "999p,1111z"}).json
    left = {w["tile"]: w["left"] for w in answer["waits"]}
    assert left == {"6p": 4, "9p": 1}


BAD_API = [
    ("score", {"rules": "nope", "hand": HAND}, "rules"),
    ("score", {"rules": "../../etc/passwd", "hand": HAND}, "rules"),
    ("score", {"hand": "123m456m789m234p5x"}, "hand"),
    ("score", {"hand": ""}, "hand"),
    ("score", {}, "hand"),
    ("score", {"hand": "123m456m789m234p5s"}, "hand"),
    ("score", {"hand": "11m33m55m22p44p66p88p"}, "hand"),
    ("score", {"hand": HAND, "win": "1z"}, "win"),
    ("score", {"hand": HAND, "min": "abc"}, "min"),
    ("score", {"hand": HAND, "min": "99"}, "min"),
    ("score", {"hand": HAND, "cap": "-3"}, "cap"),
    ("score", {"hand": HAND, "cap": "none"}, "cap"),
    ("score", {"hand": HAND, "stake": "0"}, "stake"),
    ("score", {"hand": HAND, "stake": "1e400"}, "stake"),
    ("score", {"hand": HAND, "curve": "mild"}, "curve"),
    ("score", {"hand": HAND, "payment": "nobody-pays"}, "payment"),
    ("score", {"hand": HAND, "options": "free-lunch"}, "options"),
    ("score", {"hand": HAND, "by": "luck"}, "by"),
    ("score", {"hand": HAND, "seat": "Q"}, "seat"),
    ("score", {"hand": HAND, "liable": "S"}, "liable"),
    ("score", {"rules": "sichuan", "hand": HAND, "missing": "s"}, "hand"),
    ("score", {"ticks": "nothing-at-all"}, "ticks"),
    ("score", {"ticks": ",".join(["dragon-pong"] * 61)}, "ticks"),
    ("score", {"ticks": "all-pongs*2"}, "ticks"),
    ("score", {"fan": "lots"}, "fan"),
    ("waits", {"rules": "nope", "hand": "123m456m789m234p5s"}, "rules"),
    ("waits", {"hand": HAND}, "hand"),
    ("waits", {"hand": "123m456m789m234p5s", "cap": "0"}, "cap"),
]


@pytest.mark.parametrize("endpoint, query, field", BAD_API,
                         ids=[f"{e}-{f}-{i}" for i, (e, _, f) in enumerate(BAD_API)])
def test_a_bad_api_request_answers_400_with_field_errors(client, endpoint, query, field):
    response = client.get(f"/api/{endpoint}", query_string=query)
    assert response.status_code == 400 and response.mimetype == "application/json"
    answer = response.json
    assert list(answer) == ["valid", "errors"] and answer["valid"] is False
    assert answer["errors"]
    for error in answer["errors"]:
        assert list(error) == ["field", "message"]
        assert isinstance(error["message"], str) and error["message"]
    assert field in [e["field"] for e in answer["errors"]], answer


@pytest.mark.parametrize("endpoint", ["score", "waits"])
def test_an_over_long_query_answers_400(client, endpoint):
    response = client.get(f"/api/{endpoint}?hand={HAND}&melds=" + "1" * 4100)
    assert response.status_code == 400
    assert response.json["valid"] is False
    assert "at most 4096" in response.json["errors"][0]["message"]


@pytest.mark.parametrize("endpoint", ["score", "waits"])
def test_a_field_repeated_100_times_answers_400(client, endpoint):
    response = client.get(f"/api/{endpoint}?" + urlencode([("flowers", "1")] * 100))
    assert response.status_code == 400
    assert response.json["valid"] is False
    assert "flowers: 100 values is too many" in response.json["errors"][0]["message"]


def test_an_unknown_api_path_answers_json_404(client):
    response = client.get("/api/nothing")
    assert response.status_code == 404
    assert response.json["valid"] is False and response.json["errors"][0]["message"]


def test_the_openapi_document_is_valid_openapi_3_1(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    document = response.json
    assert document["openapi"].startswith("3.1")
    try:
        from openapi_spec_validator import validate
    except ImportError:   # the `test` extra installs it; without it, check the shape only
        validate = None
    if validate is not None:
        validate(document)
    assert {"/api/score", "/api/waits", "/api/openapi.json"} <= set(document["paths"])
    names = {p["name"] for p in document["paths"]["/api/score"]["get"]["parameters"]}
    interface = {"rules", "hand", "win", "melds", "by", "seat", "round", "flowers", "seasons",
                 "events", "missing", "ticks", "options", "min", "cap", "curve", "payment",
                 "stake", "discarder", "winner", "won", "liable"}
    assert interface <= names
    rules_enum = next(p for p in document["paths"]["/api/score"]["get"]["parameters"]
                      if p["name"] == "rules")["schema"]["enum"]
    assert set(rules_enum) == set(RULESETS)


# --- headers on every response -----------------------------------------------------------

RESPONSES = [
    ("GET", "/"),
    ("GET", f"/?hand={HAND}"),
    ("GET", "/?hand=123m456m789m234p5s"),
    ("GET", "/?hand=bad"),
    ("GET", "/?hand=123m&add=5s"),
    ("GET", "/?x=" + "a" * 5000),
    ("GET", "/?" + "&".join(["hand=1m"] * 100)),
    ("GET", "/embed"),
    ("GET", "/ticks?rules=hong-kong-course&ticks=half-flush"),
    ("GET", "/rules"),
    ("GET", "/rules/"),
    ("GET", "/rules/sichuan"),
    ("GET", "/rules/nope"),
    ("GET", "/nope"),
    ("GET", "/static/style.css"),
    ("GET", "/static/nope.css"),
    ("GET", f"/api/score?hand={HAND}"),
    ("GET", "/api/score?hand=bad"),
    ("GET", "/api/waits?hand=123m456m789m234p5s"),
    ("GET", "/api/openapi.json"),
    ("GET", "/api/nope"),
    ("POST", "/"),
    ("POST", "/ticks"),
    ("POST", "/api/score"),
    ("PUT", "/rules/sichuan"),
    ("DELETE", "/embed"),
]


def _csp(response) -> dict[str, list[str]]:
    policy = response.headers.get("Content-Security-Policy", "")
    directives = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


@pytest.mark.parametrize("method, url", RESPONSES, ids=[f"{m} {u[:40]}" for m, u in RESPONSES])
def test_every_response_carries_the_security_headers_and_no_cookie(client, method, url):
    response = client.open(url, method=method)
    assert response.status_code < 500
    if method != "GET":
        assert response.status_code == 405
    csp = _csp(response)
    assert csp["frame-ancestors"] == ["*"]
    assert csp["object-src"] == ["'none'"] and csp["base-uri"] == ["'none'"]
    script = csp.get("script-src", csp.get("default-src"))
    assert script and "'unsafe-inline'" not in script and "'unsafe-eval'" not in script
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert response.headers.get("Referrer-Policy")
    assert "X-Frame-Options" not in response.headers
    assert "Set-Cookie" not in response.headers


def test_the_frame_ancestors_follow_the_configuration():
    client = create_app({"FRAME_ANCESTORS": "https://lessons.example"}).test_client()
    for url in ("/", "/api/score?hand=bad", "/nope"):
        assert _csp(client.get(url))["frame-ancestors"] == ["https://lessons.example"]


def test_pages_carry_no_inline_script(client):
    for url in ("/", f"/?hand={HAND}", "/ticks", "/rules/sichuan", "/embed"):
        text = client.get(url).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), url
        assert not re.search(r"\son[a-z]+=", text), url


# --- no 500 anywhere ---------------------------------------------------------------------

ODD = [
    ("hand", "١٢٣m٤٥٦m٧٨٩m٢٣٤p٥٥s"),        # Arabic-Indic digits
    ("hand", "１２３m４５６m７８９m２３４p５５s"),   # full-width digits
    ("hand", "123m456m789m234p55s\u200b"),   # a zero-width space
    ("hand", "💀🀄"),
    ("hand", "\x00\x01"),
    ("hand", "9" * 3000 + "m"),
    ("hand", "1m" * 500),
    ("hand", " "),
    ("hand", "%"),
    ("win", "５s"),
    ("win", ""),
    ("melds", ",,,,"),
    ("melds", "kong:"),
    ("melds", "ckong:1234m"),
    ("melds", "akong:5555z," * 8),
    ("by", "\u202e"),
    ("seat", "東"),
    ("round", ""),
    ("flowers", "١"),
    ("flowers", "12341234"),
    ("seasons", "-1"),
    ("events", "kong-replacement," * 50),
    ("missing", "z"),
    ("ticks", "dragon-pong*²"),
    ("ticks", "dragon-pong*99999999999999999999"),
    ("ticks", "*"),
    ("n.dragon-pong", "²"),
    ("n.dragon-pong", "9" * 4000),
    ("n.", "1"),
    ("fan", "9" * 4000),
    ("fan", "٣"),
    ("fan", "-5"),
    ("options", "\ud7ff"),
    ("min", "१"),
    ("min", "99999999999999999999"),
    ("cap", "none"),
    ("cap", "NONE"),
    ("cap", "²"),
    ("curve", "💀"),
    ("payment", ""),
    ("stake", "1/0"),
    ("stake", "0.0000000001"),
    ("stake", "99999999999"),
    ("stake", "nan"),
    ("stake", "inf"),
    ("stake", "½"),
    ("discarder", "east"),
    ("winner", "W"),
    ("won", "E,S,W,N"),
    ("liable", "N"),
    ("rules", ""),
    ("rules", "../rulesets/sichuan"),
    ("add", "🀄"),
    ("remove", "9" * 4000),
    ("make", ""),
    ("unmeld", "²"),
    ("clear", ""),
    ("target", "meld"),
    ("draft", "xyz"),
]
BASES = [
    {"rules": "hong-kong", "hand": HAND},
    {"rules": "sichuan", "hand": "123m456m789p234p5m"},
    {"rules": "hong-kong-course", "ticks": "half-flush,dragon-pong"},
    {"rules": "family", "fan": "3"},
]
PATHS = ["/", "/embed", "/ticks", "/api/score", "/api/waits"]


@pytest.mark.parametrize("name, value", ODD, ids=[f"{n}={v[:12]!r}" for n, v in ODD])
def test_an_odd_value_never_causes_a_server_error(client, name, value):
    for path in PATHS:
        for base in BASES:
            response = client.get(path, query_string={**base, name: value})
            assert response.status_code < 500, (path, base, name, value)
            if path.startswith("/api/"):
                assert response.status_code in (200, 400)
                assert isinstance(response.json["valid"], bool)
            else:
                assert response.status_code in (200, 302, 400, 414)


@pytest.mark.parametrize("pairs", [
    [("hand", HAND), ("hand", "bad")],
    [("hand", "bad"), ("hand", HAND)],
    [("seat", "E"), ("seat", "W"), ("hand", HAND)],
    [("flowers", "1"), ("flowers", "1"), ("hand", HAND)],
    [("rules", "sichuan"), ("rules", "hong-kong"), ("hand", HAND)],
    [("add", "5s"), ("remove", "0"), ("hand", "123m")],
    [("ticks", "half-flush")] * 64,
    [("ticks", "half-flush")] * 65,
    [("n.dragon-pong", "2")] * 64 + [("ticks", "dragon-pong")],
], ids=["hand-twice", "bad-hand-last", "seat-twice", "flower-twice", "rules-twice",
        "two-actions", "64-ticks", "65-ticks", "64-counts"])
def test_repeated_parameters_never_cause_a_server_error(client, pairs):
    query = urlencode(pairs)
    for path in PATHS:
        response = client.get(f"{path}?{query}")
        assert response.status_code < 500, (path, pairs)


@pytest.mark.parametrize("rules, chow", [("sichuan", False), ("sichuan-sbr", False), ("hong-kong", True)])
def test_the_pickers_meld_kinds_offer_a_chow_only_where_one_may_be_claimed(client, rules, chow):
    page = client.get("/", query_string={"rules": rules, "hand": "11p"})
    text = page.get_data(as_text=True)
    assert 'name="start" value="pong"' in text
    assert ('name="start" value="chow"' in text) is chow
