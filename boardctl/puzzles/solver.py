"""What a puzzle asks of the engine: forced mates, the longest defence, the table.

A mate puzzle is judged by the engine's own mate search (``Limits(mate=n)``),
not by a stored solution, so that every move that still mates in time
counts; a K+F v K drill by the table the engine plays those endings from.

:class:`Solver` runs the engine in the caller's process, each search afresh
(nothing kept from the last), so the same position always gets the same
answer: what ``boardctl puzzles --verify``, the tests and the gallery use.
Its :meth:`Solver.search` may also answer :data:`WAIT`: the daemon's
solver (``boardctl.daemon.puzzle``) asks an engine in a process of its own
and answers once it has heard back, so that its loop never waits on a search.
"""

from __future__ import annotations

from enum import Enum

from ..engine import Engine, Info, Limits
from ..engine import tablebase as tb
from ..rules import BoardctlError, Move, Position


class Wait(Enum):
    """Not known yet: the question has been asked; ask again later."""

    WAIT = "wait"


WAIT = Wait.WAIT
Found = tuple[Move | None, int | None]  # the search's move, and its mate distance in moves


class NoTableError(BoardctlError, LookupError):
    """A K+F v K drill on a board no table ships for."""


class Solver:
    """Answers a puzzle's questions (see the module docstring)."""

    def __init__(self, engine: Engine | None = None) -> None:
        # No opening variety: a puzzle's moves are judged the same every time.
        self.engine = engine if engine is not None else Engine(seed=0, vary=False)

    def search(self, pos: Position, moves: int) -> Found | Wait:
        """The search's move, and its mate distance in moves (negative: the
        side to move is mated), looking for mates in up to ``moves``."""
        infos: list[Info] = []
        self.engine.new_game()
        move = self.engine.search(pos.copy(), Limits(mate=moves), on_info=infos.append)
        return move, infos[-1].mate if infos else None

    def mating_move(self, pos: Position, moves: int) -> Move | Wait | None:
        """A move of the side to move that mates in ``moves`` or fewer, or None."""
        found = self.search(pos, moves)
        if found is WAIT:
            return WAIT
        move, mate = found
        return move if mate is not None and 0 < mate <= moves else None

    def defence(self, pos: Position, moves: int) -> Move | Wait | None:
        """When the side to move (which has a move) is mated in ``moves`` or
        fewer whatever it does: the move that holds out longest; else None."""
        found = self.search(pos, moves)
        if found is WAIT:
            return WAIT
        move, mate = found
        return move if mate is not None and -moves <= mate < 0 else None

    # ------------------------------------------------------------ K+F v K
    @staticmethod
    def _table(pos: Position) -> tb.FalconTable:
        """:raises NoTableError: when no table ships for the board."""
        geo = pos.geometry
        table = tb.table_for(geo.files, geo.ranks) if geo.grid else None
        if table is None:
            raise NoTableError(f"no K+F v K table for {geo.description}")
        return table

    def table_value(self, pos: Position) -> int | None:
        """Plies to mate with best play (K+F v K, or the K v K left when the
        falcon is taken), or None when the position is drawn.

        :raises NoTableError: on a board without a table.
        :raises ValueError: for other material.
        """
        return tb.value(pos, self._table(pos))

    def table_move(self, pos: Position) -> Move | None:
        """The table's move: the quickest mate for the falcon's side, the
        longest defence for the bare king; None when the game is over."""
        if not pos.legal_codes():
            return None
        chosen = tb.choose(pos, self._table(pos))
        return None if chosen is None else pos.to_move(chosen[0])
