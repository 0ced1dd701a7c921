"""A club's variant of a rule family, carried in a link: `rules=hong-kong~1<code>`.

The code is a small versioned document of changes to the family (dials, patterns switched on
or off, fan values, names in three languages, patterns added from the existing detectors and
what they exclude, new names for its tables of patterns and its curves). It is JSON, deflated
and written in URL-safe base64, and read back without YAML: strict JSON of known keys and
types only, bounded in size before and after inflating. The changes become the same data a YAML file with `extends:` would hold, and go
through the same loader and schema (loader._extended, checks.build_ruleset), so the link and
the downloaded YAML file price every hand alike.

>>> house = House("hong-kong", dials=(("cap", 10),), patterns=(PatternChange("seven-pairs", fan=4, on=True),))
>>> text = encode(house)
>>> text.startswith("hong-kong~1") and decode(text) == house
True
"""
from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from app.base.i18n import Msg, quoted
from app.base.jsontext import nesting_depth
from app.hands.phrases import plain

from .checks import IDENTIFIER
from .detectors import DETECTORS
from .model import Amount, Ruleset, WorkedExample
from .stakes import read_stake, stake_code, stake_data

MARK = "~"             # between the family's id and the code
VERSION = "1"          # the code's format; a newer one is refused with a clear message
MAX_CODE = 1200        # characters of code after the version
MAX_JSON = 8192        # bytes once inflated
MAX_CHANGES = 60       # pattern changes in one variant
MAX_NAME = 60          # characters of a name in one language
MAX_DEPTH = 6          # brackets inside brackets (a code this calculator writes uses 4)
LANG_KEYS = ("en", "zh_hant", "zh_hans")
DIAL_KEYS = ("min", "cap", "curve", "payment", "stake")
_CODE = re.compile(r"[A-Za-z0-9_-]+")

# Version 1's deflate dictionary: the words a code most often holds. Never edit it: codes
# already in links inflate with it (a new dictionary is a new VERSION).
_WORDS_V1 = (
    "all-chows self-draw round-wind-pong seat-wind-pong dragon-pong own-flower own-season "
    "no-flowers-at-all all-four-flowers all-four-seasons robbing-the-kong kong-replacement "
    "all-pongs half-flush small-three-dragons seven-pairs full-flush four-concealed-pongs "
    "great-three-dragons small-four-winds great-four-winds all-honours all-terminals "
    "thirteen-orphans four-kongs all-eight-flowers doubling family one-point three-points "
    "four-points six-points concealed-hand mixed-orphans full-flush-classical "
    "small-four-winds-8 seat-wind round-wind complete-flower-set complete-season-set "
    "no-bonus-tiles last-tile last-tile-plus-self-draw last-discard kong-replacement-win "
    "flower-replacement-win seven-flowers seven-flowers-plus-self-draw eight-flowers "
    "eight-flowers-limit kong-on-kong kong-on-kong-limit four-concealed-pongs-mixed-orphans "
    "four-concealed-pongs-limit small-four-winds-limit nine-gates heavenly-hand earthly-hand "
    "earthly-hand-self-drawn full-spicy half-spicy hkma cantonese-traditional "
    "wikipedia-pays-all wikipedia-split casual-double casual-pays-all cosmopolitan amy-lo "
    "hand-patterns honours flowers how-you-won limit-hands mixed-terminals jade-dragon "
    "ruby-dragon pearl-dragon discarder-pays-half discarder-pays-all honour-sets "
    "special-hands house-rules root all-pungs golden-wait win-after-kong shooting-after-kong "
    "under-the-sea sbr same-tile pung-based suit-based special going-out base-win "
    "all-triplets golden-hook dragon-seven-pairs eighteen-arhats pure-all-triplets "
    "pure-golden-hook pure-seven-pairs pure-dragon-seven-pairs all-one-suit "
    "terminals-everywhere no-terminals kong-blossom kong-cannon linear sichuan tiers add-ons "
    "all_bonus_tiles all_chows all_flowers all_honours all_pongs all_pongs_single_wait "
    "all_seasons all_simples all_terminals always concealed_hand concealed_hand_no_kongs "
    "dragon_pongs four_concealed_pongs four_concealed_pongs_no_kongs four_kongs full_flush "
    "golden_hook great_four_winds great_three_dragons half_flush jade_dragon "
    "nine_gates_true_wait_on_discard no_bonus_tiles own_flower own_season pearl_dragon "
    "pure_nine_gates roots round_wind_pong ruby_dragon seat_wind_pong self_draw seven_pairs "
    "seven_pairs_with_quad small_four_winds small_three_dragons standard_shape "
    "terminals_and_honours terminals_everywhere thirteen_orphans "
    '{"d":{"cap":10,"min":3,"payment":"","curve":"","stake":"1"},"n":["","",""],'
    '"p":[["",{"c":"","d":"","x":[""]}],["",{"f":1}],["",{"o":0}],["",{"o":1}],["",{"f":'
)
_ZDICT = "".join(_WORDS_V1).encode()


