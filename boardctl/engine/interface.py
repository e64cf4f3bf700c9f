"""What the daemon sees of an engine: the :class:`Opponent` protocol, the
messages it answers with, and the errors it raises.

The built-in engine's worker process (worker.py) and any UCI engine
(external.py) both satisfy :class:`Opponent`; the daemon's session
(session.py) talks to either through this module alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..rules import BoardctlError
from .limits import Info, Limits


class EngineFailure(BoardctlError):
    """Root of every error an engine process raises: :class:`WorkerError`
    from the daemon's opponent (the built-in worker or a UCI engine) and
    xboard.EngineError from the XBoard reference engine.  Each keeps the
    builtin base its callers already catch it by (RuntimeError, OSError)."""


class WorkerError(EngineFailure, RuntimeError):
    """The engine process is gone or answered nonsense."""


@dataclass(frozen=True)
class Thinking:
    """One finished iteration of the search for ``request``."""

    request: int
    info: Info


@dataclass(frozen=True)
class BestMove:
    request: int
    move: str | None  # coordinate notation; None when there is no legal move


@dataclass(frozen=True)
class Failed:
    """The request could not be searched (a bad position, a variant not played)."""

    request: int
    reason: str


@dataclass(frozen=True)
class RankedMove:
    """One move of a :class:`Ranked` answer: coordinate notation, and the
    engine's last finished iteration on it (score from the side to move)."""

    move: str
    info: Info


@dataclass(frozen=True)
class Ranked:
    """The answer to :meth:`Ranks.rank`: the moves, best first (none when
    there is no legal move)."""

    request: int
    moves: tuple[RankedMove, ...]


Message = Thinking | BestMove | Failed | Ranked


class Opponent(Protocol):
    """An engine the daemon can ask for moves.

    :meth:`go` returns a request number; the answers arrive, tagged with it,
    from :meth:`poll`.  :meth:`poll` raises :class:`WorkerError` once when the
    engine has died.
    """

    def go(self, fen: str, moves: list[str], limits: Limits, variant: str = ...) -> int: ...
    def stop(self) -> None: ...
    def new_game(self) -> None: ...
    def set_skill(self, skill: int) -> None: ...
    def rating(self, skill: int, variant: str) -> int | None:
        """Level ``skill``'s approximate rating in ``variant``, or None when it has none."""

    def poll(self, timeout: float = ...) -> list[Message]: ...
    def close(self) -> None: ...


@runtime_checkable
class Ranks(Protocol):
    """An engine that can rank several good moves (the built-in worker; a UCI
    engine is asked for its best move alone).  The answer is one
    :class:`Ranked` message, tagged with the returned request number; a
    :meth:`Opponent.go` or :meth:`Opponent.stop` cancels it like a search."""

    def rank(
        self, fen: str, moves: list[str], limits: Limits, count: int, variant: str = ...
    ) -> int: ...
