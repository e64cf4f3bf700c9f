"""What a feature sees of the daemon, and the one protocol every feature keeps.

Each turn of the loop the daemon hands every feature that is in play a
:class:`View`: the game, the stored game's id, the board as the reconciler
reads it (read-only: :class:`BoardView` has no method that changes it), the
phase the board is in, who the opponent is and the engine's time.  The
feature answers with :mod:`~boardctl.daemon.actions` for the daemon to carry
out; its own state is its own.  The daemon never names what a feature keeps,
and a feature never names the daemon.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from ..board.reconciler import State
from ..config import Config
from ..engine import Limits
from ..rules import Game, Move
from .actions import Action

# The game id while no stored game is on the board: after stepping through one,
# until the position set up next begins a game, or in remote play before a
# remote game is bound (the store's ids start at 1).
NO_GAME = 0


def shared(a: Sequence[object], b: Sequence[object]) -> int:
    """How many first items (moves, clocks) the two lines have in common."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


class Phase(Enum):
    """What the board is doing, as a feature needs to know it."""

    PLAYING = "playing"  # a game is played on the board (a puzzle's attempt too)
    SETTING_UP = "setting up"  # the pieces are guided to a position: nothing is played
    STEPPING = "stepping"  # a stored game is stepped through: nothing is played


class BoardView(Protocol):
    """The reconciler, as a feature may read it."""

    @property
    def state(self) -> State: ...
    @property
    def engine_move(self) -> Move | None: ...
    @property
    def ready_for_engine(self) -> bool: ...
    @property
    def amendable(self) -> bool: ...


@dataclass(frozen=True)
class View:
    """See the module docstring.  ``mode``: what the board is doing, as the
    page is told (``Snapshot.mode``); ``engine_side``: the colour the board
    plays against (the engine's, a puzzle's defender, the remote player's;
    None: two players); ``remote``: a remote game is played; ``limits``:
    the engine's time for its next move."""

    game: Game
    game_id: int
    board: BoardView
    phase: Phase
    mode: str
    engine_side: int | None
    remote: bool
    limits: Limits
    config: Config

    @property
    def engine_to_move(self) -> bool:
        """Is a game played, not over, with the opponent to move?"""
        return (
            self.phase is Phase.PLAYING
            and self.game.position.turn == self.engine_side
            and self.game.ending() is None
        )


class Feature(Protocol):
    """A feature of the board (see the module docstring): each turn of the
    loop it takes in what changed and says what to do; it lets go of its
    engines and processes on :meth:`close`."""

    def step(self, now: float, view: View) -> list[Action]: ...
    def close(self) -> None: ...
