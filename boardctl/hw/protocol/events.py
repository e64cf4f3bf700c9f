"""What the host's link is told and what it asks for, as values.

:class:`~.link.HostLink` takes an :data:`Event` (bytes read from the port,
time passing, a frame or palette to show, a question for the device's
counters, the port opened again) and returns :data:`Action` values, in order:
bytes to write, snapshots to pass on, state changes to show, the counters
the device reported.  The port (:mod:`boardctl.hw.serial_link`) carries them
out.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ...colour import Colour


class LinkState(Enum):
    CONNECTING = "connecting"  # no device HELLO yet (or the device went quiet)
    UP = "up"  # snapshots flow
    INCOMPATIBLE = "incompatible"  # the device speaks another version or board shape


@dataclass(frozen=True)
class Received:
    """Bytes read from the port."""

    data: bytes


@dataclass(frozen=True)
class Tick:
    """Time passed; feed one at least every ``ACK_TIMEOUT / 2`` seconds."""


@dataclass(frozen=True)
class ShowLeds:
    """Show this LED frame: a palette index per LED (0 = off), in LED order."""

    indices: tuple[int, ...]


@dataclass(frozen=True)
class SetPalette:
    """Use these colours for palette indices 1, 2, … (at most 15)."""

    colours: tuple[Colour, ...]


@dataclass(frozen=True)
class RequestCounters:
    """Ask the device for its counters (answered by :class:`DeviceCounters`)."""


@dataclass(frozen=True)
class Reopened:
    """The port was closed and opened again: start the link afresh."""


Event = Received | Tick | ShowLeds | SetPalette | RequestCounters | Reopened


@dataclass(frozen=True)
class Send:
    """Write these bytes to the port (never more than one line)."""

    data: bytes


@dataclass(frozen=True)
class SnapshotReceived:
    """The device reported this occupancy (on a change or as a heartbeat)."""

    occupancy: int
    time: float


@dataclass(frozen=True)
class StateChanged:
    """The link changed state; ``detail`` says why, for the display and the log."""

    state: LinkState
    detail: str


@dataclass(frozen=True)
class DeviceCounters:
    """Counters the device reported after a :class:`RequestCounters`."""

    values: tuple[tuple[str, int], ...]


Action = Send | SnapshotReceived | StateChanged | DeviceCounters
