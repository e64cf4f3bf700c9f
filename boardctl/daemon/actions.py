"""What a feature asks the daemon to do: values the daemon carries out.

A feature (the engine session, a puzzle, the remote seat, the coach, the page,
the board's buttons) never writes the daemon's fields nor reaches into the
reconciler: its :meth:`~boardctl.daemon.view.Feature.step` returns these,
and :meth:`boardctl.daemon.loop.Daemon.step` carries them out in order, as
the reconciler's own transitions return actions for it to carry out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board.stepping import Stepping
from ..config import Config
from ..puzzles import Puzzle
from ..rules import Game, Move, Outcome, PieceType, Position

# ------------------------------------------------------------ the board


@dataclass(frozen=True)
class SetOpponentMove:
    """The other side's move (the engine's, a puzzle's defence, the remote
    player's, the stored game's next one), lit for the hand to carry out."""

    move: Move


@dataclass(frozen=True)
class AskTakeBack:
    """Light the last move undone, for the hand to take back (stepping back)."""


@dataclass(frozen=True)
class Withdraw:
    """Withdraw the move offered or the takeback asked for."""


@dataclass(frozen=True)
class Seal:
    """The board player's last move is final: it can no longer be amended."""


@dataclass(frozen=True)
class Highlight:
    """Highlight ``piece`` among the promotion choices."""

    piece: PieceType


@dataclass(frozen=True)
class Choose:
    """The player chose ``piece`` for the promotion."""

    piece: PieceType


# ------------------------------------------------------------ the game


@dataclass(frozen=True)
class Declare:
    """The game ends off the board (on time, from the page, by the remote log)."""

    outcome: Outcome


@dataclass(frozen=True)
class PlayOn:
    """Play on, in a new stored game, from the move the stepping has reached."""


@dataclass(frozen=True)
class Begin:
    """The owner's page starts a set-up, a puzzle, a stepping or a normal game."""

    start: Position | Puzzle | Stepping


@dataclass(frozen=True)
class StartRemote:
    """A remote game this board does not play yet: the game on the board ends
    unfinished, ``game`` is stored (its moves with the log's ``clocks``) and
    the pieces are guided to it."""

    game: Game
    clocks: tuple[float | None, ...]


@dataclass(frozen=True)
class StoreLine:
    """The stored game's moves become ``line`` (each with the log's clock in
    ``clocks``), whatever the board's game holds."""

    line: tuple[str, ...]
    clocks: tuple[float | None, ...]


@dataclass(frozen=True)
class KeepClocks:
    """The stored moves from ply ``first`` on carry ``clocks``, the log's."""

    first: int
    clocks: tuple[float | None, ...]


@dataclass(frozen=True)
class Rename:
    """The players' names have changed (the remote player's became known)."""


@dataclass(frozen=True)
class Guide:
    """Play ``game`` from now on, once the pieces stand as it has them;
    ``status``: the panel's word for it meanwhile."""

    game: Game
    status: str


@dataclass(frozen=True)
class Reseat:
    """Who plays which side has changed (the remote log's colour): the board
    and the screen are told again."""


@dataclass(frozen=True)
class ShowClocks:
    """The clocks as someone else keeps them (None: the game has none)."""

    clocks: tuple[float, float] | None


# ------------------------------------------------------------ the player


@dataclass(frozen=True)
class Notice:
    """Show ``text`` for a few seconds."""

    text: str


@dataclass(frozen=True)
class ShowHint:
    """Show ``move`` as the hint (None: one is being looked for)."""

    move: Move | None


@dataclass(frozen=True)
class RequestHint:
    """The hint button."""


@dataclass(frozen=True)
class ChangeLevel:
    """Raise or lower the engine's level by ``step``."""

    step: int


@dataclass(frozen=True)
class SetLevel:
    level: int


@dataclass(frozen=True)
class Question:
    """A question the board answers aloud."""

    name: str


@dataclass(frozen=True)
class Mute:
    """The voice off, or on again."""


@dataclass(frozen=True)
class Offer:
    """The board player asks the remote side for ``kind`` (a takeback, a
    draw) or resigns, from the page."""

    kind: str


@dataclass(frozen=True)
class Review:
    """Review stored game ``game_id``."""

    game_id: int


@dataclass(frozen=True)
class SaveSettings:
    """The settings page saved ``config`` to the file."""

    config: Config


@dataclass(frozen=True)
class Restart:
    """End the loop as SIGTERM does, for the program to start again."""


Action = (
    SetOpponentMove
    | AskTakeBack
    | Withdraw
    | Seal
    | Highlight
    | Choose
    | Declare
    | PlayOn
    | Begin
    | StartRemote
    | StoreLine
    | KeepClocks
    | Rename
    | Guide
    | Reseat
    | ShowClocks
    | Notice
    | ShowHint
    | RequestHint
    | ChangeLevel
    | SetLevel
    | Question
    | Mute
    | Offer
    | Review
    | SaveSettings
    | Restart
)
