"""Reading ruleset files: YAML that refuses a repeated key, a house variant (`extends:`) laid
over the file it extends, every file of a folder loaded and checked once.

A broken file stops start-up with a message naming the file and the key, e.g.
`hong-kong.yaml: patterns[7].detect: unknown detector 'ful_flush'`.
"""
from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from app.base.errors import RulesetError
from app.base.i18n import Msg, quoted
from app.base.resources import folder

from .checks import IDENTIFIER, build_ruleset
from .house import (
    House,
    HouseError,
    Price,
    decode,
    encode,
    file_id,
    is_house,
    overlay,
    with_examples,
)
from .model import Ruleset

RULESET_DIR = folder("rulesets")   # the shipped rulesets, in the package or the checkout


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
    if not isinstance(other, str) or not IDENTIFIER.fullmatch(other):
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
    if "never_together" not in data and isinstance(merged.get("never_together"), list):
        merged["never_together"] = _kept_apart(merged["never_together"], merged.get("patterns"))
    return merged


def _kept_apart(entries: list, patterns: Any) -> list:
    """The extended file's `never_together` without the patterns the variant removed."""
    ids = {p.get("id") for p in patterns if isinstance(p, dict)} if isinstance(patterns, list) else set()
    kept = []
    for entry in entries:
        if not isinstance(entry, list):
            kept.append(entry)   # left for the checker to name
            continue
        groups = []
        for group in entry:
            group = ([g for g in group if g in ids] if isinstance(group, list)
                     else group if group in ids else None)
            if group:
                groups.append(group)
        if len(groups) >= 2:
            kept.append(groups)
    return kept


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


class Rulesets(Mapping[str, Ruleset]):
    """The rulesets of one folder by id, and any club variant of them by its `rules` value.

    Iterating lists the folder's files only; looking up `family~code` builds the variant
    (house.py) once and keeps the MAX_HOUSES used last (a lookup refreshes it), by its `rules`
    value, so a kept variant is found without reading its code again. A code that does not
    read or build is refused again without building for REFUSAL_SECONDS (the last
    MAX_REFUSALS of them). Given `price` (app.scoring's), a variant carries its family's
    worked and pattern examples priced under it. `on_evict`, when set, is called with each
    variant let go (the server frees them: app/web/serving/collector.py).
    """

    MAX_HOUSES = 128
    MAX_REFUSALS = 256
    REFUSAL_SECONDS = 60.0

    def __init__(self, files: dict[str, Ruleset], directory: Path, price: Price | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._files = files
        self._directory = directory
        self._price = price
        self._clock = clock
        self._houses: OrderedDict[str, Ruleset] = OrderedDict()   # least recently used first
        self._refused: OrderedDict[str, tuple[float, HouseError]] = OrderedDict()
        self._family_prices: dict[tuple[str, tuple], tuple] = {}   # the same for every variant
        self.on_evict: Callable[[Ruleset], None] | None = None
        self.built = 0   # variants built (kept or refused) since start

    def __getitem__(self, key: str) -> Ruleset:
        found = self._files.get(key)
        if found is not None:
            return found
        if isinstance(key, str) and is_house(key):
            try:
                return self.house(key)
            except HouseError:
                raise KeyError(key) from None
        raise KeyError(key)

    def get(self, key: str, default: Ruleset | None = None) -> Ruleset | None:
        """A file's ruleset by id without a raised KeyError (every scoring looks one up)."""
        found = self._files.get(key)
        if found is not None:
            return found
        try:
            return self[key]
        except KeyError:
            return default

    def __iter__(self) -> Iterator[str]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)

    def house(self, rules: str) -> Ruleset:
        """The variant a `rules` value names, built through the loader, or HouseError."""
        found = self._houses.get(rules)
        if found is not None:
            self._houses.move_to_end(rules)
            return found
        refused = self._still_refused(rules)
        if refused is not None:
            raise refused
        self.built += 1
        try:
            found = self._build(decode(rules))
        except HouseError as err:
            self._refused[rules] = (self._clock() + self.REFUSAL_SECONDS, err)
            if len(self._refused) > self.MAX_REFUSALS:
                self._refused.popitem(last=False)
            raise
        self._houses[rules] = found
        if len(self._houses) > self.MAX_HOUSES:
            _, evicted = self._houses.popitem(last=False)
            if self.on_evict is not None:
                self.on_evict(evicted)
        return found

    def kept(self, rules: str) -> bool:
        """Whether looking `rules` up builds nothing: a family, a kept variant or a refusal
        still remembered."""
        return rules in self._files or rules in self._houses or self._still_refused(rules) is not None

    def _still_refused(self, rules: str) -> HouseError | None:
        found = self._refused.get(rules)
        if found is None:
            return None
        if found[0] <= self._clock():
            del self._refused[rules]
            return None
        return found[1]

    def house_data(self, house: House) -> dict[str, Any]:
        """The variant as the data of a YAML file extending its family (for the download)."""
        base = self._files.get(house.base)
        if base is None or is_house(house.base):
            raise HouseError(Msg("there is no family {rules} to change", rules=quoted(house.base)))
        return overlay(house, base)

    def house_yaml(self, house: House) -> str:
        """The variant as a YAML file (`extends:` its family) that loads as the link prices."""
        data = self.house_data(house)
        head = (f"# {data['name']['en']}: club rules made on the calculator's /house page.\n"
                f"# Save as {data['id']}.yaml in MAHJONG_RULESET_DIR, beside or instead of the"
                f" shipped files;\n# the link it came from: rules={encode(house)}\n")
        return head + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)

    def _build(self, house: House) -> Ruleset:
        data = self.house_data(house)
        stem = file_id(house)
        try:
            merged = _extended(data, self._directory / f"{stem}.yaml", ())
            ruleset = build_ruleset(merged, "club rules", stem)
        except RulesetError as err:
            raise HouseError(Msg("these club rules do not make a ruleset: {why}",
                                 why=str(err).removeprefix("club rules: "))) from None
        variant = replace(ruleset, id=encode(house))
        if self._price is None:
            return variant
        return with_examples(variant, self._files[house.base], self._priced)

    def _priced(self, ruleset: Ruleset, params: Mapping[str, str]) -> tuple:
        """The price of an example, kept when it is priced under a family's own file."""
        if self._files.get(ruleset.id) is not ruleset:
            return self._price(ruleset, params)
        key = (ruleset.id, tuple(sorted(params.items())))
        if key not in self._family_prices:
            self._family_prices[key] = self._price(ruleset, params)
        return self._family_prices[key]


def load_all(directory: Path = RULESET_DIR, price: Price | None = None) -> Rulesets:
    """Load every ruleset file in a folder (default: the shipped rulesets), keyed by id; with
    `price`, a club variant's examples are priced under it (see Rulesets)."""
    return Rulesets({path.stem: load_ruleset(path) for path in sorted(directory.glob("*.yaml"))},
                    directory, price)


_REGISTRY: Rulesets | None = None


def registry() -> Rulesets:
    """Every shipped ruleset, loaded once."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = load_all()
    return _REGISTRY
