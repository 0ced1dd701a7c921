"""Rulesets: one YAML file per rule family, checked against a schema and frozen at load time.

A broken file stops start-up with a message naming the file and the key, e.g.
`hong-kong.yaml: patterns[7].detect: unknown detector 'ful_flush'`.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from app.base.errors import RulesetError
from app.base.i18n import FIELDS, LANGS, NO_TEXT, SCRIPTS, Name, Text
from app.base.resources import folder
from app.hands.hand import MeldKind, WinBy
from app.hands.readings import ShapeRules

from .conditions import (
    EVENT_RULES,
    NO_CONDITIONS,
    TILE_GROUPS,
    Conditions,
    EventCondition,
    LiabilityCondition,
)
from .detectors import DETECTORS

RULESET_DIR = folder("rulesets")   # the shipped rulesets, in the package or the checkout
Amount = int | Fraction   # money and shares are exact: whole numbers stay ints


def exact(value: Fraction) -> Amount:
    """A whole Fraction as an int, so whole-number arithmetic stays fast."""
    return value.numerator if value.denominator == 1 else value
CURVE_KINDS = ("linear", "doubling", "half-spicy", "table")
_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")




@dataclass(frozen=True, slots=True)
class Category:
    id: str
    name: Name


@dataclass(frozen=True, slots=True)
class Pattern:
    """One priced pattern of a ruleset and its relations to the others."""

    id: str
    name: Name
    fan: int
    category: str
    position: int
    explain: Text = NO_TEXT
    detect: str | None = None          # detector key; None with an event, or tick-box only
    events: tuple[str, ...] = ()       # win-moment events: present when any of them is
    by: WinBy | None = None            # the way of winning it needs
    requires: tuple[str, ...] = ()     # a package: present when all of these are
    group: str | None = None           # at most one pattern of a group counts (tiers)
    excludes: frozenset[str] = frozenset()   # includes + replaces, expanded
    includes: tuple[str, ...] = ()
    replaces: tuple[str, ...] = ()
    alone: bool = False                # 例牌: no other pattern counts beside it
    limit: bool = False                # pays the cap, whatever the cap is
    instant: bool = False              # wins the moment it is held: any other `by` is refused
    optional: bool = False             # a house rule, off unless switched on
    supersedes: tuple[str, ...] = ()   # switched on, it turns these off
    flowers: bool = False              # exists only when flowers are in play
    note: Text = NO_TEXT               # house-rule remark shown on the rules page
    example: Mapping[str, str] | None = None

    @property
    def tick_only(self) -> bool:
        """Scored only from tick boxes: no detector, no event, no package."""
        return self.detect is None and not self.events and not self.requires


@dataclass(frozen=True, slots=True)
class Curve:
    """How fan becomes base points."""

    id: str
    name: Name
    kind: str
    table: tuple[int, ...] = ()
    explain: Text = NO_TEXT

    def points(self, fan: int) -> int:
        """Base points for a fan total.

        >>> Curve("h", Name("Half spicy", "半辣"), "half-spicy").points(7)
        48
        """
        if self.kind == "linear":
            return fan
        if self.kind == "doubling":
            return 2 ** fan
        if self.kind == "half-spicy":   # ruling 53
            if fan <= 4:
                return 2 ** fan
            steps, odd = divmod(fan - 4, 2)
            return 16 * 2 ** steps * (3 if odd else 2) // 2
        return self.table[min(fan, len(self.table) - 1)]


@dataclass(frozen=True, slots=True)
class PaymentRule:
    """Who pays what, in units of base points, on a discard and on a self-draw."""

    id: str
    name: Name
    explain: Text
    curve: str | None
    unit: Amount
    discarder: Amount
    others: Amount
    self_draw_each: Amount
    self_draw_plus: Amount = 0


@dataclass(frozen=True, slots=True)
class Liability:
    """A pinned player (包牌, 9-cards) who pays for others when its conditions hold."""

    id: str
    name: Name
    explain: Text
    pattern: str | None = None
    exposed_melds: int = 0
    self_draw: bool = True
    discard: bool = True


@dataclass(frozen=True, slots=True)
class SettlementRules:
    """How a blood-battle round settles: kong money and the end-of-round checks."""

    kong_payments: Mapping[str, Amount]      # exposed / concealed / added: each payer pays
    added_kong_needs_drawn_tile: bool = False  # SBR: no money for a fourth tile held since earlier
    kong_void_on_cannon: bool = False        # SBR: a win on the kong-maker's next discard voids it
    kong_transfer_on_cannon: bool = False    # 呼叫转移: ... and its money goes to the winner
    flower_pig: Amount = 0                   # 查花猪: paid by a pig to each player who cleared
    pig_pays_ready_check: bool = False       # SBR: a pig counts as not ready
    refund: str = "never-won"                # 退税: never-won (SC) or not-ready-at-draw (SBR)


REFUND_RULES = ("never-won", "not-ready-at-draw")


@dataclass(frozen=True, slots=True)
class WorkedExample:
    """A worked example of the tutorial page: a hand description and what it comes to."""

    id: str
    title: Text
    source: Text
    params: Mapping[str, str]
    total_fan: int | None = None
    payments: Mapping[str, Amount] | None = None


@dataclass(frozen=True, slots=True)
class Words:
    """How this family's pages write the table's words (Cantonese traditional unless told)."""

    script: str = "traditional"     # or simplified: how tile names are written
    discard: str = "出銃"
    self_draw: str = "自摸"
    suits: Mapping[str, str] = field(default_factory=lambda: {"m": "萬", "p": "筒", "s": "索"})
    winds: Mapping[str, str] = field(default_factory=lambda: {"E": "東", "S": "南", "W": "西",
                                                              "N": "北"})
    # Headings and field labels of the pages, in the family's own terms and script.
    brand: str = "番數計算"           # the site's name in the page header
    calculate: str = "計番"           # the calculator's heading
    calculator: str = "番數計算機"     # the tick-box calculator's heading
    which_discard: str = "打哪張"      # the discard adviser's and discard drill's headings
    fan_to_money: str = "番數換錢"     # the fan-to-payment page's heading
    practice: str = "計番練習"         # the counting drill's heading
    sheet: str = "計分表"             # the game sheet's heading
    flowers: str = "花"               # the flowers field's label
    seasons: str = "季"               # the seasons field's label
    discard_win: str = "食出銃"        # a win on a discard, as a sentence names the way of winning


@dataclass(frozen=True, slots=True)
class Ruling:
    """A reading this project takes where the lesson is silent or unclear (RULINGS.md)."""

    id: int
    point: Text
    ruling: Text
    choices: Text = NO_TEXT


@dataclass(frozen=True, slots=True)
class EventSpec:
    id: str
    name: Name
    by: WinBy | None = None


@dataclass(frozen=True, slots=True)
class Switch:
    """A ruleset switch that is not itself a pattern (e.g. flowers in play)."""

    id: str
    name: Name
    explain: Text
    flowers: bool = True     # False: with the switch on, flowers and seasons are out of play
    settlement: Mapping[str, Any] = field(default_factory=dict)   # round rules it changes


@dataclass(frozen=True, slots=True)
class Dials:
    min: int
    cap: int | None
    curve: str
    payment: str
    stake: Amount


@dataclass(frozen=True, slots=True, eq=False)
class Ruleset:
    """A whole rule family, as its YAML file says."""

    id: str
    name: Name
    source: Text
    summary: Text
    honours: bool
    flowers: bool
    missing_suit: bool
    seven_pairs: bool | str          # True, False, or the id of the pattern that allows it
    seven_pairs_quads: bool
    thirteen_orphans: bool | str
    dials: Dials
    min_range: tuple[int, int]
    cap_range: tuple[int, int]
    uncapped: bool                   # whether cap=none is allowed
    categories: tuple[Category, ...]
    patterns: tuple[Pattern, ...]
    curves: Mapping[str, Curve]
    payments: Mapping[str, PaymentRule]
    events: Mapping[str, EventSpec]
    switches: tuple[Switch, ...] = ()
    liability: tuple[Liability, ...] = ()
    by_id: Mapping[str, Pattern] = field(default_factory=dict)
    packages: tuple[Pattern, ...] = ()   # present exactly when every pattern they require is
    conflicts: Mapping[str, frozenset[str]] = field(default_factory=dict)  # cannot both count
    examples: tuple[WorkedExample, ...] = ()
    settlement: SettlementRules | None = None
    conditions: Conditions = NO_CONDITIONS   # what cannot happen at this family's table
    rulings: tuple[Ruling, ...] = ()         # the readings its texts cite as "ruling N"
    words: Words = field(default_factory=Words)   # its words for discard, suits, winds
    words_zh: Mapping[str, Words] = field(default_factory=dict)   # the same, per script

    def words_in(self, lang: str) -> Words:
        """The family's words for a page language: its own script on an English page."""
        return self.words_zh.get(FIELDS.get(lang, ""), self.words)

    def pattern(self, pattern_id: str) -> Pattern:
        return self.by_id[pattern_id]

    def shape_rules(self, options: frozenset[str]) -> ShapeRules:
        """The shapes that win under this ruleset with these switches."""
        return ShapeRules(
            seven_pairs=_shape_on(self.seven_pairs, options),
            seven_pairs_quads=self.seven_pairs_quads,
            thirteen_orphans=_shape_on(self.thirteen_orphans, options),
        )

    def settlement_with(self, options: frozenset[str]) -> SettlementRules | None:
        """The round rules with these switches on (each switch may change some of them)."""
        if self.settlement is None:
            return None
        changes = {k: v for s in self.switches if s.id in options for k, v in s.settlement.items()}
        return replace(self.settlement, **changes) if changes else self.settlement

    def flowers_in_play(self, options: frozenset[str]) -> bool:
        """Whether flowers and seasons are in the set, with these switches on."""
        return self.flowers and all(s.flowers for s in self.switches if s.id in options)

    @property
    def option_ids(self) -> tuple[str, ...]:
        """Every id `options=` accepts: optional patterns and switches."""
        return tuple(p.id for p in self.patterns if p.optional) + tuple(s.id for s in self.switches)


