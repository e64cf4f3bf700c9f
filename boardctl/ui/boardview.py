"""Boards in pixels: where each cell is drawn, which cell is under a point,
and where the names along the edges go.

The status screen and the simulator's wooden board draw every board through
a view, so neither assumes files × ranks:

* :class:`SquareView` lays a rectangular board out in rows of squares, with
  the file letters under it and the rank numbers on its left.
* :class:`HexView` lays a hexagon out in flat-topped cells (RULES-HEX.md,
  section 2): files run up the screen, each rank is a straight line rising
  to the right.  Each file's letter stands under its lowest cell; each
  rank's number stands beyond the end of the rank that reaches further to
  the side of the board (both ends for the rank through the centre).

A view is built for one orientation: ``flip`` turns the board half round
(Black at the bottom).  Each cell has a shade, 0 (light), 1 (medium) or 2
(dark), an index into a palette of three: squares are light or dark, the
hexagon's three colours are all three (its centre is medium).

Example::

    view = HexView(FALCON_HEX, cell=32, measure=font.size)
    view.cell_at(view.centre(60)) == 60
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Protocol

import pygame

from ..colour import Colour
from ..rules.geometry import Geometry
from ..rules.hexgeo import HexGeometry
from ..rules.hexlattice import CORNERS, DARK, HEX_SHADES, LIGHT, MEDIUM, lattice, rank_ends

# What a cell is filled with: a colour, or one with alpha on a veil surface.
Paint = Colour | tuple[int, int, int, int]
Point = tuple[int, int]
Measure = Callable[[str], tuple[int, int]]  # a label's (width, height) in px
Label = tuple[str, Point]  # text and the centre it is drawn at

LABEL_GAP = 2  # px between a cell's edge and its name
SQRT3 = math.sqrt(3)
# A piece on a hexagon is drawn this share of the cell's height: at the full
# height its crown stood out past the slanting sides, and on the top row looked
# cut off by the screen's edge.  (The largest square inside a flat-topped
# hexagon is 2 / (1 + sqrt 3) = 0.73 of its height; a piece's outline is
# narrower than its square.)
HEX_PIECE_SHARE = 0.8
# A piece on a square keeps a pixel or two clear of its edges, so that the
# square's colour and its tint (the last move, check, a fix) show all round
# it on a small screen too (the falcon's wings reach its sprite's corners).
SQUARE_PIECE_SHARE = 0.92


class BoardView(Protocol):
    """One board laid out on the screen for one orientation."""

    cells: int  # how many cells: they are 0 .. cells - 1
    cell: int  # a cell's height in px (the side of a square)
    piece: int  # the side of the square a piece is drawn in, px
    board: pygame.Rect  # the cells' bounding box
    bounds: pygame.Rect  # the cells and their labels

    def centre(self, cell: int) -> Point: ...
    def rect(self, cell: int) -> pygame.Rect: ...
    def cell_at(self, point: Point) -> int | None: ...
    def shade(self, cell: int) -> int: ...
    def labels(self) -> Sequence[Label]: ...
    def fill(self, surface: pygame.Surface, cell: int, colour: Paint) -> None: ...
    def outline(self, surface: pygame.Surface, cell: int, colour: Colour, width: int) -> None: ...


def piece_box(view: BoardView, cell: int, inset: int = 0) -> pygame.Rect:
    """The square a piece is drawn in: centred on the cell, ``inset`` px
    inside the view's piece size."""
    side = view.piece - 2 * inset
    x, y = view.centre(cell)
    return pygame.Rect(x - side // 2, y - side // 2, side, side)


class SquareView:
    """A rectangular board whose squares fill ``board``, with ``labels`` px
    strips for the names on its left and under it."""

    def __init__(
        self, geometry: Geometry, board: pygame.Rect, labels: int, flip: bool = False
    ) -> None:
        self.geometry = geometry
        self.cells = geometry.size
        self.cell = board.width // geometry.files
        self.piece = round(self.cell * SQUARE_PIECE_SHARE)
        self.board = pygame.Rect(
            board.topleft, (self.cell * geometry.files, self.cell * geometry.ranks)
        )
        self.bounds = self.board.inflate(2 * labels, 2 * labels)
        self.label_strip = labels
        self.flip = flip

    def rect(self, cell: int) -> pygame.Rect:
        geo = self.geometry
        file, rank = geo.file_of(cell), geo.rank_of(cell)
        column = geo.files - 1 - file if self.flip else file
        row = rank if self.flip else geo.ranks - 1 - rank
        return pygame.Rect(
            self.board.left + column * self.cell,
            self.board.top + row * self.cell,
            self.cell,
            self.cell,
        )

    def centre(self, cell: int) -> Point:
        rect = self.rect(cell)
        return rect.left + self.cell // 2, rect.top + self.cell // 2

    def cell_at(self, point: Point) -> int | None:
        if not self.board.collidepoint(point):
            return None
        geo = self.geometry
        column = (point[0] - self.board.left) // self.cell
        row = (point[1] - self.board.top) // self.cell
        if self.flip:
            return geo.square(geo.files - 1 - column, row)
        return geo.square(column, geo.ranks - 1 - row)

    def shade(self, cell: int) -> int:
        return LIGHT if self.geometry.is_light(cell) else DARK

    def labels(self) -> list[Label]:
        geo, half = self.geometry, self.label_strip // 2
        out = [
            (geo.name(file)[0], (self.rect(file).centerx, self.board.bottom + half))
            for file in range(geo.files)
        ]
        out += [
            (str(rank + 1), (self.board.left - half, self.rect(geo.square(0, rank)).centery))
            for rank in range(geo.ranks)
        ]
        return out

    def fill(self, surface: pygame.Surface, cell: int, colour: Paint) -> None:
        surface.fill(colour, self.rect(cell))

    def outline(self, surface: pygame.Surface, cell: int, colour: Colour, width: int) -> None:
        pygame.draw.rect(surface, colour, self.rect(cell), width)


__all__ = ["DARK", "HEX_SHADES", "LIGHT", "MEDIUM", "BoardView", "HexView", "SquareView"]


class HexView:
    """A hexagonal board of flat-topped cells ``cell`` px high (flat to flat).

    ``measure`` sizes the labels (a font's ``size``), ``margin`` is room left
    around the cells and labels, and the whole drawing starts at ``topleft``.
    """

    def __init__(
        self,
        geometry: HexGeometry,
        cell: float,
        *,
        measure: Measure,
        flip: bool = False,
        origin: tuple[float, float] = (0.0, 0.0),
        margin: int = 0,
    ) -> None:
        self.geometry = geometry
        self.cells = geometry.size
        self.flip = flip
        self.radius = cell / SQRT3
        self.cell = round(cell)
        self.piece = round(cell * HEX_PIECE_SHARE)
        self.origin = origin  # the centre of the middle cell, px
        self._measure = measure
        self._layout()
        rects = [pygame.Rect(self.board)]
        for text, centre in self._labels:
            rect = pygame.Rect((0, 0), measure(text))
            rect.center = centre
            rects.append(rect)
        self.bounds = rects[0].unionall(rects[1:]).inflate(2 * margin, 2 * margin)

    @classmethod
    def pair(
        cls,
        geometry: HexGeometry,
        cell: float,
        *,
        measure: Measure,
        topleft: Point = (0, 0),
        margin: int = 0,
    ) -> tuple[HexView, HexView]:
        """The views with White and with Black at the bottom, on the same
        cells, with everything either draws starting at ``topleft``."""
        both = [
            cls(geometry, cell, measure=measure, flip=flip, margin=margin) for flip in (False, True)
        ]
        around = both[0].bounds.union(both[1].bounds)
        origin = (topleft[0] - around.left, topleft[1] - around.top)
        white, black = (
            cls(geometry, cell, measure=measure, flip=flip, origin=origin, margin=margin)
            for flip in (False, True)
        )
        return white, black

    @classmethod
    def largest(
        cls, geometry: HexGeometry, room: tuple[int, int], *, measure: Measure, margin: int = 0
    ) -> float:
        """The largest cell height (px) at which both views fit in ``room``."""
        low, high = 4.0, float(max(room))
        for _ in range(14):  # to a twentieth of a pixel on rooms up to 800 px
            mid = (low + high) / 2
            white, black = (
                cls(geometry, mid, measure=measure, flip=flip, margin=margin)
                for flip in (False, True)
            )
            around = white.bounds.union(black.bounds)
            if around.width <= room[0] and around.height <= room[1]:
                low = mid
            else:
                high = mid
        return low

    # ------------------------------------------------------------- lattice
    def _axial(self, cell: int) -> tuple[int, int]:
        q, r = self.geometry.axial(cell)
        return (-q, -r) if self.flip else (q, r)

    def _point(self, x: int, y: int) -> Point:
        """A lattice point in pixels: ``x`` half radii across, ``y`` half cells down."""
        # floor(v + 0.5), not round(): the same fraction rounds the same way
        # wherever the origin is, so a view moved by whole pixels moves whole.
        return (
            math.floor(self.origin[0] + x * self.radius / 2 + 0.5),
            math.floor(self.origin[1] + y * self.radius * SQRT3 / 2 + 0.5),
        )

    def _layout(self) -> None:
        self._centres: list[Point] = []
        self._polygons: list[list[Point]] = []
        for cell in range(self.cells):
            q, r = self._axial(cell)
            x, y = lattice(q, r)
            self._centres.append(self._point(x, y))
            self._polygons.append([self._point(x + dx, y + dy) for dx, dy in CORNERS])
        xs = [x for poly in self._polygons for x, _ in poly]
        ys = [y for poly in self._polygons for _, y in poly]
        self.board = pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
        self._labels = self._place_labels()

    # ------------------------------------------------------------- labels
    def _place_labels(self) -> list[Label]:
        """Each file's letter in a row under the board, in the file's column
        (as the seed's diagram has them); each rank's number beyond the end
        of the rank that lies further out (both ends on a tie): beside the
        end cell on the board's straight sides, else in the next place
        along the rank (a trimmed corner, or outside the hexagon)."""
        geo = self.geometry
        columns: dict[str, int] = {}
        ranks: dict[str, list[int]] = {}
        for cell in range(self.cells):
            name = geo.name(cell)
            letters = name.rstrip("0123456789")
            columns[letters] = self._centres[cell][0]
            ranks.setdefault(name[len(letters) :], []).append(cell)
        out: list[Label] = []
        for letters, x in columns.items():
            height = self._measure(letters)[1]
            out.append((letters, (x, math.floor(self.board.bottom + LABEL_GAP + height / 2))))
        for number, members in ranks.items():
            out += self._rank_labels(number, members)
        return out

    def _rank_labels(self, number: str, members: list[int]) -> list[Label]:
        width = self._measure(number)[0]
        xs = [x for x, _ in self._centres]
        middle, sides = (min(xs) + max(xs)) / 2, (min(xs), max(xs))
        points = [lattice(q, r) for q, r in map(self._axial, members)]
        ends = []  # (how far out, where the label goes)
        for index, (dx, dy) in rank_ends(points):
            x, y = points[index]
            ex, ey = self._centres[members[index]]
            if dx and ex in sides and (ex > middle) == (dx > 0):
                sign = 1 if dx > 0 else -1
                spot = (math.floor(ex + sign * (self.radius + LABEL_GAP + width / 2) + 0.5), ey)
                ends.append((abs(ex + sign * 1.5 * self.radius - middle), spot))
            else:
                spot = self._point(x + dx, y + dy)
                ends.append((abs(spot[0] - middle), spot))
        reach = max(far for far, _ in ends)
        return [(number, spot) for far, spot in ends if far > reach - self.radius / 2]

    # ------------------------------------------------------------- the view
    def centre(self, cell: int) -> Point:
        return self._centres[cell]

    def polygon(self, cell: int) -> list[Point]:
        return self._polygons[cell]

    def rect(self, cell: int) -> pygame.Rect:
        xs = [x for x, _ in self._polygons[cell]]
        ys = [y for _, y in self._polygons[cell]]
        return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)

    def cell_at(self, point: Point) -> int | None:
        # Pixels to fractional axial coordinates, then to the nearest cell
        # centre by rounding in cube coordinates (q + r + s = 0).
        fq = (point[0] - self.origin[0]) / (1.5 * self.radius)
        fr = -(point[1] - self.origin[1]) / (SQRT3 * self.radius) - fq / 2
        fs = -fq - fr
        q, r, s = round(fq), round(fr), round(fs)
        dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        if self.flip:
            q, r = -q, -r
        return self.geometry.cell_at(q, r)

    def shade(self, cell: int) -> int:
        return HEX_SHADES[self.geometry.colour(cell)]

    def labels(self) -> list[Label]:
        return self._labels

    def fill(self, surface: pygame.Surface, cell: int, colour: Paint) -> None:
        pygame.draw.polygon(surface, colour, self._polygons[cell])

    def outline(self, surface: pygame.Surface, cell: int, colour: Colour, width: int) -> None:
        """A band ``width`` px wide just inside the cell's edge, with clean corners."""
        rect = self.rect(cell)
        band = pygame.Surface(rect.size, pygame.SRCALPHA)
        outer = [(x - rect.left, y - rect.top) for x, y in self._polygons[cell]]
        cx, cy = self._centres[cell][0] - rect.left, self._centres[cell][1] - rect.top
        shrink = max(0.0, 1 - width / (self.cell / 2))
        inner = [(cx + (x - cx) * shrink, cy + (y - cy) * shrink) for x, y in outer]
        pygame.draw.polygon(band, colour, outer)
        pygame.draw.polygon(band, (0, 0, 0, 0), inner)
        surface.blit(band, rect)


def square_views(
    geometry: Geometry, board: pygame.Rect, labels: int
) -> tuple[SquareView, SquareView]:
    """The views of a rectangular board with White and with Black at the bottom."""
    return SquareView(geometry, board, labels), SquareView(geometry, board, labels, flip=True)
