"""LED geometry, encoding (the exact SPI bytes), brightness and the current cap."""

from __future__ import annotations

import itertools
import sys
import types
from dataclasses import replace
from typing import Any

import pytest

from boardctl.hw.errors import HardwareError, LedFrameError
from boardctl.hw.leds import (
    BIT0,
    BIT1,
    RESET_BYTES,
    LedEncoder,
    LedMap,
    SpidevWriter,
    SpiLeds,
    encode_pixels,
    parse_colour,
    reset_bytes,
)
from boardctl.hw.pins import LedLayout

from .helpers import sq

ZERO = bytes([BIT0] * 8)
ONE = bytes([BIT1] * 8)
ROWS = LedLayout(
    count=80, order="rows", along="ranks", first="a1", brightness_cap=1.0, max_current_ma=20_000
)
SERPENTINE = replace(ROWS, order="serpentine")
CORNERS = replace(ROWS, count=99)


class FakeSpi:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True


def test_one_bit_is_one_byte() -> None:
    assert (BIT0, BIT1) == (0xC0, 0xF0)
    assert RESET_BYTES == reset_bytes(6_400_000, 300) == 240


def test_encode_one_pixel_grb_msb_first() -> None:
    # Red = (255, 0, 0) goes out as G=0, R=255, B=0.
    assert encode_pixels([(255, 0, 0)], reset=2) == b"\0\0" + ZERO + ONE + ZERO + b"\0\0"
    # 0xA5 = 1010 0101 in green, most significant bit first.
    a5 = bytes([BIT1, BIT0, BIT1, BIT0, BIT0, BIT1, BIT0, BIT1])
    assert encode_pixels([(0, 0xA5, 1)], reset=0) == a5 + ZERO + ZERO[:7] + bytes([BIT1])
    assert encode_pixels([(255, 0, 0)], "RGB", reset=0) == ONE + ZERO + ZERO


def test_a_frame_is_reset_leds_reset() -> None:
    encoder = LedEncoder(ROWS, brightness=1.0)
    data = encoder.encode({})
    assert len(data) == 240 + 80 * 24 + 240 == 2400
    assert data[:240] == data[-240:] == bytes(240)
    assert data[240:-240] == ZERO * 240


def test_exact_bytes_for_a_frame() -> None:
    spi = FakeSpi()
    leds = SpiLeds(ROWS, spi=spi, brightness=1.0, reset=1)
    leds.show({sq("a1"): (0, 0, 255), sq("c1"): (16, 32, 64)})
    (data,) = spi.writes
    led = [data[1 + 24 * i : 1 + 24 * (i + 1)] for i in range(80)]
    assert led[0] == ZERO + ZERO + ONE  # a1: blue
    assert led[1] == ZERO * 3  # b1: off
    bits = [BIT1 if v >> (7 - b) & 1 else BIT0 for v in (32, 16, 64) for b in range(8)]
    assert led[2] == bytes(bits)  # c1: G=32 R=16 B=64
    assert all(chunk == ZERO * 3 for chunk in led[3:])
    assert data[0] == data[-1] == 0
    assert len(data) == 1 + 80 * 24 + 1


def test_brightness_scales_every_channel() -> None:
    encoder = LedEncoder(replace(ROWS, brightness_cap=1.0), brightness=0.5)
    assert encoder.brightness == 128 / 255
    pixels = encoder.pixels({0: (255, 100, 1)})
    assert pixels[0] == (128, 50, 1)  # (c * 128 + 127) // 255
    assert pixels[1:] == [(0, 0, 0)] * 79


def test_brightness_is_capped_by_the_pinout() -> None:
    encoder = LedEncoder(replace(ROWS, brightness_cap=0.25), brightness=1.0)
    assert encoder.brightness == 64 / 255
    assert encoder.pixels({0: (255, 255, 255)})[0] == (64, 64, 64)
    encoder.brightness = 0.1
    assert encoder.pixels({0: (255, 255, 255)})[0] == (26, 26, 26)
    with pytest.raises(ValueError):
        encoder.brightness = 1.5


def test_a_full_white_board_is_dimmed_to_the_current_budget() -> None:
    layout = replace(ROWS, brightness_cap=1.0, max_current_ma=2500, ma_per_channel=20.0)
    encoder = LedEncoder(layout, brightness=1.0)
    white = {square: (255, 255, 255) for square in range(80)}
    assert encoder.current_ma([(255, 255, 255)] * 80) == 4800  # 80 × 60 mA
    pixels = encoder.pixels(white)
    assert 2400 < encoder.current_ma(pixels) <= 2500
    assert len(set(pixels)) == 1 and pixels[0][0] == pixels[0][1] == pixels[0][2]
    # A frame within the budget is left alone.
    assert encoder.pixels({0: (255, 255, 255)})[0] == (255, 255, 255)


