"""GPIO buttons on gpiozero mock pins."""

from __future__ import annotations

from typing import Any

import pytest

from boardctl.hw.base import Press
from boardctl.hw.buttons import GpioButtons
from boardctl.hw.errors import HardwareError
from boardctl.hw.pins import Pinout


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def open_buttons(factory: Any, pinout: Pinout, clock: Clock) -> GpioButtons:
    return GpioButtons(pinout.pi.buttons, clock=clock, pin_factory=factory)


def test_a_press_is_queued_with_its_time(factory: Any, pinout: Pinout) -> None:
    clock = Clock()
    buttons = open_buttons(factory, pinout, clock)
    ok = factory.pin(pinout.pi.buttons["ok"])
    nxt = factory.pin(pinout.pi.buttons["next"])
    assert ok.pull == "up" and ok.state  # idle high: pulled up, button open
    assert buttons.presses(0.0) == []
    clock.now = 1.5
    nxt.drive_low()  # pressed
    clock.now = 1.6
    nxt.drive_high()  # released: no press
    clock.now = 2.0
    ok.drive_low()
    assert buttons.is_held("ok") and not buttons.is_held("next")
    assert buttons.presses(2.1) == [Press("next", 1.5), Press("ok", 2.0)]
    assert buttons.presses(2.2) == []
    buttons.close()


def test_each_press_counts(factory: Any, pinout: Pinout) -> None:
    clock = Clock()
    buttons = open_buttons(factory, pinout, clock)
    hint = factory.pin(pinout.pi.buttons["hint"])
    for t in range(3):
        clock.now = float(t)
        hint.drive_low()
        hint.drive_high()
    assert [p.time for p in buttons.presses(3.0)] == [0.0, 1.0, 2.0]
    assert buttons.names == ("ok", "next", "prev", "hint")


def test_the_queue_is_bounded(factory: Any) -> None:
    buttons = GpioButtons({"ok": 3}, clock=Clock(), limit=2, pin_factory=factory)
    pin = factory.pin(3)
    for _ in range(5):
        pin.drive_low()
        pin.drive_high()
    assert len(buttons.presses(0.0)) == 2


def test_a_pin_in_use_is_a_hardware_error(factory: Any) -> None:
    first = GpioButtons({"ok": 3}, pin_factory=factory)
    with pytest.raises(HardwareError, match="buttons"):
        GpioButtons({"ok": 3}, pin_factory=factory)
    first.close()
    GpioButtons({"ok": 3}, pin_factory=factory).close()
