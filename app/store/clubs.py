"""A club: members, seasons and nights behind three capability links, its tables stored sheets.

Three tokens, each derived one way from the one before, as a stored sheet's view token is from
its edit token (sheets.py): the organiser token (144 random bits) manages the club (members,
seasons, nights); the member token records (it opens each table's sheet to add hands); the
view token only shows. Whoever holds a link can show the links below it, never those above.
Only the SHA-256 of each token is stored: a copy of the database opens no club.

A night's tables are stored sheets made through SheetStore.create. The club keeps each sheet's
tokens sealed, never in the clear: the sheet's edit token XOR a pad derived from the club's
member token (and the table's place), its view token likewise from the club's view token, so
the member link reaches the sheets' edit links, the view link their view links, and the
database alone neither. The club's view token is kept sealed by each sheet's view token, so a
table's sheet links back to its night (to the club's view link, which only shows). Opening a
club keeps its sheets from expiring.

Members have stable ids (1, 2, 3 … never reused): a rename is a new row in their name's history
and every night keeps naming them by id. Two members may share a name only with a note that
tells them apart.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from app.base.errors import FieldError, HandError
from app.base.i18n import Msg

from .database import Cursor, Database
from .sheets import (
    EXPIRE_DAYS,
    Hand,
    LogEntry,
    SheetStore,
    TooMany,
    fold,
    token_hash,
    view_token_of,
)
from .sheets import (
    MAX_CREATED_PER_HOUR as SHEETS_PER_HOUR,
)

TOKEN_BYTES = 18
MAX_NAME = 20                 # characters of a member's name (a stored sheet's seat holds 20)
MAX_NOTE = 30                 # characters of the note that tells two of one name apart
MAX_CLUB_NAME = 60
MAX_MEMBERS = 200
MAX_SEASONS = 50
MAX_NIGHTS = 400              # nights in one club, all seasons
MAX_ROUNDS = 8                # seatings in one night
MAX_TABLES = 30               # tables in one round (each a new stored sheet)
TABLES_PER_HOUR = SHEETS_PER_HOUR   # tables' sheets one club makes in an hour (as one client shares)
MAX_CREATED_PER_HOUR = 10     # clubs one client may make in an hour
ROLES = ("organiser", "member", "view")


class ClubGone(LookupError):
    """No club has this token (never made, or expired), or the token may not do this."""


class NotAllowed(PermissionError):
    """The link opens the club but may not make this change (the view link records nothing,
    the member link manages nothing)."""

    def __init__(self, role: str, needs: str) -> None:
        super().__init__(f"{role} link: {needs} only")
        self.role = role
        self.needs = needs


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_organiser_token() -> str:
    return _b64(secrets.token_bytes(TOKEN_BYTES))


def member_token_of(organiser_token: str) -> str:
    return _b64(hashlib.sha256(b"mahjong-club-member:" + organiser_token.encode()).digest()[:TOKEN_BYTES])


def view_token_of_member(member_token: str) -> str:
    return _b64(hashlib.sha256(b"mahjong-club-view:" + member_token.encode()).digest()[:TOKEN_BYTES])


def seal(key_token: str, place: str, secret: str) -> str:
    """A token sealed by another: XOR with a pad that key and place alone give (each place seals
    one token once, so no pad is used twice). `seal` is its own inverse.

    >>> seal("k", "c1/n1/r1/t1/edit", seal("k", "c1/n1/r1/t1/edit", "MH74ybtHO6n0zKczoBg3LGZH"))
    'MH74ybtHO6n0zKczoBg3LGZH'
    """
    raw = _unb64(secret)
    pad = hashlib.sha256(f"mahjong-club-seal:{place}:{key_token}".encode()).digest()[:len(raw)]
    return _b64(bytes(a ^ b for a, b in zip(raw, pad, strict=True)))


def folded(text: str) -> str:
    """A name as compared: NFKC, case folded, spaces collapsed ('ＡＮＮ' and 'ann' are one)."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


# --- what a club holds ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NameChange:
    seq: int
    name: str
    note: str
    at: float


