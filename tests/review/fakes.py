"""Analysers for the review's process that tests hold back: module-level, so
that the process can be sent them (``functools.partial(gated, gate, started)``)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from boardctl.engine import Engine, Limits
from boardctl.errors import BoardctlError
from boardctl.review.analysis import Progress, ReviewCancelled, analyse
from boardctl.rules import Game
from boardctl.storage.reviews import Review

GATE_TIMEOUT = 60.0  # seconds a gated review waits before it gives up (and fails)


class GateNeverOpened(BoardctlError, RuntimeError):
    """The test never opened the gate: the review fails, and says so."""


def gated(
    gate: str,
    started: str,
    game: Game,
    limits: Limits,
    now: float,
    on_position: Progress,
    stop: Callable[[], bool],
) -> Review:
    """Writes its process id to ``started``, waits (polling ``stop``) until the
    file ``gate`` exists, then reviews as the board does."""
    Path(started).write_text(str(os.getpid()))
    deadline = time.monotonic() + GATE_TIMEOUT
    while not Path(gate).exists():
        if stop():
            raise ReviewCancelled("stopped at the gate")
        if time.monotonic() > deadline:
            raise GateNeverOpened(f"the gate {gate} never opened")
        time.sleep(0.01)
    return analyse(game, Engine(seed=0), limits, now, on_position=on_position, stop=stop)
