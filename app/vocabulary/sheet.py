"""A game sheet in its notation (a link's `rules=`, `names=`, dials, `seats=` and `hands=`, one
entry a line) read into a Sheet and written back, and its entries read and priced in order:
each hand line through the calculator's reader, each ledger entry through the round's;
app/table/sheet.py tallies the night.

>>> night = price_sheet(read_sheet({"hands": "hand=123m456m789m234p55s by=self-draw seat=S"}))
>>> night.rows[0].amounts[1] > 0, sum(night.totals)
(True, 0)
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from app.base.errors import FieldError, HandError
from app.base.i18n import Msg
from app.rules.model import Ruleset
from app.scoring.calculation import Calculation
from app.table.kept import Kept, kept_of
from app.table.settlement import Ledger
from app.table.sheet import FIRST_SEATS, MAX_ENTRIES, Entry, Night, Sheet, last_seats, tally

from .request import read_ruleset, read_settings, score
from .round import parse_round_text, read_round, settle_round

MAX_NAME = 20               # characters of a player's name
MAX_VALUE = 300             # characters of one value of a hand entry (the longest tick list is far shorter)
DIAL_KEYS = ("min", "cap", "curve", "payment", "stake", "options")
# what a hand entry may say: the calculator's hand and table vocabulary (INTERFACE.md),
# never the ruleset or the dials, which the sheet sets once for the whole night
HAND_KEYS = ("hand", "win", "melds", "by", "seat", "round", "flowers", "seasons", "events",
             "missing", "ticks", "fan", "discarder", "winner", "won", "liable")
LEDGER = "ledger"


def _fail(field_name: str, message: str) -> HandError:
    return HandError([FieldError(field_name, message)])


def read_seats(text: str, field_name: str = "seats") -> tuple[int, ...]:
    """Four player numbers for E, S, W, N, each once: '2341' → (1, 2, 3, 0).

    >>> read_seats("2341")
    (1, 2, 3, 0)
    """
    digits = re.sub(r"[,\s]", "", text)
    if not re.fullmatch(r"[1-4]{4}", digits) or len(set(digits)) != 4:
        raise _fail(field_name, Msg("'{seats}' is not a seating: give the players at E, S, W, N, each of 1-4"
                                    " once, e.g. 2341", seats=text[:12]))
    return tuple(int(d) - 1 for d in digits)


def format_seats(seats: Sequence[int]) -> str:
    return "".join(str(i + 1) for i in seats)


def parse_entry(line: str, where: str = "hands") -> Entry:
    """Read one line of a sheet.

    >>> parse_entry("hand=123m456m789m234p55s by=self-draw at=2341").at
    (1, 2, 3, 0)
    >>> parse_entry("ledger at=1234 / missing E=p / win E self-draw hand=123s456s789s234s55s").round_text
    'missing E=p\\nwin E self-draw hand=123s456s789s234s55s'
    """
    line = line.strip()
    head, _, rest = line.partition("/")
    words = head.split()
    if words and words[0].lower() == LEDGER:
        at = None
        for word in words[1:]:
            key, _, value = word.partition("=")
            if key != "at":
                raise _fail(where, Msg("'{word}': a ledger entry takes only at=… before its first '/'", word=word[:20]))
            at = read_seats(value, where)
        lines = [part.strip() for part in rest.split("/") if part.strip()]
        if not lines:
            raise _fail(where, Msg("a ledger entry needs the round's lines after '{head}'", head=f"{LEDGER} /"))
        return Entry(round_text="\n".join(lines), at=at)
    params: dict[str, str] = {}
    at = None
    for word in line.split():
        key, eq, value = word.partition("=")
        if not eq:
            raise _fail(where, Msg("'{word}' is not name=value", word=word[:20]))
        if len(value) > MAX_VALUE:
            raise _fail(where, Msg("{key}=: a value of {n} characters is longer than any hand's ({most})",
                                   key=key[:20], n=len(value), most=MAX_VALUE))
        if key == "at":
            at = read_seats(value, where)
        elif key in HAND_KEYS:
            params[key] = value
        else:
            raise _fail(where, Msg("'{key}' is not part of a hand here; use {keys} (the rules and dials are the"
                                   " sheet's)", key=key[:20], keys=", ".join(HAND_KEYS)))
    if not params:
        raise _fail(where, Msg("an empty entry: give the hand, e.g. {example}", example="hand=123m456m789m234p55s"))
    return Entry(params=tuple(params.items()), at=at)


def format_entry(entry: Entry, with_at: bool = True) -> str:
    """Write an entry back as one line (the inverse of parse_entry)."""
    at = [f"at={format_seats(entry.at)}"] if entry.at and with_at else []
    if entry.is_round:
        lines = [ln.strip() for ln in entry.round_text.splitlines()
                 if ln.strip() and not ln.strip().startswith("#")]
        return " / ".join([" ".join([LEDGER, *at]), *lines])
    return " ".join([f"{k}={v}" for k, v in entry.params] + at)


def read_sheet(params: Mapping[str, str], names: Sequence[str] = ()) -> Sheet:
    """Build a sheet from its link's parameters: rules, names, dials, seats, hands."""
    errors: list[FieldError] = []
    rules = params.get("rules", "").strip() or "hong-kong"
    given = list(names) if len(names) > 1 else params.get("names", "").split(",")
    cleaned = [re.sub(r"[\s,]+", " ", n).strip() for n in given[:4]]   # a comma separates names
    cleaned += [""] * (4 - len(cleaned))
    for i, name in enumerate(cleaned):
        if len(name) > MAX_NAME:
            errors.append(FieldError("names", Msg("'{name}…' is longer than {most} characters", name=name[:MAX_NAME],
                                                  most=MAX_NAME)))
            cleaned[i] = name[:MAX_NAME]
    if len(given) > 4:
        errors.append(FieldError("names", Msg("{n} names: a table has four players", n=len(given))))
    named = [n.casefold() for n in cleaned if n]
    twice = {n.casefold(): n for n in reversed(cleaned) if n and named.count(n.casefold()) > 1}
    for name in twice.values():
        errors.append(FieldError("names", Msg("{name} is named twice: give each player a name of"
                                              " their own", name=name)))
    dials = tuple((k, params[k].strip()) for k in DIAL_KEYS if params.get(k, "").strip())
    seats = None
    if params.get("seats", "").strip():
        try:
            seats = read_seats(params["seats"])
        except HandError as err:
            errors += err.errors
    lines = [ln for ln in params.get("hands", "").splitlines() if ln.strip()]
    if len(lines) > MAX_ENTRIES:
        errors.append(FieldError("hands", Msg("{n} hands is more than a sheet holds (at most {most})",
                                              n=len(lines), most=MAX_ENTRIES)))
        lines = lines[:MAX_ENTRIES]
    entries = []
    for number, line in enumerate(lines, 1):
        try:
            entries.append(parse_entry(line, "hands"))
        except HandError as err:
            errors += [FieldError(e.field, Msg("hand {number}: {problem}", number=number, problem=e.message))
                       for e in err.errors]
    if errors:
        raise HandError(errors)
    return Sheet(rules, tuple(cleaned), dials, tuple(entries), seats)


