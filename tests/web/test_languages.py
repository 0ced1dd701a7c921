"""Every page in each language: no English sentence left in a Chinese page, the language kept
by every link and form, and the same numbers, tiles and permalinks in every language."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlencode, urlsplit

import opencc
import pytest

from app.web.common.i18n import SELF_NAMES
from app.web.table.rounds import EXAMPLE as ROUND_EXAMPLE
from tests.apps import shared_app

APP = shared_app()
CHINESE = ("zh-Hant", "zh-Hans")
HAND = "123m456m789m234p55s"
SICHUAN = "111p123p777p789p55p"
NIGHT = "\n".join(["hand=123456789m234p55s by=self-draw",
                   "hand=123456789m234p55s seat=S discarder=N at=2341", "hand=123m"])

# One address per kind of page a reader meets: every route, with results, refusals and errors.
PAGES = {
    "calculator": "/?rules=hong-kong",
    "calculator-sichuan": "/?rules=sichuan",
    "result": f"/?rules=hong-kong&hand={HAND}&discarder=N",
    "result-course": "/?rules=hong-kong-course&hand=123m789m55s&melds=777p,ckong:5555z&by=self-draw"
                     "&flowers=13&events=kong-replacement",
    "result-family": f"/?rules=family&hand={HAND}&by=self-draw",
    "result-sichuan": f"/?rules=sichuan&hand={SICHUAN}&by=self-draw&missing=m&won=N",
    "result-sbr": f"/?rules=sichuan-sbr&hand={SICHUAN}&discarder=E&missing=s",
    "result-liable": "/?rules=hong-kong&hand=55z66z77z123m99s&melds=555z,666z&liable=W&discarder=N",
    "waits": "/?rules=hong-kong&hand=123m456m789m234p5s",
    "errors": "/?rules=hong-kong&hand=123m456x&melds=12m&stake=-1",
    "errors-impossible": "/?rules=hong-kong&hand=123m456m789m234p55s&events=heavenly-hand&by=discard",
    "picker-draft": "/?rules=hong-kong&hand=123m&draft=77m&target=meld",
    "waits-house-rule": "/?rules=hong-kong&hand=1122m3344p5566s7z",
    "picker-melds": "/?rules=hong-kong&hand=123m456m&melds=ckong:5555z,777p&draft=77m&target=meld",
    "result-liable-paid": "/?rules=hong-kong-course&hand=777z123m99s&melds=555z,666z&liable=W&discarder=N",
    "result-capped": f"/?rules=hong-kong&hand={HAND}&by=self-draw&min=1&cap=2",
    "result-below-minimum": f"/?rules=hong-kong&hand={HAND}&by=self-draw&min=8",
    "ticks-capped": "/ticks?rules=hong-kong&ticks=half-flush,dragon-pong&cap=3",
    "ticks": "/ticks?rules=hong-kong-course",
    "ticks-result": "/ticks?rules=hong-kong-course&ticks=half-flush,dragon-pong&n.dragon-pong=2",
    "ticks-sichuan": "/ticks?rules=sichuan&ticks=all-triplets",
    "embed": "/embed?rules=hong-kong-course",
    "embed-result": f"/embed?rules=hong-kong-course&hand={HAND}&by=self-draw&seat=S",
    "card": f"/card?rules=hong-kong&hand={HAND}&by=self-draw&seat=S",
    "card-sichuan": f"/card?rules=sichuan&hand={SICHUAN}&by=self-draw&theme=dark",
    "card-error": "/card?rules=hong-kong&hand=123m9z",
    "discard": "/discard?rules=hong-kong",
    "discard-result": "/discard?rules=hong-kong&hand=123m456m789m234p5s9z",
    "discard-sichuan": "/discard?rules=sichuan&hand=123m456m789m234p5s9p&missing=s",
    "embed-discard": "/embed/discard?rules=hong-kong&hand=123m456m789m234p5s9z",
    "discard-ready": "/discard?rules=hong-kong&hand=123m456m789m234p5s7z&seen=7z",
    "practice-discard": "/practice/discard?rules=hong-kong&seed=42&n=1",
    "practice-discard-verdict": "/practice/discard?rules=sichuan&seed=42&n=1&score=1/2&discard=8m",
    "practice-discard-error": "/practice/discard?rules=hong-kong&seed=a.b&n=0",
    "practice-discard-question": "/practice/discard?rules=hong-kong&hand=1113678m67778p4s6z&seat=N"
                                 "&round=E&discard=6z",
    "practice-discard-question-error": "/practice/discard?rules=sichuan&hand=123m456p789s11z22z"
                                       "&draws=99",
    "outlook": "/discard?rules=hong-kong&hand=123m456m789m23p5s67z&outlook=1&draws=8",
    "outlook-self-draw-only": "/discard?rules=hong-kong&hand=123m456m789p234s5s9s&outlook=1&min=4",
    "embed-outlook": "/embed/discard?rules=hong-kong&hand=123m456m789m23p5s67z&outlook=1",
    "practice-discard-not-held": "/practice/discard?rules=hong-kong&seed=42&n=1&score=1/2&discard=6z",
    "points": "/points?rules=hong-kong&fan=5",
    "points-below": "/points?rules=hong-kong&fan=1&min=3&cap=10&stake=2&by=self-draw",
    "points-error": "/points?rules=hong-kong&fan=1.5",
    "embed-points": "/embed/points?rules=hong-kong-course&fan=3",
    "practice": "/practice?rules=hong-kong&seed=42&n=1",
    "practice-answer": "/practice?rules=hong-kong&seed=42&n=1&answer=1&fan=4&ticks=half-flush,self-draw"
                       "&pay.E=-16&pay.S=x",
    "practice-sichuan": "/practice?rules=sichuan&seed=42&n=1&score=2/3&answer=1&fan=5",
    "practice-error": "/practice?rules=hong-kong&seed=a.b&n=0",
    "quiz": "/embed/practice?" + urlencode([("rules", "hong-kong"), ("hands", HAND),
                                            ("hands", "111m222p333s444z55z"), ("ask", "breakdown")]),
    "quiz-answer": "/practice?" + urlencode([("rules", "hong-kong"), ("hands", HAND),
                                             ("hands", "111m222p333s444z55z"), ("n", "2"),
                                             ("answer", "1"), ("fan", "3")]),
    "quiz-error": "/practice?" + urlencode([("rules", "hong-kong"), ("hands", "#1")]),
    "round": "/round",
    "round-ledger": "/round?" + urlencode({"rules": "sichuan", "round": ROUND_EXAMPLE}),
    "round-step": "/round?" + urlencode({"rules": "sichuan", "round": ROUND_EXAMPLE, "step": "win",
                                         "hand": "123s456s7s", "target": "meld", "draft": "99s"}),
    "round-error": "/round?" + urlencode({"rules": "sichuan", "round": "win N self-draw hand=1m"}),
    "round-line-error": "/round?" + urlencode({"rules": "sichuan", "round": 'missing E=p\nwin E "'}),
    "round-for-sheet": "/round?" + urlencode({"rules": "sichuan", "round": ROUND_EXAMPLE, "sheet": "rules=sichuan",
                                              "entry": "1"}),
    "sheet": "/sheet",
    "sheet-round": "/sheet?" + urlencode({"rules": "sichuan", "names": "阿明,阿芳,阿強,阿珍",
                                          "hands": "ledger / missing E=p / win E self-draw hand=123s456s789s234s55s"
                                                   "\nhand=123m"}),
    "sheet-night": "/sheet?" + urlencode({"rules": "hong-kong", "names": "Ann,Bob,Cy,Di",
                                          "hands": NIGHT}),
    "rules": "/rules/",
    **{f"ruleset-{rid}": f"/rules/{rid}" for rid in sorted(APP.extensions["rulesets"])},
    "not-found": "/nope",
}
API = {
    "score": f"/api/score?rules=hong-kong&hand={HAND}&discarder=N",
    "score-error": "/api/score?rules=hong-kong&hand=123m456x&melds=12m",
    "waits": "/api/waits?rules=hong-kong&hand=123m456m789m234p5s",
    "discard": "/api/discard?rules=hong-kong&hand=123m456m789m234p5s9z",
    "discard-error": "/api/discard?rules=hong-kong&hand=123m",
    "discard-ready": "/api/discard?rules=hong-kong&hand=123m456m789m234p5s7z&seen=7z",
    "discard-sichuan": "/api/discard?rules=sichuan&hand=123m456m789m234p5s9p&missing=s",
    "discard-seen-error": "/api/discard?rules=hong-kong&hand=123m456m789m234p5s7z&seen=7777z",
    "waits-house-rule": "/api/waits?rules=hong-kong&hand=1122m3344p5566s7z",
    "not-found": "/api/nope",
}
# Words a Chinese page may show in Latin letters: notation, the names of formats and of
# the English page in the language switch. Tile notation (123m, 5z) and seat letters are
# single letters after digits, so the word pattern below never sees them.
# and names kept as their owners write them: a preset named after its source (SBR), an author.
ALLOWED = {"English", "JSON", "API", "CSV", "oEmbed", "SVG", "HTTP", "GET", "POST", "URL",
           "SBR", "Amy", "Lo", "HKOS"}
WORD = re.compile(r"[A-Za-z]{2,}")
NOTATION_TAGS = {"code", "kbd", "samp", "textarea", "script", "style", "pre"}
SHOWN_ATTRIBUTES = {"title", "aria-label", "alt", "placeholder", "aria-description"}


class _Reader(HTMLParser):
    """The words a reader sees (text and spoken labels), the links and forms of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self.links: list[str] = []
        self.forms: list[dict] = []
        self.tiles: list[str] = []
        self.switch: list[str] = []
        self.numbers: list[str] = []
        self._skip = 0
        self._cell = False
        self.lang = ""

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "html":
            self.lang = found.get("lang", "")
        if tag in NOTATION_TAGS:
            self._skip += 1
        for name in SHOWN_ATTRIBUTES & found.keys():
            self.words.append(found[name] or "")
        if tag == "input" and found.get("type") in ("submit", "button", "reset"):
            self.words.append(found.get("value") or "")
        if tag == "a" and found.get("href") and not found.get("hreflang"):
            self.links.append(found["href"])
        if tag == "a" and found.get("hreflang"):   # the language switch
            self.switch.append(found["hreflang"])
        if tag == "form":
            self.forms.append({"method": (found.get("method") or "get").lower(),
                               "action": found.get("action", ""), "lang": None})
        if tag == "input" and found.get("name") == "lang" and self.forms:
            self.forms[-1]["lang"] = found.get("value")
        if tag == "use" and (found.get("href") or "").startswith("/static/"):
            self.tiles.append(found["href"].rsplit("#", 1)[-1])
        if tag == "img" and "/tiles/" in (found.get("src") or ""):
            self.tiles.append(found["src"].rsplit("#", 1)[-1])
        if tag == "td":
            self._cell = True

    def handle_endtag(self, tag):
        if tag in NOTATION_TAGS and self._skip:
            self._skip -= 1
        if tag == "td":
            self._cell = False

    def handle_data(self, data):
        if not self._skip:
            self.words.append(data)
        if self._cell and re.fullmatch(r"[\s+\-−$]*\d[\d.,/]*\s*", data):
            self.numbers.append(re.sub(r"[\s,]", "", data).replace("−", "-"))


