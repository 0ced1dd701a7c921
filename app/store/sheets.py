"""A stored sheet: its settings and an ordered log of versioned entries, behind two tokens.

The log is never rewritten: adding a hand, correcting or removing one, and undoing the last
change are each one new entry, numbered 1, 2, 3 … in the sheet (an entry's number is the
sheet's version after it). The hands are what the log says when read from the start
(`fold`). A hand is known by the number of the entry that added it, so a correction names
the hand, not its place, and another player's new hand cannot shift it.

Versions guard every change but adding: a correction, a removal or an undo says which version
its author saw (`base`), and is refused (`StaleEdit`) when that hand, or for an undo anything,
changed after it: nobody's change is silently overwritten. Adding needs no base, so four
phones adding at once all land, in the order the database took them.

Exactly once: a change may carry the id its client chose for it (`client_id`, made when the
form was drawn). The id is kept with its entry, and a change whose id the sheet already holds
is not made again: the store answers with the version that change made, whatever happened
since. A second tap, a resend after an answer lost on the way, a replay after the server was
killed: each lands once.

Capabilities: the edit token is 144 random bits (secrets); the view token is derived from it
by SHA-256, so whoever holds the edit link can show the view link, and the view link reveals
nothing of the edit one. Only the SHA-256 of each token is stored: a copy of the database
opens no sheet.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from app.base.errors import FieldError, HandError
from app.base.i18n import Msg

from .database import Database

TOKEN_BYTES = 18                 # 144 bits
MAX_HANDS = 200                  # hands on one stored sheet
MAX_ENTRIES = 2000               # entries in its log (corrections and undos included)
MAX_LINE = 2000                  # bytes (UTF-8) of one hand's line
MAX_SHEET_BYTES = 256 * 1024     # bytes of all the lines in one sheet's log
MAX_BYTES_PER_HOUR = 1024 * 1024   # bytes of lines one client may write in an hour, all sheets together
MAX_CREATED_PER_HOUR = 30        # sheets one client may create in an hour
EXPIRE_DAYS = 60                 # a sheet nobody opened or changed for this long is deleted
KINDS = ("add", "correct", "remove", "undo")


class StaleEdit(HandError):
    """A change based on a version of the sheet that another change has since overtaken."""


class SheetGone(LookupError):
    """No sheet has this token (never made, or expired)."""


class TooMany(HandError):
    """A limit reached: hands on a sheet, entries in its log, sheets made in an hour."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    seq: int
    kind: str
    target: int | None
    line: str
    at: float
    priced: str | None = None    # the line's price, kept when it was stored (app/table/kept.py)


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand as the log has it now: its id (the entry that added it), its line and the
    line's kept price (None: none was kept)."""

    id: int
    line: str
    priced: str | None = None
    source: int = 0              # the entry its line came from (its add, or its latest correction)


@dataclass(frozen=True, slots=True)
class Stored:
    """A stored sheet as read: its settings, its version, its hands in order."""

    settings: Mapping[str, str]
    version: int
    hands: tuple[Hand, ...]
    view_token: str
    edit_token: str | None       # None when opened with the view token
    used: float
    last_change: LogEntry | None   # what undo would take back

    @property
    def editable(self) -> bool:
        return self.edit_token is not None


def new_edit_token() -> str:
    return _b64(secrets.token_bytes(TOKEN_BYTES))


def view_token_of(edit_token: str) -> str:
    """The view token an edit token carries (one-way: the view token gives nothing back)."""
    return _b64(hashlib.sha256(b"mahjong-sheet-view:" + edit_token.encode()).digest()[:TOKEN_BYTES])


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def fold(log: tuple[LogEntry, ...] | list[LogEntry]) -> tuple[tuple[Hand, ...], LogEntry | None]:
    """The hands the log describes, in the order they were added, and the change undo would take back.

    An undo takes back the latest change not yet taken back (an undo is not itself undone:
    a change taken back by mistake is entered again).

    >>> log = [LogEntry(1, "add", None, "a", 0), LogEntry(2, "add", None, "b", 0),
    ...        LogEntry(3, "correct", 1, "A", 0), LogEntry(4, "undo", 3, "", 0)]
    >>> [h.line for h in fold(log)[0]]
    ['a', 'b']
    """
    undone = {e.target for e in log if e.kind == "undo"}
    hands: dict[int, Hand] = {}
    last = None
    for e in log:
        if e.kind == "undo" or e.seq in undone:
            continue
        last = e
        if e.kind == "add":
            hands[e.seq] = Hand(e.seq, e.line, e.priced, e.seq)
        elif e.kind == "correct" and e.target in hands:
            hands[e.target] = Hand(e.target, e.line, e.priced, e.seq)
        elif e.kind == "remove":
            hands.pop(e.target, None)
    return tuple(hands.values()), last


