"""gpiozero mock pins wired like the board: the matrix and the 74HC165 chain.

For tests (and a dry run of the real drivers off a Pi): create a
``MockFactory``, wire it with these, then open the real driver on the same
factory.  The real driver then drives and reads mock pins whose levels
follow the emulated circuit.

gpiozero's ``MockConnectedPin`` joins one output to one input; a matrix row
reaches ten columns through switches and diodes, and a column hears every
row, so :class:`MockMatrixWiring` generalises it: row pins tell the wiring
when they change, and the wiring drives each column pin from the
:class:`~boardctl.hw.sim.DiodeMatrix` model (pulled low through a closed
switch in a selected row, else at its pull-up).

This module imports gpiozero's mock pins, so only import it where gpiozero is
installed (the ``dev`` and ``pi`` extras).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpiozero.pins.mock import MockPin, MockSPIDevice  # type: ignore[import-untyped]

from .pins import SQUARES, ShiftRegPins
from .shiftreg import occupancy_to_bytes
from .sim import DiodeMatrix


class _MatrixPin(MockPin):  # type: ignore[misc]
    """A matrix line that tells its wiring when the matrix must be re-evaluated."""

    def __init__(self, factory: Any, info: Any, wiring: MockMatrixWiring | None = None) -> None:
        super().__init__(factory, info)
        self.wiring = wiring

    def _refresh(self) -> None:
        # MockPin's constructor sets the pin up before ``wiring`` exists.
        wiring = getattr(self, "wiring", None)
        if wiring is not None:
            wiring.refresh()


class MatrixRowPin(_MatrixPin):
    """A row line: every change re-evaluates the matrix."""

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed:
            self._refresh()
        return changed

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        self._refresh()


class MatrixColumnPin(_MatrixPin):
    """A column line: after its pull changes, the matrix may still pull it low."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self._refresh()


class MockMatrixWiring:
    """Mock pins on ``factory`` that behave like the diode matrix.

    ``rows`` and ``columns`` are the pins the driver will open (rank 1 and
    file a first).  A row is selected while it is an output at its active
    level (high unless ``row_active_low``); a column with a closed switch in
    a selected row is driven away from its pull (high when pulled down).  Change the switches with
    :meth:`set_occupancy` (or edit ``matrix.closed`` and call :meth:`refresh`).
    """

    def __init__(
        self,
        factory: Any,
        rows: Sequence[int | str],
        columns: Sequence[int | str],
        matrix: DiodeMatrix | None = None,
        *,
        row_active_low: bool = False,
    ) -> None:
        self.matrix = matrix if matrix is not None else DiodeMatrix()
        self.row_active_low = row_active_low
        self.rows: list[Any] = []
        self.columns: list[Any] = []
        rows_pins = [factory.pin(p, pin_class=MatrixRowPin, wiring=None) for p in rows]
        column_pins = [factory.pin(p, pin_class=MatrixColumnPin, wiring=None) for p in columns]
        for pin in rows_pins + column_pins:
            pin.wiring = self
        self.rows, self.columns = rows_pins, column_pins
        self.refresh()

    def set_occupancy(self, bits: int) -> None:
        self.matrix.closed = bits
        self.refresh()

    def selected_rows(self) -> list[int]:
        active = not self.row_active_low
        return [
            r
            for r, pin in enumerate(self.rows)
            if pin.function == "output" and bool(pin.state) == active
        ]

    def refresh(self) -> None:
        """Drive every column pin from the model and the row levels."""
        if len(self.columns) == 0:
            return
        pulled = self.matrix.pulled_columns(self.selected_rows())
        for c, pin in enumerate(self.columns):
            if pin.function != "input":
                continue
            if pulled >> c & 1:
                # A closed switch pulls the column away from its pull resistor.
                if pin.pull == "down":
                    pin.drive_high()
                else:
                    pin.drive_low()
            elif pin.pull == "up":
                pin.drive_high()
            elif pin.pull == "down":
                pin.drive_low()


class ChainLoadPin(MockPin):  # type: ignore[misc]
    """The chain's SH/LD line: going low latches the inputs."""

    def __init__(self, factory: Any, info: Any, chain: Mock74HC165Chain | None = None) -> None:
        super().__init__(factory, info)
        self.chain = chain

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        chain = getattr(self, "chain", None)
        if changed and not value and chain is not None:
            chain.latch()
        return changed


class Mock74HC165Chain(MockSPIDevice):  # type: ignore[misc]
    """Ten 74HC165 in a chain on mock SPI pins, reading ``occupancy`` (or as
    many as ``squares`` needs: sixteen for the hex board's 121 cells).

    Wired as in :mod:`boardctl.hw.shiftreg`: SH/LD on ``load_pin``, the
    select line to CLK INH (the chain shifts only while selected), the chain's
    first bit out is j8 and its last a1.  ``latches`` counts load pulses, so a
    test can tell that the driver latched before reading.
    """

    def __init__(
        self,
        clock_pin: int | str,
        mosi_pin: int | str,
        miso_pin: int | str,
        select_pin: int | str,
        load_pin: int | str,
        *,
        occupancy: int = 0,
        active_low: bool = True,
        pin_factory: Any,
        squares: int = SQUARES,
    ) -> None:
        super().__init__(clock_pin, mosi_pin, miso_pin, select_pin, pin_factory=pin_factory)
        self.occupancy = occupancy
        self.squares = squares
        self.active_low = active_low
        self.latches = 0
        self.load_pin = pin_factory.pin(load_pin, pin_class=ChainLoadPin, chain=None)
        self.load_pin.chain = self

    @classmethod
    def from_pinout(
        cls, pins: ShiftRegPins, *, pin_factory: Any, **kwargs: Any
    ) -> Mock74HC165Chain:
        """The chain on a pinout's pins (as the driver's ``from_pinout`` opens
        them); ``kwargs`` as for the constructor."""
        return cls(
            pins.spi.clock,
            pins.spi.mosi,
            pins.miso,
            pins.spi.select,
            pins.load,
            pin_factory=pin_factory,
            **kwargs,
        )

    def latch(self) -> None:
        """SH/LD low: the parallel inputs go into the registers."""
        self.latches += 1
        self.tx_buf: list[int] = []
        for byte in occupancy_to_bytes(
            self.occupancy, active_low=self.active_low, squares=self.squares
        ):
            self.tx_word(byte, 8)

    def on_start(self) -> None:
        # Selecting only enables the clock; the registers keep what SH/LD latched.
        self.rx_bit = 0
        self.rx_buf: list[int] = []
