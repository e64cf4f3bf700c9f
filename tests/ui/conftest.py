"""Headless pygame for the display tests: the dummy video driver, set before any import."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame
import pytest

from boardctl.ui.display import Renderer
from boardctl.ui.state import DisplayState

SIZES = [(480, 320), (800, 480)]


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return request.param


@pytest.fixture(scope="session")
def renderers() -> dict[tuple[int, int], Renderer]:
    """One renderer per size for the whole session (fonts and sprites are built once)."""
    return {}


@pytest.fixture
def draw(renderers):
    """``draw(state, size) -> (surface, renderer)``."""

    def _draw(state: DisplayState, size: tuple[int, int]) -> tuple[pygame.Surface, Renderer]:
        renderer = renderers.get(size)
        if renderer is None:
            renderer = renderers[size] = Renderer(size)
        surface = pygame.Surface(size)
        renderer.render(state, surface)
        return surface, renderer

    return _draw
