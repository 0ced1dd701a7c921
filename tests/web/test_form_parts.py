"""The calculator form's kept fragments (forms.FormView, fragments.py): never shared between
rulesets or requests."""
from __future__ import annotations

from urllib.parse import urlencode

import pytest
from markupsafe import Markup, escape

from app.web import create_app
from app.web.common.fragments import FragmentCache, hole

HANDS = ["123m456m789m234p55s", "111p123p777p789p55p"]
RULES = ["hong-kong", "sichuan"]


def _query(rules: str, hand: str, **more: str) -> str:
    return "/?" + urlencode({"rules": rules, "hand": hand, **more})


# every query sets a different mix of fields: choices, defaults, typed values, errors
QUERIES = [_query(r, h) for r in RULES for h in HANDS] + [
    _query("hong-kong", HANDS[0], discarder="N", seat="S", round="W", by="self-draw",
           flowers="13", seasons="2", stake="2", min="1", cap="8"),
    _query("sichuan", HANDS[1], by="self-draw", missing="m", won="E", options="seven-pairs"),
    _query("hong-kong-course", HANDS[0], melds="777p", events="kong-replacement"),
    _query("hong-kong", "123m456m789m234p5x", win="zz", melds="12x"),      # errors by the fields
    _query("sichuan", "<b>&\"'", min="abc", cap="-3", stake="x"),
    _query("hong-kong", "\ue000win\ue001", win="\ue000hand\ue001"),           # the placeholders typed
    _query("hong-kong", HANDS[0], stake="\ue000hand\ue001"),                   # … echoed by an error
    _query("sichuan", "", draft="123m", target="meld"),
    "/?" + urlencode({"hand": HANDS[0]}),                                   # the default rules
    "/embed?" + urlencode({"rules": "sichuan", "hand": HANDS[0], "seat": "N"}),
    # the kept sections (FormView.cached, kept): what each reads besides the fields
    _query("hong-kong", HANDS[0], lang="en"), _query("hong-kong", HANDS[0], lang="zh-Hant"),
    _query("hong-kong", HANDS[1], lang="zh-Hant"), _query("sichuan", HANDS[1], lang="zh-Hans"),
    "/embed?" + urlencode({"rules": "hong-kong", "hand": HANDS[0], "lang": "zh-Hans"}),
    "/embed?" + urlencode({"rules": "sichuan", "hand": "123m", "seat": "X"}),   # open, with errors
    "/embed?" + urlencode({"rules": "sichuan", "hand": HANDS[1], "seat": "X"}),
    "/embed?rules=hong-kong",
    _query("hong-kong", "123m456m789m234p5s"),                              # the waits
    "/?" + urlencode({"rules": "hong-kong", "fan": "5"}),                   # points only
    _query("hong-kong", HANDS[0], sheet="hong-kong;a 123m456m789m234p55s", entry="2"),
    _query("hong-kong", HANDS[0], sheet="\ue000hand\ue001"),                   # carried placeholder
]


@pytest.fixture(scope="module")
def fresh_pages():
    """Each query answered by an app that keeps no part: WTForms renders every field as sent."""
    client = create_app({"FORM_PART_CACHE_SIZE": 0}).test_client()
    pages = {}
    for query in QUERIES:
        response = client.get(query)
        assert response.status_code == 200, query
        pages[query] = response.get_data(as_text=True)
    assert not client.application.extensions["form_parts"].entries
    assert not client.application.extensions["kept_sections"].entries
    assert not client.application.extensions["template_urls"].entries
    return pages


def test_interleaved_rulesets_and_hands_give_the_html_of_fresh_renders(fresh_pages):
    client = create_app().test_client()
    for _ in range(2):   # the second pass answers from the filled cache
        for query in QUERIES + QUERIES[::-1]:
            assert client.get(query).get_data(as_text=True) == fresh_pages[query], query
    assert client.application.extensions["form_parts"].entries
    assert client.application.extensions["kept_sections"].entries


def test_a_kept_section_is_kept_apart_for_each_mount_point():
    fresh, kept = create_app({"FORM_PART_CACHE_SIZE": 0}).test_client(), create_app().test_client()
    for _ in range(2):
        for base in ("http://localhost/", "http://localhost/mahjong/"):
            for query in (_query("hong-kong", HANDS[0]), _query("sichuan", HANDS[1], lang="zh-Hant")):
                want = fresh.get(query, base_url=base).get_data(as_text=True)
                assert kept.get(query, base_url=base).get_data(as_text=True) == want, (base, query)


def test_a_typed_value_shows_in_its_own_field_only(fresh_pages):
    page = fresh_pages[_query("sichuan", "<b>&\"'", min="abc", cap="-3", stake="x")]
    assert 'id="hand" name="hand" size="28" type="text" value="&lt;b&gt;&amp;&#34;&#39;"' in page
    assert 'name="stake" size="6" type="text" value="x"' in page
    assert 'name="win" size="4" type="text" value=""' in page


def test_a_typed_placeholder_is_shown_as_typed(fresh_pages):
    page = fresh_pages[_query("hong-kong", "\ue000win\ue001", win="\ue000hand\ue001")]
    assert 'name="hand" size="28" type="text" value="\ue000win\ue001"' in page
    assert 'name="win" size="4" type="text" value="\ue000hand\ue001"' in page
    page = fresh_pages[_query("hong-kong", HANDS[0], stake="\ue000hand\ue001")]
    assert '<li>&#39;\ue000hand\ue001&#39; is not a stake;' in page


def test_each_app_keeps_its_own_parts():
    first, second = create_app(), create_app()
    first.test_client().get(QUERIES[0])
    assert first.extensions["form_parts"].entries
    assert not second.extensions["form_parts"].entries


def test_the_part_cache_forgets_the_least_recently_used_beyond_its_size():
    cache = FragmentCache(size=2)
    cache.put("a", ("A",))
    cache.put("b", ("B",))
    assert cache.get("a") == ("A",)      # now b is the least recently used
    cache.put("c", ("C",))
    assert cache.get("b") is None
    assert cache.get("a") == ("A",) and cache.get("c") == ("C",)
    assert len(cache.entries) == 2
    assert not isinstance(cache.get("a"), Markup)


def test_a_fragment_is_rendered_once_and_each_hole_filled_every_time():
    cache, renders = FragmentCache(size=4), []

    def render():
        renders.append(1)
        return Markup("<input value=\"") + hole("hand") + Markup("\">")

    for hand in ("123m", "<b>"):
        html = cache.fragment("hand-field", render, lambda name, hand=hand: str(escape({"hand": hand}[name])))
        assert html == f'<input value="{escape(hand)}">'
    assert len(renders) == 1


def test_a_fragment_cache_of_size_zero_renders_every_time_and_keeps_nothing():
    cache, renders = FragmentCache(size=0), []
    for _ in range(2):
        html = cache.fragment("x", lambda: renders.append(1) or f"<p>{hole('n')}</p>", lambda name: "7")
        assert html == "<p>7</p>"
    assert len(renders) == 2 and not cache.entries
