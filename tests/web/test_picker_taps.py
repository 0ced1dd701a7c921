"""The tile picker tapped as a browser without JavaScript would: each tap submits the whole
form by GET, the view redirects to the new hand. The page keeps its language on every tap,
and what the player never set is said as assumed, even though the form carried the fields."""
from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

from app.hands.tiles import parse_tiles
from tests.html_tables import FormPairs

HAND_A = "123m456m789m234p55s"


def _page(client, url: str):
    response = client.get(url)
    assert response.status_code == 200, url
    html = response.get_data(as_text=True)
    form = FormPairs(html, "calculator-form")
    return html, form


def _tap(client, url: str, name: str, value: str, lang: str | None, extra=()):
    """Submit the page's form with one picker button; follow the redirect; check the language."""
    _, form = _page(client, url)
    query = urlencode(form.pairs + list(extra) + [(name, value)])
    response = client.get(urlsplit(url).path + "?" + query)
    assert response.status_code == 302, (name, value)
    location = response.headers["Location"]
    assert dict(parse_qsl(urlsplit(location).query)).get("lang") == lang, location
    after, form = _page(client, location.split("#")[0])
    assert form.lang == (lang or "en")
    return location.split("#")[0], after


@pytest.mark.parametrize("lang", [None, "zh-Hant", "zh-Hans"])
def test_every_picker_tap_keeps_the_page_language(client, lang):
    url = "/?rules=hong-kong" + (f"&lang={lang}" if lang else "")
    for tile in parse_tiles("123m4p"):
        url, _ = _tap(client, url, "add", tile.code, lang)
    url, _ = _tap(client, url, "remove", "0", lang)
    for code in ("7z", "7z", "7z"):   # "a new meld" ticked: its radio goes with the tap
        url, _ = _tap(client, url, "add", code, lang, extra=[("target", "meld")])
    url, html = _tap(client, url, "make", "pong", lang)
    assert "melds=777z" in url
    url, _ = _tap(client, url, "unmeld", "0", lang)
    url, _ = _tap(client, url, "clear", "1", lang)
    assert "hand=" not in url


@pytest.mark.parametrize("lang, by, seat", [(None, "How the hand was won: discard",
                                             "Winner&#39;s seat: E"),
                                            ("zh-Hant", "食糊方式 = 出銃", "贏家座位 = 東"),
                                            ("zh-Hans", "食糊方式 = 出铳", "赢家座位 = 东")])
def test_hand_a_picked_tile_by_tile_says_the_way_of_winning_and_the_seat_were_assumed(
        client, lang, by, seat):
    url = "/?rules=hong-kong" + (f"&lang={lang}" if lang else "")
    for tile in parse_tiles(HAND_A):
        url, html = _tap(client, url, "add", tile.code, lang)
    assert "by=" not in url and "seat=" not in url   # the untouched radios were not sent
    assumed = html.split('class="assumed"', 1)[1].split("</div>", 1)[0]
    assert by in assumed and seat in assumed


def test_a_tap_after_choosing_self_draw_and_south_keeps_them_and_scores_hand_a_at_4_fan(client):
    url = "/?rules=hong-kong&by=self-draw&seat=S"
    for tile in parse_tiles(HAND_A):
        url, html = _tap(client, url, "add", tile.code, None)
    assert "by=self-draw" in url and "seat=S" in url
    assert "4 fan under" in html
    assumed = html.split('class="assumed"', 1)[1].split("</div>", 1)[0] if 'class="assumed"' in html else ""
    assert "by =" not in assumed and "seat =" not in assumed


def _follow(client, query: str) -> tuple[dict[str, str], str]:
    """One no-script tap: the GET, its redirect followed; the address's pairs and the page."""
    answer = client.get("/?" + query)
    assert answer.status_code == 302, answer.get_data(as_text=True)[:300]
    location = answer.headers["Location"].split("#")[0]
    page = client.get(location)
    assert page.status_code == 200
    return dict(parse_qsl(urlsplit(location).query)), page.get_data(as_text=True)


@pytest.mark.parametrize("kind, tile, meld", [
    ("pong", "7z", "777z"), ("chow", "1p", "123p"), ("kong", "5s", "5555s"),
    ("ckong", "9p", "ckong:9999p"), ("akong", "2m", "akong:2222m")])
def test_a_meld_in_two_taps_without_javascript(client, kind, tile, meld):
    pairs, page = _follow(client, urlencode({"rules": "hong-kong", "hand": "4s", "start": kind}))
    assert pairs["newmeld"] == kind
    assert f'name="newmeld" value="{kind}"' in page and 'aria-pressed="true">' in page
    pairs, page = _follow(client, urlencode(dict(pairs, add=tile)))
    assert pairs["melds"] == meld and pairs["hand"] == "4s"
    assert "newmeld" not in pairs                 # the next tile goes to the hand again
    assert 'name="newmeld"' not in page


