"""Checking one ruleset file's data against the schema, key by key, into the frozen model.

Every refusal names the file and the key path (`patterns[7].detect: unknown detector
'ful_flush'`); every detector, event and referenced id must exist, every shown text has its
translations, and every cited ruling is one the file states.
"""
from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from typing import Any

from app.base.errors import RulesetError
from app.base.i18n import FIELDS, LANGS, NO_TEXT, SCRIPTS, Name, Text
from app.hands.events import EVENT_RULES, TILE_GROUPS
from app.hands.hand import MeldKind, WinBy

from .detectors import DETECTORS
from .model import (
    CURVE_KINDS,
    DEFAULT_WORDS,
    REFUND_RULES,
    WORD_LABELS,
    Amount,
    Category,
    Conditions,
    Curve,
    Dials,
    EventCondition,
    EventSpec,
    Liability,
    LiabilityCondition,
    Pattern,
    PaymentRule,
    Ruleset,
    Ruling,
    SettlementRules,
    Switch,
    Words,
    WorkedExample,
    cited,
    exact,
)

IDENTIFIER = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")   # an id: lower-case words joined by hyphens


class _Checker:
    """Reads one file's data, naming the file and the key path in every error."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.native = "zh_hant"   # the script English pages show beside English (words.script)

    def fail(self, path: str, message: str) -> RulesetError:
        return RulesetError(f"{self.filename}: {path}: {message}")

    def mapping(self, value: Any, path: str, required: tuple[str, ...], optional: tuple[str, ...]):
        if not isinstance(value, dict):
            raise self.fail(path, f"expected a mapping, found {type(value).__name__}")
        for key in value:
            if key not in required and key not in optional:
                known = ", ".join(required + optional)
                raise self.fail(f"{path}.{key}" if path else str(key), f"unknown key (known: {known})")
        for key in required:
            if key not in value:
                raise self.fail(path or "(top)", f"missing key '{key}'")
        return value

    def typed(self, value: Any, path: str, kind: type | tuple[type, ...], what: str):
        if isinstance(value, bool) and kind in (int, (int, float)):
            raise self.fail(path, f"expected {what}, found {value!r}")
        if not isinstance(value, kind):
            raise self.fail(path, f"expected {what}, found {value!r}")
        return value

    def ident(self, value: Any, path: str) -> str:
        self.typed(value, path, str, "a kebab-case id")
        if not IDENTIFIER.fullmatch(value):
            raise self.fail(path, f"{value!r} is not a kebab-case id")
        return value

    def text(self, data: dict, key: str, path: str, default: str = "") -> str:
        if key not in data:
            return default
        return self.typed(data[key], _join(path, key), str, "text")

    def flag(self, data: dict, key: str, path: str, default: bool = False) -> bool:
        if key not in data:
            return default
        return self.typed(data[key], _join(path, key), bool, "true or false")

    def number(self, value: Any, path: str) -> Amount:
        if isinstance(value, bool):
            raise self.fail(path, f"expected a number, found {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, str) and re.fullmatch(r"\d+/\d+", value):
            if re.fullmatch(r"\d+/0+", value):
                raise self.fail(path, f"{value!r} divides by zero")
            return exact(Fraction(value))
        if isinstance(value, float):
            return exact(Fraction(value).limit_denominator(1000))
        raise self.fail(path, f"expected a number or a fraction like 1/2, found {value!r}")

    def name(self, value: Any, path: str) -> Name:
        text = self.translated(value, path)
        return Name(text.en, text.zh_hant, text.zh_hans, text.native)

    def translated(self, value: Any, path: str) -> Text:
        """A shown text in all three languages: `{en: …, zh_hant: …, zh_hans: …}`."""
        if isinstance(value, str):
            raise self.fail(path, "expected the text in every language: a mapping with "
                                  "en, zh_hant and zh_hans")
        keys = tuple(FIELDS[lang] for lang in LANGS)
        data = self.mapping(value, path, (), keys)
        for key in keys:
            if not data.get(key):
                raise self.fail(f"{path}.{key}", f"{data.get('en', '')!r} has no {_LANGUAGE[key]}"
                                                 " translation" if key != "en" else "missing text")
            self.typed(data[key], f"{path}.{key}", str, "text")
        return Text(data["en"], data["zh_hant"], data["zh_hans"], self.native)

    def shown(self, data: dict, key: str, path: str) -> Text:
        """An optional shown text of an entry, in all three languages."""
        return self.translated(data[key], _join(path, key)) if key in data else NO_TEXT

    def entries(self, value: Any, key: str, what: str, required: tuple[str, ...],
                optional: tuple[str, ...]):
        """Each mapping of a top-level list, with its path: `patterns[3]`."""
        items = self.typed(value, key, list, what)
        seen: dict[str, int] = {}
        for i, item in enumerate(items):
            path = f"{key}[{i}]"
            data = self.mapping(item, path, required, optional)
            ident = data.get("id")
            if isinstance(ident, str):
                if ident in seen:
                    raise self.fail(f"{path}.id", f"duplicate id {ident!r}: {key}[{seen[ident]}]"
                                                  " has it too")
                seen[ident] = i
            yield path, data

    def id_list(self, data: dict, key: str, path: str) -> tuple[str, ...]:
        if key not in data:
            return ()
        items = self.typed(data[key], f"{path}.{key}", list, "a list of ids")
        return tuple(self.ident(item, f"{path}.{key}[{i}]") for i, item in enumerate(items))


_LANGUAGE = {"zh_hant": "Traditional Chinese", "zh_hans": "Simplified Chinese"}


def _join(path: str, key: str) -> str:
    """The path to a key: `patterns[3].explain`, or `summary` at the top."""
    return f"{path}.{key}" if path else key


TOP_REQUIRED = ("name", "dials", "categories", "patterns", "curves", "payments")


TOP_OPTIONAL = ("id", "extends", "source", "summary", "tiles", "shapes", "missing_suit", "ranges",
                "events", "switches", "liability", "examples", "settlement", "conditions",
                "rulings", "words", "never_together")


def build_ruleset(data: Any, filename: str, stem: str) -> Ruleset:
    """Check a file's parsed data and build the frozen Ruleset."""
    c = _Checker(filename)
    top = c.mapping(data, "", TOP_REQUIRED, TOP_OPTIONAL)
    if "extends" in top:
        raise c.fail("extends", "only a ruleset file read by load_ruleset can extend another")
    rid = c.ident(top.get("id", stem), "id")
    if rid != stem:
        raise c.fail("id", f"{rid!r} must equal the file name {stem!r}")

    words, words_zh = _words(c, top.get("words", {}))
    c.native = "zh_hans" if words.script == "simplified" else "zh_hant"
    tiles = c.mapping(top.get("tiles", {}), "tiles", (), ("honours", "flowers"))
    shapes = c.mapping(top.get("shapes", {}), "shapes", (),
                       ("seven_pairs", "seven_pairs_quads", "thirteen_orphans", "claimed_chows"))
    categories = _categories(c, top["categories"])
    category_ids = {cat.id for cat in categories}
    events = _events(c, top.get("events", []))
    curves = _curves(c, top["curves"])
    payments = _payments(c, top["payments"], curves)
    switches = _switches(c, top.get("switches", []))
    patterns = _patterns(c, top["patterns"], category_ids, events)
    by_id = {p.id: p for p in patterns}
    patterns = _resolve_relations(c, patterns, by_id)
    by_id = {p.id: p for p in patterns}
    for i, p in enumerate(patterns):
        if p.id in {s.id for s in switches}:
            raise c.fail(f"patterns[{i}].id", f"{p.id!r} is also a switch id")

    seven_pairs = _shape_setting(c, shapes, "seven_pairs", by_id, True)
    thirteen = _shape_setting(c, shapes, "thirteen_orphans", by_id, True)
    dials, min_range, cap_range, uncapped = _dials(c, top["dials"], top.get("ranges", {}),
                                                   curves, payments)
    liability = _liability(c, top.get("liability", []), by_id)
    for i, switch in enumerate(switches):
        if switch.settlement and "settlement" not in top:
            raise c.fail(f"switches[{i}].settlement", "the file has no settlement section for"
                                                      " the switch to change")
    rulings = _rulings(c, top.get("rulings", []))
    _check_citations(c, top, {r.id for r in rulings})
    return Ruleset(
        id=rid, name=c.name(top["name"], "name"), source=c.shown(top, "source", ""),
        summary=c.shown(top, "summary", ""),
        honours=c.flag(tiles, "honours", "tiles", True), flowers=c.flag(tiles, "flowers", "tiles", True),
        missing_suit=c.flag(top, "missing_suit", "", False),
        seven_pairs=seven_pairs, seven_pairs_quads=c.flag(shapes, "seven_pairs_quads", "shapes"),
        claimed_chows=c.flag(shapes, "claimed_chows", "shapes", True),
        thirteen_orphans=thirteen, dials=dials, min_range=min_range, cap_range=cap_range,
        uncapped=uncapped, categories=categories, patterns=patterns, curves=curves,
        payments=payments, events=events, switches=switches, liability=liability, by_id=by_id,
        packages=tuple(p for p in patterns if p.requires),
        conflicts=_conflicts(patterns),
        never_together=_never_together(c, top.get("never_together", []), by_id),
        examples=_examples(c, top.get("examples", [])),
        settlement=_settlement(c, top["settlement"]) if "settlement" in top else None,
        conditions=_conditions(c, top.get("conditions", {}), events, liability),
        rulings=rulings,
        words=words,
        words_zh=words_zh,
    )


