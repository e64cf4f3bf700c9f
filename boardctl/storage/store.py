"""The crash-safe game store: every committed move in SQLite, and PGN export.

The daemon writes each committed move here *before* the display or the LEDs
confirm it.  The database lives in the state directory
(:func:`default_state_dir`), runs in WAL mode with ``synchronous=FULL`` (with
``NORMAL`` a committed move can be lost on power failure; ``FULL`` costs about
3.5 ms a move on the Pi), and every write is one transaction, committed before
the method returns.  After a crash, a power cut or a restart the daemon asks
for the unfinished game and replays it::

    store = GameStore(default_db_path())
    if store.notice:                       # the old file was corrupt: say so
        display.show_message(store.notice)
    resume = store.resume()                # (game id, Game) or None
    ...
    store.add_move(game_id, len(game.moves), uci, time.time())   # then confirm it

A file that is not a database, or fails ``PRAGMA quick_check``, is never
discarded: it is renamed (with its ``-wal`` and ``-shm`` files) to
``<name>.corrupt-<UTC time>``, a fresh database takes its place, and
:attr:`GameStore.recovered_from` and :attr:`GameStore.notice` say what
happened.  :func:`pgn_command` is ``boardctl pgn``; it only reads, and never
moves a file.

Every stored time is wall-clock time, UTC seconds since 1970 (``time.time()``),
passed in by the caller; games written before schema version 3 held the
daemon's monotonic clock instead, and read back with no date (``None``).

A database the daemon cannot write (a read-only file or filesystem, a full
disk while migrating) is opened for reading: the unfinished game can still be
resumed, :meth:`GameStore.write_problem` says why nothing can be saved, and
each write tries to open it for writing again.  A reader in a directory it
cannot write opens the file as SQLite allows there (see
:meth:`GameStore.read_mode`).  Values that boardctl never writes (edited in,
or damaged where ``quick_check`` cannot see) make that one game a
:class:`DamagedGameError`, never a crash.

Plies count from 1: ply *n* is the *n*-th move of the game, so after
``game.push(move)`` the ply is ``len(game.moves)``.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

from ..errors import BoardctlError
from ..rules import RESULTS, Game, get_variant
from ..userfiles import open_regular
from .records import (
    UCI,
    DamagedGameError,
    GameSummary,
    ReplayError,
    StoredGame,
    StoreValueError,
    checked_fields,
    checked_game,
    to_game,
)
from .reviews import Review, checked_review, stored_pgn

__all__ = [  # with the values and errors of stored.py, which the store hands out
    "APPLICATION_ID",
    "DB_NAME",
    "DISK_REASONS",
    "RESULTS",
    "SCHEMA_VERSION",
    "DamagedGameError",
    "GameStore",
    "GameSummary",
    "ReplayError",
    "Review",
    "StoreConflictError",
    "StoreError",
    "StoreValueError",
    "StoredGame",
    "UnknownGameError",
    "default_db_path",
    "default_state_dir",
    "pgn_command",
]

DB_NAME = "games.sqlite3"
APPLICATION_ID = 0x42444354  # "BDCT" in the SQLite header: this file is ours
BUSY_TIMEOUT = 5.0  # seconds a reader or writer waits for the other's lock

_CORRUPT_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB (primary result codes)
_READONLY, _IOERR, _FULL, _CANTOPEN = 8, 10, 13, 14
_WHY = {
    _READONLY: "database read-only",
    _FULL: "disk full",
    _IOERR: "disk error",
}  # for the screen: a word or two, no path
# SQLITE_IOERR_SHMOPEN, _SHMSIZE, _SHMLOCK, _SHMMAP: the WAL index (the -shm
# file) could not be made or grown, which on a full disk is how even a reader
# fails.  Such a database is still read (as a directory it cannot write is).
_SHM_ERRORS = frozenset(_IOERR | (n << 8) for n in (18, 19, 20, 21))
# Why the daemon cannot save, in the words StoreError.reason uses: with one
# of these it starts all the same and keeps the moves until it can.
DISK_REASONS = frozenset({*_WHY.values(), "folder read-only"})
_SIDE_FILES = ("-wal", "-shm", "-journal")

# _MIGRATIONS[n] takes the schema from version n to n + 1 (PRAGMA user_version).
_MIGRATIONS = (
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
SCHEMA_VERSION = len(_MIGRATIONS)

_GAME_COLUMNS = (
    "g.id, g.variant, g.start_fen, g.started_at, g.ended_at, g.result, g.termination, "
    "g.white, g.black, g.mode, (SELECT count(*) FROM moves m WHERE m.game_id = g.id), "
    "{wall_clock}"
)


class StoreError(BoardctlError, OSError):
    """The game database cannot be created, opened, read or written.

    ``reason`` says why in a word or two, for the screen ("disk full").
    """

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message


class UnknownGameError(StoreValueError):
    """A game id that is not in the store."""


class StoreConflictError(StoreValueError):
    """A write that contradicts what is stored (another move at a ply, a gap)."""


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where boardctl keeps its state.

    ``$STATE_DIRECTORY`` (systemd's ``StateDirectory=``; the first one if it
    lists several), else ``$XDG_STATE_HOME/boardctl``, else
    ``~/.local/state/boardctl``.
    """
    env = os.environ if environ is None else environ
    systemd = env.get("STATE_DIRECTORY", "").split(":")[0]
    if systemd:
        return Path(systemd)
    xdg = env.get("XDG_STATE_HOME", "")
    if xdg and Path(xdg).is_absolute():  # the XDG spec says to ignore relative paths
        return Path(xdg) / "boardctl"
    home = Path(env["HOME"]) if env.get("HOME") else Path.home()
    return home / ".local" / "state" / "boardctl"


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """The game database in :func:`default_state_dir`."""
    return default_state_dir(environ) / DB_NAME


