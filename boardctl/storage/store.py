"""The game store: every committed move in SQLite, and PGN export.

The daemon writes each committed move here *before* the display or the LEDs
confirm it; :mod:`boardctl.storage.database` says how the file is kept safe
through crashes, power cuts, corrupt files and full or read-only disks.  After
a restart the daemon asks for the unfinished game and replays it::

    store = GameStore(default_db_path())
    if store.notice:                       # the old file was corrupt: say so
        display.show_message(store.notice)
    resume = store.resume()                # (game id, Game) or None
    ...
    store.add_move(game_id, len(game.moves), uci, time.time())   # then confirm it

``boardctl pgn`` (:mod:`boardctl.storage.command`) only reads, and never moves a file.

Every stored time is wall-clock time, UTC seconds since 1970 (``time.time()``),
passed in by the caller; games written before schema version 3 held the
daemon's monotonic clock instead, and read back with no date (``None``).
Values that boardctl never writes (edited in, or damaged where
``quick_check`` cannot see) make that one game a :class:`DamagedGameError`,
never a crash.

Plies count from 1: ply *n* is the *n*-th move of the game, so after
``game.push(move)`` the ply is ``len(game.moves)``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..rules import RESULTS, Game, get_variant
from .database import Database
from .disk import DB_NAME, DISK_REASONS, default_db_path, default_state_dir
from .errors import (
    UCI,
    DamagedGameError,
    ReplayError,
    StoreConflictError,
    StoreError,
    StoreValueError,
    UnknownGameError,
)
from .export import stored_pgn
from .records import GameSummary, StoredGame, checked_fields, checked_game, to_game
from .reviews import Review, forget_review, read_review, write_review
from .schema import APPLICATION_ID, SCHEMA_VERSION

__all__ = [  # with the values and errors of the modules beside it, which the store hands out
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
]

_GAME_COLUMNS = (
    "g.id, g.variant, g.start_fen, g.started_at, g.ended_at, g.result, g.termination, "
    "g.white, g.black, g.mode, (SELECT count(*) FROM moves m WHERE m.game_id = g.id), "
    "{wall_clock}"
)


class GameStore(Database):
    """The games and their moves, their reviews and the board's settings in
    one SQLite file at ``path``, opened as :class:`Database` says (``create``
    for the daemon, without it only read; ``move_aside``; ``clock``).

    :raises StoreError: when the directory or the file cannot be used, or the
        file belongs to something else or to a newer boardctl.
    """

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
        if self._version < 4:
            return stored
        return replace(stored, review=read_review(conn, self._version, stored.id, stored.plies))

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
        forget_review(conn, game_id)  # it judged moves that are no longer the game's
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
            write_review(conn, game_id, review)

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

    to_game = staticmethod(to_game)  # callers had it here before records.py held it

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
