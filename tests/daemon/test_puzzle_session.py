"""The daemon's side of a puzzle: the judge's searches in an engine process,
answered when the engine has answered, and a lost process survived."""

from __future__ import annotations

from boardctl.daemon.puzzle import WorkerSolver
from boardctl.engine import Info
from boardctl.engine.interface import BestMove, Thinking, WorkerError
from boardctl.puzzles import Solver, find
from boardctl.puzzles.solver import WAIT
from boardctl.rules import Position, get_variant, parse_uci


class Engine:
    """An engine process as the solver sees it: it records what it is asked,
    and says what the test tells it to, when the test says so."""

    def __init__(self, fails: bool = False) -> None:
        self.asked: list[tuple[str, int | None]] = []
        self.outbox: list = []
        self.fails = fails
        self.closed = False

    def go(self, fen, moves, limits, variant="falcon"):
        if self.fails:
            raise WorkerError("engine process is gone: test")
        self.asked.append((fen, limits.mate))
        return len(self.asked)

    def answer(self, request: int, move: str | None, mate: int | None) -> None:
        self.outbox += [Thinking(request, Info(3, None, mate, 10, 0.1)), BestMove(request, move)]

    def poll(self, timeout=0.0):
        out, self.outbox = self.outbox, []
        return out

    def new_game(self):
        pass

    def stop(self):
        pass

    def set_skill(self, skill):
        pass

    def rating(self, skill, variant):
        return None

    def close(self):
        self.closed = True


def after_the_key() -> Position:
    """Problem A after 1. Qxi7+: Black to move, mated in one more."""
    pos = find("duke-a").position()
    pos.push(parse_uci(pos, "c1i7"))
    return pos


def test_a_question_is_asked_once_and_answered_when_the_engine_has_answered():
    engine = Engine()
    solver = WorkerSolver(engine)
    pos = after_the_key()
    assert solver.defence(pos, 1) is WAIT and solver.thinking
    assert solver.defence(pos, 1) is WAIT
    assert engine.asked == [(pos.fen(), 1)]  # not asked again while it thinks
    engine.answer(1, "i8i7", -1)
    assert solver.poll() and not solver.thinking
    assert pos.uci(solver.defence(pos, 1)) == "i8i7"
    assert len(engine.asked) == 1  # remembered
    solver.close()
    assert engine.closed


def test_the_answer_to_a_question_no_longer_asked_is_not_taken():
    engine = Engine()
    solver = WorkerSolver(engine)
    first = after_the_key()
    other = find("duke-c").position()
    assert solver.defence(first, 1) is WAIT
    assert solver.mating_move(other, 2) is WAIT  # a takeback: another question
    engine.answer(1, "i8i7", -1)  # the first one's answer, late
    assert not solver.poll() and solver.thinking
    engine.answer(2, "d1a3", 2)
    assert solver.poll()
    assert other.uci(solver.mating_move(other, 2)) == "d1a3"


def test_a_search_that_finds_no_mate_is_no_defence():
    engine = Engine()
    solver = WorkerSolver(engine)
    pos = Position("7rk1/7ppp/10/7FPP/7N2/10/10/2Q4K2 b - - 0 1", get_variant("falcon"))
    solver.defence(pos, 1)
    engine.answer(1, "h7h6", None)
    solver.poll()
    assert solver.defence(pos, 1) is None


def test_without_its_engine_process_the_solver_answers_in_the_loop():
    solver = WorkerSolver(Engine(fails=True))
    pos = after_the_key()
    assert pos.uci(solver.defence(pos, 1)) == "i8i7"
    assert not solver.thinking
    assert solver.defence(pos, 1) == Solver().defence(pos, 1)
