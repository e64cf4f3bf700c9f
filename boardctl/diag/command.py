"""``boardctl diag`` itself: open the configured board (or the simulated one
with a scripted user), run the session and print the summary."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from ..config import Config
from ..hw.base import LedSink, Reading, SensorSource
from ..hw.pins import FILES, RANKS, SQUARES, LedLayout
from ..hw.sim import SimBoard, SimLeds
from .core import Diagnostics
from .report import DiagReport
from .scripted import ScriptedUser, run_scripted
from .steps import STEPS, Phase, parse_steps
from .terminal import StdinKeys, run_terminal


class ReopeningSource:
    """A :class:`~boardctl.hw.base.SensorSource` whose driver opens when it can.

    While ``open_source`` fails (``OSError``, or ``ImportError`` off a Pi) the
    source is unhealthy with the reason in ``last_error``, and it tries again
    after ``retry`` seconds, doubling up to ``retry_max``.
    """

    def __init__(self, open_source: Callable[[], SensorSource], *, retry: float = 1.0,
                 retry_max: float = 8.0) -> None:
        self._open = open_source
        self.inner: SensorSource | None = None
        self._retry = retry
        self._retry_max = retry_max
        self._delay = retry
        self._next = float("-inf")
        self._error: str | None = None

    @property
    def healthy(self) -> bool:
        return self.inner is not None and self.inner.healthy

    @property
    def last_error(self) -> str | None:
        if self.inner is None:
            return self._error
        return getattr(self.inner, "last_error", None)

    def read(self, now: float) -> Reading | None:
        if self.inner is None:
            if now < self._next:
                return None
            try:
                self.inner = self._open()
            except (OSError, ImportError) as exc:
                self._error = str(exc) or type(exc).__name__
                self._next = now + self._delay
                self._delay = min(2 * self._delay, self._retry_max)
                return None
        return self.inner.read(now)

    def close(self) -> None:
        if self.inner is not None:
            self.inner.close()


def diag_command(config: Config, *, sim: bool = False, steps: str | None = None,
                 out: TextIO = sys.stdout) -> int:
    """``boardctl diag``: 0 when no fault was found, 1 otherwise.

    :raises DiagError: for a bad ``steps`` list.
    :raises PinoutError: for a bad pinout file.
    """
    from ..hw.pins import default_pinout, load_pinout

    chosen = parse_steps(steps) if steps is not None else STEPS
    pinout = load_pinout(Path(config.board.pinout)) if config.board.pinout else default_pinout()
    layout = pinout.leds
    if sim or config.board.sensors == "sim":
        start = [*range(2 * FILES), *range((RANKS - 2) * FILES, SQUARES)]
        board = SimBoard(start)
        sim_leds = (SimLeds(layout, brightness=config.leds.brightness)
                    if config.leds.enabled else None)
        diag = Diagnostics(board, sim_leds, layout=layout, steps=chosen)
        print("boardctl diag: simulated board, scripted user", file=out)
        report = run_scripted(diag, ScriptedUser(board, sim_leds), out=out)
    else:
        report = _diag_board(config, layout, chosen, out)
    print(report.summary(), file=out)
    return 0 if report.ok else 1


def _diag_board(config: Config, layout: LedLayout, steps: tuple[Phase, ...],
                out: TextIO) -> DiagReport:
    from .. import app
    from ..hw.serial_link import SerialBoard
    from ..rules import Game, get_variant

    def open_sensors() -> SensorSource:
        return app.make_sensors(config, Game(get_variant(config.game.variant)))

    # A serial board opens its port lazily and reconnects by itself.
    sensors: SensorSource = (open_sensors() if config.board.sensors == "serial"
                             else ReopeningSource(open_sensors))
    leds: LedSink | None = None
    own_leds = not isinstance(sensors, SerialBoard)
    notes: list[str] = []
    if isinstance(sensors, SerialBoard):
        leds = sensors if config.leds.enabled else None
    else:
        try:
            leds = app.make_leds(config, get_variant(config.game.variant))
        except (OSError, ImportError) as exc:
            notes.append(f"LEDs not available: {exc}")
    diag = Diagnostics(sensors, leds, layout=layout, steps=steps)
    diag.notes.extend(notes)
    print("boardctl diag: Enter goes on, Ctrl-C ends with the summary", file=out)
    try:
        return run_terminal(diag, StdinKeys(), out=out)
    finally:
        if leds is not None and own_leds:
            leds.close()
        sensors.close()
