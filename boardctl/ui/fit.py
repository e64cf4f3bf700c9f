"""A screen drawn at one size shown on a display of another, as a screen's
mode or a frame buffer gives it: scaled, centred, its proportions kept."""

from __future__ import annotations

import pygame


def fit_onto(canvas: pygame.Surface, display: pygame.Surface) -> None:
    """Draw ``canvas`` onto ``display`` as large as fits, centred on black."""
    width, height = display.get_size()
    scale = min(width / canvas.get_width(), height / canvas.get_height())
    size = (round(canvas.get_width() * scale), round(canvas.get_height() * scale))
    fitted = canvas if size == canvas.get_size() else pygame.transform.smoothscale(canvas, size)
    display.fill((0, 0, 0))
    display.blit(fitted, fitted.get_rect(center=(width // 2, height // 2)))
