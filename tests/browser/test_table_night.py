"""The night at the table on phones (390 px, touch): the host shares the sheet, a second phone
joins by scanning the QR code drawn on the page (read back here from chromium's screenshot with
zxing-cpp), an agreed hand goes in with four taps by the players' names, and a hand is
corrected in place in three."""
from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.qr import read_qr
from tests.browser.test_sheet import cells, table

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
NAMES = "阿明,阿強,小玲,大文"
WATCH_MS = 5000


def _phone(browser: Browser, base_url: str) -> Page:
    context = browser.new_context(viewport=PHONE, base_url=base_url, has_touch=True, is_mobile=True)
    return context.new_page()


def _share(page: Page, lang: str, rules: str = "hong-kong") -> None:
    query = urlencode({"rules": rules, "names": NAMES, "lang": lang,
                       "hands": "hand=123m456m789m234p55s by=self-draw seat=S"})
    page.goto(f"/sheet?{query}")
    page.locator("#share").click()
    expect(page.locator("#share-table")).to_have_attribute("open", "")


def test_the_host_shares_and_a_second_phone_joins_by_scanning_the_qr_code(browser, base_url):
    host, guest = _phone(browser, base_url), _phone(browser, base_url)
    _share(host, "zh-Hant")
    edit = host.locator("#edit-share-address").input_value()
    view = host.locator("#view-share-address").input_value()
    assert edit.startswith(base_url + "/s/") and view.startswith(base_url + "/s/") and edit != view
    # a copy button everywhere; the share sheet only where the platform has one (not here)
    expect(host.locator("#edit-share button[data-copy]")).to_be_visible()
    assert host.evaluate("Boolean(navigator.share)") == host.locator(
        "#edit-share button[data-share]").is_visible()
    # the QR codes are the page's own SVG (no image from anywhere), and read back as the links
    assert host.locator("#edit-share-qr svg").count() == 1
    assert host.evaluate("[...document.images].filter(i => i.closest('.qr-code')).length") == 0
    scanned = read_qr(host.locator("#edit-share-qr svg").screenshot())
    assert scanned == edit
    assert read_qr(host.locator("#view-share-qr svg").screenshot()) == view
    guest.goto(scanned)                                   # the second phone opens what it scanned
    expect(table(guest, "各局")).to_be_visible()
    assert guest.locator("#agreed").count() == 1          # the edit link: it can add hands
    guest.context.grant_permissions(["clipboard-read", "clipboard-write"])
    guest.locator("#share-table summary").click()
    guest.locator("#edit-share button[data-copy]").click()
    expect(guest.locator("#edit-share .copied")).to_have_text("已複製")
    assert guest.evaluate("navigator.clipboard.readText()") == scanned


