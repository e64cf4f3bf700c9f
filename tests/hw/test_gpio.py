"""The pin factory is chosen lazily (lgpio, then RPi.GPIO), and nothing
Pi-only is imported off a Pi; boardctl.hw stays clear of board/ and ui/."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import Device  # type: ignore[import-untyped]

from boardctl.hw import gpio
from boardctl.hw.errors import HardwareError


@pytest.fixture
def no_default_factory() -> Iterator[None]:
    previous = Device.pin_factory
    Device.pin_factory = None
    try:
        yield
    finally:
        Device.pin_factory = previous


def backend(monkeypatch: pytest.MonkeyPatch, module: str, name: str, result: Any) -> None:
    fake = types.ModuleType(module)

    def make() -> Any:
        if isinstance(result, Exception):
            raise result
        return result

    setattr(fake, name, make)
    monkeypatch.setitem(sys.modules, module, fake)


@pytest.mark.usefixtures("no_default_factory")
def test_lgpio_comes_first(monkeypatch: pytest.MonkeyPatch) -> None:
    backend(monkeypatch, "gpiozero.pins.lgpio", "LGPIOFactory", "lgpio factory")
    backend(monkeypatch, "gpiozero.pins.rpigpio", "RPiGPIOFactory", "rpigpio factory")
    assert gpio.pick_pin_factory() == "lgpio factory"
    assert Device.pin_factory == "lgpio factory"


@pytest.mark.usefixtures("no_default_factory")
def test_rpi_gpio_is_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    backend(monkeypatch, "gpiozero.pins.lgpio", "LGPIOFactory", OSError("no /dev/gpiochip0"))
    backend(monkeypatch, "gpiozero.pins.rpigpio", "RPiGPIOFactory", "rpigpio factory")
    assert gpio.pick_pin_factory() == "rpigpio factory"


@pytest.mark.usefixtures("no_default_factory")
def test_no_backend_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)  # import fails
    backend(
        monkeypatch,
        "gpiozero.pins.rpigpio",
        "RPiGPIOFactory",
        RuntimeError("This module can only be run on a Raspberry Pi!"),
    )
    with pytest.raises(HardwareError) as info:
        gpio.pick_pin_factory()
    assert "LGPIOFactory: ModuleNotFoundError" in str(info.value)
    assert "RPiGPIOFactory: RuntimeError: This module can only be run" in str(info.value)
    assert Device.pin_factory is None


def test_an_existing_default_is_kept(factory: Any) -> None:
    assert gpio.pick_pin_factory() is factory
    assert gpio.resolve(None) is factory
    assert gpio.resolve("mine") == "mine"


PROBE = """
import json, sys
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]
import boardctl.hw.base, boardctl.hw.buttons, boardctl.hw.leds, boardctl.hw.matrix
import boardctl.hw.mockpins, boardctl.hw.pins, boardctl.hw.scan, boardctl.hw.shiftreg
import boardctl.hw.sim
from boardctl.hw.matrix import GpioMatrix
from boardctl.hw.pins import default_pinout
pins = default_pinout().pi.matrix
GpioMatrix.from_pinout(pins, pin_factory=MockFactory(), settle=0).read(0.0)
print(json.dumps(sorted(sys.modules)))
"""


def test_nothing_pi_only_or_outside_hw_is_imported() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], check=True, capture_output=True, text=True
    ).stdout
    modules = set(json.loads(out))
    assert not {"lgpio", "RPi", "RPi.GPIO", "spidev", "pigpio"} & modules
    assert not any(m.startswith(("boardctl.board", "boardctl.ui")) for m in modules)


def test_the_simulator_needs_no_gpiozero() -> None:
    probe = "import json, sys; import boardctl.hw.sim; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True
    ).stdout
    assert not any(m.startswith("gpiozero") for m in json.loads(out))
