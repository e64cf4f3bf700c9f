"""The chess clock: two players' remaining times with a Fischer increment.

The daemon's loop drives it with its own (monotonic) time: :meth:`ChessClock.run`
charges the side to move for the time since the last call, :meth:`ChessClock.press`
ends a move (the mover is charged up to that moment, then gains the increment),
and :meth:`ChessClock.hold` lets time pass uncharged (before the first move, after
the game).  Wall-clock dates have no place here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ChessClock:
    """Remaining seconds of White and Black (index 0 and 1)."""

    remaining: list[float]
    increment: float
    since: float  # the loop time charged up to
    flagged: int | None = None  # the side whose time ran out

    @classmethod
    def start(cls, seconds: tuple[float, float] | None, now: float) -> ChessClock | None:
        """A clock of ``(base, increment)`` seconds, or None for a game without one."""
        if seconds is None:
            return None
        base, increment = seconds
        return cls([base, base], increment, now)

    def hold(self, now: float) -> None:
        """Time passes and nobody's clock runs."""
        self.since = now

    def run(self, side: int, now: float) -> bool:
        """Charge ``side`` for the time since the last call; True when its flag
        falls with this call."""
        if self.flagged is not None:
            self.since = now
            return False
        self.remaining[side] = max(0.0, self.remaining[side] - (now - self.since))
        self.since = now
        if self.remaining[side] == 0.0:
            self.flagged = side
            return True
        return False

    def press(self, mover: int, now: float) -> bool:
        """The mover's move is made at ``now``: charged up to it, then the
        increment.  True when the mover's flag fell before the move."""
        fell = self.run(mover, now)
        if self.flagged is None:
            self.remaining[mover] += self.increment
        return fell
