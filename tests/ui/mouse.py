"""The mouse on the simulator's window: what a hand does with it, as the
events pygame hands the window."""

from __future__ import annotations

import pygame

from boardctl.ui.sim import SimWindow

Point = tuple[int, int]


def click(window: SimWindow, pos: Point, button: int = 1) -> None:
    """Press and let go at ``pos`` (``button`` 3: a right-click)."""
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        window.handle(pygame.event.Event(kind, button=button, pos=pos))


def drag(window: SimWindow, start: Point, end: Point) -> None:
    """Press at ``start``, move with the button held, let go at ``end``."""
    window.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=start))
    rel = (end[0] - start[0], end[1] - start[1])
    window.handle(pygame.event.Event(pygame.MOUSEMOTION, buttons=(1, 0, 0), pos=end, rel=rel))
    window.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=end))
