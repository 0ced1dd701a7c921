"""WTForms for the calculator and the tick-box mode; choices come from the chosen ruleset.

The forms render the fields and carry what was typed; the mahjong checks live in the core,
whose field errors are attached back onto these fields.
"""
from __future__ import annotations

from functools import lru_cache

import wtforms.widgets
import wtforms.widgets.core
from markupsafe import Markup, escape
from wtforms import Form, RadioField, SelectField, SelectMultipleField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.widgets import CheckboxInput, ListWidget

from ..errors import FieldError
from ..hand import SEATS
from ..rulesets import Ruleset
from ..tiles import PLAYING_TILES


@lru_cache(maxsize=256)
def _attribute_name(key: str) -> str:
    return str(escape(wtforms.widgets.core.clean_key(key)))


def html_params(**kwargs) -> Markup:
    """WTForms' html_params, the same output ten times faster (it was half of a page's time).

    Every input, option and label of a form goes through it: a page has about sixty.

    >>> html_params(checked=True, readonly=False, name="text1", abc='say "hi" & go')
    Markup('abc="say &#34;hi&#34; &amp; go" checked name="text1"')
    >>> html_params(data_attr="user.name", aria_labeledby="name", class_="text")
    Markup('aria-labeledby="name" class="text" data-attr="user.name"')
    """
    parts = []
    for key, value in sorted(kwargs.items()):
        if value is True:
            parts.append(_attribute_name(key))
        elif value is not False:
            parts.append(f'{_attribute_name(key)}="{str(escape(value)).replace(chr(34), "&quot;")}"')
    return Markup(" ".join(parts))


# Used by WTForms' widgets and labels as a module global or a class attribute: replace each.
wtforms.widgets.core.html_params = wtforms.widgets.html_params = html_params
wtforms.widgets.core.Input.html_params = staticmethod(html_params)
wtforms.widgets.core.Button.html_params = staticmethod(html_params)

SEAT_NAMES = {"E": "East 東", "S": "South 南", "W": "West 西", "N": "North 北"}
def choices(pairs) -> list[SelectChoice]:
    """WTForms choices from (value, label) pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


SEAT_CHOICES = choices((s, SEAT_NAMES[s]) for s in SEATS)
BONUS_NAMES = {"flowers": ("梅 Plum", "蘭 Orchid", "菊 Chrysanthemum", "竹 Bamboo"),
               "seasons": ("春 Spring", "夏 Summer", "秋 Autumn", "冬 Winter")}


class MultiCheckboxField(SelectMultipleField):
    """Several check boxes under one name."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()

    def pre_validate(self, form) -> None:   # the core checks the values and says why
        pass


class LenientSelectField(SelectField):
    def pre_validate(self, form) -> None:
        pass


class DialsMixin:
    """The dials and switches every mode shares."""

    rules = LenientSelectField("Rules")
    min = StringField("Minimum fan")
    cap = StringField("Fan cap")
    curve = LenientSelectField("Doubling curve")
    payment = LenientSelectField("Who pays on a discard")
    stake = StringField("Stake")
    options = MultiCheckboxField("House rules")
    by = RadioField("How the hand was won", choices=choices([("discard", "On a discard 出銃"),
                                                              ("self-draw", "Self-draw 自摸")]),
                    default="discard")
    seat = LenientSelectField("Winner's seat", choices=SEAT_CHOICES, default="E")
    discarder = LenientSelectField("Discarder")
    won = MultiCheckboxField("Already won this round", choices=SEAT_CHOICES)
    liable = LenientSelectField("Liable player 包牌")


class CalculatorForm(DialsMixin, Form):
    """Tile mode: the hand, its melds and the win context."""

    hand = StringField("Hand: concealed tiles, the winning tile included")
    win = StringField("Winning tile")
    melds = StringField("Declared melds")
    draft = StringField("Meld being built")
    target = RadioField("Tiles you pick go to", choices=choices([("hand", "the hand"), ("meld", "a new meld")]),
                        default="hand")
    round = LenientSelectField("Round wind", choices=SEAT_CHOICES, default="E")
    flowers = MultiCheckboxField("Flowers", choices=choices(
        (str(i), n) for i, n in enumerate(BONUS_NAMES["flowers"], 1)))
    seasons = MultiCheckboxField("Seasons", choices=choices(
        (str(i), n) for i, n in enumerate(BONUS_NAMES["seasons"], 1)))
    events = MultiCheckboxField("How the winning tile came")
    missing = LenientSelectField("Declared missing suit 定缺",
                                 choices=choices([("", "none"), ("m", "Characters 萬"),
                                                  ("p", "Dots 筒"), ("s", "Bamboo 索")]))


