"""Judging a game played from a puzzle, move by move.

An :class:`Attempt` is a value: the puzzle and each ply of the game so far,
judged.  :func:`judge` makes the next one from the game after any change (a
move, a takeback, an amendment): plies it has judged already are kept, the
rest are judged afresh, so a move taken back and played again otherwise is
judged again.  Nothing here touches a board or a clock; the daemon calls it
after each committed move and carries the defence it names out like an
engine's move.

- A mate puzzle: the solver's move is right if it still forces mate within
  the moves left, by the engine's mate search, so that every solution counts,
  not only the stored one; the engine then defends with the move that holds
  out longest.
- A K+F v K drill: the move is right if, by the table, mate can still come
  within the moves the drill allows (best play plus its slack); the bare
  king defends as the table says, as long as it can.

A wrong move ends the attempt with what would have done ("Not the solution:
1. Qxi7 mates in 2"); taking it back on the board tries again.

The solver may answer "not yet" (:data:`~.solver.WAIT`: its search runs
elsewhere); the move is then :attr:`Mark.PENDING` and judged again at the
next call, which the daemon makes at every turn of its loop.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Literal

from ..rules import Game, IllegalMoveError, Move, Position, parse_uci, san
from .library import Puzzle
from .solver import WAIT, Solver, Wait

TRY_AGAIN = "Take your move back to try again"
BannerKind = Literal["info", "error", "over"]  # as the screen's prompt kinds


class Status(Enum):
    """Where an attempt stands."""

    TO_PLAY = "to play"  # the solver's move
    CHECKING = "checking"  # the engine is judging the solver's move
    DEFENDING = "defending"  # the defence is to be carried out on the board
    SOLVED = "solved"
    FAILED = "failed"


class Mark(Enum):
    """What one ply of the game was, judged."""

    RIGHT = "right"  # the solver's move, on the way to mate
    MATE = "mate"  # the solver's move, and it mates: solved
    WRONG = "wrong"  # the solver's move, and no longer wins in time
    DEFENCE = "defence"  # the defending side's move
    AFTER = "after"  # played after the attempt had ended
    PENDING = "pending"  # not judged yet: the solver is still searching


@dataclass(frozen=True)
class Ply:
    """One ply, judged: after a right move, the ``reply`` the engine
    defends with; after a wrong one, ``text`` says what would have done."""

    move: Move
    mark: Mark
    reply: Move | None = None
    text: str = ""


@dataclass(frozen=True)
class Attempt:
    """A game from ``puzzle``'s position, judged ply by ply (see the module docstring)."""

    puzzle: Puzzle
    plies: tuple[Ply, ...] = ()

    @property
    def status(self) -> Status:
        marks = [ply.mark for ply in self.plies]
        if Mark.PENDING in marks:
            return Status.CHECKING
        if Mark.WRONG in marks:
            return Status.FAILED
        if Mark.MATE in marks:
            return Status.SOLVED
        return Status.DEFENDING if len(self.plies) % 2 else Status.TO_PLAY

    @property
    def moves_left(self) -> int:
        """The solver's moves left to mate in, counting the one to play."""
        return self.puzzle.goal.allowed - (len(self.plies) + 1) // 2

    @property
    def reply(self) -> Move | None:
        """The defence to carry out now, if one is due."""
        if self.status is not Status.DEFENDING:
            return None
        return self.plies[-1].reply

    def banner(self) -> tuple[str, BannerKind]:
        """What the screen's banner says of the attempt, and its kind
        (``info``, ``error`` or ``over``); ("", "info") while the engine
        judges a move or its defence is carried out (the banner shows the
        engine's move)."""
        status, goal = self.status, self.puzzle.goal
        if status is Status.FAILED:
            return next(p.text for p in self.plies if p.mark is Mark.WRONG), "error"
        if status is Status.SOLVED:
            used = (len(self.plies) + 1) // 2
            moves = "move" if used == 1 else "moves"
            best = (
                f" (the best is {goal.moves})" if goal.kind == "drill" and used > goal.moves else ""
            )
            return f"Solved! Checkmate in {used} {moves}{best}", "over"
        if status in (Status.DEFENDING, Status.CHECKING):
            return "", "info"
        return goal.text(self.puzzle.side, self.moves_left), "info"


