"""The simulated front end (the tests and ``boardctl diag --sim``): a
:class:`ScriptedUser` at a :class:`~boardctl.hw.sim.SimBoard`, and
:func:`run_scripted` driving a session with them in virtual time."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import TextIO

from ..hw.pins import LedLayout
from ..hw.sim import SimBoard, SimLeds
from .core import TICK, Diagnostics
from .ledorder import LedChain
from .report import DiagReport
from .steps import Phase


class ScriptedUser:
    """A person at a :class:`SimBoard` who does what each step asks.

    They see the LEDs through ``actual``, the way the chain is really wired
    (default: as ``leds`` believe), so a miswired board can be simulated.
    They wait ``pause`` between actions, stop while the board is not
    connected, and skip an LED check after ``patience`` without a result.
    """

    def __init__(
        self,
        board: SimBoard,
        leds: SimLeds | None = None,
        *,
        actual: LedLayout | None = None,
        pause: float = 0.05,
        patience: float = 2.0,
    ) -> None:
        self.board = board
        self.leds = leds
        self.eyes = None if leds is None else LedChain(actual or leds.encoder.layout)
        self.pause = pause
        self.patience = patience
        self._phase: Phase | None = None
        self._todo: list[int] = []
        self._next = 0.0
        self._check = -1
        self._acted = 0.0

    def act(self, diag: Diagnostics, now: float) -> bool:
        """Act on the board if it is time; True means "presses Enter"."""
        if diag.phase is not self._phase:
            self._phase = diag.phase
            self._todo = self._plan(diag)
        if now < self._next or not diag.connected:
            return False
        self._next = now + self.pause
        if diag.phase is Phase.ORDER:
            return self._order(diag, now)
        if diag.phase in (Phase.LIVE, Phase.SWEEP):
            if not self._todo:
                return True
            self.board.toggle(self._todo.pop(0))
        return False

    def _plan(self, diag: Diagnostics) -> list[int]:
        board = diag.board
        if diag.phase is Phase.LIVE:
            return [board.parse(board.live_cell)] * 2
        if diag.phase is Phase.SWEEP:
            return [sq for sq in range(board.cells) for _ in range(2)]
        return []

    def _order(self, diag: Diagnostics, now: float) -> bool:
        done = len(diag.led_checks)
        if done != self._check:
            self._check, self._acted = done, now
            target = self._lit_square()
            if target is None:
                return True
            self.board.toggle(target)
        return now - self._acted > self.patience

    def _lit_square(self) -> int | None:
        if self.leds is None or self.eyes is None:
            return None
        return self.eyes.square_at(i for i, p in enumerate(self.leds.pixels) if any(p))


def run_scripted(
    diag: Diagnostics,
    user: ScriptedUser,
    *,
    start: float = 0.0,
    limit: float = 3600.0,
    on_tick: Callable[[float], None] | None = None,
    out: TextIO | None = None,
) -> DiagReport:
    """Run a session in virtual time (steps of :data:`TICK`) until it is done,
    or ``limit`` seconds have passed.  ``on_tick`` can inject faults;
    ``out`` gets each step's prompt and the board as each step ends."""
    n = 0
    now = start
    phase: Phase | None = None
    while diag.phase is not Phase.DONE and now - start < limit:
        now = start + n * TICK
        n += 1
        if on_tick is not None:
            on_tick(now)
        if diag.phase is not phase:
            if out is not None and phase is not None:
                print(diag.board.render(diag.occupancy), file=out)
            phase = diag.phase
            if out is not None:
                print("\n" + textwrap.fill(f"== {diag.prompt()}", 78), file=out)
        diag.tick(now)
        if user.act(diag, now):
            diag.advance(now)
    if out is not None and phase is not None:
        print(diag.board.render(diag.occupancy), file=out)
    return diag.finish(now)
