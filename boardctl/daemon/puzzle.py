"""A puzzle played on the board: the daemon's side of :mod:`boardctl.puzzles`.

A puzzle is a game with a start position and a goal, not a mode with its own
loop.  The daemon sets the position up with the guided set-up, and the game
that starts from it is the attempt: at each turn of the daemon's loop
:meth:`PuzzleSession.step` judges the game's new moves
(:func:`boardctl.puzzles.judge`) and answers with the defence, for the
daemon to light as the engine's move and the player to carry out.  A wrong move is taken back
on the board to try again (takebacks are always allowed in a puzzle).  The
start position set up after it ends the puzzle: two players play on.

The judge's searches run in an engine process of the puzzle's own
(:class:`WorkerSolver`): a wrong move in a mate in three takes the search a
second or more to refute, which the loop must not wait for.
"""

from __future__ import annotations

import logging
import time

from ..engine import MAX_SKILL, Limits
from ..engine.interface import BestMove, Failed, Opponent, Thinking, WorkerError
from ..puzzles import Attempt, Puzzle, Solver, Status, hint, judge
from ..puzzles.solver import WAIT, Found, Wait
from ..rules import Game, Move, Position, parse_uci
from .actions import Action, SetOpponentMove, ShowHint
from .presenter import PuzzleShown
from .view import View

log = logging.getLogger("boardctl")

ANSWERS_KEPT = 1000  # searches remembered (a puzzle asks a few dozen at most)


def _engine_process() -> Opponent:
    from ..engine.worker import EngineWorker

    return EngineWorker(MAX_SKILL, seed=0, vary=False)


class WorkerSolver(Solver):
    """The judge's searches in an engine process (started on first use): a
    question is asked once and answered :data:`WAIT` until the engine has
    answered it; :meth:`poll` takes the answers in.  Should the process be
    lost, the question is answered here in the loop, slowly but surely."""

    def __init__(self, worker: Opponent | None = None) -> None:
        super().__init__()
        self._worker = worker
        self._answers: dict[tuple[str, int], tuple[str | None, int | None]] = {}
        self._asked: tuple[str, int] | None = None  # the question the engine works on
        self._request: int | None = None
        self._mate: int | None = None  # its latest mate distance

    @property
    def thinking(self) -> bool:
        return self._asked is not None

    def start(self) -> None:
        """Start the engine process now (it takes a moment to start)."""
        if self._worker is None:
            self._worker = _engine_process()
        try:
            self._worker.new_game()
        except WorkerError as exc:
            log.warning("puzzle: cannot start the engine process (%s)", exc)

    def search(self, pos: Position, moves: int) -> Found | Wait:
        key = (pos.fen(), moves)
        if key in self._answers:
            move, mate = self._answers[key]
            return (None if move is None else parse_uci(pos, move)), mate
        if self._asked != key:
            try:
                self._ask(key, pos.variant.name)
            except WorkerError as exc:
                return self._here(pos, moves, exc)
        return WAIT

    def _ask(self, key: tuple[str, int], variant: str) -> None:
        if self._worker is None:
            self._worker = _engine_process()
        self._worker.new_game()  # nothing kept from the last search: the same answer each time
        self._request = self._worker.go(key[0], [], Limits(mate=key[1]), variant)
        self._asked, self._mate = key, None

    def _here(self, pos: Position, moves: int, exc: WorkerError) -> Found | Wait:
        log.warning("puzzle: the engine process is lost (%s): searching in the loop", exc)
        self._asked = self._request = None
        return super().search(pos, moves)

    def poll(self) -> bool:
        """Take in what the engine said; True when a question was answered."""
        if self._worker is None or self._asked is None:
            return False
        try:
            messages = self._worker.poll(0)
        except WorkerError as exc:
            log.warning("puzzle: the engine process is lost (%s): asking again", exc)
            self._asked = self._request = None  # the next search() asks a new process
            return False
        for message in messages:
            if message.request != self._request:
                continue  # the answer to a question no longer asked
            if isinstance(message, Thinking):
                self._mate = message.info.mate
            elif isinstance(message, BestMove | Failed):
                if isinstance(message, Failed):
                    log.error("puzzle: the engine failed: %s", message.reason)
                move = message.move if isinstance(message, BestMove) else None
                if len(self._answers) >= ANSWERS_KEPT:
                    self._answers.clear()
                assert self._asked is not None
                self._answers[self._asked] = (move, self._mate)
                self._asked = self._request = None
                return True
        return False

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None