def test_an_agreed_hand_in_four_taps_by_name_and_corrected_in_place_in_three(browser, base_url):
    host, guest = _phone(browser, base_url), _phone(browser, base_url)
    _share(host, "zh-Hant")
    guest.goto(host.locator("#edit-share-address").input_value())
    before = host.locator("#live").get_attribute("data-version")
    taps = [host.get_by_text("阿強 (南)", exact=True).first,                     # the winner
            host.locator("#agreed-from").get_by_text("阿明 (東)", exact=True),   # who dealt in
            host.locator("#agreed-fan").get_by_text("5", exact=True)]           # the fan
    for tap in taps:
        tap.tap()
    words = host.locator("#agreed-words").inner_text()
    assert words == "阿強 (南)：阿明出銃，5 番"                  # confirmed in words, no notation
    host.locator("#agreed-confirm").tap()                        # the fourth tap
    expect(host.locator("#live")).not_to_have_attribute("data-version", before or "")
    row = table(host, "各局").locator("tbody tr").nth(1)
    assert "阿強（南）食糊，阿明出銃" in row.inner_text() and "5 番" in row.inner_text()
    # priced by the same engine as a typed fan= line: Hong Kong, 5 fan = base 32 on a discard
    assert cells(host, "各局")[1][-4:] == ["-64", "+128", "-32", "-32"]
    expect(table(guest, "各局").locator("tbody tr")).to_have_count(2, timeout=WATCH_MS)

    # correct hand 2 in place: it was 小玲 who dealt in (open, tap, confirm: three taps)
    before = host.locator("#live").get_attribute("data-version")
    host.get_by_role("link", name="更正第 2 局").tap()
    expect(host.locator("#agreed-heading")).to_have_text("更正第 2 局")
    assert "阿強（南）食糊，阿明出銃" in host.locator("#correcting").inner_text()
    for part in ("#correcting", "#agreed-winner", "#agreed-from"):   # all on the first screen
        box = host.locator(part).bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], part
    host.locator("#agreed-from").get_by_text("小玲 (西)", exact=True).tap()
    host.locator("#agreed-confirm").tap()
    expect(host.locator("#live")).not_to_have_attribute("data-version", before or "")
    assert cells(host, "各局")[1][-4:] == ["-32", "+128", "-64", "-32"]
    assert host.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_half_typed_line_survives_the_sheet_refreshing(browser, base_url):
    host, guest = _phone(browser, base_url), _phone(browser, base_url)
    _share(host, "zh-Hans", "sichuan")
    guest.goto(host.locator("#edit-share-address").input_value())
    guest.locator("#type-hand summary").click()
    guest.locator("#typed-line").fill("hand=123s456s")
    guest.locator("#agreed-winner").get_by_text(re.compile("小玲")).first.tap()   # focus leaves the field
    before = guest.locator("#live").get_attribute("data-version")
    for tap in (host.get_by_text("阿明 (东)", exact=True).first,
                host.locator("#agreed-from").get_by_text("自摸", exact=True),
                host.locator("#agreed-fan").get_by_text("2", exact=True), host.locator("#agreed-confirm")):
        tap.tap()
    expect(guest.locator("#live")).not_to_have_attribute("data-version", before or "", timeout=WATCH_MS)
    assert guest.locator("#typed-line").input_value() == "hand=123s456s"
    assert guest.locator("#agreed-winner input:checked").get_attribute("value") == "W"


def test_the_calculator_and_the_ledger_opened_from_the_sheet_name_the_players(browser, base_url):
    host = _phone(browser, base_url)
    _share(host, "zh-Hant")
    host.locator("#add-hand").tap()
    for name in ("阿明 (東)", "阿強 (南)", "小玲 (西)", "大文 (北)"):   # winner and discarder buttons
        expect(host.locator("#the-hand ~ fieldset, form").get_by_text(name, exact=True).first).to_be_attached()
    host.goto(host.url + "&hand=123m456m789m234p55s&seat=S&discarder=W")
    payments = table(host, "誰付給誰").inner_text()
    assert "阿強 (南)" in payments and "小玲 (西)" in payments     # who pays whom, by name
    sichuan = _phone(browser, base_url)
    _share(sichuan, "zh-Hans", "sichuan")
    sichuan.locator("#add-round").tap()
    missing = sichuan.locator("#step-missing")
    expect(missing).to_have_attribute("open", "")      # a new round opens on the missing suits
    for name, suit in (("阿明 (东)", "筒"), ("阿強 (南)", "万"), ("小玲 (西)", "条"), ("大文 (北)", "筒")):
        missing.get_by_role("group", name=f"{name}家缺").get_by_text(suit, exact=True).tap()   # one tap each
    missing.get_by_role("button").tap()
    expect(sichuan.locator("main")).to_contain_text("阿明 (东)")


# What a player reads on a Chinese page may hold no notation (5s, seat=S, hand=…), no field id
# before an error (round：) and no English word, but these: the exports' formats, the QR code,
# the JSON API's name, the players' own names and what the page draws as typed on purpose
# (the address fields, the "As typed" fold, the ledger's text box, all left out below).
ALLOWED_ENGLISH = {"CSV", "JSON", "API", "QR", "P1", "P2", "P3", "P4"}
NOTATION = re.compile(r"\b[1-9]+[mpsz]\b|\b[a-z]+=[^\s]|\b(?:round|version|base|line|hand|seat|by|discarder|"
                      r"missing|kong|win|concealed|exposed|self-draw|add|remove)\b\s*[:：]?")
LEFT_OUT = ".share-address, details.as-text, textarea, header.site nav.languages, script, style"


def _read_text(page: Page) -> str:
    return page.evaluate("""(skip) => {
      const copy = document.querySelector('main').cloneNode(true);
      copy.querySelectorAll(skip).forEach(e => e.remove());
      document.body.appendChild(copy);
      copy.style.position = 'absolute';
      const text = copy.innerText;
      copy.remove();
      return text;
    }""", LEFT_OUT)