class DiscardForm(CalculatorForm):
    """What to discard: the calculator's hand (14 tiles before the discard) and the tiles seen."""

    hand = StringField("Hand: 14 tiles, the one just drawn included")
    seen = StringField("Tiles seen on the table")


class TicksForm(DialsMixin, Form):
    """Tick-box mode: the patterns the hand qualifies for."""

    ticks = MultiCheckboxField("Patterns")


def set_choices(form: Form, ruleset: Ruleset, rulesets: list[Ruleset]) -> None:
    """Fill the choices that depend on the ruleset."""
    form.rules.choices = choices((r.id, f"{r.name.en} {r.name.zh}") for r in rulesets)
    form.curve.choices = choices([("", "the convention's own")] + [
        (c.id, f"{c.name.en} {c.name.zh}".strip()) for c in ruleset.curves.values()])
    form.payment.choices = choices((p.id, f"{p.name.en} {p.name.zh}".strip())
                                   for p in ruleset.payments.values())
    options = [(p.id, f"{p.name.en} {p.name.zh}".strip()) for p in ruleset.patterns if p.optional]
    options += [(s.id, f"{s.name.en} {s.name.zh}".strip()
                 + (" (round ledger)" if s.settlement else "")) for s in ruleset.switches]
    form.options.choices = choices(options)
    words = ruleset.words
    seats = choices((s, f"{SEAT_NAMES[s].split()[0]} {words.winds[s]}") for s in SEATS)
    for name in ("seat", "round", "won"):
        if hasattr(form, name):
            getattr(form, name).choices = seats
    form.by.choices = choices([("discard", f"On a discard {words.discard}"),
                               ("self-draw", f"Self-draw {words.self_draw}")])
    if hasattr(form, "missing"):
        form.missing.choices = choices([("", "none"), ("m", f"Characters {words.suits['m']}"),
                                        ("p", f"Dots {words.suits['p']}"),
                                        ("s", f"Bamboo {words.suits['s']}")])
    form.discarder.choices = choices([("", "the next seat")]) + seats
    form.liable.choices = choices([("", "nobody")]) + seats
    if hasattr(form, "events"):
        form.events.choices = choices((e.id, f"{e.name.en} {e.name.zh}".strip())
                                      for e in ruleset.events.values())
    if hasattr(form, "ticks"):
        form.ticks.choices = choices((p.id, p.id) for p in ruleset.patterns)
    # fields the templates leave out under this ruleset (see calculator.html and macros.html):
    # an error about one of them is shown with the loose errors, never lost
    form.hidden_fields = {name for name, shown in (
        ("events", bool(ruleset.events)), ("flowers", ruleset.flowers), ("seasons", ruleset.flowers),
        ("missing", ruleset.missing_suit), ("won", ruleset.conditions.won),
        ("liable", bool(ruleset.liability)), ("options", bool(options))) if not shown}
    # a select shows its first choice when nothing is chosen: make that the ruleset's default
    if not form.rules.data:
        form.rules.data = ruleset.id
    if not form.payment.data:
        form.payment.data = ruleset.dials.payment


def attach_errors(form: Form, errors: tuple[FieldError, ...]) -> list[str]:
    """Put each core error next to its field; return those that belong to no field."""
    loose = []
    hidden = getattr(form, "hidden_fields", set())
    for error in errors:
        field = getattr(form, error.field, None) if error.field and error.field not in hidden else None
        if field is not None and hasattr(field, "errors"):
            field.errors = list(field.errors or []) + [error.message]
        else:
            loose.append(error.message if not error.field else f"{error.field}: {error.message}")
    return loose


PICKER_TILES = PLAYING_TILES