@dataclass(frozen=True, slots=True)
class Member:
    id: int
    name: str
    note: str
    joined: float
    history: tuple[NameChange, ...] = ()   # oldest first; the last is the name now

    @property
    def label(self) -> str:
        return f"{self.name} ({self.note})" if self.note else self.name


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    name: str
    rules: str
    started: float


@dataclass(frozen=True, slots=True)
class Seating:
    """One round of a night: how it was seated, who sat out."""

    round: int
    method: str
    seed: str
    byes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a night: its players (member ids of players 1-4) and its sheet's token
    (the edit token on the organiser's and the member's link, the view token on the view link)."""

    night: int
    round: int
    number: int
    seats: tuple[int, int, int, int]
    sheet_token: str


@dataclass(frozen=True, slots=True)
class Night:
    id: int
    season: int
    present: tuple[int, ...]
    at: float
    rounds: tuple[Seating, ...]
    tables: tuple[Table, ...]


@dataclass(frozen=True, slots=True)
class TableSheet:
    """A table's sheet as read with the club: its settings, version and hands (no token)."""

    settings: Mapping[str, str]
    version: int
    hands: tuple[Hand, ...]


@dataclass(frozen=True, slots=True)
class Club:
    id: int
    name: str
    role: str                        # organiser, member or view
    tokens: Mapping[str, str]        # the links this one can show: role → token
    version: int
    used: float
    members: tuple[Member, ...]
    seasons: tuple[Season, ...]
    nights: tuple[Night, ...]

    @property
    def manages(self) -> bool:
        return self.role == "organiser"

    @property
    def records(self) -> bool:
        return self.role in ("organiser", "member")

    def member(self, member_id: int) -> Member | None:
        return next((m for m in self.members if m.id == member_id), None)

    def season(self, season_id: int | None = None) -> Season:
        """The season of this id, or the latest."""
        if season_id is None:
            return self.seasons[-1]
        found = next((s for s in self.seasons if s.id == season_id), None)
        if found is None:
            raise KeyError(season_id)
        return found

    def night(self, night_id: int) -> Night | None:
        return next((n for n in self.nights if n.id == night_id), None)


# --- checking what is given --------------------------------------------------------------


_UNWRITABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def clean_text(text: str, field: str, most: int, what: Msg, needed: bool = True) -> str:
    """A name or a note as kept: spaces collapsed; refused (beside `field`) when empty, too long,
    or holding a control character or a comma (a sheet's names are separated by commas)."""
    text = " ".join(unicodedata.normalize("NFC", text).split())
    if not text and needed:
        raise HandError.single(field, Msg("give the {what}", what=what))
    if len(text) > most:
        raise HandError.single(field, Msg("'{text}…' is longer than {most} characters", text=text[:most], most=most))
    bad = _UNWRITABLE.search(text)
    if bad:
        raise HandError.single(field, Msg("the {what} cannot hold the control character {char}",
                                          what=what, char=f"U+{ord(bad[0]):04X}"))
    if "," in text:
        raise HandError.single(field, Msg("the {what} cannot hold a comma (a sheet separates its players'"
                                          " names with commas)", what=what))
    return text


def _same_name_refused(members: Sequence[tuple[int, str, str]], name: str, note: str, member_id: int | None) -> None:
    """Refuse a name another member has unless the notes tell them apart."""
    for other_id, other_name, other_note in members:
        if other_id != member_id and folded(other_name) == folded(name) and folded(other_note) == folded(note):
            raise HandError.single("note", Msg(
                "another member is already called {name}: give a note that tells the two apart"
                " (e.g. where they live, or an initial)", name=name) if not note else Msg(
                "another member is already called {name} with the note '{note}': give a different note",
                name=name, note=note))


def _too_many(field: str, message: Msg) -> TooMany:
    return TooMany([FieldError(field, message)])


# --- the store -------------------------------------------------------------------------------


