"""The chess clock: two players' remaining times with a Fischer increment or a
delay (the US simple delay: the first seconds of each move are not charged,
and what is left of them is not kept).

The daemon's loop drives it with its own (monotonic) time: :meth:`ChessClock.run`
charges the side to move for the time since the last call, :meth:`ChessClock.press`
ends a move (the mover is charged up to that moment, then gains the increment),
and :meth:`ChessClock.hold` lets time pass uncharged (before the first move, after
the game).  Wall-clock dates have no place here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Limits


@dataclass
class ChessClock:
    """Remaining seconds of White and Black (index 0 and 1)."""

    remaining: list[float]
    increment: float
    since: float  # the loop time charged up to
    flagged: int | None = None  # the side whose time ran out
    delay: float = 0.0  # seconds of each move not charged
    grace: float = 0.0  # what is left of the delay of the move being thought about

    @classmethod
    def start(
        cls, seconds: tuple[float, float] | None, now: float, delay: float = 0.0
    ) -> ChessClock | None:
        """A clock of ``(base, increment)`` seconds (and ``delay``), or None
        for a game without one."""
        if seconds is None:
            return None
        base, increment = seconds
        return cls([base, base], increment, now, delay=delay, grace=delay)

    def hold(self, now: float) -> None:
        """Time passes and nobody's clock runs."""
        self.since = now

    def run(self, side: int, now: float) -> bool:
        """Charge ``side`` for the time since the last call; True when its flag
        falls with this call."""
        if self.flagged is not None:
            self.since = now
            return False
        spent = now - self.since
        waived = min(self.grace, spent)
        self.grace -= waived
        self.remaining[side] = max(0.0, self.remaining[side] - (spent - waived))
        self.since = now
        if self.remaining[side] == 0.0:
            self.flagged = side
            return True
        return False

    def press(self, mover: int, now: float) -> bool:
        """The mover's move is made at ``now``: charged up to it, then the
        increment; the next move's delay begins.  True when the mover's flag
        fell before the move."""
        fell = self.run(mover, now)
        if self.flagged is None:
            self.remaining[mover] += self.increment
        self.grace = self.delay
        return fell


class Clocks:
    """The game's clock as the daemon keeps it: the configured one for each
    new game (:attr:`clock`; None: no clock), charged while a game is
    played, or the clocks someone else keeps (a remote game's link), shown."""

    def __init__(self, seconds: tuple[float, float] | None, delay: float, now: float) -> None:
        self.clock = ChessClock.start(seconds, now, delay)

    @property
    def remaining(self) -> list[float] | None:
        """White's and Black's remaining seconds, or None for no clock."""
        return self.clock.remaining if self.clock is not None else None

    @property
    def flagged(self) -> int | None:
        """The side whose time ran out, if it did."""
        return self.clock.flagged if self.clock is not None else None

    def run(self, turn: int, running: bool, now: float) -> bool:
        """Charge ``turn`` while the game is ``running`` (it holds before the
        first move, after the game, while setting up and while stepping);
        True when its flag falls now."""
        if self.clock is None:
            return False
        if not running:
            self.clock.hold(now)
            return False
        return self.clock.run(turn, now)

    def press(self, mover: int, first: bool, now: float) -> bool:
        """``mover``'s move ends their time (``first``: the game's first move:
        White's clock starts with Black's first reply); True if their flag
        fell before it."""
        if self.clock is None:
            return False
        if first:
            self.clock.hold(now)
        return self.clock.press(mover, now)

    def limits(self, movetime: float) -> Limits:
        """The engine's time for its move: the clocks, else ``movetime``."""
        if self.clock is None:
            return Limits(movetime=movetime)
        white, black = self.clock.remaining
        # A delay's seconds are free as an increment's are (UCI knows no delay).
        free = self.clock.increment + self.clock.delay
        return Limits(wtime=white, btime=black, winc=free, binc=free)

    def left(self, side: int) -> float | None:
        """The time ``side`` has left (None: no clocks)."""
        return self.clock.remaining[side] if self.clock is not None else None

    def show(self, clocks: tuple[float, float] | None, now: float) -> None:
        """The clocks as someone else keeps them (it measures the time; the
        daemon shows it); None: the game has none, whatever the file says."""
        if clocks is None:
            self.clock = None
            return
        if self.clock is None:
            self.clock = ChessClock([*clocks], 0.0, now)
        self.clock.remaining = [clocks[0], clocks[1]]
        self.clock.hold(now)
