"""The 74HC165 chain on gpiozero's mock SPI with an emulated chain."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardctl.hw.base import Reading
from boardctl.hw.errors import HardwareError
from boardctl.hw.hexpins import default_hex_pinout
from boardctl.hw.mockpins import Mock74HC165Chain
from boardctl.hw.pins import Pinout
from boardctl.hw.shiftreg import (
    ShiftRegisterChain,
    ShiftRegisterSensor,
    bytes_to_occupancy,
    chips_for,
    occupancy_to_bytes,
)
from boardctl.rules.hexgeo import FALCON_HEX

from .helpers import CHECKER, FULL, START, bits


def emulate(factory: Any, pinout: Pinout, occupancy: int = 0) -> Mock74HC165Chain:
    pins = pinout.pi.shiftreg
    return Mock74HC165Chain.from_pinout(
        pins, occupancy=occupancy, active_low=pins.active_low, pin_factory=factory
    )


def open_chain(factory: Any, pinout: Pinout) -> ShiftRegisterChain:
    pins = pinout.pi.shiftreg
    return ShiftRegisterChain(
        clock=pins.spi.clock,
        mosi=pins.spi.mosi,
        miso=pins.miso,
        select=pins.spi.select,
        load=pins.load,
        pin_factory=factory,
    )


def test_the_byte_layout() -> None:
    # One 80-bit register, first bit out j8, last a1; a closed sensor reads 0.
    assert occupancy_to_bytes(bits("a1"), active_low=False) == bytes(9) + b"\x01"
    assert occupancy_to_bytes(bits("j8"), active_low=False) == b"\x80" + bytes(9)
    assert occupancy_to_bytes(bits("h1", "i1"), active_low=False) == bytes(8) + b"\x01\x80"
    assert occupancy_to_bytes(bits("a1")) == b"\xff" * 9 + b"\xfe"
    assert occupancy_to_bytes(FULL) == bytes(10)


@pytest.mark.parametrize(
    "board", [0, FULL, START, CHECKER, *[random.Random(seed).getrandbits(80) for seed in range(4)]]
)
@pytest.mark.parametrize("active_low", [True, False])
def test_bytes_round_trip(board: int, active_low: bool) -> None:
    data = occupancy_to_bytes(board, active_low=active_low)
    assert bytes_to_occupancy(data, active_low=active_low) == board


@pytest.mark.parametrize(
    "board", [0, FULL, START, CHECKER, bits("a1"), bits("j8"), bits("e4", "f5", "c7")]
)
def test_a_scan_reads_the_whole_chain(factory: Any, pinout: Pinout, board: int) -> None:
    chain = emulate(factory, pinout, board)
    driver = open_chain(factory, pinout)
    assert driver.scan() == board
    assert chain.latches == 1


def test_the_driver_latches_before_every_read(factory: Any, pinout: Pinout) -> None:
    chain = emulate(factory, pinout, START)
    driver = open_chain(factory, pinout)
    chain.load_pin.clear_states()
    chain.select_pin.clear_states()
    assert driver.scan() == START
    chain.occupancy = START & ~bits("e2")
    assert driver.scan() == START & ~bits("e2")
    assert chain.latches == 2
    # SH/LD pulsed low once per scan; CE1 (to CLK INH) low once per scan, for the read.
    assert [s.state for s in chain.load_pin.states] == [True, False, True, False, True]
    assert [s.state for s in chain.select_pin.states] == [True, False, True, False, True]
    # 80 clock pulses per read: the whole chain and nothing more.
    assert chain.rx_bit == 80


def test_the_sensor_is_debounced(factory: Any, pinout: Pinout) -> None:
    chain = emulate(factory, pinout, START)
    sensor = ShiftRegisterSensor.from_pinout(
        pinout.pi.shiftreg, pin_factory=factory, debounce=2, heartbeat=None
    )
    assert [sensor.read(t / 100) for t in range(2)] == [None, Reading(START, 0.01)]
    chain.occupancy = START | bits("e4")
    assert sensor.read(0.02) is None
    assert sensor.read(0.03) == Reading(START | bits("e4"), 0.03)
    sensor.close()


def test_a_pin_in_use_is_a_hardware_error(factory: Any, pinout: Pinout) -> None:
    emulate(factory, pinout)
    first = open_chain(factory, pinout)
    with pytest.raises(HardwareError, match="74HC165"):
        open_chain(factory, pinout)
    first.close()


def test_the_chain_must_cover_the_board(factory: Any) -> None:
    with pytest.raises(ValueError, match="80"):
        ShiftRegisterChain(chips=8, pin_factory=factory)


HEX_CELLS = 121


def test_the_hex_board_chain_is_sixteen_chips_with_seven_unused_inputs() -> None:
    # 128 inputs: the first 7 bits out are unused (tied to 3.3 V), then f13 … h1.
    assert chips_for(HEX_CELLS) == 16 == default_hex_pinout().pi.shiftreg.chips
    assert occupancy_to_bytes(1, squares=HEX_CELLS) == b"\xff" * 15 + b"\xfe"
    assert occupancy_to_bytes(1 << 120, squares=HEX_CELLS) == b"\xfe" + b"\xff" * 15
    assert occupancy_to_bytes(1 << 120, active_low=False, squares=HEX_CELLS) == (
        b"\x01" + bytes(15)
    )
    # Unused inputs left floating (reading 0, "closed") are not cells.
    assert bytes_to_occupancy(bytes(16), squares=HEX_CELLS) == (1 << 121) - 1
    assert bytes_to_occupancy(b"\xff" * 16, active_low=False, squares=HEX_CELLS) == ((1 << 121) - 1)


def test_the_hex_board_is_read_through_its_chain(factory: Any) -> None:
    pinout = default_hex_pinout()
    pins = pinout.pi.shiftreg
    board = sum(1 << FALCON_HEX.parse_cell(n) for n in ("h1", "g7", "f13", "a8", "m6"))
    chain = Mock74HC165Chain.from_pinout(
        pins,
        occupancy=board,
        active_low=pins.active_low,
        pin_factory=factory,
        squares=HEX_CELLS,
    )
    sensor = ShiftRegisterSensor.from_pinout(
        pins, pin_factory=factory, squares=HEX_CELLS, debounce=1, heartbeat=None
    )
    assert sensor.read(0.0) == Reading(board, 0.0)
    assert chain.rx_bit == 128
    chain.occupancy = (1 << HEX_CELLS) - 1
    assert sensor.read(0.01) == Reading((1 << HEX_CELLS) - 1, 0.01)
    sensor.close()
    with pytest.raises(ValueError, match="121 squares, for 16 chips"):
        ShiftRegisterChain(chips=10, pin_factory=factory, squares=HEX_CELLS)
