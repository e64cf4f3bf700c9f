"""A log that a hostile sender cannot flood: one line a minute per kind.

Whoever sends boardctl bad requests or bad messages over and over costs at
most :data:`WINDOW`'s worth of one line per kind of fault; the lines left out
are counted into the next one, so nothing is hidden, only summed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

WINDOW = 60.0  # seconds between two lines of one kind


class QuietLog:
    """``warn(kind, message)`` logs at most one line per ``kind`` per
    :data:`WINDOW` seconds of ``clock``; :attr:`lines` counts what it wrote."""

    def __init__(self, logger: logging.Logger, clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.clock = clock
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}
        self.lines = 0

    def warn(
        self, kind: str, message: str, *args: object, exc_info: BaseException | None = None
    ) -> bool:
        """Log ``message % args`` (with ``exc_info``'s traceback, if given)
        unless ``kind`` was logged in the last minute; True when it was written."""
        now = self.clock()
        last = self._last.get(kind)
        if last is not None and now - last < WINDOW:
            self._held[kind] = self._held.get(kind, 0) + 1
            return False
        held = self._held.pop(kind, 0)
        more = f" ({held} more like it in the last minute)" if held else ""
        self._last[kind] = now
        self.lines += 1
        self.logger.warning(message + more, *args, exc_info=exc_info)
        return True