def test_row_order_from_a1() -> None:
    m = LedMap(ROWS)
    assert [m.index(x, 0) for x in range(10)] == list(range(10))
    assert [m.index(x, 1) for x in range(10)] == list(range(10, 20))
    assert m.index(9, 7) == 79


def test_serpentine_order_from_a1() -> None:
    m = LedMap(SERPENTINE)
    assert [m.index(x, 0) for x in range(10)] == list(range(10))
    assert [m.index(x, 1) for x in range(10)] == list(range(19, 9, -1))
    assert m.index(0, 7) == 79 and m.index(9, 7) == 70


@pytest.mark.parametrize(
    ("first", "along", "order", "expected_first_four"),
    [
        ("j1", "ranks", "serpentine", [(9, 0), (8, 0), (7, 0), (6, 0)]),
        ("a8", "ranks", "rows", [(0, 7), (1, 7), (2, 7), (3, 7)]),
        ("j8", "ranks", "rows", [(9, 7), (8, 7), (7, 7), (6, 7)]),
        ("a1", "files", "serpentine", [(0, 0), (0, 1), (0, 2), (0, 3)]),
    ],
)
def test_first_corner_and_direction(
    first: str, along: str, order: str, expected_first_four: list[tuple[int, int]]
) -> None:
    m = LedMap(replace(ROWS, first=first, along=along, order=order))
    where = {m.index(x, y): (x, y) for x in range(10) for y in range(8)}
    assert [where[i] for i in range(4)] == expected_first_four


def test_serpentine_along_files_turns_at_the_end_of_a_file() -> None:
    m = LedMap(replace(ROWS, along="files"))
    assert m.index(0, 7) == 7
    m = LedMap(replace(SERPENTINE, along="files"))
    assert (m.index(0, 7), m.index(1, 7), m.index(1, 0)) == (7, 8, 15)


@pytest.mark.parametrize(
    ("count", "first", "along", "order"),
    list(
        itertools.product(
            (80, 99), ("a1", "j1", "a8", "j8"), ("ranks", "files"), ("rows", "serpentine")
        )
    ),
)
def test_every_layout_is_a_permutation(count: int, first: str, along: str, order: str) -> None:
    layout = replace(ROWS, count=count, first=first, along=along, order=order)
    m = LedMap(layout)
    indices = [m.index(x, y) for x in range(layout.width) for y in range(layout.height)]
    assert sorted(indices) == list(range(count))
    # In a chain, consecutive LEDs are neighbours except where a "rows" line jumps back.
    where = {
        i: (x, y)
        for x in range(layout.width)
        for y in range(layout.height)
        for i in [m.index(x, y)]
    }
    steps = [
        abs(where[i][0] - where[i + 1][0]) + abs(where[i][1] - where[i + 1][1])
        for i in range(count - 1)
    ]
    if order == "serpentine":
        assert set(steps) == {1}


def test_a_square_lights_its_four_corners() -> None:
    encoder = LedEncoder(CORNERS, brightness=1.0)
    m = encoder.map
    assert m.points(sq("a1")) == ((0, 0), (1, 0), (0, 1), (1, 1))
    assert m.points(sq("j8")) == ((9, 7), (10, 7), (9, 8), (10, 8))
    pixels = encoder.pixels({sq("e4"): (0, 255, 0)})
    lit = {i for i, p in enumerate(pixels) if p != (0, 0, 0)}
    assert lit == {m.index(4, 3), m.index(5, 3), m.index(4, 4), m.index(5, 4)}
    assert len(pixels) == 99


def test_shared_corners_take_the_per_channel_maximum() -> None:
    encoder = LedEncoder(CORNERS, brightness=1.0)
    m = encoder.map
    # a1 red and b1 green share the corners (1, 0) and (1, 1): they turn yellow.
    pixels = encoder.pixels({sq("a1"): (200, 0, 0), sq("b1"): (0, 100, 0)})
    assert pixels[m.index(0, 0)] == (200, 0, 0)
    assert pixels[m.index(1, 0)] == pixels[m.index(1, 1)] == (200, 100, 0)
    assert pixels[m.index(2, 0)] == (0, 100, 0)
    # Diagonal neighbours share one corner; the same colour stays itself.
    pixels = encoder.pixels({sq("a1"): (9, 9, 9), sq("b2"): (9, 9, 9)})
    assert pixels[m.index(1, 1)] == (9, 9, 9)


