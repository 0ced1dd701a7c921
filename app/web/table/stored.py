"""Stored sheets (/s/<token>): "Share this table" turns a link's sheet into one kept on the server.

The edit link adds, corrects, removes and undoes (each a POST answered by a redirect back);
the view link only shows, and the page polls GET /s/<token>/version to follow the others'
changes. No cookie, no account: the token in the address is the capability (app/store/).
Hands reach the sheet as before: the calculator, tick boxes or the round ledger carry
`sheet=stored=<token>` and their "Add to the sheet" comes back here to be confirmed.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import parse_qsl, urlencode

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    jsonify,
    redirect,
    render_template,
    request,
)
from markupsafe import Markup

from app.base.errors import FieldError, HandError
from app.base.i18n import Msg
from app.rules.model import Ruleset
from app.scoring.budget import TooMuchWork, opened
from app.store.database import open_database
from app.store.sheets import (
    CLIENT_ID,
    EXPIRE_DAYS,
    MAX_HANDS,
    SheetGone,
    SheetStore,
    StaleEdit,
    Stored,
    TooMany,
    new_client_id,
)
from app.table.kept import dumps as kept_json
from app.table.kept import kept_of
from app.table.kept import loads as kept_read
from app.table.sheet import Entry, Night, Sheet
from app.vocabulary.request import read_ruleset, read_settings
from app.vocabulary.sheet import (
    DIAL_KEYS,
    format_entry,
    format_seats,
    parse_entry,
    price_entry,
    price_sheet,
    read_sheet,
)
from app.web.common.i18n import say_here, with_lang
from app.web.common.present import permalink
from app.web.lesson.oembed import Frame
from app.web.serving import privacy

from .agreed import AgreedForm, agreed_line, chosen, fan_choices, line_words, seat_players
from .sheet import (
    SAFE,
    SHEET_KEYS,
    HandRow,
    _seats_arg,
    breakdown_link,
    hand_rows,
    night_csv,
    night_json,
)

bp = Blueprint("stored", __name__)

QUEUE_HEADER = "X-Mahjong-Queue"          # sent by the page's queue (static/app.js): answer 200, not 303
CHANGE_HEADER = "X-Mahjong-Change"        # saved or refused: only this calculator sends it
CHANGE_ID_HEADER = "X-Mahjong-Change-Id"  # the change's `cid`, echoed
MAX_POST_BODY = 16 * 1024      # bytes of one change's form (a hand line is at most 2000 characters)
POLL_MS = 1500                 # how often a page asks whether the sheet changed
ENDPOINTS = {"stored.page", "stored.version", "stored.as_csv", "stored.as_json"}


def store() -> SheetStore:
    """The app's store, opened (and migrated) on first use: nothing is written before a share."""
    found = current_app.extensions.get("sheet_store")
    if found is None:
        found = SheetStore(open_database(current_app.config.get("STORE_ENV") or os.environ))
        current_app.extensions["sheet_store"] = found
    return found


_VIEW_PATH = re.compile(r"/s/([A-Za-z0-9_-]{1,64})")


def sheet_frame(path: str, query: str) -> Frame | None:
    """A live shared sheet's view link frames its embed view (app/web/lesson/oembed.py asks each
    of `token_frames`). An edit link, a token no sheet has, or a query naming a token frames as
    nothing: the edit token never reaches another site's page. Read only: asking marks nothing
    used."""
    found = _VIEW_PATH.fullmatch(path)
    if found is None or privacy.carries_token("", query) or store().role(found[1]) != "view":
        return None
    lang = [("lang", v) for k, v in parse_qsl(query) if k == "lang"][:1]
    return Frame(f"/s/{found[1]}", urlencode([("embed", "1"), *lang]), Msg("Shared game sheet"), "sheet")


@bp.record_once
def _frames_view_links(state) -> None:
    state.app.extensions.setdefault("token_frames", []).append(sheet_frame)


def _from_here() -> None:
    """403 for a share or a change posted from another site's page (its `Origin` or
    `Sec-Fetch-Site`): a hostile page cannot spend a visitor's shares or change a sheet whose
    edit link it learnt. Nothing is read or stored before."""
    hosts = (request.host, current_app.config.get("SERVER_NAME") or "")
    if privacy.cross_site(request.headers.get("Origin"), request.headers.get("Sec-Fetch-Site"), hosts):
        abort(Response(render_template("error.html", code=403, title=Msg("Refused"), message=Msg(
            "A shared sheet is made and changed only from this calculator's own pages: this request"
            " came from another site, so nothing was saved.")), 403, headers={"Cache-Control": "no-store"}))