def test_two_tap_melds_are_named_in_words_and_cancelled_by_a_clear_word(client):
    page = client.get("/?rules=hong-kong&newmeld=ckong").get_data(as_text=True)
    for word in (">pong<", ">chow<", ">exposed kong<", ">concealed kong<", ">added kong<"):
        assert word in page
    assert ">ckong<" not in page and ">akong<" not in page
    assert 'aria-label="Concealed kong of 9 Dots 九筒"' in page
    assert '>cancel</button>' in page and '>discard</button>' not in page
    pairs, _ = _follow(client, "rules=hong-kong&newmeld=ckong&undraft=1")
    assert "newmeld" not in pairs
    zh = client.get("/?rules=hong-kong&newmeld=pong&lang=zh-Hant").get_data(as_text=True)
    for word in (">碰<", ">暗槓<", ">明槓<", ">加槓<", "取消"):
        assert word in zh
    hans = client.get("/?rules=hong-kong&newmeld=pong&lang=zh-Hans").get_data(as_text=True)
    for word in (">碰<", ">暗杠<", ">明杠<", ">加杠<"):
        assert word in hans


def _disabled(page: str) -> set[str]:
    return {m.group(1) for m in re.finditer(r'value="([0-9a-z]+)" id="add-[0-9a-z]+" class="tile-button"'
                                            r' aria-label="[^"]*" disabled', page)}


def test_only_the_tiles_that_can_make_the_meld_are_offered(client):
    chow = _disabled(client.get("/?rules=hong-kong&newmeld=chow").get_data(as_text=True))
    assert {"8m", "9m", "8p", "9s", "1z", "7z"} <= chow
    assert not {"1m", "7m", "1p", "7s"} & chow
    pong = _disabled(client.get("/?rules=hong-kong&newmeld=pong&hand=7z7z").get_data(as_text=True))
    assert pong == {"7z"}                                 # a pong would be a fifth copy
    kong = _disabled(client.get("/?rules=hong-kong&newmeld=kong&melds=123m").get_data(as_text=True))
    assert kong == {"1m", "2m", "3m"}
    answer = client.get("/?rules=hong-kong&newmeld=chow&add=8m")   # typed by hand: refused
    assert answer.status_code == 200 and "8 Characters 八萬 cannot make this meld" in answer.get_data(as_text=True)
    zh = client.get("/?rules=hong-kong&newmeld=chow&add=8m&lang=zh-Hans").get_data(as_text=True)
    assert "八万" in zh.split('class="picked two-tap"', 1)[1].split("</div>", 1)[0]


@pytest.mark.parametrize("before, after", [
    ({"hand": "1m9p", "melds": "777z"}, {"hand": "1m", "melds": "777z"}),   # the last tile
    ({"melds": "777z,123p"}, {"melds": "777z"}),                            # else the last meld
    ({"hand": "5s", "newmeld": "chow"}, {"hand": "5s"}),                    # a chosen kind
    ({"hand": "99m", "win": "9m"}, {"hand": "9m", "win": "9m"}),
    ({"hand": "9m", "win": "9m"}, {}),
])
def test_undo_without_javascript_takes_back_the_last_tap(client, before, after):
    pairs, page = _follow(client, urlencode(dict(before, rules="hong-kong", lang="zh-Hant", undo="1")))
    assert {k: v for k, v in pairs.items() if k not in ("rules", "lang")} == after
    assert pairs["lang"] == "zh-Hant"


def test_undo_is_offered_only_when_there_is_something_to_take_back(client):
    assert 'id="undo"' not in client.get("/?rules=hong-kong").get_data(as_text=True)
    page = client.get("/?rules=hong-kong&hand=1m9p").get_data(as_text=True)
    assert 'id="undo"' in page and 'aria-label="Undo: take back 9 Dots 九筒"' in page


def _taps(client, query: dict[str, str], *taps: tuple[str, str]) -> dict[str, str]:
    """Several no-script taps in a row from this address; the address they end at."""
    pairs = dict(query)
    for name, value in taps:
        pairs, _ = _follow(client, urlencode(dict(pairs, **{name: value})))
    return pairs


def test_undo_after_a_meld_takes_back_the_meld_not_the_tile_before_it(client):
    pairs = _taps(client, {"rules": "hong-kong"}, ("add", "1m"), ("add", "2m"),
                  ("start", "pong"), ("add", "7z"))
    assert pairs["hand"] == "12m" and pairs["melds"] == "777z" and pairs["meldsat"] == "2"
    page = client.get("/?" + urlencode(pairs)).get_data(as_text=True)
    assert 'aria-label="Undo: take back the meld 777z"' in page
    pairs = _taps(client, pairs, ("undo", "1"))
    assert pairs.get("melds") is None and pairs["hand"] == "12m" and "meldsat" not in pairs
    pairs = _taps(client, pairs, ("undo", "1"))
    assert pairs["hand"] == "1m"


def test_undo_walks_back_through_tiles_and_melds_in_the_order_they_were_tapped(client):
    pairs = _taps(client, {"rules": "hong-kong"}, ("start", "pong"), ("add", "7z"), ("add", "1m"),
                  ("start", "chow"), ("add", "1p"), ("add", "9s"), ("start", "pong"), ("add", "1z"))
    assert pairs["melds"] == "777z,123p,111z" and pairs["meldsat"] == "0,1,2"
    seen = []
    for _ in range(5):
        pairs = _taps(client, pairs, ("undo", "1"))
        seen.append((pairs.get("hand", ""), pairs.get("melds", "")))
    assert seen == [("1m9s", "777z,123p"), ("1m", "777z,123p"), ("1m", "777z"), ("", "777z"), ("", "")]


