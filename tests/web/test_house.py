"""/house: a club's rules built in the browser, and every page and the API following the link."""
from __future__ import annotations

import re
from fractions import Fraction
from html import escape
from urllib.parse import parse_qs, urlsplit

import pytest

from app.rules.house import House, PatternChange, encode, joined, split
from app.rules.loader import registry
from tests.html_tables import FormPairs

HK = registry()["hong-kong"]
# cap 10, seven pairs always on at 5 fan, all pongs renamed
FORM = {"edit": "1", "base": "hong-kong", "cap": "10", "on.seven-pairs": "1", "fan.seven-pairs": "5",
        "name.all-pongs.en": "Big pongs", "name.all-pongs.zh_hant": "大對對",
        "name.all-pongs.zh_hans": "大对对",
        **{f"on.{p.id}": "1" for p in HK.patterns if not p.optional}}
SEVEN_PAIRS = {"hand": "11m22m33p44p55s66s77z", "win": "7z", "by": "self-draw"}


def _code(client, form=FORM) -> str:
    page = client.get("/house", query_string=form)
    assert page.status_code == 200, page.get_data(as_text=True)[:500]
    link = re.search(r'href="([^"]+)" id="house-calculator"', page.get_data(as_text=True))[1]
    query = parse_qs(urlsplit(link.replace("&amp;", "&")).query)
    return joined(query["rules"][0], query["house"][0])   # the link says rules=<family>&house=<code>


def test_the_form_makes_the_code_of_what_was_changed_only(client):
    code = _code(client)
    assert code == encode(House("hong-kong", dials=(("cap", 10),), patterns=(   # in the family's order
        PatternChange("all-pongs", name=("Big pongs", "大對對", "大对对")),
        PatternChange("seven-pairs", fan=5, on=True))))


def test_the_api_and_pages_price_the_hand_under_the_club_rules(client):
    code = _code(client)
    answer = client.get("/api/score", query_string={"rules": code, **SEVEN_PAIRS}).json
    assert answer["valid"] and answer["cap"] == 10
    assert {p["id"]: p["fan"] for p in answer["patterns"] if p["counted"]} == {
        "seven-pairs": 5, "self-draw": 1, "no-bonus-tiles": 1}
    family, house = split(code)
    assert f"rules={family}&house={house}&" in answer["permalink"]
    winner = next(p["amount"] for p in answer["payments"] if p["role"] == "winner")
    for path in ("/", "/card"):
        page = client.get(path, query_string={"rules": code, **SEVEN_PAIRS})
        assert page.status_code == 200
        assert f"+{winner}" in page.get_data(as_text=True) or f">{winner}<" in page.get_data(as_text=True)
    family = client.get("/api/score", query_string={"rules": "hong-kong", **SEVEN_PAIRS})
    assert family.status_code == 400   # seven pairs is off in the family itself


def test_the_calculators_rules_choice_keeps_the_variant(client):
    code = _code(client)
    page = client.get("/", query_string={"rules": code, **SEVEN_PAIRS}).get_data(as_text=True)
    assert re.search(r'<option selected value="' + re.escape(code) + '"', page)


def test_the_tick_boxes_round_and_sheet_follow_the_variant(client):
    code = _code(client)
    ticks = client.get("/api/score", query_string={"rules": code, "ticks": "seven-pairs,self-draw",
                                                   "by": "self-draw"}).json
    assert ticks["total_fan"] == 6   # seven pairs at 5 and self-draw
    sheet = client.get("/api/sheet", query_string={
        "rules": code, "names": "Ann,Bob,Cy,Di",
        "hands": "hand=11m22m33p44p55s66s77z win=7z by=self-draw"})
    assert sheet.status_code == 200, sheet.get_data(as_text=True)[:300]
    assert sheet.json["rows"][0]["amounts"][0] == next(
        p["amount"] for p in client.get("/api/score", query_string={"rules": code, **SEVEN_PAIRS}).json["payments"]
        if p["role"] == "winner")


def test_the_rules_page_marks_what_differs(client):
    code = _code(client)
    page = client.get(f"/rules/{code}").get_data(as_text=True)
    assert 'class="house-changes"' in page
    assert re.search(r'<tr id="seven-pairs" class="changed">', page)
    assert re.search(r'<tr id="all-pongs" class="changed"><th scope="row">Big pongs', page)
    assert "(was 4)" in page
    assert 'class="changed"' not in client.get("/rules/hong-kong").get_data(as_text=True)