def _small_body() -> None:
    if (request.content_length or 0) > MAX_POST_BODY:
        abort(413, description=Msg("A change to a sheet is at most {most} bytes.", most=MAX_POST_BODY))


def _page_link(token: str, **extra: str) -> str:
    query = urlencode([(k, v) for k, v in extra.items() if v], safe=SAFE)
    return with_lang(f"/s/{token}" + (f"?{query}" if query else ""))


def _sheet_of(stored: Stored) -> Sheet:
    s = stored.settings
    names = tuple((s.get("names", "").split(",") + ["", "", "", ""])[:4])
    return Sheet(s.get("rules", "hong-kong"), names, tuple((k, s[k]) for k in DIAL_KEYS if s.get(k)),
                 tuple(parse_entry(h.line) for h in stored.hands))


@bp.post("/sheet/share")
def share():
    """Store the sheet this form carries; go to its edit link. A form that names its share's id
    (`cid`, drawn in the browser: static/app.js) is stored once, however often it is sent."""
    _from_here()
    _small_body()
    params = {k: request.form.get(k, "") for k in SHEET_KEYS if k in request.form}
    params.update(_seats_arg(request.form))
    try:
        sheet = read_sheet(params, request.form.getlist("names"))
        settings, lines, priced = as_stored(sheet)
        token = store().create(settings, lines, request.remote_addr or "", priced,
                               share_id=request.form.get("cid", "").strip() or None)   # made once
    except HandError as err:
        return _refusal(err, 429 if isinstance(err, TooMany) else 400)
    except TooMuchWork as err:
        return _refusal(HandError(list(err.errors)), 413)
    return redirect(_page_link(token), 303)


def as_stored(sheet: Sheet, names: str | None = None) -> tuple[dict[str, str], list[str], list[str]]:
    """A sheet as the store keeps it: its settings (its rules and dials read as they are; its
    players' names, or these), its lines each with its seating, and their prices."""
    rulesets = current_app.extensions["rulesets"]
    read_settings(dict(sheet.dials), read_ruleset({"rules": sheet.rules}, rulesets))   # opened
    settings = {"rules": sheet.rules, "names": ",".join(sheet.names) if names is None else names, **dict(sheet.dials)}
    lines = [format_entry(Entry(e.params, e.round_text, seats))
             for e, seats in zip(sheet.entries, sheet.seating(), strict=True)]
    priced = [kept_json(kept_of(row)) for row in price_sheet(sheet, rulesets).rows]   # kept with each line
    return settings, lines, priced


def _night(stored: Stored, sheet: Sheet) -> Night:
    """The stored night priced: each entry's kept price. An entry kept without one (stored
    before prices were kept, or under another version of them) is priced now, each under a
    budget of its own (as it would have been when added), and its price kept for next time."""
    rulesets = current_app.extensions["rulesets"]
    kept = [kept_read(h.priced) for h in stored.hands]
    missing = {}
    for i, hand in enumerate(stored.hands):
        if kept[i] is None:
            try:
                with opened("line"):
                    kept[i] = price_entry(sheet, sheet.entries[i], rulesets)
            except TooMuchWork:
                continue    # priced with the night, under the request's budget, as before
            missing[hand.source] = kept_json(kept[i])
    if missing:
        store().keep_prices(stored.edit_token or stored.view_token, missing)
    return price_sheet(sheet, rulesets, kept)


def _refusal(err: HandError, status: int):
    message = "; ".join(str(say_here(e.message)) for e in err.errors)
    return render_template("error.html", code=status, title=_title(status), message=message), status


def _title(status: int) -> str:
    return {404: Msg("Not found"), 409: Msg("Changed meanwhile"), 429: Msg("Too many")}.get(
        status, Msg("Bad request"))


def _open(token: str) -> Stored:
    try:
        return store().open(token)
    except SheetGone:
        abort(Response(render_template("error.html", code=404, title=_title(404), message=Msg(
            "No shared sheet has this address: it was never made, or nobody used it for {days} days"
            " and it expired.", days=EXPIRE_DAYS)), 404, headers={"Cache-Control": "no-store"}))