def _words(c: _Checker, value: Any) -> tuple[Words, dict[str, Words]]:
    """The family's words in its own script, and in each script by key (zh_hant, zh_hans)."""
    data = c.mapping(value, "words", (), ("script", *SCRIPTS))
    script = c.text(data, "script", "words", "traditional")
    if script not in ("traditional", "simplified"):
        raise c.fail("words.script", f"expected traditional or simplified, found {script!r}")
    by_script = {key: _script_words(c, data.get(key, {}), f"words.{key}", DEFAULT_WORDS[key])
                 for key in SCRIPTS}
    return by_script["zh_hans" if script == "simplified" else "zh_hant"], by_script


def _script_words(c: _Checker, value: Any, path: str, default: Words) -> Words:
    data = c.mapping(value, path, (), ("discard", "self_draw", "suits", "winds", *WORD_LABELS))
    suits = c.mapping(data.get("suits", dict(default.suits)), f"{path}.suits", ("m", "p", "s"), ())
    winds = c.mapping(data.get("winds", dict(default.winds)), f"{path}.winds",
                      ("E", "S", "W", "N"), ())
    labels = {key: c.text(data, key, path, getattr(default, key)) for key in WORD_LABELS}
    return Words(default.script, c.text(data, "discard", path, default.discard),
                 c.text(data, "self_draw", path, default.self_draw),
                 {k: c.typed(v, f"{path}.suits.{k}", str, "text") for k, v in suits.items()},
                 {k: c.typed(v, f"{path}.winds.{k}", str, "text") for k, v in winds.items()},
                 **labels)


