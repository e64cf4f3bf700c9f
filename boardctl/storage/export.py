"""A stored game as PGN: its tags, its clocks, and its review as NAGs,
better moves and evaluations.

``boardctl pgn``, the spectator page's ``/games.pgn`` and the store's
:meth:`~boardctl.storage.store.GameStore.pgn` all write a game through
:func:`stored_pgn`, so the three agree to the byte.
"""

from __future__ import annotations

from ..errors import BoardctlError
from ..rules import Game
from ..rules.notation import parse_uci, san
from ..rules.pgn import MoveNote, date_tags, eval_text, export
from .errors import DamagedGameError
from .records import StoredGame, to_game
from .reviews import Review, ReviewedPosition


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