def _read(url: str, lang: str):
    joiner = "&" if "?" in url else "?"
    response = APP.test_client().get(f"{url}{joiner}lang={lang}")
    reader = _Reader()
    reader.feed(response.get_data(as_text=True))
    return response, reader


def _english(texts: list[str], url: str = "") -> list[str]:
    """English words shown, but for the allowed ones and what the reader typed (the names of
    the players in the address, say)."""
    typed = {w for _, value in parse_qsl(urlsplit(url).query) for w in WORD.findall(value)}
    words = [w for text in texts for w in WORD.findall(text)]
    return sorted({w for w in words if w not in ALLOWED and w not in typed})


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("name", PAGES)
def test_a_chinese_page_shows_no_english_word(name, lang):
    response, page = _read(PAGES[name], lang)
    assert response.status_code in (200, 400, 404), response.status_code
    english = _english(page.words, PAGES[name])
    assert not english, f"{PAGES[name]} in {lang} shows English: {english[:40]}"


# The practice and discard pages name their tiles in Chinese (打七筒, 碰 九筒, 三四五萬), never by
# code (7p); a code is left only where a player types notation: the hand's, the melds' and the
# seen tiles' fields, the help after them and their errors (which quote what was typed).
TILE_CODE = re.compile(r"(?<![A-Za-z0-9])[0-9]+[mpsz](?![A-Za-z])")
NOTATION_FIELDS = ("hand", "melds", "seen")
TILE_PAGES = [name for name in PAGES if name.startswith(("discard", "embed-discard", "outlook",
                                                        "embed-outlook", "practice", "quiz"))]


