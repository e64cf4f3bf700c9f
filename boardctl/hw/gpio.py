"""Choosing gpiozero's pin factory, lazily.

Every driver takes ``pin_factory=`` (gpiozero style): tests pass a
``MockFactory``; on a Pi pass nothing and :func:`pick_pin_factory` tries
lgpio (the only backend that works on a Pi 5), then RPi.GPIO (older systems
that have it).  Both backends raise at import time off a Pi, so they are
imported here, inside the function, and nowhere else.
"""

from __future__ import annotations

import importlib
from typing import Any

from .errors import HardwareError

# (module, class) in the order tried.
BACKENDS = (
    ("gpiozero.pins.lgpio", "LGPIOFactory"),
    ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
)


def pick_pin_factory() -> Any:
    """A working gpiozero pin factory for this Pi.

    If ``gpiozero.Device.pin_factory`` is already set (by a test, or an
    earlier call), that one is used; otherwise the one chosen here becomes
    gpiozero's default too, so that every device (and gpiozero's SPI classes,
    which always consult the default) share one factory.

    :raises HardwareError: if no backend works, with each backend's error.
    """
    from gpiozero import Device  # type: ignore[import-untyped]

    if Device.pin_factory is not None:
        return Device.pin_factory
    errors = []
    for module_name, class_name in BACKENDS:
        try:
            module = importlib.import_module(module_name)
            factory = getattr(module, class_name)()
        except Exception as exc:  # ImportError off a Pi, RuntimeError, lgpio.error …
            errors.append(f"{class_name}: {type(exc).__name__}: {exc}")
        else:
            Device.pin_factory = factory
            return factory
    raise HardwareError(
        "no GPIO backend works here (install lgpio on the Pi, or pass "
        "pin_factory=MockFactory() to test): " + "; ".join(errors)
    )


def resolve(pin_factory: Any) -> Any:
    """``pin_factory`` itself, or :func:`pick_pin_factory` when it is None."""
    return pick_pin_factory() if pin_factory is None else pin_factory


def ensure_default(pin_factory: Any) -> None:
    """Make ``pin_factory`` gpiozero's default if there is none yet.

    gpiozero's SPI classes look up ``Device.pin_factory`` even when given a
    factory, and off a Pi that lookup fails; with a default in place they
    work on the injected (mock) factory.
    """
    from gpiozero import Device

    if Device.pin_factory is None:
        Device.pin_factory = pin_factory
