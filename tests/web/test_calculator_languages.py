"""The calculator's own words in Chinese: its sentences said in the page language, the family's
terms in its labels, and the English page word for word as before."""
from __future__ import annotations

import re

import pytest

from app.base.errors import HandError
from app.base.i18n import Msg
from app.vocabulary.hand import parse_hand

HAND = "123m456m789m234p55s"


def _page(client, url: str) -> str:
    return client.get(url).get_data(as_text=True)


def test_a_hand_description_error_keeps_its_message_id_and_reads_as_english():
    with pytest.raises(HandError) as caught:
        parse_hand({"hand": "123m456m"})
    message = caught.value.errors[0].message
    assert isinstance(message, Msg)
    assert message == "6 tiles in the hand; a winning hand needs 14"
    assert message.msgid.startswith("{tiles} in the hand; {what} needs")


@pytest.mark.parametrize("lang, said", [
    ("en", "6 tiles in the hand; a winning hand needs 14"),
    ("zh-Hant", "手牌 6 張；食糊時要 14 張"),
    ("zh-Hans", "手牌 6 张；食糊时要 14 张"),
])
def test_the_hand_fields_error_is_said_in_the_page_language(client, lang, said):
    page = _page(client, f"/?rules=hong-kong&hand=123m456m&lang={lang}")
    assert f'<ul class="errors" id="hand-error"><li>{said}</li></ul>' in page


@pytest.mark.parametrize("lang, start", [("en", "liable: "), ("zh-Hant", "包牌者："),
                                         ("zh-Hans", "包牌者：")])
def test_an_error_apart_from_the_fields_names_its_field_in_the_page_language(client, lang, start):
    # Hong Kong 36 has no liability rule, so the form has no liable field to put the error by
    page = _page(client, f"/?rules=hong-kong&hand=777z123m99s&melds=555z,666z&liable=W&lang={lang}")
    loose = re.search(r'<ul class="errors" role="alert"><li>([^<]*)</li>', page)
    assert loose is not None and loose[1].startswith(start), loose


@pytest.mark.parametrize("url, discarder, payment", [
    ("/?rules=sichuan&lang=zh-Hant", "點炮者", "點炮時誰付錢"),
    ("/?rules=sichuan&lang=zh-Hans", "点炮者", "点炮时谁付钱"),
    ("/?rules=hong-kong&lang=zh-Hant", "出銃者", "出銃時誰付錢"),
    ("/?rules=hong-kong&lang=zh-Hans", "出铳者", "出铳时谁付钱"),
    ("/?rules=sichuan", "Discarder", "Who pays on a discard"),
])
def test_the_discarder_is_named_in_the_familys_own_term(client, url, discarder, payment):
    page = _page(client, url)
    assert f'<span id="discarder-legend" class="label">{discarder}</span>' in page
    assert f'<label for="payment">{payment}</label>' in page


@pytest.mark.parametrize("lang, sentence", [("en", "2³ = 8 base points."),
                                            ("zh-Hant", "2³ = 8 底分。"),
                                            ("zh-Hans", "2³ = 8 底分。")])
def test_the_arithmetic_is_said_in_the_page_language(client, lang, sentence):
    page = _page(client, f"/?rules=hong-kong&hand={HAND}&discarder=N&lang={lang}")
    assert f'<p class="arithmetic">{sentence}</p>' in page


@pytest.mark.parametrize("lang, names", [("en", ("Remove meld ckong:5555z", "Remove meld chow:345p")),
                                         ("zh-Hant", ("移除副露 暗槓 白", "移除副露 上 三四五筒")),
                                         ("zh-Hans", ("移除副露 暗杠 白", "移除副露 上 三四五筒"))])
def test_a_declared_melds_button_names_it_without_notation_in_chinese(client, lang, names):
    """Its kind and its tiles by name (a run by its numbers, then its suit); English keeps the
    notation, as its players write a meld."""
    page = _page(client, f"/?rules=hong-kong&hand=123m45m&melds=ckong:5555z,chow:345p&lang={lang}")
    for name in names:
        assert f'aria-label="{name}"' in page


@pytest.mark.parametrize("lang, title", [
    ("", "Mahjong hand card: 123m456m789m234p55s"),
    ("zh-Hant", "麻雀手牌卡片：123m456m789m234p55s"),
    ("zh-Hans", "麻将手牌卡片：123m456m789m234p55s"),
])
def test_an_oembed_frame_is_titled_in_the_language_of_the_page_it_frames(client, lang, title):
    url = f"http://localhost/?rules=hong-kong&hand={HAND}" + (f"&lang={lang}" if lang else "")
    answer = client.get("/oembed", query_string={"url": url}).get_json()
    assert answer["title"] == title
    assert f'title="{title}"' in answer["html"]
