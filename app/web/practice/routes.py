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
from fractions import Fraction
from urllib.parse import urlencode

from flask import Blueprint, current_app, redirect, render_template, request
from wtforms import Form, StringField

from app import vocabulary
from app.base.errors import HandError
from app.base.i18n import Msg
from app.hands.hand import SEATS, WinBy
from app.hands.tiles import TILES
from app.practice.answers import check_answer
from app.practice.dealer import LEVELS, Deal
from app.rules.detectors import PER_ITEM_DETECTORS
from app.rules.model import exact
from app.scoring.conversion import FAN_LIMIT, conversion_table, table_rows
from app.scoring.payments import next_seat
from app.scoring.report import explain_points
from app.scoring.selection import default_settings, inactive, value
from app.vocabulary.hand import message_of
from app.vocabulary.practice import deal
from app.vocabulary.quiz import ASKS, REVEALS, quiz_hand, read_lines, split_lines
from app.vocabulary.request import read_settings
from app.vocabulary.sheet import DIAL_KEYS
from app.web.common.forms import DialsMixin, attach_errors, seat_labels, set_choices, shown_name
from app.web.common.i18n import page_lang, with_lang
from app.web.common.present import form_data, page_params, page_words, permalink

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


def _points(embed: bool):
    params = page_params()
    embed = embed or params.get("embed") == "1"
    rulesets = _rulesets()
    ruleset = rulesets.get(params.get("rules") or current_app.config["DEFAULT_RULES"])
    fallback = ruleset or rulesets[current_app.config["DEFAULT_RULES"]]
    asked = {k: params[k] for k in POINTS_FIELDS if params.get(k, "").strip()}
    asked.setdefault("fan", str(DEFAULT_FAN))
    if asked.get("by", "").strip().lower() in ("self-draw", "self", "selfdraw", "tsumo"):
        asked.pop("discarder", None)   # nobody discards a self-drawn tile
    form = PointsForm(form_data(asked))
    set_choices(form, fallback, _sorted_rulesets())
    calc, loose = None, []
    fan = _fan_total(asked["fan"])
    try:
        if fan is None:
            raise HandError.single("fan", Msg("'{fan}' is not a whole number of fan from 0 to"
                                              " {most}", fan=asked["fan"][:20], most=FAN_LIMIT))
        calc = vocabulary.score(asked, rulesets)
    except HandError as err:
        loose = attach_errors(form, err.errors)
    try:
        settings = read_settings(asked, fallback)
    except HandError:
        settings = default_settings(fallback)
    top = table_rows(fallback, settings, fan or 0)
    seat = calc.table.winner if calc else "E"
    rows = conversion_table(fallback, settings, top, seat)
    shown_fan = fan if fan is not None else DEFAULT_FAN
    return render_template(
        "points.html", form=form, ruleset=fallback, calc=calc, loose=loose, embed=embed,
        rows=rows, settings=settings, fan=shown_fan, slider_max=top,
        fan_max=max(top, min(shown_fan, FAN_LIMIT)),
        current=calc.score.capped_fan if calc else None,
        curve=fallback.curves[settings.curve], convention=fallback.payments[settings.payment],
        arithmetic=explain_points(calc) if calc else "",
        discarder=calc.table.discarder if calc else next_seat("E"),
        permalink=permalink({**asked, "rules": fallback.id}, "/points") if calc else "",
        embed_link=permalink({**asked, "rules": fallback.id}, "/embed/points") if calc else "")


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


