"""The remote games on disk: ``remote.sqlite3`` beside the game store.

The link is its only writer.  Each entry is one transaction, committed with
``synchronous=FULL`` before :meth:`Journal.append` returns: a status counts
an entry only after that.  A second entry under one side's number is
refused (the primary key is the game, the side and the number), so an entry
is kept at most once whatever the network repeats.  Beside the entries: the
game's header, this board's private key for it (the file is the owner's
alone, mode 0600), the other side's public key once it is seated (and, for a
player in the browser, the key the board signs that player's entries with),
the player code and the browser session that holds the seat, the
invitation's secret and when it expires, the broker, and the store's game
the daemon plays it as.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal

from ..errors import BoardctlError
from .entry import Entry, EntryError, Header

JOURNAL_NAME = "remote.sqlite3"
BUSY_TIMEOUT = 5.0
VERSION = 2  # PRAGMA user_version of this schema; earlier files are set aside

Role = Literal["host", "guest"]
Seat = Literal["", "browser", "board"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    key          TEXT PRIMARY KEY,
    header       TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('host', 'guest')),
    colour       INTEGER NOT NULL CHECK (colour IN (0, 1)),
    secret       TEXT NOT NULL,
    seat         TEXT NOT NULL DEFAULT '' CHECK (seat IN ('', 'browser', 'board')),
    other_key    TEXT NOT NULL DEFAULT '',
    other_secret TEXT NOT NULL DEFAULT '',
    other        TEXT NOT NULL DEFAULT '',
    code         TEXT NOT NULL DEFAULT '',
    holder       TEXT NOT NULL DEFAULT '',
    invite       TEXT NOT NULL DEFAULT '',
    expires      REAL NOT NULL DEFAULT 0,
    broker       TEXT NOT NULL DEFAULT '',
    seat_message TEXT NOT NULL DEFAULT '',
    local_game   INTEGER,
    made         INTEGER NOT NULL,
    closed       INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1))
);
CREATE TABLE IF NOT EXISTS entries (
    key   TEXT NOT NULL REFERENCES games (key),
    side  INTEGER NOT NULL CHECK (side IN (0, 1)),
    n     INTEGER NOT NULL CHECK (n >= 1),
    body  TEXT NOT NULL,
    PRIMARY KEY (key, side, n)
) WITHOUT ROWID;
"""


class JournalError(BoardctlError, OSError):
    """The journal cannot be opened, read or written; the message says why."""


class JournalConflict(JournalError):
    """Another entry is kept under this number: the sides disagree."""


@dataclass(frozen=True)
class Kept:
    """One remote game as the journal has it."""

    header: Header
    role: Role
    colour: int  # the colour this board's player plays
    secret: str  # this board's private key, hex
    seat: Seat  # who took the other seat ("board" for a guest)
    other_key: str = ""
    other_secret: str = ""  # the browser seat's key, which this board holds
    other: str = ""  # what the other side is called
    code: str = ""  # the player code for a browser
    holder: str = ""  # the digest of the browser session holding the seat
    invite: str = ""  # the invitation's secret
    expires: float = 0.0
    broker: str = ""
    seat_message: str = ""  # the host's signed word that the guest has the seat
    local_game: int | None = None


_COLUMNS = tuple(f.name for f in fields(Kept) if f.name != "header")


