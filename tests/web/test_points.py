"""The fan → payment widget (/points): every curve and convention against the seed tables.

Expected numbers are read from tests/data/EXAMPLES.md (a copy of the workshop's list of seed numbers) (the conversion tables, the ladder, the
SBR table) and from the golden files' fan-only cases, never computed by the code under test.
"""
from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from app.rules.loader import registry
from tests.conftest import DATA
from tests.html_tables import Page, amount, payments

RULESETS = registry()
EXAMPLES = (DATA / "EXAMPLES.md").read_text(encoding="utf-8")
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
WIDGET_FIELDS = {"fan", "min", "cap", "curve", "payment", "stake", "by", "seat", "discarder"}


def get(client, **query) -> Page:
    response = client.get("/points", query_string=query)
    assert response.status_code == 200, response.status_code
    return Page(response.get_data(as_text=True))


def conversion(page: Page) -> dict[int, dict]:
    """Fan → the conversion table's row: its class and amounts."""
    rows = page.table("Conversion table")
    assert rows is not None
    out = {}
    for cls, cells in rows:
        if not cells or not cells[0].split()[0].isdigit() or len(cells) != 7:
            continue   # the two header rows
        fan = int(cells[0].split()[0])
        out[fan] = {"class": cls.split(), "points": amount(cells[1]), "discarder": amount(cells[2]),
                    "other": amount(cells[3]), "discard_total": amount(cells[4]),
                    "each": amount(cells[5]), "self_total": amount(cells[6])}
    return out


def current(page: Page) -> tuple[int, dict]:
    """The highlighted row: exactly one."""
    rows = [(fan, row) for fan, row in conversion(page).items() if "current" in row["class"]]
    assert len(rows) == 1, rows
    return rows[0]


def arithmetic(page_text: str) -> str:
    match = re.search(r'<p class="arithmetic"[^>]*>(.*?)</p>', page_text, re.S)
    assert match, "no arithmetic sentence"
    return " ".join(match[1].split())


# --- the seed tables, read from tests/data/EXAMPLES.md ----------------------------------------


def seed_table_row(label: str) -> dict[int, int]:
    """One row of seed 003's conversion tables in EXAMPLES.md: faan → value (blanks left out)."""
    header: list[str] | None = None
    for line in EXAMPLES.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "faan":
            header = cells
        elif cells[0] == label and header is not None:
            return {int(h): int(v) for h, v in zip(header[1:], cells[1:], strict=True) if v and v != "—"}
    raise AssertionError(f"no row {label!r} in EXAMPLES.md")


TABLE_A = seed_table_row("(a) full spicy 2^f")
TABLE_B = seed_table_row("(b) half spicy H(f)")
TABLE_C_DISCARD = seed_table_row("(c) Cantonese 出銃 (discarder pays)")
TABLE_C_TOTAL = seed_table_row("(c) Cantonese 自摸 total")
TABLE_C_EACH = seed_table_row("(c) Cantonese 自摸 each")
TABLE_D_DISCARD = seed_table_row("(d) HKMA 出銃 (= 4·H)")
TABLE_D_EACH = seed_table_row("(d) HKMA 自摸 each")


def test_the_seed_tables_were_read_whole():
    assert list(TABLE_A) == list(range(14)) and list(TABLE_B) == list(range(14))
    assert list(TABLE_C_DISCARD) == list(range(14)) and list(TABLE_C_TOTAL) == list(range(1, 14))
    assert list(TABLE_D_DISCARD) == list(range(3, 11)) == list(TABLE_D_EACH)


@pytest.mark.parametrize("fan, points", TABLE_A.items())
def test_table_a_full_spicy_reads_off_the_widget(client, fan, points):
    page = get(client, rules="hong-kong-course", fan=fan, min=0, curve="full-spicy",
               payment="wikipedia-pays-all", discarder="S")
    assert current(page)[0] == fan and current(page)[1]["points"] == points
    assert conversion(page)[fan]["points"] == points


