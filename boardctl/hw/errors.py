"""Errors the hardware drivers raise on purpose.

Each is also a builtin (gpiozero's ``exc.py`` does the same), so a caller that
does not know boardctl can still catch ``OSError`` or ``ValueError``.
"""

from __future__ import annotations

from ..errors import BoardctlError


class HardwareError(BoardctlError, OSError):
    """A driver could not open or talk to its hardware (GPIO, SPI)."""


class PinoutError(BoardctlError, ValueError):
    """A bad pinout file.  ``key`` names the offending entry, e.g. ``pi.matrix.rows[3]``."""

    def __init__(self, source: str, key: str, message: str) -> None:
        super().__init__(f"{source}: {key}: {message}")
        self.source = source
        self.key = key


class LedFrameError(BoardctlError, ValueError):
    """An LED frame naming a square that does not exist or a colour out of range."""
