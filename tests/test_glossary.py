"""The glossary (app/translations/GLOSSARY.md): no catalog message and no ruleset text of a
script uses a word its "never use" column names."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po

from app.web.common.i18n import TRANSLATIONS

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = TRANSLATIONS / "GLOSSARY.md"
SCRIPTS = {"zh_Hant": "zh_hant", "zh_Hans": "zh_hans"}   # catalog folder → ruleset key


def never_used(locale: str) -> dict[str, str]:
    """The words the glossary's table for one script says never to use, each with its concept."""
    sections = re.split(r"^## ", GLOSSARY.read_text("utf-8"), flags=re.M)
    section = next(s for s in sections if s.startswith(("繁體", "简体")[locale == "zh_Hans"]))
    words: dict[str, str] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("concept", "---"):
            words.update({w: cells[0] for w in cells[2].split("、") if w})
    return words


def _catalog_texts(locale: str):
    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        for message in read_po(handle, locale=locale):
            if message.id:
                strings = [message.string] if isinstance(message.string, str) else message.string
                yield from ((message.id, s) for s in strings)


def _ruleset_texts(key: str, value, path: str = ""):
    """Every text of a ruleset in one script: `zh_hant:` values, names and the family's words."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key and isinstance(v, str):
                yield path, v
            elif k == key and isinstance(v, dict):   # words: {zh_hant: {win: 食糊 …}}
                yield from ((f"{path}.{k}.{w}", t) for w, t in v.items() if isinstance(t, str))
            else:
                yield from _ruleset_texts(key, v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _ruleset_texts(key, item, f"{path}[{i}]")


@pytest.mark.parametrize("locale", SCRIPTS)
def test_the_glossary_names_words_never_to_use_for_each_script(locale):
    assert len(never_used(locale)) >= 15


@pytest.mark.parametrize("locale", SCRIPTS)
def test_no_catalog_message_uses_a_word_the_glossary_rules_out(locale):
    words = never_used(locale)
    found = [(word, msgid, text) for msgid, text in _catalog_texts(locale)
             for word in words if word in text]
    assert not found, f"{locale}: {found[:5]}"


@pytest.mark.parametrize("locale", SCRIPTS)
@pytest.mark.parametrize("path", sorted((ROOT / "rulesets").glob("*.yaml")), ids=lambda p: p.name)
def test_no_ruleset_text_uses_a_word_the_glossary_rules_out(locale, path):
    words = never_used(locale)
    data = yaml.safe_load(path.read_text("utf-8"))
    found = [(word, where, text[:60]) for where, text in _ruleset_texts(SCRIPTS[locale], data)
             for word in words if word in text]
    assert not found, f"{path.name} in {locale}: {found[:5]}"


# --- the rendered pages: each family's pages in each script -------------------------------------
#
# The catalogs and rulesets above are checked word by word; what a reader meets is the page,
# where a family's words are filled into shared sentences and templates add their own text. So
# every kind of page is rendered for every family in both scripts, and its visible text checked
# for the KINDS of mistake the reviews found, derived from the data rather than listed string by
# string:
# - another family's words (its `words:` values that this family does not use);
# - a word the glossary's "only on the pages of" table keeps to families with a property
#   (定缺 where the ruleset has a missing suit, 胡 where its win word is 胡牌 …);
# - a minimum of 0 fan stated as a minimum (a ruleset whose `min` is 0 has none);
# - an engine id (a detector's name) or a field id before a colon: the page's own language only.

from html.parser import HTMLParser  # noqa: E402

from app.rules.detectors import DETECTORS  # noqa: E402
from app.rules.model import FAMILY_WORDS  # noqa: E402

LANGS = {"zh_Hant": "zh-Hant", "zh_Hans": "zh-Hans"}
HANDS = {   # per family: (a ready 13-tile hand, a 14-tile hand to discard from, its extra query)
    True: ("123m456m789m234p5p", "123m456m789m234p5p9s", "&missing=s"),      # a missing suit
    False: ("123m456m789m234p5s", "123m456m789m234p5s7z", ""),
}
PAGE_KINDS = {
    "calculator-waits": "/?rules={r}&hand={ready}",
    "calculator-result": "/?rules={r}&hand={ready}&by=self-draw&win={win}",
    "discard": "/discard?rules={r}&hand={fourteen}{extra}",
    "outlook": "/discard?rules={r}&hand={fourteen}{extra}&outlook=1&draws=4",
    "practice": "/practice?rules={r}&seed=42&n=1",
    "practice-discard": "/practice/discard?rules={r}&seed=42&n=1",
    "practice-discard-answer": "/practice/discard?rules={r}&hand={fourteen}{extra}&discard={last}",
    "points": "/points?rules={r}&fan=5",
    "ticks": "/ticks?rules={r}",
    "rules": "/rules/{r}",
    "house": "/house?base={r}",
    "card": "/card?rules={r}&hand={ready}&win={win}&by=self-draw",
    "embed-result": "/embed?rules={r}&hand={ready}&win={win}",
    "sheet": "/sheet?rules={r}&names=A,B,C,D&hands=hand%3D{whole}+seat%3DS+discarder%3DN%0Ahand%3D{whole}"
             "+by%3Dself-draw%0Ahand%3D123m",
}
ROUND = "/round?rules={r}"   # the round ledger: the rulesets that settle a round (blood battle)
ATTRIBUTES_READ = ("title", "aria-label", "alt")   # read aloud or shown on hover


class _Visible(HTMLParser):
    """A page's visible text, one piece per text node or read attribute; scripts left out.
    The offline list's labels (data-label on the sheet's forms) count as visible text."""

    def __init__(self):
        super().__init__()
        self.pieces: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        self.pieces += [v for k, v in attrs if v and k in (*ATTRIBUTES_READ, "data-label")]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.pieces.append(data)


def visible(page: str) -> list[str]:
    parser = _Visible()
    parser.feed(page)
    return parser.pieces


def only_on_pages_of(locale: str) -> list[tuple[list[str], str]]:
    """The glossary's "only on the pages of" table for one script: (words, condition)."""
    section = GLOSSARY.read_text("utf-8").split("## Only on the pages of", 1)[1]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1] == ("繁", "简")[locale == "zh_Hans"]:
            rows.append(([w for w in cells[0].split("、") if w], cells[2].strip("`")))
    return rows


