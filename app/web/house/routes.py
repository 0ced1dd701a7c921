"""/house: a club builds its own variant of a family in the browser and shares it as a link.

The page is a GET form; what it makes is a `rules=family~code` value (app/rules/house.py)
that every page and the API read as they read a family's id.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from flask import Blueprint, Response, current_app, g, redirect, render_template, request

from app import vocabulary
from app.base.errors import HandError
from app.base.i18n import Msg, quoted
from app.rules.house import (
    DIAL_KEYS,
    House,
    HouseError,
    PatternChange,
    decode,
    detector_names,
    differences,
    encode,
    file_id,
    is_house,
    problems,
    split,
    too_big,
)
from app.rules.model import Ruleset
from app.rules.stakes import read_stake, stake_refusal
from app.scoring.payments import fmt
from app.web.common.i18n import with_lang
from app.web.common.present import permalink

bp = Blueprint("house", __name__)

LANG_KEYS = ("en", "zh_hant", "zh_hans")
MAX_FIELD = 60


def _families() -> Mapping[str, Ruleset]:
    return current_app.extensions["rulesets"]


@dataclass(frozen=True, slots=True)
class HousePage:
    """What /house shows for a form or a `rules=` code (house.html, house_preview.html)."""

    base: Ruleset                       # the family changed
    families: tuple[Ruleset, ...]
    values: Mapping[str, str]           # the form's fields, as the variant has them or as typed
    errors: Mapping[str, list[Msg]]     # by field; "" for the errors of no field
    code: str | None                    # the variant's `family~code` (None while a field is wrong)
    variant: Ruleset | None
    changes: tuple                      # what differs from the family (house.differences)
    preview: list[PreviewRow]           # the family's worked hands priced both ways
    links: Mapping[str, str]            # where the variant is used
    detectors: tuple                    # what a new pattern may be found by: (id, its name)
    switched: bool = False              # the form was sent to start from another family


@bp.route("/house", methods=["GET", "POST"])
def house():
    """The form (GET), or its changes (POST: the form of every pattern is too long for an
    address), answered by a redirect to the variant's own GET address, `/house?rules=…&house=…`."""
    page = house_page(request.form if request.method == "POST" else request.args)
    if page.switched and request.method == "POST" and not page.errors:   # as house.js goes there
        return redirect(with_lang(f"/house?{urlencode({'base': page.base.id})}"), 303)
    g.page_rules = page.base.id   # the page speaks its family's words (page_words)
    if page.code and request.method == "POST":
        return redirect(with_lang(f"/house?{link_query(page.code)}"), 303)
    if request.method == "GET" and request.args.get("embed") == "1" and page.code and not page.errors:
        return render_template("house_embed.html", page=page, embed=True)   # in a lesson's frame
    return render_template("house.html", page=page), 400 if page.errors else 200


@bp.post("/house/preview")
def house_preview():
    """The preview and the field errors of the form as it is typed (posted by static/house.js),
    rendered by the same code and template as the whole page; 400 while a field is wrong."""
    page = house_page(request.form)
    g.page_rules = page.base.id
    return render_template("house_preview.html", live=True, page=page), 400 if page.errors else 200


def house_page(args: Mapping[str, str]) -> HousePage:
    """What the /house page shows for a form or a `rules=` code: the values, the errors beside
    their fields, the variant and its link, and the preview of the family's worked hands."""
    families = _families()
    errors: dict[str, list[Msg]] = {}
    start = _started(args.get("rules", "").strip(), errors)
    base = _base(args.get("base", "").strip() or (start.base if start else "") or "hong-kong", errors)
    switched = _switched(args, base)
    editing = args.get("edit") == "1" and not switched
    made, field_errors = house_from_form(args, base) if editing else (_kept(start, base), [])
    _judge(made, base, field_errors, errors)
    code, variant = _built(made, errors)
    values = form_values(made, base)
    if editing:   # what was typed comes back as typed, wrong or not
        values.update(_typed(args, values, base))
    return HousePage(
        base=base, families=tuple(sorted(families.values(), key=lambda r: r.id)),
        values=values, errors=errors, code=code, variant=variant,
        changes=differences(variant, base) if variant else (), preview=preview(base, variant),
        links=links(code) if code else {}, detectors=detector_names(base, families),
        switched=switched)