@pytest.mark.parametrize("fan, points", TABLE_B.items())
def test_table_b_half_spicy_reads_off_the_widget(client, fan, points):
    page = get(client, rules="hong-kong-course", fan=fan, min=0, curve="half-spicy")
    assert current(page)[0] == fan and current(page)[1]["points"] == points


@pytest.mark.parametrize("fan, price", TABLE_C_DISCARD.items())
def test_table_c_cantonese_discard_price_is_what_the_discarder_pays(client, fan, price):
    page = get(client, rules="hong-kong-course", fan=fan, min=0, payment="cantonese-traditional",
               by="discard", discarder="S")
    assert current(page)[1]["discarder"] == price
    assert payments(page) == {"E": price, "S": -price, "W": 0, "N": 0}


@pytest.mark.parametrize("fan", sorted(TABLE_C_TOTAL))
def test_table_c_cantonese_self_draw_total_and_split(client, fan):
    page = get(client, rules="hong-kong-course", fan=fan, min=0, payment="cantonese-traditional",
               by="self-draw")
    row = current(page)[1]
    assert (row["self_total"], row["each"]) == (TABLE_C_TOTAL[fan], TABLE_C_EACH[fan])
    each = TABLE_C_EACH[fan]
    assert payments(page) == {"E": TABLE_C_TOTAL[fan], "S": -each, "W": -each, "N": -each}


@pytest.mark.parametrize("fan", sorted(TABLE_D_DISCARD))
def test_table_d_hkma_discard_price_and_self_draw_share(client, fan):
    discard = get(client, rules="hong-kong-course", fan=fan, payment="hkma", discarder="N")
    assert current(discard)[1]["discarder"] == TABLE_D_DISCARD[fan]
    assert payments(discard)["N"] == -TABLE_D_DISCARD[fan]
    drawn = get(client, rules="hong-kong-course", fan=fan, payment="hkma", by="self-draw")
    assert current(drawn)[1]["each"] == TABLE_D_EACH[fan]
    assert payments(drawn) == {"E": 3 * TABLE_D_EACH[fan], **{s: -TABLE_D_EACH[fan] for s in "SWN"}}


def test_one_cantonese_page_holds_the_whole_of_table_c(client):
    rows = conversion(get(client, rules="hong-kong-course", payment="cantonese-traditional"))
    assert {f: int(r["discarder"]) for f, r in rows.items()} == TABLE_C_DISCARD
    assert {f: int(r["self_total"]) for f, r in rows.items() if f in TABLE_C_TOTAL} == TABLE_C_TOTAL
    assert {f: int(r["each"]) for f, r in rows.items() if f in TABLE_C_EACH} == TABLE_C_EACH


def _ladder() -> tuple[list[int], list[int]]:
    match = re.search(r"\| FAM-ladder \| points 0\.\.6 \| per person ([0-9, ]+); from the discarder"
                      r" ([0-9, ]+) \|", EXAMPLES)
    assert match, "FAM-ladder row missing from EXAMPLES.md"
    return [int(v) for v in match[1].split(",")], [int(v) for v in match[2].split(",")]


def test_the_family_ladder_reads_off_the_widget(client):
    per_person, from_discarder = _ladder()
    assert len(per_person) == len(from_discarder) == 7
    rows = conversion(get(client, rules="family", fan=3))
    assert sorted(rows) == list(range(7))
    assert [r["other"] for r in rows.values()] == per_person
    assert [r["discarder"] for r in rows.values()] == from_discarder
    for fan in range(7):
        shown = payments(get(client, rules="family", fan=fan, discarder="S"))
        assert (shown["W"], shown["S"]) == (-per_person[fan], -from_discarder[fan])


def _sbr_table() -> dict[int, int]:
    match = re.search(r"\| SBR-table \| total fan ([0-9 /]+) \| hand value ([0-9 /]+) \|", EXAMPLES)
    assert match, "SBR-table row missing from EXAMPLES.md"
    return dict(zip((int(v) for v in match[1].split("/")), (int(v) for v in match[2].split("/")),
                    strict=True))