def test_the_preview_prices_the_familys_worked_hands_both_ways(client):
    page = client.get("/house", query_string={**FORM, "cap": "5"}).get_data(as_text=True)
    assert page.count("<tr") > 3 and 'class="differs"' in page   # a worked hand over 5 fan changes


def test_the_yaml_download_is_the_variant_extending_its_family(client):
    code = _code(client)
    answer = client.get("/house.yaml", query_string={"rules": code})
    assert answer.status_code == 200 and 'filename="hong-kong-club.yaml"' in answer.headers["Content-Disposition"]
    text = answer.get_data(as_text=True)
    assert "extends: hong-kong" in text and "id: hong-kong-club" in text and "大對對" in text


@pytest.mark.parametrize("rules, words", [
    ("hong-kong~2AAAA", "newer version"),
    ("hong-kong~1AAAA", "damaged"),
    ("nosuch~1AAAA", "damaged"),
])
def test_a_bad_code_is_a_400_naming_rules(client, rules, words):
    answer = client.get("/api/score", query_string={"rules": rules, **SEVEN_PAIRS})
    assert answer.status_code == 400
    assert answer.json["errors"][0]["field"] == "rules" and words in answer.json["errors"][0]["message"]
    assert client.get("/house.yaml", query_string={"rules": rules}).status_code == 400


def test_a_wrong_field_is_a_400_beside_it_with_everything_typed_kept(client):
    form = {**FORM, "cap": "ten", "fan.all-pongs": "lots", "new.id": "simples", "new.fan": "2"}
    page = client.get("/house", query_string=form)
    assert page.status_code == 400
    text = page.get_data(as_text=True)
    assert re.search(r'name="cap" value="ten"', text) and 'id="err-cap"' in text
    assert 'name="fan.all-pongs" value="lots"' in text and 'id="err-fan-all-pongs"' in text
    assert 'name="new.id" value="simples"' in text and 'id="err-new-detect"' in text
    assert 'name="name.all-pongs.zh_hant" value="大對對"' in text


def test_the_etag_keys_on_the_variant(client):
    code = _code(client)
    family = client.get("/api/score", query_string={"rules": "hong-kong", "hand": "123m456m789m234p55s"})
    club = client.get("/api/score", query_string={"rules": code, "hand": "123m456m789m234p55s"})
    assert family.headers.get("ETag") and club.headers.get("ETag")
    assert family.headers["ETag"] != club.headers["ETag"]


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
def test_the_house_page_speaks_each_language(client, lang):
    page = client.get("/house", query_string={**FORM, "lang": lang})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    if lang != "en":
        assert "Your club's rules" not in text


@pytest.mark.parametrize("path, query", [
    ("/", SEVEN_PAIRS), ("/card", SEVEN_PAIRS), ("/embed", SEVEN_PAIRS),
    ("/ticks", {"ticks": "seven-pairs,self-draw"}), ("/sheet", {}), ("/round", {}),
    ("/discard", {"hand": "11m22m33p44p55s66s7z8z"}), ("/points", {"fan": "5"}),
])
def test_every_page_takes_the_variant_and_links_onwards_with_it(client, path, query):
    code = _code(client)
    page = client.get(path, query_string={"rules": code, **query})
    assert page.status_code == 200, page.get_data(as_text=True)[:300]
    text = page.get_data(as_text=True).replace("%7E", "~")
    assert code in text   # its links and forms carry the club's rules on


def test_the_long_form_is_posted_and_answered_by_the_variants_own_address(client):
    posted = client.post("/house?lang=zh-Hant", data=FORM)
    assert posted.status_code == 303
    family, house = split(_code(client))
    assert posted.headers["Location"] == f"/house?rules={family}&house={house}&lang=zh-Hant"
    refused = client.post("/house", data={**FORM, "cap": "ten"})
    assert refused.status_code == 400 and 'name="cap" value="ten"' in refused.get_data(as_text=True)