class HouseError(ValueError):
    """A house code that cannot be read; `message` is the sentence shown beside `rules`."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message)
        self.message = message


Names = tuple[str, str, str]   # en, zh_hant, zh_hans; "" keeps the family's own


@dataclass(frozen=True, slots=True)
class PatternChange:
    """What a variant changes about one pattern, or a pattern it adds (detect and category)."""

    id: str
    fan: int | None = None
    name: Names | None = None
    on: bool | None = None             # True: counted always; False: a house rule left off
    detect: str | None = None          # a new pattern: the detector that finds it
    category: str | None = None        # a new pattern: the category it is listed under
    excludes: tuple[str, ...] = ()     # patterns that do not count beside it


Renames = tuple[tuple[str, Names], ...]   # (id, names) of categories or curves, by id


@dataclass(frozen=True, slots=True)
class House:
    """A variant of the family `base`: its name, its dials, its pattern changes and the new
    names it gives the family's categories (the tables of patterns) and curves."""

    base: str
    name: Names | None = None
    dials: tuple[tuple[str, Any], ...] = ()
    patterns: tuple[PatternChange, ...] = ()
    categories: Renames = ()
    curves: Renames = ()


def is_house(rules: str) -> bool:
    """Whether a `rules` value names a variant (family~code) rather than a shipped family."""
    return MARK in rules


def joined(rules: str, house: str) -> str:
    """The variant id of a link's `rules=<family>&house=<code>` (the code with its version);
    a `house` given beside a variant's id replaces that variant's code.

    >>> joined("hong-kong", "1abc"), joined("hong-kong~1old", "1abc"), joined("sichuan", "")
    ('hong-kong~1abc', 'hong-kong~1abc', 'sichuan')
    """
    if not house:
        return rules
    return f"{rules.partition(MARK)[0]}{MARK}{house}"


def split(rules: str) -> tuple[str, str]:
    """A `rules` value as a link's two fields: the family and the house code ('' for none).

    >>> split("hong-kong~1abc"), split("sichuan")
    (('hong-kong', '1abc'), ('sichuan', ''))
    """
    family, _, code = rules.partition(MARK)
    return family, code


# --- the code -------------------------------------------------------------------------


def encode(house: House) -> str:
    """The `rules` value of a variant: the family id, the mark, the version and the code."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, zdict=_ZDICT)
    packed = packer.compress(_raw(house)) + packer.flush()
    return f"{house.base}{MARK}{VERSION}{base64.urlsafe_b64encode(packed).decode().rstrip('=')}"


def too_big(house: House) -> Msg | None:
    """Why a variant's code would be refused for its size when read back (`decode`), or None."""
    code = encode(house).partition(MARK)[2][len(VERSION):]
    if len(code) > MAX_CODE or len(_raw(house)) > MAX_JSON:
        return Msg("these changes are too many for one link: rename or change fewer patterns")
    return None


def _raw(house: House) -> bytes:
    """The variant's document as the code holds it before deflating: compact JSON."""
    doc: dict[str, Any] = {}
    if house.name:
        doc["n"] = list(house.name)
    if house.dials:   # a stake is exact in a code: "2", "1/2" (never a float)
        doc["d"] = {k: stake_code(v) if k == "stake" else v for k, v in house.dials}
    if house.patterns:
        doc["p"] = [_pattern_doc(p) for p in house.patterns]
    if house.categories:
        doc["c"] = {cid: list(names) for cid, names in house.categories}
    if house.curves:
        doc["v"] = {cid: list(names) for cid, names in house.curves}
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def _pattern_doc(p: PatternChange) -> list:
    change: dict[str, Any] = {}
    if p.fan is not None:
        change["f"] = p.fan
    if p.name:
        change["n"] = list(p.name)
    if p.on is not None:
        change["o"] = int(p.on)
    if p.detect:
        change["d"] = p.detect
    if p.category:
        change["c"] = p.category
    if p.excludes:
        change["x"] = list(p.excludes)
    return [p.id, change]


