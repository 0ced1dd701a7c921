"""WTForms for the calculator and the tick-box mode; choices come from the chosen ruleset.

The forms render the fields and carry what was typed; the mahjong checks live in the core,
whose field errors are attached back onto these fields.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import wtforms.widgets
import wtforms.widgets.core
from flask import request
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from markupsafe import Markup, escape
from werkzeug.datastructures import MultiDict
from wtforms import Form, RadioField, SelectField, SelectMultipleField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.widgets import CheckboxInput, ListWidget

from app.base.errors import FieldError
from app.base.i18n import Msg, Text
from app.hands.hand import SEATS
from app.hands.tiles import PLAYING_TILES
from app.rules.model import Ruleset

from .fragments import PLACEHOLDER, FragmentCache, cache, frozen, holds_placeholder, hole
from .i18n import explicit_lang, page_lang
from .present import field_label, number


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


class LenientRadioField(RadioField):
    """One-tap choices; none is ticked until the player taps one, so an untouched field is
    not sent and the core says what it assumed (a discard, the East seat)."""

    def pre_validate(self, form) -> None:
        pass


class DialsMixin:
    """The dials and switches every mode shares."""

    rules = LenientSelectField(lazy_gettext("Rules"))
    min = StringField(lazy_gettext("Minimum fan"))
    cap = StringField(lazy_gettext("Fan cap"))
    curve = LenientSelectField(lazy_gettext("Doubling curve"))
    payment = LenientSelectField(lazy_gettext("Who pays on a discard"))
    stake = StringField(lazy_gettext("Stake"))
    options = MultiCheckboxField(lazy_gettext("House rules"))
    by = LenientRadioField(lazy_gettext("How the hand was won"),
                           choices=choices([("discard", "On a discard 出銃"), ("self-draw", "Self-draw 自摸")]))
    seat = LenientRadioField(lazy_gettext("Winner's seat"), choices=SEAT_CHOICES)
    discarder = LenientRadioField(lazy_gettext("Discarder"))
    won = MultiCheckboxField(lazy_gettext("Already won this round"), choices=SEAT_CHOICES)
    liable = LenientSelectField(lazy_gettext("Liable player 包牌"))


class CalculatorForm(DialsMixin, Form):
    """Tile mode: the hand, its melds and the win context."""

    hand = StringField(lazy_gettext("Hand: concealed tiles, the winning tile included"))
    win = StringField(lazy_gettext("Winning tile"))
    melds = StringField(lazy_gettext("Declared melds"))
    draft = StringField(lazy_gettext("Meld being built"))
    target = RadioField(lazy_gettext("Tiles you pick go to"),
                        choices=choices([("hand", "the hand"), ("meld", "a new meld")]), default="hand")
    round = LenientSelectField(lazy_gettext("Round wind"), choices=SEAT_CHOICES)
    flowers = MultiCheckboxField(lazy_gettext("Flowers"), choices=choices(
        (str(i), n) for i, n in enumerate(BONUS_NAMES["flowers"], 1)))
    seasons = MultiCheckboxField(lazy_gettext("Seasons"), choices=choices(
        (str(i), n) for i, n in enumerate(BONUS_NAMES["seasons"], 1)))
    events = MultiCheckboxField(lazy_gettext("How the winning tile came"))
    missing = LenientSelectField(lazy_gettext("Declared missing suit 定缺"),
                                 choices=choices([("", "none"), ("m", "Characters 萬"),
                                                  ("p", "Dots 筒"), ("s", "Bamboo 索")]))


class DiscardForm(CalculatorForm):
    """What to discard: the calculator's hand (14 tiles before the discard) and the tiles seen."""

    hand = StringField(lazy_gettext("Hand: 14 tiles, the one just drawn included"))
    seen = StringField(lazy_gettext("Tiles seen on the table"))
    draws = StringField(lazy_gettext("Draws left"))   # shown only when the outlook is asked for
    # a hand still waiting has no way of winning yet: either way counts (ruling 82)
    by = RadioField(lazy_gettext("How the hand was won"), choices=[], default="")