def _switched(args: Mapping[str, str], base: Ruleset) -> bool:
    """The form was sent with "Start from" naming another family than the one its fields were
    filled in for (`from`): those fields are the other family's and are left behind, and the
    new family starts from its own dials and patterns. (Without JavaScript; house.js opens the
    new family's page as soon as it is chosen.)"""
    return args.get("edit") == "1" and args.get("from", base.id).strip() != base.id


def _started(given: str, errors: dict[str, list[Msg]]) -> House | None:
    """The variant a `rules=` code names (None for a family's id, or a code that does not read)."""
    if not given or not is_house(given):
        return None
    try:
        return decode(given)
    except HouseError as err:
        errors.setdefault("rules", []).append(err.message)
        return None


def _base(base_id: str, errors: dict[str, list[Msg]]) -> Ruleset:
    """The family the form changes (the first one when `base=` names none)."""
    families = _families()
    if base_id not in families or is_house(base_id):
        errors.setdefault("base", []).append(Msg("there is no family {rules} to change",
                                                  rules=quoted(base_id[:40])))
        base_id = sorted(families)[0]
    return families[base_id]


def _kept(start: House | None, base: Ruleset) -> House:
    """The variant shown before any edit: the code's, when it changes this family."""
    return start if start and start.base == base.id else House(base.id)


def _judge(made: House, base: Ruleset, field_errors, errors: dict[str, list[Msg]]) -> None:
    """Add the form's errors and the variant's problems; those of no field shown go to the top."""
    for name, message in field_errors:
        errors.setdefault(name, []).append(message)
    for name, message in problems(made, base):
        if name not in errors:   # a field already refused as typed is not judged again
            errors.setdefault(name, []).append(message)
    for name in [n for n in errors if n not in _slots(base)]:   # a code's own, no field of it
        errors.setdefault("", []).extend(errors.pop(name))


def _built(made: House, errors: dict[str, list[Msg]]) -> tuple[str | None, Ruleset | None]:
    """The variant's code and ruleset, when the form has no error and the variant builds."""
    if not errors and (size := too_big(made)):   # of the form as a whole: shown at the top
        errors[""] = [size]
    if errors:
        return None, None
    code = encode(made)
    try:
        return code, _families().house(code)
    except HouseError as err:
        errors.setdefault("", []).append(err.message)
        return None, None


def _typed(args: Mapping[str, str], values: Mapping[str, str], base: Ruleset) -> dict[str, str]:
    """The fields as typed (cut to MAX_FIELD), a pattern's box unticked when it is not sent."""
    typed = {k: v[:MAX_FIELD] for k, v in args.items() if k in values or k.startswith("new.")}
    return typed | {f"on.{p.id}": args.get(f"on.{p.id}", "") for p in base.patterns}


@bp.get("/house.yaml")
def house_yaml():
    """The variant a `rules=` code names, as a YAML file extending its family."""
    rules = request.args.get("rules", "").strip()
    try:
        house = decode(rules)
        _families().house(rules)   # it builds: the file loads as the link prices
        text = _families().house_yaml(house)
    except HouseError as err:
        return Response(f"rules: {err.message}\n", status=400, mimetype="text/plain")
    return Response(text, mimetype="application/yaml", headers={
        "Content-Disposition": f'attachment; filename="{file_id(house)}.yaml"'})


def _slots(base: Ruleset) -> set[str]:
    """The fields house.html shows errors beside (the rest are shown at the top)."""
    return ({"", "rules", "base", *DIAL_KEYS, "new.id", "new.detect", "new.category", "new.fan",
             "new.name", "new.excludes"}
            | {f"{kind}.{p.id}" for p in base.patterns for kind in ("fan", "excludes")}
            | {f"category.{c.id}" for c in base.categories} | {f"curve.{c}" for c in base.curves})


