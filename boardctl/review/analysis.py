"""Every position of a game searched, and every move graded.

The engine searches each position as the daemon's would (:meth:`Engine.search`
on the game's own position, so its history counts for repetitions), within
:class:`Limits`: a time per position, and a depth cap if one is given.  Scores
are the engine's, from the side to move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine import Engine, Info, Limits
from ..errors import BoardctlError
from ..rules import Game
from ..rules.game import Outcome
from ..storage.reviews import Review, ReviewedPosition
from .grading import CP_CEILING, Grade, grade, win_percent

Score = tuple[int | None, int | None]  # (centipawns, moves to mate), from the side to move
Progress = Callable[[int, int], None]  # (positions done, positions in all)

DEFAULT_MOVETIME = 1.0  # seconds a position: a 40-move game in under a minute and a half
MOVETIME_RANGE = (0.01, 3600.0)  # seconds: from a test's glance to an hour a position


class ReviewCancelled(BoardctlError, RuntimeError):
    """The review was stopped before it was done (nothing of it is kept)."""


@dataclass(frozen=True)
class Verdict:
    """What the review says of one move: the win% it cost its mover (None: not
    graded, as for a forced move or one played into a forced mate), and its grade."""

    loss: float | None
    grade: Grade | None


def analyse(
    game: Game,
    engine: Engine,
    limits: Limits,
    now: float,
    *,
    on_position: Progress | None = None,
    stop: Callable[[], bool] | None = None,
) -> Review:
    """The engine's view of every position of ``game`` and the grade of each
    move; ``now`` (UTC seconds since 1970) dates the review.  ``on_position``
    hears how many positions are done after each; ``stop`` is asked during
    every search and between them.

    :raises ReviewCancelled: once ``stop`` says so.
    """
    replay = Game(game.variant, game.start_fen)
    found: list[tuple[Score, str | None] | None] = []
    total = len(game.moves) + 1
    for ply in range(total):
        found.append(_position(replay, engine, limits, stop, last=ply == len(game.moves)))
        if stop is not None and stop():
            raise ReviewCancelled(f"stopped after {ply + 1} of {total} positions")
        if on_position is not None:
            on_position(ply + 1, total)
        if ply < len(game.moves):
            replay.push(game.moves[ply])
    scores = _fill_forced(found)
    verdicts = grade_moves(game, scores, [entry[1] if entry else None for entry in found])
    positions = [ReviewedPosition(*scores[0], _best(found[0]))]
    for ply, verdict in enumerate(verdicts, start=1):
        nag = None if verdict.grade is None else verdict.grade.nag
        positions.append(ReviewedPosition(*scores[ply], _best(found[ply]), nag))
    return Review(now, limits.movetime or 0.0, limits.depth, tuple(positions))


def _best(entry: tuple[Score, str | None] | None) -> str | None:
    return None if entry is None else entry[1]


def _position(
    replay: Game, engine: Engine, limits: Limits, stop: Callable[[], bool] | None, *, last: bool
) -> tuple[Score, str | None] | None:
    """The score and best move of the game's current position; None for a
    position with one move that the game goes on from (its score is the next
    one's: see :func:`_fill_forced`)."""
    outcome = replay.outcome()
    if outcome is not None:
        return _ended(outcome, replay.position.turn), None
    if replay.position.count_legal() == 1 and not last:
        return None
    infos: list[Info] = []
    move = engine.search(replay.position, limits, stop, on_info=infos.append)
    if not infos:  # the time ran out inside the first iteration: one ply, which is quick
        move = engine.search(replay.position, Limits(depth=1), on_info=infos.append)
    assert move is not None, "a position the game goes on from has a legal move"
    return (infos[-1].score_cp, infos[-1].mate), replay.position.uci(move)


def _ended(outcome: Outcome, turn: int) -> Score:
    """A position the rules end the game in, from the side to move: mated
    (a mate in 0) when it lost, the ceiling when it won, else level."""
    if outcome.winner is None:
        return 0, None
    if outcome.winner != turn:
        return None, 0
    return CP_CEILING, None  # a scored stalemate the stalemated side wins


def _fill_forced(found: list[tuple[Score, str | None] | None]) -> list[Score]:
    """Every position's score: one with a single move is worth what that
    move leaves, one move further from any mate."""
    scores: list[Score] = [(0, None)] * len(found)
    for ply in range(len(found) - 1, -1, -1):
        entry = found[ply]
        if entry is not None:
            scores[ply] = entry[0]
            continue
        cp, mate = scores[ply + 1]  # the last position is always searched
        if mate is None:
            scores[ply] = (None if cp is None else -cp, None)
        else:
            scores[ply] = (None, -mate if mate > 0 else 1 - mate)
    return scores


def grade_moves(game: Game, scores: list[Score], best: list[str | None]) -> list[Verdict]:
    """The verdict on each move of ``game``: the win% its mover had with the
    engine's move, less what it had after its own (lichess's model, see
    :mod:`.grading`).  ``scores[k]`` and ``best[k]`` are the engine's for the
    position after ply k.  Not graded: a move with no other legal one, and a
    move of a side already being mated; never marked: the engine's own move
    (a drop then is the search seeing further, not the move's fault)."""
    replay = Game(game.variant, game.start_fen)
    verdicts = []
    for ply, move in enumerate(game.moves):
        before, after = scores[ply], scores[ply + 1]
        forced = replay.position.count_legal() == 1
        mated = before[1] is not None and before[1] <= 0
        played = replay.position.uci(move)
        replay.push(move)
        if forced or mated:
            verdicts.append(Verdict(None, None))
            continue
        # The curve is symmetric: the mover's chance is 100 less the opponent's.
        loss = max(0.0, win_percent(*before) - (100 - win_percent(*after)))
        if played == best[ply]:
            verdicts.append(Verdict(0.0, None))
        else:
            verdicts.append(Verdict(loss, grade(loss)))
    return verdicts