@bp.get("/s/<token>")
def page(token: str):
    stored = _open(token)
    return _render(stored, token, [])


@dataclass(frozen=True, slots=True)
class StoredHand:
    """One hand of a stored sheet as its page shows it: the row, its id in the store, its edit link."""

    hand: HandRow
    id: int
    edit: str           # "" on the view link


@dataclass(frozen=True, slots=True)
class StoredSheetPage:
    """What stored_sheet.html shows: the stored sheet priced, a hand waiting to be confirmed, the links."""

    stored: Stored
    sheet: Sheet
    night: Night | None
    ruleset: Ruleset | None
    errors: tuple[FieldError, ...]
    hands: tuple[StoredHand, ...]
    token: str
    pending: str                  # a hand line waiting to be confirmed ("" for none)
    correcting: int | None        # the id of the hand it would replace
    correcting_number: int | None
    pending_base: str             # the version the correction was made on
    add_hand: str
    add_round: str
    pending_hand: HandRow | None = None   # the hand waiting, priced: its words (the queue's label)
    agreed: AgreedForm | None = None    # the four-tap form: a new agreed hand, or a hand corrected
    poll_ms: int = POLL_MS
    expire_days: int = EXPIRE_DAYS
    max_hands: int = MAX_HANDS

    @property
    def view_link(self) -> str:
        return f"/s/{self.stored.view_token}"

    @property
    def edit_link(self) -> str:
        return f"/s/{self.stored.edit_token}" if self.stored.editable else ""

    @property
    def full(self) -> bool:
        """No room for another hand."""
        return self.night is not None and len(self.night.rows) >= MAX_HANDS

    @property
    def players_next(self) -> str:
        """The players at E, S, W, N for the next hand (the queue says a typed hand in words)."""
        return ",".join(self.sheet.player(i) for i in self.sheet.next_seats())

    @property
    def pending_words(self):
        """The hand waiting to be confirmed in words and tiles (agreed.line_words), or None."""
        if not self.pending:
            return None
        seating = self.sheet.next_seats()
        if self.correcting_number:
            seating = self.sheet.seating()[self.correcting_number - 1]
        return line_words(self.pending, self.sheet, seating, self.ruleset)

    @property
    def edit_address(self) -> str:
        """The edit link as another phone opens it: the whole address, in this page's language."""
        return _address(self.edit_link) if self.edit_link else ""

    @property
    def view_address(self) -> str:
        return _address(self.view_link)

    @property
    def edit_qr(self) -> Markup:
        return qr_svg(self.edit_address) if self.edit_address else Markup("")

    @property
    def view_qr(self) -> Markup:
        return qr_svg(self.view_address)

    @staticmethod
    def cid() -> str:
        """A new id for the change a form drawn now will send (app/store/sheets.py: exactly once)."""
        return new_client_id()


def _address(link: str) -> str:
    return request.host_url.rstrip("/") + with_lang(link)


@lru_cache(maxsize=256)
def qr_svg(address: str) -> Markup:
    """The address as a QR code drawn inline as SVG (segno, BSD): no image service, no script.
    Error correction M; the quiet zone of four modules a scanner needs; sized by CSS."""
    import segno  # the server's extra (pyproject.toml): a figure on a Markdown site draws no sheet

    code = segno.make(address, error="m", micro=False)
    return Markup(code.svg_inline(omitsize=True, border=4, svgclass="qr", lineclass=None,
                                  dark="#000", light="#fff"))


def _render(stored: Stored, token: str, errors: list[FieldError], status: int = 200, again: Again | None = None):
    sheet = _sheet_of(stored)
    g.page_rules = sheet.rules    # the page speaks in the sheet's family's words
    night = None
    try:
        night = _night(stored, sheet)
    except HandError as err:
        errors = [*errors, *err.errors]
    except TooMuchWork as err:
        errors = [*errors, FieldError(err.field, err.message)]
        status = 413
    shown = _page_of(stored, token, sheet, night, errors, again or _asked_again())
    if request.args.get("embed") == "1" and not stored.editable:   # the view link in a lesson's frame
        response = Response(render_template("stored_sheet_embed.html", page=shown, ruleset=shown.ruleset,
                                            embed=True), status)
    else:
        response = Response(render_template("stored_sheet.html", page=shown, ruleset=shown.ruleset), status)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"    # the address is the capability
    response.headers["X-Robots-Tag"] = "noindex"
    if stored.editable:
        privacy.mark_edit_page()   # framed by no site (a click on its buttons from a hostile page)
    return response


