"""oEmbed and the embed view: a calculator permalink becomes a frame on a lesson page."""
from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from app.rules.loader import registry
from app.web import create_app
from tests import wordpress_like

HAND = "123m456m789m234p55s"
ROOT = "http://localhost"
RESULT = f"{ROOT}/?rules=hong-kong&hand={HAND}&by=self-draw&seat=S"


def _oembed(client, url: str, **extra):
    return client.get("/oembed", query_string={"url": url, **extra})


def _frame_src(answer: dict) -> str:
    src = re.search(r'<iframe src="([^"]+)"', answer["html"])
    assert src is not None
    return html.unescape(src[1])


def test_a_result_permalink_answers_a_rich_object_framing_its_card(client):
    response = _oembed(client, RESULT, format="json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    answer = response.get_json()
    assert answer["version"] == "1.0" and answer["type"] == "rich"
    assert answer["provider_name"] and answer["title"].endswith(HAND)
    src = urlsplit(_frame_src(answer))
    assert src.path == "/card"
    assert parse_qs(src.query) == parse_qs(urlsplit(RESULT).query)
    assert 'loading="lazy"' in answer["html"] and f'title="{answer["title"]}"' in answer["html"]
    # as wide as its column (WordPress keeps no style), at most the answer's width where style is kept
    assert 'width="100%"' in answer["html"] and f'max-width: {answer["width"]}px' in answer["html"]
    assert f'height="{answer["height"]}"' in answer["html"]
    card = client.get(src.path + "?" + src.query)
    assert card.status_code == 200 and "Open in the calculator" in card.get_data(as_text=True)


@pytest.mark.parametrize("framed, asked, title", [
    ("zh-Hant", None, f"麻雀手牌卡片：{HAND}"), ("zh-Hans", "zh-Hant", f"麻将手牌卡片：{HAND}"),
    ("en", "zh-Hans", f"Mahjong hand card: {HAND}"), (None, "zh-Hant", f"麻雀手牌卡片：{HAND}")])
def test_the_title_is_in_the_framed_pages_language_else_the_answers(client, framed, asked, title):
    url = RESULT + (f"&lang={framed}" if framed else "")
    extra = {"lang": asked} if asked else {}
    assert _oembed(client, url, **extra).get_json()["title"] == title


def test_maxwidth_and_maxheight_bound_the_frame(client):
    answer = _oembed(client, RESULT, maxwidth="320", maxheight="250").get_json()
    assert (answer["width"], answer["height"]) == (320, 250)
    roomy = _oembed(client, RESULT, maxwidth="5000", maxheight="5000").get_json()
    assert roomy["width"] <= 5000 and roomy["height"] <= 5000
    assert _oembed(client, RESULT, maxwidth="wide").status_code == 400


def test_a_narrower_frame_is_taller_and_none_is_above_wordpresss_cap(client):
    narrow = _oembed(client, RESULT, maxwidth="320").get_json()
    wide = _oembed(client, RESULT, maxwidth="600").get_json()
    assert narrow["height"] > wide["height"]
    for url in (RESULT, f"{ROOT}/embed?rules=hong-kong", f"{ROOT}/practice?seed=7"):
        answer = _oembed(client, url, maxwidth="320", maxheight="5000").get_json()
        assert answer["height"] <= 1000, url   # wp-embed.js clamps a frame's height to 1000


@pytest.mark.parametrize("url", [RESULT, f"{ROOT}/embed?rules=hong-kong&hand={HAND}",
                                 f"{ROOT}/practice?seed=7",
                                 f"{ROOT}/discard?rules=hong-kong&hand={HAND}6s",
                                 f"{ROOT}/practice/discard?rules=hong-kong&seed=7"])
def test_the_answer_survives_wordpresss_filter_with_its_fallback_link_and_frame(client, url):
    answer = _oembed(client, url, maxwidth="500", maxheight="750").get_json()
    quote, frame = wordpress_like.kept(answer["html"])
    link = re.fullmatch(r'<blockquote><a href="([^"]+)">([^<]+)</a></blockquote>', quote)
    assert link is not None, quote
    assert html.unescape(link[1]) == url and html.unescape(link[2]) == answer["title"]
    attrs = dict(re.findall(r' ([a-z]+)="([^"]*)"', frame))
    assert html.unescape(attrs["src"]) == _frame_src(answer)
    assert (attrs["width"], attrs["height"]) == ("100%", str(answer["height"]))
    assert attrs["frameborder"] == "0" and html.unescape(attrs["title"]) == answer["title"]


@pytest.mark.parametrize("url, path", [
    (f"{ROOT}/card?rules=hong-kong&hand={HAND}&theme=dark", "/card"),
    (f"{ROOT}/ticks?rules=hong-kong&ticks=all-pongs", "/card"),
    (f"{ROOT}/embed?rules=hong-kong&hand={HAND}", "/embed"),
    (f"{ROOT}/practice?rules=hong-kong&level=patterns&seed=abc&n=2", "/embed/practice"),
    (f"{ROOT}/round?rules=sichuan&round=E+wins", "/round"),
])
def test_every_kind_of_permalink_has_a_frame(client, url, path):
    response = _oembed(client, url)
    assert response.status_code == 200
    assert urlsplit(_frame_src(response.get_json())).path == path


def test_a_rules_pages_worked_example_frames_its_hand_card(client):
    ruleset = registry()["hong-kong"]
    example = next(e for e in ruleset.examples if "hand" in e.params)
    answer = _oembed(client, f"{ROOT}/rules/hong-kong#worked-{example.id}").get_json()
    src = urlsplit(_frame_src(answer))
    assert src.path == "/card"
    assert parse_qs(src.query)["hand"] == [example.params["hand"]]


@pytest.mark.parametrize("url", [
    f"https://elsewhere.example/?rules=hong-kong&hand={HAND}",   # another site
    f"{ROOT}/",                                                   # an empty form
    f"{ROOT}/api/score?hand={HAND}",                              # not a page
    f"{ROOT}/rules/hong-kong#worked-no-such-example",
    f"{ROOT}/rules/nowhere#worked-x",
    "javascript:alert(1)",
])
def test_unknown_or_foreign_addresses_get_404(client, url):
    assert _oembed(client, url).status_code == 404


def test_formats_other_than_json_get_501(client):
    assert _oembed(client, RESULT, format="xml").status_code == 501


def test_result_and_card_pages_name_their_oembed_address(client):
    for path in (f"/?rules=hong-kong&hand={HAND}", f"/card?rules=hong-kong&hand={HAND}"):
        text = client.get(path).get_data(as_text=True)
        link = re.search(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"',
                         text)
        assert link is not None, path
        href = html.unescape(link[1])
        answer = client.get(href)
        assert answer.status_code == 200 and answer.get_json()["type"] == "rich"
    plain = client.get("/").get_data(as_text=True)
    assert "application/json+oembed" not in plain


def _discovery_href(text: str) -> str | None:
    link = re.search(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"', text)
    return None if link is None else html.unescape(link[1])


@pytest.mark.parametrize("path", [f"/?rules=hong-kong&hand={HAND}", f"/card?rules=hong-kong&hand={HAND}",
                                  "/embed?rules=hong-kong", "/embed/practice?seed=7",
                                  f"/discard?rules=hong-kong&hand={HAND}6s",
                                  f"/embed/discard?rules=hong-kong&hand={HAND}6s",
                                  "/practice/discard?rules=hong-kong&seed=7&n=1"])
def test_the_discovery_href_is_absolute_as_wordpress_needs(client, path):
    # WP_oEmbed::discover() uses the href as written and wp_http_validate_url() wants a host
    href = _discovery_href(client.get(path, base_url="https://lessons.example").get_data(as_text=True))
    assert href is not None, path
    parts = urlsplit(href)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "lessons.example", "/oembed")
    assert urlsplit(parse_qs(parts.query)["url"][0]).path == urlsplit(path).path


def test_with_a_public_name_the_discovery_href_names_it(monkeypatch):
    monkeypatch.setenv("MAHJONG_SERVER_NAME", "mahjong.example")
    client = create_app().test_client()
    text = client.get(f"/card?rules=hong-kong&hand={HAND}", base_url="http://mahjong.example")
    href = _discovery_href(text.get_data(as_text=True))
    assert href is not None and href.startswith("http://mahjong.example/oembed?")


@pytest.mark.parametrize(("url", "frame_path"), [
    (f"{ROOT}/discard?rules=hong-kong&hand={HAND}6s", "/embed/discard"),
    (f"{ROOT}/embed/discard?rules=hong-kong&hand={HAND}6s", "/embed/discard"),
    (f"{ROOT}/practice/discard?rules=hong-kong&seed=7&n=2", "/practice/discard"),
    (f"{ROOT}/practice/discard?rules=hong-kong&hand=1113678m67778p4s6z", "/practice/discard"),
])
def test_the_discard_question_and_its_quiz_frame_their_embedded_view(client, url, frame_path):
    response = _oembed(client, url)
    assert response.status_code == 200
    src = urlsplit(_frame_src(response.get_json()))
    assert src.path == frame_path
    query = parse_qs(src.query)
    assert query["rules"] == ["hong-kong"]
    if frame_path == "/practice/discard" and "seed" in query:
        assert query["seed"] == ["7"] and query["n"] == ["2"] and query["embed"] == ["1"]
    elif frame_path == "/practice/discard":   # a teacher's one question
        assert query["hand"] == ["1113678m67778p4s6z"] and query["embed"] == ["1"]
    else:
        assert query["hand"] == [f"{HAND}6s"]
    framed = client.get(f"{src.path}?{src.query}")
    assert framed.status_code == 200


@pytest.mark.parametrize(("url", "title"), [
    (f"{ROOT}/discard?rules=hong-kong&hand={HAND}6s&lang=zh-Hant", "打哪張"),
    (f"{ROOT}/practice/discard?rules=hong-kong&seed=7&lang=zh-Hans", "你会打哪张？"),
])
def test_a_discard_frame_is_titled_in_its_pages_language(client, url, title):
    answer = _oembed(client, url).get_json()
    assert answer["title"] == title and f'title="{title}"' in answer["html"]


def test_an_empty_discard_page_has_no_oembed(client):
    assert _oembed(client, f"{ROOT}/discard?rules=hong-kong").status_code == 404
    assert "application/json+oembed" not in client.get("/discard").get_data(as_text=True)


# --- the embed view ----------------------------------------------------------------------


def _change_hand(text: str) -> str | None:
    found = re.search(r'<details class="change-hand"( open)?>\s*<summary>Change the hand</summary>',
                      text)
    return None if found is None else ("open" if found[1] else "folded")


def test_the_embed_view_folds_the_form_under_change_the_hand_once_there_is_a_result(client):
    result = client.get(f"/embed?rules=hong-kong&hand={HAND}").get_data(as_text=True)
    assert _change_hand(result) == "folded"
    assert result.index('class="result"') < result.index("Change the hand")
    assert _change_hand(client.get("/embed?rules=hong-kong").get_data(as_text=True)) == "open"
    bad = client.get("/embed?rules=hong-kong&hand=123m9z").get_data(as_text=True)
    assert _change_hand(bad) == "open"


def test_the_full_calculator_does_not_fold_its_form(client):
    assert _change_hand(client.get(f"/?rules=hong-kong&hand={HAND}").get_data(as_text=True)) is None


def _more_of_hand(text: str) -> str | None:
    """How the embed view shows what is not its first screen: "open", "folded" or None."""
    found = re.search(r'<details class="more-of-hand"( open)?>', text)
    return None if found is None else ("open" if found[1] else "folded")


def _form(text: str) -> str:
    return re.search(r'<form class="calculator".*?</form>', text, re.S)[0]


def test_an_empty_embed_shows_the_hand_and_score_first_and_folds_the_rest_inside_its_form(client):
    form = _form(client.get("/embed?rules=hong-kong").get_data(as_text=True))
    assert _more_of_hand(form) == "folded"   # inside the form: what it holds is sent with it
    first, folded = form.split('<details class="more-of-hand"', 1)
    assert 'name="hand"' in first and ">Score</button>" in first and 'name="add"' in first
    for name in ("by", "seat", "discarder", "win", "melds", "events", "min", "stake"):
        assert f'name="{name}"' in folded and f'name="{name}"' not in first, name


@pytest.mark.parametrize("query", ["stake=abc", "melds=12m", "seat=Q"])
def test_the_fold_opens_on_an_error_inside_it_and_keeps_what_was_typed(client, query):
    page = client.get(f"/embed?rules=hong-kong&hand={HAND}&{query}").get_data(as_text=True)
    assert _change_hand(page) == "open" and _more_of_hand(page) == "open"
    if query == "melds=12m":
        assert re.search(r'name="melds"[^>]*value="12m"', _form(page).split("more-of-hand")[1])


def test_the_fold_stays_closed_on_an_error_in_the_hand_and_keeps_what_was_folded(client):
    page = client.get("/embed?rules=hong-kong&hand=123m9z&melds=777m").get_data(as_text=True)
    assert _change_hand(page) == "open" and _more_of_hand(page) == "folded"
    assert re.search(r'name="melds"[^>]*value="777m"', page)


def test_the_full_calculator_folds_nothing_of_its_form(client):
    assert _more_of_hand(client.get("/?rules=hong-kong").get_data(as_text=True)) is None


def test_an_embedded_series_keeps_its_links_under_another_series(client):
    """Start a new series and the share link: folded in the embedded quiz, under the full one."""
    query = "rules=hong-kong&level=patterns&seed=abc&n=1"
    embedded = client.get(f"/embed/practice?{query}").get_data(as_text=True)
    series = re.search(r'<details class="series">.*?</details>', embedded, re.S)[0]
    assert "Start a new series" in series and embedded.count("Start a new series") == 1
    full = client.get(f"/practice?{query}").get_data(as_text=True)
    assert '<details class="series">' not in full and full.count("Start a new series") == 1
    assert full.index("Start a new series") > full.index('id="answer-form"')


def test_the_one_line_embed_script_is_served_as_javascript(client):
    response = client.get("/static/embed.js")
    assert response.status_code == 200 and "javascript" in response.mimetype
    script = response.get_data(as_text=True)
    assert "data-mahjong" in script and "event.origin !== origin" in script


def test_the_practice_series_is_embeddable_without_site_chrome(client):
    page = client.get("/embed/practice?rules=hong-kong&level=patterns&seed=abc&n=1")
    assert page.status_code == 200
    assert '<header class="site"' not in page.get_data(as_text=True)
