"""Every position of a game searched, and every move graded.

The engine searches each position as the daemon's would (:meth:`Engine.search`
on the game's own position, so its history counts for repetitions), within
:class:`Limits`: a time per position, and a depth cap if one is given.  Scores
are the engine's, from the side to move.

A move is graded on two scores with the same horizon: the position before it
searched to some depth d, and the position after it to d - 1, as the search
before the move saw that position.  Compared at the depths each search happened
to reach, the side to move gains or loses a parity effect of the search, not of
the move: after a move the engine itself would play, the two scores differed by
+28, -8 and +17 centipawns on average at depths 5, 6 and 7 (60 positions of 6
games), and by 8 to 10 at d and d - 1.  A move's loss then also changes less
with the depth: between depths 5 to 8, by a median of 1.0 point of win% rather
than 1.5 (237 moves of 5 games half random, half the engine's at depth 3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..engine import Engine, Info, Limits
from ..errors import BoardctlError
from ..rules import Game
from ..storage.reviews import Review, ReviewedPosition
from .grading import Grade, Score, ended_score, grade, move_loss

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


@dataclass(frozen=True)
class Searched:
    """One position's search: its score at each depth it finished (none for a
    position the rules ended), the deepest, and the engine's move there."""

    score: Score
    by_depth: Mapping[int, Score]
    best: str | None


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
    found: list[Searched | None] = []
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
    best = [entry.best if entry else None for entry in found]
    pairs = [_matched(found, scores, ply) for ply in range(len(game.moves))]
    verdicts = grade_moves(game, pairs, best)
    positions = [ReviewedPosition(*scores[0], best[0])]
    for ply, verdict in enumerate(verdicts, start=1):
        nag = None if verdict.grade is None else verdict.grade.nag
        positions.append(ReviewedPosition(*scores[ply], best[ply], nag, verdict.loss))
    return Review(now, limits.movetime or 0.0, limits.depth, tuple(positions))


def _position(
    replay: Game, engine: Engine, limits: Limits, stop: Callable[[], bool] | None, *, last: bool
) -> Searched | None:
    """The search of the game's current position; None for a position with
    one move that the game goes on from (its score is the next one's: see
    :func:`_fill_forced`)."""
    outcome = replay.outcome()
    if outcome is not None:
        return Searched(ended_score(outcome, replay.position.turn), {}, None)
    if replay.position.count_legal() == 1 and not last:
        return None
    infos: list[Info] = []
    move = engine.search(replay.position, limits, stop, on_info=infos.append)
    if not infos:  # the time ran out inside the first iteration: one ply, which is quick
        move = engine.search(replay.position, Limits(depth=1), on_info=infos.append)
    assert move is not None, "a position the game goes on from has a legal move"
    by_depth = {info.depth: (info.score_cp, info.mate) for info in infos}
    deepest = (infos[-1].score_cp, infos[-1].mate)
    return Searched(deepest, by_depth, replay.position.uci(move))


def _matched(found: list[Searched | None], scores: list[Score], ply: int) -> tuple[Score, Score]:
    """The scores of the positions before and after move ``ply`` at the same
    horizon: the deepest d the one before reached with d - 1 reached by the one
    after; the deepest scores where there is no such d (a forced or ended
    position, or a search too short)."""
    before, after = found[ply], found[ply + 1]
    if before is not None and after is not None:
        for depth in sorted(before.by_depth, reverse=True):
            if depth - 1 in after.by_depth:
                return before.by_depth[depth], after.by_depth[depth - 1]
    return scores[ply], scores[ply + 1]


def _fill_forced(found: list[Searched | None]) -> list[Score]:
    """Every position's score: one with a single move is worth what that
    move leaves, one move further from any mate."""
    scores: list[Score] = [(0, None)] * len(found)
    for ply in range(len(found) - 1, -1, -1):
        entry = found[ply]
        if entry is not None:
            scores[ply] = entry.score
            continue
        cp, mate = scores[ply + 1]  # the last position is always searched
        if mate is None:
            scores[ply] = (None if cp is None else -cp, None)
        else:
            scores[ply] = (None, -mate if mate > 0 else 1 - mate)
    return scores


def grade_moves(
    game: Game, pairs: list[tuple[Score, Score]], best: list[str | None]
) -> list[Verdict]:
    """The verdict on each move of ``game``: the win% its mover had with the
    engine's move, less what it had after its own (lichess's model, see
    :mod:`.grading`).  ``pairs[k]`` holds the scores of the positions before
    and after move k, each from its side to move; ``best[k]`` is the engine's
    move before it.  Not graded: a move with no other legal one, and a move of
    a side already being mated; never marked: the engine's own move (a drop
    then is the search seeing further, not the move's fault)."""
    replay = Game(game.variant, game.start_fen)
    verdicts = []
    for ply, move in enumerate(game.moves):
        before, after = pairs[ply]
        forced = replay.position.count_legal() == 1
        mated = before[1] is not None and before[1] <= 0
        played = replay.position.uci(move)
        replay.push(move)
        if forced or mated:
            verdicts.append(Verdict(None, None))
            continue
        loss = move_loss(before, after)
        if played == best[ply]:
            verdicts.append(Verdict(0.0, None))
        else:
            verdicts.append(Verdict(loss, grade(loss)))
    return verdicts