def _rulings(c: _Checker, value: Any) -> tuple[Ruling, ...]:
    items = c.typed(value, "rulings", list, "a list of rulings")
    out: list[Ruling] = []
    seen: set[int] = set()
    for i, item in enumerate(items):
        path = f"rulings[{i}]"
        data = c.mapping(item, path, ("id", "point", "ruling"), ("choices",))
        number = c.typed(data["id"], f"{path}.id", int, "the ruling's number")
        if number in seen:
            raise c.fail(f"{path}.id", f"ruling {number} is listed twice")
        seen.add(number)
        out.append(Ruling(number, c.translated(data["point"], f"{path}.point"),
                          c.translated(data["ruling"], f"{path}.ruling"),
                          c.shown(data, "choices", path)))
    return tuple(out)


SEED_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")


SEED_NUMBER = re.compile(r"\bseeds? 00\d\b", re.IGNORECASE)


SHOWN_TEXT = ("name", "summary", "source", "explain", "note", "title", "why", "point", "ruling",
              "choices")


def _check_citations(c: _Checker, data: Any, known: set[int], path: str = "") -> None:
    """Every text a page shows cites only rulings of the file, and names no seed file."""
    if isinstance(data, dict):
        for key, value in data.items():
            where = _join(path, str(key))
            if key in SHOWN_TEXT and isinstance(value, dict):   # {en, zh_hant, zh_hans}
                for lang, text in value.items():
                    if isinstance(text, str):
                        _check_shown(c, text, known, f"{where}.{lang}")
            elif key in SHOWN_TEXT and isinstance(value, str):
                _check_shown(c, value, known, where)
            else:
                _check_citations(c, value, known, where)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            _check_citations(c, value, known, f"{path}[{i}]")


def _check_shown(c: _Checker, text: str, known: set[int], where: str) -> None:
    for number in cited(text):
        if number not in known:
            raise c.fail(where, f"cites ruling {number}, which is not under rulings")
    if SEED_FILE.search(text):
        raise c.fail(where, "names a seed file; name the lesson by its title")
    if SEED_NUMBER.search(text):
        raise c.fail(where, "names a seed by number; name the lesson by its title")


