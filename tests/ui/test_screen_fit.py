"""The Pi's screen when the display's mode is not the size asked for: KMSDRM full
screen gave 640x480 for 480x320 (found by make test-image), and the renderer,
which draws one size only, stopped the service at its first frame."""

from __future__ import annotations

import pygame

from boardctl.ui import screen as screen_module
from boardctl.ui.display import BACKGROUND
from boardctl.ui.screen import Screen
from boardctl.ui.state import DisplayState


def rgb(surface: pygame.Surface, at: tuple[int, int]) -> tuple[int, int, int]:
    colour = surface.get_at(at)
    return (colour.r, colour.g, colour.b)


def screen_on(display: pygame.Surface, monkeypatch) -> Screen:
    """A full screen of 480x320 where set_mode gives ``display``, as KMSDRM does."""
    monkeypatch.setattr(screen_module.pygame.display, "set_mode", lambda size, flags=0: display)
    monkeypatch.setattr(screen_module.pygame.display, "flip", lambda: None)
    return Screen((480, 320), fullscreen=True)


def test_a_screen_of_another_mode_shows_the_board_scaled_and_centred(monkeypatch):
    display = pygame.Surface((640, 480), 0, 32)
    shown = screen_on(display, monkeypatch)
    try:
        shown.show(DisplayState())
        # 480x320 scaled by 4/3 is 640x427, centred: black bands of 26 and 27 rows.
        assert rgb(display, (320, 10)) == (0, 0, 0)
        assert rgb(display, (320, 470)) == (0, 0, 0)
        assert rgb(display, (1, 30)) == BACKGROUND
        drawn = {rgb(display, (x, y)) for x in range(0, 640, 16) for y in range(27, 453, 16)}
        assert len(drawn) > 4  # the board, not one colour
    finally:
        shown.close()


def test_a_screen_of_the_size_asked_for_is_drawn_on_directly(monkeypatch):
    display = pygame.Surface((480, 320), 0, 32)
    shown = screen_on(display, monkeypatch)
    try:
        assert shown.canvas is display
        shown.show(DisplayState())
        assert rgb(display, (1, 1)) == BACKGROUND
    finally:
        shown.close()
