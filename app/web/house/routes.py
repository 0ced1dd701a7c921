"""/house: a club builds its own variant of a family in the browser and shares it as a link.

The page is a GET form; what it makes is a `rules=family~code` value (app/rules/house.py)
that every page and the API read as they read a family's id.
"""
from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

from flask import Blueprint, Response, current_app, redirect, render_template, request

from app import vocabulary
from app.base.errors import HandError
from app.base.i18n import Msg
from app.rules.house import (
    DIAL_KEYS,
    House,
    HouseError,
    PatternChange,
    decode,
    differences,
    encode,
    file_id,
    is_house,
    known_detectors,
    problems,
    split,
)
from app.rules.model import Ruleset
from app.web.common.i18n import with_lang
from app.web.common.present import permalink

bp = Blueprint("house", __name__)

LANG_KEYS = ("en", "zh_hant", "zh_hans")
MAX_FIELD = 60


def _families() -> Mapping[str, Ruleset]:
    return current_app.extensions["rulesets"]


@bp.route("/house", methods=["GET", "POST"])
def house():
    """The form (GET), or its changes (POST: the form of every pattern is too long for an
    address), answered by a redirect to the variant's own GET address, `/house?rules=…&house=…`."""
    page = house_page(request.form if request.method == "POST" else request.args)
    if page["code"] and request.method == "POST":
        return redirect(with_lang(f"/house?{link_query(page['code'])}"), 303)
    return render_template("house.html", **page), 400 if page["errors"] else 200


@bp.post("/house/preview")
def house_preview():
    """The preview and the field errors of the form as it is typed (posted by static/house.js),
    rendered by the same code and template as the whole page; 400 while a field is wrong."""
    page = house_page(request.form)
    return render_template("house_preview.html", live=True, **page), 400 if page["errors"] else 200


def house_page(args: Mapping[str, str]) -> dict:
    """What the /house page shows for a form or a `rules=` code: the values, the errors beside
    their fields, the variant and its link, and the preview of the family's worked hands."""
    families = _families()
    errors: dict[str, list[str]] = {}
    given = args.get("rules", "").strip()
    start: House | None = None
    if given and is_house(given):
        try:
            start = decode(given)
        except HouseError as err:
            errors.setdefault("rules", []).append(err.message)
    base_id = args.get("base", "").strip() or (start.base if start else "") or "hong-kong"
    if base_id not in families or is_house(base_id):
        errors.setdefault("base", []).append(Msg("there is no family {rules} to change",
                                                  rules=repr(base_id[:40])))
        base_id = sorted(families)[0]
    base = families[base_id]
    if args.get("edit") == "1":
        made, field_errors = house_from_form(args, base)
    else:
        made, field_errors = (start if start and start.base == base_id else House(base_id)), []
    for name, message in field_errors:
        errors.setdefault(name, []).append(message)
    for name, message in problems(made, base):
        if name not in errors:   # a field already refused as typed is not judged again
            errors.setdefault(name, []).append(message)
    for name in [n for n in errors if n not in _slots(base)]:   # a code's own, no field of it
        errors.setdefault("", []).extend(errors.pop(name))
    variant = code = None
    if not errors:
        code = encode(made)
        try:
            variant = families.house(code)
        except HouseError as err:
            errors.setdefault("", []).append(err.message)
            code = None
    values = form_values(made, base)
    if args.get("edit") == "1":   # what was typed comes back as typed, wrong or not
        values.update({k: v[:MAX_FIELD] for k, v in args.items() if k in values or k.startswith("new.")})
        values.update({f"on.{p.id}": args.get(f"on.{p.id}", "") for p in base.patterns})
    return dict(
        base=base, families=sorted(families.values(), key=lambda r: r.id),
        values=values, errors=errors, code=code, variant=variant,
        changes=differences(variant, base) if variant else (), preview=preview(base, variant),
        links=links(code) if code else {}, detectors=known_detectors(), dial_keys=DIAL_KEYS)


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
    return ({"", "rules", "base", *DIAL_KEYS, "new.detect", "new.category", "new.fan", "new.name"}
            | {f"{kind}.{p.id}" for p in base.patterns for kind in ("fan", "excludes")}
            | {f"category.{c.id}" for c in base.categories} | {f"curve.{c}" for c in base.curves})


