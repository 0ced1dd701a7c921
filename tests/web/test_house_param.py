"""`house=`: a club's variant in the links' own vocabulary (INTERFACE.md, "Additions"), beside
the family's `rules=`, honoured by every page and the API as the single `rules=<family>~<code>`."""
from __future__ import annotations

from urllib.parse import quote, urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.house import House, PatternChange, encode, split
from app.web.common.present import PERMALINK_ORDER, permalink

# cap 5 and seven pairs on at 4 fan: the hand below is refused by the family (seven pairs off)
VARIANT = encode(House("hong-kong", dials=(("cap", 5),), patterns=(PatternChange("seven-pairs", fan=4, on=True),)))
FAMILY, CODE = split(VARIANT)
HAND = {"hand": "11m22m33p44p55s66s77z", "win": "7z", "by": "self-draw"}


def score(client, **query):
    return client.get("/api/score", query_string={**HAND, **query})


def test_house_beside_rules_prices_as_the_variant_and_the_family_alone_does_not(client):
    house = score(client, rules=FAMILY, house=CODE)
    single = score(client, rules=VARIANT)
    assert house.status_code == single.status_code == 200
    assert house.json["patterns"] == single.json["patterns"]
    assert house.json["cap"] == 5 and house.json["capped_fan"] == 5   # 4 + self-draw + no bonus, capped
    assert score(client, rules=FAMILY).status_code == 400


def test_the_answers_permalink_names_the_variant_as_house(client):
    link = score(client, rules=VARIANT).json["permalink"]
    assert link.startswith(f"/?rules={FAMILY}&house={CODE}&")
    again = client.get(link.replace("/?", "/api/score?", 1))
    assert again.status_code == 200 and again.json["capped_fan"] == 5


def test_house_without_rules_is_a_variant_of_the_default_family(client):
    assert score(client, house=CODE).json["capped_fan"] == 5


def test_a_damaged_house_code_is_refused_as_house(client):
    answer = score(client, rules=FAMILY, house=CODE[:-6] + "AAAAAA")
    assert answer.status_code == 400
    assert [e["field"] for e in answer.json["errors"]] == ["house"]
    newer = score(client, rules=FAMILY, house="9" + CODE[1:])
    assert newer.status_code == 400 and "newer" in newer.json["errors"][0]["message"]


@pytest.mark.parametrize("path", ["/", "/card", "/embed"])
def test_pages_follow_house(client, path):
    page = client.get(path, query_string={"rules": FAMILY, "house": CODE, **HAND})
    assert page.status_code == 200
    payments = score(client, rules=VARIANT).json["payments"]
    winner = next(p["amount"] for p in payments if p["role"] == "winner")
    assert f"+{winner}" in page.get_data(as_text=True)
    family = client.get(path, query_string={"rules": FAMILY, **HAND})
    assert f"+{winner}" not in family.get_data(as_text=True)   # the family refuses seven pairs


def test_the_rules_page_of_a_family_with_house_is_the_variants(client):
    variant = client.get(f"/rules/{FAMILY}", query_string={"house": CODE}).get_data(as_text=True)
    single = client.get(f"/rules/{VARIANT}").get_data(as_text=True)
    family = client.get(f"/rules/{FAMILY}").get_data(as_text=True)
    # the same page but for the address of itself its language links and its link preview carry
    assert f'og:url" content="http://localhost/rules/{FAMILY}?house={CODE}"' in variant
    assert f'og:url" content="http://localhost/rules/{VARIANT}"' in single
    variant = variant.replace(f"/rules/{FAMILY}?house={CODE}&amp;", "/self?").replace(
        f'og:url" content="http://localhost/rules/{FAMILY}?house={CODE}"', 'og:url" content="/self"')
    assert variant == single.replace(f"/rules/{VARIANT}?", "/self?").replace(
        f'og:url" content="http://localhost/rules/{VARIANT}"', 'og:url" content="/self"')
    assert "(club rules)" in variant and "(club rules)" not in family


def test_oembed_frames_a_house_link_with_house_in_the_frame(client):
    url = f"http://localhost/?rules={FAMILY}&house={CODE}&hand={HAND['hand']}&win=7z&by=self-draw"
    answer = client.get("/oembed?url=" + quote(url, safe=""))
    assert answer.status_code == 200
    assert f"house={CODE}" in answer.json["html"]


def test_etags_differ_by_house(client):
    tags = {client.get("/card", query_string={"rules": FAMILY, "house": code, **HAND}).headers.get("ETag")
            for code in (CODE, split(encode(House("hong-kong", patterns=(PatternChange("seven-pairs", fan=3, on=True),))))[1])}
    assert len(tags) == 2 and None not in tags


@given(st.dictionaries(st.sampled_from([k for k in PERMALINK_ORDER if k not in ("rules", "house")]),
                       st.text(alphabet="az09_.~,:-+ &=%é/?#\n;'!*()Ｚ５", max_size=12) | st.text(max_size=6)))
@settings(max_examples=400, deadline=None)
def test_a_permalink_is_written_as_urlencode_writes_it(params):
    items = [(k, params[k]) for k in PERMALINK_ORDER if params.get(k)]
    assert permalink(params, "/card") == (f"/card?{urlencode(items, safe=',:')}" if items else "/card")
