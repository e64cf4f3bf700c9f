"""The Pi's own screen: the daemon's display state drawn full-screen (KMSDRM,
no X needed with pygame-ce's wheels) or in a window on a desktop."""

from __future__ import annotations

import pygame

from .display import Renderer
from .state import DisplayState


class Screen:
    """A :class:`~boardctl.daemon.parts.Display` on a real screen.

    :raises pygame.error: when there is no display to open.
    """

    def __init__(self, size: tuple[int, int], fullscreen: bool) -> None:
        pygame.display.init()
        pygame.font.init()
        flags = pygame.FULLSCREEN if fullscreen else 0
        self.surface = pygame.display.set_mode(size, flags)
        pygame.display.set_caption("boardctl")
        pygame.mouse.set_visible(not fullscreen)
        self.renderer = Renderer(size)
        self.last: DisplayState | None = None

    def show(self, state: DisplayState) -> None:
        pygame.event.pump()  # keep the window responsive; input comes from buttons
        if state == self.last:
            return
        self.last = state
        self.renderer.render(state, self.surface)
        pygame.display.flip()

    def close(self) -> None:
        pygame.display.quit()