def holds(ruleset, condition: str, lang: str) -> bool:
    """A condition of the table: `missing_suit`, or `win ∋ 胡` (the family's word has it)."""
    if condition == "missing_suit":
        return ruleset.missing_suit
    key, _, char = condition.partition(" ∋ ")
    return char in getattr(ruleset.words_in(lang), key)


def foreign_words(ruleset, rulesets, lang: str) -> set[str]:
    """Other families' words (FAMILY_WORDS) this family does not use: 食糊 on a Sichuan page,
    點炮 on a Hong Kong one. One-character words (上, 吃) are too common to look for alone."""
    own = [getattr(ruleset.words_in(lang), key) for key in FAMILY_WORDS]
    return {word for other in rulesets.values() for key in FAMILY_WORDS
            if len(word := getattr(other.words_in(lang), key)) > 1
            and not any(word in mine for mine in own)}


def _stored_sheet(client, rid: str, whole: str, lang: str) -> str:
    """A shared sheet of this family with a discard win, as its edit page shows it."""
    hands = f"hand={whole} seat=S discarder=N\nhand={whole} by=self-draw"
    r = client.post("/sheet/share", data={"rules": rid, "names": "A,B,C,D", "hands": hands})
    return client.get(r.headers["Location"] + "?lang=" + lang).get_data(as_text=True)


def rendered(client, ruleset, lang: str) -> dict[str, str]:
    ready, fourteen, extra = HANDS[ruleset.missing_suit]
    win = ready[-2:]
    fields = dict(r=ruleset.id, ready=ready, fourteen=fourteen, extra=extra, win=win,
                  whole=ready + win, last=fourteen[-2:])
    kinds = {**PAGE_KINDS, **({"round": ROUND} if ruleset.settlement else {})}
    pages = {kind: client.get(url.format(**fields) + "&lang=" + lang).get_data(as_text=True)
             for kind, url in kinds.items()}
    pages["stored-sheet"] = _stored_sheet(client, ruleset.id, ready + win, lang)
    return pages


@pytest.fixture(scope="module")
def pages(app):
    client = app.test_client()
    rulesets = app.extensions["rulesets"]
    return {(rid, locale): rendered(client, ruleset, lang)
            for rid, ruleset in sorted(rulesets.items()) for locale, lang in LANGS.items()}


def test_the_pages_read_are_answers_not_refusals(pages):
    """The hands of HANDS are valid for their families: each discard page weighs its discards and
    each outlook page shows its figures (a refused hand would hide the sentences checked)."""
    for (rid, locale), kinds in pages.items():
        assert 'class="order"' in kinds["discard"], (rid, locale)
        assert 'id="outlook-heading"' in kinds["outlook"], (rid, locale)
        assert kinds["sheet"].count('class="who"') == 2, (rid, locale, "sheet")   # two wins, one error
        assert kinds["stored-sheet"].count('class="who"') == 2, (rid, locale, "stored sheet")


def _found(pages, rid, locale, words) -> list[tuple[str, str, str]]:
    return [(kind, word, piece.strip()[:80]) for kind, page in pages[rid, locale].items()
            for piece in visible(page) for word in words if word in piece]


@pytest.mark.parametrize("locale", SCRIPTS)
def test_the_glossary_keeps_some_words_to_some_families(locale):
    assert {c for _, c in only_on_pages_of(locale)} >= {"missing_suit", "win ∋ 胡"}