def decode(rules: str) -> House:
    """Read a `rules` value naming a variant back into its House, or raise HouseError."""
    base, _, rest = rules.partition(MARK)
    if not IDENTIFIER.fullmatch(base):
        raise HouseError(Msg("the club rules start with the id of a family, such as hong-kong"))
    if not rest or rest[0] != VERSION:
        if rest[:1].isdigit():
            raise HouseError(Msg("these club rules were written by a newer version of the"
                                 " calculator (format {version}); this one reads format {ours}",
                                 version=rest[0], ours=VERSION))
        raise HouseError(Msg("the club rules code is not one this calculator wrote"))
    code = rest[1:]
    if len(code) > MAX_CODE:
        raise HouseError(Msg("the club rules code is too long ({n} characters; at most {most})",
                             n=len(code), most=MAX_CODE))
    if not _CODE.fullmatch(code):
        raise _damaged()
    try:
        packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
        unpacker = zlib.decompressobj(-15, zdict=_ZDICT)
        raw = unpacker.decompress(packed, MAX_JSON)
        if unpacker.unconsumed_tail or not unpacker.eof:
            raise _damaged()
        text = raw.decode("utf-8")
    except (binascii.Error, zlib.error, UnicodeDecodeError):
        raise _damaged() from None
    if nesting_depth(text) > MAX_DEPTH:   # before json.loads, which recurses once a bracket
        raise HouseError(Msg("the club rules code is damaged: its data nests more than {most}"
                             " levels deep", most=MAX_DEPTH))
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise _damaged() from None
    if _STRING_ESCAPE_SURROGATE.search(text) and not _whole_text(doc):
        raise HouseError(Msg("the club rules code is damaged: a name in it holds half of a"
                             " character (a lone surrogate)"))
    return _house(base, doc)


_STRING_ESCAPE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _whole_text(doc: Any) -> bool:
    """Whether every string in a decoded document is whole text: JSON's `\\ud800` escapes
    read as a lone half of a surrogate pair, which no page, file or database can write."""
    try:
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _damaged() -> HouseError:
    """The one refusal of a code that does not read: what went wrong inside helps nobody."""
    return HouseError(Msg("the club rules code is damaged: copy the whole link again"))


def _house(base: str, doc: Any) -> House:
    """The House a decoded document describes: known keys and types only."""
    if not isinstance(doc, dict) or set(doc) - {"n", "d", "p", "c", "v"}:
        raise _damaged()
    name = _names(doc["n"]) if "n" in doc else None
    dials = doc.get("d", {})
    if not isinstance(dials, dict) or set(dials) - set(DIAL_KEYS):
        raise _damaged()
    if "stake" in dials:   # the stake as the form and `stake=` read it: 2, 0.5, 1/3
        dials["stake"] = read_stake(dials["stake"]) if isinstance(dials["stake"], str) else None
    for key, value in dials.items():
        if key in ("min", "cap") and not (value is None and key == "cap") and not (
                isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 99):
            raise _damaged()
        if key in ("curve", "payment") and not (isinstance(value, str) and IDENTIFIER.fullmatch(value)):
            raise _damaged()
        if key == "stake" and value is None:
            raise _damaged()
    changes = doc.get("p", [])
    if not isinstance(changes, list) or len(changes) > MAX_CHANGES:
        raise _damaged()
    return House(base, name, tuple(sorted(dials.items())), tuple(map(_change, changes)),
                 _renames(doc.get("c", {})), _renames(doc.get("v", {})))


def _renames(value: Any) -> Renames:
    if not (isinstance(value, dict) and len(value) <= MAX_CHANGES
            and all(isinstance(k, str) and IDENTIFIER.fullmatch(k) for k in value)):
        raise _damaged()
    return tuple(sorted((k, _names(v)) for k, v in value.items()))


