"""``boardctl diag`` itself: open the configured board (or the simulated one
with a scripted user), run the session and print the summary."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TextIO

from ..config import DEFAULT_PATH, Config
from ..hw.base import LedSink, Reading, SensorSource
from ..hw.pins import LedLayout
from ..hw.sim import SimBoard, SimLeds
from ..rules import Variant
from .boards import SQUARE_BOARD, DiagBoard, HexDiagBoard
from .core import Diagnostics
from .link import read_counts
from .report import DiagReport
from .scripted import ScriptedUser, run_scripted
from .squares import DiagError
from .steps import STEPS, Phase, parse_steps
from .terminal import StdinKeys, run_terminal


class ReopeningSource:
    """A :class:`~boardctl.hw.base.SensorSource` whose driver opens when it can.

    While ``open_source`` fails (``OSError``, or ``ImportError`` off a Pi) the
    source is unhealthy with the reason in ``last_error``, and it tries again
    after ``retry`` seconds, doubling up to ``retry_max``.
    """

    def __init__(
        self, open_source: Callable[[], SensorSource], *, retry: float = 1.0, retry_max: float = 8.0
    ) -> None:
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


def _board_for(config: Config, variant: Variant) -> tuple[DiagBoard, LedLayout]:
    """The board the game is played on, and its LED layout from its pinout.

    :raises StartError: for a preset no e-board plays, or a pinout of the other board.
    """
    from ..daemon import wiring
    from ..hw.hexpins import hex_board

    wiring._fits_sensors(variant)  # an e-board exists for it: 8×10 or the hexagon
    hexagon = hex_board(variant.geometry)
    if hexagon is not None:
        pinout = wiring._hex_pinout(config, hexagon)
        return HexDiagBoard(pinout), pinout.leds
    return SQUARE_BOARD, wiring._pinout(config).leds


def _start(variant: Variant) -> list[int]:
    """The squares (cells) occupied at the variant's start: the simulated board's set-up."""
    from ..board.explain import occupancy
    from ..rules import Game

    position = Game(variant).position
    return position.geometry.squares(occupancy(position))


def diag_command(
    config: Config,
    *,
    sim: bool = False,
    steps: str | None = None,
    out: TextIO | None = None,
    variant: Variant | None = None,
) -> int:
    """``boardctl diag``: 0 when no fault was found, 1 otherwise.  The board
    checked is the one ``variant`` (default: the configuration's) is played on;
    ``out`` defaults to the current ``sys.stdout``.

    :raises DiagError: for a bad ``steps`` list, and without ``sim`` when no
        configuration was read (the defaults' board is simulated).
    :raises PinoutError: for a bad pinout file.
    :raises StartError: for a pinout of the other board.
    """
    from ..rules import get_variant

    out = out or sys.stdout  # looked up now: the stdout of the moment
    if not sim and not config.from_file:
        # The defaults' sensors are simulated: checking them would report a
        # clean board on a Pi whose configuration is missing.
        raise DiagError(
            f"no board to test: no configuration ({DEFAULT_PATH} does not "
            "exist); name one with --config, or try the checks on a simulated "
            "board with --sim"
        )
    chosen = parse_steps(steps) if steps is not None else STEPS
    variant = variant or get_variant(config.game.variant)
    board, layout = _board_for(config, variant)
    if sim or config.board.sensors == "sim":
        files, ranks = board.sim_matrix
        sensors = SimBoard(_start(variant), files=files, ranks=ranks)
        sim_leds = (
            SimLeds(layout, brightness=config.leds.brightness) if config.leds.enabled else None
        )
        diag = Diagnostics(sensors, sim_leds, layout=layout, steps=chosen, board=board)
        print(
            f"boardctl diag: simulated {board.title}, scripted user",
            file=out,
        )
        report = run_scripted(diag, ScriptedUser(sensors, sim_leds), out=out)
    else:
        report = _diag_board(config, variant, board, layout, chosen, out)
    print(report.summary(), file=out)
    return 0 if report.ok else 1


def _diag_board(
    config: Config,
    variant: Variant,
    board: DiagBoard,
    layout: LedLayout,
    steps: tuple[Phase, ...],
    out: TextIO,
) -> DiagReport:
    from ..daemon import wiring
    from ..hw.serial_link import SerialBoard

    def open_sensors() -> SensorSource:
        return wiring.make_board_sensors(config, variant)

    # A serial board opens its port lazily and reconnects by itself.
    sensors: SensorSource = (
        open_sensors() if config.board.sensors == "serial" else ReopeningSource(open_sensors)
    )
    leds: LedSink | None = None
    own_leds = not isinstance(sensors, SerialBoard)
    notes: list[str] = []
    if isinstance(sensors, SerialBoard):
        leds = sensors if config.leds.enabled else None
    else:
        try:
            leds = wiring.make_leds(config, variant)
        except (OSError, ImportError) as exc:
            notes.append(f"LEDs not available: {exc}")
    diag = Diagnostics(sensors, leds, layout=layout, steps=steps, board=board)
    diag.notes.extend(notes)
    print("boardctl diag: Enter goes on, Ctrl-C ends with the summary", file=out)
    try:
        report = run_terminal(diag, StdinKeys(), out=out)
        if isinstance(sensors, SerialBoard):
            report = replace(report, link=read_counts(sensors))
        return report
    finally:
        if leds is not None and own_leds:
            leds.close()
        sensors.close()