class TicksForm(DialsMixin, Form):
    """Tick-box mode: the patterns the hand qualifies for."""

    ticks = MultiCheckboxField(lazy_gettext("Patterns"))


def shown_name(name: Text) -> str:
    """A name in a choice: English with the family's Chinese on an English page, else the
    page language's Chinese alone."""
    lang = page_lang()
    return f"{name.en} {name.zh}".strip() if lang == "en" else name.in_lang(lang)


def _both(english: str, chinese: str) -> str:
    """A choice's English with the family's word beside it; the word alone on a Chinese page."""
    return f"{english} {chinese}" if page_lang() == "en" else chinese


def seat_labels(words) -> dict[str, str]:
    """Each seat as a choice names it: `East 东` (the family's wind) on an English page, the
    wind alone in the page's script on a Chinese one (`words`: the page's words)."""
    return {s: _both(SEAT_NAMES[s].split()[0], words.winds[s]) for s in SEATS}


def discarder_word(words) -> str:
    """The discarder in Chinese, in the family's own term (出銃者, 点炮者)."""
    return f"{words.discard}者"


def name_seats(form: Form, players: tuple[tuple[str, str], ...]) -> None:
    """The seat, discarder, already-won and liable choices named by who sits there ("阿明 (南)"):
    a page opened from a game sheet that names its players (web.table.sheet.carried_players)."""
    if not players:
        return
    named = dict(players)
    for name in ("seat", "discarder", "won", "liable"):
        field = getattr(form, name, None)
        if field is not None and field.choices:
            field.choices = [SelectChoice(c.value, f"{named[c.value]} ({c.label})" if c.value in named else c.label)
                             for c in field.choices]


BONUS_NAMES_ZH = {"zh-Hant": {"flowers": "梅蘭菊竹", "seasons": "春夏秋冬"},
                  "zh-Hans": {"flowers": "梅兰菊竹", "seasons": "春夏秋冬"}}


def set_choices(form: Form, ruleset: Ruleset, rulesets: list[Ruleset]) -> None:
    """Fill the choices that depend on the ruleset (and the page language)."""
    lang = page_lang()
    words = ruleset.words_in(lang)
    seats = choices(seat_labels(words).items())
    _set_dial_choices(form, ruleset, rulesets)
    _set_table_choices(form, words, seats)
    _set_hand_choices(form, ruleset, words, lang)
    if lang != "en":   # the family's own word: 出銃者 on a Hong Kong page, 点炮者 on a Sichuan one
        form.discarder.label.text = discarder_word(words)
        # (a message only Chinese pages look up: the English label stays "Who pays on a discard")
        form.payment.label.text = _("Who pays when a player deals in (%(discard)s)",
                                    discard=words.discard)
    # fields the templates leave out under this ruleset: an error about one of them is shown
    # with the loose errors, never lost
    form.hidden_fields = hidden_fields(ruleset)
    # a select shows its first choice when nothing is chosen: make that the ruleset's default
    if not form.rules.data:
        form.rules.data = ruleset.id
    if not form.payment.data:
        form.payment.data = ruleset.dials.payment


def _set_dial_choices(form: Form, ruleset: Ruleset, rulesets: list[Ruleset]) -> None:
    """The rules, curves, payment conventions and house rules to choose from."""
    listed = list(rulesets) if ruleset in rulesets else [*rulesets, ruleset]   # a club's variant too
    form.rules.choices = choices((r.id, shown_name(r.name)) for r in listed)
    form.curve.choices = choices([("", _("the convention's own"))] + [
        (c.id, shown_name(c.name)) for c in ruleset.curves.values()])
    form.payment.choices = choices((p.id, shown_name(p.name)) for p in ruleset.payments.values())
    options = [(p.id, shown_name(p.name)) for p in ruleset.patterns if p.optional]
    options += [(s.id, shown_name(s.name) + (_(" (round ledger)") if s.settlement else ""))
                for s in ruleset.switches]
    form.options.choices = choices(options)


