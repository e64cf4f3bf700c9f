"""What the daemon tells the web server: one immutable snapshot, and the
actions spectators ask for.

In its loop the daemon has a :class:`Snapshot` shaped from the same state as
the screen (:mod:`boardctl.web.shaping`) and hands it to a :class:`Hub` with
:meth:`Hub.publish`; the web
server's thread reads :attr:`Hub.latest` and never touches the daemon.  The
other way, the server puts a :class:`WebAction` on the hub's queue and the
daemon takes it in its next step (:meth:`Hub.take_actions`).

This module imports nothing outside the standard library, the rules core,
:mod:`boardctl.web.layout` and :mod:`boardctl.review.status` (pure data), so
the daemon can publish without the web server's libraries installed.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, get_args

from ..queues import drain
from ..review.status import ReviewStatus
from .layout import board_layout

# What the page's buttons ask for (/api/action); "restart": the board's
# program starts again (boardctl.daemon.restart).
ButtonKind = Literal["newgame", "takeback", "level", "resign", "draw", "review", "restart"]
# What the owner may set up on the board (boardctl.web.starts).
StartKind = Literal["setup", "puzzle", "replay", "normal"]
# "settings" comes only from a saved settings form (/api/settings).
ActionKind = Literal[ButtonKind, StartKind, "settings"]
ACTION_KINDS: tuple[ButtonKind, ...] = get_args(ButtonKind)
START_KINDS: tuple[StartKind, ...] = get_args(StartKind)


@dataclass(frozen=True)
class Ring:
    """One lit LED as the page mirrors it: a ring round ``square``."""

    square: int
    role: str  # a :class:`~boardctl.board.scene.Role` value, e.g. "falcon-path"
    colour: str  # "#rrggbb", the colour the LED shows
    blink: bool = False


@dataclass(frozen=True)
class Snapshot:
    """The board as spectators see it.  Cells are the rules core's ints.

    ``clocks_after[i]`` is the time the mover of ply ``i`` had left after it
    (None where no clock ran); ``evals[k]`` is the engine's score, from
    White's side in pawns, of the position after ``k`` plies (``evals[0]``:
    the start; None where the engine did not look).  ``seq`` grows with every change.
    """

    seq: int = 0
    game_id: int = 0
    started_at: float | None = None  # UTC seconds since 1970; None: not known
    variant: str = "falcon"  # the preset: it fixes the board's shape
    start_fen: str = ""
    fen: str = ""
    turn: str = "white"
    orientation: str = "white"
    moves: tuple[str, ...] = ()  # coordinate notation, for feeds and replay
    sans: tuple[str, ...] = ()
    first_ply: int = 0  # ply index of sans[0] (0: White's first move)
    last_move: tuple[int, int] | None = None
    check: int | None = None
    white: str = ""
    black: str = ""
    white_clock: float | None = None  # seconds, whole
    black_clock: float | None = None
    clock_running: str | None = None  # "white", "black" or None
    clocks_after: tuple[float | None, ...] = ()
    score: str = ""  # as the screen shows it: "+0.35", "M3"
    evals: tuple[float | None, ...] = ()
    engine: str = ""  # the engine's status word
    level: int | None = None
    rating: int | None = None  # the level's approximate rating (docs/levels.md)
    result: str = "*"
    reason: str = ""
    prompt: str = ""
    rings: tuple[Ring, ...] = ()
    engine_move: tuple[int, int] | None = None  # the move the player must carry out
    engine_san: str = ""  # that move in SAN, as the screen's banner says it ("" with none)
    opponent: str = "Engine"  # who makes that move: the engine, or the remote "Opponent"
    status: str = ""
    # What the board is doing: "game" (a game, or none yet), "setup" (a
    # position being set up to play from), "puzzle" or "stepping".
    mode: str = "game"
    # The board's last words (boardctl.voice) and their number, which grows
    # with each: the page says them once each, if its speech is on.
    said_seq: int = 0
    said: str = ""
    # The board's reviews of stored games: the one running, those waiting and
    # the latest ended ones; None when this board does not review games.
    reviews: tuple[ReviewStatus, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The snapshot as the ``/api/state`` document (see README), with the
        board's layout for its orientation (:func:`~boardctl.web.layout.board_layout`)."""
        data = asdict(self)
        data["rings"] = [asdict(ring) for ring in self.rings]
        data["board"] = board_layout(self.variant, self.orientation == "black")
        return data

    def content(self) -> Snapshot:
        """The snapshot without its sequence number, to compare two."""
        return Snapshot(**{**self.__dict__, "seq": 0})


