"""The one schema, as numbered migrations: each runs once, in order, in its own transaction.

A migration is a list of statements both SQLite and PostgreSQL read. The database keeps the
number of the last one applied (`schema_version`); a new release appends, never edits.
"""
from __future__ import annotations

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: sheets and their log
    (
        """CREATE TABLE sheets (
               id         BIGINT PRIMARY KEY,
               edit_hash  TEXT NOT NULL UNIQUE,   -- sha256 of the edit token: the token is never kept
               view_hash  TEXT NOT NULL UNIQUE,   -- sha256 of the view token
               settings   TEXT NOT NULL,          -- JSON: rules, names, dials
               version    BIGINT NOT NULL,        -- entries in the log so far
               created    DOUBLE PRECISION NOT NULL,
               used       DOUBLE PRECISION NOT NULL,   -- last read or written (expiry)
               creator    TEXT NOT NULL           -- sha256 of the creating client's address (rate limit)
           )""",
        """CREATE TABLE entries (
               sheet_id   BIGINT NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
               seq        BIGINT NOT NULL,        -- 1, 2, 3 … in the sheet: its version after this entry
               kind       TEXT NOT NULL,          -- add, correct, remove, undo
               target     BIGINT,                 -- the hand (its add's seq), or the undone entry
               line       TEXT NOT NULL,          -- the hand in the sheet's words (add, correct)
               at         DOUBLE PRECISION NOT NULL,
               PRIMARY KEY (sheet_id, seq)
           )""",
        "CREATE INDEX sheets_by_creator ON sheets (creator, created)",
        "CREATE INDEX sheets_by_use ON sheets (used)",
    ),
    # 2: each change keeps the id its client chose for it (the form's `cid`), so a repeat of
    # the same change (a second tap, a resend after a lost answer) finds it and changes nothing;
    # an add or a correction keeps its line's price (JSON, app/table/kept.py), so reading the
    # sheet prices nothing again
    (
        "ALTER TABLE entries ADD COLUMN client_id TEXT",
        "ALTER TABLE entries ADD COLUMN priced TEXT",
        # who wrote the entry (sha256 of the client's address, as sheets.creator) and its
        # line's bytes: what one address may write in an hour is capped across all sheets
        "ALTER TABLE entries ADD COLUMN writer TEXT",
        "ALTER TABLE entries ADD COLUMN bytes BIGINT NOT NULL DEFAULT 0",
        "CREATE INDEX entries_by_writer ON entries (writer, at)",
        "CREATE UNIQUE INDEX entries_by_client ON entries (sheet_id, client_id)",
    ),
)
