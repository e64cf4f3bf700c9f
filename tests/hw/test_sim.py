"""The simulated board, LEDs and buttons; and one contract run against the
simulator and the real drivers on mock pins."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from boardctl.hw.base import Press, Reading
from boardctl.hw.leds import LedEncoder, SpiLeds
from boardctl.hw.matrix import GpioMatrix
from boardctl.hw.mockpins import Mock74HC165Chain, MockMatrixWiring
from boardctl.hw.pins import Pinout, default_pinout
from boardctl.hw.scan import ScanningSource
from boardctl.hw.shiftreg import ShiftRegisterSensor
from boardctl.hw.sim import DiodeMatrix, RecordingSpi, SimBoard, SimButtons, SimLeds

from .helpers import START, bits, sq


def settle(board: ScanningSource, start: float, scans: int = 3) -> list[Reading | None]:
    return [board.read(start + i / 100) for i in range(scans)]


def test_the_start_position_is_read_after_debouncing() -> None:
    board = SimBoard([s for s in range(80) if START >> s & 1], heartbeat=None)
    assert settle(board, 0.0) == [None, None, Reading(START, 0.02)]
    assert board.occupancy == START
    assert sq("e2") in board.occupied


def test_lift_and_place_a_pawn() -> None:
    board = SimBoard([sq("e2")], heartbeat=None)
    settle(board, 0.0)
    board.lift(sq("e2"))
    assert settle(board, 0.03) == [None, None, Reading(0, 0.05)]
    board.place(sq("e4"))
    assert settle(board, 0.06) == [None, None, Reading(bits("e4"), 0.08)]


def test_a_quick_touch_is_filtered() -> None:
    board = SimBoard([sq("e2")], heartbeat=None)
    settle(board, 0.0)
    board.lift(sq("e2"))
    assert board.read(0.03) is None
    board.place(sq("e2"))
    assert settle(board, 0.04, 5) == [None] * 5
    assert board.stable == bits("e2")


def test_a_flickering_square_is_filtered() -> None:
    board = SimBoard([sq("e2")], heartbeat=None)
    settle(board, 0.0)
    board.flicker(sq("e3"), scans=2)
    assert settle(board, 0.03, 5) == [None] * 5
    board.flicker(sq("e3"), scans=3)
    assert settle(board, 0.08, 4)[2] == Reading(bits("e2", "e3"), 0.10)


def test_a_disconnected_board_is_unhealthy() -> None:
    board = SimBoard([sq("a1")], heartbeat=0.5)
    settle(board, 0.0)
    board.disconnect("cable unplugged")
    assert board.read(0.5) is None
    assert not board.healthy and board.last_error == "cable unplugged"
    board.reconnect()
    assert board.read(0.6) == Reading(bits("a1"), 0.6)
    assert board.healthy


def test_lifting_nothing_is_a_mistake() -> None:
    board = SimBoard()
    with pytest.raises(ValueError, match="no piece"):
        board.lift(sq("e2"))
    board.place(sq("e2"))
    with pytest.raises(ValueError, match="already occupied"):
        board.place(sq("e2"))
    with pytest.raises(ValueError, match="no square"):
        board.place(80)
    board.toggle(sq("e2"))
    assert board.occupancy == 0


def test_the_simulator_board_takes_any_preset_size() -> None:
    # 10 × 10 (falcon-10x10): j10 is square 99, scanned as the tenth row.
    board = SimBoard([0, 99], files=10, ranks=10, heartbeat=None)
    assert settle(board, 0.0)[-1] == Reading(1 | 1 << 99, 0.02)
    board.lift(99)
    board.place(90)  # a10
    assert settle(board, 0.03)[-1] == Reading(1 | 1 << 90, 0.05)
    with pytest.raises(ValueError, match="no square"):
        board.place(100)
    # 9 × 10 (falcon-9x10): 90 squares, and a flicker past j9 is refused too.
    board = SimBoard([89], files=10, ranks=9, heartbeat=None)
    assert board.occupied == frozenset({89})
    with pytest.raises(ValueError, match="no square"):
        board.flicker(90)
    # A model without diodes keeps its ghosts on the larger board.
    board = SimBoard([90, 91, 80], files=10, ranks=10, diodes=False, debounce=1)
    assert board.read(0.0) == Reading(1 << 90 | 1 << 91 | 1 << 80 | 1 << 81, 0.0)


def test_a_matrix_without_diodes_shows_ghosts() -> None:
    board = SimBoard([sq("a1"), sq("b1"), sq("a2")], diodes=False, debounce=1)
    assert board.read(0.0) == Reading(bits("a1", "b1", "a2", "b2"), 0.0)


def test_the_model_without_diodes_follows_paths() -> None:
    m = DiodeMatrix(bits("a1", "a3", "c3", "c5", "h5"), diodes=False)
    assert m.pulled_columns([0]) == 0b10000101  # a, c, h via a3–c3–c5–h5
    m.diodes = True
    assert m.pulled_columns([0]) == 0b1


def test_sim_leds_record_frames_and_the_exact_spi_bytes() -> None:
    layout = default_pinout().leds
    leds = SimLeds(layout, brightness=0.4)
    frame = {sq("e2"): (255, 255, 0), sq("e4"): (0, 255, 0)}
    leds.show(frame)
    spi = RecordingSpi()
    SpiLeds(layout, spi=spi, brightness=0.4).show(frame)
    assert leds.data == spi.writes[-1] == LedEncoder(layout, brightness=0.4).encode(frame)
    assert leds.last == frame and list(leds.frames) == [frame]
    level = round(min(0.4, layout.brightness_cap) * 255)
    expected = ((255 * level + 127) // 255, (255 * level + 127) // 255, 0)
    assert leds.colour_at(4, 1) == leds.pixels[leds.map.index(4, 1)] == expected
    leds.close()
    assert leds.data == LedEncoder(layout).encode({})
    assert leds.recorder.closed


def test_sim_leds_keep_a_bounded_history() -> None:
    leds = SimLeds(keep=3)
    for i in range(5):
        leds.show({i: (1, 1, 1)})
    assert [next(iter(f)) for f in leds.frames] == [2, 3, 4]
    assert len(leds.recorder.writes) == 3


def test_sim_buttons() -> None:
    buttons = SimButtons(["ok", "next"])
    buttons.press("next", 1.0)
    buttons.press("ok", 2.0)
    assert buttons.presses(1.5) == [Press("next", 1.0)]
    assert buttons.presses(2.0) == [Press("ok", 2.0)]
    with pytest.raises(ValueError, match="no button 'menu'"):
        buttons.press("menu", 3.0)


# One session at the board, run against every sensor source.

Setter = Callable[[int], None]


@pytest.fixture(params=["sim", "gpio-matrix", "74hc165"])
def source(
    request: pytest.FixtureRequest, factory: Any, pinout: Pinout
) -> Iterator[tuple[ScanningSource, Setter]]:
    kind = request.param
    options: dict[str, Any] = {"debounce": 3, "scan_hz": 100, "heartbeat": None}
    if kind == "sim":
        sim = SimBoard(**options)
        yield sim, sim.set_occupancy
    elif kind == "gpio-matrix":
        wiring = MockMatrixWiring(factory, pinout.pi.matrix.rows, pinout.pi.matrix.columns)
        matrix = GpioMatrix.from_pinout(pinout.pi.matrix, settle=0, pin_factory=factory, **options)
        yield matrix, wiring.set_occupancy
        matrix.close()
    else:
        pins = pinout.pi.shiftreg
        chain = Mock74HC165Chain.from_pinout(pins, pin_factory=factory)
        sensor = ShiftRegisterSensor.from_pinout(pins, pin_factory=factory, **options)

        def set_occupancy(bits: int) -> None:
            chain.occupancy = bits

        yield sensor, set_occupancy
        sensor.close()


def test_a_session_reads_the_same_on_every_source(source: tuple[ScanningSource, Setter]) -> None:
    board, set_occupancy = source
    now = 0.0
    seen: list[Reading] = []

    def scans(n: int) -> None:
        nonlocal now
        for _ in range(n):
            reading = board.read(now)
            if reading is not None:
                seen.append(reading)
            now = round(now + 0.01, 2)

    set_occupancy(START)
    scans(4)  # the set-up is read
    set_occupancy(START & ~bits("e2"))  # pawn on e2 picked up
    scans(1)
    set_occupancy(START)  # … touched down again for one scan
    scans(1)
    set_occupancy(START & ~bits("e2"))
    scans(4)
    set_occupancy(START & ~bits("e2") | bits("e4"))  # and put on e4
    scans(4)
    assert seen == [
        Reading(START, 0.02),
        Reading(START & ~bits("e2"), 0.08),
        Reading(START & ~bits("e2") | bits("e4"), 0.12),
    ]
    assert board.healthy