def _preview_cells(text: str) -> list[str]:
    table = re.search(r'<div id="house-preview".*?</div>', text, re.S)[0]
    return re.findall(r"<tr[^>]*>\s*<td>(.*?)</td>", table, re.S)


def test_the_live_preview_is_the_pages_own_preview_of_the_posted_form(client):
    form = {**FORM, "fan.small-three-dragons": "6"}
    live = client.post("/house/preview", data=form)
    assert live.status_code == 200
    text = live.get_data(as_text=True)
    assert "<form" not in text and "<html" not in text   # the fragment alone
    page = client.get("/house", query_string=form).get_data(as_text=True)
    shown = re.search(r'<div id="house-preview".*?</div>', page, re.S)[0]
    assert re.search(r'<div id="house-preview".*?</div>', text, re.S)[0] == shown
    row = re.search(r"<tr class=\"differs\">\s*<td>Little three dragons.*?</tr>", text, re.S)[0]
    assert "6 fan, winner +256" in row and "5 fan, winner +128" in row


def test_the_live_preview_answers_a_wrong_field_with_its_error_and_a_400(client):
    live = client.post("/house/preview?lang=zh-Hant", data={**FORM, "fan.all-pongs": "lots"})
    assert live.status_code == 400
    text = live.get_data(as_text=True)
    errors = re.search(r'<div id="house-live-errors" hidden>(.*)</div>', text, re.S)[1]
    assert 'data-errors-for="fan.all-pongs"' in errors and "lots" in errors
    assert "Your rules" not in text   # in the page's language
    assert "is not a whole number of fan" not in errors


def test_the_variants_rules_page_shows_the_worked_examples_with_their_new_totals(client):
    code = _code(client, {**FORM, "fan.small-three-dragons": "6"})
    page = client.get(f"/rules/{code}").get_data(as_text=True)
    changed = re.search(r'<li id="worked-little-three-dragons" class="changed">.*?</li>', page, re.S)[0]
    assert ": 6 fan" in changed and "(was 5 fan)" in changed and "E +256" in changed
    same = re.search(r'<li id="worked-half-flush">.*?</li>', page, re.S)[0]
    assert ": 3 fan" in same and "was" not in same
    capped = re.search(r'<li id="worked-above-cap" class="changed">.*?</li>', page, re.S)[0]
    assert "(was E +32768" in capped   # the club's cap of 10 pays less; the fan stays 15
    assert "(was 5)" in re.search(r'<tr id="small-three-dragons".*?</tr>', page, re.S)[0]
    assert "/practice?rules=" + code in page   # the quiz of the worked hands, under the variant


@pytest.mark.parametrize("fragment, hand", [("worked-little-three-dragons", "666z77z123m456p"),
                                            ("small-three-dragons", "666z77z123m456p")])
def test_the_oembed_of_a_variants_rules_page_example_frames_its_card(client, fragment, hand):
    code = _code(client)
    family, house = split(code)
    for written in (code, code.replace("~", "%7E"), f"{family}?house={house}"):
        answer = client.get("/oembed", query_string={"url": f"http://localhost/rules/{written}#{fragment}"})
        assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
        src = re.search(r'src="([^"]+)"', answer.json["html"])[1].replace("&amp;", "&")
        assert src.startswith(f"http://localhost/card?rules={family}&house={house}&")
        assert f"hand={hand}" in src
    assert client.get("/oembed", query_string={"url": "http://localhost/rules/hong-kong~1AAAA#worked-x"}
                      ).status_code == 404


def test_the_form_renames_a_table_of_patterns_and_the_curve(client):
    form = {**FORM, "category.flowers.en": "Bonus tiles", "curve.full-spicy.zh_hant": "加倍"}
    page = client.get("/house", query_string=form).get_data(as_text=True)
    assert "the table Flowers and seasons" in page and "is called Bonus tiles" in page
    code = _code(client, form)
    rules = client.get(f"/rules/{code}").get_data(as_text=True)
    assert re.search(r"<caption>Bonus tiles\b", rules)
    chinese = client.get(f"/rules/{code}", query_string={"lang": "zh-Hant"}).get_data(as_text=True)
    assert "加倍" in chinese
    refused = client.get("/house", query_string={**form, "cap": "ten"}).get_data(as_text=True)
    assert 'name="category.flowers.en" value="Bonus tiles"' in refused   # kept as typed


