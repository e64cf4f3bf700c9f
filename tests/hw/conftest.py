"""Fixtures for the hardware tests: a fresh gpiozero MockFactory per test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import Device  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from boardctl.hw.pins import Pinout, default_pinout


@pytest.fixture
def factory() -> Iterator[Any]:
    """A new MockFactory, also gpiozero's default while the test runs (its SPI
    classes look the default up); reset and unset afterwards."""
    previous = Device.pin_factory
    mock = MockFactory()
    Device.pin_factory = mock
    try:
        yield mock
    finally:
        mock.reset()
        Device.pin_factory = previous


@pytest.fixture
def pinout() -> Pinout:
    return default_pinout()