def _change(entry: Any) -> PatternChange:
    if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)
            and IDENTIFIER.fullmatch(entry[0]) and isinstance(entry[1], dict)
            and not set(entry[1]) - {"f", "n", "o", "d", "c", "x"}):
        raise _damaged()
    pid, change = entry
    fan = change.get("f")
    if fan is not None and not (isinstance(fan, int) and not isinstance(fan, bool) and 0 <= fan <= 99):
        raise _damaged()
    on = change.get("o")
    if on not in (None, 0, 1) or isinstance(on, bool):
        raise _damaged()
    detect, category = change.get("d"), change.get("c")
    for ident in (detect, category):
        if ident is not None and not (isinstance(ident, str) and re.fullmatch(r"[a-z0-9_-]{1,40}", ident)):
            raise _damaged()
    excludes = change.get("x", [])
    if not (isinstance(excludes, list) and len(excludes) <= MAX_CHANGES and all(
            isinstance(x, str) and IDENTIFIER.fullmatch(x) for x in excludes)):
        raise _damaged()
    return PatternChange(pid, fan, _names(change["n"]) if "n" in change else None,
                         None if on is None else bool(on), detect, category, tuple(excludes))


def _names(value: Any) -> Names:
    if not (isinstance(value, list) and len(value) == 3 and all(
            isinstance(v, str) and len(v) <= MAX_NAME for v in value)):
        raise _damaged()
    return (value[0].strip(), value[1].strip(), value[2].strip())


# --- the changes as ruleset data ------------------------------------------------------


def file_id(house: House) -> str:
    """The id of the variant as a YAML file: the family's id and `-club`."""
    return f"{house.base}-club"


def overlay(house: House, base: Ruleset) -> dict[str, Any]:
    """The variant as the data of a YAML file that `extends:` the family (see loader)."""
    data: dict[str, Any] = {"extends": house.base, "id": file_id(house),
                            "name": _name_data(house.name, base.name, club=True)}
    if house.dials:
        data["dials"] = {k: stake_data(v) if k == "stake" else v for k, v in house.dials}
    shapes: dict[str, Any] = {}
    entries: dict[str, dict[str, Any]] = {}

    def entry(pid: str) -> dict[str, Any]:
        return entries.setdefault(pid, {"id": pid})

    for change in house.patterns:
        known = base.by_id.get(change.id)
        e = entry(change.id)
        if known is None:   # a new pattern, from a detector
            e.update(name=_name_data(change.name, None), fan=change.fan or 0,
                     category=change.category or "", detect=change.detect or "")
        else:
            if change.fan is not None:
                e["fan"] = change.fan
            if change.name:
                e["name"] = _name_data(change.name, known.name)
            if change.on is True and known.optional:
                e["optional"] = False
                if known.supersedes:   # always on: what it supersedes is left off as a house rule
                    e["supersedes"] = []
                    for other in known.supersedes:
                        entry(other)["optional"] = True
                for shape in ("seven_pairs", "thirteen_orphans"):
                    if getattr(base, shape) == change.id:
                        shapes[shape] = True
            elif change.on is False and not known.optional:
                e["optional"] = True
                for shape in ("seven_pairs", "thirteen_orphans"):
                    if getattr(base, shape) is True and known.detect == shape:
                        shapes[shape] = change.id
        if change.excludes:
            e["replaces"] = sorted(set(known.replaces if known else ()) | set(change.excludes))
    if shapes:
        data["shapes"] = shapes
    if entries:
        data["patterns"] = list(entries.values())
    categories = {c.id: c for c in base.categories}
    for key, renames, known in (("categories", house.categories, categories),
                                ("curves", house.curves, base.curves)):
        if renames:   # an unknown id is left for the schema to name (problems() names it first)
            data[key] = [{"id": cid, "name": _name_data(names, known[cid].name if cid in known else None)}
                         for cid, names in renames]
    return data


def _name_data(names: Names | None, base, club: bool = False) -> dict[str, str]:
    """A name in the three languages: the variant's own where given, else the family's."""
    own = dict(zip(LANG_KEYS, names or ("", "", ""), strict=True))
    if base is None:
        return {k: own[k] or own["en"] or "?" for k in LANG_KEYS}
    if club:
        fallback = {"en": f"{base.en} (club rules)", "zh_hant": f"枱例：{base.zh_hant}",
                    "zh_hans": f"自家玩法：{base.zh_hans}"}
    else:
        fallback = {k: getattr(base, k) for k in LANG_KEYS}
    return {k: own[k] or fallback[k] for k in LANG_KEYS}