def _asked_again() -> Again | None:
    """A hand brought back from the calculator or the ledger (`add`, and for a correction
    `hand` and `base`) to be confirmed."""
    line = request.args.get("add", "")
    if not line:
        return None
    return Again(line, _int(request.args.get("hand", "")), _int(request.args.get("base", "")))


def _page_of(stored: Stored, token: str, sheet: Sheet, night: Night | None, errors: list[FieldError],
             again: Again | None) -> StoredSheetPage:
    hand_ids = [h.id for h in stored.hands]
    pending, correcting, number, base, errors = _waiting(stored, again, errors)
    edits = [_edit_link(stored, sheet, i) if stored.editable else "" for i in range(len(hand_ids))]
    add_hand, add_round = _add_links(stored, sheet)
    return StoredSheetPage(
        stored=stored, sheet=sheet, night=night, ruleset=night.ruleset if night else None,
        errors=tuple(errors), token=token,
        hands=tuple(StoredHand(hand, hand_ids[hand.row.number - 1], edits[hand.row.number - 1])
                    for hand in hand_rows(night)),
        pending=pending, correcting=correcting, correcting_number=number,
        pending_base=str(base), add_hand=add_hand, add_round=add_round,
        pending_hand=_pending_hand(sheet, pending, number) if pending and stored.editable else None,
        agreed=_agreed_form(stored, sheet, night, base) if stored.editable else None)


def _waiting(stored: Stored, again: Again | None, errors: list[FieldError]):
    """The hand waiting to be confirmed: its line, the hand it corrects (id and number), the
    version it stands on, and the page's errors (a correction of a hand someone removed is
    never turned into an add: it is dropped, and the page says why)."""
    if again is None:
        return "", None, None, stored.version, errors
    hand_ids = [h.id for h in stored.hands]
    number = hand_ids.index(again.hand) + 1 if again.hand in hand_ids else None
    base = again.base if again.base is not None and not again.refreshed else stored.version
    if again.hand is not None and number is None:
        gone = FieldError("hand", Msg("that hand is no longer on the sheet (someone removed it): nothing was changed"))
        return "", None, None, base, errors if any(e.field == "hand" for e in errors) else [*errors, gone]
    return again.line, again.hand if number else None, number, base, errors


def _pending_hand(sheet: Sheet, pending: str, number: int | None) -> HandRow | None:
    """The hand waiting to be confirmed, priced at the seats it would take (None when it is no
    hand: its refusal shows when it is sent)."""
    try:
        entry = parse_entry(pending, "line")
        at = entry.at or (sheet.seating()[number - 1] if number else sheet.next_seats())
        alone = Sheet(sheet.rules, sheet.names, sheet.dials, (Entry(entry.params, entry.round_text, at),))
        return hand_rows(price_sheet(alone, current_app.extensions["rulesets"]))[0]
    except (HandError, TooMuchWork):
        return None


def _agreed_form(stored: Stored, sheet: Sheet, night: Night | None, base: int) -> AgreedForm | None:
    """The agreed-hand form: for a new hand (the next seating), or correcting `?fix=<id>` (a
    refused correction comes back with what was sent, on the version it must now stand on)."""
    if night is None:
        return None
    sent = request.form if request.method == "POST" else {}
    ids = [h.id for h in stored.hands]
    fix = _int(request.args.get("fix", "")) if not sent else (
        _int(sent.get("hand", "")) if sent.get("action") == "correct" else None)
    index = ids.index(fix) if fix in ids else None
    if index is not None and sheet.entries[index].is_round:
        index = None
    fans = fan_choices(sheet, night.ruleset)
    if index is None:
        return AgreedForm(seat_players(sheet, sheet.next_seats(), night.ruleset), fans, **_picked(None, sent))
    entry, row = sheet.entries[index], night.rows[index]
    table = row.calculation.table if row.calculation else None
    return AgreedForm(seat_players(sheet, sheet.seating()[index], night.ruleset), fans,
                      **_picked(entry, sent, table), tiled="fan" not in dict(entry.params),
                      hand_id=ids[index], number=index + 1, base=str(base))