class _Corrupt(Exception):
    """Internal: the file is not a database or fails its integrity check."""


class GameStore:
    """The games and their moves in one SQLite file at ``path``.

    With ``create`` (the daemon) the directory and the database are made if
    missing and a corrupt file is moved aside; a database that is there but
    cannot be written is opened for reading (see :meth:`write_problem`).
    Without ``create`` (``boardctl pgn``) the file must exist, is only read
    and is never moved.  ``clock`` only names the moved file; every stored
    time is the ``now`` the caller passes.  ``move_aside=False`` refuses a
    corrupt file instead of moving it aside: a second writer (a review's
    process) must never take the daemon's database from under it.

    :raises StoreError: when the directory or the file cannot be used, or the
        file belongs to something else or to a newer boardctl.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        create: bool = True,
        clock: Callable[[], float] = time.time,
        move_aside: bool | None = None,
    ) -> None:
        self.path = Path(path)
        self.recovered_from: Path | None = None
        self.notice: str | None = None
        self._clock = clock
        self._conn: sqlite3.Connection | None = None
        self._create = create
        self._version = SCHEMA_VERSION
        self._unwritable: str | None = None  # why writes are refused, while they are
        self._read_mode = "ro"
        self._snapshot: tempfile.TemporaryDirectory[str] | None = None
        self._closed = False
        self._stand_in = False  # no database yet: see _stand_in_store
        self._can_be_database()
        if not create and not self.path.is_file():
            raise StoreError(f"no game database at {self.path} (the board daemon creates it)")
        try:
            self._conn = self._first_open(move_aside=create if move_aside is None else move_aside)
        except StoreError as exc:
            if not create or exc.reason not in DISK_REASONS:
                raise
            self._conn = self._stand_in_store(exc.reason)

    # ---------------------------------------------------------- opening
    def _can_be_database(self) -> None:
        """Refuse, before SQLite sees it, a path that is there and can never
        be the database (a directory, a FIFO, a file it may not read): that
        is a mistake in the setup to say once, not a disk to wait for.

        :raises StoreError: saying what the path is.
        """
        try:
            with open_regular(self.path):
                pass
        except FileNotFoundError:
            return  # made when the daemon starts (or, for a reader, said below)
        except OSError as exc:
            if exc.errno in (errno.EIO, errno.ENOTDIR):
                return  # a failing disk, or no state directory: said where it is opened
            raise StoreError(
                f"cannot use {self.path} as the game database: {exc.strerror or exc}",
                reason="not a database",
            ) from None

    def _first_open(self, *, move_aside: bool) -> sqlite3.Connection:
        if self._create:
            self._make_directory()
        try:
            return self._open(self._create)
        except _Corrupt as exc:
            if not self._create:
                raise StoreError(
                    f"game database {self.path} is unreadable ({exc}); "
                    "the board daemon moves it aside when it starts"
                ) from None
            if not move_aside:
                raise StoreError(
                    f"game database {self.path} is unreadable: {exc}", reason="database unreadable"
                ) from None
            self.recovered_from = self._move_aside()
            self.notice = (
                f"Game database was unreadable ({exc}): kept it as "
                f"{self.recovered_from.name} and started a new one"
            )
            try:
                return self._open(self._create)
            except _Corrupt as again:
                raise StoreError(f"new game database {self.path} is unreadable: {again}") from None

    def _stand_in_store(self, why: str) -> sqlite3.Connection:
        """An empty database in memory, read while the real one cannot even
        be created (a full disk or a read-only filesystem before the first
        start): no games, nothing to resume, every write refused with ``why``
        until :meth:`write_problem` finds the real one can be made."""
        conn = sqlite3.connect(":memory:", isolation_level=None)
        self._migrate(conn)
        self._stand_in = True
        self._unwritable = why
        self._read_mode = "none"
        return conn

    def _make_directory(self) -> None:
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create the state directory {folder}: {exc.strerror or exc}",
                reason=_os_reason(exc),
            ) from None
        if not self.path.exists() and not os.access(folder, os.W_OK | os.X_OK):
            # With a database there, it is read and the writes wait (write_problem).
            raise StoreError(
                f"cannot write game database in {folder}: permission denied",
                reason="folder read-only",
            )

    def _open(self, create: bool) -> sqlite3.Connection:
        # The check runs on a read-only connection: one that can write would,
        # on closing, checkpoint the WAL into a corrupt file and delete it.
        existed = self.path.exists()
        if existed:
            probe = self._reader()
            try:
                rows = probe.execute("PRAGMA quick_check").fetchall()
                if rows != [("ok",)]:
                    found = "; ".join(str(row[0]) for row in rows[:3])
                    raise _Corrupt(" ".join(found.split())[:200])
                version = self._schema_version(probe)  # refuses before anything is written
                if not create or self._access_problem():
                    # Every version from 1 has the games; an older file is
                    # read as it is, and migrated only by a daemon that can write.
                    if version == 0:
                        raise StoreError(f"game database {self.path} holds no games yet")
                    self._version = version
                    self._unwritable = self._access_problem() if create else None
                    return probe
            except sqlite3.Error as exc:
                probe.close()
                raise self._failure("read", exc) from None
            except BaseException:
                probe.close()
                raise
            probe.close()
            self._close_snapshot()
        conn = self._connect("rwc")
        try:
            conn.execute("PRAGMA journal_mode=WAL").fetchone()
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            self._migrate(conn)
        except sqlite3.Error as exc:
            conn.close()
            code = _code(exc)
            if existed and code in _WHY and (code != _IOERR or _extended(exc) in _SHM_ERRORS):
                # Read-only after all (a file mode only SQLite noticed) or no
                # room to migrate: read it, and let the writes wait.
                return self._read_only(self._reason(exc))
            raise self._failure("open", exc) from None
        except BaseException:
            conn.close()
            raise
        self._version = SCHEMA_VERSION
        self._unwritable = None
        if not existed:
            self._sync_directory()
        return conn

    def _read_only(self, why: str) -> sqlite3.Connection:
        reader = self._reader()
        try:
            self._version = self._schema_version(reader)
        except BaseException:
            reader.close()
            raise
        self._unwritable = why
        return reader

    def _access_problem(self) -> str | None:
        """Why the database cannot be written, as far as the filesystem says
        (``os.access`` also sees a read-only mount, which stops root too)."""
        folder = self.path.parent
        if not os.access(folder, os.W_OK | os.X_OK):
            return "folder read-only"
        if not os.access(self.path, os.W_OK):
            return "database read-only"
        return None

    def _reader(self) -> sqlite3.Connection:
        """A connection that only reads, whatever the directory allows.

        SQLite reads a WAL database only through its ``-shm`` index, which it
        must create if it is missing; in a directory it cannot write that
        fails.  Then, with no WAL to read, the file is opened ``immutable``
        (no writer can work there either); with one, a copy of the file and
        its WAL in a temporary directory is read instead.
        """
        conn = self._connect("ro")
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            self._read_mode = "ro"
            return conn
        except sqlite3.Error as exc:
            conn.close()
            no_index = _extended(exc) in _SHM_ERRORS or _code(exc) == _FULL
            cannot_write = _code(exc) in (_CANTOPEN, _READONLY) and not os.access(
                self.path.parent, os.W_OK
            )
            if not (no_index or cannot_write):
                raise self._failure("read", exc) from None
        wal = Path(f"{self.path}-wal")
        if not wal.exists() or wal.stat().st_size == 0:
            self._read_mode = "immutable"
            return self._connect("ro", self.path, immutable=True)
        self._close_snapshot()
        self._snapshot = tempfile.TemporaryDirectory(prefix="boardctl-")
        copy = Path(self._snapshot.name) / self.path.name
        try:
            shutil.copyfile(self.path, copy)
            shutil.copyfile(wal, f"{copy}-wal")
        except OSError as exc:
            raise StoreError(
                f"cannot read game database {self.path}: {exc.strerror or exc}"
            ) from None
        self._read_mode = "copy"
        return self._connect("ro", copy)

    def _close_snapshot(self) -> None:
        if self._snapshot is not None:
            self._snapshot.cleanup()
            self._snapshot = None

    def _connect(
        self, mode: str, path: Path | None = None, *, immutable: bool = False
    ) -> sqlite3.Connection:
        uri = f"{(path or self.path).absolute().as_uri()}?mode={mode}"
        if immutable:
            uri += "&immutable=1"
        try:
            return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT)
        except sqlite3.Error as exc:
            raise self._failure("open", exc) from None

    def _schema_version(self, conn: sqlite3.Connection) -> int:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id not in (0, APPLICATION_ID) or (version == 0 and tables):
            raise StoreError(f"{self.path} is an SQLite database, but not boardctl's game store")
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"game database {self.path} has schema version {version}; "
                f"this boardctl reads up to {SCHEMA_VERSION}: upgrade boardctl"
            )
        return int(version)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        version = self._schema_version(conn)
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
            for step in _MIGRATIONS[version:]:
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

    def _failure(self, doing: str, exc: sqlite3.Error) -> Exception:
        if _code(exc) in _CORRUPT_CODES:
            return _Corrupt(str(exc))
        return StoreError(
            f"cannot {doing} game database {self.path}: {exc}", reason=self._reason(exc)
        )

    def _reason(self, exc: sqlite3.Error) -> str:
        """For the screen: SQLite says "disk I/O error" where it could not
        grow its WAL index on a full disk, so the disk is asked."""
        if _extended(exc) in _SHM_ERRORS:
            try:
                room = os.statvfs(self.path.parent).f_bavail
            except OSError:
                room = 1
            return "disk full" if room == 0 else "disk error"
        return _WHY.get(_code(exc), str(exc))

    def _move_aside(self) -> Path:
        stamp = datetime.fromtimestamp(self._clock(), UTC).strftime("%Y%m%dT%H%M%SZ")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        number = 1
        while any(Path(f"{aside}{s}").exists() for s in ("", *_SIDE_FILES)):
            number += 1
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{number}")
        try:
            for suffix in ("", *_SIDE_FILES):
                source = Path(f"{self.path}{suffix}")
                if source.exists():
                    source.rename(f"{aside}{suffix}")
        except OSError as exc:
            raise StoreError(
                f"game database {self.path} is corrupt and cannot be moved "
                f"aside: {exc.strerror or exc}"
            ) from None
        self._sync_directory()
        return aside

    def _sync_directory(self) -> None:
        # A new or renamed file survives a power cut only once its directory is synced.
        try:
            fd = os.open(self.path.parent, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(fd)
        except OSError:
            pass  # some filesystems cannot sync a directory; SQLite syncs the data itself
        finally:
            os.close(fd)

    # --------------------------------------------------------- plumbing
    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"game database {self.path} is closed")
        return self._conn

    def write_problem(self) -> str | None:
        """Why writes would fail now, if the store knows it without trying
        one (the database was read-only when opened), in a few words; None
        when it can write.  Opens the database again to find out.

        :raises StoreError: when it cannot even be read any more.
        """
        if self._unwritable is not None and not self._closed:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            try:
                self._conn = self._first_open(move_aside=False)
                self._stand_in = False
            except StoreError as exc:
                if not self._stand_in or exc.reason not in DISK_REASONS:
                    raise
                self._conn = self._stand_in_store(exc.reason)
        return self._unwritable

    @property
    def read_mode(self) -> str:
        """How the database is read: ``"ro"`` (SQLite's read-only mode),
        ``"immutable"`` or ``"copy"`` (see :meth:`_reader`); ``"rw"`` when
        it is open for writing; ``"none"`` when there is no database to read
        yet and it cannot be made (an empty stand-in is read instead)."""
        return self._read_mode if self._unwritable or not self._create else "rw"

    @contextmanager
    def _transaction(self, kind: str) -> Iterator[sqlite3.Connection]:
        """One transaction: ``IMMEDIATE`` to write, ``DEFERRED`` for a consistent read."""
        if kind == "IMMEDIATE":
            if not self._create:
                raise StoreError(f"game database {self.path} is open for reading only")
            why = self.write_problem()
            if why is not None:
                raise StoreError(f"cannot write game database {self.path}: {why}", reason=why)
        conn = self._connection()
        try:
            conn.execute(f"BEGIN {kind}")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise StoreError(
                f"game database {self.path}: {exc}", reason=_WHY.get(_code(exc), str(exc))
            ) from exc

    def _columns(self) -> str:
        return _GAME_COLUMNS.format(wall_clock="g.wall_clock" if self._version >= 3 else "0")

    def _game_row(self, conn: sqlite3.Connection, game_id: int) -> Any:
        row = conn.execute(
            f"SELECT {self._columns()} FROM games g WHERE g.id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise self._unknown(conn, game_id)
        return row

    def _unknown(self, conn: sqlite3.Connection, game_id: int) -> UnknownGameError:
        low, high = conn.execute("SELECT min(id), max(id) FROM games").fetchone()
        known = f"games {low}-{high}" if low is not None else "no games yet"
        return UnknownGameError(f"no game {game_id} in {self.path} ({known})")

    def _load(self, conn: sqlite3.Connection, row: Any) -> StoredGame:
        clock = "clock" if self._version >= 3 else "NULL"
        moves = conn.execute(
            f"SELECT ply, uci, created_at, {clock} FROM moves WHERE game_id = ? ORDER BY ply",
            (row[0],),
        ).fetchall()
        stored = checked_game(row, moves)
        return replace(stored, review=self._review(conn, stored)) if self._version >= 4 else stored

    def _review(self, conn: sqlite3.Connection, stored: StoredGame) -> Review | None:
        head = conn.execute(
            "SELECT reviewed_at, movetime, depth FROM reviews WHERE game_id = ?", (stored.id,)
        ).fetchone()
        if head is None:
            return None
        loss = "loss" if self._version >= 5 else "NULL"
        rows = conn.execute(
            f"SELECT ply, cp, mate, best, nag, {loss} FROM review_positions "
            "WHERE game_id = ? ORDER BY ply",
            (stored.id,),
        ).fetchall()
        return checked_review(stored.id, stored.plies, head, rows)

    # ----------------------------------------------------------- writes
    def new_game(
        self, variant: str, start_fen: str, white: str, black: str, mode: str, now: float
    ) -> int:
        """Start a game at ``now`` (UTC seconds since 1970) and return its id
        (ids are never reused).

        :raises UnknownVariantError: for a preset boardctl does not know.
        :raises FenError: for a malformed start position.
        :raises StoreError: when the database cannot be written.
        """
        fen = Game(get_variant(variant), start_fen).start_fen
        with self._transaction("IMMEDIATE") as conn:
            cursor = conn.execute(
                "INSERT INTO games (variant, start_fen, started_at, white, black, mode, "
                "wall_clock) VALUES (?, ?, ?, ?, ?, ?, 1)",
                (variant, fen, now, white, black, mode),
            )
            game_id = cursor.lastrowid
        assert game_id is not None
        return game_id

    def add_move(
        self,
        game_id: int,
        ply: int,
        uci: str,
        now: float,
        *,
        san: str | None = None,
        clock: float | None = None,
    ) -> None:
        """Store the move at ``ply`` (1 = the first move), made at ``now``,
        before it is confirmed; ``clock`` is the time its mover has left
        (None: no clocks).

        Storing the same move at the same ply again does nothing, so a caller
        may repeat a write it is unsure of.

        :raises StoreConflictError: when another move is stored at ``ply``, the
            ply would leave a gap, or the game has ended.
        :raises UnknownGameError: when there is no such game.
        :raises StoreValueError: when ``uci`` is not coordinate notation.
        """
        if not UCI.match(uci):
            raise StoreValueError(f"not a move in coordinate notation: {uci!r}")
        with self._transaction("IMMEDIATE") as conn:
            row = self._game_row(conn, game_id)
            stored = conn.execute(
                "SELECT uci FROM moves WHERE game_id = ? AND ply = ?", (game_id, ply)
            ).fetchone()
            if stored is not None:
                if stored[0] != uci:
                    raise StoreConflictError(
                        f"game {game_id} ply {ply} is stored as {stored[0]}, not {uci}; "
                        "take it back first"
                    )
                return
            if row[5] is not None:
                raise StoreConflictError(
                    f"game {game_id} has ended ({row[5]}); cannot add {uci} at ply {ply}"
                )
            if ply != row[10] + 1:
                raise StoreConflictError(
                    f"game {game_id} has {row[10]} moves: the next is ply {row[10] + 1}, not {ply}"
                )
            conn.execute(
                "INSERT INTO moves (game_id, ply, uci, san, created_at, clock) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, ply, uci, san, now, clock),
            )

    def remove_last_move(self, game_id: int) -> None:
        """Take back the last move (a takeback).  The game goes on, even if
        that move had ended it.

        :raises StoreConflictError: when the game has no moves.
        :raises UnknownGameError: when there is no such game.
        """
        with self._transaction("IMMEDIATE") as conn:
            self._take_back(conn, game_id)

    def amend_last_move(
        self, game_id: int, uci: str, now: float, *, san: str | None = None
    ) -> None:
        """Replace the last move in one transaction (:meth:`remove_last_move`
        then :meth:`add_move` may lose the move to a crash between them).
        The move keeps the clock reading of the one it replaces: the same
        player's same turn."""
        if not UCI.match(uci):
            raise StoreValueError(f"not a move in coordinate notation: {uci!r}")
        with self._transaction("IMMEDIATE") as conn:
            ply, clock = self._take_back(conn, game_id)
            conn.execute(
                "INSERT INTO moves (game_id, ply, uci, san, created_at, clock) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, ply, uci, san, now, clock),
            )

    def _take_back(self, conn: sqlite3.Connection, game_id: int) -> tuple[int, Any]:
        """Delete the last move; its ply and clock reading."""
        row = self._game_row(conn, game_id)
        if row[10] == 0:
            raise StoreConflictError(f"game {game_id} has no move to take back")
        (clock,) = conn.execute(
            "SELECT clock FROM moves WHERE game_id = ? AND ply = ?", (game_id, row[10])
        ).fetchone()
        conn.execute("DELETE FROM moves WHERE game_id = ? AND ply = ?", (game_id, row[10]))
        _forget_review(conn, game_id)  # it judged moves that are no longer the game's
        if row[5] is not None:
            conn.execute(
                "UPDATE games SET result = NULL, termination = NULL, ended_at = NULL WHERE id = ?",
                (game_id,),
            )
        return int(row[10]), clock

    def set_clocks(self, game_id: int, first: int, clocks: Sequence[float | None]) -> None:
        """The stored moves from ply ``first`` on carry ``clocks``, the time
        each mover had left (a remote game's, as its log has them: the board
        player's move is stored before the log has its clock).  A ply not
        stored is left alone.

        :raises UnknownGameError: when there is no such game.
        """
        rows = [(clock, game_id, ply) for ply, clock in enumerate(clocks, start=first)]
        with self._transaction("IMMEDIATE") as conn:
            self._game_row(conn, game_id)
            conn.executemany("UPDATE moves SET clock = ? WHERE game_id = ? AND ply = ?", rows)

    def set_players(self, game_id: int, white: str, black: str) -> None:
        """The players' names, once they are known (a remote player's is
        known only once they join, after the game is stored).

        :raises UnknownGameError: when there is no such game.
        """
        with self._transaction("IMMEDIATE") as conn:
            self._game_row(conn, game_id)
            conn.execute(
                "UPDATE games SET white = ?, black = ? WHERE id = ?", (white, black, game_id)
            )

    def finish(self, game_id: int, result: str, termination: str, now: float) -> None:
        """Record how the game ended, at ``now``: ``result`` is ``1-0``, ``0-1``,
        ``1/2-1/2`` or ``*`` (ended without one, e.g. abandoned).

        The first result stands: finishing an ended game again changes nothing
        (a new game finishes the old one as abandoned, however it ended).

        :raises StoreValueError: for another result text.
        :raises UnknownGameError: when there is no such game.
        """
        if result not in RESULTS:
            raise StoreValueError(f"result must be one of {', '.join(RESULTS)}, not {result!r}")
        with self._transaction("IMMEDIATE") as conn:
            conn.execute(
                "UPDATE games SET result = ?, termination = ?, ended_at = ? "
                "WHERE id = ? AND result IS NULL",
                (result, termination, now, game_id),
            )
            self._game_row(conn, game_id)

    def save_review(
        self, game_id: int, review: Review, *, moves: Sequence[str] | None = None
    ) -> None:
        """Keep ``review`` with the game, in place of any earlier one, in one
        transaction (a process killed while it writes leaves the earlier
        review whole).  ``moves``: the moves (coordinates) the review judged;
        when given, they must still be the game's.

        :raises StoreConflictError: when it does not cover every position of
            the game as stored now, or the game's moves are no longer
            ``moves`` (a move was taken back or changed meanwhile).
        :raises UnknownGameError: when there is no such game.
        """
        with self._transaction("IMMEDIATE") as conn:
            plies = self._game_row(conn, game_id)[10]
            if len(review.positions) != plies + 1:
                raise StoreConflictError(
                    f"game {game_id} has {plies} moves; the review has "
                    f"{len(review.positions) - 1}: review it again"
                )
            if moves is not None:
                stored = conn.execute(
                    "SELECT uci FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
                ).fetchall()
                if [row[0] for row in stored] != list(moves):
                    raise StoreConflictError(
                        f"game {game_id}'s moves changed while it was reviewed: review it again"
                    )
            _forget_review(conn, game_id)
            conn.execute(
                "INSERT INTO reviews (game_id, reviewed_at, movetime, depth) VALUES (?, ?, ?, ?)",
                (game_id, review.reviewed_at, review.movetime, review.depth),
            )
            conn.executemany(
                "INSERT INTO review_positions (game_id, ply, cp, mate, best, nag, loss) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, ply, p.cp, p.mate, p.best, p.nag, p.loss)
                    for ply, p in enumerate(review.positions)
                ],
            )

    def set_setting(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` (replacing what was there)."""
        with self._transaction("IMMEDIATE") as conn:
            conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))

    def setting(self, key: str) -> str | None:
        """The value kept under ``key``, or None."""
        with self._transaction("DEFERRED") as conn:
            row = conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    # ------------------------------------------------------------ reads
    def load(self, game_id: int) -> StoredGame:
        """One game with its moves.

        :raises UnknownGameError: when there is none.
        :raises DamagedGameError: when it holds values boardctl never writes.
        """
        with self._transaction("DEFERRED") as conn:
            return self._load(conn, self._game_row(conn, game_id))

    def unfinished(self) -> StoredGame | None:
        """The latest game without a result, if any: the one to resume.

        :raises DamagedGameError: when it holds values boardctl never writes.
        """
        return self._latest("WHERE g.result IS NULL")

    def latest(self) -> StoredGame | None:
        """The latest game, ended or not."""
        return self._latest("")

    def _latest(self, where: str) -> StoredGame | None:
        with self._transaction("DEFERRED") as conn:
            row = conn.execute(
                f"SELECT {self._columns()} FROM games g {where} ORDER BY g.id DESC LIMIT 1"
            ).fetchone()
            return None if row is None else self._load(conn, row)

    def games(self) -> list[GameSummary]:
        """Every game without its moves, oldest first.

        :raises DamagedGameError: for the first game holding values boardctl never writes.
        """
        with self._transaction("DEFERRED") as conn:
            rows = conn.execute(f"SELECT {self._columns()} FROM games g ORDER BY g.id")
            return [GameSummary(**checked_fields(row)) for row in rows.fetchall()]

    def resume(self) -> tuple[int, Game] | None:
        """The unfinished game replayed, as the daemon's ``resume`` wants it.

        :raises DamagedGameError: (or its :class:`ReplayError`) when it
            cannot be read or its moves no longer replay.
        """
        found = self.resume_stored()
        return None if found is None else (found[0].id, found[1])

    def resume_stored(self) -> tuple[StoredGame, Game] | None:
        """The unfinished game's row (its start time, its players) and the
        game replayed.  :raises DamagedGameError: as :meth:`resume`."""
        stored = self.unfinished()
        return None if stored is None else (stored, self.to_game(stored))

    to_game = staticmethod(to_game)  # callers had it here before stored.py held it

    def pgn(self, game_id: int) -> str:
        """One game as PGN.

        :raises UnknownGameError: when there is no such game.
        :raises DamagedGameError: when it cannot be read or no longer replays.
        """
        return stored_pgn(self.load(game_id))

    def pgn_all(self, damaged: list[DamagedGameError] | None = None) -> str:
        """Every game as PGN, oldest first, a blank line between games.

        :raises DamagedGameError: for the first game that cannot be read or
            replayed, unless ``damaged`` is given: then such games are left
            out and their errors appended to it.
        """
        texts = []
        with self._transaction("DEFERRED") as conn:
            rows = conn.execute(f"SELECT {self._columns()} FROM games g ORDER BY g.id")
            for row in rows.fetchall():
                try:
                    texts.append(stored_pgn(self._load(conn, row)))
                except DamagedGameError as exc:
                    if damaged is None:
                        raise
                    damaged.append(exc)
        return "\n".join(texts)

    # ------------------------------------------------------------- close
    def close(self) -> None:
        """Close the database (a second call does nothing)."""
        self._closed = True
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._close_snapshot()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def _forget_review(conn: sqlite3.Connection, game_id: int) -> None:
    conn.execute("DELETE FROM review_positions WHERE game_id = ?", (game_id,))
    conn.execute("DELETE FROM reviews WHERE game_id = ?", (game_id,))


def _code(exc: sqlite3.Error) -> int:
    """SQLite's primary result code of an error (0 when it has none)."""
    return _extended(exc) & 0xFF


def _extended(exc: sqlite3.Error) -> int:
    """SQLite's extended result code of an error (0 when it has none)."""
    return getattr(exc, "sqlite_errorcode", None) or 0


def _os_reason(exc: OSError) -> str | None:
    """A failed mkdir in the words of StoreError.reason; None for a path
    that is wrong (a file where the directory should be), not a disk."""
    return {
        errno.ENOSPC: "disk full",
        errno.EDQUOT: "disk full",
        errno.EIO: "disk error",
        errno.EACCES: "folder read-only",
        errno.EPERM: "folder read-only",
        errno.EROFS: "folder read-only",
    }.get(exc.errno or 0)


def pgn_command(db_path: Path, game: int | None, all_games: bool, out: TextIO, err: TextIO) -> int:
    """``boardctl pgn [--all | GAME]``: write PGN to ``out`` (default: the
    latest game) and return the exit status.  Only reads the database.

    A game holding values boardctl never writes is left out with one line on
    ``err`` naming it and the value, and the rest is written: the status is
    then 1 (the output is incomplete, through no fault of the command line),
    else 0.

    :raises StoreError: when there is no database or it cannot be read.
    :raises UnknownGameError: for a game number that is not stored.
    :raises StoreValueError: when both ``game`` and ``all_games`` are given.
    """
    if all_games and game is not None:
        raise StoreValueError("give a game number or --all, not both")
    damaged: list[DamagedGameError] = []
    text = ""
    with GameStore(db_path, create=False) as store:
        try:
            if all_games:
                text = store.pgn_all(damaged)
            elif game is not None:
                text = store.pgn(game)
            else:
                latest = store.latest()
                if latest is None:
                    raise UnknownGameError(f"no games in {db_path} yet")
                text = stored_pgn(latest)
        except DamagedGameError as exc:
            damaged.append(exc)
    out.write(text)
    for bad in damaged:
        err.write(f"boardctl pgn: {bad}; left out\n")
    return 1 if damaged else 0