def _conditions(c: _Checker, value: Any, events: dict[str, EventSpec],
                liability: tuple[Liability, ...]) -> Conditions:
    """The family's own impossible combinations (app/rules/conditions.py applies them)."""
    data = c.mapping(value, "conditions", (), ("won", "events", "liability"))
    raw_events = _keyed(c, data.get("events", {}), "conditions.events", set(events), "event")
    event_conditions = {}
    for eid, entry in raw_events.items():
        path = f"conditions.events.{eid}"
        given = c.mapping(entry, path, (), ("melds", "not_with", "why"))
        melds = None
        if "melds" in given:
            kinds = c.typed(given["melds"], f"{path}.melds", list, "a list of meld kinds")
            for k, kind in enumerate(kinds):
                if kind not in MeldKind.__members__.values():
                    raise c.fail(f"{path}.melds[{k}]", f"unknown meld kind {kind!r} (known:"
                                                       f" {', '.join(MeldKind)})")
            melds = tuple(MeldKind(kind) for kind in kinds)
        not_with = c.id_list(given, "not_with", path)
        for k, other in enumerate(not_with):
            if other not in events or other == eid:
                raise c.fail(f"{path}.not_with[{k}]", f"{other!r} is not another event of this"
                                                      " file's events")
        event_conditions[eid] = EventCondition(melds, not_with, c.shown(given, "why", path))
    rules = {rule.id for rule in liability}
    raw_liability = _keyed(c, data.get("liability", {}), "conditions.liability", rules,
                           "liability rule")
    liability_conditions = {}
    for lid, entry in raw_liability.items():
        path = f"conditions.liability.{lid}"
        given = c.mapping(entry, path, (), ("supplied", "why"))
        supplied = given.get("supplied")
        if supplied is not None and supplied not in TILE_GROUPS:
            raise c.fail(f"{path}.supplied", f"expected one of {', '.join(TILE_GROUPS)},"
                                             f" found {supplied!r}")
        liability_conditions[lid] = LiabilityCondition(supplied, c.shown(given, "why", path))
    return Conditions(c.flag(data, "won", "conditions"), event_conditions, liability_conditions)


def _keyed(c: _Checker, value: Any, path: str, known: set[str], what: str) -> dict:
    """A mapping keyed by ids of this file's own entries (its events, its liability rules)."""
    data = c.typed(value, path, dict, f"a mapping of {what} ids")
    for key in data:
        if key not in known:
            article = "an" if what[0] in "aeiou" else "a"
            raise c.fail(f"{path}.{key}", f"not {article} {what} of this file (its {what}s:"
                                          f" {', '.join(sorted(known)) or 'none'})")
    return data


SETTLEMENT_FLAGS = ("added_kong_needs_drawn_tile", "kong_void_on_cannon",
                    "kong_transfer_on_cannon", "pig_pays_ready_check")


def _settlement(c: _Checker, value: Any) -> SettlementRules:
    return SettlementRules(**_settlement_fields(c, value, "settlement", ("kong_payments",)))


def _settlement_fields(c: _Checker, value: Any, path: str, required: tuple[str, ...]
                       ) -> dict[str, Any]:
    """The settlement rules a mapping gives (all of them in `settlement:`, some in a switch)."""
    optional = tuple(k for k in ("kong_payments", *SETTLEMENT_FLAGS, "flower_pig", "refund")
                     if k not in required)
    data = c.mapping(value, path, required, optional)
    fields: dict[str, Any] = {k: c.flag(data, k, path) for k in SETTLEMENT_FLAGS if k in data}
    if "kong_payments" in data:
        kongs = c.mapping(data["kong_payments"], f"{path}.kong_payments",
                          ("exposed", "concealed", "added"), ())
        fields["kong_payments"] = {k: c.number(v, f"{path}.kong_payments.{k}")
                                   for k, v in kongs.items()}
    if "flower_pig" in data:
        fields["flower_pig"] = c.number(data["flower_pig"], f"{path}.flower_pig")
    if "refund" in data:
        if data["refund"] not in REFUND_RULES:
            raise c.fail(f"{path}.refund", f"expected one of {', '.join(REFUND_RULES)},"
                                           f" found {data['refund']!r}")
        fields["refund"] = data["refund"]
    return fields