def _picked(entry: Entry | None, sent, table=None) -> dict[str, str]:
    found = chosen(entry, sent, table)
    return {"winner": found.get("winner", ""), "way": found.get("from", ""), "fan": found.get("fan", "")}



def _carried(stored: Stored, **extra: str) -> str:
    return urlencode([("stored", stored.edit_token), *((k, v) for k, v in extra.items() if v)])


def _add_links(stored: Stored, sheet: Sheet) -> tuple[str, str]:
    """The calculator and the round ledger under the sheet's rules, carrying the stored sheet."""
    if not stored.editable:
        return "", ""
    carried = _carried(stored, names=",".join(sheet.names), seats=format_seats(sheet.next_seats()))
    hand = permalink({"rules": sheet.rules, **dict(sheet.dials)}) + "&" + urlencode({"sheet": carried}, safe=SAFE)
    return with_lang(hand), with_lang("/round?" + urlencode({"rules": sheet.rules, "sheet": carried}, safe=SAFE))


def _edit_link(stored: Stored, sheet: Sheet, index: int) -> str:
    """Hand index+1 opened where it was made, to come back as its correction (at this version)."""
    carried = _carried(stored, hand=str(stored.hands[index].id), base=str(stored.version),
                       names=",".join(sheet.names), seats=format_seats(sheet.seating()[index]))
    link = breakdown_link(sheet.entries[index], sheet)
    return f"{link}&{urlencode({'sheet': carried, 'entry': str(index + 1)}, safe=SAFE)}"


