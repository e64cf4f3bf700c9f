"""The clocks of a remote game, as one side keeps them (docs/remote.md).

Pure and driven with the caller's time: :meth:`Clocks.charge` lets time pass
(charged to the side to move unless a side is away), :meth:`Clocks.after`
takes in an entry once it is in the log.  A move's entry carries its mover's
time left, measured by the mover's own side; the other side takes it as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from .log import Entry, Log


@dataclass
class Clocks:
    """White's and Black's seconds left (index 0 and 1), charged up to ``since``."""

    remaining: list[float]
    increment: float
    running: int | None  # the side whose time runs; None before the first move and after the end
    since: float

    @classmethod
    def replayed(cls, log: Log, now: float) -> Clocks | None:
        """The clocks of ``log`` as its entries left them, running from ``now``
        (None for a game without clocks)."""
        clock = log.header.clock
        if clock is None:
            return None
        clocks = cls([clock[0], clock[0]], clock[1], None, now)
        for entry in log.entries:
            if entry.kind == "move" and entry.clock is not None:
                clocks.remaining[entry.by] = entry.clock
        clocks.running = _runs(log)
        return clocks

    def left(self, now: float) -> tuple[float, float]:
        """White's and Black's time left at ``now`` (nothing is charged)."""
        out = list(self.remaining)
        if self.running is not None:
            out[self.running] = max(0.0, out[self.running] - max(0.0, now - self.since))
        return out[0], out[1]

    def charge(self, now: float, away: bool) -> None:
        """Time passes up to ``now``: the side to move's, unless a side is away."""
        if not away and self.running is not None:
            left = self.left(now)
            self.remaining = [left[0], left[1]]
        self.since = max(self.since, now)

    def flagged(self, now: float) -> int | None:
        """The side to move, if its time has run out by ``now``."""
        if self.running is None or self.left(now)[self.running] > 0.0:
            return None
        return self.running

    def after_my_move(self, mover: int, now: float, away: bool) -> float:
        """What the mover's clock says once it moves at ``now``: its time,
        charged up to now (unless a side is away), and the increment (for
        the move's entry)."""
        self.charge(now, away)
        return self.remaining[mover] + self.increment

    def after(self, entry: Entry, log: Log, now: float) -> None:
        """``entry`` is now in ``log``: take the mover's time from it and
        start the clock of the side to move."""
        if entry.kind == "move" and entry.clock is not None:
            self.remaining[entry.by] = entry.clock
        self.running = _runs(log)
        self.since = now


def _runs(log: Log) -> int | None:
    """Whose clock runs: nobody's before the first move (White's starts with
    Black's reply, as at the board) and nobody's once the game is over."""
    if log.plies == 0:
        return None
    return log.to_move()
