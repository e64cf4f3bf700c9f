"""The remote games on disk: ``remote.sqlite3`` beside the game store.

The link (the web server's thread) is its only writer.  Each entry is one
transaction, committed with ``synchronous=FULL`` before :meth:`Journal.append`
returns: the link acknowledges an entry only after that.  A second entry
under one number is refused (the primary key is the game's key and the
entry's number), so an entry is kept at most once whatever the network
repeats.  Besides the entries: the game's header, who plays it (a browser
or a board; the host's address for a board that joined), the code and the
secret of the player's cookie, the store's game number the daemon plays it
as, and the epoch that orders this side's status messages.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..errors import BoardctlError
from .log import Entry, Header, Log, LogError, replayed

JOURNAL_NAME = "remote.sqlite3"
BUSY_TIMEOUT = 5.0

Role = Literal["host", "guest"]
Seat = Literal["", "browser", "board"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    key         TEXT PRIMARY KEY,
    header      TEXT NOT NULL,
    role        TEXT NOT NULL CHECK (role IN ('host', 'guest')),
    colour      INTEGER NOT NULL CHECK (colour IN (0, 1)),
    seat        TEXT NOT NULL DEFAULT '' CHECK (seat IN ('', 'browser', 'board')),
    code        TEXT NOT NULL,
    secret      TEXT NOT NULL,
    peer        TEXT NOT NULL DEFAULT '',
    other       TEXT NOT NULL DEFAULT '',
    local_game  INTEGER,
    epoch       INTEGER NOT NULL DEFAULT 0,
    made        INTEGER NOT NULL,
    closed      INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1))
);
CREATE TABLE IF NOT EXISTS entries (
    key         TEXT NOT NULL REFERENCES games (key),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    body        TEXT NOT NULL,
    PRIMARY KEY (key, seq)
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
    seat: Seat  # who took the other seat (the host's view); a guest's is "board"
    code: str
    secret: str
    peer: str  # the host's address, for a guest
    other: str  # what the other side is called
    local_game: int | None
    epoch: int


class Journal:
    """See the module docstring.  :raises JournalError: when it cannot be opened."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT)
            self._conn.execute("PRAGMA journal_mode=WAL").fetchone()
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise JournalError(f"remote games journal {self.path}: {exc}") from None

    def _write(self, sql: str, args: tuple[object, ...]) -> sqlite3.Cursor:
        try:
            return self._conn.execute(sql, args)
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            raise JournalError(f"remote games journal: {exc}") from None

    def create(
        self,
        header: Header,
        role: Role,
        colour: int,
        code: str,
        secret: str,
        peer: str = "",
        other: str = "",
    ) -> None:
        """Keep a new game; it becomes the current one (any other is closed)."""
        try:
            with self._conn:
                self._conn.execute("BEGIN IMMEDIATE")
                self._conn.execute("UPDATE games SET closed = 1")
                self._conn.execute(
                    "INSERT INTO games (key, header, role, colour, seat, code, secret, peer, "
                    "other, made) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
                    "(SELECT coalesce(max(made), 0) + 1 FROM games))",
                    (
                        header.key,
                        json.dumps(header.to_json()),
                        role,
                        colour,
                        "board" if role == "guest" else "",
                        code,
                        secret,
                        peer,
                        other,
                    ),
                )
        except sqlite3.Error as exc:
            raise JournalError(f"remote games journal: {exc}") from None

    def current(self) -> Kept | None:
        """The game being played (the last one made and not closed), or None."""
        row = self._conn.execute(
            "SELECT header, role, colour, seat, code, secret, peer, other, local_game, epoch "
            "FROM games WHERE closed = 0 ORDER BY made DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        try:
            header = Header.from_json(json.loads(row[0]))
        except (ValueError, LogError) as exc:
            raise JournalError(f"remote games journal: a damaged game ({exc})") from None
        return Kept(header, *row[1:])

    def log(self, header: Header) -> Log:
        """The game's log, replayed from its entries.  :raises JournalError: if they do not fit."""
        rows = self._conn.execute(
            "SELECT body FROM entries WHERE key = ? ORDER BY seq", (header.key,)
        ).fetchall()
        try:
            return replayed(header, [Entry.from_json(json.loads(row[0])) for row in rows])
        except (ValueError, LogError) as exc:
            raise JournalError(f"remote games journal: game {header.key}: {exc}") from None

    def append(self, key: str, entry: Entry) -> None:
        """Keep ``entry``, durably, before this returns.  The same entry again
        is nothing.  :raises JournalConflict: when another is kept under its number."""
        body = json.dumps(entry.to_json(), sort_keys=True)
        try:
            self._write(
                "INSERT INTO entries (key, seq, body) VALUES (?, ?, ?)", (key, entry.seq, body)
            )
        except sqlite3.IntegrityError:
            (kept,) = self._conn.execute(
                "SELECT body FROM entries WHERE key = ? AND seq = ?", (key, entry.seq)
            ).fetchone()
            if kept != body:
                raise JournalConflict(f"entry {entry.seq} of {key} is kept as another") from None

    def bind(self, key: str, local_game: int) -> None:
        """The daemon plays ``key`` as its stored game ``local_game``."""
        self._write("UPDATE games SET local_game = ? WHERE key = ?", (local_game, key))

    def seat(self, key: str, seat: Seat, other: str) -> None:
        """Who took the other seat, and what they are called."""
        self._write("UPDATE games SET seat = ?, other = ? WHERE key = ?", (seat, other, key))

    def next_epoch(self, key: str) -> int:
        """One more than last time: this side has started again."""
        self._write("UPDATE games SET epoch = epoch + 1 WHERE key = ?", (key,))
        (epoch,) = self._conn.execute("SELECT epoch FROM games WHERE key = ?", (key,)).fetchone()
        return int(epoch)

    def close_game(self, key: str) -> None:
        self._write("UPDATE games SET closed = 1 WHERE key = ?", (key,))

    def close(self) -> None:
        self._conn.close()