class PuzzleSession:
    """One puzzle on the board (see the module docstring); ``solver``: the
    engine's mate search and the K+F v K table (by default in an engine
    process of its own)."""

    def __init__(self, puzzle: Puzzle, solver: Solver | None = None) -> None:
        self.puzzle = puzzle
        self.solver = solver if solver is not None else WorkerSolver()
        self.attempt: Attempt | None = None  # None until its position is set up
        self.hint_wanted = False
        self._start = puzzle.position().fen()

    @property
    def defender(self) -> int:
        """The side the engine plays: the one that is to be mated."""
        return self.puzzle.side ^ 1

    @property
    def thinking(self) -> bool:
        """Is the engine judging a move (or looking for a hint)?"""
        return isinstance(self.solver, WorkerSolver) and self.solver.thinking

    def new_game(self, game: Game) -> bool:
        """A new game began: the attempt when it starts from the puzzle's
        position; False when it does not (the puzzle is over)."""
        self.hint_wanted = False
        if not game.moves and game.start_fen == self._start:
            self.attempt = Attempt(self.puzzle)
            if isinstance(self.solver, WorkerSolver):
                self.solver.start()  # its process starts while the player thinks
            log.info("puzzle %s: %s", self.puzzle.id, self.attempt.banner()[0])
            return True
        self.attempt = None
        return False

    def step(self, now: float, view: View) -> list[Action]:
        """Take in the engine's answers, judge the game's new moves, and offer
        the defence when one is due and the board is ready for it; show the
        hint asked for, once it is known."""
        game, board = view.game, view.board
        if self.attempt is None:
            return []
        if isinstance(self.solver, WorkerSolver):
            self.solver.poll()
        before = self.attempt
        self.attempt = judge(before, game, self.solver)
        if self.attempt is not before:
            self.hint_wanted = False  # asked for the position that was
            if self.attempt.status in (Status.SOLVED, Status.FAILED):
                log.info("puzzle %s: %s", self.puzzle.id, self.attempt.banner()[0])
        actions: list[Action] = []
        reply = self.attempt.reply
        if (
            reply is not None
            and board.engine_move is None
            and board.ready_for_engine
            and game.ending() is None
        ):
            actions.append(SetOpponentMove(reply))
        hinted = self._hint(game) if self.hint_wanted else None
        if hinted is not None:
            actions.append(ShowHint(hinted))
        return actions

    def request_hint(self, game: Game) -> list[Action]:
        """The hint button: the next move of the solution, shown now or, once
        the engine has found it, by a later :meth:`step` (while the player is
        to move)."""
        if self.attempt is None or self.attempt.status is not Status.TO_PLAY:
            return []
        self.hint_wanted = True
        move = self._hint(game)
        if move is None and not self.hint_wanted:
            return []  # the solution has no next move to show
        return [ShowHint(move)]

    def _hint(self, game: Game) -> Move | None:
        assert self.attempt is not None
        found = hint(self.attempt, game, self.solver)
        if found is WAIT:
            return None
        self.hint_wanted = False
        return found

    def wait(self, timeout: float) -> None:
        """Block until the engine has answered (headless runs and tests)."""
        if not isinstance(self.solver, WorkerSolver):
            return
        deadline = time.monotonic() + timeout
        while self.solver.thinking and time.monotonic() < deadline:
            if not self.solver.poll():
                time.sleep(0.01)

    def shown(self) -> PuzzleShown | None:
        """The attempt as the screen shows it (None before its set-up is done)."""
        if self.attempt is None:
            return None
        text, kind = self.attempt.banner()
        return PuzzleShown(text, kind, self.thinking)

    def close(self) -> None:
        """Stop the engine process, if one was started."""
        if isinstance(self.solver, WorkerSolver):
            self.solver.close()