def house_from_form(args: Mapping[str, str], base: Ruleset) -> tuple[House, list[tuple[str, Msg]]]:
    """The variant the form describes: only what differs from the family is kept."""
    errors: list[tuple[str, Msg]] = []
    dials = _dials(args, base, errors)
    changes = [c for p in base.patterns if (c := _pattern_change(args, p, errors)) != PatternChange(p.id)]
    new_id = args.get("new.id", "").strip().lower()[:40]
    if new_id:
        changes.append(PatternChange(new_id, _fan(args.get("new.fan", ""), "new.fan", errors),
                                     _names(args, "new"), None, args.get("new.detect", "").strip() or None,
                                     args.get("new.category", "").strip() or None,
                                     _ids(args.get("new.excludes", ""))))
    categories = _renames(args, "category", base.categories)
    curves = _renames(args, "curve", base.curves.values())
    return House(base.id, _names(args, "name"), dials, tuple(changes), categories, curves), errors


def _dials(args: Mapping[str, str], base: Ruleset, errors: list) -> tuple[tuple[str, object], ...]:
    """The dials the form sets otherwise than the family, sorted by key."""
    dials = []
    for key in DIAL_KEYS:
        raw = args.get(key, "").strip()[:MAX_FIELD]
        if not raw:
            continue
        try:
            value = _dial(key, raw)
        except ValueError:
            errors.append((key, stake_refusal(raw) if key == "stake"
                           else Msg("'{raw}' is not a whole number of fan", raw=raw[:20])))
            continue
        if value != getattr(base.dials, key):
            dials.append((key, value))
    return tuple(sorted(dials))


def _dial(key: str, raw: str) -> object:
    """A dial's value as typed: min and cap are whole numbers of fan (cap may be none); the
    stake a whole number, a decimal or a fraction, read as `stake=` is (app/rules/stakes.py)."""
    if key == "stake":
        stake = read_stake(raw)
        if stake is None:
            raise ValueError(raw)
        return stake
    if key not in ("min", "cap"):
        return raw
    if key == "cap" and raw.lower() == "none":
        return None
    if raw.isascii() and raw.isdigit() and len(raw) <= 2:
        return int(raw)
    raise ValueError(raw)


def _pattern_change(args: Mapping[str, str], p, errors: list) -> PatternChange:
    """What the form changes of one pattern: its fan, names, whether it counts, what it excludes."""
    fan = _fan(args.get(f"fan.{p.id}", ""), f"fan.{p.id}", errors)
    name = _names(args, f"name.{p.id}")
    counted = args.get(f"on.{p.id}") == "1"
    excludes = _ids(args.get(f"excludes.{p.id}", ""))
    return PatternChange(
        p.id, fan if fan is not None and fan != p.fan else None,
        name if name and name != _own(p.name) else None, None if counted != p.optional else counted,
        excludes=tuple(x for x in excludes if x not in p.replaces))


def _renames(args: Mapping[str, str], kind: str, known) -> tuple:
    """The tables of patterns (or curves) the form names otherwise: (id, names)."""
    return tuple((c.id, names) for c in known
                 if (names := _names(args, f"{kind}.{c.id}")) and names != _own(c.name))


def _own(name) -> tuple[str, str, str]:
    return (name.en, name.zh_hant, name.zh_hans)


def _fan(raw: str, field: str, errors: list) -> int | None:
    raw = raw.strip()
    if not raw:
        return None
    if raw.isascii() and raw.isdigit() and len(raw) <= 2:
        return int(raw)
    errors.append((field, Msg("'{raw}' is not a whole number of fan", raw=raw[:20])))
    return None


def _names(args: Mapping[str, str], prefix: str) -> tuple[str, str, str] | None:
    names = tuple(args.get(f"{prefix}.{k}", "").strip()[:MAX_FIELD] for k in LANG_KEYS)
    return names if any(names) else None   # type: ignore[return-value]


def _ids(raw: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(x for x in raw.replace(",", " ").split() if x))[:20]


def form_values(house: House, base: Ruleset) -> dict[str, str]:
    """The form's fields filled in as the variant has them (the family's where unchanged)."""
    values = _dial_values(house, base)
    values.update(_lang_values("name", house.name or ("", "", "")))
    by_id = {c.id: c for c in house.patterns}
    for p in base.patterns:
        values.update(_pattern_values(by_id.get(p.id, PatternChange(p.id)), p))
    for kind, renames, known in (("category", house.categories, base.categories),
                                 ("curve", house.curves, base.curves.values())):
        given = dict(renames)
        for c in known:
            values.update(_lang_values(f"{kind}.{c.id}", given.get(c.id) or _own(c.name)))
    for c in house.patterns:
        if c.id not in base.by_id:
            values.update(_new_values(c))
    return values