class ClubStore:
    """Clubs in one database; their tables' sheets in the sheet store on the same database."""

    def __init__(self, db: Database, sheets: SheetStore | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.sheets = sheets or SheetStore(db, clock)
        self.clock = clock

    # --- making and opening -----------------------------------------------------------

    def create(self, name: str, rules: str, season_name: str, client: str = "") -> str:
        """A new club with its first season under these rules (checked by the caller); its
        organiser token."""
        name = clean_text(name, "name", MAX_CLUB_NAME, Msg("club's name"))
        season_name = clean_text(season_name, "season", MAX_CLUB_NAME, Msg("season's name"))
        organiser = new_organiser_token()
        member = member_token_of(organiser)
        view = view_token_of_member(member)
        now = self.clock()
        creator = token_hash("club-client:" + client)
        with self.db.transaction() as cur:
            self._expire(cur, now)
            cur.execute("SELECT COUNT(*) FROM clubs WHERE creator = ? AND created > ?", (creator, now - 3600))
            if cur.fetchone()[0] >= MAX_CREATED_PER_HOUR:
                raise _too_many("name", Msg("{most} clubs were made from here in the last hour, the most an"
                                            " hour allows: try again later", most=MAX_CREATED_PER_HOUR))
            club_id = secrets.randbits(62)
            cur.execute("INSERT INTO clubs (id, organiser_hash, member_hash, view_hash, name, version, created,"
                        " used, creator) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (club_id, token_hash(organiser), token_hash(member), token_hash(view), name, 1, now,
                         now, creator))
            cur.execute("INSERT INTO club_seasons (club_id, id, name, rules, started) VALUES (?, ?, ?, ?, ?)",
                        (club_id, 1, season_name, rules, now))
        return organiser

    def open(self, token: str) -> Club:
        """The club a token opens, as that token may see it (ClubGone when none)."""
        now = self.clock()
        with self.db.transaction() as cur:
            found = self._find(cur, token)
            if found is None:
                raise ClubGone(token)
            club_id, name, version, role = found
            cur.execute("UPDATE clubs SET used = ? WHERE id = ?", (now, club_id))
            cur.execute("UPDATE sheets SET used = ? WHERE view_hash IN"
                        " (SELECT sheet_hash FROM club_tables WHERE club_id = ?)", (now, club_id))
            members = self._members(cur, club_id)
            seasons = self._seasons(cur, club_id)
            nights = self._nights(cur, club_id, token, role)
        return Club(club_id, name, role, _tokens(token, role), version, now, members, seasons, nights)

    def table_sheets(self, token: str) -> dict[tuple[int, int, int], TableSheet]:
        """Every table's sheet of the club, read in one query: (night, round, table) → its
        settings, version and hands (a sheet gone is missing). It reads only (the club's
        `open` already kept its sheets from expiring)."""
        with self.db.read() as cur:
            found = self._find(cur, token)
            if found is None:
                raise ClubGone(token)
            cur.execute("SELECT t.night_id, t.round, t.number, s.settings, s.version, e.seq, e.kind, e.target,"
                        " e.line, e.at FROM club_tables t JOIN sheets s ON s.view_hash = t.sheet_hash"
                        " LEFT JOIN entries e ON e.sheet_id = s.id WHERE t.club_id = ?"
                        " ORDER BY t.night_id, t.round, t.number, e.seq", (found[0],))
            rows = cur.fetchall()
        logs: dict[tuple[int, int, int], tuple[str, int, list[LogEntry]]] = {}
        for night, number, table, settings, version, seq, kind, target, line, at in rows:
            kept = logs.setdefault((night, number, table), (settings, version, []))
            if seq is not None:
                kept[2].append(LogEntry(seq, kind, target, line, at))
        return {place: TableSheet(json.loads(settings), version, fold(log)[0])
                for place, (settings, version, log) in logs.items()}

    def night_of_sheet(self, sheet_view_token: str) -> tuple[str, int] | None:
        """The club's view token and the night a table's sheet belongs to, from the sheet's view
        token (which unseals the club's); None for a sheet of no club."""
        if not sheet_view_token or len(sheet_view_token) > 64:
            return None
        with self.db.read() as cur:
            cur.execute("SELECT club_id, night_id, round, number, club_sealed FROM club_tables WHERE sheet_hash = ?"
                        " AND club_sealed <> ''", (token_hash(sheet_view_token),))   # '': brought by its view link
            row = cur.fetchone()
        if row is None:
            return None
        club_id, night_id, number, table, sealed = row
        return seal(sheet_view_token, f"{club_id}/{night_id}/{number}/{table}/club", sealed), night_id

    def peek(self, token: str, member_id: int | None = None) -> tuple[str, str, str | None] | None:
        """What a link is, read only: its role, the club's name and the member's name (with their
        note) when one is asked for (None when the club has no such member); None for no club."""
        with self.db.read() as cur:
            found = self._find(cur, token)
            if found is None:
                return None
            label = None
            if member_id is not None:
                cur.execute("SELECT name, note FROM club_members WHERE club_id = ? AND id = ?", (found[0], member_id))
                row = cur.fetchone()
                label = None if row is None else Member(member_id, row[0], row[1], 0.0).label
        return found[3], found[1], label

    def version(self, token: str) -> int:
        with self.db.read() as cur:
            found = self._find(cur, token)
        if found is None:
            raise ClubGone(token)
        return found[2]

    def room_for_tables(self, club: Club, count: int) -> None:
        """Refuse (beside `present`) a round of `count` tables past MAX_TABLES, or past the
        tables' sheets the club may still make this hour, before anything of it is made."""
        if count > MAX_TABLES:
            raise _too_many("present", Msg("a round seats at most {most} tables ({seats} members): tick fewer",
                                           most=MAX_TABLES, seats=MAX_TABLES * 4))
        made = self.sheets.made_in_the_last_hour(f"club:{club.id}")
        if made + count > TABLES_PER_HOUR:
            raise _too_many("present", Msg("a club makes at most {most} tables an hour: {made} were made in the"
                                           " last hour and this round needs {n}; try again later",
                                           most=TABLES_PER_HOUR, made=made, n=count))

    # --- managing (the organiser's link) ----------------------------------------------

    def add_member(self, token: str, name: str, note: str = "") -> int:
        """A new member; their id."""
        name = clean_text(name, "name", MAX_NAME, Msg("member's name"))
        note = clean_text(note, "note", MAX_NOTE, Msg("note"), needed=False)
        with self._change(token) as (cur, club_id, now):
            rows = self._member_rows(cur, club_id)
            if len(rows) >= MAX_MEMBERS:
                raise _too_many("name", Msg("a club has at most {most} members", most=MAX_MEMBERS))
            _same_name_refused(rows, name, note, None)
            member_id = max((r[0] for r in rows), default=0) + 1
            cur.execute("INSERT INTO club_members (club_id, id, name, note, joined) VALUES (?, ?, ?, ?, ?)",
                        (club_id, member_id, name, note, now))
            cur.execute("INSERT INTO club_names (club_id, member_id, seq, name, note, at) VALUES (?, ?, ?, ?, ?, ?)",
                        (club_id, member_id, 1, name, note, now))
        return member_id

    def rename_member(self, token: str, member_id: int, name: str, note: str = "") -> None:
        """A member's new name (and note); the old one stays in their history."""
        name = clean_text(name, "name", MAX_NAME, Msg("member's name"))
        note = clean_text(note, "note", MAX_NOTE, Msg("note"), needed=False)
        with self._change(token) as (cur, club_id, now):
            rows = self._member_rows(cur, club_id)
            if member_id not in {r[0] for r in rows}:
                raise HandError.single("member", Msg("the club has no member {id}", id=member_id))
            _same_name_refused(rows, name, note, member_id)
            cur.execute("SELECT COUNT(*) FROM club_names WHERE club_id = ? AND member_id = ?", (club_id, member_id))
            seq = cur.fetchone()[0] + 1
            cur.execute("UPDATE club_members SET name = ?, note = ? WHERE club_id = ? AND id = ?",
                        (name, note, club_id, member_id))
            cur.execute("INSERT INTO club_names (club_id, member_id, seq, name, note, at) VALUES (?, ?, ?, ?, ?, ?)",
                        (club_id, member_id, seq, name, note, now))

    def new_season(self, token: str, name: str, rules: str) -> int:
        """A new season under these rules (checked by the caller): the nights to come are its."""
        name = clean_text(name, "season", MAX_CLUB_NAME, Msg("season's name"))
        with self._change(token) as (cur, club_id, now):
            cur.execute("SELECT COUNT(*) FROM club_seasons WHERE club_id = ?", (club_id,))
            count = cur.fetchone()[0]
            if count >= MAX_SEASONS:
                raise _too_many("season", Msg("a club has at most {most} seasons", most=MAX_SEASONS))
            cur.execute("INSERT INTO club_seasons (club_id, id, name, rules, started) VALUES (?, ?, ?, ?, ?)",
                        (club_id, count + 1, name, rules, now))
        return count + 1

    def start_night(self, token: str, present: Sequence[int]) -> int:
        """A new night of the latest season with these members present; its id (no table yet)."""
        with self._change(token) as (cur, club_id, now):
            known = {r[0] for r in self._member_rows(cur, club_id)}
            unknown = [m for m in present if m not in known]
            if unknown:
                raise HandError.single("present", Msg("the club has no member {id}", id=unknown[0]))
            if len(set(present)) < 4:
                raise HandError.single("present", Msg("{n} present: a table needs four players", n=len(set(present))))
            cur.execute("SELECT COUNT(*) FROM club_nights WHERE club_id = ?", (club_id,))
            count = cur.fetchone()[0]
            if count >= MAX_NIGHTS:
                raise _too_many("present", Msg("a club keeps at most {most} nights", most=MAX_NIGHTS))
            cur.execute("SELECT MAX(id) FROM club_seasons WHERE club_id = ?", (club_id,))
            season = cur.fetchone()[0]
            cur.execute("INSERT INTO club_nights (club_id, id, season_id, present, at) VALUES (?, ?, ?, ?, ?)",
                        (club_id, count + 1, season, json.dumps(sorted(set(present))), now))
        return count + 1

    def seat_round(self, token: str, night_id: int, method: str, seed: str, tables: Sequence[Sequence[int]],
                   byes: Sequence[int], sheet_settings: Sequence[Mapping[str, str]]) -> int:
        """Seat a round of a night: one new stored sheet a table (its settings as given: the
        season's rules, the players' names); the round's number."""
        club = self.open(token)
        if not club.manages:
            raise NotAllowed(club.role, "organiser")
        night = club.night(night_id)
        if night is None:
            raise HandError.single("night", Msg("the club has no night {id}", id=night_id))
        seated = [m for t in tables for m in t]
        if any(len(t) != 4 for t in tables) or not set(seated) | set(byes) <= set(night.present) \
                or len(set(seated)) != len(seated):
            raise HandError.single("present", Msg("a seating must put each member present at one table of four"))
        if len({t.round for t in night.tables if t.round}) >= MAX_ROUNDS:   # 0: sheets brought in
            raise _too_many("round", Msg("a night has at most {most} rounds", most=MAX_ROUNDS))
        self.room_for_tables(club, len(tables))
        edits = [self.sheets.create(settings, [], f"club:{club.id}") for settings in sheet_settings]
        member, view = club.tokens["member"], club.tokens["view"]
        with self._change(token) as (cur, club_id, _now):
            cur.execute("SELECT MAX(round) FROM club_rounds WHERE club_id = ? AND night_id = ?", (club_id, night_id))
            number = (cur.fetchone()[0] or 0) + 1
            cur.execute("INSERT INTO club_rounds (club_id, night_id, round, method, seed, byes)"
                        " VALUES (?, ?, ?, ?, ?, ?)", (club_id, night_id, number, method, seed, json.dumps(list(byes))))
            for i, (seats, edit) in enumerate(zip(tables, edits, strict=True), 1):
                place = f"{club_id}/{night_id}/{number}/{i}"
                sheet_view = view_token_of(edit)
                cur.execute("INSERT INTO club_tables (club_id, night_id, round, number, seats, sheet_hash,"
                            " edit_sealed, view_sealed, club_sealed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (club_id, night_id, number, i, json.dumps(list(seats)), token_hash(sheet_view),
                             seal(member, place + "/edit", edit), seal(view, place + "/view", sheet_view),
                             seal(sheet_view, place + "/club", view)))
        return number

    def bring_sheet(self, token: str, night_id: int, seats: Sequence[int], source: str, view_token: str,
                    edit_token: str | None = None) -> Table:
        """A sheet played apart brought into a night as one of its tables (round 0, "brought
        in"): its players 1-4 are these members, who count as present. `source` names the sheet
        (a stored sheet's view hash, an address-only sheet's words hashed): a sheet already
        brought into this night is that table again, nothing doubled; into another night,
        refused. Without the edit token (a view link brought) the members only watch it."""
        with self._change(token) as (cur, club_id, _now):
            known = {r[0] for r in self._member_rows(cur, club_id)}
            if len(seats) != 4 or len(set(seats)) != 4 or not set(seats) <= known:
                raise HandError.single("seat1", Msg("a sheet's four players must be four members of the club"))
            cur.execute("SELECT present FROM club_nights WHERE club_id = ? AND id = ?", (club_id, night_id))
            row = cur.fetchone()
            if row is None:
                raise HandError.single("sheet", Msg("the club has no night {id}", id=night_id))
            sheet_hash = token_hash(view_token)
            cur.execute("SELECT night_id, round, number, seats FROM club_tables WHERE club_id = ?"
                        " AND (source = ? OR sheet_hash = ?)", (club_id, source, sheet_hash))
            found = cur.fetchone()
            if found is not None:
                if found[0] != night_id:
                    raise HandError.single("sheet", Msg("this sheet is already a table of night {night}: a sheet counts"
                                                        " once in the standings", night=found[0]))
                return Table(night_id, found[1], found[2], tuple(json.loads(found[3])), view_token)
            cur.execute("SELECT COUNT(*) FROM club_tables WHERE club_id = ? AND night_id = ? AND round = 0",
                        (club_id, night_id))
            number = cur.fetchone()[0] + 1
            place = f"{club_id}/{night_id}/0/{number}"
            member, view = member_token_of(token), view_token_of_member(member_token_of(token))
            cur.execute("INSERT INTO club_tables (club_id, night_id, round, number, seats, sheet_hash, edit_sealed,"
                        " view_sealed, club_sealed, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (club_id, night_id, 0, number, json.dumps(list(seats)), sheet_hash,
                         seal(member, place + "/edit", edit_token) if edit_token else "",
                         seal(view, place + "/view", view_token),
                         seal(view_token, place + "/club", view) if edit_token else "", source))
            present = sorted(set(json.loads(row[0])) | set(seats))
            cur.execute("UPDATE club_nights SET present = ? WHERE club_id = ? AND id = ?",
                        (json.dumps(present), club_id, night_id))
        return Table(night_id, 0, number, tuple(seats), view_token)

    # --- reading the database ---------------------------------------------------------

    @contextmanager
    def _change(self, token: str) -> Iterator[tuple[Cursor, int, float]]:
        """A transaction that changes the club, the organiser's link only: (cursor, club id, now),
        the club's row locked, its version counted up at the end; NotAllowed for a member's or a
        view link, ClubGone for none."""
        with self.db.transaction() as cur:
            found = self._find(cur, token, lock=True)
            if found is None:
                raise ClubGone(token)
            if found[3] != "organiser":
                raise NotAllowed(found[3], "organiser")
            now = self.clock()
            yield cur, found[0], now
            cur.execute("UPDATE clubs SET version = version + 1, used = ? WHERE id = ?", (now, found[0]))

    def _find(self, cur, token: str, lock: bool = False):
        """(id, name, version, role) for a token, or None."""
        if not token or len(token) > 64:
            return None
        hashed = token_hash(token)
        suffix = " FOR UPDATE" if lock and self.db.kind == "postgresql" else ""
        cutoff = self.clock() - EXPIRE_DAYS * 86400
        cur.execute("SELECT id, name, version, organiser_hash = ?, member_hash = ? FROM clubs"
                    " WHERE (organiser_hash = ? OR member_hash = ? OR view_hash = ?) AND used > ?" + suffix,
                    (hashed, hashed, hashed, hashed, hashed, cutoff))
        row = cur.fetchone()
        if row is None:
            return None
        role = "organiser" if row[3] else "member" if row[4] else "view"
        return row[0], row[1], row[2], role

    @staticmethod
    def _member_rows(cur, club_id: int) -> list[tuple[int, str, str]]:
        cur.execute("SELECT id, name, note FROM club_members WHERE club_id = ? ORDER BY id", (club_id,))
        return [tuple(r) for r in cur.fetchall()]

    @staticmethod
    def _members(cur, club_id: int) -> tuple[Member, ...]:
        cur.execute("SELECT member_id, seq, name, note, at FROM club_names WHERE club_id = ? ORDER BY member_id, seq",
                    (club_id,))
        history: dict[int, list[NameChange]] = {}
        for member_id, seq, name, note, at in cur.fetchall():
            history.setdefault(member_id, []).append(NameChange(seq, name, note, at))
        cur.execute("SELECT id, name, note, joined FROM club_members WHERE club_id = ? ORDER BY id", (club_id,))
        return tuple(Member(r[0], r[1], r[2], r[3], tuple(history.get(r[0], ()))) for r in cur.fetchall())

    @staticmethod
    def _seasons(cur, club_id: int) -> tuple[Season, ...]:
        cur.execute("SELECT id, name, rules, started FROM club_seasons WHERE club_id = ? ORDER BY id", (club_id,))
        return tuple(Season(*r) for r in cur.fetchall())

    @staticmethod
    def _nights(cur, club_id: int, token: str, role: str) -> tuple[Night, ...]:
        cur.execute("SELECT night_id, round, method, seed, byes FROM club_rounds WHERE club_id = ?"
                    " ORDER BY night_id, round", (club_id,))
        rounds: dict[int, list[Seating]] = {}
        for night_id, number, method, seed, byes in cur.fetchall():
            rounds.setdefault(night_id, []).append(Seating(number, method, seed, tuple(json.loads(byes))))
        cur.execute("SELECT night_id, round, number, seats, edit_sealed, view_sealed FROM club_tables"
                    " WHERE club_id = ? ORDER BY night_id, round, number", (club_id,))
        tables: dict[int, list[Table]] = {}
        member = None if role == "view" else (member_token_of(token) if role == "organiser" else token)
        view = view_token_of_member(member) if member else token
        for night_id, number, table, seats, edit_sealed, view_sealed in cur.fetchall():
            place = f"{club_id}/{night_id}/{number}/{table}"
            sheet = seal(member, place + "/edit", edit_sealed) if member and edit_sealed \
                else seal(view, place + "/view", view_sealed)   # '' : a sheet brought by its view link
            tables.setdefault(night_id, []).append(Table(night_id, number, table, tuple(json.loads(seats)), sheet))
        cur.execute("SELECT id, season_id, present, at FROM club_nights WHERE club_id = ? ORDER BY id", (club_id,))
        return tuple(Night(r[0], r[1], tuple(json.loads(r[2])), r[3], tuple(rounds.get(r[0], ())),
                           tuple(tables.get(r[0], ()))) for r in cur.fetchall())

    def _expire(self, cur, now: float) -> None:
        """Delete the clubs nobody opened for EXPIRE_DAYS (their rows go with them; their sheets
        expire as any sheet does)."""
        cutoff = now - EXPIRE_DAYS * 86400
        for table in ("club_tables", "club_rounds", "club_nights", "club_seasons", "club_names", "club_members"):
            cur.execute(f"DELETE FROM {table} WHERE club_id IN (SELECT id FROM clubs WHERE used < ?)", (cutoff,))
        cur.execute("DELETE FROM clubs WHERE used < ?", (cutoff,))


def _tokens(token: str, role: str) -> dict[str, str]:
    """The links a token can show: its own and those below it."""
    if role == "organiser":
        member = member_token_of(token)
        return {"organiser": token, "member": member, "view": view_token_of_member(member)}
    if role == "member":
        return {"member": token, "view": view_token_of_member(token)}
    return {"view": token}