def _shape_on(setting: bool | str, options: frozenset[str]) -> bool:
    return setting if isinstance(setting, bool) else setting in options


# --- loading ---------------------------------------------------------------------------


class _UniqueKeyLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):   # libyaml when built in
    """A safe loader that refuses a mapping with the same key twice."""


def _construct_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False):
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


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
        if not _ID.fullmatch(value):
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


def load_ruleset(path: Path) -> Ruleset:
    """Load and check one ruleset file (laid over the file it extends, if any)."""
    return build_ruleset(_extended(_read(path), path, ()), path.name, path.stem)


def _read(path: Path) -> Any:
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)
    except yaml.YAMLError as err:
        raise RulesetError(f"{path.name}: not valid YAML: {err}") from None


# What a house variant (`extends: hong-kong`) does not take from the file it extends: its
# own id and names, and the worked examples, which belong to the other file's page.
NOT_INHERITED = ("id", "name", "source", "summary", "examples")
LISTS_BY_ID = ("categories", "patterns", "curves", "payments", "events", "switches", "liability",
               "rulings")


def _extended(data: Any, path: Path, chain: tuple[str, ...]) -> Any:
    """A file's data laid over the data of the file it `extends`: beside it, else shipped.

    Lists of entries with ids merge by id: an entry's keys change the other file's entry
    with the same id, in its place; `{id: x, remove: true}` drops it; new entries go last.
    Mappings (dials, ranges, tiles, shapes, settlement) merge key by key; anything else
    given replaces the other file's.
    """
    if not isinstance(data, dict) or "extends" not in data:
        return data
    other = data["extends"]
    if not isinstance(other, str) or not _ID.fullmatch(other):
        raise RulesetError(f"{path.name}: extends: expected the id of another ruleset file,"
                           f" found {other!r}")
    if other == path.stem or other in chain:
        raise RulesetError(f"{path.name}: extends: {other!r} leads back to this file")
    base_path = path.parent / f"{other}.yaml"
    if not base_path.exists():   # a house file kept elsewhere may extend a shipped family
        base_path = RULESET_DIR / f"{other}.yaml"
    if not base_path.exists():
        raise RulesetError(f"{path.name}: extends: there is no {other}.yaml beside it"
                           " and no shipped ruleset of that id")
    base = _extended(_read(base_path), base_path, (*chain, path.stem))
    if not isinstance(base, dict):
        raise RulesetError(f"{path.name}: extends: {base_path.name} is not a ruleset mapping")
    merged = {k: v for k, v in base.items() if k not in NOT_INHERITED}
    for key, value in data.items():
        if key == "extends":
            continue
        if key in LISTS_BY_ID and isinstance(value, list) and isinstance(merged.get(key), list):
            merged[key] = _merge_by_id(merged[key], value, path.name, key)
        elif isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def _merge_by_id(base: list, changes: list, filename: str, key: str) -> list:
    merged = list(base)
    place = {e.get("id"): i for i, e in enumerate(merged) if isinstance(e, dict)}
    for k, entry in enumerate(changes):
        ident = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(entry, dict) and entry.get("remove") is True:
            if ident not in place:
                raise RulesetError(f"{filename}: {key}[{k}].remove: the extended file has no"
                                   f" {key} entry {ident!r} to remove")
            merged[place[ident]] = None
        elif ident in place and ident is not None and merged[place[ident]] is not None:
            merged[place[ident]] = {**merged[place[ident]], **entry}
        else:
            merged.append(entry)
    return [e for e in merged if e is not None]


