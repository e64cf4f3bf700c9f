"""``boardctl review [GAME]``: review a stored game, keep the review, print it."""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import TextIO

from ..engine import Engine, Limits
from ..rules import Game
from ..rules.notation import parse_uci, san
from ..storage.errors import StoreValueError
from ..storage.export import white_eval
from ..storage.records import StoredGame, to_game
from ..storage.reviews import Review
from ..storage.store import GameStore, UnknownGameError
from .analysis import Verdict, analyse, grade_moves
from .grading import Grade


def review_command(
    db_path: Path,
    game_id: int | None,
    limits: Limits,
    out: TextIO,
    *,
    engine: Engine | None = None,
    clock: Callable[[], float] = time.perf_counter,
    now: Callable[[], float] = time.time,
) -> int:
    """Review ``game_id`` (default: the latest finished game) within
    ``limits`` a position, keep the review in the store (replacing an older
    one), write one line per marked move, one per side and the time taken
    to ``out``, and return the exit status.

    :raises StoreError: when there is no database or it cannot be used.
    :raises UnknownGameError: for a game number that is not stored.
    :raises StoreValueError: for a game that has not ended or has no moves.
    """
    stored = reviewable(db_path, game_id)
    game = to_game(stored)
    started = clock()
    review = analyse(game, engine or Engine(seed=0, vary=False), limits, now())
    taken = clock() - started
    with GameStore(db_path) as store:  # may migrate an older database: it can write
        store.save_review(stored.id, review)
    for line in report(stored, game, review):
        out.write(line + "\n")
    plies = len(game.moves)
    out.write(
        f"Reviewed game {stored.id}: {plies} moves in {taken:.1f} s "
        f"({taken / (plies + 1):.2f} s a position)\n"
    )
    return 0


def reviewable(db_path: Path, game_id: int | None) -> StoredGame:
    """The game to review, read without writing anything (a corrupt file
    is refused here, never moved aside)."""
    with GameStore(db_path, create=False) as store:
        if game_id is None:
            finished = [g for g in store.games() if g.finished]
            if not finished:
                raise UnknownGameError(f"no finished game in {db_path} yet")
            game_id = finished[-1].id
        stored = store.load(game_id)
    if not stored.finished:
        raise StoreValueError(f"game {stored.id} has not ended: finish it first")
    if not stored.moves:
        raise StoreValueError(f"game {stored.id} has no moves")
    return stored


def verdicts(game: Game, review: Review) -> list[Verdict]:
    """The verdict on each move as the review gave it: its grade, and the loss
    it kept (a review stored before losses were kept: worked out again from
    the scores of the positions before and after)."""
    scores = [(p.cp, p.mate) for p in review.positions]
    pairs = list(pairwise(scores))
    again = grade_moves(game, pairs, [p.best for p in review.positions])
    kept = []
    for verdict, after in zip(again, review.positions[1:], strict=True):
        loss = verdict.loss if after.loss is None else after.loss
        grade = None if after.nag is None else Grade.of_nag(after.nag)
        kept.append(Verdict(loss, grade))
    return kept


def report(stored: StoredGame, game: Game, review: Review) -> list[str]:
    """One line per marked move, then one per side with its counts and the
    win% it lost on average a graded move."""
    replay = Game(game.variant, game.start_fen)
    number = replay.position.fullmove_number
    lines = []
    losses: dict[int, list[Verdict]] = {0: [], 1: []}
    for ply, (move, verdict) in enumerate(zip(game.moves, verdicts(game, review), strict=True)):
        turn = replay.position.turn
        text = san(replay.position, move)
        before, after = review.positions[ply], review.positions[ply + 1]
        if verdict.grade is not None and before.best is not None:
            better = san(replay.position, parse_uci(replay.position, before.best))
            was = white_eval(before, turn == 0)
            now = white_eval(after, turn != 0) or "mate"
            dots = "." if turn == 0 else "..."
            lines.append(
                f"{number}{dots} {text}{verdict.grade.glyph} (better {better}, {was} → {now})"
            )
        losses[turn].append(verdict)
        replay.push(move)
        if turn == 1:
            number += 1
    lines.append(_side_line(f"White ({stored.white})", losses[0]))
    lines.append(_side_line(f"Black ({stored.black})", losses[1]))
    return lines


def _side_line(side: str, verdicts: list[Verdict]) -> str:
    counts = ", ".join(f"{sum(v.grade is g for v in verdicts)} {g.glyph}" for g in Grade)
    graded = [v.loss for v in verdicts if v.loss is not None]
    average = sum(graded) / len(graded) if graded else 0.0
    return f"{side}: {counts}, average loss {average:.1f} win% a move"
