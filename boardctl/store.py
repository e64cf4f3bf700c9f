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
    store.add_move(game_id, len(game.moves), uci, now)   # then confirm it

A file that is not a database, or fails ``PRAGMA quick_check``, is never
discarded: it is renamed (with its ``-wal`` and ``-shm`` files) to
``<name>.corrupt-<UTC time>``, a fresh database takes its place, and
:attr:`GameStore.recovered_from` and :attr:`GameStore.notice` say what
happened.  :func:`pgn_command` is ``boardctl pgn``; it only reads, and never
moves a file.

Plies count from 1: ply *n* is the *n*-th move of the game, so after
``game.push(move)`` the ply is ``len(game.moves)``.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

from .errors import BoardctlError
from .rules import Game, get_variant
from .rules.pgn import export

DB_NAME = "games.sqlite3"
APPLICATION_ID = 0x42444354  # "BDCT" in the SQLite header: this file is ours
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")  # "*": ended without a result (abandoned)
BUSY_TIMEOUT = 5.0  # seconds a reader or writer waits for the other's lock

_CORRUPT_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB (primary result codes)
_SIDE_FILES = ("-wal", "-shm", "-journal")
_UCI = re.compile(r"^[a-z][0-9]{1,2}[a-z][0-9]{1,2}[a-z]?$")

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
)
SCHEMA_VERSION = len(_MIGRATIONS)

_GAME_COLUMNS = (
    "g.id, g.variant, g.start_fen, g.started_at, g.ended_at, g.result, g.termination, "
    "g.white, g.black, g.mode, (SELECT count(*) FROM moves m WHERE m.game_id = g.id)"
)


class StoreError(BoardctlError, OSError):
    """The game database cannot be created, opened, read or written."""


class StoreValueError(BoardctlError, ValueError):
    """A request the stored games cannot satisfy (see the subclasses)."""


class UnknownGameError(StoreValueError):
    """A game id that is not in the store."""


class StoreConflictError(StoreValueError):
    """A write that contradicts what is stored (another move at a ply, a gap)."""


class ReplayError(StoreValueError):
    """A stored game the rules core cannot replay; names the game and the ply."""


@dataclass(frozen=True)
class GameSummary:
    """One row of :meth:`GameStore.games`: a game without its moves."""

    id: int
    variant: str
    start_fen: str
    started_at: float
    ended_at: float | None
    result: str | None      # None while the game goes on
    termination: str | None
    white: str
    black: str
    mode: str
    plies: int

    @property
    def finished(self) -> bool:
        return self.result is not None


