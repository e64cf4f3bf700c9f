"""Pieces drawn from vector shapes, so they never depend on a font's glyphs.

Each piece is a silhouette (a union of polygons, circles and ellipses on a
100 × 100 grid, y down) plus a few detail strokes.  A sprite is drawn four
times too large, outlined by dilating the silhouette's mask, and scaled down
smoothly: anti-aliased edges without ``gfxdraw``.

The falcon is a bird with spread wings, a fanned tail and an amber hooked
beak: wide where every orthodox piece is narrow, with no plinth, so it cannot
be taken for a queen, bishop or knight even at 30 pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pygame

from ..colour import Colour
from ..rules import WHITE, PieceType

Point = tuple[float, float]

SUPERSAMPLE = 4
OUTLINE = 3.2  # outline width, in grid units (of 100)
DETAIL = 3.0  # width of detail strokes, in grid units


@dataclass(frozen=True)
class Poly:
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Circle:
    centre: Point
    radius: float


@dataclass(frozen=True)
class Ellipse:
    left: float
    top: float
    width: float
    height: float


Shape = Poly | Circle | Ellipse


@dataclass(frozen=True)
class Stroke:
    """A detail line drawn over the fill; ``accent`` draws it in the accent colour."""

    points: tuple[Point, ...]
    accent: bool = False


@dataclass(frozen=True)
class Design:
    silhouette: tuple[Shape, ...]
    strokes: tuple[Stroke, ...] = ()
    accents: tuple[Shape, ...] = ()  # filled in the accent colour (the falcon's beak)


@dataclass(frozen=True)
class Palette:
    fill: Colour
    outline: Colour
    detail: Colour


PALETTES = {
    WHITE: Palette(fill=(250, 248, 240), outline=(22, 22, 22), detail=(22, 22, 22)),
    1: Palette(fill=(40, 40, 44), outline=(8, 8, 8), detail=(215, 215, 215)),
}
ACCENT: Colour = (236, 160, 24)


def _rect(left: float, top: float, right: float, bottom: float) -> Poly:
    return Poly(((left, top), (right, top), (right, bottom), (left, bottom)))


def _mirror(points: tuple[Point, ...]) -> tuple[Point, ...]:
    return tuple((100 - x, y) for x, y in reversed(points))


_PLINTH = _rect(23, 79, 77, 90)
_PLINTH_LINE = Stroke(((27, 79), (73, 79)))

# Left wing, shoulder to tip and back along the trailing edge's three feathers.
_WING = (
    (45, 37),
    (30, 30),
    (5, 10),
    (12, 30),
    (6, 35),
    (17, 43),
    (11, 50),
    (25, 53),
    (23, 60),
    (44, 61),
)
_TAIL = (
    (43, 70),
    (57, 70),
    (66, 89),
    (58, 86),
    (50, 91),
    (42, 86),
    (34, 89),
)

DESIGNS: dict[PieceType, Design] = {
    PieceType.PAWN: Design(
        silhouette=(
            Circle((50, 31), 13),
            Ellipse(35, 43, 30, 9),
            Poly(((43, 48), (57, 48), (66, 80), (34, 80))),
            _PLINTH,
        ),
        strokes=(_PLINTH_LINE,),
    ),
    PieceType.ROOK: Design(
        silhouette=(
            Poly(
                (
                    (27, 14),
                    (38, 14),
                    (38, 22),
                    (45, 22),
                    (45, 14),
                    (55, 14),
                    (55, 22),
                    (62, 22),
                    (62, 14),
                    (73, 14),
                    (73, 34),
                    (27, 34),
                )
            ),
            Poly(((33, 34), (67, 34), (69, 79), (31, 79))),
            _PLINTH,
        ),
        strokes=(Stroke(((33, 34), (67, 34))), _PLINTH_LINE),
    ),
    PieceType.KNIGHT: Design(
        silhouette=(
            Poly(
                (
                    (33, 79),
                    (36, 62),
                    (45, 50),
                    (35, 49),
                    (24, 52),
                    (16, 46),
                    (16, 38),
                    (30, 26),
                    (38, 17),
                    (42, 7),
                    (50, 15),
                    (58, 14),
                    (70, 22),
                    (77, 38),
                    (78, 60),
                    (74, 79),
                )
            ),
            _PLINTH,
        ),
        strokes=(
            Stroke(((36, 27), (41, 27))),  # eye
            Stroke(((58, 18), (68, 30), (72, 46))),  # mane
            _PLINTH_LINE,
        ),
    ),
    PieceType.BISHOP: Design(
        silhouette=(
            Circle((50, 12), 6),
            Poly(((50, 15), (39, 29), (61, 29))),
            Ellipse(35, 20, 30, 42),
            _rect(38, 58, 62, 65),
            Poly(((42, 65), (58, 65), (67, 79), (33, 79))),
            _PLINTH,
        ),
        strokes=(
            Stroke(((57, 30), (47, 44))),
            Stroke(((39, 60), (61, 60))),
            _PLINTH_LINE,
        ),
    ),
    PieceType.QUEEN: Design(
        silhouette=(
            Circle((16, 22), 6),
            Circle((33, 15), 6),
            Circle((50, 11), 6),
            Circle((67, 15), 6),
            Circle((84, 22), 6),
            Poly(
                (
                    (16, 22),
                    (32, 48),
                    (33, 15),
                    (43, 45),
                    (50, 11),
                    (57, 45),
                    (67, 15),
                    (68, 48),
                    (84, 22),
                    (72, 67),
                    (28, 67),
                )
            ),
            Poly(((29, 66), (71, 66), (74, 79), (26, 79))),
            _PLINTH,
        ),
        strokes=(Stroke(((29, 67), (71, 67))), _PLINTH_LINE),
    ),
    PieceType.KING: Design(
        silhouette=(
            _rect(45.5, 4, 54.5, 27),
            _rect(39, 9.5, 61, 18),
            Ellipse(22, 27, 56, 30),
            Poly(((27, 43), (73, 43), (68, 67), (32, 67))),
            Poly(((31, 66), (69, 66), (73, 79), (27, 79))),
            _PLINTH,
        ),
        strokes=(Stroke(((32, 67), (68, 67))), Stroke(((50, 29), (50, 55))), _PLINTH_LINE),
    ),
    PieceType.FALCON: Design(
        silhouette=(
            Poly(_WING),
            Poly(_mirror(_WING)),
            Ellipse(39, 28, 22, 47),
            Poly(_TAIL),
            Circle((50, 22), 9),
            Poly(((44, 25), (56, 25), (53, 37), (49, 40))),
        ),
        strokes=(
            Stroke(((41, 45), (12, 31))),
            Stroke(((59, 45), (88, 31))),
            Stroke(((42, 54), (20, 46))),
            Stroke(((58, 54), (80, 46))),
        ),
        accents=(Poly(((45.5, 26), (54.5, 26), (52, 35.5), (49.5, 37.5))),),
    ),
}


def _draw_shape(surface: pygame.Surface, shape: Shape, colour: Colour, unit: float) -> None:
    if isinstance(shape, Poly):
        pygame.draw.polygon(surface, colour, [(x * unit, y * unit) for x, y in shape.points])
    elif isinstance(shape, Circle):
        cx, cy = shape.centre
        pygame.draw.circle(surface, colour, (cx * unit, cy * unit), shape.radius * unit)
    else:
        rect = pygame.Rect(
            round(shape.left * unit),
            round(shape.top * unit),
            round(shape.width * unit),
            round(shape.height * unit),
        )
        pygame.draw.ellipse(surface, colour, rect)


def _disc(radius: int) -> pygame.Mask:
    disc = pygame.Mask((2 * radius + 1, 2 * radius + 1))
    for y in range(-radius, radius + 1):
        for x in range(-radius, radius + 1):
            if x * x + y * y <= radius * radius:
                disc.set_at((x + radius, y + radius))
    return disc


def _dilate(mask: pygame.Mask, radius: int) -> pygame.Mask:
    out = pygame.Mask(mask.get_size())
    return mask.convolve(_disc(radius), out, (-radius, -radius))


@cache
def sprite(piece: PieceType, colour: int, size: int) -> pygame.Surface:
    """The piece as a ``size`` × ``size`` surface with alpha (cached)."""
    big = size * SUPERSAMPLE
    unit = big / 100
    palette = PALETTES[colour]
    design = DESIGNS[piece]
    shape = pygame.Surface((big, big), pygame.SRCALPHA)
    for part in design.silhouette:
        _draw_shape(shape, part, (255, 255, 255), unit)
    filled = pygame.mask.from_surface(shape)
    outlined = _dilate(filled, max(1, round(OUTLINE * unit)))
    canvas = outlined.to_surface(
        setcolor=(*palette.outline, 255),
        unsetcolor=(0, 0, 0, 0),
    )
    canvas.blit(filled.to_surface(setcolor=(*palette.fill, 255), unsetcolor=(0, 0, 0, 0)), (0, 0))
    for part in design.accents:
        _draw_shape(canvas, part, ACCENT, unit)
    width = max(1, round(DETAIL * unit))
    for stroke in design.strokes:
        colour_ = ACCENT if stroke.accent else palette.detail
        points = [(x * unit, y * unit) for x, y in stroke.points]
        pygame.draw.lines(canvas, colour_, False, points, width)
        for point in (points[0], points[-1]):
            pygame.draw.circle(canvas, colour_, point, width / 2)
    return pygame.transform.smoothscale(canvas, (size, size))
