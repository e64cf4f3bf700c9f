"""Shared pieces of the end-to-end tests: a screen that keeps what it was
shown, square names, and the LED frame an engine move should light."""

from __future__ import annotations

from collections.abc import Iterable

from boardctl.board import Role
from boardctl.board.lights import LIGHTS
from boardctl.hw import Colour
from boardctl.rules import get_variant
from boardctl.ui.state import DisplayState

GEOMETRY = get_variant("falcon").geometry
# Real seconds any one wait may take before a test fails (a machine at load 28
# took more than 30 s to play test_kill9's 300 plies).
WAIT = 60.0


def sq(name: str) -> int:
    return GEOMETRY.parse_square(name)


def names(squares: Iterable[int]) -> set[str]:
    return {GEOMETRY.name(s) for s in squares}


class Screen:
    """A display that keeps every distinct state it was shown, in order."""

    def __init__(self) -> None:
        self.states: list[DisplayState] = []

    def show(self, state: DisplayState) -> None:
        if not self.states or self.states[-1] != state:
            self.states.append(state)

    @property
    def last(self) -> DisplayState:
        return self.states[-1]


def engine_frame(uci: str, path: Iterable[str] = ()) -> dict[int, Colour]:
    """The LED frame that shows the engine's move ``uci``: its from and to
    squares and the squares it passes over (``path``), in the daemon's colours."""
    frame = {sq(name): LIGHTS[Role.ENGINE_PATH].rgb for name in path}
    frame[sq(uci[:2])] = LIGHTS[Role.ENGINE_FROM].rgb
    frame[sq(uci[2:4])] = LIGHTS[Role.ENGINE_TO].rgb
    return frame
