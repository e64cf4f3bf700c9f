"""Ten 74HC165 shift registers read over SPI: 80 sensors on 4 GPIOs + 1.

For builds that save GPIOs (and the natural choice for Hall sensors, which
need no matrix then).  Wiring (``hardware/README.md``):

* every chip at 3.3 V; the sensors pull their input low (reed switch to
  ground, or an A3144's open collector) against a 10 kΩ pull-up to 3.3 V;
* SH/LD of all chips ← the ``load`` GPIO (low = latch the inputs);
* CLK of all chips ← SPI SCLK (GPIO11); CLK INH of all chips ← SPI CE1 (GPIO7),
  so the chain only shifts while it is selected and ignores the LED traffic
  that shares the bus (the Pico build ties CLK INH to ground instead);
* chip 0's QH → MISO (GPIO9); chip k's SER ← chip k+1's QH; chip 9's SER to ground.

The chain is one 80-bit register, read most significant bit first: the first
bit out (chip 0's input H) is j8, the last (chip 9's input A) is a1, so the
10 bytes read as a big-endian number have bit ``sq`` for square ``sq`` —
the Pico firmware reads the same sensor board the same way.  Chip k's
inputs H…A are squares 79 − 8k … 72 − 8k.

The SPI interface comes from gpiozero's ``pin_factory.spi(...)``: hardware
SPI (spidev) when the pins are SPI0's, bit-banged otherwise, and on a
``MockFactory`` a :class:`~boardctl.hw.mockpins.Mock74HC165Chain` answers.
"""

from __future__ import annotations

import contextlib
from typing import Any

from gpiozero import DigitalOutputDevice, GPIOZeroError  # type: ignore[import-untyped]

from . import gpio
from .errors import HardwareError
from .pins import SQUARES, ShiftRegPins
from .scan import DEBOUNCE_SCANS, HEARTBEAT_S, SCAN_HZ, ScanningSource


def chips_for(squares: int) -> int:
    """74HC165 (8 inputs each) for one input per square: 10 for 80, 16 for 121 cells."""
    return -(-squares // 8)


def bytes_to_occupancy(
    data: bytes | list[int], *, active_low: bool = True, squares: int = SQUARES
) -> int:
    """The snapshot from the chain's bytes (big-endian: bit sq = square sq).
    Inputs past the last square (the hex board's 7 of 128) are left out."""
    every = (1 << squares) - 1
    bits = int.from_bytes(bytes(data[: chips_for(squares)]), "big") & every
    return (every & ~bits) if active_low else bits


def occupancy_to_bytes(bits: int, *, active_low: bool = True, squares: int = SQUARES) -> bytes:
    """The inverse of :func:`bytes_to_occupancy` (what the chain sends for a
    board; unused inputs tied to 3.3 V read 1)."""
    inputs = chips_for(squares) * 8
    every = (1 << squares) - 1
    raw = ((1 << inputs) - 1) & ~(bits & every) if active_low else bits & every
    return raw.to_bytes(inputs // 8, "big")


class ShiftRegisterChain:
    """The chain as a :class:`~boardctl.hw.scan.RawScanner`.

    :raises HardwareError: if the pins or the SPI interface cannot be opened.
    """

    def __init__(
        self,
        *,
        clock: int | str = 11,
        mosi: int | str = 10,
        miso: int | str = 9,
        select: int | str = 7,
        load: int | str = 25,
        chips: int = 10,
        active_low: bool = True,
        speed_hz: int = 1_000_000,
        pin_factory: Any = None,
        squares: int = SQUARES,
    ) -> None:
        if chips != chips_for(squares):
            raise ValueError(
                f"{chips} chips read {chips * 8} inputs; the board has {squares} "
                f"squares, for {chips_for(squares)} chips"
            )
        self.squares = squares
        factory = gpio.resolve(pin_factory)
        gpio.ensure_default(factory)
        self.chips = chips
        self.active_low = active_low
        self._load: Any = None
        self._spi: Any = None
        try:
            # SH/LD is active low: on() latches the parallel inputs.
            self._load = DigitalOutputDevice(
                load, active_high=False, initial_value=False, pin_factory=factory
            )
            self._spi = factory.spi(
                clock_pin=clock, mosi_pin=mosi, miso_pin=miso, select_pin=select
            )
            self._spi.clock_mode = 0
            with contextlib.suppress(GPIOZeroError):  # bit-banged SPI has no rate
                self._spi.rate = speed_hz
        except GPIOZeroError as exc:
            self.close()
            raise HardwareError(f"cannot open the 74HC165 chain: {exc}") from exc

    def scan(self) -> int:
        try:
            self._load.on()
            self._load.off()
            data = self._spi.read(self.chips)
        except GPIOZeroError as exc:
            raise HardwareError(f"74HC165 chain: {exc}") from exc
        return bytes_to_occupancy(list(data), active_low=self.active_low, squares=self.squares)

    def close(self) -> None:
        if self._spi is not None:
            self._spi.close()
            self._spi = None
        if self._load is not None:
            self._load.close()
            self._load = None


class ShiftRegisterSensor(ScanningSource):
    """The 74HC165 chain as a :class:`~boardctl.hw.base.SensorSource`.

    Usage::

        board = ShiftRegisterSensor.from_pinout(default_pinout().pi.shiftreg)
        reading = board.read(time.monotonic())
    """

    def __init__(
        self,
        chain: ShiftRegisterChain,
        *,
        debounce: int = DEBOUNCE_SCANS,
        scan_hz: float = SCAN_HZ,
        heartbeat: float | None = HEARTBEAT_S,
    ) -> None:
        super().__init__(
            chain, debounce=debounce, scan_hz=scan_hz, heartbeat=heartbeat, squares=chain.squares
        )

    @classmethod
    def from_pinout(
        cls, pins: ShiftRegPins, *, pin_factory: Any = None, squares: int = SQUARES, **kwargs: Any
    ) -> ShiftRegisterSensor:
        """The chain on the pinout's pins for a board of ``squares`` (the hex
        board: 121 cells); ``kwargs`` as for the constructor."""
        chain = ShiftRegisterChain(
            clock=pins.spi.clock,
            mosi=pins.spi.mosi,
            miso=pins.miso,
            select=pins.spi.select,
            load=pins.load,
            chips=pins.chips,
            active_low=pins.active_low,
            speed_hz=pins.spi.speed_hz,
            pin_factory=pin_factory,
            squares=squares,
        )
        return cls(chain, **kwargs)
