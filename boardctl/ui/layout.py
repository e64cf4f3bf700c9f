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

Where the board would then draw its pieces smaller than a capital of the
smallest text (:func:`capital_px`), as the hexagon's 11 rows did at
480 × 320 (20 px cells, 16 px pieces), the banner stands under the panel
instead, beside the board, which takes the full height (25 px cells, 20 px
pieces); the banner is then as tall as its words need, up to
:data:`BESIDE_BANNER_LINES` body lines, and the panel takes the rest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
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
# A banner beside the board is the panel's width (152 px at 480 x 320): the
# longest prompt ("Choose the new piece: prev and next, then ok") takes 5 lines.
BESIDE_BANNER_LINES = 5

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
    beside: bool = False  # the banner stands under the panel, beside the board

    def fitted(self, banner_h: int) -> Layout:
        """This layout with a banner beside the board ``banner_h`` px high
        (at most its own), the panel above it taking the rest."""
        if not self.beside or banner_h >= self.banner.height:
            return self
        gap = self.banner.top - self.panel.bottom
        banner = pygame.Rect(
            self.banner.left, self.banner.bottom - banner_h, self.banner.width, banner_h
        )
        panel = pygame.Rect(
            self.panel.topleft, (self.panel.width, banner.top - gap - self.panel.top)
        )
        return replace(self, banner=banner, panel=panel)

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
    under = _arrange(size, geometry, fonts, beside=False)
    if under.view(0).piece >= capital_px(size):
        return under
    beside = _arrange(size, geometry, fonts, beside=True)
    return beside if beside.view(0).piece > under.view(0).piece else under


def capital_px(size: tuple[int, int]) -> int:
    """The height (px) of a capital of the smallest text: the least a piece
    is drawn at, since a piece too is a shape to tell apart at a glance."""
    return math.ceil(legible_px(size) * CAP_SHARE)


def _arrange(
    size: tuple[int, int], geometry: BoardGeometry, fonts: Fonts, *, beside: bool
) -> Layout:
    """The layout with the banner along the bottom of the whole screen, or
    (``beside``) under the panel, the board then taking the full height."""
    width, height = size
    edge = max(2, height // 160)
    small = legible_px(size)
    body = max(small, round(height * BODY_SHARE))
    pad = max(3, body // 4)
    lines = BESIDE_BANNER_LINES if beside else BANNER_LINES
    banner_h = lines * body + 2 * pad
    labels = max(12, round(height * LABEL_SHARE))
    label_text = round(labels * LABEL_TEXT)
    measure = fonts.get(label_text).size
    gap = max(4, width // 120)
    room_h = height - 2 * edge if beside else height - banner_h - gap - 2 * edge
    panel_min = round(width * PANEL_MIN_SHARE)
    room = pygame.Rect(edge, edge, width - panel_min - gap - 2 * edge, room_h)
    views, right, choice = _board(geometry, room, labels, measure)
    left = right + gap
    if beside:
        banner = pygame.Rect(left, height - edge - banner_h, width - edge - left, banner_h)
        panel = pygame.Rect(left, edge, banner.width, banner.top - gap - edge)
    else:
        banner = pygame.Rect(edge, height - edge - banner_h, width - 2 * edge, banner_h)
        panel = pygame.Rect(left, edge, width - edge - left, room_h)
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
        beside=beside,
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
