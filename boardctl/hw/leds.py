"""WS2812B / SK6812 LEDs over SPI: geometry, encoding, the driver.

The LEDs are a chain: 80 under the squares, or 99 on a 9 × 11 grid at the
square corners.  :class:`LedMap` places each LED (wiring order from the
pinout: lines along ranks or files, rows or serpentine, the first LED at one
corner), :class:`LedEncoder` turns a frame — square → colour — into the bytes
for the SPI bus, and :class:`SpiLeds` writes them.  The simulator's
:class:`~boardctl.hw.sim.SimLeds` uses the same encoder.

Encoding: the SPI bus runs at 6.4 MHz and each LED bit becomes one SPI
byte, ``0xC0`` for 0 (0.31 µs high) and ``0xF0`` for 1 (0.63 µs high); each
LED takes 24 bits in GRB order, most significant bit first.  A reset gap of
zero bytes (300 µs: enough for WS2812B-V5, which wants 280 µs) goes before
the frame (in case the line idled high) and after it (to latch).  An 80-LED
frame is 2 400 bytes, a 99-LED frame 2 856: both fit one spidev transfer
(``bufsiz`` 4 096), so the frame goes out without gaps.  This works without
root and on a Pi 5; on a Pi 3/4 the SPI clock follows the core clock, so pin
it (``core_freq=250`` on a Pi 3, ``core_freq_min=500`` on a Pi 4).

Brightness: colours are scaled by the configured brightness, clamped to the
pinout's ``brightness_cap``; then a frame whose estimated current (each
channel at full drive ≈ ``ma_per_channel``) exceeds ``max_current_ma`` is
dimmed as a whole to fit.  80 LEDs at full white would draw about 4.8 A.

Corner grid: a lit square lights its four corner LEDs.  Where two lit
squares share a corner, the corner shows the per-channel maximum of their
colours (red beside green gives a yellow corner; two squares of one colour
keep it), so neither square loses a corner and no channel exceeds the
brightest colour asked for.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..colour import Colour
from .base import OFF
from .errors import HardwareError
from .ledframe import dimmed, led_colours
from .pins import FILES, LedLayout, Pinout

if TYPE_CHECKING:
    from .hexpins import HexPinout

BIT0 = 0xC0
BIT1 = 0xF0
SPI_HZ = 6_400_000
RESET_US = 300


def reset_bytes(speed_hz: int = SPI_HZ, reset_us: float = RESET_US) -> int:
    """Zero bytes for a reset gap of ``reset_us`` at ``speed_hz``."""
    return math.ceil(reset_us * 1e-6 * speed_hz / 8)


RESET_BYTES = reset_bytes()  # 240 at 6.4 MHz
_HEX_COLOUR = re.compile(r"[0-9a-fA-F]{6}")

# The 8 SPI bytes for each value of one colour channel.
_BYTES: tuple[bytes, ...] = tuple(
    bytes(BIT1 if value & (0x80 >> bit) else BIT0 for bit in range(8)) for value in range(256)
)


def encode_pixels(
    pixels: Sequence[Colour], colour_order: str = "GRB", reset: int = RESET_BYTES
) -> bytes:
    """SPI bytes for LED colours in chain order (already scaled)."""
    channel = {"R": 0, "G": 1, "B": 2}
    order = [channel[c] for c in colour_order]
    out = bytearray(reset)
    for pixel in pixels:
        for c in order:
            out += _BYTES[pixel[c]]
    out += bytes(reset)
    return bytes(out)


def parse_colour(value: str | Sequence[int]) -> Colour:
    """``"#ff8000"``, ``"ff8000"`` or ``[255, 128, 0]`` as a colour.

    :raises ValueError: naming the bad value.
    """
    if isinstance(value, str):
        text = value.removeprefix("#")
        # int(_, 16) alone would take " f", "+f" and "f_f" as well.
        if _HEX_COLOUR.fullmatch(text) is None:
            raise ValueError(f"colour {value!r}: expected #rrggbb")
        return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))
    if len(value) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in value):
        raise ValueError(f"colour {value!r}: expected three integers 0–255")
    return (value[0], value[1], value[2])


class LedMap:
    """Where each LED of the chain lies.

    Grid points are (x, y) with x along the ranks (file a = 0) and y along the
    files (rank 1 = 0): a square's own LED for 80 LEDs, the corners of squares
    for the 9 × 11 grid (square a1's outer corner is (0, 0)).  A chain listed
    cell by cell (``layout.chain``, the hex board) has the point (cell, 0).
    """

    def __init__(self, layout: LedLayout) -> None:
        self.layout = layout
        self.cells = layout.cells
        if layout.chain:  # listed cell by cell: point (cell, 0)
            self._index = [0] * len(layout.chain)
            for i, cell in enumerate(layout.chain):
                self._index[cell] = i
            return
        width, height = layout.width, layout.height
        line = width if layout.along == "ranks" else height
        self._index = [0] * (width * height)
        for i in range(width * height):
            number, k = divmod(i, line)
            if layout.order == "serpentine" and number % 2:
                k = line - 1 - k
            x, y = (k, number) if layout.along == "ranks" else (number, k)
            if layout.first in ("j1", "j8"):
                x = width - 1 - x
            if layout.first in ("a8", "j8"):
                y = height - 1 - y
            self._index[x + y * width] = i

    def index(self, x: int, y: int) -> int:
        """The chain position of the LED at grid point (x, y)."""
        return self._index[x + y * self.layout.width]

    def points(self, square: int) -> tuple[tuple[int, int], ...]:
        """The grid points a square lights: its LED, or its four corners."""
        if self.layout.chain:
            return ((square, 0),)
        rank, file = divmod(square, FILES)
        if not self.layout.corner_grid:
            return ((file, rank),)
        return ((file, rank), (file + 1, rank), (file, rank + 1), (file + 1, rank + 1))


class LedEncoder:
    """Frames (square → colour) to LED colours in chain order, and to SPI bytes.

    ``brightness`` (0–1) is clamped to the layout's ``brightness_cap``.
    """

    def __init__(
        self, layout: LedLayout, *, brightness: float = 0.3, reset: int = RESET_BYTES
    ) -> None:
        self.layout = layout
        self.map = LedMap(layout)
        self.reset = reset
        self._level = 0
        self.brightness = brightness

    @property
    def brightness(self) -> float:
        """The brightness in effect (after the cap)."""
        return self._level / 255

    @brightness.setter
    def brightness(self, value: float) -> None:
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"brightness {value} is outside 0–1")
        self._level = round(min(value, self.layout.brightness_cap) * 255)

    def _leds_of(self, square: int) -> list[int]:
        return [self.map.index(x, y) for x, y in self.map.points(square)]

    def pixels(self, colours: Mapping[int, Colour]) -> list[Colour]:
        """LED colours in chain order after brightness and the current limit.

        :raises LedFrameError: for a square outside 0–79 or a bad colour.
        """
        raw = led_colours(colours, self.map.cells, self.layout.count, self._leds_of)
        scaled = dimmed(raw, self._level)
        total = sum(sum(p) for p in scaled)
        limit = int(self.layout.max_current_ma * 255 / self.layout.ma_per_channel)
        if total > limit:
            scaled = [
                (r * limit // total, g * limit // total, b * limit // total) for r, g, b in scaled
            ]
        return scaled

    def current_ma(self, pixels: Sequence[Colour]) -> float:
        """Estimated LED current of a frame (colour channels only, no idle current)."""
        return sum(sum(p) for p in pixels) * self.layout.ma_per_channel / 255

    def encode(self, colours: Mapping[int, Colour]) -> bytes:
        """The SPI bytes for a frame."""
        return encode_pixels(self.pixels(colours), self.layout.colour_order, self.reset)


class SpiWriter(Protocol):
    """The one thing the LED driver needs from an SPI bus."""

    def write(self, data: bytes) -> None: ...

    def close(self) -> None: ...


class SpidevWriter:
    """An :class:`SpiWriter` on ``/dev/spidev<bus>.<device>`` (the ``spidev`` package).

    Enable SPI0 in ``/boot/firmware/config.txt`` (``dtoverlay=spi0-1cs,no_miso``
    for the matrix build, ``dtparam=spi=on`` for the shift-register build) and
    add the user to the ``spi`` group: no root needed.

    :raises HardwareError: if spidev is missing or the device cannot be opened.
    """

    BUFSIZ_PATH = Path("/sys/module/spidev/parameters/bufsiz")

    def __init__(self, bus: int = 0, device: int = 0, *, speed_hz: int = SPI_HZ) -> None:
        try:
            import spidev  # type: ignore[import-not-found, unused-ignore]
        except ImportError as exc:
            raise HardwareError("the spidev package is missing: install boardctl[pi]") from exc
        self._dev: Any = spidev.SpiDev()
        try:
            self._dev.open(bus, device)
            self._dev.max_speed_hz = speed_hz
            self._dev.mode = 0
        except OSError as exc:
            raise HardwareError(
                f"cannot open /dev/spidev{bus}.{device}: {exc} (is SPI enabled in config.txt?)"
            ) from exc
        try:
            self.bufsiz = int(self.BUFSIZ_PATH.read_text())
        except (OSError, ValueError):
            self.bufsiz = 4096

    def write(self, data: bytes) -> None:
        if len(data) > self.bufsiz:
            raise HardwareError(
                f"an LED frame is {len(data)} bytes but spidev sends at most {self.bufsiz} "
                f"in one transfer: add spidev.bufsiz={2 * self.bufsiz} to cmdline.txt"
            )
        try:
            self._dev.writebytes2(data)
        except OSError as exc:
            raise HardwareError(f"SPI write failed: {exc}") from exc

    def close(self) -> None:
        self._dev.close()


class SpiLeds:
    """WS2812B/SK6812 LEDs on an SPI bus: a :class:`~boardctl.hw.base.LedSink`.

    Wiring: SPI MOSI (GPIO10) → 74AHCT125 (powered at 5 V, OE grounded) →
    330 Ω → DIN of the first LED; LED 5 V and ground from their own supply,
    injected at both ends of the chain, grounds joined with the Pi's.

    Usage::

        leds = SpiLeds.open(default_pinout(), brightness=0.3)
        leds.show({sq: (0, 255, 0) for sq in legal_destinations})

    Tests pass any object with ``write(bytes)`` and ``close()`` as ``spi``.
    """

    def __init__(
        self,
        layout: LedLayout,
        *,
        spi: SpiWriter,
        brightness: float = 0.3,
        reset: int = RESET_BYTES,
    ) -> None:
        self.encoder = LedEncoder(layout, brightness=brightness, reset=reset)
        self.spi = spi
        self.pixels: list[Colour] = [OFF] * layout.count  # as last sent, chain order
        self._sent: tuple[dict[int, Colour], float] | None = None  # that frame, at that brightness
        self._data = b""  # and its bytes

    def set_brightness(self, brightness: float) -> None:
        """From the next frame on (clamped to the pinout's cap, as at start).

        :raises ValueError: outside 0–1.
        """
        self.encoder.brightness = brightness

    @classmethod
    def open(cls, pinout: Pinout | HexPinout, *, brightness: float = 0.3) -> SpiLeds:
        """The LEDs on the Pi build's SPI bus from the pinout.

        :raises HardwareError: if the SPI device cannot be opened.
        """
        pins = pinout.pi.leds
        writer = SpidevWriter(pins.bus, pins.device, speed_hz=pins.speed_hz)
        return cls(pinout.leds, spi=writer, brightness=brightness, reset=reset_bytes(pins.speed_hz))

    def show(self, colours: dict[int, Colour]) -> None:
        """Light exactly these squares.

        :raises LedFrameError: for a bad square or colour.
        :raises HardwareError: if the SPI write fails.
        """
        # The daemon shows a frame every turn of its loop, most often the last
        # one again: its bytes are sent again, not worked out again.
        frame = (dict(colours), self.encoder.brightness)
        if frame == self._sent:
            pixels, data = self.pixels, self._data
        else:
            pixels = self.encoder.pixels(colours)
            data = encode_pixels(pixels, self.encoder.layout.colour_order, self.encoder.reset)
        try:
            self.spi.write(data)
        except HardwareError:
            raise
        except OSError as exc:
            raise HardwareError(f"SPI write failed: {exc}") from exc
        self.pixels, self._sent, self._data = pixels, frame, data

    def close(self) -> None:
        """Turn every LED off and release the bus."""
        try:
            self.spi.write(self.encoder.encode({}))
            self.pixels, self._sent = [OFF] * self.encoder.layout.count, None
        finally:
            self.spi.close()