class _SaidTiles(HTMLParser):
    """The words a reader sees (text and spoken labels), less the notation typed on purpose."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self._skipping: list[list] = []   # [tag, depth] of the element being left out
        self._typed_into = ""             # the text field just passed, until its field ends

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if self._skipping:
            self._skipping[-1][1] += tag == self._skipping[-1][0]
            return
        if tag in ("input", "textarea"):
            self._typed_into = found.get("name") or ""
        notation = self._typed_into in NOTATION_FIELDS
        if (tag in NOTATION_TAGS or found.get("id") in {f"{n}-error" for n in NOTATION_FIELDS}
                or (tag == "small" and "hint" in (found.get("class") or "") and notation)):
            self._skipping.append([tag, 1])
            return
        self.words += [found[name] or "" for name in SHOWN_ATTRIBUTES & found.keys()]

    def handle_endtag(self, tag):
        if self._skipping and tag == self._skipping[-1][0]:
            self._skipping[-1][1] -= 1
            if not self._skipping[-1][1]:
                self._skipping.pop()
        elif tag == "div" and not self._skipping:
            self._typed_into = ""

    def handle_data(self, data):
        if not self._skipping:
            self.words.append(data)


def test_the_tile_check_finds_codes_and_leaves_typed_notation():
    reader = _SaidTiles()
    reader.feed('<p>應打 7p</p><button aria-label="碰 999p"></button><div class="field"><input name="hand">'
                '<small class="hint">例如 123m</small><ul id="hand-error"><li>「9z」不是牌</li></ul></div>'
                '<small class="hint">5s</small>')
    assert [w for w in reader.words if TILE_CODE.search(w)] == ["應打 7p", "碰 999p", "5s"]


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("name", TILE_PAGES)
def test_a_chinese_practice_or_discard_page_names_its_tiles(name, lang):
    response = APP.test_client().get(f"{PAGES[name]}&lang={lang}")
    reader = _SaidTiles()
    reader.feed(response.get_data(as_text=True))
    codes = [" ".join(w.split()) for w in reader.words if TILE_CODE.search(w)]
    assert not codes, f"{PAGES[name]} in {lang} names tiles by code: {codes[:10]}"


SWITCH_NAMES = "".join(SELF_NAMES.values())   # each language named in itself, on every page
VARIANTS = {"zh-Hant": set("台么吃")}          # forms Traditional writing uses too
HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def converters():
    return {"zh-Hans": opencc.OpenCC("t2s"), "zh-Hant": opencc.OpenCC("s2t")}


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("name", PAGES)
def test_a_chinese_page_keeps_to_its_script(name, lang, converters):
    """Simplified pages show no Traditional character, Traditional pages no Simplified one
    (the language switch and what the reader typed aside)."""
    _, page = _read(PAGES[name], lang)
    typed = "".join(value for _, value in parse_qsl(urlsplit(PAGES[name]).query))
    shown = set(HAN.findall("".join(page.words))) - set(SWITCH_NAMES) - set(typed)
    convert = converters[lang]
    if lang == "zh-Hans":
        wrong = {c for c in shown if convert.convert(c) != c}
    else:   # a character the s2t table turns into another that turns back: a Simplified form
        back = converters["zh-Hans"]
        wrong = {c for c in shown if convert.convert(c) != c and back.convert(convert.convert(c)) == c}
        wrong -= VARIANTS[lang]
    assert not wrong, f"{PAGES[name]} in {lang} mixes scripts: {sorted(wrong)}"


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("name", PAGES)
def test_a_page_says_its_language_and_keeps_it_in_every_link_and_form(name, lang):
    response, page = _read(PAGES[name], lang)
    assert page.lang == lang and response.headers["Content-Language"] == lang
    assert page.switch == ["en", "zh-Hant", "zh-Hans"], "every page offers the three languages"
    for link in page.links:
        parts = urlsplit(link)
        if parts.netloc or not parts.path.startswith("/") or parts.path.startswith("/static/"):
            continue
        langs = [v for k, v in parse_qsl(parts.query) if k == "lang"]
        assert langs == [lang], f"{link} loses the language"
    for form in page.forms:
        if form["method"] == "get":
            assert form["lang"] == lang, f"a form to {form['action']!r} loses the language"


@pytest.mark.parametrize("name", [n for n in PAGES if n != "not-found"])
def test_numbers_tiles_and_permalinks_are_the_same_in_every_language(name):
    seen = {}
    for lang in ("en", *CHINESE):
        _, page = _read(PAGES[name], lang)
        links = [_without_lang(link) for link in page.links if link.startswith("/")]
        seen[lang] = (page.tiles, page.numbers, links)
    assert seen["zh-Hant"] == seen["en"] and seen["zh-Hans"] == seen["en"]


def _without_lang(link: str) -> str:
    parts = urlsplit(link)
    return parts.path + "?" + urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != "lang"])


def _strings(value) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def _shape(value):
    """The JSON answer with every sentence blanked: what must not change with the language."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return "…" if isinstance(value, str) and re.search(r"[A-Za-z]{2,}.* |[\u4e00-\u9fff]", value) \
        else value


MESSAGE_KEYS = ("message", "reason", "why", "name", "explain", "note", "title", "summary")


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("name", API)
def test_the_api_says_its_messages_in_the_language_asked(name, lang):
    client = APP.test_client()
    url = API[name]
    english = client.get(url).get_json()
    answer = client.get(f"{url}&lang={lang}" if "?" in url else f"{url}?lang={lang}")
    assert answer.headers["Content-Language"] == lang
    said = answer.get_json()
    assert _shape(said) == _shape(english)
    # a `name=value` token is notation, as the hand's own description writes it (`win=5s`)
    sentences = [s for s in _strings(said) if " " in s and WORD.search(NOTATION.sub("", s))]
    assert not sentences, f"{url} in {lang} says in English: {sentences[:5]}"


NOTATION = re.compile(r"\b[a-z]+=\S+")
