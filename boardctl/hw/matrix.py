"""The 8 × 10 diode matrix on the Pi's GPIOs (gpiozero).

Wiring (reed switches; see ``hardware/README.md`` and ``schematic.svg``):
each square has a reed switch and a diode (1N4148, or BAT85 for less drop)
in series from its rank's row line (anode side) to its file's column line
(cathode side) — the same sensor board as the Pico build.  Rows are
outputs, idle low; the scanned row is driven high.  Columns are inputs with
pull-downs: a column reads high when the switch in the scanned row is
closed.  The diodes stop current flowing back through other closed
switches, so a full start position (whole ranks closed) reads without ghost
squares.  (The opposite polarity, rows driven low and columns pulled up with
the diodes turned round, works too: ``row_active = "low"``,
``column_pull = "up"``.)

Hall sensors (open collector, e.g. A3144 at 5 V) can sit in a matrix when
each rank's sensor ground is switched by an N-MOSFET whose gate is the row
line: ``row_active = "high"``, ``column_pull = "up"``, a diode from each
sensor output (cathode) to its column (anode), and ~100 µs settle.

Usage::

    from boardctl.hw.matrix import GpioMatrix
    from boardctl.hw.pins import default_pinout

    board = GpioMatrix.from_pinout(default_pinout().pi.matrix)
    while True:
        reading = board.read(time.monotonic())   # call at ≥ scan_hz

Tests pass ``pin_factory=MockFactory()`` and wire the mock pins with
:class:`boardctl.hw.mockpins.MockMatrixWiring`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from gpiozero import (  # type: ignore[import-untyped]
    DigitalInputDevice,
    DigitalOutputDevice,
    GPIOZeroError,
)

from . import gpio
from .errors import HardwareError
from .pins import MatrixPins
from .scan import DEBOUNCE_SCANS, HEARTBEAT_S, SCAN_HZ, MatrixScanner, ScanningSource


class GpioMatrixLines:
    """Row outputs and column inputs on gpiozero devices (a :class:`MatrixLines`).

    A column senses a closed switch when it is pulled away from its pull
    (high for ``column_pull_up=False``, low for ``column_pull_up=True``).

    ``settle`` seconds pass between driving a row and reading the columns
    (the column pull-ups must recharge the line after the previous row);
    ``sleep`` is injected so tests need not wait.

    :raises HardwareError: if a pin cannot be opened.
    """

    def __init__(
        self,
        rows: Sequence[int | str],
        columns: Sequence[int | str],
        *,
        row_active_low: bool = False,
        column_pull_up: bool = False,
        settle: float = 50e-6,
        sleep: Callable[[float], None] = time.sleep,
        pin_factory: Any = None,
    ) -> None:
        factory = gpio.resolve(pin_factory)
        self._settle = settle
        self._sleep = sleep
        self._rows: list[Any] = []
        self._columns: list[Any] = []
        self._selected: int | None = None
        try:
            for pin in rows:
                self._rows.append(
                    DigitalOutputDevice(
                        pin,
                        active_high=not row_active_low,
                        initial_value=False,
                        pin_factory=factory,
                    )
                )
            for pin in columns:
                self._columns.append(
                    DigitalInputDevice(pin, pull_up=column_pull_up, pin_factory=factory)
                )
        except GPIOZeroError as exc:
            self.close()
            raise HardwareError(f"cannot open the GPIO matrix: {exc}") from exc

    @property
    def rows(self) -> int:
        return len(self._rows)

    @property
    def columns(self) -> int:
        return len(self._columns)

    def select(self, row: int | None) -> None:
        try:
            if self._selected is not None:
                self._rows[self._selected].off()
            self._selected = row
            if row is not None:
                self._rows[row].on()
                if self._settle:
                    self._sleep(self._settle)
        except GPIOZeroError as exc:
            raise HardwareError(f"GPIO matrix row {row}: {exc}") from exc

    def sense(self) -> int:
        try:
            return sum(1 << c for c, column in enumerate(self._columns) if column.is_active)
        except GPIOZeroError as exc:
            raise HardwareError(f"GPIO matrix columns: {exc}") from exc

    def close(self) -> None:
        for device in self._rows + self._columns:
            device.close()
        self._rows, self._columns = [], []


class GpioMatrix(ScanningSource):
    """The GPIO diode matrix as a :class:`~boardctl.hw.base.SensorSource`.

    ``rows`` are the 8 rank lines (rank 1 first), ``columns`` the 10 file lines
    (file a first), as BCM GPIO numbers or gpiozero pin names.

    :raises HardwareError: if a pin cannot be opened.
    """

    def __init__(
        self,
        rows: Sequence[int | str],
        columns: Sequence[int | str],
        *,
        row_active_low: bool = False,
        column_pull_up: bool = False,
        settle: float = 50e-6,
        debounce: int = DEBOUNCE_SCANS,
        scan_hz: float = SCAN_HZ,
        heartbeat: float | None = HEARTBEAT_S,
        sleep: Callable[[float], None] = time.sleep,
        pin_factory: Any = None,
    ) -> None:
        lines = GpioMatrixLines(
            rows,
            columns,
            row_active_low=row_active_low,
            column_pull_up=column_pull_up,
            settle=settle,
            sleep=sleep,
            pin_factory=pin_factory,
        )
        try:
            scanner = MatrixScanner(lines)
        except ValueError:
            lines.close()
            raise
        super().__init__(scanner, debounce=debounce, scan_hz=scan_hz, heartbeat=heartbeat)

    @classmethod
    def from_pinout(cls, pins: MatrixPins, **kwargs: Any) -> GpioMatrix:
        """A matrix on the pinout's pins; ``kwargs`` as for the constructor."""
        kwargs.setdefault("settle", pins.settle_us * 1e-6)
        kwargs.setdefault("row_active_low", pins.row_active_low)
        kwargs.setdefault("column_pull_up", pins.column_pull_up)
        return cls(pins.rows, pins.columns, **kwargs)