def sheet_params(sheet: Sheet) -> dict[str, str]:
    """The sheet as its link's parameters (read_sheet reads them back)."""
    params = {"rules": sheet.rules}
    if any(sheet.names):
        params["names"] = ",".join(sheet.names)
    params.update(sheet.dials)
    if sheet.seats and sheet.seats != last_seats(sheet):
        params["seats"] = format_seats(sheet.seats)
    if sheet.entries:
        params["hands"] = "\n".join(format_entry(e) for e in sheet.entries)
    return params


def price_sheet(sheet: Sheet, rulesets: Mapping[str, Ruleset] | None = None,
                kept: Sequence[Kept | None] = ()) -> Night:
    """Price every entry under the sheet's rules and dials; a bad entry counts nothing, with its errors.

    `kept`: the prices a stored sheet keeps with its entries (app/table/kept.py), entry by
    entry; an entry with one is not priced again."""
    ruleset = read_ruleset({"rules": sheet.rules}, rulesets)
    dials = dict(sheet.dials)
    settings = read_settings(dials, ruleset)
    # the same hand or round entered twice is priced once, and a hand shown at several walls'
    # ends once (settle_round's prices): a long sheet of near-copies costs what its distinct parts do
    done: dict[object, Calculation | Ledger | HandError] = {}
    prices: dict = {}
    priced: list[Calculation | Ledger | HandError | Kept] = []
    for number, entry in enumerate(sheet.entries):
        if number < len(kept) and kept[number] is not None:
            priced.append(kept[number])
        elif entry.is_round:
            priced.append(_once(done, entry.round_text, lambda e=entry: _price_round(
                e, ruleset, settings.options, rulesets, prices)))
        else:
            params = {**dict(entry.params), "rules": ruleset.id, **dials}
            priced.append(_once(done, tuple(sorted(params.items())),
                                lambda p=params: score(p, rulesets)))
    return tally(sheet, ruleset, settings, priced)


def _once(done: dict, key, price: Callable[[], Calculation | Ledger]
          ) -> Calculation | Ledger | HandError:
    """price() the first time a key is seen, its result (or its refusal) again after."""
    if key not in done:
        try:
            done[key] = price()
        except HandError as err:
            done[key] = err
    return done[key]


def _price_round(entry: Entry, ruleset: Ruleset, options: frozenset[str],
                 rulesets: Mapping[str, Ruleset] | None, prices: dict | None = None) -> Ledger:
    """Settle a ledger entry under the sheet's ruleset; the sheet's switches unless the round names its own."""
    data = parse_round_text(entry.round_text, ruleset.id)
    if not data.get("options") and options:
        data["options"] = ",".join(sorted(o for o in options if o in ruleset.option_ids))
    return settle_round(read_round(data), rulesets, prices)


def price_entry(sheet: Sheet, entry: Entry, rulesets: Mapping[str, Ruleset] | None = None) -> Kept:
    """One entry priced alone under the sheet's rules and dials, as a stored sheet keeps it
    (what each seat won or paid does not hang on who sits there)."""
    alone = Sheet(sheet.rules, sheet.names, sheet.dials, (Entry(entry.params, entry.round_text, FIRST_SEATS),))
    return kept_of(price_sheet(alone, rulesets).rows[0])