@pytest.mark.parametrize("fan, value", _sbr_table().items())
def test_the_sbr_table_reads_off_the_widget(client, fan, value):
    page = get(client, rules="sichuan-sbr", fan=fan, discarder="N")
    assert current(page)[0] == fan and current(page)[1]["points"] == value
    assert payments(page)["N"] == -value


def _hk36(case: str) -> tuple[int, int]:
    match = re.search(rf"\| {case} \| ([0-9]+) fan \| base ([0-9]+) \|", EXAMPLES)
    assert match, case
    return int(match[1]), int(match[2])


@pytest.mark.parametrize("case", ["HK36-base-3", "HK36-base-7"])
def test_hk36_base_points(client, case):
    fan, base = _hk36(case)
    page = get(client, rules="hong-kong", fan=fan)
    assert current(page)[1]["points"] == base


def test_the_seed_001_widget_sentence_and_payments(client):
    # seed 001, the closing widget: "2⁵ = 32 base points", +128 / −64 / −32 / −32
    response = client.get("/points", query_string={"rules": "hong-kong", "fan": 5, "discarder": "S"})
    text = response.get_data(as_text=True)
    assert arithmetic(text) == "2⁵ = 32 base points"
    assert payments(Page(text)) == {"E": 128, "S": -64, "W": -32, "N": -32}


# --- every fan-only golden case through the widget ------------------------------------------


