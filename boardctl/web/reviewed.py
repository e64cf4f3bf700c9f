"""A stored game's review as the game's page draws it.

The store keeps the engine's scores from the side to move
(:class:`~boardctl.storage.reviews.Review`); the page wants them from White's
side: White's winning chances after each ply for the graph (lichess's curve,
:func:`~boardctl.review.grading.win_percent`), and for each marked move the
better move's squares (the arrow) and the evaluations in words.
"""

from __future__ import annotations

from typing import Any

from ..errors import BoardctlError
from ..review.grading import Grade, win_percent
from ..rules import WHITE, Game
from ..rules.notation import parse_uci, san
from ..scores import score_words
from ..storage.errors import DamagedGameError
from ..storage.reviews import Review, ReviewedPosition

# What each grade is called on the page, and its class there.
GRADE_NAMES = {
    Grade.INACCURACY: "inaccuracy",
    Grade.MISTAKE: "mistake",
    Grade.BLUNDER: "blunder",
}


def white_win(position: ReviewedPosition, white_to_move: bool) -> float:
    """White's chance to win, 0-100, in a reviewed position (a side mated on
    the board has none)."""
    mover = 0.0 if position.mate == 0 else win_percent(position.cp, position.mate)
    return round(mover if white_to_move else 100 - mover, 1)


def white_words(position: ReviewedPosition, white_to_move: bool) -> str:
    """The position's evaluation from White's side, as the screen says one."""
    sign = 1 if white_to_move else -1
    if position.mate == 0:
        return f"{'Black' if white_to_move else 'White'} has mated"
    if position.mate is not None:
        return score_words(f"M{sign * position.mate}")
    return score_words(f"{sign * (position.cp or 0) / 100:+.2f}")


def review_json(game_id: int, game: Game, review: Review) -> dict[str, Any]:
    """The review for the page: ``win[k]`` is White's win% after ``k`` plies
    (0: the start), ``marks`` one entry per marked move.

    :raises DamagedGameError: when a stored better move is not legal there.
    """
    replay = Game(game.variant, game.start_fen)
    win = [white_win(review.positions[0], replay.position.turn == WHITE)]
    marks = []
    for ply, move in enumerate(game.moves, start=1):
        before, after = review.positions[ply - 1], review.positions[ply]
        white = replay.position.turn == WHITE
        if after.nag is not None and before.best is not None:
            try:
                marks.append(_mark(replay, ply, before, after))
            except BoardctlError as exc:
                raise DamagedGameError(game_id, f"its review of ply {ply}: {exc}") from None
        replay.push(move)
        win.append(white_win(after, not white))
    return {
        "reviewed_at": review.reviewed_at,
        "movetime": review.movetime,
        "depth": review.depth,
        "win": win,
        "marks": marks,
    }


def _mark(
    replay: Game, ply: int, before: ReviewedPosition, after: ReviewedPosition
) -> dict[str, Any]:
    """A marked move, from the position it was played in (``replay``, not yet
    moved on): its grade, the engine's better move and both evaluations."""
    assert after.nag is not None and before.best is not None
    pos = replay.position
    white = pos.turn == WHITE
    better = parse_uci(pos, before.best)
    grade = Grade.of_nag(after.nag)
    return {
        "ply": ply,
        "glyph": grade.glyph,
        "kind": GRADE_NAMES[grade],
        "better": san(pos, better),
        "better_move": [better.from_square, better.to_square],
        "before": white_words(before, white),
        "after": white_words(after, not white),
    }