def house_from_form(args: Mapping[str, str], base: Ruleset) -> tuple[House, list[tuple[str, Msg]]]:
    """The variant the form describes: only what differs from the family is kept."""
    errors: list[tuple[str, Msg]] = []
    dials = []
    for key in DIAL_KEYS:
        raw = args.get(key, "").strip()[:MAX_FIELD]
        if not raw:
            continue
        if key in ("min", "cap"):
            if key == "cap" and raw.lower() == "none":
                value = None
            elif raw.isascii() and raw.isdigit() and len(raw) <= 2:
                value = int(raw)
            else:
                errors.append((key, Msg("'{raw}' is not a whole number of fan", raw=raw[:20])))
                continue
        else:
            value = raw
        if value != getattr(base.dials, key) and not (key == "stake" and _same_stake(raw, base)):
            dials.append((key, value))
    changes = []
    for p in base.patterns:
        fan = _fan(args.get(f"fan.{p.id}", ""), f"fan.{p.id}", errors)
        name = _names(args, f"name.{p.id}")
        counted = args.get(f"on.{p.id}") == "1"
        on = None if counted != p.optional else counted
        excludes = _ids(args.get(f"excludes.{p.id}", ""))
        change = PatternChange(
            p.id, fan if fan is not None and fan != p.fan else None,
            name if name and name != _own(p.name) else None, on,
            excludes=tuple(x for x in excludes if x not in p.replaces))
        if change != PatternChange(p.id):
            changes.append(change)
    new_id = args.get("new.id", "").strip().lower()[:40]
    if new_id:
        changes.append(PatternChange(new_id, _fan(args.get("new.fan", ""), "new.fan", errors),
                                     _names(args, "new"), None, args.get("new.detect", "").strip() or None,
                                     args.get("new.category", "").strip() or None,
                                     _ids(args.get("new.excludes", ""))))
    name = _names(args, "name")
    categories = tuple((c.id, names) for c in base.categories
                       if (names := _names(args, f"category.{c.id}")) and names != _own(c.name))
    curves = tuple((c.id, names) for c in base.curves.values()
                   if (names := _names(args, f"curve.{c.id}")) and names != _own(c.name))
    return House(base.id, name, tuple(sorted(dials)), tuple(changes), categories, curves), errors


def _own(name) -> tuple[str, str, str]:
    return (name.en, name.zh_hant, name.zh_hans)


def _same_stake(raw: str, base: Ruleset) -> bool:
    return raw == str(base.dials.stake)


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
    dials = dict(house.dials)
    values = {key: "" if dials.get(key, getattr(base.dials, key)) is None
              else str(dials.get(key, getattr(base.dials, key))) for key in DIAL_KEYS}
    if "cap" in dials and dials["cap"] is None:
        values["cap"] = "none"
    for k, v in zip(LANG_KEYS, house.name or ("", "", ""), strict=True):
        values[f"name.{k}"] = v
    by_id = {c.id: c for c in house.patterns}
    for p in base.patterns:
        c = by_id.get(p.id, PatternChange(p.id))
        values[f"fan.{p.id}"] = str(c.fan if c.fan is not None else p.fan)
        values[f"on.{p.id}"] = "1" if (c.on if c.on is not None else not p.optional) else ""
        for k, v in zip(LANG_KEYS, c.name or (p.name.en, p.name.zh_hant, p.name.zh_hans), strict=True):
            values[f"name.{p.id}.{k}"] = v
        values[f"excludes.{p.id}"] = " ".join(c.excludes)
    for kind, renames, known in (("category", house.categories, base.categories),
                                 ("curve", house.curves, base.curves.values())):
        given = dict(renames)
        for c in known:
            for k, v in zip(LANG_KEYS, given.get(c.id) or _own(c.name), strict=True):
                values[f"{kind}.{c.id}.{k}"] = v
    for c in house.patterns:
        if c.id not in base.by_id:
            values.update({"new.id": c.id, "new.fan": "" if c.fan is None else str(c.fan),
                           "new.detect": c.detect or "", "new.category": c.category or "",
                           "new.excludes": " ".join(c.excludes)})
            for k, v in zip(LANG_KEYS, c.name or ("", "", ""), strict=True):
                values[f"new.{k}"] = v
    return values


def preview(base: Ruleset, variant: Ruleset | None) -> list[dict]:
    """The family's worked hands priced under the family and under the variant."""
    rows = []
    for ex in base.examples:
        if "hand" not in ex.params:
            continue
        row = {"example": ex, "base": _priced({**ex.params, "rules": base.id})}
        if variant is not None:
            row["house"] = _priced({**ex.params, "rules": variant.id})
            row["link"] = with_lang(permalink({**ex.params, "rules": variant.id}))
        rows.append(row)
    return rows


def _priced(params: Mapping[str, str]) -> dict:
    try:
        calc = vocabulary.score(params, _families())
    except HandError as err:
        return {"fan": None, "why": err.errors[0].message}
    winner = next((p.amount for p in calc.payments if p.role == "winner"), 0)
    return {"fan": calc.score.capped_fan, "below": calc.score.below_minimum, "winner": winner}


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