def _practice(embed: bool):
    params = page_params()
    embed = embed or params.get("embed") == "1"
    if "hands" in request.args:
        return _quiz(params, request.args.getlist("hands"), embed)
    rulesets = _rulesets()
    default = current_app.config["DEFAULT_RULES"]
    rid = params.get("rules") or default
    level = params.get("level") or "patterns"
    problems: list[str] = []
    ruleset = rulesets.get(rid)
    if ruleset is None:
        problems.append(unknown_ruleset(rid, rulesets))
    if level not in LEVELS:
        problems.append(Msg("unknown level {level}; choose one of {levels}",
                            level=repr(level[:20]), levels=", ".join(LEVELS)))
    seed = params.get("seed", "").strip()
    if not seed and not problems:   # a new series: give it a seed, so the link replays it
        return new_series(_link(ruleset.id, level, secrets.token_hex(4), 1, "", embed))
    n = series_number(params, seed, problems)
    if problems:
        ruleset = ruleset or rulesets[default]
        return render_template("practice.html", problems=problems, ruleset=ruleset,
                               rulesets=_sorted_rulesets(), levels=LEVEL_NAMES,
                               level=level if level in LEVELS else "patterns", seed="", n=1,
                               embed=embed, dealt=None), 400
    record = read_record(params.get("score", ""))
    try:
        dealt = deal(ruleset, seed, n, level)
    except RuntimeError as err:   # no theme fitted in the tries allowed: never seen, but say so
        return render_template("practice.html", problems=[try_another(err)],
                               ruleset=ruleset, rulesets=_sorted_rulesets(), levels=LEVEL_NAMES,
                               level=level, seed=seed, n=n, embed=embed, dealt=None), 400
    calc = dealt.calculation
    answer = _read_answer(params, ruleset, calc.score.settings) if "answer" in params else None
    verdict = None
    if answer is not None and not answer["errors"]:
        verdict = check_answer(calc, answer["fan"], answer["items"], answer["payments"])
    after = record
    if verdict is not None:
        after = (record[0] + int(verdict.correct), record[1] + 1)
    hand = calc.hand
    shown = list(hand.concealed)
    shown.remove(hand.win)
    return render_template(
        "practice.html", problems=[], ruleset=ruleset, rulesets=_sorted_rulesets(),
        levels=LEVEL_NAMES, level=level, seed=seed, n=n, embed=embed, dealt=dealt, calc=calc,
        hand=hand, concealed=shown, context=_context(dealt), answer=answer, verdict=verdict,
        record=record, after=after, tickable=_tickable(ruleset, calc.score.settings),
        per_item=PER_ITEM_DETECTORS, seats=SEATS, seat_names=seat_labels(page_words(ruleset)),
        arithmetic=explain_points(calc),
        next_link=_link(ruleset.id, level, seed, n + 1, score_text(after), embed)
        if n < MAX_HAND else "",
        skip_link=_link(ruleset.id, level, seed, n + 1, score_text(record), embed)
        if n < MAX_HAND else "",
        again_link=_link(ruleset.id, level, seed, n, score_text(record), embed),
        new_link=_link(ruleset.id, level, "", 0, "", embed),
        calculator_link=permalink(dict(dealt.params), "/"))


# --- a teacher's quiz: exactly the hands given, in order ---------------------------------


