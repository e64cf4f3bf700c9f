"""What a GUI's clock charges a move beyond the engine's own search: the
process, the pipes, and on a busy machine the wait for a core, which can be
ten times the search's own share of a fast game.  Learnt from the clock the
GUI sends before each move (UCI's ``wtime``/``btime``, XBoard's ``time``):
the time kept back for every move to come is the latest such lag, decaying
while none is seen, and never less than :data:`ANSWER_RESERVE`."""

from __future__ import annotations

from dataclasses import dataclass

from .params import ANSWER_RESERVE

LAG_DECAY = 0.75  # a move without lag brings the reserve down to this share of it
# A lag is believed up to this share of the clock before the move; more is a
# take-back or a game the GUI did not announce, not a slow answer.
LAG_MAX_SHARE = 0.1


@dataclass
class _Move:
    turn: int
    clock: float
    inc: float
    started: float
    ended: float | None = None


class ClockLag:
    """The reserve for a move's answer, learnt move by move (seconds)."""

    def __init__(self) -> None:
        self.reserve = ANSWER_RESERVE
        self._last: _Move | None = None

    def forget(self) -> None:
        """A new game: nothing learnt carries over."""
        self.reserve = ANSWER_RESERVE
        self._last = None

    def before(self, turn: int, clock: float, inc: float, now: float) -> float:
        """The reserve for the move ``turn`` is to make now, its clock showing
        ``clock`` with ``inc`` added after the move."""
        last = self._last
        if last is not None and last.turn == turn and last.ended is not None:
            charged = last.clock + last.inc - clock
            lag = min(charged - (last.ended - last.started), last.clock * LAG_MAX_SHARE)
            self.reserve = max(ANSWER_RESERVE, lag, self.reserve * LAG_DECAY)
        self._last = _Move(turn, clock, inc, now)
        return self.reserve

    def after(self, now: float) -> None:
        """The move whose clock :meth:`before` was given is found now."""
        if self._last is not None and self._last.ended is None:
            self._last.ended = now