RIDS = ("family", "hong-kong", "hong-kong-course", "sichuan", "sichuan-sbr")
# The families whose minimum is 0 fan: their pages must not state "a minimum of 0 fan".
NO_MINIMUM = tuple(rid for rid in RIDS
                   if yaml.safe_load((ROOT / "rulesets" / f"{rid}.yaml").read_text("utf-8"))
                   .get("dials", {}).get("min") == 0)


@pytest.mark.parametrize("locale", SCRIPTS)
@pytest.mark.parametrize("rid", RIDS)
def test_no_page_uses_another_familys_words_or_a_never_used_word(app, pages, rid, locale):
    rulesets = app.extensions["rulesets"]
    words = foreign_words(rulesets[rid], rulesets, LANGS[locale]) | set(never_used(locale))
    found = _found(pages, rid, locale, words)
    assert not found, f"{rid} in {locale}: {found[:6]}"


@pytest.mark.parametrize("locale", SCRIPTS)
@pytest.mark.parametrize("rid", RIDS)
def test_a_familys_own_rule_shows_only_on_its_pages(app, pages, rid, locale):
    ruleset = app.extensions["rulesets"][rid]
    words = {w for ws, condition in only_on_pages_of(locale)
             if not holds(ruleset, condition, LANGS[locale]) for w in ws}
    found = _found(pages, rid, locale, words)
    assert not found, f"{rid} in {locale}: {found[:6]}"


@pytest.mark.parametrize("locale", SCRIPTS)
@pytest.mark.parametrize("rid", NO_MINIMUM)
def test_no_page_states_a_minimum_of_0_fan(app, pages, rid, locale):
    ruleset = app.extensions["rulesets"][rid]
    assert ruleset.dials.min == 0
    minimum = ruleset.words_in(LANGS[locale]).minimum
    zero = re.compile(rf"(?<![\d.])0 ?番{minimum}|最低的? ?0 ?番|(?<![\d.])0 ?番起")
    found = [(kind, piece.strip()[:80]) for kind, page in pages[rid, locale].items()
             for piece in visible(page) if zero.search(piece)]
    assert not found, f"{rid} in {locale}: {found[:6]}"


FIELD_BEFORE_COLON = re.compile(r"(?<![\w.=])([a-z][a-z_.]*)\s*[:：]")


@pytest.mark.parametrize("locale", SCRIPTS)
@pytest.mark.parametrize("rid", RIDS)
def test_no_engine_id_or_field_id_shows_on_a_chinese_page(pages, rid, locale):
    """No detector's name anywhere in the visible text, and no form field's name (`base`,
    `house`, `new.detect` …, every `name=` of the page's forms) standing before a colon as an
    error's label, nor a bare action value (`remove`) as a label of the offline list."""
    found = []
    for kind, page in pages[rid, locale].items():
        fields = set(re.findall(r'\bname="([^"]+)"', page)) | {"house", "base", "version", "action"}
        actions = set(re.findall(r'name="action" value="([^"]+)"', page))
        for piece in visible(page):
            found += [(kind, d) for d in DETECTORS if re.search(rf"\b{d}\b", piece)]
            found += [(kind, f, piece.strip()[:60]) for f in FIELD_BEFORE_COLON.findall(piece)
                      if f in fields]
            found += [(kind, piece.strip()) for a in actions if piece.strip() == a]
    assert not found, f"{rid} in {locale}: {found[:6]}"


@pytest.mark.parametrize("locale", SCRIPTS)
def test_every_change_a_shared_sheet_queues_offline_has_a_label_in_the_pages_language(pages, locale):
    """The offline list (static/app.js) shows each queued change by its form's data-label."""
    page = pages["hong-kong", locale]["stored-sheet"]
    forms = re.findall(r'<form method="post"[^>]*>', page)
    changes = [f for f in forms if "/change" in f]
    assert changes and all(re.search(r'data-label="[^"]*[\u3400-\u9fff]', f) for f in changes), changes


CJK = r"[\u3400-\u9fff]"
PUNCTUATION = {
    "a half-width colon after Chinese": re.compile(rf"{CJK}\s*:(?!//)"),
    "a space before full-width punctuation": re.compile(rf"(?<=[\w{CJK[1:-1]}）」])[ \u00a0]+[，。：；）」、]"),
    "a space after full-width punctuation": re.compile(r"[（「：，；、][ \u00a0]+"),
    "a number against 番": re.compile(r"\d番"),
    "repr quotes inside Chinese quotes": re.compile(r"「'|'」"),
}


@pytest.mark.parametrize("locale", SCRIPTS)
@pytest.mark.parametrize("rid", RIDS)
def test_chinese_pages_use_full_width_punctuation_and_space_numbers_one_way(pages, rid, locale):
    """Full-width colons, no stray space beside full-width punctuation, and 「3 番」 (a space
    between a number and 番, as the catalogs write it) on every page of every family."""
    found = [(kind, what, piece.strip()[:70]) for kind, page in pages[rid, locale].items()
             for piece in visible(page) for what, pattern in PUNCTUATION.items()
             if pattern.search(piece)]
    assert not found, f"{rid} in {locale}: {len(found)} {found[:8]}"