def _golden_fan_cases():
    for path in sorted(GOLDEN.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            params = {k: str(v) for k, v in case["params"].items()}
            if "fan" in params and set(params) <= WIDGET_FIELDS and "payments" in case["expect"]:
                yield pytest.param(data["ruleset"], params, case["expect"], id=case["id"])


GOLDEN_FAN = list(_golden_fan_cases())


def test_the_golden_files_hold_fan_only_cases_for_every_ruleset_but_sichuan():
    assert {p.values[0] for p in GOLDEN_FAN} >= {"hong-kong", "hong-kong-course", "family",
                                                "sichuan-sbr"}
    assert len(GOLDEN_FAN) >= 40


@pytest.mark.parametrize("rules, params, expect", GOLDEN_FAN)
def test_a_golden_fan_case_shows_its_payments_and_points(client, rules, params, expect):
    page = get(client, rules=rules, **params)
    assert payments(page) == {s: Fraction(str(v)) for s, v in expect["payments"].items()}
    fan, row = current(page)
    assert fan == expect.get("capped_fan", expect["total_fan"])
    if "points" in expect:
        assert row["points"] == expect["points"]


# --- every ruleset, every convention ----------------------------------------------------------


CONVENTIONS = [(rid, pid) for rid, rs in sorted(RULESETS.items()) for pid in rs.payments]


@pytest.mark.parametrize("rid, payment", CONVENTIONS, ids=[f"{r}:{p}" for r, p in CONVENTIONS])
def test_every_convention_of_every_ruleset_renders_its_table_and_payments(client, rid, payment):
    rs = RULESETS[rid]
    top = rs.dials.cap if rs.dials.cap is not None else 3
    for by in ("discard", "self-draw"):
        for fan in sorted({0, rs.dials.min, top}):
            page = get(client, rules=rid, payment=payment, by=by, fan=fan)
            shown = payments(page)
            assert set(shown) == {"E", "S", "W", "N"} and sum(shown.values()) == 0
            assert current(page)[0] == fan
            for curve in rs.curves:
                rule = rs.payments[payment]
                if rule.fixed_curve and curve != rule.curve:   # refused: ruling 85
                    continue
                page = get(client, rules=rid, payment=payment, by=by, fan=fan, curve=curve)
                assert current(page)[0] == fan
                assert page.styles == 0, "no inline style: the highlight is a class"


def test_a_fan_above_the_cap_highlights_the_cap_row(client):
    page = get(client, rules="hong-kong", fan=15, discarder="S")   # HK36-cap
    assert current(page)[0] == 13
    assert max(conversion(page)) == 13


def test_the_page_works_without_script_as_a_get_form(client):
    page = get(client, rules="hong-kong", fan=5)
    number = page.input(id="fan")
    assert number["type"] == "number" and number["name"] == "fan" and number["value"] == "5"
    assert (number["min"], number["max"]) == ("0", "13")
    slider = page.input(id="fan-slider")
    assert slider["type"] == "range" and "name" not in slider and "hidden" in slider
    assert slider["max"] == "13"


def test_the_slider_runs_to_the_chosen_cap(client):
    assert get(client, rules="hong-kong", cap=8).input(id="fan-slider")["max"] == "8"
    assert get(client, rules="family").input(id="fan-slider")["max"] == "6"


def test_the_embed_views_have_no_site_header(client):
    for url in ("/embed/points?rules=hong-kong&fan=5", "/points?rules=hong-kong&fan=5&embed=1"):
        text = client.get(url).get_data(as_text=True)
        assert '<header class="site"' not in text and '<footer class="site"' not in text
        assert payments(Page(text))["E"] == 128
    assert '<header class="site"' in client.get("/points").get_data(as_text=True)


def test_the_permalink_reproduces_the_payments(client):
    page = get(client, rules="hong-kong-course", fan=7, payment="amy-lo", discarder="N")
    link = next(a["href"] for a in page.links if "permalink" in a.get("class", ""))
    again = Page(client.get(link).get_data(as_text=True))
    assert payments(again) == payments(page) == {"E": 192, "S": -48, "W": -48, "N": -96}


def test_a_self_draw_ignores_a_stale_discarder(client):
    page = get(client, rules="hong-kong", fan=5, by="self-draw", discarder="S")   # HK36-pay-3
    assert payments(page) == {"E": 192, "S": -64, "W": -64, "N": -64}


def test_below_the_minimum_nobody_pays_but_the_table_shows_the_price(client):
    page = get(client, rules="hong-kong", fan=2, discarder="S")   # HK36-min
    assert payments(page) == {"E": 0, "S": 0, "W": 0, "N": 0}
    fan, row = current(page)
    assert fan == 2 and "below-minimum" in row["class"] and row["points"] == 4


@pytest.mark.parametrize("name, value, field", [
    ("fan", "abc", "fan"), ("fan", "-5", "fan"), ("fan", "100", "fan"), ("fan", "٣", "fan"),
    ("min", "x", "min"), ("cap", "99", "cap"), ("payment", "nope", "payment"),
    ("curve", "nope", "curve"), ("stake", "-1", "stake"), ("discarder", "E", "discarder"),
    ("seat", "X", "seat"),
])
def test_a_bad_dial_keeps_the_page_up_with_the_message_beside_it(client, name, value, field):
    response = client.get("/points", query_string={"rules": "hong-kong", name: value})
    assert response.status_code == 200
    page = Page(response.get_data(as_text=True))
    assert field in page.errors, page.errors
    assert page.table("Conversion table") is not None


@pytest.mark.parametrize("value", ["9" * 4000, "💀", "\x00", "", " ", "1/0", "nan", "²", "-1",
                                   "../rulesets/sichuan", "none"])
def test_an_odd_value_never_breaks_the_widget(client, value):
    for name in ("rules", "fan", "min", "cap", "curve", "payment", "stake", "by", "seat",
                 "discarder", "embed"):
        for path in ("/points", "/embed/points"):
            response = client.get(path, query_string={"rules": "hong-kong-course", "fan": "5",
                                                      name: value})
            assert response.status_code in (200, 400, 414), (name, value)


def test_a_convention_on_its_own_table_refuses_another_curve_beside_the_field(client):
    # ruling 85: HKMA is defined on half-spicy points
    answer = client.get("/points", query_string={"rules": "hong-kong-course", "payment": "hkma",
                                                 "fan": "5", "curve": "full-spicy"})
    assert answer.status_code in (200, 400)
    assert "is defined on its own table" in answer.get_data(as_text=True)