@dataclass(frozen=True)
class WebAction:
    """A spectator's request, checked by the server, carried out by the daemon.

    ``value`` is the level for ``"level"`` (0..20), the stored game's
    number for ``"review"`` and ``"replay"``, and 0 otherwise; ``text`` the
    FEN for ``"setup"``, the puzzle's id for ``"puzzle"``.
    ``config`` is, for ``"settings"``, the configuration the file now holds
    (a :class:`boardctl.config.Config`, checked as at start: the page's side
    of the hub knows no configuration, so it only carries it through); for
    ``"replay"``, the stored game read by the server, ready to step through
    (a :class:`boardctl.board.stepping.Stepping`).
    """

    kind: ActionKind
    value: int = 0
    config: object = None
    text: str = ""


Waker = Callable[[], None]


@dataclass
class Hub:
    """The one place the daemon and the web server meet (thread-safe).

    The daemon calls :meth:`publish` and :meth:`take_actions`; the server
    reads :attr:`latest`, calls :meth:`request` and registers a ``waker``
    that it makes thread-safe itself (e.g. ``loop.call_soon_threadsafe``).
    """

    clock: Callable[[], float] = time.time
    latest: Snapshot = field(default_factory=Snapshot)
    changed_at: float = 0.0  # wall time of the latest change
    _actions: queue.SimpleQueue[WebAction] = field(default_factory=queue.SimpleQueue)
    _wakers: list[Waker] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def publish(self, snapshot: Snapshot) -> bool:
        """Make ``snapshot`` the latest if it differs from it (True then);
        its ``seq`` is set here."""
        if snapshot.content() == self.latest.content():
            return False
        with self._lock:
            self.latest = Snapshot(**{**snapshot.__dict__, "seq": self.latest.seq + 1})
            self.changed_at = self.clock()
            wakers = list(self._wakers)
        for wake in wakers:
            wake()
        return True

    def on_change(self, wake: Waker) -> Callable[[], None]:
        """Call ``wake`` after every change (from the publishing thread); returns
        the function that stops it."""
        with self._lock:
            self._wakers.append(wake)

        def remove() -> None:
            with self._lock:
                if wake in self._wakers:
                    self._wakers.remove(wake)

        return remove

    def request(self, action: WebAction) -> None:
        self._actions.put(action)

    def take_actions(self) -> list[WebAction]:
        """Every action asked for since the last call (never blocks)."""
        return drain(self._actions)


class History:
    """Per-ply values that the game itself does not keep (clocks after each
    move, the engine's score after each move), kept by the daemon's side.

    :meth:`update` is told the game and ply count at every step; a takeback
    or a new game cuts the lists back.
    """

    def __init__(self) -> None:
        self.game_id: int | None = None
        self.clocks: list[float | None] = []
        self.evals: list[float | None] = []
        self._score: float | None = None  # the score last recorded

    def update(
        self, game_id: int, plies: int, mover_clock: float | None, score: float | None
    ) -> None:
        """``mover_clock``: the clock of the side that made the last move, now;
        ``score``: the engine's score of the current position, if it has one."""
        if game_id != self.game_id:
            self.game_id = game_id
            self.clocks, self.evals = [], []
        del self.clocks[plies:]
        del self.evals[plies + 1 :]
        while len(self.clocks) < plies:
            # A move just made: its mover's clock, with the increment, is final.
            self.clocks.append(mover_clock if len(self.clocks) == plies - 1 else None)
        while len(self.evals) < plies + 1:
            self.evals.append(None)
        # The screen keeps showing the last score after the engine's search; only
        # a new one belongs to the position on the board now.
        if score is not None and score != self._score:
            self.evals[plies] = score
        self._score = score


def score_value(text: str) -> float | None:
    """The screen's score text as pawns from White's side: "+0.35" → 0.35,
    "M3" → a large number (mate is off any scale)."""
    if not text:
        return None
    if text.startswith("M"):
        try:
            mate = int(text[1:])
        except ValueError:
            return None
        return MATE_PAWNS if mate > 0 else -MATE_PAWNS
    try:
        return float(text)
    except ValueError:
        return None


MATE_PAWNS = 99.0
