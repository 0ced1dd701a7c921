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
    # 3: clubs (app/store/clubs.py): three capability links, members, seasons, nights, tables.
    # Self-contained: it names no earlier table but `sheets` (whose tokens it seals, never keeps).
    (
        """CREATE TABLE clubs (
               id              BIGINT PRIMARY KEY,
               organiser_hash  TEXT NOT NULL UNIQUE,   -- sha256 of each token: no token is kept
               member_hash     TEXT NOT NULL UNIQUE,
               view_hash       TEXT NOT NULL UNIQUE,
               name            TEXT NOT NULL,
               version         BIGINT NOT NULL,        -- changes so far (a page polls it)
               created         DOUBLE PRECISION NOT NULL,
               used            DOUBLE PRECISION NOT NULL,
               creator         TEXT NOT NULL           -- sha256 of the creating client's address
           )""",
        """CREATE TABLE club_members (
               club_id  BIGINT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
               id       BIGINT NOT NULL,               -- 1, 2, 3 … in the club: never reused
               name     TEXT NOT NULL,
               note     TEXT NOT NULL,                 -- what tells two of one name apart
               joined   DOUBLE PRECISION NOT NULL,
               PRIMARY KEY (club_id, id)
           )""",
        """CREATE TABLE club_names (
               club_id    BIGINT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
               member_id  BIGINT NOT NULL,
               seq        BIGINT NOT NULL,             -- 1: the name given on joining; then each rename
               name       TEXT NOT NULL,
               note       TEXT NOT NULL,
               at         DOUBLE PRECISION NOT NULL,
               PRIMARY KEY (club_id, member_id, seq)
           )""",
        """CREATE TABLE club_seasons (
               club_id  BIGINT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
               id       BIGINT NOT NULL,
               name     TEXT NOT NULL,
               rules    TEXT NOT NULL,                 -- a family's id or a house variant's code
               started  DOUBLE PRECISION NOT NULL,
               PRIMARY KEY (club_id, id)
           )""",
        """CREATE TABLE club_nights (
               club_id    BIGINT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
               id         BIGINT NOT NULL,
               season_id  BIGINT NOT NULL,
               present    TEXT NOT NULL,               -- JSON: the member ids present
               at         DOUBLE PRECISION NOT NULL,
               PRIMARY KEY (club_id, id)
           )""",
        """CREATE TABLE club_rounds (
               club_id   BIGINT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
               night_id  BIGINT NOT NULL,
               round     BIGINT NOT NULL,              -- 1, 2 … within the night
               method    TEXT NOT NULL,                -- random, snake, meet
               seed      TEXT NOT NULL,
               byes      TEXT NOT NULL,                -- JSON: the member ids who sat out
               PRIMARY KEY (club_id, night_id, round)
           )""",
        """CREATE TABLE club_tables (
               club_id      BIGINT NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
               night_id     BIGINT NOT NULL,
               round        BIGINT NOT NULL,
               number       BIGINT NOT NULL,           -- the table, 1, 2 … within the round
               seats        TEXT NOT NULL,             -- JSON: the member ids of players 1-4
               sheet_hash   TEXT NOT NULL,             -- the sheet's view_hash (kept alive with the club)
               edit_sealed  TEXT NOT NULL,             -- the sheet's edit token, sealed by the member token
               view_sealed  TEXT NOT NULL,             -- its view token, sealed by the view token
               club_sealed  TEXT NOT NULL,             -- the club's view token, sealed by the sheet's
               PRIMARY KEY (club_id, night_id, round, number)
           )""",
        "CREATE INDEX clubs_by_creator ON clubs (creator, created)",
        "CREATE INDEX club_tables_by_sheet ON club_tables (sheet_hash)",
    ),
    # 4: a sheet brought into a club night (app/store/clubs.py, bring_sheet) keeps where it came
    # from (`source`: the stored sheet's view_hash, or the hash of an address-only sheet's
    # words), so one sheet is one table of the club however often it is brought; a table the
    # club holds no edit link to keeps '' for `edit_sealed` and `club_sealed`
    (
        "ALTER TABLE club_tables ADD COLUMN source TEXT",
        "CREATE UNIQUE INDEX club_tables_by_source ON club_tables (club_id, source)",
    ),
)