def _quiz(params: dict[str, str], given: list[str], embed: bool):
    """`/practice?hands=…`: hand n of the teacher's series, asking `ask`, revealing `reveal`."""
    rulesets = _rulesets()
    rid = params.get("rules") or current_app.config["DEFAULT_RULES"]
    ruleset = rulesets.get(rid)
    ask = params.get("ask", "").strip() or "fan"
    reveal = params.get("reveal", "").strip() or "after"
    lines = split_lines(given)
    problems: list[str] = []
    if ruleset is None:
        problems.append(unknown_ruleset(rid, rulesets))
    if ask not in ASKS:
        problems.append(Msg("{ask} is not a question; ask one of {asks}",
                            ask=f"ask={ask[:20]!r}", asks=", ".join(ASKS)))
    if reveal not in REVEALS:
        problems.append(Msg("{reveal}: reveal the answers after each hand or never",
                            reveal=f"reveal={reveal[:20]!r}"))
    number = params.get("n", "1").strip() or "1"
    n = int(number) if re.fullmatch(r"[0-9]{1,4}", number) else 0
    calc = None
    if not problems:
        try:
            hands = read_lines(lines)
            if not 1 <= n <= len(hands):
                problems.append(Msg("hand {n} is not a hand of this quiz: give n from 1 to {most}",
                                    n=repr(number[:10]), most=len(hands)))
            else:
                calc = quiz_hand(ruleset, hands[n - 1], params, n)
        except HandError as err:
            problems += [e.message for e in err.errors]
    quiz = {"ask": ask, "asks": ASKS, "reveal": reveal, "count": len(lines), "lines": lines}
    if problems:
        return render_template("practice.html", problems=problems, quiz=quiz,
                               ruleset=ruleset or rulesets[current_app.config["DEFAULT_RULES"]],
                               rulesets=_sorted_rulesets(), levels=LEVEL_NAMES, level="patterns",
                               seed="", n=1, embed=embed, dealt=None), 400
    dials = {k: params[k] for k in DIAL_KEYS if params.get(k)}
    record = read_record(params.get("score", ""))
    answer = (_quiz_answer(params, ruleset, calc, ask) if "answer" in params else None)
    verdict = right = None
    after = record
    if answer is not None and not answer["errors"]:
        verdict = check_answer(calc, answer["fan"], answer["items"], answer["payments"])
        right = quiz_right(verdict, ask)
        after = (record[0] + int(right), record[1] + 1)
    described = {**dials, **hands[n - 1], "rules": ruleset.id}   # the hand as the calculator reads it
    dealt = Deal(ruleset, "", n, "", described, (), calc)

    def link(to: int, score: tuple[int, int]) -> str:
        return _quiz_link(ruleset.id, lines, ask, reveal, dials, to, score_text(score), embed)
    hand = calc.hand
    shown = list(hand.concealed)
    shown.remove(hand.win)
    return render_template(
        "practice.html", problems=[], quiz=quiz, right=right, ruleset=ruleset,
        rulesets=_sorted_rulesets(), levels=LEVEL_NAMES, level="", seed="", n=n, embed=embed,
        dealt=dealt, calc=calc, hand=hand, concealed=shown, context=_context(dealt),
        answer=answer, verdict=verdict, record=record, after=after,
        tickable=_tickable(ruleset, calc.score.settings), per_item=PER_ITEM_DETECTORS,
        seats=SEATS, seat_names=seat_labels(page_words(ruleset)), arithmetic=explain_points(calc),
        carry=[("rules", ruleset.id), *[("hands", line) for line in lines], ("ask", ask),
               ("reveal", reveal), *dials.items(), ("n", str(n))]
        + ([("score", score_text(record))] if record[1] else [])
        + ([("embed", "1")] if embed else []),
        next_link=link(n + 1, after) if n < len(lines) else "",
        skip_link=link(n + 1, record) if n < len(lines) else "",
        again_link=link(n, record), new_link=link(1, (0, 0)), first_link=link(1, (0, 0)),
        calculator_link=permalink(described, "/"))


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
    fan = None
    if raw_fan:
        if re.fullmatch(r"[0-9]{1,4}", raw_fan):
            fan = int(raw_fan)
        else:
            errors["fan"] = Msg("'{fan}' is not a whole number of fan", fan=raw_fan[:20])
    items: dict[str, int] = {}
    for token in [t for t in re.split(r"[,\s]+", params.get("ticks", "")) if t][:64]:
        pid, _, times = token.partition("*")
        if pid in ruleset.by_id:
            items[pid] = items.get(pid, 0) + (int(times) if re.fullmatch(r"[0-9]", times) else 1)
    for key, text in params.items():
        if key.startswith("n.") and key[2:] in items and re.fullmatch(r"[0-9]", text.strip()):
            items[key[2:]] = int(text.strip())
    payments = {}
    for seat in SEATS:
        text = params.get(f"pay.{seat}", "").strip()
        if not text:
            continue
        if AMOUNT.fullmatch(text):
            try:
                payments[seat] = exact(Fraction(text.replace("−", "-")))
            except (ValueError, ZeroDivisionError):
                errors[f"pay.{seat}"] = Msg("'{amount}' is not an amount", amount=text[:20])
        else:
            errors[f"pay.{seat}"] = Msg("'{amount}' is not an amount; write e.g. 16, -8 or 0.5",
                                        amount=text[:20])
    if fan is None and items and "fan" not in errors:   # only ticks: their plain sum
        fan = sum(value(ruleset.by_id[pid], times, settings) for pid, times in items.items())
    if fan is None and "fan" not in errors:
        errors["fan"] = Msg("type the fan you count (or tick the items you counted)")
    return {"fan": fan, "fan_text": raw_fan, "items": items, "payments": payments,
            "errors": errors, "pay_text": {s: params.get(f"pay.{s}", "") for s in SEATS}}


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
             (Msg("Round"), seat(ctx.round))]
    if ctx.by is WinBy.SELF_DRAW:
        lines.append((Msg("Won by"), Msg("self-draw {word}: the winning tile came from the wall",
                                         word=words.self_draw)))
    else:
        lines.append((Msg("Won by"), Msg("a discard {word} from {seat}", word=words.discard,
                                         seat=seat(calc.table.discarder))))
    for event in sorted(ctx.events):
        spec = ruleset.events.get(event)
        lines.append((Msg("How"), shown_name(spec.name).strip() if spec else event))
    if ctx.missing:
        lines.append((Msg("Missing suit 定缺"), Msg("{suit} — the hand holds none",
                                                   suit=suit_here(ctx.missing, words))))
    options = [o for o in calc.score.settings.options]
    for option in sorted(options):
        pattern = ruleset.by_id.get(option)
        name = pattern.name if pattern else next(s.name for s in ruleset.switches if s.id == option)
        lines.append((Msg("House rule on"), shown_name(name).strip()))
    return lines


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
