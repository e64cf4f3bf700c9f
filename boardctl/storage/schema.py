"""The game database's schema: its tables, version by version, and the
migration of an older file.

``PRAGMA user_version`` holds the version, ``PRAGMA application_id`` says the
file is boardctl's.  A file of a newer boardctl, or someone else's SQLite
file, is refused before anything is written to it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .errors import StoreError

APPLICATION_ID = 0x42444354  # "BDCT" in the SQLite header: this file is ours

# MIGRATIONS[n] takes the schema from version n to n + 1 (PRAGMA user_version).
MIGRATIONS = (
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        variant     TEXT NOT NULL,
        start_fen   TEXT NOT NULL,
        started_at  REAL NOT NULL,
        ended_at    REAL,
        result      TEXT CHECK (result IN ('1-0', '0-1', '1/2-1/2', '*')),
        termination TEXT,
        white       TEXT NOT NULL,
        black       TEXT NOT NULL,
        mode        TEXT NOT NULL,
        CHECK ((result IS NULL) = (ended_at IS NULL))
    );
    CREATE TABLE moves (
        game_id     INTEGER NOT NULL REFERENCES games (id),
        ply         INTEGER NOT NULL CHECK (ply >= 1),
        uci         TEXT NOT NULL,
        san         TEXT,
        created_at  REAL NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID;
    """,
    # Version 2: what the player sets at the board (the engine's level), kept
    # across restarts.
    """
    CREATE TABLE settings (
        key         TEXT PRIMARY KEY,
        value       TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
    # Version 3: real dates.  Before it the daemon stored its monotonic clock
    # (the simulator, 0.0) where a time belongs; those games keep their numbers
    # with wall_clock = 0, which says they are no dates.  A move's clock is the
    # time its mover had left after it, in a game played with clocks.
    """
    ALTER TABLE games ADD COLUMN wall_clock INTEGER NOT NULL DEFAULT 0
        CHECK (wall_clock IN (0, 1));
    ALTER TABLE moves ADD COLUMN clock REAL;
    """,
    # Version 4: a game's review (boardctl review), one per game, replaced when
    # it is reviewed again and dropped with a takeback.  review_positions holds
    # every position of the game, ply 0 the start: the engine's score from the
    # side to move, its move there, and the NAG of the move that led there.
    """
    CREATE TABLE reviews (
        game_id     INTEGER PRIMARY KEY REFERENCES games (id),
        reviewed_at REAL NOT NULL,
        movetime    REAL NOT NULL,
        depth       INTEGER
    );
    CREATE TABLE review_positions (
        game_id     INTEGER NOT NULL REFERENCES reviews (game_id),
        ply         INTEGER NOT NULL CHECK (ply >= 0),
        cp          INTEGER,
        mate        INTEGER,
        best        TEXT,
        nag         INTEGER CHECK (nag IN (2, 4, 6)),
        CHECK ((cp IS NULL) <> (mate IS NULL)),
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID;
    """,
    # Version 5: the win% the move that led to a position cost its mover, as the
    # review graded it (on scores of the same horizon, which the stored scores,
    # each its own search's deepest, need not be).  NULL: not graded, or a
    # review written before it.
    """
    ALTER TABLE review_positions ADD COLUMN loss REAL CHECK (loss BETWEEN 0 AND 100);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(conn: sqlite3.Connection, path: Path) -> int:
    """The version of the schema in ``conn`` (0: an empty file).

    :raises StoreError: when the file at ``path`` is not boardctl's game store
        or is of a newer boardctl.
    """
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if app_id not in (0, APPLICATION_ID) or (version == 0 and tables):
        raise StoreError(f"{path} is an SQLite database, but not boardctl's game store")
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"game database {path} has schema version {version}; "
            f"this boardctl reads up to {SCHEMA_VERSION}: upgrade boardctl"
        )
    return int(version)


def migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the schema in ``conn`` to :data:`SCHEMA_VERSION` in one transaction.

    :raises StoreError: as :func:`schema_version`.
    :raises sqlite3.Error: when the file does not take the write.
    """
    version = schema_version(conn, path)
    conn.execute("BEGIN IMMEDIATE")
    try:
        if version == SCHEMA_VERSION:
            # Nothing to migrate, but find out now, not at the first move,
            # whether the file takes writes: SQLite opens a file it may
            # not write read-only without a word.  Rolled back, it writes
            # nothing.
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("ROLLBACK")
            return
        for step in MIGRATIONS[version:]:
            for statement in step.split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