def _touches(entry: LogEntry, hand_id: int, log: Mapping[int, LogEntry]) -> bool:
    """Whether an entry changed the hand (an undo changes what its undone entry changed)."""
    if entry.kind == "undo":
        undone = log.get(entry.target)
        return undone is not None and _touches(undone, hand_id, log)
    return entry.seq == hand_id or entry.target == hand_id


class SheetStore:
    """Stored sheets in one database."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    # --- making and opening ------------------------------------------------------------

    def create(self, settings: Mapping[str, str], lines: list[str], client: str = "",
               priced: list[str | None] | None = None, share_id: str | None = None) -> str:
        """Store a new sheet with these hands (and their prices, when given); its edit token.

        A share that names its id (`share_id`, drawn by the sharing page: share_token) is made
        once: its edit token comes from the id, so a repeat (a second tap, a resend after a lost
        answer) finds the sheet the first made and answers its token, changing nothing."""
        _check_share_id(share_id)
        if len(lines) > MAX_HANDS:
            raise _too_many("hands", Msg("{n} hands is more than a stored sheet holds (at most {most})",
                                         n=len(lines), most=MAX_HANDS))
        edit = share_token(share_id) if share_id else new_edit_token()
        now = self.clock()
        creator = token_hash("client:" + client)
        lines = [_line(line) for line in lines]
        size = sum(_bytes(line) for line in lines)
        if size > MAX_SHEET_BYTES:
            raise _too_many("hands", Msg("these hands fill {n} bytes, more than a stored sheet holds (at most"
                                         " {most})", n=size, most=MAX_SHEET_BYTES))
        try:
            self._insert(settings, lines, priced, edit, creator, size, now)
        except _Made:
            pass            # this share was made before: its sheet stands as it was made
        return edit

    def _insert(self, settings: Mapping[str, str], lines: list[str], priced: list[str | None] | None,
                edit: str, creator: str, size: int, now: float) -> None:
        with self.db.transaction() as cur:
            self._expire(cur, now)
            cur.execute("SELECT 1 FROM sheets WHERE edit_hash = ?", (token_hash(edit),))
            if cur.fetchone():
                raise _Made()
            self._written(cur, creator, size, now, "share")
            cur.execute("SELECT COUNT(*) FROM sheets WHERE creator = ? AND created > ?",
                        (creator, now - 3600))
            if cur.fetchone()[0] >= MAX_CREATED_PER_HOUR:
                raise _too_many("share", Msg("{most} sheets were shared from here in the last hour, the most"
                                             " an hour allows: try again later", most=MAX_CREATED_PER_HOUR))
            sheet_id = secrets.randbits(62)
            cur.execute("INSERT INTO sheets (id, edit_hash, view_hash, settings, version, created, used, creator)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (edit_hash) DO NOTHING",
                        (sheet_id, token_hash(edit), token_hash(view_token_of(edit)),
                         json.dumps(dict(settings), sort_keys=True), len(lines), now, now, creator))
            if cur.rowcount == 0:
                raise _Made()   # the same share, made at this moment by its twin request
            prices = list(priced or []) + [None] * len(lines)
            for seq, line in enumerate(lines, 1):
                cur.execute("INSERT INTO entries (sheet_id, seq, kind, target, line, at, priced, writer, bytes)"
                            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (sheet_id, seq, "add", None, line, now, prices[seq - 1], creator, _bytes(line)))

    def made_in_the_last_hour(self, client: str) -> int:
        """How many sheets this client made in the last hour (MAX_CREATED_PER_HOUR at most)."""
        with self.db.read() as cur:
            cur.execute("SELECT COUNT(*) FROM sheets WHERE creator = ? AND created > ?",
                        (token_hash("client:" + client), self.clock() - 3600))
            return cur.fetchone()[0]

    def open(self, token: str) -> Stored:
        """The sheet an edit or a view token opens (SheetGone when none)."""
        now = self.clock()
        with self.db.transaction() as cur:
            found = self._find(cur, token)
            if found is None:
                raise SheetGone(token)
            sheet_id, settings, version, editable = found
            cur.execute("UPDATE sheets SET used = ? WHERE id = ?", (now, sheet_id))
            log = self._log(cur, sheet_id)
        hands, last = fold(log)
        edit = token if editable else None
        return Stored(json.loads(settings), version, hands, view_token_of(token) if editable else token,
                      edit, now, last)

    def keep_prices(self, token: str, prices: Mapping[int, str]) -> None:
        """Keep the prices of entries stored without one (by the entry's number): a sheet from
        before prices were kept is priced once, the first time it is read."""
        with self.db.transaction() as cur:
            found = self._find(cur, token)
            if found is None:
                return
            for seq, priced in prices.items():
                cur.execute("UPDATE entries SET priced = ? WHERE sheet_id = ? AND seq = ?", (priced, found[0], seq))

    def role(self, token: str) -> str | None:
        """What a token opens, read only (nothing marked used): "edit", "view", or None."""
        with self.db.read() as cur:
            found = self._find(cur, token)
        return None if found is None else ("edit" if found[3] else "view")

    def version(self, token: str) -> int:
        """The sheet's version alone (what a watching page polls): one read, no lock."""
        with self.db.read() as cur:
            found = self._find(cur, token)
        if found is None:
            raise SheetGone(token)
        return found[2]

    # --- changing ----------------------------------------------------------------------

    def add(self, edit_token: str, line: str, client_id: str | None = None, priced: str | None = None,
            client: str = "") -> int:
        """Append a hand (and its price, kept with it) for `client` (an address); the sheet's new
        version (the version it made, when `client_id` was seen before)."""
        return self._append(edit_token, "add", None, _line(line), None, client_id, priced, client)

    def correct(self, edit_token: str, hand_id: int, line: str, base: int, client_id: str | None = None,
                priced: str | None = None, client: str = "") -> int:
        """Put a new line in place of hand `hand_id`, as seen at version `base`."""
        return self._append(edit_token, "correct", hand_id, _line(line), base, client_id, priced, client)

    def remove(self, edit_token: str, hand_id: int, base: int, client_id: str | None = None) -> int:
        return self._append(edit_token, "remove", hand_id, "", base, client_id)

    def undo(self, edit_token: str, base: int, client_id: str | None = None) -> int:
        """Take back the last change, as seen at version `base`."""
        return self._append(edit_token, "undo", None, "", base, client_id)

    def _append(self, edit_token: str, kind: str, target: int | None, line: str, base: int | None,
                client_id: str | None = None, priced: str | None = None, client: str = "") -> int:
        now = self.clock()
        with self.db.transaction() as cur:
            found = self._find(cur, edit_token, lock=True)
            if found is None or not found[3]:
                raise SheetGone(edit_token)
            sheet_id, _settings, version, _editable = found
            _check_client_id(client_id)
            if client_id:   # under the sheet's lock: a repeat racing its first waits, then finds it
                cur.execute("SELECT seq FROM entries WHERE sheet_id = ? AND client_id = ?", (sheet_id, client_id))
                done = cur.fetchone()
                if done is not None:
                    return done[0]
            if version >= MAX_ENTRIES:
                raise _too_many("sheet", Msg("this sheet has had {most} changes, the most one holds: export it"
                                             " and start another", most=MAX_ENTRIES))
            log = self._log(cur, sheet_id)
            hands, last = fold(log)
            if base is not None and not 0 <= base <= version:
                raise StaleEdit([FieldError("version", Msg("version {base} is not a version of this sheet",
                                                           base=base))])
            target = self._check(kind, target, base, log, hands, last)
            if kind == "add" and len(hands) >= MAX_HANDS:
                raise _too_many("hands", Msg("the sheet is full: it holds {most} hands; export it and start"
                                             " another", most=MAX_HANDS))
            writer = token_hash("client:" + client)
            if line:
                size = _bytes(line)
                if sum(_bytes(e.line) for e in log) + size > MAX_SHEET_BYTES:
                    raise _too_many("line", Msg("this sheet's hands fill the {most} bytes a sheet holds: export it"
                                                " and start another", most=MAX_SHEET_BYTES))
                self._written(cur, writer, size, now, "line")
            seq = version + 1
            cur.execute("INSERT INTO entries (sheet_id, seq, kind, target, line, at, client_id, priced, writer, bytes)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (sheet_id, seq, kind, target, line, now, client_id or None, priced, writer, _bytes(line)))
            cur.execute("UPDATE sheets SET version = ?, used = ? WHERE id = ?", (seq, now, sheet_id))
        return seq

    @staticmethod
    def _check(kind, target, base, log, hands, last) -> int | None:
        """Refuse a change its author could not have seen through; the entry's target."""
        by_seq = {e.seq: e for e in log}
        later = [e for e in log if e.seq > base] if base is not None else []
        if kind == "undo":
            if later:
                raise StaleEdit([FieldError("version", Msg(
                    "the sheet changed since you saw it (version {base}, now {now}): look at it again"
                    " before you undo", base=base, now=len(log)))])
            if last is None:
                raise HandError([FieldError("undo", Msg("there is nothing to undo"))])
            return last.seq
        if kind in ("correct", "remove"):
            if target not in {h.id for h in hands}:
                raise StaleEdit([FieldError("hand", Msg(
                    "that hand is no longer on the sheet (someone removed it): nothing was changed"))])
            if any(_touches(e, target, by_seq) for e in later):
                raise StaleEdit([FieldError("version", Msg(
                    "someone changed this hand after you opened it (version {base}, now {now}): your"
                    " change was not saved; look at the hand again", base=base, now=len(log)))])
        return target

    # --- reading the database ----------------------------------------------------------

    def _find(self, cur, token: str, lock: bool = False):
        """(id, settings, version, editable) for a token, or None; locks the row to change it."""
        if not token or len(token) > 64:
            return None
        hashed = token_hash(token)
        suffix = " FOR UPDATE" if lock and self.db.kind == "postgresql" else ""
        cutoff = self.clock() - EXPIRE_DAYS * 86400
        cur.execute("SELECT id, settings, version, edit_hash = ? FROM sheets"
                    " WHERE (edit_hash = ? OR view_hash = ?) AND used > ?" + suffix,
                    (hashed, hashed, hashed, cutoff))
        row = cur.fetchone()
        return None if row is None else (row[0], row[1], row[2], bool(row[3]))

    @staticmethod
    def _log(cur, sheet_id: int) -> tuple[LogEntry, ...]:
        cur.execute("SELECT seq, kind, target, line, at, priced FROM entries WHERE sheet_id = ? ORDER BY seq",
                    (sheet_id,))
        return tuple(LogEntry(*row) for row in cur.fetchall())

    @staticmethod
    def _written(cur, writer: str, size: int, now: float, field: str) -> None:
        """Refuse `size` more bytes from a client that wrote MAX_BYTES_PER_HOUR in the last hour."""
        cur.execute("SELECT COALESCE(SUM(bytes), 0) FROM entries WHERE writer = ? AND at > ?", (writer, now - 3600))
        if cur.fetchone()[0] + size > MAX_BYTES_PER_HOUR:
            raise _too_many(field, Msg("{most} bytes of hands were written from here in the last hour, the most"
                                       " an hour allows: try again later", most=MAX_BYTES_PER_HOUR))

    def _expire(self, cur, now: float) -> None:
        """Delete the sheets nobody used for EXPIRE_DAYS (their entries go with them)."""
        cutoff = now - EXPIRE_DAYS * 86400
        cur.execute("DELETE FROM entries WHERE sheet_id IN (SELECT id FROM sheets WHERE used < ?)", (cutoff,))
        cur.execute("DELETE FROM sheets WHERE used < ?", (cutoff,))


def _bytes(line: str) -> int:
    return len(line.encode("utf-8", "surrogatepass"))


def _line(line: str) -> str:
    line = " ".join(line.split())
    if not line:
        raise HandError([FieldError("line", Msg("an empty hand: give the hand, e.g. {example}",
                                                example="hand=123m456m789m234p55s"))])
    if len(line.encode("utf-8", "surrogatepass")) > MAX_LINE:
        raise HandError([FieldError("line", Msg("a hand of {n} bytes is longer than {most}",
                                                n=len(line.encode("utf-8", "surrogatepass")), most=MAX_LINE))])
    bad = _UNWRITABLE.search(line)
    if bad:   # PostgreSQL keeps no NUL in text, no database half a surrogate pair; no hand needs one
        raise HandError([FieldError("line", Msg("a hand cannot hold the control character {char}",
                                                char=f"U+{ord(bad[0]):04X}"))])
    return line


# Control characters (what str.split() leaves of them: none is whitespace) and lone surrogates.
_UNWRITABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


CLIENT_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")   # what a form's `cid` is (16 random bytes, base64url)


def _check_client_id(client_id: str | None) -> None:
    if client_id and not CLIENT_ID.fullmatch(client_id):
        raise HandError([FieldError("cid", Msg("'{cid}' is not a change's id: 8-64 letters, digits, - or _;"
                                               " open the sheet again", cid=client_id[:20]))])


def _check_share_id(share_id: str | None) -> None:
    if share_id and not SHARE_ID.fullmatch(share_id):
        raise HandError([FieldError("share", Msg("'{cid}' is not a share's id: 22-64 letters, digits, - or _;"
                                                 " open the sheet again", cid=share_id[:24]))])


SHARE_ID = re.compile(r"[A-Za-z0-9_-]{22,64}")   # a share's id: 128 random bits at least (it makes the token)


class _Made(Exception):
    """The share this id names was made already (SheetStore.create)."""


def share_token(share_id: str) -> str:
    """The edit token of the share this id names: one id, one sheet. The id is drawn in the
    sharing browser (128 random bits) and sent once with the share; only the token's hash is
    kept, so the id opens nothing the token would not."""
    return _b64(hashlib.sha256(b"mahjong-sheet-share:" + share_id.encode()).digest()[:TOKEN_BYTES])


def new_client_id() -> str:
    """An id for one change, made when its form is drawn."""
    return _b64(secrets.token_bytes(16))


def _too_many(field: str, message: str) -> TooMany:
    return TooMany([FieldError(field, message)])
