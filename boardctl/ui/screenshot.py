"""Render the status screen to an image file, headless.

``boardctl screenshot --fen FEN [--size 480x320] OUT.png`` calls
:func:`screenshot_command`; Python code calls :func:`screenshot`.  No window
is opened: without a display, ``SDL_VIDEODRIVER`` is set to ``dummy`` and the
screen is drawn onto a plain surface.  pygame is imported only when a picture
is taken, so importing this module is cheap and works without pygame-ce.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import BoardctlError
from ..rules import DEFAULT_VARIANT
from .size import SizeError
from .size import parse_size as _parse_size
from .state import DisplayState

DEFAULT_SIZE = (480, 320)
IMAGE_SUFFIXES = (".png", ".bmp", ".tga", ".jpg", ".jpeg")


class ScreenshotError(BoardctlError, ValueError):
    """A screenshot that cannot be taken: a bad size, file name, or no pygame-ce."""


def parse_size(text: str) -> tuple[int, int]:
    """``"480x320"`` → ``(480, 320)``.

    :raises ScreenshotError: when the text is not WIDTHxHEIGHT within bounds.
    """
    try:
        return _parse_size(text)
    except SizeError as exc:
        raise ScreenshotError(f"bad size: {exc}") from None


def _headless() -> None:
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def render_state(state: DisplayState, out: Path, size: tuple[int, int] = DEFAULT_SIZE) -> None:
    """Draw ``state`` on a ``size`` surface and save it to ``out`` (format by suffix).

    :raises ScreenshotError: for a bad size or suffix, missing pygame-ce, or an
        unwritable file.
    :raises FenError: when the state's FEN is malformed.
    """
    if out.suffix.lower() not in IMAGE_SUFFIXES:
        raise ScreenshotError(
            f"cannot save {str(out)!r}: the file name must end in one of "
            + ", ".join(IMAGE_SUFFIXES)
        )
    _headless()
    try:
        # pygame-ce is an optional extra: import it only when a picture is taken.
        import pygame

        from .display import Renderer
    except ImportError as exc:
        raise ScreenshotError(
            f"screenshots need pygame-ce: pip install 'boardctl[display]' ({exc})"
        ) from None
    try:
        renderer = Renderer(size)
    except ValueError as exc:
        raise ScreenshotError(f"bad size: {exc}") from None
    surface = pygame.Surface(size)
    renderer.render(state, surface)
    try:
        pygame.image.save(surface, str(out))
    except (pygame.error, OSError) as exc:
        raise ScreenshotError(f"cannot save {str(out)!r}: {exc}") from None


def screenshot(
    fen: str | None,
    out: Path | str,
    size: tuple[int, int] = DEFAULT_SIZE,
    variant: str = DEFAULT_VARIANT.name,
    **overrides: Any,
) -> None:
    """Save the screen for ``fen`` (None: the variant's start) to ``out``.

    ``overrides`` are :class:`DisplayState` fields (``prompt="…"``,
    ``last_move=(13, 33)``, ``white_clock=300`` …); the king in check is found
    from the FEN unless ``check_square`` is given.

    :raises FenError: when the FEN is malformed.
    :raises UnknownVariantError: when there is no such variant.
    :raises ScreenshotError: for a bad size or file name, or missing pygame-ce.
    :raises TypeError: for an override that is not a DisplayState field.
    """
    state = DisplayState.from_fen(fen, variant, **overrides)
    render_state(state, Path(out), size)


def screenshot_command(
    fen: str | None,
    out: str,
    size: str = "480x320",
    variant: str = DEFAULT_VARIANT.name,
) -> Path:
    """What ``boardctl screenshot`` does: parse the size text, render, return the path.

    Every failure is a :class:`~boardctl.errors.BoardctlError` with a one-line message.
    """
    path = Path(out)
    screenshot(fen, path, parse_size(size), variant)
    return path
