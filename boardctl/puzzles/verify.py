"""Checking a puzzle of the library: is its goal what the position holds?

A mate in N: the engine's mate search finds a mate in N and none quicker,
and the source's key (if given) mates in N against every defence.  With
``every_move``, each first move is tried, and the report names every one
that mates in N (a problem whose key is its only solution is "sound").  A
K+F v K drill: the table's distance to mate is the drill's, its band the
drill's difficulty, and the table's own line, played through the rules
core, ends in checkmate after exactly that many moves.

``boardctl puzzles --verify`` prints these reports with their times.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..rules import Move, Position, parse_uci
from .drills import BANDS
from .library import Puzzle
from .solver import Solver


@dataclass(frozen=True)
class Report:
    """What the check of one puzzle found, and how long it took."""

    puzzle: Puzzle
    problems: tuple[str, ...]
    found: tuple[str, ...]  # what was shown, in words
    solutions: tuple[str, ...] | None  # every first move that mates in time (if asked)
    seconds: float

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(puzzle: Puzzle, solver: Solver, every_move: bool = False) -> Report:
    started = time.perf_counter()
    problems: list[str] = []
    found: list[str] = []
    solutions = None
    pos = puzzle.position()
    if puzzle.goal.kind == "drill":
        _drill(puzzle, pos, solver, problems, found)
    else:
        _mate(puzzle, pos, solver, problems, found)
        if every_move:
            solutions = tuple(
                pos.uci(move)
                for move in pos.legal_moves()
                if mates_with(pos, move, puzzle.goal.moves, solver)
            )
            found.append(f"first moves that mate in {puzzle.goal.moves}: {', '.join(solutions)}")
    return Report(puzzle, tuple(problems), tuple(found), solutions, time.perf_counter() - started)


def mates_with(pos: Position, move: Move, moves: int, solver: Solver) -> bool:
    """Does ``move`` mate in ``moves`` (counting itself) against every defence?"""
    after = pos.copy()
    after.push(move)
    if not after.legal_codes():
        return after.is_check()
    return moves > 1 and isinstance(solver.defence(after, moves - 1), Move)


def _mate(
    puzzle: Puzzle, pos: Position, solver: Solver, problems: list[str], found: list[str]
) -> None:
    n = puzzle.goal.moves
    move = solver.mating_move(pos, n)
    if not isinstance(move, Move):
        problems.append(f"the engine finds no mate in {n}")
    else:
        found.append(f"the engine mates in {n} with {pos.uci(move)}")
    if n > 1 and isinstance(solver.mating_move(pos, n - 1), Move):
        problems.append(f"there is a mate in {n - 1}")
    if puzzle.key is not None:
        key = parse_uci(pos, puzzle.key)
        if mates_with(pos, key, n, solver):
            found.append(f"the key {puzzle.key} mates in {n} against every defence")
        else:
            problems.append(f"the key {puzzle.key} does not mate in {n}")


def _drill(
    puzzle: Puzzle, pos: Position, solver: Solver, problems: list[str], found: list[str]
) -> None:
    plies = solver.table_value(pos)
    moves = None if plies is None else (plies + 1) // 2
    if moves != puzzle.goal.moves:
        problems.append(f"the table mates in {moves}, the drill says {puzzle.goal.moves}")
    low, high, slack = BANDS[puzzle.difficulty]
    if moves is None or not low <= moves <= high or slack != puzzle.goal.slack:
        problems.append(f"not a {puzzle.difficulty} drill ({low} to {high} moves, slack {slack})")
    line = pos.copy()
    for _ in range(plies or 0):
        step = solver.table_move(line)
        if step is None:
            break
        line.push(step)
    if plies is not None and not line.legal_codes() and line.is_check():
        found.append(f"the table's line mates in {moves} moves")
    else:
        problems.append("the table's line does not end in checkmate")