def test_a_code_renaming_a_table_the_family_lacks_is_refused_at_the_top_of_the_page(client):
    code = encode(House("hong-kong", categories=(("nope", ("A", "", "")),)))
    page = client.get("/house", query_string={"rules": code})
    assert page.status_code == 400
    top = re.search(r'<div class="field-errors" data-errors-for="" role="alert">(.*?)</div>',
                    page.get_data(as_text=True), re.S)[1]
    assert "unknown table of patterns" in top and "nope" in top


# --- issue 37: the stake as a club types it, refusals beside their fields, and another family
# chosen without JavaScript ------------------------------------------------------------------


@pytest.mark.parametrize("typed, shown", [("2", "2"), ("3", "3"), ("10", "10"), ("0.5", "0.5"),
                                          ("2.5", "2.5"), ("0.25", "0.25"), ("1/3", "1/3"),
                                          ("4/2", "2"), ("1.50", "1.5")])
def test_the_form_takes_a_stake_as_a_whole_number_a_decimal_or_a_fraction(client, typed, shown):
    posted = client.post("/house", data={**FORM, "stake": typed})
    assert posted.status_code == 303, posted.get_data(as_text=True)[:500]
    page = client.get(posted.headers["Location"])
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert f'name="stake" value="{shown}"' in text   # the variant's own address shows its stake
    family, house = re.search(r"rules=([^&]+)&house=([^&]+)", posted.headers["Location"]).groups()
    assert registry()[joined(family, house)].dials.stake == Fraction(typed)
    answer = client.get("/api/score", query_string={"rules": family, "house": house,
                                                     "hand": "123m456m789m234p55s", "by": "self-draw"})
    staked = client.get("/api/score", query_string={"rules": family, "stake": typed,   # stake= itself
                                                    "hand": "123m456m789m234p55s", "by": "self-draw"})
    assert answer.json["payments"] == staked.json["payments"]
    assert answer.json["payments"][0]["amount"] == 96 * Fraction(typed)   # 4 fan: each of 3 pays 2 × 16


def _top_errors(text: str) -> str:
    return re.search(r'<div class="field-errors" data-errors-for="" role="alert">(.*?)</div>', text, re.S)[1]


def _field(text: str, name: str) -> str:
    """The `.field` block holding the input, select or error list of `name`."""
    blocks = re.findall(r'<div class="field[^"]*"[^>]*>.*?</div>\s*</div>|<div class="field[^"]*"[^>]*>.*?</div>',
                        text, re.S)
    return next(b for b in blocks if f'name="{name}"' in b)


@pytest.mark.parametrize("extra, field", [
    ({"stake": "two"}, "stake"), ({"stake": "0"}, "stake"), ({"stake": "1/0"}, "stake"),
    ({"stake": "-2"}, "stake"), ({"stake": "2000000"}, "stake"),
    ({"new.id": "my pattern!", "new.fan": "2", "new.detect": "all_simples",
      "new.category": "hand-patterns", "new.en": "Simples"}, "new.id"),
    ({"new.id": "simples", "new.fan": "2", "new.detect": "all_simples", "new.category": "hand-patterns",
      "new.en": "Simples", "new.excludes": "nope"}, "new.excludes"),
    ({"new.id": "all-pongs", "new.fan": "2", "new.detect": "all_simples",   # an old pattern's id
      "new.category": "hand-patterns", "new.en": "Simples"}, "new.id"),
])
def test_each_refusal_of_the_form_sits_beside_its_field_with_the_form_filled(client, extra, field):
    answer = client.post("/house", data={**FORM, **extra})
    assert answer.status_code == 400
    text = answer.get_data(as_text=True)
    assert _top_errors(text).strip() == ""   # nothing at the top
    beside = _field(text, field)
    assert f'id="err-{field.replace(".", "-")}"' in beside and "has-error" in beside
    assert f'name="{field}" value="{escape(extra[field])}"' in text   # as typed
    assert 'name="name.all-pongs.zh_hant" value="大對對"' in text and 'name="cap" value="10"' in text


