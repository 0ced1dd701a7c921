"""Points only and practice: the fan → payment widget and the Count the Fan game.

`/points` (and `/embed/points`, or `?embed=1`) prices a fan total someone has already
counted — seed 001's closing widget — beside the conversion table of the chosen curve and
payment convention. `/practice` deals hand n of a seeded series (app/practice/dealer.py), takes the
player's count and marks it against the breakdown (app/practice/answers.py). Both are GET forms:
every state is a link, the running score included; no cookie, no session.
"""
from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from urllib.parse import urlencode

from flask import Blueprint, current_app, redirect, request
from wtforms import Form, StringField

from app import vocabulary
from app.base.errors import HandError
from app.base.i18n import Msg, Text
from app.hands.hand import SEATS, Hand, WinBy
from app.hands.tiles import TILES, Tile
from app.practice.answers import Verdict, check_answer
from app.practice.dealer import LEVELS, Deal
from app.rules.detectors import PER_ITEM_DETECTORS
from app.rules.model import Category, Curve, Pattern, PaymentRule, Ruleset, exact
from app.scoring.calculation import Calculation
from app.scoring.conversion import FAN_LIMIT, Row, conversion_table, table_rows
from app.scoring.report import explain_points
from app.scoring.selection import Settings, default_settings, inactive, value
from app.vocabulary.hand import message_of
from app.vocabulary.practice import deal
from app.vocabulary.quiz import ASKS, REVEALS, quiz_hand, read_lines, split_lines
from app.vocabulary.request import read_settings
from app.vocabulary.sheet import DIAL_KEYS
from app.web.common.forms import DialsMixin, attach_errors, seat_labels, set_choices, shown_name
from app.web.common.i18n import page_lang, with_lang
from app.web.common.present import form_data, page_params, page_words, permalink, render_page

bp = Blueprint("practice", __name__)

DEFAULT_FAN = 5            # seed 001's widget opens at 5 fan
POINTS_FIELDS = ("rules", "fan", "min", "cap", "curve", "payment", "stake", "by", "seat",
                 "discarder")
LEVEL_NAMES = {"plain": Msg("Plain: chows and pongs"),
               "patterns": Msg("Patterns: flushes, pongs, honours, pairs, flowers"),
               "limit": Msg("Limit hands")}
MAX_HAND = 1000            # hands in a series
SEED = re.compile(r"[A-Za-z0-9_-]{1,40}")
SCORE = re.compile(r"([0-9]{1,4})/([0-9]{1,4})")
AMOUNT = re.compile(r"[+\-−]?[0-9]{1,9}(?:[./][0-9]{1,9})?")
SUIT_NAMES = {"m": "Characters", "p": "Dots", "s": "Bamboo"}


def _rulesets():
    return current_app.extensions["rulesets"]


def _sorted_rulesets():
    return sorted(_rulesets().values(), key=lambda r: r.id)


# --- fan → payment ---------------------------------------------------------------------


class PointsForm(DialsMixin, Form):
    """The widget's dials: the fan total, the table's rules, who won and how."""

    fan = StringField("Fan in the winning hand")


@bp.get("/points")
def points():
    return _points(embed=False)


@bp.get("/embed/points")
def points_embed():
    return _points(embed=True)


