"""Where the daemon and the link meet (thread-safe), as the web page's hub is.

The link (in the web server's thread) publishes a :class:`RemoteView` of the
remote game after every change; the daemon reads :attr:`Desk.view` in its
loop and never waits for the link.  The other way, the daemon leaves
:data:`Note` values (a game bound, a move played, an offer, an answer), each
naming the key and the log's length it was made on, and the link takes them
in its own time.  A note is a request, not a fact: the link applies it only
to the log it was made on, and the daemon sees the result in the next view.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from ..queues import drain
from ..rules import WHITE
from .entry import Offer

# What the board's player may ask of the other side, or do to the game.
Ask = Literal["takeback", "draw", "abort", "resign", "claim"]
Answerable = Offer


@dataclass(frozen=True)
class RemoteView:
    """The remote game as the board should play it now."""

    key: str = ""  # "": no remote game
    local_game: int | None = None  # the store's game the daemon plays it as
    colour: int = WHITE  # the board player's colour
    variant: str = "falcon"
    start_fen: str = ""
    line: tuple[str, ...] = ()  # the game's moves, as the log has them
    # The time its mover had left after each move of ``line``, as the log
    # has it (None: no clocks): what both boards store, so their PGNs agree.
    move_clocks: tuple[float | None, ...] = ()
    seq: int = 0  # the log's length
    taken_back: tuple[str, ...] = ()  # the moves the log's last entry took back
    ending: tuple[int | None, str] | None = None  # (winner, termination) an entry declared
    clocks: tuple[float, float] | None = None  # White's and Black's time left
    away: bool = False  # the other side is away: the clocks are stopped
    joined: bool = False  # somebody has taken the other seat
    asks: tuple[Answerable, ...] = ()  # what the other side asks of the board player
    asked: tuple[Ask, ...] = ()  # what the board player asked and still waits for
    declined: str = ""  # the board player's offer the other side said no to
    code: str = ""  # the player code, shown while the seat is free
    invite: str = ""  # the link that invites a board, shown while the seat is free
    name: str = ""  # what the other side is called on the screen and in the store
    opponent: str = ""  # where the other side plays: "board" or "browser" ("": not known)
    problem: str = ""  # why the game is stopped (the sides disagree), in full
    # The board player may claim the game: the other side has been away on its
    # move, with no clock of its running, long enough (docs/remote.md, "Clocks").
    claimable: bool = False


@dataclass(frozen=True)
class Bound:
    """The daemon plays ``key`` as its stored game ``game_id``."""

    key: str
    game_id: int


@dataclass(frozen=True)
class Played:
    """The board player's move ``uci``, made on the log of length ``seq``."""

    key: str
    seq: int
    uci: str


@dataclass(frozen=True)
class Asked:
    key: str
    seq: int
    kind: Ask


@dataclass(frozen=True)
class Answered:
    key: str
    seq: int
    kind: Answerable
    yes: bool


Note = Bound | Played | Asked | Answered


@dataclass
class Desk:
    """See the module docstring."""

    view: RemoteView = field(default_factory=RemoteView)
    _notes: queue.SimpleQueue[Note] = field(default_factory=queue.SimpleQueue)
    _wakers: list[Callable[[], None]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def publish(self, view: RemoteView) -> None:
        self.view = view  # one reference: the daemon reads a whole view or the last

    def tell(self, note: Note) -> None:
        """The daemon's note for the link (never blocks)."""
        self._notes.put(note)
        with self._lock:
            wakers = list(self._wakers)
        for wake in wakers:
            wake()

    def take(self) -> list[Note]:
        return drain(self._notes)

    def on_note(self, wake: Callable[[], None]) -> None:
        """Call ``wake`` after every note (from the daemon's thread)."""
        with self._lock:
            self._wakers.append(wake)