def test_a_variant_too_large_for_a_link_is_refused_at_the_top_in_words_that_say_so(client):
    long = {f"name.{p.id}.{k}": "長" * 60 for p in HK.patterns for k in ("en", "zh_hant", "zh_hans")}
    text = client.post("/house", data={**FORM, **long}).get_data(as_text=True)
    assert "too many for one link" in _top_errors(text) and "damaged" not in text


def _sent(text: str) -> dict[str, str]:
    """What a browser without scripts sends for the page's /house form (one value a name)."""
    pairs = FormPairs(text, "house-form").pairs
    assert len({n for n, _ in pairs}) == len(pairs), "a field sent twice"
    return dict(pairs)


def _own_form(rs) -> dict[str, str]:
    """The fields a family's own form shows: its dials, and each pattern ticked when it counts
    always, at its own fan."""
    return {"min": str(rs.dials.min), "cap": "" if rs.dials.cap is None else str(rs.dials.cap),
            "curve": rs.dials.curve, "payment": rs.dials.payment, "stake": str(rs.dials.stake),
            **{f"fan.{p.id}": str(p.fan) for p in rs.patterns},
            **{f"on.{p.id}": "1" for p in rs.patterns if not p.optional}}


def _shown(sent: dict[str, str], rs) -> dict[str, str]:
    keys = {"min", "cap", "curve", "payment", "stake", *(f"fan.{p.id}" for p in rs.patterns)}
    return {k: v for k, v in sent.items() if k in keys or k.startswith("on.")}


@pytest.mark.parametrize("first, then", [("hong-kong", "sichuan"), ("sichuan", "hong-kong"),
                                         ("hong-kong", "hong-kong-course"), ("hong-kong", "family"),
                                         ("hong-kong-course", "sichuan-sbr")])
@pytest.mark.parametrize("method", ["POST", "GET"])
def test_without_javascript_another_family_starts_from_its_own_dials_and_patterns(
        client, first, then, method):
    """The form as a browser without scripts sends it: the first family's page, a few changes
    typed, then "Start from" set to another family and the form sent (as its button does)."""
    page = client.get("/house", query_string={"base": first}).get_data(as_text=True)
    sent = _sent(page)
    assert sent["from"] == first and sent["base"] == first and sent["edit"] == "1"
    own = registry()[first]
    assert _shown(sent, own) == _own_form(own)
    some = next(p for p in own.patterns if not p.optional)
    sent.update({"min": "1", "stake": "2", f"fan.{some.id}": str(some.fan + 1)})
    sent.pop(f"on.{some.id}")   # a pattern unticked
    sent["base"] = then         # "Start from" another family
    if method == "POST":
        answer = client.post("/house", data=sent)
        assert answer.status_code == 303
        assert answer.headers["Location"] == f"/house?base={then}"   # where house.js goes
        answer = client.get(answer.headers["Location"])
    else:
        answer = client.get("/house", query_string=sent)
    assert answer.status_code == 200
    text = answer.get_data(as_text=True)
    fresh = _sent(text)
    rs = registry()[then]
    assert fresh["base"] == then and fresh["from"] == then
    assert _shown(fresh, rs) == _own_form(rs)
    assert "house-changes" not in text   # nothing differs from the family


def test_the_family_switch_keeps_what_was_typed_when_the_family_is_the_same(client):
    sent = _sent(client.get("/house").get_data(as_text=True)) | {"cap": "10"}
    answer = client.post("/house", data=sent)
    assert answer.status_code == 303 and "house=1" in answer.headers["Location"]
    assert 'name="cap" value="10"' in client.get(answer.headers["Location"]).get_data(as_text=True)


def test_the_live_preview_takes_a_stake_of_2_and_says_a_wrong_one_beside_the_stake(client):
    live = client.post("/house/preview", data={**FORM, "stake": "2"})
    assert live.status_code == 200 and 'id="house-link"' in live.get_data(as_text=True)
    assert "1 → 2" in live.get_data(as_text=True)   # listed with what differs
    wrong = client.post("/house/preview?lang=zh-Hant", data={**FORM, "stake": "two"})
    assert wrong.status_code == 400
    errors = re.search(r'<div id="house-live-errors" hidden>(.*)</div>', wrong.get_data(as_text=True), re.S)[1]
    assert set(re.findall(r'data-errors-for="([^"]*)"', errors)) == {"stake"}
    assert "不是有效的注碼" in errors