def _set_table_choices(form: Form, words, seats: list[SelectChoice]) -> None:
    """The seats, the round, the way of winning, the discarder and the liable player."""
    for name in ("seat", "won"):
        if hasattr(form, name):
            getattr(form, name).choices = seats
    if hasattr(form, "round"):   # left as it is, the round is said as assumed (the East round)
        form.round.choices = choices([("", _("not said (East)"))]) + seats
    form.by.choices = choices([("discard", _both("On a discard", words.discard)),
                               ("self-draw", _both("Self-draw", words.self_draw))])
    if isinstance(form, DiscardForm):
        form.by.choices = choices([("", _("either way: not won yet"))]) + form.by.choices
    form.discarder.choices = choices([("", _("the next seat"))]) + seats
    form.liable.choices = choices([("", _("nobody"))]) + seats


def _set_hand_choices(form: Form, ruleset: Ruleset, words, lang: str) -> None:
    """The missing suit, where picked tiles go, the flowers, the events and the ticks."""
    if hasattr(form, "missing"):
        none = "none" if lang == "en" else _("none (no missing suit declared)")
        form.missing.choices = choices([("", none), ("m", _both("Characters", words.suits["m"])),
                                        ("p", _both("Dots", words.suits["p"])),
                                        ("s", _both("Bamboo", words.suits["s"]))])
    if hasattr(form, "target"):
        form.target.choices = choices([("hand", _("the hand")), ("meld", _("a new meld"))])
    for name in ("flowers", "seasons"):
        if lang != "en" and hasattr(form, name):
            getattr(form, name).choices = choices(
                (str(i), c) for i, c in enumerate(BONUS_NAMES_ZH[lang][name], 1))
    if hasattr(form, "events"):
        form.events.choices = choices((e.id, shown_name(e.name)) for e in ruleset.events.values())
    if hasattr(form, "ticks"):
        form.ticks.choices = choices((p.id, p.id) for p in ruleset.patterns)


def attach_errors(form: Form, errors: tuple[FieldError, ...]) -> list[str]:
    """Put each core error next to its field; return those that belong to no field."""
    loose = []
    hidden = getattr(form, "hidden_fields", set())
    for error in errors:
        field = getattr(form, error.field, None) if error.field and error.field not in hidden else None
        if field is not None and hasattr(field, "errors"):
            field.errors = list(field.errors or []) + [error.message]
        else:
            loose.append(loose_error(error))
    return loose


def loose_error(error: FieldError) -> str:
    """An error shown apart from the fields: "stake: …", the field named in the page language."""
    if not error.field:
        return error.message
    label = field_label(error.field)
    return Msg("{field}: {message}", field=Text(error.field, label, label), message=error.message)


PICKER_TILES = PLAYING_TILES


# --- The calculator's form without a WTForms form per request ---------------------------------
# Building CalculatorForm (about 25 bound fields) cost about as much as a whole /api/score
# answer, and rendering its fields through the macros ten times that. A field's HTML is a
# function of the ruleset (its choices, labels and defaults), the values the request gave that
# field and its errors, so FormView renders each macro once per such key with the real WTForms
# form and keeps it (fragments.py: what is kept, the key, the holes, the sizes). A typed text
# value (the hand, the stake …) is not in the key: the macro is rendered with a hole in its
# place, and each request writes its own escaped value there.

GROUP_FIELDS = {   # the fields each macro that takes a whole form reads (see macros.html)
    "table_fields": ("by", "seat", "round", "discarder", "won", "liable"),
    "dials": ("min", "cap", "curve", "payment", "stake", "options"),
}


