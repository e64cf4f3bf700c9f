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
