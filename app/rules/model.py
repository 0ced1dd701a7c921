"""The ruleset model: the frozen values one rule family's YAML file becomes.

app/rules/loader.py reads the files and app/rules/checks.py checks each against the schema,
key by key, into these values; the engine reads nothing else of a family.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from app.base.i18n import FIELDS, NO_TEXT, Name, Text
from app.hands.hand import MeldKind, WinBy
from app.hands.readings import ShapeRules

Amount = int | Fraction   # money and shares are exact: whole numbers stay ints


def exact(value: Fraction) -> Amount:
    """A whole Fraction as an int, so whole-number arithmetic stays fast."""
    return value.numerator if value.denominator == 1 else value


CURVE_KINDS = ("linear", "doubling", "half-spicy", "table")


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
    capped: bool = False               # a 例牌 listed at its fan: the cap when that is lower (ruling 84)
    instant: bool = False              # wins the moment it is held: any other `by` is refused
    optional: bool = False             # a house rule, off unless switched on
    supersedes: tuple[str, ...] = ()   # switched on, it turns these off
    flowers: bool = False              # exists only when flowers are in play
    note: Text = NO_TEXT               # house-rule remark shown on the rules page
    example: Mapping[str, str] | None = None

    @property
    def example_params(self) -> Mapping[str, str] | None:
        """Its example as a request: with the pattern switched on when it is a house rule."""
        if self.example is None or not self.optional:
            return self.example
        options = [o for o in self.example.get("options", "").split(",") if o]
        return {**self.example, "options": ",".join(dict.fromkeys([*options, self.id]))}

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
    fixed_curve: bool = False   # defined on its own curve: another curve= is refused (ruling 85)


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
    before: WorkedExample | None = None   # a club variant's: the family's own, for "was 6 fan"


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
    # The table's words every shared sentence takes as a field (`{win_word}`, `%(win_word)s`:
    # FAMILY_FIELDS), so a sentence says 食糊 under Hong Kong rules and 胡牌 under Sichuan ones.
    win: str = "食糊"                 # winning a hand
    winner: str = "食糊者"            # the player who wins
    discarder: str = "出銃者"          # the player whose discard is won on
    on_discard: str = "出銃"           # the heading of the discard-win column
    minimum: str = "起糊"             # the minimum fan to win
    chow: str = "上"                  # a claimed chow
    limit: str = "例牌"               # a limit hand (at the cap)
    house_rule: str = "選用規則"        # an optional rule, ticked to count


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


# --- a family's own conditions (the ruleset's `conditions:` section) --------------------


@dataclass(frozen=True, slots=True)
class EventCondition:
    """What one family adds to an event's conditions (rulesets/README.md, conditions)."""

    melds: tuple[MeldKind, ...] | None = None   # the meld kinds the hand may show; None: any
    not_with: tuple[str, ...] = ()              # events that cannot happen with it here
    why: Text = NO_TEXT                         # the lesson's words, shown with the refusal


@dataclass(frozen=True, slots=True)
class LiabilityCondition:
    """What one family adds to a liability rule: who can have supplied the tile."""

    supplied: str | None = None    # a tile group (dragons, winds): a claimed meld of it shows
    why: Text = NO_TEXT


@dataclass(frozen=True, slots=True)
class Conditions:
    """A family's own impossible combinations, as its YAML file states them."""

    won: bool = False      # players can have won already and play on (a blood battle)
    events: Mapping[str, EventCondition] = field(default_factory=dict)
    liability: Mapping[str, LiabilityCondition] = field(default_factory=dict)


NO_CONDITIONS = Conditions()


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
    claimed_chows: bool              # whether a chow may be claimed (Sichuan: pongs and kongs only)
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
    never_together: Mapping[str, frozenset[str]] = field(default_factory=dict)  # cannot both be held
    examples: tuple[WorkedExample, ...] = ()
    # A club variant's pattern examples priced under it and under its family, by pattern id
    # (a family's own pattern examples are checked by the tests, not priced on its page).
    pattern_examples: Mapping[str, WorkedExample] = field(default_factory=dict)
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


# The words a catalog sentence may take as fields (`{win_word}`): an English page says the msgid.
FAMILY_WORDS = ("win", "winner", "discarder", "on_discard", "minimum", "chow", "limit",
                "house_rule", "discard_win", "sheet")
WORD_LABELS = ("brand", "calculate", "calculator", "which_discard", "fan_to_money", "practice",
               "sheet", "flowers", "seasons", "discard_win", *FAMILY_WORDS[:-2])
DEFAULT_WORDS = {   # Cantonese terms, as a Hong Kong table writes them
    "zh_hant": Words(),
    "zh_hans": Words("simplified", "出铳", "自摸", {"m": "万", "p": "筒", "s": "索"},
                     {"E": "东", "S": "南", "W": "西", "N": "北"}, "番数计算", "计番", "番数计算器",
                     "打哪张", "番数换钱", "计番练习", "记分表", "花", "季", "食出铳",
                     "食糊", "食糊者", "出铳者", "出铳", "起糊", "上", "例牌", "选用规则"),
}


def family_fields(words: Words) -> dict[str, str]:
    """The family's words as the fields a catalog sentence may use: `{win_word}` → 食糊."""
    return {f"{key}_word": getattr(words, key) for key in FAMILY_WORDS}



CITATION = re.compile(r"\b[Rr]ulings? ((?:\d+)(?:(?:, | and |–)\d+)*)|裁定\s*((?:\d+)(?:(?:、|及|和|與|与|–)\d+)*)")


def cited(text: str) -> list[int]:
    """The ruling numbers a text cites, in English or Chinese: "rulings 58, 74" → [58, 74].

    >>> cited("both rows count (2, ruling 70); see rulings 58, 74 and 75")
    [70, 58, 74, 75]
    >>> cited("兩行都計（2，裁定 70）；見裁定 58、74")
    [70, 58, 74]
    """
    return [int(n) for m in CITATION.finditer(text) for n in re.findall(r"\d+", m[1] or m[2])]