TOP_REQUIRED = ("name", "dials", "categories", "patterns", "curves", "payments")
TOP_OPTIONAL = ("id", "extends", "source", "summary", "tiles", "shapes", "missing_suit", "ranges",
                "events", "switches", "liability", "examples", "settlement", "conditions",
                "rulings", "words")


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
                       ("seven_pairs", "seven_pairs_quads", "thirteen_orphans"))
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
        thirteen_orphans=thirteen, dials=dials, min_range=min_range, cap_range=cap_range,
        uncapped=uncapped, categories=categories, patterns=patterns, curves=curves,
        payments=payments, events=events, switches=switches, liability=liability, by_id=by_id,
        packages=tuple(p for p in patterns if p.requires),
        conflicts=_conflicts(patterns),
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


WORD_LABELS = ("brand", "calculate", "calculator", "which_discard", "fan_to_money", "practice",
               "sheet", "flowers", "seasons", "discard_win")
DEFAULT_WORDS = {   # Cantonese terms, as a Hong Kong table writes them
    "zh_hant": Words(),
    "zh_hans": Words("simplified", "出铳", "自摸", {"m": "万", "p": "筒", "s": "索"},
                     {"E": "东", "S": "南", "W": "西", "N": "北"}, "番数计算", "计番", "番数计算机",
                     "打哪张", "番数换钱", "计番练习", "计分表", "花", "季", "食出铳"),
}


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