def _int(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdecimal() and len(text) < 19 else None   # "²" is a digit, no int


@bp.post("/s/<token>/change")
def change(token: str):
    """One change: add, correct, remove or undo (the form's `action`), made once per `cid`.

    Answered by a redirect back to the sheet; a page's script that asks (QUEUE_HEADER) gets
    200 and the change's id in CHANGE_ID_HEADER instead, so its queue lets an item go only on
    this calculator's own answer, never on a Wi-Fi sign-in page's 200 or a proxy's 502."""
    _from_here()
    _small_body()
    form = request.form
    action = form.get("action", "")
    base = _int(form.get("base", ""))
    hand = _int(form.get("hand", ""))
    line = form.get("line", "")
    cid = form.get("cid", "").strip()
    the_store = store()
    try:
        _refused_change(action, base, hand)
        if action in ("add", "correct") and not line.strip() and "winner" in form:   # four taps
            line = _agreed_line(the_store, token, form, hand if action == "correct" else None)
        if action in ("add", "correct"):
            line, priced = _checked_line(the_store, token, line, hand if action == "correct" else None)
        else:
            priced = None
        version = _make_change(the_store, token, action, line, hand, base, cid or None, priced)
    except SheetGone:
        abort(Response(render_template("error.html", code=404, title=_title(404), message=Msg(
            "No shared sheet may be changed at this address: the view link only shows the sheet.")),
            404, headers=_answered(cid, "refused")))
    except HandError as err:
        status = 409 if isinstance(err, StaleEdit) else 429 if isinstance(err, TooMany) else 400
        again = _again(action, line, hand, base, status)
        response = _render(_open(token), token, list(err.errors), status, again=again)
        response.headers.update(_answered(cid, "refused"))
        return response
    if request.headers.get(QUEUE_HEADER):
        response = jsonify(saved=cid, version=version, to=_page_link(token))
        response.headers.update(_answered(cid, "saved"))
        response.headers["Cache-Control"] = "no-store"
        return response
    response = redirect(_page_link(token) + "#hands", 303)
    response.headers.update(_answered(cid, "saved"))
    return response


def _answered(cid: str, outcome: str) -> dict[str, str]:
    """The headers by which a page's queue knows this calculator answered its change."""
    return {CHANGE_HEADER: outcome, CHANGE_ID_HEADER: cid if CLIENT_ID.fullmatch(cid) else ""}


@dataclass(frozen=True, slots=True)
class Again:
    """A refused add or correction, drawn again as what it was: its line, the hand it corrects
    and the version it now stands on (a refusal for a stale version: the sheet's new one)."""

    line: str
    hand: int | None = None
    base: int | None = None
    refreshed: bool = False


def _again(action: str, line: str, hand: int | None, base: int | None, status: int) -> Again | None:
    if action == "add":
        return Again(line)
    if action == "correct":
        return Again(line, hand, base, refreshed=status == 409)
    return None


def _agreed_line(the_store: SheetStore, token: str, form, hand: int | None) -> str:
    """The agreed-hand form's line (agreed.agreed_line), the corrected hand's tiles kept."""
    entry = None
    if hand is not None:
        opened = the_store.open(token)
        lines = {h.id: h.line for h in opened.hands}
        entry = parse_entry(lines[hand]) if hand in lines else None
    return agreed_line(form, entry)


def _refused_change(action: str, base: int | None, hand: int | None) -> None:
    """HandError when the form does not say a change it can make: its action, version and hand."""
    if action not in ("add", "correct", "remove", "undo"):
        raise HandError.single("action", Msg("'{action}' is not a change: add, correct, remove or undo",
                                             action=action[:20]))
    if action != "add" and base is None:
        raise HandError.single("base", Msg("the change does not say which version of the sheet it was"
                                           " made on: open the sheet again"))
    if action in ("correct", "remove") and hand is None:
        raise HandError.single("hand", Msg("the change does not say which hand"))


def _make_change(the_store: SheetStore, token: str, action: str, line: str, hand: int | None,
                 base: int | None, cid: str | None, priced: str | None) -> int:
    """Make the change in the store (SheetGone, HandError as the store raises them); the version
    it made (the first time's, for a change whose id the sheet holds)."""
    client = request.remote_addr or ""
    if action == "add":
        return the_store.add(token, line, cid, priced, client)
    if action == "correct":
        return the_store.correct(token, hand, line, base, cid, priced, client)
    if action == "remove":
        return the_store.remove(token, hand, base, cid)
    return the_store.undo(token, base, cid)


def _checked_line(the_store: SheetStore, token: str, line: str, hand: int | None) -> tuple[str, str]:
    """The hand's line as the sheet keeps it, its seats written out, and its price (kept with
    it): read by the calculator's own reader, and refused beside `line` (HandError) unless
    the calculator takes it as a hand or a round of the sheet's rules."""
    entry = parse_entry(" ".join(line.split()), "line")
    opened = the_store.open(token)
    current = _sheet_of(opened)
    if entry.at is None:
        seating = current.seating()
        ids = [h.id for h in opened.hands]
        at = seating[ids.index(hand)] if hand is not None and hand in ids else current.next_seats()
        entry = Entry(entry.params, entry.round_text, at)
    try:
        kept = price_entry(current, entry, current_app.extensions["rulesets"])
    except TooMuchWork as err:
        raise HandError([FieldError("line", err.message)]) from None
    if kept.errors:
        raise HandError([FieldError("line", Msg("{field}: {problem}", field=e.field, problem=e.message))
                         for e in kept.errors])
    return format_entry(entry), kept_json(kept)


@bp.get("/s/<token>/version")
def version(token: str):
    """The sheet's version, for a page that polls (ETag: the version; If-None-Match answers 304)."""
    try:
        number = store().version(token)
    except SheetGone:
        _open(token)   # its 404 page
    tag = f"v{number}"
    if request.if_none_match.contains(tag):
        response = Response(status=304)
    else:
        response = jsonify(version=number)
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _priced(token: str):
    stored = _open(token)
    try:
        return stored, _night(stored, _sheet_of(stored))
    except (HandError, TooMuchWork) as err:
        errors = err.errors if isinstance(err, HandError) else (FieldError(err.field, err.message),)
        abort(400, description="; ".join(f"{e.field}: {say_here(e.message)}" for e in errors))


@bp.get("/s/<token>.csv")
def as_csv(token: str):
    _stored, night = _priced(token)
    return Response(night_csv(night), mimetype="text/csv", headers={
        "Content-Disposition": 'attachment; filename="mahjong-sheet.csv"', "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer"})


@bp.get("/s/<token>.json")
def as_json(token: str):
    stored, night = _priced(token)
    found = night_json(night)
    found.update(link=f"/s/{stored.view_token}", version=stored.version,
                 hands=[{"number": i + 1, "id": h.id, "line": h.line} for i, h in enumerate(stored.hands)])
    response = jsonify(found)
    response.headers["Cache-Control"] = "no-store"
    return response
