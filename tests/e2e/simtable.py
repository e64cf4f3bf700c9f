"""The simulator's window at a table: the window on the sensors
:func:`boardctl.daemon.wiring.make_sensors` makes, and the daemon
:func:`boardctl.daemon.wiring.build` wires to it, as ``boardctl sim`` does,
on a virtual clock.  The hand is the mouse, click to lift and click to put
down."""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import ExitStack

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
pygame = pytest.importorskip("pygame")

from boardctl.config import Config  # noqa: E402
from boardctl.daemon import wiring as app  # noqa: E402
from boardctl.daemon.parts import Services  # noqa: E402
from boardctl.hw import LedSink  # noqa: E402
from boardctl.hw.sim import SimBoard, SimButtons  # noqa: E402
from boardctl.rules import Game, get_variant  # noqa: E402
from boardctl.ui.sim import SimWindow  # noqa: E402
from boardctl.ui.state import DisplayState  # noqa: E402
from tests.ui import mouse  # noqa: E402

DT = 0.02  # virtual seconds per turn of the loop


class WindowTable:
    """The simulator for ``config`` and everything it is wired to; ``leds``
    chooses what the daemon's LEDs show on, given the window."""

    def __init__(
        self,
        stack: ExitStack,
        config: Config,
        given: Services,
        leds: Callable[[SimWindow], LedSink] = lambda window: window.leds,
    ) -> None:
        pygame.display.init()
        pygame.font.init()
        variant = config.game.variant
        self.start = Game(get_variant(variant))
        self.board = app.make_sensors(config, self.start)
        assert isinstance(self.board, SimBoard)
        self.now = 0.0
        buttons = SimButtons()
        self.window = SimWindow(
            self.board,
            lambda name: buttons.press(name, self.now),
            config.display_size,
            DisplayState.from_fen(None, variant),
        )
        self.daemon = app.build(
            config,
            stack,
            sensors=self.board,
            now=0.0,
            buttons=buttons,
            leds=leds(self.window),
            display=self.window.display,
            given=given,
        )

    def run(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            assert self.window.tick(self.now)
            self.daemon.step(self.now)
            self.between_steps()
            self.now = round(self.now + DT, 6)

    def between_steps(self) -> None:
        """What the test does between two turns of the loop: nothing, here."""

    def click(self, cell: int, button: int = 1) -> None:
        mouse.click(self.window, self.window.view.centre(cell), button)
        self.run(0.2)
