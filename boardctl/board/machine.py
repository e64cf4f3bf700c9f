"""What the reconciler is told, what it knows of the game, and what it asks for, as values.

The judgement (:mod:`.judgement`) is one function, ``feed(phase, event,
view) -> (phase, actions)``, in the shape of the serial link's
``HostLink.feed``: an :data:`Input` is what came in (a reading with its
time, a timer tick, a promotion choice or highlight, the engine's move), a
:class:`View` is what the decision needs to know of the game, and each
:data:`Action` is something for the shell to do.  The game changes only in
the shell: a decision that goes on after a change (a quick reply: commit the
move it answers, then judge the rest) ends with :class:`Continue`, whose
:class:`Resumed` event the shell feeds back with a view of the changed game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from ..rules import Move, Outcome, PieceType, Position
from .events import Event, MoveAmended, MoveMade
from .explain import Explainer
from .phases import Phase, ReconcilerConfig


# ------------------------------------------------------------ what comes in
@dataclass(frozen=True)
class Reading:
    """A new reading of all squares at ``now``."""

    reading: int
    now: float


@dataclass(frozen=True)
class Tick:
    """Time passed: timers due by ``now`` run out."""

    now: float


@dataclass(frozen=True)
class Chosen:
    """The player picked a promotion piece."""

    piece: PieceType
    now: float


@dataclass(frozen=True)
class Highlighted:
    """The display highlights a promotion piece."""

    piece: PieceType


@dataclass(frozen=True)
class EngineMoveOffered:
    """The engine's move, checked playable, for the player to carry out."""

    move: Move


@dataclass(frozen=True)
class TakebackAsked:
    """The player is to take the last move back (stepping back through a game)."""


@dataclass(frozen=True)
class OfferWithdrawn:
    """The move offered, or the takeback asked for, is wanted no more."""


@dataclass(frozen=True)
class Resumed:
    """The rest of a decision the game changed in the middle of."""

    stages: tuple[Stage, ...]
    now: float


Input = (
    Reading
    | Tick
    | Chosen
    | Highlighted
    | EngineMoveOffered
    | TakebackAsked
    | OfferWithdrawn
    | Resumed
)


# ------------------------------------------------------------ the steps of a decision
class Due(Enum):
    """The timers a tick looks at, in the order it looks."""

    JUDGE = "judge"  # the reading has settled
    PROMOTION = "promotion"  # the wait for a promotion piece ran out
    NEW_GAME = "new game"  # the start position was held
    HINT = "hint"  # a capture not yet shown, for the grace period
    GRACE = "grace"  # an unexplained reading, for the grace period


TIMERS: tuple[Due, ...] = tuple(Due)


class Then(Enum):
    """Steps that follow a change of the game."""

    AFTER_CHANGE = "after change"  # judge the reading against the new position
    JUDGE = "judge"  # judge the rest of a quick reply at once
    QUICK_REPLY = "quick reply"  # note the move the board shows now


@dataclass(frozen=True)
class Arrived:
    """A reading came: if it differs, the hands did something."""

    reading: int


@dataclass(frozen=True)
class MoverDone:
    """The opponent's hand (on ``changed``) may end a promotion's wait."""

    changed: int


@dataclass(frozen=True)
class TheirHand:
    """The opponent's hand (on ``changed``) ends the chance to amend."""

    changed: int


@dataclass(frozen=True)
class Noted:
    """The reading is noted in the episode."""

    reading: int


@dataclass(frozen=True)
class ReplySplit:
    """After committing the move a quick reply followed: ``shown`` is the
    phase before that commit, whose changes since are the reply's."""

    shown: Phase
    keep_choice: bool


@dataclass(frozen=True)
class Choose:
    piece: PieceType


Stage = Due | Then | Arrived | MoverDone | TheirHand | Noted | ReplySplit | Choose


# ------------------------------------------------------------ what the decision knows
@dataclass(frozen=True)
class View:
    """What a decision needs to know of the game, as it stands.  ``position``
    is read, never changed (it is the game's own, not a copy, for speed)."""

    position: Position
    explainer: Explainer  # the position's moves, explained
    # The moves of the position before the amendable move, explained when a
    # decision needs them (most moves are never amended): a pure function of
    # its argument, kept by the shell so each position is explained once.
    explain_before: Callable[[Position], Explainer]
    outcome: Outcome | None
    engine_side: int | None  # None: two humans
    played: bool  # the game has moves
    start: int  # the start position's occupancy
    promotions: tuple[PieceType, ...]  # the pieces a pawn may become
    default_promotion: PieceType  # the configured one, if the variant has it
    config: ReconcilerConfig

    @property
    def human_to_move(self) -> bool:
        """May the side to move play any move?  Not the engine's side, and
        neither side while stepping through a stored game (its moves are given)."""
        return not self.config.stepping and self.engine_side != self.position.turn

    @property
    def theirs(self) -> int:
        """The squares of the side to move: their hand there ends the mover's turn."""
        return self.position.colors[self.position.turn]


# ------------------------------------------------------------ what the shell does
@dataclass(frozen=True)
class Emit:
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Play:
    """Push the move onto the game; ``event`` tells of it."""

    event: MoveMade


@dataclass(frozen=True)
class Amend:
    """Replace the game's last move by ``event.new``."""

    event: MoveAmended


@dataclass(frozen=True)
class TakeBack:
    """Take the game's last move back."""


@dataclass(frozen=True)
class StartNewGame:
    """Start a new game of the same variant."""


@dataclass(frozen=True)
class Continue:
    """Feed ``event`` next, with a view of the game as the actions left it."""

    event: Resumed


GameChange = Play | Amend | TakeBack | StartNewGame
Action = Emit | GameChange | Continue
GAME_CHANGES = (Play, Amend, TakeBack, StartNewGame)