def judge(attempt: Attempt, game: Game, solver: Solver) -> Attempt:
    """The attempt after ``game``'s moves (played from the puzzle's position)."""
    moves = game.moves
    keep = 0
    for ply, move in zip(attempt.plies, moves, strict=False):
        if ply.move != move or ply.mark is Mark.PENDING:
            break
        keep += 1
    plies = list(attempt.plies[:keep])
    if keep == len(moves) == len(attempt.plies):
        return attempt
    pos = Position(game.start_fen, game.variant)
    for move in moves[:keep]:
        pos.push(move)
    for move in moves[keep:]:
        plies.append(_judged(replace(attempt, plies=tuple(plies)), pos, move, solver))
        pos.push(move)
    return replace(attempt, plies=tuple(plies))


def _judged(before: Attempt, pos: Position, move: Move, solver: Solver) -> Ply:
    """``move``, played in ``pos`` after ``before``'s plies, judged."""
    if before.status is Status.CHECKING:
        return Ply(move, Mark.PENDING)  # judged once the move before it is
    if before.status in (Status.SOLVED, Status.FAILED):
        return Ply(move, Mark.AFTER)
    if before.status is Status.DEFENDING:
        return Ply(move, Mark.DEFENCE)
    left = before.moves_left
    after = pos.copy()
    after.push(move)
    if not after.legal_codes():
        if after.is_check():
            return Ply(move, Mark.MATE)
        return _wrong(before, pos, move, solver, "That is stalemate")
    if before.puzzle.goal.kind == "drill":
        return _drill_move(before, pos, after, move, solver)
    reply = solver.defence(after, left - 1) if left > 1 else None
    if reply is WAIT:
        return Ply(move, Mark.PENDING)
    if reply is None:
        return _wrong(before, pos, move, solver, "Not the solution")
    return Ply(move, Mark.RIGHT, reply=reply)


def _drill_move(before: Attempt, pos: Position, after: Position, move: Move, solver: Solver) -> Ply:
    """A move of a K+F v K drill: right while mate can still come in time."""
    plies = solver.table_value(after)  # to mate, from the bare king's move
    left = before.moves_left - 1  # the solver's moves after this one
    if plies is None:
        return _wrong(before, pos, move, solver, "That lets the king draw")
    needed = plies // 2  # the solver's moves after this one, with best play
    if needed > left:
        why = f"Too slow: mate now takes {needed} more moves, {left} are left"
        return _wrong(before, pos, move, solver, why)
    return Ply(move, Mark.RIGHT, reply=solver.table_move(after))


def _wrong(before: Attempt, pos: Position, move: Move, solver: Solver, why: str) -> Ply:
    """``move`` is wrong: its text says why, the move that would have done,
    and how to try again (pending while the solver looks for that move)."""
    best = solution(before, pos, solver)
    if best is WAIT:
        return Ply(move, Mark.PENDING)
    if best is None:
        return Ply(move, Mark.WRONG, text=f"{why}. {TRY_AGAIN}")
    named = numbered(pos, best)
    if before.puzzle.goal.kind == "drill":
        return Ply(move, Mark.WRONG, text=f"{why}. {named} was the way. {TRY_AGAIN}")
    after = pos.copy()
    after.push(best)
    mates = "mates" if not after.legal_codes() else f"mates in {before.moves_left}"
    return Ply(move, Mark.WRONG, text=f"{why}: {named} {mates}. {TRY_AGAIN}")


def solution(attempt: Attempt, pos: Position, solver: Solver) -> Move | Wait | None:
    """A move of the solution from ``pos`` (the attempt's position, the
    solver to move): the source's key at the start, else the engine's or
    the table's move; None when there is none to give."""
    puzzle = attempt.puzzle
    if not attempt.plies and puzzle.key is not None:
        try:
            return parse_uci(pos, puzzle.key)
        except IllegalMoveError:
            pass  # a key that is no move here: the engine finds one
    if puzzle.goal.kind == "drill":
        return solver.table_move(pos)
    return solver.mating_move(pos, attempt.moves_left)


def hint(attempt: Attempt, game: Game, solver: Solver) -> Move | Wait | None:
    """The next move of the solution, while the solver is to play (WAIT:
    ask again; the solver is looking for it)."""
    if attempt.status is not Status.TO_PLAY or game.ending() is not None:
        return None
    return solution(attempt, game.position, solver)


def numbered(pos: Position, move: Move) -> str:
    """``move`` in SAN with its number, as a book writes it: "1. Qxi7", "3... Kg8"
    (without "+" or "#": the words after it say what it does)."""
    dots = "." if pos.turn == 0 else "..."
    return f"{pos.fullmove_number}{dots} {san(pos, move).rstrip('+#')}"