@dataclass(frozen=True)
class StoredGame(GameSummary):
    """A game as stored, with its moves in coordinate notation (ply 1 first)."""

    moves: tuple[str, ...] = ()


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
    missing and a corrupt file is moved aside; without it (``boardctl pgn``)
    the file must exist and is never moved.  ``clock`` only names the moved
    file; every stored time is the ``now`` the caller passes.

    :raises StoreError: when the directory or the file cannot be used, or the
        file belongs to something else or to a newer boardctl.
    """

    def __init__(
        self, path: Path | str, *, create: bool = True, clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path)
        self.recovered_from: Path | None = None
        self.notice: str | None = None
        self._clock = clock
        self._conn: sqlite3.Connection | None = None
        if create:
            self._make_directory()
        elif not self.path.is_file():
            raise StoreError(f"no game database at {self.path} (the board daemon creates it)")
        try:
            self._conn = self._open(create)
        except _Corrupt as exc:
            if not create:
                raise StoreError(
                    f"game database {self.path} is unreadable ({exc}); "
                    "the board daemon moves it aside when it starts") from None
            self.recovered_from = self._move_aside()
            self.notice = (
                f"Game database was unreadable ({exc}): kept it as "
                f"{self.recovered_from.name} and started a new one")
            try:
                self._conn = self._open(create)
            except _Corrupt as again:
                raise StoreError(f"new game database {self.path} is unreadable: {again}") from None

    # ---------------------------------------------------------- opening
    def _make_directory(self) -> None:
        folder = self.path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the state directory {folder}: "
                             f"{exc.strerror or exc}") from None
        if not os.access(folder, os.W_OK | os.X_OK):
            raise StoreError(f"cannot write game database in {folder}: permission denied")

    def _open(self, create: bool) -> sqlite3.Connection:
        # The check runs on a read-only connection: one that can write would,
        # on closing, checkpoint the WAL into a corrupt file and delete it.
        existed = self.path.exists()
        if existed:
            probe = self._connect("ro")
            try:
                rows = probe.execute("PRAGMA quick_check").fetchall()
                if rows != [("ok",)]:
                    found = "; ".join(str(row[0]) for row in rows[:3])
                    raise _Corrupt(" ".join(found.split())[:200])
                version = self._schema_version(probe)  # refuses before anything is written
                if not create:
                    # Every version from 1 has the games; an older file is
                    # read as it is, and migrated only by the daemon.
                    if version == 0:
                        raise StoreError(f"game database {self.path} holds no games yet")
                    return probe
            except sqlite3.Error as exc:
                probe.close()
                raise self._failure("read", exc) from None
            except BaseException:
                probe.close()
                raise
            probe.close()
        conn = self._connect("rwc")
        try:
            conn.execute("PRAGMA journal_mode=WAL").fetchone()
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            self._migrate(conn)
        except sqlite3.Error as exc:
            conn.close()
            raise self._failure("open", exc) from None
        except BaseException:
            conn.close()
            raise
        if not existed:
            self._sync_directory()
        return conn

    def _connect(self, mode: str) -> sqlite3.Connection:
        uri = f"{self.path.absolute().as_uri()}?mode={mode}"
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
            raise StoreError(f"game database {self.path} has schema version {version}; "
                             f"this boardctl reads up to {SCHEMA_VERSION}: upgrade boardctl")
        return int(version)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        version = self._schema_version(conn)
        if version == SCHEMA_VERSION:
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
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
        code = getattr(exc, "sqlite_errorcode", None) or 0
        if code & 0xFF in _CORRUPT_CODES:
            return _Corrupt(str(exc))
        return StoreError(f"cannot {doing} game database {self.path}: {exc}")

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
            raise StoreError(f"game database {self.path} is corrupt and cannot be moved "
                             f"aside: {exc.strerror or exc}") from None
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

    @contextmanager
    def _transaction(self, kind: str) -> Iterator[sqlite3.Connection]:
        """One transaction: ``IMMEDIATE`` to write, ``DEFERRED`` for a consistent read."""
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
            raise StoreError(f"game database {self.path}: {exc}") from exc

    def _game_row(self, conn: sqlite3.Connection, game_id: int) -> Any:
        row = conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = ?", (game_id,)).fetchone()
        if row is None:
            raise self._unknown(conn, game_id)
        return row

    def _unknown(self, conn: sqlite3.Connection, game_id: int) -> UnknownGameError:
        low, high = conn.execute("SELECT min(id), max(id) FROM games").fetchone()
        known = f"games {low}-{high}" if low is not None else "no games yet"
        return UnknownGameError(f"no game {game_id} in {self.path} ({known})")

    def _load(self, conn: sqlite3.Connection, row: Any) -> StoredGame:
        moves = tuple(uci for (uci,) in conn.execute(
            "SELECT uci FROM moves WHERE game_id = ? ORDER BY ply", (row[0],)))
        return StoredGame(**_fields(row), moves=moves)

    # ----------------------------------------------------------- writes
    def new_game(self, variant: str, start_fen: str, white: str, black: str, mode: str,
                 now: float) -> int:
        """Start a game and return its id (ids are never reused).

        :raises UnknownVariantError: for a preset boardctl does not know.
        :raises FenError: for a malformed start position.
        :raises StoreError: when the database cannot be written.
        """
        fen = Game(get_variant(variant), start_fen).start_fen
        with self._transaction("IMMEDIATE") as conn:
            cursor = conn.execute(
                "INSERT INTO games (variant, start_fen, started_at, white, black, mode) "
                "VALUES (?, ?, ?, ?, ?, ?)", (variant, fen, now, white, black, mode))
            game_id = cursor.lastrowid
        assert game_id is not None
        return game_id

    def add_move(self, game_id: int, ply: int, uci: str, now: float, *,
                 san: str | None = None) -> None:
        """Store the move at ``ply`` (1 = the first move) before it is confirmed.

        Storing the same move at the same ply again does nothing, so a caller
        may repeat a write it is unsure of.

        :raises StoreConflictError: when another move is stored at ``ply``, the
            ply would leave a gap, or the game has ended.
        :raises UnknownGameError: when there is no such game.
        :raises StoreValueError: when ``uci`` is not coordinate notation.
        """
        if not _UCI.match(uci):
            raise StoreValueError(f"not a move in coordinate notation: {uci!r}")
        with self._transaction("IMMEDIATE") as conn:
            row = self._game_row(conn, game_id)
            stored = conn.execute("SELECT uci FROM moves WHERE game_id = ? AND ply = ?",
                                  (game_id, ply)).fetchone()
            if stored is not None:
                if stored[0] != uci:
                    raise StoreConflictError(
                        f"game {game_id} ply {ply} is stored as {stored[0]}, not {uci}; "
                        "take it back first")
                return
            if row[5] is not None:
                raise StoreConflictError(f"game {game_id} has ended ({row[5]}); "
                                         f"cannot add {uci} at ply {ply}")
            if ply != row[10] + 1:
                raise StoreConflictError(f"game {game_id} has {row[10]} moves: the next is "
                                         f"ply {row[10] + 1}, not {ply}")
            conn.execute("INSERT INTO moves (game_id, ply, uci, san, created_at) "
                         "VALUES (?, ?, ?, ?, ?)", (game_id, ply, uci, san, now))

    def remove_last_move(self, game_id: int) -> None:
        """Take back the last move (a takeback).  The game goes on, even if
        that move had ended it.

        :raises StoreConflictError: when the game has no moves.
        :raises UnknownGameError: when there is no such game.
        """
        with self._transaction("IMMEDIATE") as conn:
            self._take_back(conn, game_id)

    def amend_last_move(self, game_id: int, uci: str, now: float, *,
                        san: str | None = None) -> None:
        """Replace the last move in one transaction (:meth:`remove_last_move`
        then :meth:`add_move` may lose the move to a crash between them)."""
        if not _UCI.match(uci):
            raise StoreValueError(f"not a move in coordinate notation: {uci!r}")
        with self._transaction("IMMEDIATE") as conn:
            ply = self._take_back(conn, game_id)
            conn.execute("INSERT INTO moves (game_id, ply, uci, san, created_at) "
                         "VALUES (?, ?, ?, ?, ?)", (game_id, ply, uci, san, now))

    def _take_back(self, conn: sqlite3.Connection, game_id: int) -> int:
        row = self._game_row(conn, game_id)
        if row[10] == 0:
            raise StoreConflictError(f"game {game_id} has no move to take back")
        conn.execute("DELETE FROM moves WHERE game_id = ? AND ply = ?", (game_id, row[10]))
        if row[5] is not None:
            conn.execute("UPDATE games SET result = NULL, termination = NULL, ended_at = NULL "
                         "WHERE id = ?", (game_id,))
        return int(row[10])

    def finish(self, game_id: int, result: str, termination: str, now: float) -> None:
        """Record how the game ended: ``result`` is ``1-0``, ``0-1``,
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
                "WHERE id = ? AND result IS NULL", (result, termination, now, game_id))
            self._game_row(conn, game_id)

    def set_setting(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` (replacing what was there)."""
        with self._transaction("IMMEDIATE") as conn:
            conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                         (key, value))

    def setting(self, key: str) -> str | None:
        """The value kept under ``key``, or None."""
        with self._transaction("DEFERRED") as conn:
            row = conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    # ------------------------------------------------------------ reads
    def load(self, game_id: int) -> StoredGame:
        """One game with its moves.  :raises UnknownGameError: when there is none."""
        with self._transaction("DEFERRED") as conn:
            return self._load(conn, self._game_row(conn, game_id))

    def unfinished(self) -> StoredGame | None:
        """The latest game without a result, if any: the one to resume."""
        return self._latest("WHERE g.result IS NULL")

    def latest(self) -> StoredGame | None:
        """The latest game, ended or not."""
        return self._latest("")

    def _latest(self, where: str) -> StoredGame | None:
        with self._transaction("DEFERRED") as conn:
            row = conn.execute(
                f"SELECT {_GAME_COLUMNS} FROM games g {where} ORDER BY g.id DESC LIMIT 1"
            ).fetchone()
            return None if row is None else self._load(conn, row)

    def games(self) -> list[GameSummary]:
        """Every game without its moves, oldest first."""
        with self._transaction("DEFERRED") as conn:
            rows = conn.execute(f"SELECT {_GAME_COLUMNS} FROM games g ORDER BY g.id").fetchall()
        return [GameSummary(**_fields(row)) for row in rows]

    def resume(self) -> tuple[int, Game] | None:
        """The unfinished game replayed, as the daemon's ``resume`` wants it.

        :raises ReplayError: when its moves no longer replay.
        """
        stored = self.unfinished()
        return None if stored is None else (stored.id, self.to_game(stored))

    @staticmethod
    def to_game(stored: StoredGame) -> Game:
        """Replay a stored game with the rules core.

        :raises ReplayError: naming the game (and the ply) that does not replay.
        """
        try:
            game = Game(get_variant(stored.variant), stored.start_fen)
        except BoardctlError as exc:
            raise ReplayError(f"game {stored.id}: {exc}") from None
        for ply, uci in enumerate(stored.moves, start=1):
            try:
                game.push_text(uci)
            except BoardctlError as exc:
                raise ReplayError(f"game {stored.id} ply {ply} ({uci}) does not replay: "
                                  f"{exc}") from None
        return game

    def pgn(self, game_id: int) -> str:
        """One game as PGN.

        :raises UnknownGameError: when there is no such game.
        :raises ReplayError: when its moves no longer replay.
        """
        return _pgn(self.load(game_id))

    def pgn_all(self) -> str:
        """Every game as PGN, oldest first, a blank line between games."""
        with self._transaction("DEFERRED") as conn:
            rows = conn.execute(f"SELECT {_GAME_COLUMNS} FROM games g ORDER BY g.id").fetchall()
            stored = [self._load(conn, row) for row in rows]
        return "\n".join(_pgn(game) for game in stored)

    # ------------------------------------------------------------- close
    def close(self) -> None:
        """Close the database (a second call does nothing)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def _fields(row: Any) -> dict[str, Any]:
    names = ("id", "variant", "start_fen", "started_at", "ended_at", "result", "termination",
             "white", "black", "mode", "plies")
    return dict(zip(names, row, strict=True))


def _pgn(stored: StoredGame) -> str:
    game = GameStore.to_game(stored)
    started = datetime.fromtimestamp(stored.started_at, UTC)
    outcome = game.outcome()
    headers = {
        "Event": "boardctl game",
        "Date": started.strftime("%Y.%m.%d"),
        "White": stored.white,
        "Black": stored.black,
    }
    if stored.result is not None:
        headers["Result"] = stored.result
    if stored.termination:
        headers["Termination"] = stored.termination
    elif outcome is not None:
        headers["Termination"] = outcome.termination.value
    else:
        headers["Termination"] = "unterminated"
    headers["UTCDate"] = headers["Date"]
    headers["UTCTime"] = started.strftime("%H:%M:%S")
    return export(game, headers)


def pgn_command(db_path: Path, game: int | None, all_games: bool, out: TextIO) -> int:
    """``boardctl pgn [--all | GAME]``: write PGN to ``out`` (default: the
    latest game) and return the exit status.  Only reads the database.

    :raises StoreError: when there is no database or it cannot be read.
    :raises UnknownGameError: for a game number that is not stored.
    :raises StoreValueError: when both ``game`` and ``all_games`` are given.
    """
    if all_games and game is not None:
        raise StoreValueError("give a game number or --all, not both")
    with GameStore(db_path, create=False) as store:
        if all_games:
            text = store.pgn_all()
        elif game is not None:
            text = store.pgn(game)
        else:
            latest = store.latest()
            if latest is None:
                raise UnknownGameError(f"no games in {db_path} yet")
            text = _pgn(latest)
    out.write(text)
    return 0