# What scoring makes of a hand under a ruleset: its fan total and each seat's payment (given by
# app.scoring, which this layer cannot import; None, None for a hand that is refused).
Price = Callable[[Ruleset, Mapping[str, str]], tuple[int | None, Mapping[str, Amount] | None]]


def with_examples(variant: Ruleset, base: Ruleset, price: Price) -> Ruleset:
    """The variant with its family's worked and pattern examples, priced under the variant.

    Each example keeps the family's own beside it (`before`), so a page can mark what the house
    changes did to it ("was 6 fan"). A pattern the variant removed takes its example with it.
    """
    worked = tuple(replace(ex, total_fan=fan, payments=paid, before=ex)
                   for ex in base.examples for fan, paid in [price(variant, ex.params)])
    patterns = {}
    for p in variant.patterns:
        family = base.by_id.get(p.id)
        if p.example_params is None or family is None or family.example_params is None:
            continue
        was = WorkedExample(p.id, family.name, family.explain, family.example_params,
                            *price(base, family.example_params))
        patterns[p.id] = WorkedExample(p.id, p.name, p.explain, p.example_params,
                                       *price(variant, p.example_params), before=was)
    return replace(variant, examples=worked, pattern_examples=patterns)


def known_detectors() -> tuple[str, ...]:
    """The detectors a variant may add a pattern with."""
    return tuple(sorted(DETECTORS))


ALWAYS = Msg("in every winning hand (for a pattern that rests on an event or a tick)")


def detector_names(base: Ruleset, families: Mapping[str, Ruleset]) -> tuple[tuple[str, Any], ...]:
    """Each detector with the name a reader knows it by: the name of a pattern found by it, the
    family's own first, then a family with the same words; a detector only another family's
    patterns use is left out of the list (its name is that family's word; a form may still post
    it). A page shows names, never the engine's ids (review B-06)."""
    alike = sorted((r for r in families.values() if r.id != base.id and r.words == base.words),
                   key=lambda r: r.id)
    found: dict[str, tuple[Any, Ruleset]] = {}
    for ruleset in (base, *alike):
        for pattern in ruleset.patterns:
            if pattern.detect:
                found.setdefault(pattern.detect, (pattern.name, ruleset))
    seen = Counter((name.zh_hant, name.zh_hans) for name, _ in found.values())
    named: dict[str, Any] = {"always": ALWAYS}
    for detect, (name, ruleset) in found.items():   # two detectors of one name: whose each is
        twice = seen[name.zh_hant, name.zh_hans] > 1
        named[detect] = Msg("{name}, as {rules} counts it", name=name, rules=plain(ruleset.name)) \
            if twice else name
    return tuple((d, named[d]) for d in known_detectors() if d in named)


# --- checking a variant against its family, field by field ------------------------------