def _lang_values(prefix: str, names) -> dict[str, str]:
    """A name's three fields: `<prefix>.en`, `.zh_hant`, `.zh_hans`."""
    return {f"{prefix}.{k}": v for k, v in zip(LANG_KEYS, names, strict=True)}


def _dial_values(house: House, base: Ruleset) -> dict[str, str]:
    """The dials' fields: the variant's, else the family's (no cap: "" from the family, "none" set)."""
    dials = dict(house.dials)
    values = {}
    for key in DIAL_KEYS:
        value = dials.get(key, getattr(base.dials, key))
        values[key] = "" if value is None else fmt(value) if key == "stake" else str(value)
    if "cap" in dials and dials["cap"] is None:
        values["cap"] = "none"
    return values


def _pattern_values(c: PatternChange, p) -> dict[str, str]:
    """One pattern's fields: its fan, its box, its names and what it excludes."""
    return {f"fan.{p.id}": str(c.fan if c.fan is not None else p.fan),
            f"on.{p.id}": "1" if (c.on if c.on is not None else not p.optional) else "",
            **_lang_values(f"name.{p.id}", c.name or (p.name.en, p.name.zh_hant, p.name.zh_hans)),
            f"excludes.{p.id}": " ".join(c.excludes)}


def _new_values(c: PatternChange) -> dict[str, str]:
    """The fields of the pattern the variant adds."""
    return {"new.id": c.id, "new.fan": "" if c.fan is None else str(c.fan),
            "new.detect": c.detect or "", "new.category": c.category or "",
            "new.excludes": " ".join(c.excludes), **_lang_values("new", c.name or ("", "", ""))}


@dataclass(frozen=True, slots=True)
class Priced:
    """A worked hand priced under one ruleset: its fan and the winner's amount, or why not."""

    fan: int | None            # None: refused
    why: str | Msg = ""        # the refusal
    below: bool = False        # below the minimum
    winner: object = None      # the winner's amount (None when refused)


@dataclass(frozen=True, slots=True)
class PreviewRow:
    """A family's worked hand priced under the family and under the variant (once it builds)."""

    example: object
    base: Priced
    house: Priced | None = None
    link: str = ""             # the hand under the variant, in the calculator

    @property
    def differs(self) -> bool:
        """The variant prices it otherwise (its fan or the winner's amount)."""
        return self.house is not None and (self.house.fan != self.base.fan or self.house.winner != self.base.winner)


def preview(base: Ruleset, variant: Ruleset | None) -> list[PreviewRow]:
    """The family's worked hands priced under the family and under the variant."""
    rows = []
    for ex in base.examples:
        if "hand" not in ex.params:
            continue
        priced = _priced({**ex.params, "rules": base.id})
        if variant is None:
            rows.append(PreviewRow(ex, priced))
            continue
        rows.append(PreviewRow(ex, priced, _priced({**ex.params, "rules": variant.id}),
                               with_lang(permalink({**ex.params, "rules": variant.id}))))
    return rows


def _priced(params: Mapping[str, str]) -> Priced:
    try:
        calc = vocabulary.score(params, _families())
    except HandError as err:
        return Priced(None, err.errors[0].message)
    winner = next((p.amount for p in calc.payments if p.role == "winner"), 0)
    return Priced(calc.score.capped_fan, below=calc.score.below_minimum, winner=winner)


def link_query(code: str) -> str:
    """A variant's id as a link's query: `rules=<family>&house=<code>`."""
    family, house = split(code)
    return urlencode({"rules": family, "house": house})


def links(code: str) -> dict[str, str]:
    """Where the variant is used: each page, with its `rules=<family>&house=<code>` and the
    page's language."""
    family, house = split(code)
    query = link_query(code)
    return {name: with_lang(f"{path}?{query}") for name, path in (
        ("calculator", "/"), ("ticks", "/ticks"), ("sheet", "/sheet"), ("round", "/round"),
        ("practice", "/practice"), ("discard", "/discard"))} | {
        "rules": with_lang(f"/rules/{family}?{urlencode({'house': house})}"),
        "yaml": f"/house.yaml?{query}"}
