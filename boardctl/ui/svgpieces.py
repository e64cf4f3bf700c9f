"""The screen's piece designs as an SVG sprite sheet, for the web page.

The web page draws the same pieces as the screen (the falcon with its amber
beak included) from ``boardctl/web/static/pieces.svg``, which this module
writes, with the pages' icon (the white falcon on a dark square,
``favicon.svg``); a test checks that the shipped files are what it writes now::

    python -m boardctl.ui.svgpieces boardctl/web/static

Each piece is a ``<symbol id="wF">`` (colour, then the upper-case letter) on
the designs' 100 × 100 grid; the outline is the silhouette stroked twice as
wide as the screen's dilation, under the filled silhouette.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..colour import Colour
from ..rules import BLACK, WHITE, PieceType
from .display import DARK
from .pieces import ACCENT, DESIGNS, DETAIL, OUTLINE, PALETTES, Circle, Ellipse, Poly, Shape


def _hex(colour: Colour) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _num(value: float) -> str:
    return f"{value:g}"


def _shape(shape: Shape, attrs: str) -> str:
    if isinstance(shape, Poly):
        points = " ".join(f"{_num(x)},{_num(y)}" for x, y in shape.points)
        return f'<polygon points="{points}" {attrs}/>'
    if isinstance(shape, Circle):
        cx, cy = shape.centre
        return f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(shape.radius)}" {attrs}/>'
    assert isinstance(shape, Ellipse)
    rx, ry = shape.width / 2, shape.height / 2
    return (
        f'<ellipse cx="{_num(shape.left + rx)}" cy="{_num(shape.top + ry)}" '
        f'rx="{_num(rx)}" ry="{_num(ry)}" {attrs}/>'
    )


def _drawing(piece: PieceType, colour: int) -> list[str]:
    """One piece's shapes on the designs' 100 × 100 grid."""
    design = DESIGNS[piece]
    palette = PALETTES[colour]
    outline = _hex(palette.outline)
    parts = []
    ring = (
        f'fill="{outline}" stroke="{outline}" stroke-width="{_num(2 * OUTLINE)}" '
        'stroke-linejoin="round"'
    )
    parts += [_shape(shape, ring) for shape in design.silhouette]
    parts += [_shape(shape, f'fill="{_hex(palette.fill)}"') for shape in design.silhouette]
    parts += [_shape(shape, f'fill="{_hex(ACCENT)}"') for shape in design.accents]
    for stroke in design.strokes:
        points = " ".join(f"{_num(x)},{_num(y)}" for x, y in stroke.points)
        colour_ = _hex(ACCENT) if stroke.accent else _hex(palette.detail)
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour_}" '
            f'stroke-width="{_num(DETAIL)}" stroke-linecap="round" '
            'stroke-linejoin="round"/>'
        )
    return parts


def symbol(piece: PieceType, colour: int) -> str:
    """One piece as an SVG ``<symbol>``."""
    name = ("w" if colour == WHITE else "b") + piece.symbol.upper()
    shapes = "".join(_drawing(piece, colour))
    return f'<symbol id="{name}" viewBox="0 0 100 100">{shapes}</symbol>'


def favicon() -> str:
    """The pages' icon, as the text of ``favicon.svg``: the white falcon,
    the piece the board is named for, on the screen's dark square."""
    shapes = "".join(_drawing(PieceType.FALCON, WHITE))
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n'
        "<!-- Written by boardctl.ui.svgpieces from the screen's designs. -->\n"
        f'<rect width="100" height="100" rx="14" fill="{_hex(DARK)}"/>'
        f"{shapes}\n</svg>\n"
    )


def sprite_sheet() -> str:
    """Every piece of both colours, as the text of ``pieces.svg``."""
    symbols = "\n".join(symbol(piece, colour) for colour in (WHITE, BLACK) for piece in PieceType)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg">\n'
        "<!-- Written by boardctl.ui.svgpieces from the screen's designs. -->\n"
        f"{symbols}\n</svg>\n"
    )


if __name__ == "__main__":
    folder = Path(sys.argv[1])
    (folder / "pieces.svg").write_text(sprite_sheet(), encoding="utf-8")
    (folder / "favicon.svg").write_text(favicon(), encoding="utf-8")
