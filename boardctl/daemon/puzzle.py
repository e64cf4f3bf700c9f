"""A puzzle played on the board: the daemon's side of :mod:`boardctl.puzzles`.

A puzzle is a game with a start position and a goal, not a mode with its own
loop.  The daemon sets the position up with the guided set-up, and the game
that starts from it is the attempt: after every change of the game the
daemon's loop calls :meth:`PuzzleSession.step`, which judges the new moves
(:func:`boardctl.puzzles.judge`) and hands the defence to the reconciler as
the engine's move, for the player to carry out.  A wrong move is taken back
on the board to try again (takebacks are always allowed in a puzzle).  The
start position set up after it ends the puzzle: two players play on.
"""

from __future__ import annotations

import logging

from ..board import Reconciler
from ..puzzles import Attempt, Puzzle, Solver, Status, hint, judge
from ..rules import Game, Move
from .presenter import PuzzleShown

log = logging.getLogger("boardctl")


class PuzzleSession:
    """One puzzle on the board (see the module docstring); ``solver``: the
    engine's mate search and the K+F v K table, started on first use."""

    def __init__(self, puzzle: Puzzle, solver: Solver | None = None) -> None:
        self.puzzle = puzzle
        self.solver = solver if solver is not None else Solver()
        self.attempt: Attempt | None = None  # None until its position is set up
        self._start = puzzle.position().fen()

    @property
    def defender(self) -> int:
        """The side the engine plays: the one that is to be mated."""
        return self.puzzle.side ^ 1

    def new_game(self, game: Game) -> bool:
        """A new game began: the attempt when it starts from the puzzle's
        position; False when it does not (the puzzle is over)."""
        if not game.moves and game.start_fen == self._start:
            self.attempt = Attempt(self.puzzle)
            log.info("puzzle %s: %s", self.puzzle.id, self.attempt.banner()[0])
            return True
        self.attempt = None
        return False

    def step(self, game: Game, reconciler: Reconciler) -> None:
        """Judge the game's new moves, if any; offer the defence when one is
        due and the board is ready for it."""
        if self.attempt is None:
            return
        before = self.attempt.status
        self.attempt = judge(self.attempt, game, self.solver)
        status = self.attempt.status
        if status is not before and status in (Status.SOLVED, Status.FAILED):
            log.info("puzzle %s: %s", self.puzzle.id, self.attempt.banner()[0])
        reply = self.attempt.reply
        if (
            reply is not None
            and reconciler.engine_move is None
            and reconciler.ready_for_engine
            and game.ending() is None
        ):
            reconciler.set_engine_move(reply)

    def hint(self, game: Game) -> Move | None:
        """The next move of the solution, while the player is to move."""
        return None if self.attempt is None else hint(self.attempt, game, self.solver)

    def shown(self) -> PuzzleShown | None:
        """The attempt as the screen shows it (None before its set-up is done)."""
        if self.attempt is None:
            return None
        text, kind = self.attempt.banner()
        return PuzzleShown(text, kind, self.puzzle.id)
