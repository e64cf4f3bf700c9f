"""The small interfaces every hardware driver implements, and their values.

The daemon sees only these: a :class:`SensorSource` gives whole-board
occupancy readings with their time, a :class:`LedSink` shows a colour per
square, :class:`Buttons` report presses.  Each has a simulated implementation
in this package (used by the desktop simulator and the tests) that goes
through the same code paths as the real drivers.  Nothing here imports
``boardctl.board``: drivers know squares and colours, not chess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..colour import Colour

OFF: Colour = (0, 0, 0)


@dataclass(frozen=True)
class Reading:
    """Every square's occupancy at one moment: bit ``sq`` set = occupied
    (squares numbered as in the rules core: a1 = 0, rank by rank)."""

    occupancy: int
    time: float


@dataclass(frozen=True)
class Press:
    """A button pressed: its name from the configuration (e.g. "ok", "next")."""

    button: str
    time: float


class SensorSource(Protocol):
    """Where occupancy readings come from (GPIO matrix, serial board, simulator)."""

    def read(self, now: float) -> Reading | None:
        """The latest stable reading if it changed since the last call (or a
        heartbeat is due), else None.  Never blocks for long."""

    @property
    def healthy(self) -> bool:
        """False while the source is disconnected or failing (shown to the user)."""

    def close(self) -> None: ...


@runtime_checkable
class ExplainsProblems(Protocol):
    """A source that can say what is wrong with it, in one line for the
    screen and the log ("sensor board not connected on /dev/ttyACM0,
    retrying"); None while all is well, or while it is too early to tell."""

    @property
    def problem(self) -> str | None: ...


@runtime_checkable
class Wakes(Protocol):
    """A source that can wait for its next reading: ``wait(timeout)``
    returns as soon as the device may have sent one, or after ``timeout``
    seconds.  The daemon's loop waits on it instead of sleeping out its
    period, so that a reading is acted on when it arrives, not at the next
    turn of the loop (up to a period later)."""

    def wait(self, timeout: float) -> None: ...


@runtime_checkable
class Dims(Protocol):
    """LEDs whose brightness can change while they run (0–1, clamped as at
    start): the settings page's brightness is taken at once."""

    def set_brightness(self, brightness: float) -> None: ...


@runtime_checkable
class MayLag(Protocol):
    """A source whose readings can arrive late, and that knows when it is
    behind: while ``behind`` is true its last reading may no longer be the
    board, so nothing may be concluded from the board staying still."""

    @property
    def behind(self) -> bool: ...


class LedSink(Protocol):
    """Where LED frames go: a colour for each square that should light."""

    def show(self, colours: dict[int, Colour]) -> None:
        """Light exactly these squares (all others off)."""

    def close(self) -> None: ...


class Buttons(Protocol):
    def presses(self, now: float) -> list[Press]:
        """Presses since the last call."""

    def close(self) -> None: ...
