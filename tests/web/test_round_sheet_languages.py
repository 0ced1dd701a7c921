"""The round ledger, the game sheet and the rules pages in Chinese: payments, refusals and
exports said in the reader's language, the English ones unchanged."""
from __future__ import annotations

import csv
import html
import io
import re

import pytest

from app.base.i18n import Msg, say
from app.vocabulary.round import parse_round_text, read_round, settle_round
from app.web.table.rounds import EXAMPLE

NIGHT = {"rules": "hong-kong", "names": "Ann,Bob,Cy,Di", "hands": "\n".join([
    "hand=123456789m234p55s by=self-draw",
    "hand=123456789m234p55s seat=S discarder=N at=2341",
])}
BAD_LINE = "missing E=p\nfoo bar"


def _text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_the_ledger_says_its_payments_in_traditional_chinese_with_seats_as_winds(client):
    page = _text(client.get("/round", query_string={"rules": "sichuan", "round": EXAMPLE,
                                                    "lang": "zh-Hant"}).get_data(as_text=True))
    assert "1. 東家自摸" in page and "南家暗槓 九筒" in page
    assert "直槓：北家打出第四張 二萬" in page
    assert "查叫：" in page and "退稅：" in page
    assert "returns the kong money" not in page and "is not ready" not in page


def test_the_ledger_says_its_payments_in_simplified_chinese(client):
    page = _text(client.get("/round", query_string={"rules": "sichuan", "round": EXAMPLE,
                                                    "lang": "zh-Hans"}).get_data(as_text=True))
    assert "1. 东家自摸" in page and "退税：" in page and "结算这局" in page


def test_the_english_ledger_keeps_its_english_reasons(client):
    page = _text(client.get("/round", query_string={"rules": "sichuan", "round": EXAMPLE})
                 .get_data(as_text=True))
    assert "1. E wins by self-draw" in page and "直杠: N discarded the fourth 2m" in page
    assert "退税: W never won, so returns the kong money N paid" in page


def test_a_payment_reason_is_a_message_that_reads_as_its_english_sentence():
    ledger = settle_round(read_round(parse_round_text(EXAMPLE)))
    reason = next(line.reason for line in ledger.lines if line.kind == "refund")
    assert isinstance(reason, Msg) and reason == "退税: S never won, so returns the kong money W paid"
    assert say(reason, "zh-Hant", {reason.msgid: "退稅：{payee}家沒有胡牌"}.get) == "退稅：南家沒有胡牌"


def test_an_error_of_a_line_is_said_in_chinese_on_its_row(client):
    page = client.get("/round", query_string={"rules": "sichuan", "round": BAD_LINE, "lang": "zh-Hant"})
    row = re.search(r'<tr id="line-1".*?</tr>', page.get_data(as_text=True), re.S)[0]
    assert "「foo」不是 missing, options, kong, win 或 wall" in html.unescape(row)
    english = client.get("/round", query_string={"rules": "sichuan", "round": BAD_LINE}).get_data(as_text=True)
    assert "round: &#39;foo&#39; is not missing, options, kong, win or wall" in english


def test_the_api_settles_in_the_language_asked_with_the_same_amounts(client):
    body = parse_round_text(EXAMPLE)
    english = client.post("/api/settle", json=body).get_json()
    chinese = client.post("/api/settle?lang=zh-Hans", json=body).get_json()
    assert [(l["payer"], l["payee"], l["amount"]) for l in chinese["lines"]] == \
        [(l["payer"], l["payee"], l["amount"]) for l in english["lines"]]
    assert chinese["totals"] == english["totals"]
    assert chinese["lines"][0]["event"] == "东家自摸" and english["lines"][0]["event"] == "E wins by self-draw"
    assert all(re.search(r"[\u4e00-\u9fff]", l["reason"]) for l in chinese["lines"])


def test_a_sheet_error_is_said_in_chinese(client):
    page = client.get("/sheet", query_string={**NIGHT, "hands": "hand=123m colour=red", "lang": "zh-Hant"})
    assert "第 1 局：「colour」不是這裏一手牌的一部分" in html.unescape(page.get_data(as_text=True))


def test_the_sheet_says_who_pays_whom_in_chinese(client):
    page = _text(client.get("/sheet", query_string={**NIGHT, "lang": "zh-Hant"}).get_data(as_text=True))
    assert "誰付給誰" in page and "Cy（南）食糊，Ann出銃" in page and "Ann（東）自摸" in page


def test_the_csv_heads_its_columns_in_the_readers_language_and_keeps_the_english_ones(client):
    def rows(query):
        return list(csv.reader(io.StringIO(client.get("/sheet.csv", query_string=query).get_data(as_text=True))))
    english = rows(NIGHT)
    assert english[0] == "hand,entry,E,S,W,N,Ann,Bob,Cy,Di,Ann total,Bob total,Cy total,Di total,note".split(",")
    assert ["payer", "payee", "amount"] in english
    chinese = rows({**NIGHT, "lang": "zh-Hant"})
    assert chinese[0] == "局,記錄,E,S,W,N,Ann,Bob,Cy,Di,Ann 累計,Bob 累計,Cy 累計,Di 累計,備註".split(",")
    assert ["付款者", "收款者", "金額"] in chinese
    assert [row[10:14] for row in chinese[1:3]] == [row[10:14] for row in english[1:3]]


def test_the_sheet_links_keep_the_language(client):
    page = client.get("/sheet", query_string={**NIGHT, "lang": "zh-Hans"}).get_data(as_text=True)
    for element_id in ("add-hand", "share-link", "csv-link", "new-sheet"):
        href = html.unescape(re.search(rf'<a [^>]*id="{element_id}"[^>]*>', page)[0])
        assert "lang=zh-Hans" in href, element_id


def test_the_rules_index_says_how_to_add_a_language(client):
    english = client.get("/rules/").get_data(as_text=True)
    assert "In your language / 其他語言" in english
    assert "<code>pybabel init</code>" in english and "<code>make translations</code>" in english
    chinese = client.get("/rules/?lang=zh-Hans").get_data(as_text=True)
    assert "其他语言" in chinese and "<code>pybabel init</code>" in chinese


@pytest.mark.parametrize("lang, words", [("zh-Hant", ("（選用規則，預設關閉）", "（預設）", "裁定 1：")),
                                         ("zh-Hans", ("（选用规则，默认关闭）", "（默认）", "裁定 1："))])
def test_the_ruleset_page_says_its_labels_and_rulings_in_chinese(client, lang, words):
    page = html.unescape(client.get(f"/rules/sichuan?lang={lang}").get_data(as_text=True))
    for word in words:
        assert word in page
    assert "(house rule, off by default)" not in page and "Rulings: where" not in page
