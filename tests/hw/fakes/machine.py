"""A fake of MicroPython's ``machine`` module, wired to a simulated board.

Only what ``firmware/hal.py`` uses.  The test sets ``board`` to a
:class:`FakeBoard` before building anything; pins, SPI and ``mem32`` read
and drive it.  A fresh copy of this module is loaded for every test.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SIO_GPIO_IN = 0xD0000004


class FakeReset(Exception):
    """``machine.reset()`` was called."""


@dataclass
class FakeBoard:
    """Pins and sensors.  ``closed`` is the set of squares whose sensor is
    closed (a piece on it), square = rank * files + file.

    Matrix: rank pins driven high select a rank; a file pin reads high when
    a selected rank's square on that file is closed (the diodes stop
    everything else).  Shift registers: a low pulse on ``load_pin`` latches
    the sensors; SPI then clocks out the files × ranks bit chain (80 bits, j8
    first), reading 0 for a closed sensor (``active_low``) and for an unused
    input tied to 3.3 V 1.
    """

    files: int = 10
    ranks: int = 8
    rank_pins: tuple[int, ...] = ()
    file_pins: tuple[int, ...] = ()
    load_pin: int | None = None
    active_low: bool = True
    closed: set[int] = field(default_factory=set)
    # A matrix whose crossings are not rank * files + file (the hex board):
    # the square at row * len(file_pins) + column, -1 for none.
    cell_at: tuple[int, ...] = ()
    pins: dict[object, Pin] = field(default_factory=dict)
    latched: int | None = None
    loads: int = 0

    def level(self, pin: Pin) -> int:
        if pin.mode == Pin.OUT:
            return pin.out
        if pin.id in self.file_pins:
            f = self.file_pins.index(pin.id)
            selected = [r for r, p in enumerate(self.rank_pins) if self._driven(p)]
            if len(selected) > 1:
                raise AssertionError(f"ranks {selected} driven at once: ghost readings")
            width = len(self.file_pins)
            if any(
                (self.cell_at[r * width + f] if self.cell_at else r * self.files + f) in self.closed
                for r in selected
            ):
                return 1
        return 1 if pin.pull == Pin.PULL_UP else 0

    def _driven(self, pin_id: int) -> bool:
        pin = self.pins.get(pin_id)
        return pin is not None and pin.mode == Pin.OUT and pin.out == 1

    def gpio_in(self) -> int:
        """The SIO GPIO_IN register: bit n = level of GPn."""
        word = 0
        for pin_id, pin in self.pins.items():
            if isinstance(pin_id, int) and self.level(pin):
                word |= 1 << pin_id
        return word

    def output_changed(self, pin: Pin, old: int) -> None:
        if pin.id == self.load_pin and old == 1 and pin.out == 0:
            squares = self.files * self.ranks
            value = sum(1 << sq for sq in self.closed)
            self.latched = value ^ ((1 << squares) - 1) if self.active_low else value
            self.loads += 1

    def clock_out(self, buf: bytearray) -> None:
        if self.latched is None:
            raise AssertionError("SPI read without a load pulse first")
        buf[:] = self.latched.to_bytes(len(buf), "big")
        self.latched = None


board = FakeBoard()


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(
        self, id: object, mode: int = -1, pull: int = -1, *, value: int | None = None
    ) -> None:
        self.id = id
        self.mode = mode
        self.pull = pull
        self.out = value or 0
        board.pins[id] = self

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return board.level(self)
        old = self.out
        self.out = 1 if v else 0
        board.output_changed(self, old)
        return None

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)


class SPI:
    """MicroPython's signature, so that a keyword the chip would refuse fails
    here too; the settings themselves change nothing in the fake, and it keeps
    none of them."""

    MSB = 0
    LSB = 1

    def __init__(
        self,
        id: int,
        baudrate: int = 1000000,
        *,
        polarity: int = 0,
        phase: int = 0,
        bits: int = 8,
        firstbit: int = 0,
        sck: Pin | None = None,
        mosi: Pin | None = None,
        miso: Pin | None = None,
    ) -> None:
        self.id = id

    def readinto(self, buf: bytearray, write: int = 0) -> None:
        board.clock_out(buf)


WATCHDOG_CTRL_CLEAR = 0x40058000 + 0x3000  # the atomic-clear alias of CTRL
WATCHDOG_ENABLE = 1 << 30
WATCHDOG_SCRATCH = tuple(0x4005800C + 4 * i for i in range(8))
PWRON_RESET = 1
WDT_RESET = 3


@dataclass
class FakeWatchdog:
    """The chip's watchdog: running or not, its timeout, how often it was
    fed, the scratch registers (which outlive every reset but power-on), and
    the cause of the last reset as ``reset_cause()`` reports it."""

    timeout_ms: int | None = None
    running: bool = False
    feeds: int = 0
    scratch: list[int] = field(default_factory=lambda: [0] * 8)
    cause: int = PWRON_RESET

    def expire(self) -> None:
        """The chip resets because nobody fed the watchdog in time."""
        if not self.running:
            raise AssertionError("the watchdog is not running")
        self.running = False
        self.cause = WDT_RESET


watchdog = FakeWatchdog()


class _Mem32:
    def __getitem__(self, address: int) -> int:
        if address in WATCHDOG_SCRATCH:
            return watchdog.scratch[WATCHDOG_SCRATCH.index(address)]
        if address != SIO_GPIO_IN:
            raise AssertionError(f"unexpected mem32 read at {address:#x}")
        return board.gpio_in()

    def __setitem__(self, address: int, value: int) -> None:
        if address in WATCHDOG_SCRATCH:
            watchdog.scratch[WATCHDOG_SCRATCH.index(address)] = value & 0xFFFFFFFF
        elif address == WATCHDOG_CTRL_CLEAR and value == WATCHDOG_ENABLE:
            watchdog.running = False
        else:
            raise AssertionError(f"unexpected mem32 write of {value:#x} at {address:#x}")


mem32 = _Mem32()


class WDT:
    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        if timeout > 8388:
            raise ValueError("timeout exceeds 8388")
        watchdog.timeout_ms = timeout
        watchdog.running = True

    def feed(self) -> None:
        watchdog.feeds += 1


def reset_cause() -> int:
    return watchdog.cause


def unique_id() -> bytes:
    return bytes.fromhex("E6614C311B4F7E2A")


def reset() -> None:
    watchdog.cause = WDT_RESET  # the RP2040 resets through its watchdog
    raise FakeReset