def problems(house: House, base: Ruleset) -> list[tuple[str, Msg]]:
    """What is wrong with a variant, each beside the form field it comes from.

    The field names are the /house form's: min, cap, curve, payment, stake, fan.<id>,
    name.<id>, excludes.<id>, and new.id, new.detect, new.category, new.fan, new.name and
    new.excludes for an added pattern.
    Whatever passes here is checked again, whole, by the ruleset schema when it is built.
    """
    found: list[tuple[str, Msg]] = []
    dials = dict(house.dials)
    low, high = base.min_range
    if "min" in dials and not low <= dials["min"] <= high:
        found.append(("min", Msg("{n} is outside {low}-{high}", n=dials["min"], low=low, high=high)))
    low, high = base.cap_range
    if dials.get("cap") is not None and not low <= dials["cap"] <= high:
        found.append(("cap", Msg("{n} is outside {low}-{high}", n=dials["cap"], low=low, high=high)))
    if dials.get("cap") is None and "cap" in dials and not base.uncapped:
        found.append(("cap", Msg("{rules} always has a cap", rules=base.name.en)))
    cap = dials.get("cap", base.dials.cap)
    minimum = dials.get("min", base.dials.min)
    if cap is not None and minimum > cap:
        found.append(("cap", Msg("the cap {cap} is below the minimum {min}", cap=cap, min=minimum)))
    if "curve" in dials and dials["curve"] not in base.curves:
        found.append(("curve", Msg("unknown curve {curve}; choose one of {ids}",
                                   curve=quoted(dials["curve"]), ids=", ".join(base.curves))))
    if "payment" in dials and dials["payment"] not in base.payments:
        found.append(("payment", Msg("unknown payment convention {payment}; choose one of {ids}",
                                     payment=quoted(dials["payment"]), ids=", ".join(base.payments))))
    categories = {c.id for c in base.categories}
    ids = set(base.by_id) | {p.id for p in house.patterns}
    seen: set[str] = set()
    found += [(f"category.{cid}", Msg("unknown table of patterns {id} in {rules}", id=quoted(cid),
                                       rules=base.name.en))
              for cid, _ in house.categories if cid not in categories]
    found += [(f"curve.{cid}", Msg("unknown curve {curve}; choose one of {ids}", curve=quoted(cid),
                                   ids=", ".join(base.curves)))
              for cid, _ in house.curves if cid not in base.curves]
    for p in house.patterns:
        if p.id in seen:
            found.append((f"fan.{p.id}", Msg("{pattern} is changed twice", pattern=p.id)))
        seen.add(p.id)
        added = p.id not in base.by_id
        if not added and (p.detect or p.category):   # the form's new pattern, named as an old one
            found.append(("new.id", Msg("{pattern} is already a pattern of {rules}; give the new"
                                        " pattern an id of its own", pattern=p.id, rules=base.name.en)))
        if added:
            if not IDENTIFIER.fullmatch(p.id) or len(p.id) > 40:
                found.append(("new.id", Msg("'{id}' is not an id: use lower-case letters and digits,"
                                            " words joined by hyphens", id=p.id[:40])))
            if p.detect not in DETECTORS:
                found.append(("new.detect", Msg("choose what finds the new pattern in the tiles")))
            if p.category not in categories:
                found.append(("new.category", Msg("choose the table the new pattern is listed in")))
            if p.fan is None:
                found.append(("new.fan", Msg("give the new pattern its fan")))
            if not p.name or not p.name[0]:
                found.append(("new.name", Msg("give the new pattern a name in English")))
        for other in p.excludes:
            if other not in ids or other == p.id:
                found.append(("new.excludes" if added else f"excludes.{p.id}",
                              Msg("unknown pattern {pattern} in {rules}", pattern=quoted(other),
                                  rules=plain(base.name))))
    return found


@dataclass(frozen=True, slots=True)
class Difference:
    """One way a variant differs from its family, for the rules page and the preview."""

    pattern: str | None   # the pattern's id, or None for a dial, a category or a curve
    what: str             # fan, name, on, off, new, excludes, category, curve-name, or a dial
    before: Any
    after: Any


def differences(variant: Ruleset, base: Ruleset) -> tuple[Difference, ...]:
    """Every dial and pattern of the variant that is not as the family has it."""
    found = [Difference(None, key, getattr(base.dials, key), getattr(variant.dials, key))
             for key in DIAL_KEYS if getattr(base.dials, key) != getattr(variant.dials, key)]
    for p in variant.patterns:
        before = base.by_id.get(p.id)
        if before is None:
            found.append(Difference(p.id, "new", None, p.fan))
            continue
        if before.fan != p.fan:
            found.append(Difference(p.id, "fan", before.fan, p.fan))
        if before.name != p.name:
            found.append(Difference(p.id, "name", before.name, p.name))
        if before.optional != p.optional:
            found.append(Difference(p.id, "off" if p.optional else "on", before.optional, p.optional))
        if set(before.replaces) != set(p.replaces):
            found.append(Difference(p.id, "excludes", before.replaces, p.replaces))
    categories = {c.id: c.name for c in base.categories}
    found += [Difference(None, "category", categories[c.id], c.name) for c in variant.categories
              if c.id in categories and categories[c.id] != c.name]
    found += [Difference(None, "curve-name", base.curves[cid].name, curve.name)
              for cid, curve in variant.curves.items()
              if cid in base.curves and base.curves[cid].name != curve.name]
    return tuple(found)