class Journal:
    """See the module docstring.  :raises JournalError: when it cannot be opened."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError):  # the owner's alone from the start
                os.close(os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            # The link and the web server's handlers use it, one at a time (the link's lock).
            self._conn = sqlite3.connect(
                self.path, isolation_level=None, timeout=BUSY_TIMEOUT, check_same_thread=False
            )
            self._conn.execute("PRAGMA journal_mode=WAL").fetchone()
            self._conn.execute("PRAGMA synchronous=FULL")
            self._set_aside_old()
            self._conn.executescript(_SCHEMA)
            self._conn.execute(f"PRAGMA user_version = {VERSION}")
        except (OSError, sqlite3.Error) as exc:
            raise JournalError(f"remote games journal {self.path}: {exc}") from None

    def _set_aside_old(self) -> None:
        """A journal of the first protocol (unsigned, one log) cannot go on
        under this one: its tables are renamed, kept for a look, not used."""
        (version,) = self._conn.execute("PRAGMA user_version").fetchone()
        tables = {r[0] for r in self._conn.execute("SELECT name FROM sqlite_master")}
        if version < VERSION and "games" in tables:
            for table in ("entries", "games"):
                if table in tables:
                    self._conn.execute(f"ALTER TABLE {table} RENAME TO {table}_v{version or 1}")

    def _write(self, sql: str, args: tuple[object, ...]) -> sqlite3.Cursor:
        try:
            return self._conn.execute(sql, args)
        except sqlite3.Error as exc:
            raise JournalError(f"remote games journal: {exc}") from None

    def create(self, kept: Kept) -> None:
        """Keep a new game; it becomes the current one (any other is closed).
        A game already kept under its key stays as it is (a second Join)."""
        names = ("key", "header", *_COLUMNS)
        values = (kept.header.key, json.dumps(kept.header.to_json()))
        values += tuple(getattr(kept, name) for name in _COLUMNS)
        try:
            with self._conn:
                self._conn.execute("BEGIN IMMEDIATE")
                self._conn.execute("UPDATE games SET closed = 1 WHERE key != ?", (kept.header.key,))
                self._conn.execute(
                    f"INSERT INTO games ({', '.join(names)}, made) "
                    f"VALUES ({', '.join('?' * len(names))}, "
                    "(SELECT coalesce(max(made), 0) + 1 FROM games)) "
                    "ON CONFLICT (key) DO UPDATE SET closed = 0",
                    values,
                )
        except sqlite3.Error as exc:
            raise JournalError(f"remote games journal: {exc}") from None

    def current(self) -> Kept | None:
        """The game being played (the last one made and not closed), or None."""
        row = self._conn.execute(
            f"SELECT header, {', '.join(_COLUMNS)} FROM games "
            "WHERE closed = 0 ORDER BY made DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        try:
            header = Header.from_json(json.loads(row[0]))
        except (ValueError, EntryError) as exc:
            raise JournalError(f"remote games journal: a damaged game ({exc})") from None
        return Kept(header, *row[1:])

    def entries(self, key: str) -> list[Entry]:
        """The game's entries, White's then Black's, each in order.

        :raises JournalError: for one that cannot be read back."""
        rows = self._conn.execute(
            "SELECT body FROM entries WHERE key = ? ORDER BY side, n", (key,)
        ).fetchall()
        try:
            return [Entry.from_json(json.loads(row[0])) for row in rows]
        except (ValueError, EntryError) as exc:
            raise JournalError(f"remote games journal: game {key}: {exc}") from None

    def append(self, entry: Entry) -> None:
        """Keep ``entry``, durably, before this returns.  The same entry again
        is nothing.  :raises JournalConflict: when another is kept under its number."""
        body = json.dumps(entry.to_json(), sort_keys=True)
        try:
            self._conn.execute(
                "INSERT INTO entries (key, side, n, body) VALUES (?, ?, ?, ?)",
                (entry.key, entry.side, entry.n, body),
            )
        except sqlite3.IntegrityError:
            row = self._conn.execute(
                "SELECT body FROM entries WHERE key = ? AND side = ? AND n = ?",
                (entry.key, entry.side, entry.n),
            ).fetchone()
            if row is None or row[0] != body:
                raise JournalConflict(f"entry {entry.side}/{entry.n} is kept as another") from None
        except sqlite3.Error as exc:
            raise JournalError(f"remote games journal: {exc}") from None

    def update(self, key: str, **values: object) -> None:
        """Change some of a kept game's fields (the names of :class:`Kept`)."""
        unknown = set(values) - set(_COLUMNS)
        if unknown:
            raise ValueError(f"no such fields: {', '.join(sorted(unknown))}")
        assignments = ", ".join(f"{name} = ?" for name in values)
        self._write(f"UPDATE games SET {assignments} WHERE key = ?", (*values.values(), key))

    def close_game(self, key: str) -> None:
        self._write("UPDATE games SET closed = 1 WHERE key = ?", (key,))

    def close(self) -> None:
        self._conn.close()
