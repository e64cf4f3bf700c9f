"""The GPIO diode matrix driver on gpiozero mock pins wired like the matrix."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardctl.hw.base import Reading
from boardctl.hw.errors import HardwareError
from boardctl.hw.matrix import GpioMatrix, GpioMatrixLines
from boardctl.hw.mockpins import MockMatrixWiring
from boardctl.hw.pins import Pinout
from boardctl.hw.sim import DiodeMatrix

from .helpers import CHECKER, FULL, START, bits, sq


def wire(
    factory: Any,
    pinout: Pinout,
    closed: int = 0,
    *,
    diodes: bool = True,
    row_active_low: bool | None = None,
) -> MockMatrixWiring:
    pins = pinout.pi.matrix
    if row_active_low is None:
        row_active_low = pins.row_active_low
    return MockMatrixWiring(
        factory,
        pins.rows,
        pins.columns,
        DiodeMatrix(closed, diodes=diodes),
        row_active_low=row_active_low,
    )


def open_matrix(factory: Any, pinout: Pinout, **kwargs: Any) -> GpioMatrix:
    kwargs.setdefault("settle", 0)
    return GpioMatrix.from_pinout(pinout.pi.matrix, pin_factory=factory, **kwargs)


def states(pin: Any) -> list[bool]:
    # Compare the whole history: MockPin.assert_states only checks a prefix.
    return [bool(s.state) for s in pin.states]


SEEDED = random.Random(1729)
RANDOM_BOARDS = [SEEDED.getrandbits(80) for _ in range(5)]


@pytest.mark.parametrize(
    "board",
    [0, FULL, START, CHECKER, FULL ^ CHECKER, *RANDOM_BOARDS],
    ids=["empty", "full", "start", "checker", "checker2", *[f"random{i}" for i in range(5)]],
)
def test_a_scan_reads_the_whole_board(factory: Any, pinout: Pinout, board: int) -> None:
    wire(factory, pinout, board)
    matrix = open_matrix(factory, pinout)
    assert matrix.scanner.scan() == board


def test_every_square_alone(factory: Any, pinout: Pinout) -> None:
    wiring = wire(factory, pinout)
    matrix = open_matrix(factory, pinout)
    for square in range(80):
        wiring.set_occupancy(1 << square)
        assert matrix.scanner.scan() == 1 << square, square


GHOST_CASES = [
    # Three corners of a rectangle closed: without diodes the fourth reads closed.
    (bits("a1", "b1", "a2"), bits("b2")),
    (bits("c3", "h3", "c6"), bits("h6")),
    # The start position without diodes: ranks 1, 2, 7 and 8 all closed, but no ghosts
    # appear because every row in a component is already full.
    (START, 0),
]


@pytest.mark.parametrize(("board", "ghosts"), GHOST_CASES)
def test_diodes_prevent_ghost_squares(
    factory: Any, pinout: Pinout, board: int, ghosts: int
) -> None:
    wiring = wire(factory, pinout, board)
    matrix = open_matrix(factory, pinout)
    assert matrix.scanner.scan() == board
    # The same driver on a matrix built without diodes sees the ghosts.
    wiring.matrix.diodes = False
    assert matrix.scanner.scan() == board | ghosts


def test_rows_go_high_one_at_a_time(factory: Any, pinout: Pinout) -> None:
    assert not pinout.pi.matrix.row_active_low and not pinout.pi.matrix.column_pull_up
    wiring = wire(factory, pinout, bits("e4"))
    matrix = open_matrix(factory, pinout)
    for pin in wiring.rows + wiring.columns:
        pin.clear_states()
    matrix.scanner.scan()
    # Every row idles low, is driven high once, and returns low.
    for pin in wiring.rows:
        assert pin.function == "output"
        assert states(pin) == [False, True, False]
    for pin in wiring.columns:
        assert pin.function == "input" and pin.pull == "down"
    # Column e went high (and back) once: while rank 4 was driven.
    assert states(wiring.columns[4]) == [False, True, False]
    assert all(states(pin) == [False] for i, pin in enumerate(wiring.columns) if i != 4)


def test_rows_start_idle(factory: Any, pinout: Pinout) -> None:
    wiring = wire(factory, pinout)
    open_matrix(factory, pinout)
    # A fresh mock pin floats low, which is already the idle level: no edge at all.
    assert all(states(pin) == [False] for pin in wiring.rows)


@pytest.mark.parametrize(
    ("row_active_low", "column_pull_up", "idle", "pull"),
    [
        (True, True, True, "up"),  # reed, diodes the other way round: rows driven low
        (False, True, False, "up"),  # Hall sensors with low-side MOSFETs on the rows
    ],
)
def test_other_polarities(
    factory: Any, pinout: Pinout, row_active_low: bool, column_pull_up: bool, idle: bool, pull: str
) -> None:
    wiring = wire(factory, pinout, START, row_active_low=row_active_low)
    matrix = GpioMatrix(
        pinout.pi.matrix.rows,
        pinout.pi.matrix.columns,
        row_active_low=row_active_low,
        column_pull_up=column_pull_up,
        settle=0,
        pin_factory=factory,
    )
    assert matrix.scanner.scan() == START
    assert all(pin.state == idle for pin in wiring.rows)
    assert all(pin.pull == pull for pin in wiring.columns)
    for pin in wiring.rows:
        pin.clear_states()
    matrix.scanner.scan()
    assert all(states(pin) == [idle, not idle, idle] for pin in wiring.rows)


def test_settle_waits_after_each_row(factory: Any, pinout: Pinout) -> None:
    wire(factory, pinout)
    waits: list[float] = []
    matrix = open_matrix(factory, pinout, settle=50e-6, sleep=waits.append)
    matrix.scanner.scan()
    assert waits == [50e-6] * 8


def test_reading_is_debounced(factory: Any, pinout: Pinout) -> None:
    wiring = wire(factory, pinout, START)
    matrix = open_matrix(factory, pinout, debounce=3, scan_hz=100, heartbeat=None)
    assert [matrix.read(t / 100) for t in range(3)] == [None, None, Reading(START, 0.02)]
    # e2 lifted: reported on the third scan that sees it.
    wiring.set_occupancy(START & ~bits("e2"))
    assert [matrix.read(t / 100) for t in range(3, 6)] == [
        None,
        None,
        Reading(START & ~bits("e2"), 0.05),
    ]


def test_a_bouncing_switch_is_not_reported(factory: Any, pinout: Pinout) -> None:
    wiring = wire(factory, pinout, START)
    matrix = open_matrix(factory, pinout, debounce=3, scan_hz=100, heartbeat=None)
    for t in range(3):
        matrix.read(t / 100)
    for t in range(3, 13):
        wiring.set_occupancy(START ^ (bits("e4") if t % 2 else 0))
        assert matrix.read(t / 100) is None
    assert matrix.stable == START


def test_the_pinout_numbering_is_rank_by_rank(factory: Any, pinout: Pinout) -> None:
    # Close only the switch between the rank-3 row pin and the file-h column pin.
    wiring = wire(factory, pinout)
    wiring.matrix.closed = 1 << (2 * 10 + 7)
    wiring.refresh()
    assert open_matrix(factory, pinout).scanner.scan() == bits("h3") == 1 << sq("h3")


def test_a_pin_in_use_is_a_hardware_error(factory: Any, pinout: Pinout) -> None:
    wire(factory, pinout)
    first = open_matrix(factory, pinout)
    with pytest.raises(HardwareError, match=r"cannot open the GPIO matrix.*in use"):
        open_matrix(factory, pinout)
    first.close()


def test_close_releases_the_pins(factory: Any, pinout: Pinout) -> None:
    wire(factory, pinout)
    first = open_matrix(factory, pinout)
    first.close()
    second = open_matrix(factory, pinout)  # would raise if a pin were still reserved
    assert second.scanner.scan() == 0
    assert first.healthy


def test_lines_can_be_used_alone(factory: Any, pinout: Pinout) -> None:
    wiring = wire(factory, pinout, bits("c2", "d2"))
    lines = GpioMatrixLines(
        pinout.pi.matrix.rows, pinout.pi.matrix.columns, settle=0, pin_factory=factory
    )
    lines.select(1)
    assert lines.sense() == 0b1100
    assert wiring.selected_rows() == [1]
    lines.select(None)
    assert wiring.selected_rows() == []
    assert lines.sense() == 0