def test_a_tile_removed_before_a_meld_keeps_undo_on_the_meld(client):
    pairs = _taps(client, {"rules": "hong-kong", "hand": "12m"}, ("start", "pong"), ("add", "7z"),
                  ("remove", "0"))
    assert pairs["hand"] == "2m" and pairs["meldsat"] == "1"
    assert _taps(client, pairs, ("undo", "1")).get("melds") is None


def _kinds(page: str) -> list[str]:
    """The kinds offered: every kind keeps its button (nothing moves), those not offered disabled."""
    row = page.split('class="picked two-tap"', 1)[1].split("</div>", 1)[0]
    return re.findall(r'name="start" value="([a-z]+)" [^>]*aria-pressed="[a-z]+">', row)


def test_meld_kinds_the_tiles_left_cannot_make_are_not_offered(client):
    assert _kinds(client.get("/?rules=hong-kong").get_data(as_text=True)) == [
        "pong", "chow", "kong", "ckong", "akong"]
    # four melds and a pair's tile: no room for a fifth meld
    full = client.get("/?rules=hong-kong&hand=55s&melds=111m,222m,333m,444m").get_data(as_text=True)
    assert _kinds(full) == [] and "no room for another meld" in full
    # eleven tiles leave room for one meld; twelve for none
    assert _kinds(client.get("/?rules=hong-kong&hand=123m456m789m12p").get_data(as_text=True))
    assert _kinds(client.get("/?rules=hong-kong&hand=123m456m789m123p").get_data(as_text=True)) == []
    # a kind chosen stays shown (pressed) while it is chosen, so it can be cancelled
    chosen = client.get("/?rules=hong-kong&hand=123m456m789m123p&newmeld=pong").get_data(as_text=True)
    assert _kinds(chosen) == ["pong"] and ">cancel</button>" in chosen


def test_the_old_way_of_making_a_meld_is_gone_but_its_links_still_work(client):
    page = client.get("/?rules=hong-kong&hand=123m").get_data(as_text=True)
    assert 'name="target"' not in page and ">as pong<" not in page and "a new meld" not in page
    old = client.get("/?rules=hong-kong&hand=123m&draft=77z&target=meld").get_data(as_text=True)
    assert ">as pong<" in old and 'name="target" value="meld"' in old and 'name="draft" value="77z"' in old
    pairs, _ = _follow(client, "rules=hong-kong&hand=123m&draft=77z&target=meld&add=7z")
    assert pairs["draft"] == "777z"
    pairs, page = _follow(client, urlencode(dict(pairs, make="pong")))
    assert pairs["melds"] == "777z" and 'name="draft"' not in page


def test_the_table_rules_are_folded_under_their_values_and_open_on_an_error(client):
    page = client.get("/?rules=hong-kong").get_data(as_text=True)
    folded = page.split('<details class="dials" id="dials">', 1)[1].split("</summary>", 1)[0]
    assert "minimum 3 fan" in folded and "cap 13" in folded and "stake 1" in folded
    for name in ('name="min"', 'name="cap"', 'name="curve"', 'name="payment"', 'name="stake"',
                 'name="options"'):
        assert name in page                                  # no dial is lost
    chosen = client.get("/?rules=hong-kong&min=5&stake=2&options=no-flowers").get_data(as_text=True)
    summary = chosen.split('id="dials"', 1)[1].split("</summary>", 1)[0]
    assert "minimum 5 fan" in summary and "stake 2" in summary and "1 house rule on" in summary
    wrong = client.get("/?rules=hong-kong&hand=123m456m789m234p55s&min=abc").get_data(as_text=True)
    assert '<details class="dials" id="dials" open>' in wrong
    zh = client.get("/?rules=hong-kong&lang=zh-Hant").get_data(as_text=True)
    zh_summary = zh.split('id="dials"', 1)[1].split("</summary>", 1)[0]
    assert "minimum" not in zh_summary and "3" in zh_summary


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
def test_a_hand_being_picked_raises_no_alarm_until_something_is_wrong(client, lang):
    short = client.get(f"/?rules=hong-kong&hand=123m&melds=777z&lang={lang}").get_data(as_text=True)
    assert 'class="error-summary"' not in short            # five tiles short: still being picked
    assert 'id="hand-error"' in short                       # its count waits beside the field
    fifth = client.get(f"/?rules=hong-kong&hand=11111m&lang={lang}").get_data(as_text=True)
    assert 'class="error-summary"' in fifth                 # a fifth copy is a mistake at once
    unread = client.get(f"/?rules=hong-kong&hand=12x&lang={lang}").get_data(as_text=True)
    assert 'class="error-summary"' in unread
    full = client.get(f"/?rules=hong-kong&hand=123m456m789m234p59s&lang={lang}").get_data(as_text=True)
    assert 'class="error-summary"' in full                  # 14 tiles that cannot win
