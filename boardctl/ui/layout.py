"""Where everything goes on a screen of a given size.

Three areas: the board on the left with rank numbers beside it and file
letters under it; the side panel on its right (players and clocks, the
level and the evaluation, the move list); and the banner along the bottom
of the whole screen, which says the one thing that matters now (the
engine's move to carry out, a fix, a choice, the result, whose turn).  The
banner holds two lines of body text, so a prompt is read in whole words
even on a 480 × 320 screen; the board takes what height is left, and the
panel keeps at least :data:`PANEL_MIN_SHARE` of the width so that a move
list row ("12. Nxe5+ Fxe5+") fits.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from .size import MIN_SIZE

PANEL_MIN_SHARE = 0.30     # of the screen width
LABEL_SHARE = 0.045        # label strip, of the screen height
BODY_SHARE = 0.06          # body text line, of the screen height
BODY_MIN_PX = 18           # arm's length on a 3.5" 480 × 320 screen
BANNER_LINES = 2


@dataclass(frozen=True)
class Layout:
    """Rectangles and text heights for one screen size and board shape."""

    size: tuple[int, int]
    files: int
    ranks: int
    square: int              # side of one square, px
    board: pygame.Rect       # the squares only
    labels: int              # width of the rank-number strip / height of the file strip
    panel: pygame.Rect
    banner: pygame.Rect
    pad: int                 # spacing inside the panel and the banner
    body: int                # line heights, px
    big: int
    small: int

    def square_rect(self, column: int, row: int) -> pygame.Rect:
        """Screen rect of the square at ``column`` from the left, ``row`` from the top."""
        return pygame.Rect(
            self.board.left + column * self.square, self.board.top + row * self.square,
            self.square, self.square,
        )


def compute_layout(size: tuple[int, int], files: int, ranks: int) -> Layout:
    """The layout of a ``files`` × ``ranks`` board on a screen of ``size`` pixels.

    :raises ValueError: when the screen is smaller than :data:`MIN_SIZE`.
    """
    width, height = size
    if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
        raise ValueError(f"screen {width}x{height} is smaller than {MIN_SIZE[0]}x{MIN_SIZE[1]}")
    edge = max(2, height // 160)
    body = max(BODY_MIN_PX, round(height * BODY_SHARE))
    pad = max(3, body // 4)
    banner_h = BANNER_LINES * body + 2 * pad
    banner = pygame.Rect(edge, height - edge - banner_h, width - 2 * edge, banner_h)
    labels = max(12, round(height * LABEL_SHARE))
    gap = max(4, width // 120)
    room_h = banner.top - gap - edge
    panel_min = round(width * PANEL_MIN_SHARE)
    square = min((room_h - labels) // ranks, (width - labels - panel_min - gap - 2 * edge) // files)
    square = max(4, square)
    board_h = square * ranks
    top = edge + (room_h - board_h - labels) // 2
    board = pygame.Rect(edge + labels, top, square * files, board_h)
    panel = pygame.Rect(board.right + gap, edge, 0, room_h)
    panel.width = width - edge - panel.left
    return Layout(
        size=(width, height), files=files, ranks=ranks, square=square, board=board,
        labels=labels, panel=panel, banner=banner, pad=pad,
        body=body, big=round(body * 1.4), small=max(13, round(body * 0.78)),
    )
