"""The terminal front end: a session at the real board in real time, the view
redrawn in the terminal and Enter read from stdin."""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import Protocol, TextIO

from ..queues import drain
from .core import TICK, Diagnostics
from .report import DiagReport
from .steps import Phase

REFRESH = 0.1  # the terminal redraws at most this often


class Keys(Protocol):
    def take(self) -> list[bool]:
        """Keys since the last call: True for Enter, False for the end of input."""


class StdinKeys:
    """Enter presses on stdin, read by a daemon thread so the board keeps refreshing."""

    def __init__(self, read_line: Callable[[], str] = input) -> None:
        self._read_line = read_line
        self._queue: queue.SimpleQueue[bool] = queue.SimpleQueue()
        threading.Thread(target=self._run, name="diag-keys", daemon=True).start()

    def _run(self) -> None:
        while True:
            try:
                self._read_line()
            except (EOFError, OSError, ValueError):
                self._queue.put(False)
                return
            self._queue.put(True)

    def take(self) -> list[bool]:
        return drain(self._queue)


def run_terminal(
    diag: Diagnostics,
    keys: Keys,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    out: TextIO = sys.stdout,
) -> DiagReport:
    """Run a session at the real board: the view redrawn on change at most
    every :data:`REFRESH`, Enter to go on; Ctrl-C or the end of input ends it."""
    shown = ""
    drawn_at = float("-inf")
    clear = "\x1b[H\x1b[2J" if out.isatty() else ""
    try:
        while diag.phase is not Phase.DONE:
            now = clock()
            diag.tick(now)
            for key in keys.take():
                if not key:
                    return diag.finish(now)
                diag.advance(now)
            if now - drawn_at >= REFRESH:
                drawn_at = now
                text = diag.view()
                if text != shown:
                    out.write(f"{clear}{text}\n\n")
                    out.flush()
                    shown = text
            sleep(max(0.0, TICK - (clock() - now)))
    except KeyboardInterrupt:
        out.write("\n")
    return diag.finish(clock())
