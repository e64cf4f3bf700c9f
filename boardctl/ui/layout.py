"""Where everything goes on a screen of a given size.

Three areas: the board on the left with its cells' names along its edges
(:mod:`boardctl.ui.boardview` lays out squares and hexagons alike); the
side panel on its right (players and clocks, the level and the evaluation,
the move list); and the banner along the bottom of the whole screen, which
says the one thing that matters now (the engine's move to carry out, a fix,
a choice, the result, whose turn).  The banner holds two lines of body
text, so a prompt is read in whole words even on a 480 × 320 screen; the
board takes what height is left, and the panel keeps at least
:data:`PANEL_MIN_SHARE` of the width so that a move list row
("12. Nxe5+ Fxe5+") fits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import singledispatch

import pygame

from ..rules.boardgeometry import BoardGeometry
from ..rules.geometry import Geometry
from ..rules.hexgeo import HexGeometry
from .boardview import BoardView, HexView, Measure, square_views
from .size import MIN_SIZE
from .text import Fonts

PANEL_MIN_SHARE = 0.30  # of the screen width
LABEL_SHARE = 0.045  # label strip, of the screen height
LABEL_TEXT = 0.85  # a label's text, of the strip
BODY_SHARE = 0.06  # body text line, of the screen height
BANNER_LINES = 2

# The smallest text: a capital letter 16 minutes of arc high (the minimum of
# ISO 9241-303 and ANSI/HFES 100-2007 for reading on a screen; 20 to 22 is
# their preferred size) seen from the player's seat, 55 cm from a screen at
# the board's edge (docs/design/screen.md).
VIEWING_DISTANCE_MM = 550.0
MIN_CAP_ARC_MINUTES = 16.0
CAP_SHARE = 0.72  # a capital's height, of a line of pygame's default font (measured)
# The smallest screen sold at each size (the official Pi touch screens and
# the common HATs), so that text is large enough on any of them; other sizes
# are taken at DEFAULT_PPI, a 3.5" screen's density.
SCREEN_INCHES = {(480, 320): 3.5, (800, 480): 5.0}
DEFAULT_PPI = 165.0
# On screens too small for the minimum, text takes at most this share of
# the height, so that the board keeps room.
LEGIBLE_MAX_SHARE = 0.085


def pixel_pitch_mm(size: tuple[int, int]) -> float:
    """Millimetres a pixel, for the smallest screen of this size."""
    inches = SCREEN_INCHES.get(size)
    if inches is None:
        return 25.4 / DEFAULT_PPI
    return inches * 25.4 / math.hypot(*size)


def legible_px(size: tuple[int, int]) -> int:
    """The smallest line height (px) of text the screen shows: its capitals
    :data:`MIN_CAP_ARC_MINUTES` high at :data:`VIEWING_DISTANCE_MM`."""
    cap_mm = VIEWING_DISTANCE_MM * math.tan(math.radians(MIN_CAP_ARC_MINUTES / 60))
    wanted = math.ceil(cap_mm / pixel_pitch_mm(size) / CAP_SHARE)
    return min(wanted, round(size[1] * LEGIBLE_MAX_SHARE))


@dataclass(frozen=True)
class Layout:
    """Rectangles and text heights for one screen size and board shape."""

    size: tuple[int, int]
    square: int  # a cell's height, px (the side of a square)
    choice: int  # the side of a promotion choice's box, px
    board: pygame.Rect  # the cells only
    labels: int  # the label strip's width
    label_text: int  # the labels' line height, px
    panel: pygame.Rect
    banner: pygame.Rect
    pad: int  # spacing inside the panel and the banner
    body: int  # line heights, px
    big: int
    small: int
    views: tuple[BoardView, BoardView]  # the board with White, with Black at the bottom

    def view(self, orientation: int) -> BoardView:
        """The board laid out with ``orientation``'s pieces at the bottom."""
        return self.views[orientation]


def compute_layout(size: tuple[int, int], geometry: BoardGeometry, fonts: Fonts) -> Layout:
    """The layout of a board of ``geometry`` on a screen of ``size`` pixels
    (``fonts`` measure the cells' names).

    :raises ValueError: when the screen is smaller than :data:`MIN_SIZE`.
    """
    width, height = size
    if width < MIN_SIZE[0] or height < MIN_SIZE[1]:
        raise ValueError(f"screen {width}x{height} is smaller than {MIN_SIZE[0]}x{MIN_SIZE[1]}")
    edge = max(2, height // 160)
    small = legible_px(size)
    body = max(small, round(height * BODY_SHARE))
    pad = max(3, body // 4)
    banner_h = BANNER_LINES * body + 2 * pad
    banner = pygame.Rect(edge, height - edge - banner_h, width - 2 * edge, banner_h)
    labels = max(12, round(height * LABEL_SHARE))
    label_text = round(labels * LABEL_TEXT)
    measure = fonts.get(label_text).size
    gap = max(4, width // 120)
    room_h = banner.top - gap - edge
    panel_min = round(width * PANEL_MIN_SHARE)
    room = pygame.Rect(edge, edge, width - panel_min - gap - 2 * edge, room_h)
    views, right, choice = _board(geometry, room, labels, measure)
    panel = pygame.Rect(right + gap, edge, 0, room_h)
    panel.width = width - edge - panel.left
    return Layout(
        size=(width, height),
        square=views[0].cell,
        choice=choice,
        board=views[0].board,
        labels=labels,
        label_text=label_text,
        panel=panel,
        banner=banner,
        pad=pad,
        body=body,
        big=round(body * 1.4),
        small=small,
        views=views,
    )


_Board = tuple[tuple[BoardView, BoardView], int, int]


# One drawing per shape, chosen by the geometry's type.
@singledispatch
def _board(geometry: BoardGeometry, room: pygame.Rect, labels: int, measure: Measure) -> _Board:
    """The two views of the board, as large as fits in ``room`` and centred
    up and down in it; where the board ends on the right; the side of a
    promotion choice's box."""
    raise TypeError(f"no board view for {geometry!r}")


@_board.register
def _(geometry: HexGeometry, room: pygame.Rect, labels: int, measure: Measure) -> _Board:
    cell = HexView.largest(geometry, room.size, measure=measure)
    views = HexView.pair(geometry, cell, measure=measure)
    taken = views[0].bounds.union(views[1].bounds)
    views = HexView.pair(
        geometry,
        cell,
        measure=measure,
        topleft=(room.left, room.top + (room.height - taken.height) // 2),
    )
    # The hexagon's cells are small: its choices take the share of the
    # board's height they take on the 8-rank board (1.5 of 8 squares).
    right = max(view.bounds.right for view in views)
    return views, right, round(views[0].board.height * 1.5 / 8)


@_board.register
def _(geometry: Geometry, room: pygame.Rect, labels: int, measure: Measure) -> _Board:
    files, ranks = geometry.files, geometry.ranks
    square = max(4, min((room.height - labels) // ranks, (room.width - labels) // files))
    board_h = square * ranks
    top = room.top + (room.height - board_h - labels) // 2
    views = square_views(
        geometry, pygame.Rect(room.left + labels, top, square * files, board_h), labels
    )
    return views, views[0].board.right, round(square * 1.5)
