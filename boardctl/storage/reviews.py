"""A stored game's review: the engine's view of each position, and the grade
of each move, as the store keeps them; and a stored game as PGN, with them.

``boardctl review`` (:mod:`boardctl.review`) works them out; the store only
keeps them, checks them when it reads them back, and hands them to the PGN
writer.  Scores are the engine's: from the side to move, centipawns or moves
to a mate (negative: that side is mated; 0: it is mated on the board).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import BoardctlError
from ..rules import Game
from ..rules.notation import parse_uci, san
from ..rules.pgn import (
    NAG_BLUNDER,
    NAG_DUBIOUS,
    NAG_MISTAKE,
    MoveNote,
    date_tags,
    eval_text,
    export,
)
from .records import UCI, DamagedGameError, StoredGame, to_game

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


def white_eval(position: ReviewedPosition, white_to_move: bool) -> str | None:
    """The position's score from White's side as ``[%eval]`` writes it; None
    for a position mated on the board (its result says it)."""
    if position.mate == 0:
        return None
    sign = 1 if white_to_move else -1
    mate = None if position.mate is None else sign * position.mate
    cp = None if position.cp is None else sign * position.cp
    return eval_text(cp, mate)


def move_notes(game_id: int, game: Game, review: Review) -> list[MoveNote]:
    """What PGN says after each move of a reviewed game: the grade as a NAG,
    the engine's better move with its score for a graded move, and the
    evaluation of the position the move left.

    :raises DamagedGameError: when a stored better move is not legal there.
    """
    replay = Game(game.variant, game.start_fen)
    notes = []
    for ply, move in enumerate(game.moves, start=1):
        before, after = review.positions[ply - 1], review.positions[ply]
        white = replay.position.turn == 0
        comment = None
        if after.nag is not None and before.best is not None:
            better = _san(game_id, replay, before.best)
            comment = f"Better: {better} ({white_eval(before, white)})"
        replay.push(move)
        notes.append(MoveNote(after.nag, comment, white_eval(after, not white)))
    return notes


def _san(game_id: int, game: Game, uci: str) -> str:
    try:
        return san(game.position, parse_uci(game.position, uci))
    except BoardctlError as exc:
        raise DamagedGameError(game_id, f"its review's better move {uci}: {exc}") from None


def stored_pgn(stored: StoredGame) -> str:
    """A stored game as PGN, with its review if it has one.

    :raises DamagedGameError: when the game does not replay.
    """
    game = to_game(stored)
    outcome = game.outcome()
    headers = {
        "Event": "boardctl game",
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
    headers.update(date_tags(stored.started_at))
    notes = () if stored.review is None else move_notes(stored.id, game, stored.review)
    return export(game, headers, stored.clocks, notes)