def hidden_fields(ruleset: Ruleset) -> frozenset[str]:
    """Fields the templates leave out under this ruleset (see calculator.html and macros.html);
    worked out once a ruleset (kept by its id and identity, a few hundred at most, none alive)."""
    key = (ruleset.id, id(ruleset))
    found = _HIDDEN.get(key)
    if found is None:
        if len(_HIDDEN) >= 512:
            _HIDDEN.clear()
        found = _HIDDEN[key] = _hidden_fields(ruleset)
    return found


_HIDDEN: dict[tuple[str, int], frozenset[str]] = {}


def _hidden_fields(ruleset: Ruleset) -> frozenset[str]:
    options = any(p.optional for p in ruleset.patterns) or bool(ruleset.switches)
    return frozenset(name for name, shown in (
        ("events", bool(ruleset.events)), ("flowers", ruleset.flowers),
        ("seasons", ruleset.flowers), ("missing", ruleset.missing_suit),
        ("won", ruleset.conditions.won), ("liable", bool(ruleset.liability)),
        ("options", options)) if not shown)


@lru_cache(maxsize=8)
def _text_fields(form_class: type[Form]) -> dict[str, bool]:
    """Each field of a form class by name: True for a typed text field."""
    return {name: isinstance(field, StringField) for name, field in form_class()._fields.items()}


class FormView:
    """A form's raw values and errors; its macros rendered as kept fragments, filled per request."""

    def __init__(self, form_class: type[Form], data: MultiDict, ruleset: Ruleset,
                 rulesets: list[Ruleset], parts: FragmentCache):
        self.form_class, self.ruleset, self.rulesets, self.parts = form_class, ruleset, rulesets, parts
        self.text = _text_fields(form_class)
        self.raw = {name: tuple(data.getlist(name)) for name in data if name in self.text}
        self.errors: dict[str, list[str]] = {}
        self.hidden_fields = hidden_fields(ruleset)
        self.typed_placeholder = any(PLACEHOLDER in v for values in self.raw.values() for v in values)
        self.slots: dict[str, Markup] | None = None   # set while a section is rendered to be kept
        self.players: tuple[tuple[str, str], ...] = ()   # who sits where, from a carried sheet

    def data(self, name: str) -> str:
        """A text field's value as WTForms keeps it: the first one sent, else ''; while a
        section is rendered to be kept, the hole of a value that is there."""
        values = self.raw.get(name, ())
        if self.slots is not None and values and values[0]:
            return hole(name)
        return values[0] if values else ""

    def cached(self, name: str, *key, slots: dict[str, Markup], caller: Callable[[], str]) -> Markup:
        """A `{% call form.cached(name, …) %}` block of the page, rendered once for all it reads
        and kept: the key the template gives, the page's language as the address names it and its
        mount point, every field's choices and errors, and which typed fields hold text. Each
        request writes its own typed values, and the `slots` (parts rendered apart, such as the
        picker, shown with `form.slot(name)`), in their places."""
        sections = cache("kept_sections")
        if not sections.size or self.typed_placeholder or holds_placeholder(
                (key, list(self.errors.values()), list(slots.values()))):
            return Markup(caller())
        state = tuple((n, bool(self.data(n)) if self.text[n] else self.raw.get(n),
                       tuple(self.errors.get(n, ()))) for n in self.text)
        whole = ("section", name, frozen(key), state, explicit_lang(), request.script_root)
        return sections.fragment(whole, lambda: self._with_holes(slots, caller), lambda n: (
            str(slots[n]) if n in slots else str(escape(self.data(n)))))

    def _with_holes(self, slots: dict[str, Markup], caller: Callable[[], str]) -> str:
        """A section rendered to be kept: holes for its typed values and its slots."""
        self.slots = slots
        try:
            return caller()
        finally:
            self.slots = None

    def slot(self, name: str, slots: dict[str, Markup]) -> Markup:
        """A part of a kept section rendered apart (see `cached`): its hole while the section is
        rendered to be kept, else the part itself."""
        return hole(name) if self.slots is not None else slots[name]

    def attach_errors(self, errors: tuple[FieldError, ...]) -> list[str]:
        """Put each core error next to its field; return those that belong to no field."""
        loose = []
        for error in errors:
            if error.field in self.text and error.field not in self.hidden_fields:
                self.errors.setdefault(error.field, []).append(error.message)
            else:
                loose.append(loose_error(error))
        return loose

    def field(self, macro: str, name: str, *args) -> Markup:
        """macros.html's `macro(field, *args)` for one field of this form."""
        return self._part(macro, (name,), args, whole_form=False)

    def group(self, macro: str, *args) -> Markup:
        """macros.html's `macro(form, ruleset, *args)`, which reads the fields GROUP_FIELDS names."""
        return self._part(macro, GROUP_FIELDS[macro], args, whole_form=True)

    def _part(self, macro: str, names: tuple[str, ...], args: tuple, whole_form: bool) -> Markup:
        """One macro's HTML: kept for this form, ruleset, macro, arguments and fields' choices
        and errors; rendered whole when the request holds the placeholder."""
        fields = tuple((n, None if self.text[n] else self.raw.get(n), tuple(self.errors.get(n, ())))
                       for n in names)
        if not self.parts.size or self.typed_placeholder or holds_placeholder(fields):
            return self._render(macro, names, args, whole_form, holes=False)
        key = (self.form_class, self.ruleset.id, macro, args, fields, self.players)
        # inside a section being kept the holes stay, else each is this request's value
        fill = hole if self.slots is not None else (lambda n: str(escape(self.data(n))))
        return self.parts.fragment(key, lambda: self._render(macro, names, args, whole_form, holes=True),
                                   fill)

    def _render(self, macro: str, names: tuple[str, ...], args: tuple, whole_form: bool,
                holes: bool) -> Markup:
        """One macro on a real form holding these fields' values (typed text as holes)."""
        data = MultiDict()
        for n in names:
            if self.text[n] and holes:
                data.add(n, hole(n))
            else:
                for value in self.raw.get(n, ()):
                    data.add(n, value)
        form = self.form_class(data)
        set_choices(form, self.ruleset, self.rulesets)
        name_seats(form, self.players)
        for n in names:
            if n in self.errors:
                form[n].errors = list(self.errors[n])
        render = self.parts.macro(macro)
        return render(form, self.ruleset, *args) if whole_form else render(form[names[0]], *args)