def test_the_notation_check_finds_what_the_issue_saw():
    for seen in ("hand=123m456m by=self-draw seat=S", "kong S concealed 5s", "1m 有 5 張", "round：", "南家暗杠 5s"):
        assert NOTATION.search(seen), seen
    assert not NOTATION.search("南家暗杠 五条，阿明（东）自摸 4 番")


def _words_only(page: Page, where: str) -> None:
    text = _read_text(page)
    notation = NOTATION.findall(text)
    english = sorted(set(re.findall(r"[A-Za-z][A-Za-z-]+", text)) - ALLOWED_ENGLISH - set(re.findall(r"[A-Za-z]+", NAMES)))
    assert notation == [] and english == [], (where, notation, english)


@pytest.mark.parametrize(("lang", "rules"), [("zh-Hant", "hong-kong"), ("zh-Hans", "sichuan")])
def test_the_sheet_and_the_ledger_speak_words_not_notation_in_chinese(browser, base_url, lang, rules):
    page = _phone(browser, base_url)
    _share(page, lang, rules)
    _words_only(page, "the shared sheet")
    # a hand from the calculator waits to be confirmed: its words and tiles, not its line
    add = page.locator("#add-hand").get_attribute("href")
    page.goto(add + "&hand=123s456s789s55s&melds=ckong:9999p&by=self-draw&seat=W")
    page.locator("#sheet-add").tap()
    expect(page.locator("#pending-words")).to_be_visible()
    assert page.locator("#pending-words .face-down").count() == 2   # the concealed kong, face down
    _words_only(page, "the confirm box")
    page.context.set_offline(True)        # the hand waits on the phone, in the offline list
    page.locator("#confirm").tap()
    expect(page.locator("#pending-list li")).to_have_count(1)
    assert page.locator("#pending-list li").inner_text().strip() in _read_text(page)   # read below
    _words_only(page, "the offline list")
    page.context.set_offline(False)       # and is sent when the network is back
    expect(table(page, "各局" if lang == "zh-Hant" else "各局").locator("tbody tr")).to_have_count(2)
    _words_only(page, "the sheet with two hands")
    # a refused agreed hand: the reason beside the form, in words
    page.locator("#agreed-winner label").first.tap()
    page.locator("#agreed-confirm").tap()
    expect(page.locator("#agreed .error").first).to_be_visible()
    _words_only(page, "a refusal")
    if rules == "sichuan":   # the round ledger of a blood battle, from the sheet
        page.goto(page.locator("#add-round").get_attribute("href"))
        round_text = "missing E=p S=m W=s N=p\nkong S concealed 5m\nwin E self-draw hand=123s456s789s234s99s"
        page.goto(page.url + "&" + urlencode({"round": round_text}))
        expect(page.locator("table.events")).to_be_visible()
        expect(page.locator("table.events")).to_contain_text("南家暗杠 五万")
        _words_only(page, "the round ledger")


# A column header of a money table is one line on a phone: 付款者 never stands a character a line.
HEADER_LINES = """() => [...document.querySelectorAll('main table thead th')]
    .filter(th => th.checkVisibility() && !th.querySelector('.visually-hidden'))
    .map(th => { const range = document.createRange(); range.selectNodeContents(th);
                 return [th.innerText.trim(), new Set([...range.getClientRects()].map(r => Math.round(r.top))).size]; })"""


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("address", [
    "/?rules=hong-kong&hand=123m456m789m234p55s&discarder=N&lang=zh-Hant",
    "/sheet?" + urlencode({"rules": "hong-kong", "names": NAMES, "lang": "zh-Hant",
                           "hands": "hand=123m456m789m234p55s by=self-draw seat=S"}),
    "/round?" + urlencode({"rules": "sichuan", "lang": "zh-Hans",
                           "round": "missing E=p S=m W=s N=p\nkong S concealed 5m\n"
                                    "win E self-draw hand=123s456s789s234s99s"}),
])
def test_the_money_tables_headers_fit_a_phone(browser, base_url, width, address):
    page = browser.new_page(viewport={"width": width, "height": 800}, base_url=base_url)
    try:
        page.goto(address)
        headers = page.evaluate(HEADER_LINES)
        assert len(headers) >= 3
        wrapped = [(text, lines) for text, lines in headers if len(text) <= 4 and lines > 1]
        assert wrapped == []
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        page.close()
