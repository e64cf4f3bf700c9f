"""Where everything goes on a screen of a given size.

The board sits on the left and fills the height (square size first), with
rank numbers to its left and file letters under it; the side panel takes the
rest of the width, but never less than :data:`PANEL_MIN_SHARE` of it.  Text
sizes follow the screen height and the panel width, with a floor that keeps
the panel readable at arm's length (18 px lines on a 480 × 320 screen).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from .size import MIN_SIZE

PANEL_MIN_SHARE = 0.18     # of the screen width
PANEL_MIN_PX = 80
LABEL_SHARE = 0.05         # label strip, of the screen height
BODY_SHARE = 0.06          # body text line, of the screen height
BODY_MIN_PX = 18           # arm's length on a 3.5" 480 × 320 screen


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
    pad: int                 # spacing inside the panel
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
    labels = max(12, round(height * LABEL_SHARE))
    panel_min = max(PANEL_MIN_PX, round(width * PANEL_MIN_SHARE))
    square = min(
        (height - labels - 2 * edge) // ranks,
        (width - labels - panel_min - 2 * edge) // files,
    )
    square = max(4, square)
    board_h = square * ranks
    top = (height - board_h - labels) // 2
    board = pygame.Rect(edge + labels, top, square * files, board_h)
    gap = max(4, width // 120)
    panel = pygame.Rect(board.right + gap, edge, 0, height - 2 * edge)
    panel.width = width - edge - panel.left
    body = max(BODY_MIN_PX, min(round(height * BODY_SHARE), round(panel.width * 0.22)))
    return Layout(
        size=(width, height), files=files, ranks=ranks, square=square, board=board,
        labels=labels, panel=panel, pad=max(3, panel.width // 28),
        body=body, big=round(body * 1.4), small=max(13, round(body * 0.75)),
    )