def dials_summary(ruleset: Ruleset) -> str:
    """What the folded table rules say of themselves: each dial's value now, the ruleset's own
    where the address gives none ('minimum 3 fan · cap 13 · Full spicy · stake 1')."""
    args = request.args
    ticked = sum(1 for v in args.getlist("options") for v in v.split(",") if v)
    return _dials_summary(ruleset, page_lang(), args.get("curve", ""), args.get("payment", ""),
                          args.get("cap", "").strip(), args.get("min", "").strip(),
                          args.get("stake", "").strip(), ticked)


# A page's dials are one of a few combinations: each is worded once a language (gettext and
# the names cost more than the rest of the summary's page part).
@lru_cache(maxsize=512)
def _dials_summary(ruleset: Ruleset, lang: str, raw_curve: str, raw_payment: str, raw_cap: str,
                   raw_min: str, raw_stake: str, ticked: int) -> str:
    dials = ruleset.dials
    curve = ruleset.curves.get(raw_curve) or ruleset.curves.get(dials.curve)
    payment = ruleset.payments.get(raw_payment) or ruleset.payments.get(dials.payment)
    cap = raw_cap or (str(dials.cap) if dials.cap is not None else "")
    parts = [_("minimum %(fan)s fan", fan=raw_min or dials.min),
             _("cap %(fan)s", fan=cap) if cap else _("no cap")]
    parts += [c.name.in_lang(lang) for c in (curve, payment) if c is not None]
    parts.append(_("stake %(stake)s", stake=raw_stake or number(dials.stake)))
    if ticked:
        parts.append(_("1 house rule on") if ticked == 1 else
                     _("%(num)s house rules on", num=ticked))
    return " · ".join(str(p) for p in parts)