@dataclass(frozen=True, slots=True)
class PointsPage:
    """What points.html shows: the widget's form, the priced win and the conversion table."""

    form: PointsForm
    ruleset: Ruleset
    calc: Calculation | None
    loose: list[str]
    embed: bool
    rows: tuple[Row, ...]
    settings: Settings
    fan: int
    slider_max: int
    fan_max: int
    current: int | None
    curve: Curve
    convention: PaymentRule
    arithmetic: str
    permalink: str
    embed_link: str

    @property
    def shown_rows(self) -> tuple[Row, ...]:
        """The conversion table's rows shown: all of them on the page; in the embed (a frame
        WordPress caps at 1000 px) the WINDOW rows around the fan asked, the page having the rest."""
        if not self.embed or len(self.rows) <= WINDOW:
            return self.rows
        at = next((i for i, row in enumerate(self.rows) if row.fan == self.current), 0)
        start = max(0, min(at - WINDOW // 2, len(self.rows) - WINDOW))
        return self.rows[start:start + WINDOW]

    @property
    def who_summary(self) -> str:
        """What the folded "Who won, and how" says of itself: the choices ticked."""
        form = self.form
        return " · ".join(sub.label.text for f in (form.by, form.seat, form.discarder)
                          for sub in f if sub.checked)

    @property
    def whole_table_link(self) -> str:
        """The page (not the embed) of these dials, at its conversion table."""
        return (self.permalink or f"/points?rules={self.ruleset.id}") + "#conversion"


# rows of the conversion table the embed shows, the fan asked in the middle
WINDOW = 5


def _points(embed: bool):
    params = page_params()
    asked = points_asked(params)
    ruleset = _ruleset_or_default(params.get("rules"))
    form = PointsForm(form_data(asked))
    set_choices(form, ruleset, _sorted_rulesets())
    fan = _fan_total(asked["fan"])
    calc, loose = _priced(form, asked, fan)
    page = points_page(form, ruleset, asked, fan, calc, loose, embed or params.get("embed") == "1")
    return render_page("points.html", page)


def points_asked(params: Mapping[str, str]) -> dict[str, str]:
    """The widget's fields the address gives (5 fan when it gives none)."""
    asked = {k: params[k] for k in POINTS_FIELDS if params.get(k, "").strip()}
    asked.setdefault("fan", str(DEFAULT_FAN))
    if asked.get("by", "").strip().lower() in ("self-draw", "self", "selfdraw", "tsumo"):
        asked.pop("discarder", None)   # nobody discards a self-drawn tile
    return asked


def _ruleset_or_default(rid: str | None):
    """The ruleset the address names, or the default one when it names none we have."""
    rulesets = _rulesets()
    return rulesets.get(rid or current_app.config["DEFAULT_RULES"]) or rulesets[
        current_app.config["DEFAULT_RULES"]]


def _priced(form: Form, asked: dict[str, str], fan: int | None
            ) -> tuple[Calculation | None, list[str]]:
    """The fan total priced, or None and the errors that belong to no field."""
    try:
        if fan is None:
            raise HandError.single("fan", Msg("'{fan}' is not a whole number of fan from 0 to"
                                              " {most}", fan=asked["fan"][:20], most=FAN_LIMIT))
        return vocabulary.score(asked, _rulesets()), []
    except HandError as err:
        return None, attach_errors(form, err.errors)


def points_page(form: PointsForm, ruleset, asked: dict[str, str], fan: int | None,
                calc: Calculation | None, loose: list[str], embed: bool) -> PointsPage:
    """The page of one fan total: the payments when it prices, and the conversion table."""
    try:
        settings = read_settings(asked, ruleset)
    except HandError:
        settings = default_settings(ruleset)
    top = table_rows(ruleset, settings, fan or 0)
    shown_fan = fan if fan is not None else DEFAULT_FAN
    linked = {**asked, "rules": ruleset.id}
    return PointsPage(
        form=form, ruleset=ruleset, calc=calc, loose=loose, embed=embed,
        rows=conversion_table(ruleset, settings, top, calc.table.winner if calc else "E"),
        settings=settings, fan=shown_fan, slider_max=top,
        fan_max=max(top, min(shown_fan, FAN_LIMIT)),
        current=calc.score.capped_fan if calc else None,
        curve=ruleset.curves[settings.curve], convention=ruleset.payments[settings.payment],
        arithmetic=explain_points(calc) if calc else "",
        permalink=permalink(linked, "/points") if calc else "",
        embed_link=permalink(linked, "/embed/points") if calc else "")


def _fan_total(text: str) -> int | None:
    text = text.strip()
    if re.fullmatch(r"[0-9]{1,3}", text) and int(text) <= FAN_LIMIT:
        return int(text)
    return None


# --- Count the Fan -----------------------------------------------------------------------


@bp.get("/practice")
def practice():
    return _practice(embed=False)


@bp.get("/embed/practice")
def practice_embed():
    return _practice(embed=True)


@dataclass(frozen=True, slots=True)
class Quiz:
    """A teacher's quiz as the address gives it: the question, when to reveal, the hands."""

    ask: str
    asks: Mapping[str, Msg]
    reveal: str
    count: int
    lines: list[str]


@dataclass(frozen=True, slots=True)
class PracticePage:
    """What practice.html shows: the series (or quiz), the hand dealt, the player's count
    marked, and where to go next. A page of problems has no deal."""

    problems: list[str]
    ruleset: Ruleset
    level: str
    seed: str
    n: int
    embed: bool
    rulesets: list[Ruleset] = field(default_factory=list)
    levels: Mapping[str, Msg] = field(default_factory=lambda: LEVEL_NAMES)
    quiz: Quiz | None = None
    dealt: Deal | None = None
    calc: Calculation | None = None
    hand: Hand | None = None
    concealed: list[Tile] = field(default_factory=list)
    context: list[tuple[str, str]] = field(default_factory=list)
    answer: dict | None = None   # as _read_answer reads it
    verdict: Verdict | None = None
    right: bool | None = None
    record: tuple[int, int] = (0, 0)
    after: tuple[int, int] = (0, 0)
    tickable: list[tuple[Category, list[Pattern]]] = field(default_factory=list)
    per_item: Mapping[str, int] = field(default_factory=lambda: PER_ITEM_DETECTORS)
    seats: tuple[str, ...] = SEATS
    seat_names: Mapping[str, str] = field(default_factory=dict)
    arithmetic: str = ""
    carry: list[tuple[str, str]] = field(default_factory=list)   # a quiz's hidden fields
    next_link: str = ""
    skip_link: str = ""
    again_link: str = ""
    new_link: str = ""
    first_link: str = ""
    calculator_link: str = ""


def _practice(embed: bool):
    params = page_params()
    embed = embed or params.get("embed") == "1"
    if "hands" in request.args:
        return _quiz(params, request.args.getlist("hands"), embed)
    ruleset, level, seed, problems = _series_asked(params)
    if not seed and not problems:   # a new series: give it a seed, so the link replays it
        return new_series(_link(ruleset.id, level, secrets.token_hex(4), 1, "", embed))
    n = series_number(params, seed, problems)
    if problems:
        return _problems_page(problems, ruleset or _ruleset_or_default(None),
                              level if level in LEVELS else "patterns", "", 1, embed)
    try:
        dealt = deal(ruleset, seed, n, level)
    except RuntimeError as err:   # no theme fitted in the tries allowed: never seen, but say so
        return _problems_page([try_another(err)], ruleset, level, seed, n, embed)
    record = read_record(params.get("score", ""))
    answer = _read_answer(params, ruleset, dealt.calculation.score.settings) \
        if "answer" in params else None
    verdict = _checked(dealt.calculation, answer)
    after = _scored(record, verdict.correct if verdict is not None else None)
    more = n < MAX_HAND

    def link(to: int, score: tuple[int, int], on: bool = True) -> str:
        return _link(ruleset.id, level, seed, to, score_text(score), embed) if on else ""
    return render_page("practice.html", _dealt_page(
        dealt, level=level, seed=seed, n=n, embed=embed, answer=answer, verdict=verdict,
        record=record, after=after, next_link=link(n + 1, after, more),
        skip_link=link(n + 1, record, more), again_link=link(n, record),
        new_link=_link(ruleset.id, level, "", 0, "", embed),
        calculator_link=permalink(dict(dealt.params), "/")))


def _series_asked(params: Mapping[str, str]) -> tuple[Ruleset | None, str, str, list[str]]:
    """The series the address asks for: its ruleset, level and seed, and what is wrong."""
    rulesets = _rulesets()
    rid = params.get("rules") or current_app.config["DEFAULT_RULES"]
    level = params.get("level") or "patterns"
    problems: list[str] = []
    if rid not in rulesets:
        problems.append(unknown_ruleset(rid, rulesets))
    if level not in LEVELS:
        problems.append(Msg("unknown level {level}; choose one of {levels}",
                            level=repr(level[:20]), levels=", ".join(LEVELS)))
    return rulesets.get(rid), level, params.get("seed", "").strip(), problems


def _problems_page(problems: list, ruleset, level: str, seed: str, n: int, embed: bool,
                   quiz: Quiz | None = None):
    """The page that says why no hand is dealt (status 400)."""
    page = PracticePage(problems=problems, ruleset=ruleset, rulesets=_sorted_rulesets(),
                        level=level, seed=seed, n=n, embed=embed, quiz=quiz)
    return render_page("practice.html", page), 400


def _checked(calc: Calculation, answer: dict | None):
    """The player's count marked, when they gave a readable one."""
    if answer is None or answer["errors"]:
        return None
    return check_answer(calc, answer["fan"], answer["items"], answer["payments"])


def _scored(record: tuple[int, int], right: bool | None) -> tuple[int, int]:
    """The running score after this hand (as it was when nothing was marked)."""
    return record if right is None else (record[0] + int(right), record[1] + 1)


def _dealt_page(dealt: Deal, **shown) -> PracticePage:
    """The page of one hand dealt: the hand, its context, what may be ticked."""
    ruleset, calc = dealt.ruleset, dealt.calculation
    hand = calc.hand
    concealed = list(hand.concealed)
    concealed.remove(hand.win)
    return PracticePage(
        problems=[], ruleset=ruleset, rulesets=_sorted_rulesets(), dealt=dealt, calc=calc,
        hand=hand, concealed=concealed, context=_context(dealt),
        tickable=_tickable(ruleset, calc.score.settings),
        seat_names=seat_labels(page_words(ruleset)), arithmetic=explain_points(calc), **shown)


# --- a teacher's quiz: exactly the hands given, in order ---------------------------------


def _quiz(params: dict[str, str], given: list[str], embed: bool):
    """`/practice?hands=…`: hand n of the teacher's series, asking `ask`, revealing `reveal`."""
    rid = params.get("rules") or current_app.config["DEFAULT_RULES"]
    ruleset = _rulesets().get(rid)
    lines = split_lines(given)
    quiz = Quiz(ask=params.get("ask", "").strip() or "fan", asks=ASKS,
                reveal=params.get("reveal", "").strip() or "after", count=len(lines),
                lines=lines)
    problems = _quiz_problems(rid, quiz)
    number = params.get("n", "1").strip() or "1"
    n = int(number) if re.fullmatch(r"[0-9]{1,4}", number) else 0
    hands, calc = _quiz_hand(ruleset, quiz, params, number, n, problems)
    if problems:
        return _problems_page(problems, ruleset or _ruleset_or_default(None), "patterns", "", 1,
                              embed, quiz)
    dials = {k: params[k] for k in DIAL_KEYS if params.get(k)}
    record = read_record(params.get("score", ""))
    answer = _quiz_answer(params, ruleset, calc, quiz.ask) if "answer" in params else None
    verdict = _checked(calc, answer)
    right = quiz_right(verdict, quiz.ask) if verdict is not None else None
    after = _scored(record, right)
    described = {**dials, **hands[n - 1], "rules": ruleset.id}   # the hand as the calculator reads it

    def link(to: int, score: tuple[int, int], on: bool = True) -> str:
        return _quiz_link(ruleset.id, lines, quiz.ask, quiz.reveal, dials, to, score_text(score),
                          embed) if on else ""
    more = n < len(lines)
    return render_page("practice.html", _dealt_page(
        Deal(ruleset, "", n, "", described, (), calc), quiz=quiz, right=right, level="",
        seed="", n=n, embed=embed, answer=answer, verdict=verdict, record=record, after=after,
        carry=_quiz_carry(ruleset.id, quiz, dials, n, record, embed),
        next_link=link(n + 1, after, more), skip_link=link(n + 1, record, more),
        again_link=link(n, record), new_link=link(1, (0, 0)), first_link=link(1, (0, 0)),
        calculator_link=permalink(described, "/")))


def _quiz_problems(rid: str, quiz: Quiz) -> list[str]:
    """What is wrong with the quiz's ruleset, question and reveal."""
    rulesets = _rulesets()
    problems: list[str] = []
    if rid not in rulesets:
        problems.append(unknown_ruleset(rid, rulesets))
    if quiz.ask not in ASKS:
        problems.append(Msg("{ask} is not a question; ask one of {asks}",
                            ask=f"ask={quiz.ask[:20]!r}", asks=", ".join(ASKS)))
    if quiz.reveal not in REVEALS:
        problems.append(Msg("{reveal}: reveal the answers after each hand or never",
                            reveal=f"reveal={quiz.reveal[:20]!r}"))
    return problems


def _quiz_hand(ruleset, quiz: Quiz, params: Mapping[str, str], number: str, n: int,
               problems: list[str]) -> tuple[list, Calculation | None]:
    """The quiz's hands and hand n scored; None when it cannot be (each problem said)."""
    if problems:
        return [], None
    try:
        hands = read_lines(quiz.lines)
        if not 1 <= n <= len(hands):
            problems.append(Msg("hand {n} is not a hand of this quiz: give n from 1 to {most}",
                                n=repr(number[:10]), most=len(hands)))
            return hands, None
        return hands, quiz_hand(ruleset, hands[n - 1], params, n)
    except HandError as err:
        problems += [e.message for e in err.errors]
        return [], None


def _quiz_carry(rid: str, quiz: Quiz, dials: dict[str, str], n: int, record: tuple[int, int],
                embed: bool) -> list[tuple[str, str]]:
    """The answer form's hidden fields: the quiz, this hand, the running score."""
    return ([("rules", rid), *[("hands", line) for line in quiz.lines], ("ask", quiz.ask),
             ("reveal", quiz.reveal), *dials.items(), ("n", str(n))]
            + ([("score", score_text(record))] if record[1] else [])
            + ([("embed", "1")] if embed else []))


def quiz_right(verdict, ask: str) -> bool:
    """Whether the learner gave what the quiz asked: the total, every item, or every payment."""
    if ask == "breakdown":
        return verdict.items_right is True
    if ask == "payments":
        return all(p.right for p in verdict.payments)
    return verdict.fan_right


def _quiz_answer(params: dict[str, str], ruleset, calc, ask: str) -> dict:
    """The learner's answer, read as Count the Fan reads it; only what was asked is needed."""
    answer = _read_answer(params, ruleset, calc.score.settings)
    errors = answer["errors"]
    if ask == "breakdown" and not answer["items"]:
        errors["ticks"] = Msg("tick every item that counts in this hand")
    if ask != "fan" and errors.get("fan", "").startswith("type the fan"):
        errors.pop("fan")
    if ask == "payments":
        blank = [s for s in SEATS if s not in answer["payments"]
                 and not errors.get(f"pay.{s}")]
        for seat in blank:
            errors[f"pay.{seat}"] = Msg("give what this seat gains (or pays: a plain number)")
    return answer


def _quiz_link(rid: str, lines: list[str], ask: str, reveal: str, dials: dict[str, str], n: int,
               score: str, embed: bool) -> str:
    """A quiz address: the teacher's hands and questions, the hand, the running score."""
    items = [("rules", rid), *[("hands", line) for line in lines], ("ask", ask),
             ("reveal", reveal), *dials.items(), ("n", str(n))]
    if score:
        items.append(("score", score))
    return with_lang(("/embed/practice?" if embed else "/practice?") + urlencode(items, safe="/,"))


def _link(rid: str, level: str, seed: str, n: int, score: str, embed: bool) -> str:
    """A practice address: the series (rules, level, seed), the hand, the running score."""
    items = [("rules", rid), ("level", level)]
    if seed:
        items += [("seed", seed), ("n", str(n))]
    if score:
        items.append(("score", score))
    if embed:
        items.append(("embed", "1"))
    return with_lang("/practice?" + urlencode(items, safe="/"))


def series_number(params: Mapping[str, str], seed: str, problems: list[str]) -> int:
    """The hand `n` of a series link (1 when not given; 0 when unreadable), the seed checked:
    each problem said in `problems`."""
    if not SEED.fullmatch(seed):
        problems.append(not_a_seed(seed))
    number = params.get("n", "1").strip() or "1"
    n = int(number) if re.fullmatch(r"[0-9]{1,4}", number) else 0
    if not 1 <= n <= MAX_HAND:
        problems.append(not_in_series(number, MAX_HAND))
    return n


def read_record(text: str) -> tuple[int, int]:
    """The running score from the link: right answers / hands answered (0/0 if unreadable)."""
    match = SCORE.fullmatch(text.strip())
    if not match or int(match[1]) > int(match[2]):
        return 0, 0
    return int(match[1]), int(match[2])


def score_text(record: tuple[int, int]) -> str:
    return f"{record[0]}/{record[1]}" if record[1] else ""


def _read_answer(params: dict[str, str], ruleset, settings) -> dict:
    """The player's count: total fan, the items ticked (with counts), what each seat gains."""
    errors: dict[str, str] = {}
    raw_fan = params.get("fan", "").strip()
    fan = _read_fan(raw_fan, errors)
    items = _read_ticks(params, ruleset)
    payments = _read_payments(params, errors)
    if fan is None and "fan" not in errors:
        if items:   # only ticks: their plain sum
            fan = sum(value(ruleset.by_id[pid], times, settings) for pid, times in items.items())
        else:
            errors["fan"] = Msg("type the fan you count (or tick the items you counted)")
    return {"fan": fan, "fan_text": raw_fan, "items": items, "payments": payments,
            "errors": errors, "pay_text": {s: params.get(f"pay.{s}", "") for s in SEATS}}


def _read_fan(text: str, errors: dict[str, str]) -> int | None:
    """The total fan typed, None when blank (or unreadable: said in `errors`)."""
    if text and not re.fullmatch(r"[0-9]{1,4}", text):
        errors["fan"] = Msg("'{fan}' is not a whole number of fan", fan=text[:20])
    return int(text) if text and "fan" not in errors else None


def _read_ticks(params: Mapping[str, str], ruleset) -> dict[str, int]:
    """The items ticked, each with its count (`ticks=dragon-pong*2`, or `n.dragon-pong=2`)."""
    items: dict[str, int] = {}
    for token in [t for t in re.split(r"[,\s]+", params.get("ticks", "")) if t][:64]:
        pid, _, times = token.partition("*")
        if pid in ruleset.by_id:
            items[pid] = items.get(pid, 0) + (int(times) if re.fullmatch(r"[0-9]", times) else 1)
    for key, text in params.items():
        if key.startswith("n.") and key[2:] in items and re.fullmatch(r"[0-9]", text.strip()):
            items[key[2:]] = int(text.strip())
    return items


def _read_payments(params: Mapping[str, str], errors: dict[str, str]) -> dict:
    """What the player says each seat gains; an unreadable amount is said in `errors`."""
    payments = {}
    for seat in SEATS:
        text = params.get(f"pay.{seat}", "").strip()
        if not text:
            continue
        if not AMOUNT.fullmatch(text):
            errors[f"pay.{seat}"] = Msg("'{amount}' is not an amount; write e.g. 16, -8 or 0.5",
                                        amount=text[:20])
            continue
        try:
            payments[seat] = exact(Fraction(text.replace("−", "-")))
        except (ValueError, ZeroDivisionError):
            errors[f"pay.{seat}"] = Msg("'{amount}' is not an amount", amount=text[:20])
    return payments


def _tickable(ruleset, settings):
    """The patterns a player may tick: those in play under the deal's house rules."""
    off = inactive(ruleset, settings.options)
    return [(cat, [p for p in ruleset.patterns if p.category == cat.id and p.id not in off
                   and not p.tick_only])
            for cat in ruleset.categories]


def _context(dealt) -> list[tuple[str, str]]:
    """The win context in words: (what, how) lines."""
    ruleset, calc = dealt.ruleset, dealt.calculation
    ctx, words = calc.hand.context, page_words(ruleset)
    seat = seat_labels(words).__getitem__
    lines = [(Msg("Seat"), Msg("{seat} — the dealer", seat=seat(ctx.seat)) if ctx.seat == "E"
              else seat(ctx.seat)),
             (Msg("Round"), seat(ctx.round)), _won_by(ctx, words, calc, seat)]
    for event in sorted(ctx.events):
        spec = ruleset.events.get(event)
        lines.append((Msg("How"), shown_name(spec.name).strip() if spec else event))
    if ctx.missing:
        lines.append((Msg("Missing suit 定缺"), Msg("{suit} — the hand holds none",
                                                   suit=suit_here(ctx.missing, words))))
    return lines + [(Msg("House rule on"), shown_name(_option_name(ruleset, option)).strip())
                    for option in sorted(calc.score.settings.options)]


def _won_by(ctx, words, calc: Calculation, seat) -> tuple[str, str]:
    """How the hand was won, in words: self-drawn, or on whose discard."""
    if ctx.by is WinBy.SELF_DRAW:
        return (Msg("Won by"), Msg("self-draw {word}: the winning tile came from the wall",
                                   word=words.self_draw))
    return (Msg("Won by"), Msg("a discard {word} from {seat}", word=words.discard,
                               seat=seat(calc.table.discarder)))


def _option_name(ruleset, option: str) -> Text:
    """A house rule's name: an optional pattern's, or a switch's."""
    pattern = ruleset.by_id.get(option)
    return pattern.name if pattern else next(s.name for s in ruleset.switches if s.id == option)


def suit_here(suit: str, words) -> str:
    """A suit as a page names it: `Characters 萬` in English, `萬子` in Chinese."""
    if page_lang() != "en":
        return f"{words.suits[suit]}子"
    return f"{SUIT_NAMES[suit]} {words.suits[suit]}"


def unknown_ruleset(rid: str, rulesets) -> Msg:
    return Msg("unknown ruleset {rules}; choose one of {ids}", rules=repr(rid[:40]),
               ids=", ".join(sorted(rulesets)))


def not_a_seed(seed: str) -> Msg:
    return Msg("the seed {seed} is not a series name: use up to 40 letters, digits, - or _",
               seed=repr(seed[:40]))


def not_in_series(number: str, most: int) -> Msg:
    return Msg("hand {n} is not a hand of the series: give n from 1 to {most}",
               n=repr(number[:10]), most=most)


def try_another(err: Exception) -> Msg:
    """A series that dealt no hand (never seen in the tests, but said)."""
    return Msg("{problem}; try another series", problem=message_of(err))


def bonus_tiles(hand) -> list:
    """The flowers and seasons held, as tiles."""
    ctx = hand.context
    return [TILES[33 + f] for f in ctx.flowers] + [TILES[37 + s] for s in ctx.seasons]


bp.add_app_template_global(bonus_tiles, "bonus_tiles")
bp.add_app_template_global(suit_here, "suit_here")
bp.add_app_template_global(
    lambda s, ruleset=None: seat_labels(page_words(ruleset)).get(s, s), "seat_name")

__all__ = ["bp"]


def new_series(link: str):
    """A redirect to a new random series: a cache must never keep it (a new series each time)."""
    response = redirect(with_lang(link))
    response.headers["Cache-Control"] = "no-store"
    return response