def _signed_amount(c: _Checker, value: Any, path: str) -> Amount:
    """A payment as a worked example states it: 16, -8, 0.5 or -1/3."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, (str, float)) and not isinstance(value, bool) and re.fullmatch(
            r"-?\d+(?:\.\d+|/[1-9]\d*)?", str(value)):
        return exact(Fraction(str(value)))
    raise c.fail(path, f"expected an amount such as 16, -8, 0.5 or -1/3, found {value!r}")


def _examples(c: _Checker, value: Any) -> tuple[WorkedExample, ...]:
    out = []
    for path, data in c.entries(value, "examples", "a list of worked examples",
                                ("id", "title", "params"), ("source", "expect")):
        params = c.typed(data["params"], f"{path}.params", dict, "a hand description mapping")
        expect = c.mapping(data.get("expect", {}), f"{path}.expect", (), ("total_fan", "payments"))
        payments = None
        if "payments" in expect:
            raw = c.mapping(expect["payments"], f"{path}.expect.payments", (), ("E", "S", "W", "N"))
            payments = {seat: _signed_amount(c, v, f"{path}.expect.payments.{seat}")
                        for seat, v in raw.items()}
        total = expect.get("total_fan")
        if total is not None:
            c.typed(total, f"{path}.expect.total_fan", int, "a whole number of fan")
        out.append(WorkedExample(c.ident(data["id"], f"{path}.id"),
                                 c.translated(data["title"], f"{path}.title"),
                                 c.shown(data, "source", path),
                                 {str(k): str(v) for k, v in params.items()}, total, payments))
    return tuple(out)


def _conflicts(patterns: tuple[Pattern, ...]) -> dict[str, frozenset[str]]:
    """For each pattern, the patterns that cannot count beside it."""
    def clash(a: Pattern, b: Pattern) -> bool:
        return (b.id in a.excludes or a.id in b.excludes or a.alone or b.alone
                or (a.group is not None and a.group == b.group))
    return {a.id: frozenset(b.id for b in patterns if b is not a and clash(a, b)) for a in patterns}


def _never_together(c: _Checker, value: Any, by_id: dict[str, Pattern]
                    ) -> dict[str, frozenset[str]]:
    """For each pattern, the patterns no one hand holds beside it (`never_together:`).

    Each entry lists groups, a group being one id or a list of them: a pattern of one group
    is never held with a pattern of another group of the same entry.
    """
    apart: dict[str, set[str]] = {}
    for i, entry in enumerate(c.typed(value, "never_together", list, "a list of entries")):
        path = f"never_together[{i}]"
        c.typed(entry, path, list, "a list of groups (an id or a list of ids)")
        if len(entry) < 2:
            raise c.fail(path, "name at least two groups that are never held together")
        groups: list[tuple[str, ...]] = []
        seen: set[str] = set()
        for k, group in enumerate(entry):
            where = f"{path}[{k}]"
            ids = (c.ident(group, where),) if isinstance(group, str) else tuple(
                c.ident(g, f"{where}[{n}]")
                for n, g in enumerate(c.typed(group, where, list, "an id or a list of ids")))
            for n, pid in enumerate(ids):
                at = where if isinstance(group, str) else f"{where}[{n}]"
                if pid not in by_id:
                    raise c.fail(at, f"unknown pattern {pid!r}")
                if pid in seen:
                    raise c.fail(at, f"{pid!r} is named twice in this entry")
                seen.add(pid)
            groups.append(ids)
        for k, group in enumerate(groups):
            for other in groups[k + 1:]:
                for a in group:
                    for b in other:
                        apart.setdefault(a, set()).add(b)
                        apart.setdefault(b, set()).add(a)
    for p in by_id.values():
        for need in p.requires:
            clash = apart.get(need, set()) & set(p.requires)
            if clash:
                raise c.fail("never_together", f"{need!r} and {sorted(clash)[0]!r} are never"
                                               f" held together, yet the package {p.id!r}"
                                               " requires both")
    return {pid: frozenset(others) for pid, others in apart.items()}


def _categories(c: _Checker, value: Any) -> tuple[Category, ...]:
    out = []
    for path, data in c.entries(value, "categories", "a list of categories", ("id", "name"), ()):
        out.append(Category(c.ident(data["id"], f"{path}.id"), c.name(data["name"], f"{path}.name")))
    return tuple(out)


def _events(c: _Checker, value: Any) -> dict[str, EventSpec]:
    out: dict[str, EventSpec] = {}
    for path, data in c.entries(value, "events", "a list of events", ("id", "name"), ("by",)):
        eid = c.ident(data["id"], f"{path}.id")
        if eid not in EVENT_RULES:
            raise c.fail(f"{path}.id", f"unknown event {eid!r} (known: {', '.join(EVENT_RULES)})")
        out[eid] = EventSpec(eid, c.name(data["name"], f"{path}.name"), _by(c, data, path))
    return out


def _by(c: _Checker, data: dict, path: str) -> WinBy | None:
    if "by" not in data:
        return None
    value = data["by"]
    if value not in ("self-draw", "discard"):
        raise c.fail(f"{path}.by", f"expected self-draw or discard, found {value!r}")
    return WinBy(value)


def event_way(event: str, events: dict[str, EventSpec]) -> WinBy | None:
    """The way of winning an event needs: the family's `by` for it, else every family's."""
    return events[event].by or EVENT_RULES[event].by


def _pattern_way(c: _Checker, by: WinBy | None, pattern_events: tuple[str, ...],
                 events: dict[str, EventSpec], path: str) -> WinBy | None:
    """A pattern's way of winning: its own `by`, else the one all its events need.

    An event pattern is present only when its event happened, and the event only on its
    way of winning (杠上花 is self-drawn, ruling 12; a robbed kong is a discard), so the
    pattern needs that way too: tick-box mode reads it from here.
    """
    ways = {event_way(e, events) for e in pattern_events}
    for event in pattern_events:
        way = event_way(event, events)
        if by is not None and way is not None and way is not by:
            raise c.fail(f"{path}.by", f"{by.value}, but its event {event!r} is a"
                                       f" {way.value} win")
    if by is None and len(ways) == 1:
        return ways.pop()
    return by


def _curves(c: _Checker, value: Any) -> dict[str, Curve]:
    out: dict[str, Curve] = {}
    for path, data in c.entries(value, "curves", "a list of curves", ("id", "name", "kind"),
                                ("table", "explain")):
        kind = data["kind"]
        if kind not in CURVE_KINDS:
            raise c.fail(f"{path}.kind", f"unknown curve kind {kind!r} (known: {', '.join(CURVE_KINDS)})")
        table: tuple[int, ...] = ()
        if kind == "table":
            if "table" not in data:
                raise c.fail(path, "a table curve needs 'table'")
            raw = c.typed(data["table"], f"{path}.table", list, "a list of points")
            table = tuple(c.typed(v, f"{path}.table[{k}]", int, "whole points") for k, v in enumerate(raw))
            if not table:
                raise c.fail(f"{path}.table", "needs at least one entry")
        elif "table" in data:
            raise c.fail(f"{path}.table", f"only a curve of kind table has one (this is {kind})")
        cid = c.ident(data["id"], f"{path}.id")
        out[cid] = Curve(cid, c.name(data["name"], f"{path}.name"), kind, table,
                         c.shown(data, "explain", path))
    return out


def _payments(c: _Checker, value: Any, curves: dict[str, Curve]) -> dict[str, PaymentRule]:
    out: dict[str, PaymentRule] = {}
    for path, data in c.entries(value, "payments", "a list of payment conventions",
                                ("id", "name", "discard", "self_draw"),
                                ("explain", "curve", "fixed_curve", "unit")):
        curve = data.get("curve")
        if curve is not None and curve not in curves:
            raise c.fail(f"{path}.curve", f"unknown curve {curve!r}")
        fixed = c.flag(data, "fixed_curve", path)
        if fixed and curve is None:
            raise c.fail(f"{path}.fixed_curve", "a convention that fixes its table needs `curve`")
        discard = c.mapping(data["discard"], f"{path}.discard", ("discarder", "others"), ())
        self_draw = c.mapping(data["self_draw"], f"{path}.self_draw", ("each",), ("plus",))
        pid = c.ident(data["id"], f"{path}.id")
        out[pid] = PaymentRule(
            pid, c.name(data["name"], f"{path}.name"), c.shown(data, "explain", path), curve,
            c.number(data.get("unit", 1), f"{path}.unit"),
            c.number(discard["discarder"], f"{path}.discard.discarder"),
            c.number(discard["others"], f"{path}.discard.others"),
            c.number(self_draw["each"], f"{path}.self_draw.each"),
            c.number(self_draw.get("plus", 0), f"{path}.self_draw.plus"),
            fixed,
        )
    return out


def _switches(c: _Checker, value: Any) -> tuple[Switch, ...]:
    out = []
    for path, data in c.entries(value, "switches", "a list of switches", ("id", "name"),
                                ("explain", "flowers", "settlement")):
        changes = _settlement_fields(c, data["settlement"], f"{path}.settlement", ()) if (
            "settlement" in data) else {}
        out.append(Switch(c.ident(data["id"], f"{path}.id"), c.name(data["name"], f"{path}.name"),
                          c.shown(data, "explain", path), c.flag(data, "flowers", path, True),
                          changes))
    return tuple(out)


PATTERN_REQUIRED = ("id", "name", "fan", "category")


PATTERN_OPTIONAL = ("explain", "detect", "event", "by", "requires", "group", "includes", "replaces",
                    "replaces_categories", "alone", "limit", "capped", "instant", "optional", "supersedes",
                    "flowers", "note", "example")


def _patterns(c: _Checker, value: Any, category_ids: set[str],
              events: dict[str, EventSpec]) -> list[Pattern]:
    out: list[Pattern] = []
    entries = c.entries(value, "patterns", "a list of patterns", PATTERN_REQUIRED, PATTERN_OPTIONAL)
    for i, (path, data) in enumerate(entries):
        pid = c.ident(data["id"], f"{path}.id")
        category = c.ident(data["category"], f"{path}.category")
        if category not in category_ids:
            raise c.fail(f"{path}.category", f"unknown category {category!r}")
        detect = data.get("detect")
        if detect is not None and detect not in DETECTORS:
            raise c.fail(f"{path}.detect", f"unknown detector {detect!r}")
        raw_events = data.get("event", [])
        pattern_events = (raw_events,) if isinstance(raw_events, str) else tuple(
            c.typed(raw_events, f"{path}.event", list, "an event id or a list of them"))
        for k, event in enumerate(pattern_events):
            if event not in events:
                where = f"{path}.event" if isinstance(raw_events, str) else f"{path}.event[{k}]"
                raise c.fail(where, f"event {event!r} is not in this file's events")
        fan = c.typed(data["fan"], f"{path}.fan", int, "a whole number of fan")
        example = data.get("example")
        if example is not None:
            example = c.typed(example, f"{path}.example", dict, "a hand description mapping")
            example = {str(k): str(v) for k, v in example.items()}
        by = _pattern_way(c, _by(c, data, path), pattern_events, events, path)
        instant = c.flag(data, "instant", path)
        if instant and by is None:
            raise c.fail(f"{path}.instant", "an instant win needs `by`: the one way it is won")
        categories_replaced = c.id_list(data, "replaces_categories", path)
        for k, cat in enumerate(categories_replaced):
            if cat not in category_ids:
                raise c.fail(f"{path}.replaces_categories[{k}]", f"unknown category {cat!r}")
        out.append(Pattern(
            id=pid, name=c.name(data["name"], f"{path}.name"), fan=fan, category=category,
            position=i, explain=c.shown(data, "explain", path), detect=detect, events=pattern_events,
            by=by, requires=c.id_list(data, "requires", path),
            group=c.ident(data["group"], f"{path}.group") if "group" in data else None,
            includes=c.id_list(data, "includes", path),
            replaces=c.id_list(data, "replaces", path) + tuple(f"@{cat}" for cat in categories_replaced),
            alone=c.flag(data, "alone", path), limit=c.flag(data, "limit", path),
            capped=c.flag(data, "capped", path), instant=instant,
            optional=c.flag(data, "optional", path), supersedes=c.id_list(data, "supersedes", path),
            flowers=c.flag(data, "flowers", path), note=c.shown(data, "note", path), example=example,
        ))
    return out


def _resolve_relations(c: _Checker, patterns: list[Pattern], by_id: dict[str, Pattern]) -> tuple[Pattern, ...]:
    """Check every referenced id exists and expand replaced categories into ids."""
    resolved = []
    for i, p in enumerate(patterns):
        path = f"patterns[{i}]"
        for key in ("requires", "includes", "supersedes"):
            for k, ref in enumerate(getattr(p, key)):
                if ref not in by_id:
                    raise c.fail(f"{path}.{key}[{k}]", f"unknown pattern {ref!r}")
                if ref == p.id:
                    raise c.fail(f"{path}.{key}[{k}]", "a pattern cannot name itself")
        if p.requires and (p.detect or p.events):
            raise c.fail(f"{path}.requires", "a package is present when the patterns it requires"
                                             " are; it takes no detect or event of its own")
        if p.supersedes and not p.optional:
            raise c.fail(f"{path}.supersedes", "only an optional pattern (a house rule) can"
                                               " supersede others")
        for k, ref in enumerate(p.requires):
            if by_id[ref].requires:
                raise c.fail(f"{path}.requires[{k}]", f"{ref!r} is itself a package; name the"
                                                      " patterns it requires instead")
        replaced: list[str] = []
        for k, ref in enumerate(p.replaces):
            if ref.startswith("@"):
                replaced += [q.id for q in patterns if q.category == ref[1:] and q.id != p.id
                             and not (q.group is not None and q.group == p.group)]
            elif ref not in by_id:
                raise c.fail(f"{path}.replaces[{k}]", f"unknown pattern {ref!r}")
            elif ref == p.id:
                raise c.fail(f"{path}.replaces[{k}]", "a pattern cannot name itself")
            else:
                replaced.append(ref)
        resolved.append(replace(p, replaces=tuple(dict.fromkeys(replaced)),
                                 excludes=frozenset(p.includes) | frozenset(replaced)))
    return tuple(resolved)


def _shape_setting(c: _Checker, shapes: dict, key: str, by_id: dict[str, Pattern],
                   default: bool) -> bool | str:
    value = shapes.get(key, default)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value in by_id and by_id[value].optional:
        return value
    raise c.fail(f"shapes.{key}", f"expected true, false or the id of an optional pattern, found {value!r}")


def _dials(c: _Checker, value: Any, ranges: Any, curves: dict[str, Curve],
           payments: dict[str, PaymentRule]):
    data = c.mapping(value, "dials", ("min", "cap", "curve", "payment"), ("stake",))
    rng = c.mapping(ranges, "ranges", (), ("min", "cap", "uncapped"))
    minimum = c.typed(data["min"], "dials.min", int, "a whole number of fan")
    cap = data["cap"]
    if cap is not None:
        cap = c.typed(cap, "dials.cap", int, "a whole number of fan or null")
    if data["curve"] not in curves:
        raise c.fail("dials.curve", f"unknown curve {data['curve']!r}")
    if data["payment"] not in payments:
        raise c.fail("dials.payment", f"unknown payment convention {data['payment']!r}")
    min_range = _range(c, rng.get("min", [0, 13]), "ranges.min")
    cap_range = _range(c, rng.get("cap", [1, 13]), "ranges.cap")
    uncapped = c.flag(rng, "uncapped", "ranges", cap is None)
    if not min_range[0] <= minimum <= min_range[1]:
        raise c.fail("dials.min", f"{minimum} is outside ranges.min {list(min_range)}")
    if cap is not None and not cap_range[0] <= cap <= cap_range[1]:
        raise c.fail("dials.cap", f"{cap} is outside ranges.cap {list(cap_range)}")
    paid_by = payments[data["payment"]].curve
    if paid_by is not None and paid_by != data["curve"]:
        raise c.fail("dials.curve", f"the default payment {data['payment']!r} uses the curve"
                                    f" {paid_by!r}: make that the default curve too")
    if cap is not None and minimum > cap:
        raise c.fail("dials.min", f"{minimum} is above dials.cap {cap}: no hand could be paid")
    stake = c.number(data.get("stake", 1), "dials.stake")
    if stake <= 0:
        raise c.fail("dials.stake", f"expected a positive stake, found {stake}")
    return Dials(minimum, cap, data["curve"], data["payment"], stake), min_range, cap_range, uncapped


def _range(c: _Checker, value: Any, path: str) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value) and value[0] <= value[1]):
        raise c.fail(path, f"expected [low, high] whole numbers, found {value!r}")
    return value[0], value[1]


def _liability(c: _Checker, value: Any, by_id: dict[str, Pattern]) -> tuple[Liability, ...]:
    out = []
    for path, data in c.entries(value, "liability", "a list of liability rules", ("id", "name"),
                                ("explain", "pattern", "exposed_melds", "self_draw", "discard")):
        pattern = data.get("pattern")
        if pattern is not None and pattern not in by_id:
            raise c.fail(f"{path}.pattern", f"unknown pattern {pattern!r}")
        out.append(Liability(
            c.ident(data["id"], f"{path}.id"), c.name(data["name"], f"{path}.name"),
            c.shown(data, "explain", path), pattern,
            c.typed(data.get("exposed_melds", 0), f"{path}.exposed_melds", int, "a whole number"),
            c.flag(data, "self_draw", path, True), c.flag(data, "discard", path, True)))
    return tuple(out)