def test_a_corner_frame_is_99_leds_of_bytes() -> None:
    assert len(LedEncoder(CORNERS).encode({})) == 240 + 99 * 24 + 240


@pytest.mark.parametrize(
    "frame", [{80: (1, 2, 3)}, {-1: (1, 2, 3)}, {0: (256, 0, 0)}, {0: (1, 2)}, {0: (-1, 0, 0)}]
)
def test_bad_frames_are_refused(frame: dict[int, Any]) -> None:
    leds = SpiLeds(ROWS, spi=FakeSpi())
    with pytest.raises(LedFrameError):
        leds.show(frame)


def test_close_turns_the_leds_off_and_releases_the_bus() -> None:
    spi = FakeSpi()
    leds = SpiLeds(ROWS, spi=spi, brightness=1.0)
    leds.show({0: (255, 255, 255)})
    assert leds.pixels[0] == (255, 255, 255)
    leds.close()
    assert spi.writes[-1] == LedEncoder(ROWS).encode({})
    assert spi.closed
    assert leds.pixels[0] == (0, 0, 0)


def test_every_show_sends_the_bytes_of_its_frame_at_the_brightness_then() -> None:
    # show() keeps the last frame's bytes for the frame shown again: a frame
    # changed in place, or the same one at another brightness, is worked out anew.
    spi = FakeSpi()
    leds = SpiLeds(ROWS, spi=spi)
    frame = {0: (255, 0, 0), 9: (0, 255, 0)}

    def shown(brightness: float, colours: dict[int, tuple[int, int, int]]) -> None:
        leds.set_brightness(brightness)
        leds.show(colours)
        encoder = LedEncoder(ROWS, brightness=brightness)
        assert spi.writes[-1] == encoder.encode(colours)
        assert leds.pixels == encoder.pixels(colours)

    shown(0.5, frame)
    shown(0.5, dict(frame))
    shown(1.0, frame)
    frame[9] = (0, 0, 255)
    shown(1.0, frame)
    shown(1.0, {})
    shown(0.2, {})
    assert len(spi.writes) == 6  # each one sent, the same or not


def test_a_failing_write_is_a_hardware_error() -> None:
    class Broken(FakeSpi):
        def write(self, data: bytes) -> None:
            raise OSError(5, "Input/output error")

    with pytest.raises(HardwareError, match="SPI write failed"):
        SpiLeds(ROWS, spi=Broken()).show({})


def test_colours_parse() -> None:
    assert parse_colour("#ff8000") == (255, 128, 0)
    assert parse_colour("00ff10") == (0, 255, 16)
    assert parse_colour([1, 2, 3]) == (1, 2, 3)
    # int(_, 16) alone would take the signs, spaces and underscores.
    for bad in (
        "#ff80",
        "#gg0000",
        [1, 2],
        [1, 2, 300],
        "#+f0000",
        "# f0000",
        "#f_0000",
        "#ff００00",
    ):
        with pytest.raises(ValueError, match="colour"):
            parse_colour(bad)


class FakeSpiDev:
    def __init__(self) -> None:
        self.opened: list[tuple[int, int]] = []
        self.max_speed_hz = 0
        self.mode = -1
        self.written: list[bytes] = []

    def open(self, bus: int, device: int) -> None:
        self.opened.append((bus, device))

    def writebytes2(self, data: bytes) -> None:
        self.written.append(bytes(data))

    def close(self) -> None:
        pass


def test_spidev_writer_configures_the_bus(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("spidev")
    module.SpiDev = FakeSpiDev  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "spidev", module)
    writer = SpidevWriter(0, 0, speed_hz=6_400_000)
    dev = writer._dev
    assert (dev.max_speed_hz, dev.mode, dev.opened) == (6_400_000, 0, [(0, 0)])
    writer.write(b"\xc0" * 10)
    assert dev.written == [b"\xc0" * 10]
    writer.bufsiz = 8
    with pytest.raises(HardwareError, match=r"spidev.bufsiz=16"):
        writer.write(b"\xc0" * 10)


def test_spidev_writer_without_spidev(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spidev", None)
    with pytest.raises(HardwareError, match=r"boardctl\[pi\]"):
        SpidevWriter()
