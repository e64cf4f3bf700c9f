"""Text for small screens: fonts by pixel height, word wrapping, ellipses.

Only pygame's built-in default font is used (``pygame.font.Font(None, size)``,
always bundled), so the screen looks the same on every Pi image.  Its point
size is not its pixel height, so fonts are asked for by the height a line
takes on the screen.
"""

from __future__ import annotations

import pygame

ELLIPSIS = "…"


class Fonts:
    """The default font at any pixel height, each built once."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._by_height: dict[int, pygame.font.Font] = {}

    def get(self, height: int) -> pygame.font.Font:
        """The largest default font whose lines are at most ``height`` pixels tall."""
        height = max(6, height)
        font = self._by_height.get(height)
        if font is None:
            size = round(height * 1.5)
            font = pygame.font.Font(None, size)
            while size > 4 and font.get_height() > height:
                size -= 1
                font = pygame.font.Font(None, size)
            self._by_height[height] = font
        return font

    def fitting(self, text: str, width: int, largest: int, smallest: int) -> pygame.font.Font:
        """The largest font from ``largest`` down to ``smallest`` px in which ``text`` fits."""
        for height in range(largest, smallest - 1, -1):
            font = self.get(height)
            if font.size(text)[0] <= width:
                return font
        return self.get(smallest)


def ellipsize(text: str, font: pygame.font.Font, width: int, always: bool = False) -> str:
    """``text``, cut short with an ellipsis if it is wider than ``width`` (or ``always``)."""
    if not always and font.size(text)[0] <= width:
        return text
    while text and font.size(text + ELLIPSIS)[0] > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


def _split_word(word: str, font: pygame.font.Font, width: int) -> list[str]:
    """A word too wide for a line, in pieces that fit (at least one letter each)."""
    pieces: list[str] = []
    while word:
        cut = len(word)
        while cut > 1 and font.size(word[:cut])[0] > width:
            cut -= 1
        pieces.append(word[:cut])
        word = word[cut:]
    return pieces


def wrap(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``width`` pixels.

    Explicit newlines start new lines; a word wider than a line is split.
    """
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if font.size(candidate)[0] <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            pieces = _split_word(word, font, width)
            lines.extend(pieces[:-1])
            line = pieces[-1]
        lines.append(line)
    return lines


def clock_text(seconds: float) -> str:
    """``1:02:03``, ``4:59``, or tenths under ten seconds (``9.8``); never negative."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"{int(seconds * 10) / 10:.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
