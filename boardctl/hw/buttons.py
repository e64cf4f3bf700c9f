"""A few push buttons on the Pi's GPIOs (gpiozero ``Button``).

They make choices on the display: the promotion piece, a new game, the
level, a takeback.  Wiring: each button between its GPIO and ground, the
internal pull-up on (no resistor needed; GPIO2/3 have 1.8 kΩ pull-ups on the
board, which is fine).  A button on GPIO3 also wakes a halted Pi.

Usage::

    buttons = GpioButtons(default_pinout().pi.buttons)
    for press in buttons.presses(time.monotonic()):
        print(press.button, press.time)

gpiozero calls back from its own thread; presses are queued under a lock
with the time from ``clock`` (the daemon's clock, ``time.monotonic`` unless
injected) and handed out by :meth:`GpioButtons.presses`.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from gpiozero import Button, GPIOZeroError  # type: ignore[import-untyped]

from . import gpio
from .base import Press
from .errors import HardwareError


class GpioButtons:
    """Named GPIO buttons as :class:`~boardctl.hw.base.Buttons`.

    ``pins`` maps a button's name (as the configuration and :class:`Press`
    know it) to its BCM GPIO number.  At most ``limit`` presses wait in the
    queue; older ones are dropped if nobody collects them.

    :raises HardwareError: if a pin cannot be opened.
    """

    def __init__(
        self,
        pins: Mapping[str, int | str],
        *,
        bounce_time: float | None = 0.05,
        clock: Callable[[], float] = time.monotonic,
        limit: int = 64,
        pin_factory: Any = None,
    ) -> None:
        factory = gpio.resolve(pin_factory)
        self._clock = clock
        self._lock = threading.Lock()
        self._queue: deque[Press] = deque(maxlen=limit)
        self._buttons: dict[str, Any] = {}
        try:
            for name, pin in pins.items():
                button = Button(pin, pull_up=True, bounce_time=bounce_time, pin_factory=factory)
                button.when_pressed = partial(self._pressed, name)
                self._buttons[name] = button
        except GPIOZeroError as exc:
            self.close()
            raise HardwareError(f"cannot open the buttons: {exc}") from exc

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._buttons)

    def _pressed(self, name: str) -> None:
        press = Press(name, self._clock())
        with self._lock:
            self._queue.append(press)

    def presses(self, now: float) -> list[Press]:
        """Presses since the last call, oldest first."""
        with self._lock:
            presses = list(self._queue)
            self._queue.clear()
        return presses

    def is_held(self, name: str) -> bool:
        """Whether the button is down now (for a diagnostic screen)."""
        return bool(self._buttons[name].is_pressed)

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons = {}
