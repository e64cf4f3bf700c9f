"""The real host (``SerialBoard``) on the firmware running in an emulated Pico.

Everything runs on the emulated chip's clock: the host is given the chip's
simulated time as its ``now``, so its timeouts mean what they mean on a real
board although the emulator runs several times slower than a Pico.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from boardctl.hw.base import Colour
from boardctl.hw.protocol.messages import BoardShape
from boardctl.hw.serial_link import SerialBoard, SerialStatus

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "emulator"))

import harness

Board = harness.Board
EmulatedPico = harness.EmulatedPico


def app_constant(name: str) -> int:
    """One of the firmware's numbers, read from its source (it runs on the chip, not here)."""
    source = (harness.FIRMWARE_DIR / "app.py").read_text()
    return int(re.search(rf"^{name} = (\d+)", source, re.M)[1])  # type: ignore[index]


@dataclass
class Rig:
    """An emulated Pico running one board's firmware, and the host's SerialBoard on it."""

    board: harness.Board
    pico: harness.EmulatedPico
    host: SerialBoard
    readings: list[tuple[float, int]] = field(default_factory=list)  # (sim s, occupancy)

    @classmethod
    def start(cls, board: harness.Board) -> Rig:
        pico = harness.EmulatedPico(board.files)
        board.wire(pico)
        return cls(board, pico, host_for(board, pico))

    def reopen(self) -> None:
        """The host closes the port and a new one opens it (a restarted boardctl)."""
        self.host.close()
        self.host = host_for(self.board, self.pico)

    def close(self) -> None:
        self.host.close()
        self.pico.close()

    # -- time and readings --------------------------------------------------------

    def now(self) -> float:
        return self.pico.now()

    def pump(self, seconds: float, *, until: Callable[[], bool] | None = None) -> bool:
        """Run the host for `seconds` of simulated time, or until `until()`."""
        end = self.now() + seconds
        # Bounded in wall time too: an emulator whose clock stopped fails the test.
        deadline = time.monotonic() + 30 + 40 * seconds  # the emulator runs at 0.06-0.3x
        while self.now() < end:
            if time.monotonic() > deadline:
                raise harness.EmulatorError(f"simulated time stuck at {self.now():.3f} s")
            reading = self.host.read(self.now())
            if reading is not None:
                self.readings.append((self.now(), reading.occupancy))
            if until is not None and until():
                return True
            time.sleep(0.001)
            if self.pico.stopped():
                raise harness.EmulatorError(f"the emulator stopped: {self.pico.stderr()}")
        return until is None

    def connect(self, limit: float = 4.0) -> None:
        """Until the host has the device's HELLO and a first reading."""
        assert self.pump(
            limit, until=lambda: self.host.status is SerialStatus.UP and bool(self.readings)
        ), (self.host.status, self.host.problem)

    def latest(self) -> int | None:
        return self.readings[-1][1] if self.readings else None

    def settle(self, occupancy: int, limit: float = 0.5) -> bool:
        """Until the host reads `occupancy`."""
        return self.pump(limit, until=lambda: self.latest() == occupancy)

    # -- the hand ----------------------------------------------------------------------

    def place(self, changes: list[tuple[float, frozenset[int] | set[int]]]) -> None:
        """Sensor states at simulated times from now: [(after s, squares closed)]."""
        self.pico.command(
            "sensors", changes=[self.board.change(closed, after=after) for after, closed in changes]
        )

    def show(self, colours: Mapping[int, Colour]) -> None:
        self.host.show(colours)


def host_for(board: harness.Board, pico: harness.EmulatedPico) -> SerialBoard:
    """The host's SerialBoard on the emulated Pico's port, expecting `board`."""
    shape = BoardShape.named("hex121") if board.hex else BoardShape(10, 8, 80)
    return SerialBoard(
        pico.url, shape=shape, reconnect_interval=0.2, reconnect_max=0.5, heartbeat=None
    )


def bits(squares: set[int] | frozenset[int]) -> int:
    return sum(1 << sq for sq in squares)
