"""A stored game's review: the engine's view of each position, and the grade
of each move, as the store keeps them.

``boardctl review`` (:mod:`boardctl.review`) works them out; the store only
keeps them, checks them when it reads them back, and hands them to the PGN
writer (:mod:`boardctl.storage.export`).  Scores are the engine's: from the
side to move, centipawns or moves to a mate (negative: that side is mated; 0:
it is mated on the board).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from ..rules.pgn import NAG_BLUNDER, NAG_DUBIOUS, NAG_MISTAKE
from .errors import UCI, DamagedGameError

NAGS = (NAG_DUBIOUS, NAG_MISTAKE, NAG_BLUNDER)  # the NAGs a review gives


@dataclass(frozen=True)
class ReviewedPosition:
    """The engine's view of the position after some ply (0: the start), and
    the grade of the move that led to it (None: not marked)."""

    cp: int | None  # centipawns from the side to move; None when ``mate`` is given
    mate: int | None
    best: str | None  # the engine's move here, coordinates; None: none searched
    nag: int | None = None
    loss: float | None = None  # win% the move cost its mover; None: not graded


@dataclass(frozen=True)
class Review:
    """A whole game's review: ``positions[k]`` is the position after ply k."""

    reviewed_at: float  # UTC seconds since 1970
    movetime: float  # the seconds each position was given
    depth: int | None  # the depth cap, if there was one
    positions: tuple[ReviewedPosition, ...]


def checked_review(game_id: int, plies: int, row: Any, rows: list[Any]) -> Review:
    """A ``reviews`` row and its ``review_positions`` rows (ply, cp, mate,
    best, nag, loss) as a :class:`Review`, each value one boardctl writes.

    :raises DamagedGameError: for the first value that is not (a review that
        does not cover every position of the game is one).
    """
    reviewed_at, movetime, depth = row
    if not all(isinstance(v, int | float) for v in (reviewed_at, movetime)):
        raise DamagedGameError(game_id, "its review's time is not a number")
    if depth is not None and not isinstance(depth, int):
        raise DamagedGameError(game_id, "its review's depth is not a whole number")
    if [r[0] for r in rows] != list(range(plies + 1)):
        raise DamagedGameError(game_id, f"its review does not cover plies 0 to {plies}")
    positions = []
    for ply, cp, mate, best, nag, loss in rows:
        scores_ok = (cp is None) != (mate is None) and all(
            v is None or isinstance(v, int) for v in (cp, mate)
        )
        best_ok = best is None or (isinstance(best, str) and UCI.match(best) is not None)
        loss_ok = loss is None or (isinstance(loss, int | float) and 0 <= loss <= 100)
        if not (scores_ok and best_ok and loss_ok and (nag is None or nag in NAGS)):
            raise DamagedGameError(game_id, f"its review of ply {ply} holds a value not written")
        kept = None if loss is None else float(loss)
        positions.append(ReviewedPosition(cp, mate, best, nag, kept))
    return Review(float(reviewed_at), float(movetime), depth, tuple(positions))


def read_review(conn: sqlite3.Connection, version: int, game_id: int, plies: int) -> Review | None:
    """The review kept with game ``game_id`` of ``plies`` moves, if it has
    one, from a database of schema ``version`` (4 or later).

    :raises DamagedGameError: as :func:`checked_review`.
    """
    head = conn.execute(
        "SELECT reviewed_at, movetime, depth FROM reviews WHERE game_id = ?", (game_id,)
    ).fetchone()
    if head is None:
        return None
    loss = "loss" if version >= 5 else "NULL"
    rows = conn.execute(
        f"SELECT ply, cp, mate, best, nag, {loss} FROM review_positions "
        "WHERE game_id = ? ORDER BY ply",
        (game_id,),
    ).fetchall()
    return checked_review(game_id, plies, head, rows)


def write_review(conn: sqlite3.Connection, game_id: int, review: Review) -> None:
    """Keep ``review`` with game ``game_id`` in place of any earlier one, in
    the caller's transaction."""
    forget_review(conn, game_id)
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


def forget_review(conn: sqlite3.Connection, game_id: int) -> None:
    """Drop game ``game_id``'s review, if it has one (a takeback does: the
    review judged moves that are no longer the game's)."""
    conn.execute("DELETE FROM review_positions WHERE game_id = ?", (game_id,))
    conn.execute("DELETE FROM reviews WHERE game_id = ?", (game_id,))