CITATION = re.compile(r"\b[Rr]ulings? ((?:\d+)(?:(?:, | and |–)\d+)*)|裁定\s*((?:\d+)(?:(?:、|及|和|與|与|–)\d+)*)")
SEED_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")
SEED_NUMBER = re.compile(r"\bseeds? 00\d\b", re.IGNORECASE)
SHOWN_TEXT = ("name", "summary", "source", "explain", "note", "title", "why", "point", "ruling",
              "choices")


def cited(text: str) -> list[int]:
    """The ruling numbers a text cites, in English or Chinese: "rulings 58, 74" → [58, 74].

    >>> cited("both rows count (2, ruling 70); see rulings 58, 74 and 75")
    [70, 58, 74, 75]
    >>> cited("兩行都計（2，裁定 70）；見裁定 58、74")
    [70, 58, 74]
    """
    return [int(n) for m in CITATION.finditer(text) for n in re.findall(r"\d+", m[1] or m[2])]


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
                                ("id", "name", "discard", "self_draw"), ("explain", "curve", "unit")):
        curve = data.get("curve")
        if curve is not None and curve not in curves:
            raise c.fail(f"{path}.curve", f"unknown curve {curve!r}")
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
                    "replaces_categories", "alone", "limit", "instant", "optional", "supersedes",
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
        by = _by(c, data, path)
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
            alone=c.flag(data, "alone", path), limit=c.flag(data, "limit", path), instant=instant,
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


def load_all(directory: Path = RULESET_DIR) -> dict[str, Ruleset]:
    """Load every ruleset file in a folder (default: the shipped rulesets), keyed by id."""
    return {path.stem: load_ruleset(path) for path in sorted(directory.glob("*.yaml"))}


_REGISTRY: dict[str, Ruleset] | None = None


def registry() -> dict[str, Ruleset]:
    """Every shipped ruleset, loaded once."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = load_all()
    return _REGISTRY
