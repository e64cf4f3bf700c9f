"""The board as the page draws it: every cell's centre, outline and shade, the
names along the edges, and which cells each FEN rank lists, for any board
shape.  The page's script (``static/board.js``) only scales and paints this.

The document (``"board"`` in ``/api/state`` and in ``/api/games/<id>``)::

    {"shape": "square" | "hex", "width": W, "height": H, "cell": 100, "font": F,
     "corners": [[dx, dy], ...],          # a cell's outline around its centre
     "cells": [[name, cx, cy, shade], ...],   # index = cell number
     "rows": [[cell, ...], ...],          # the FEN's ranks, first one first
     "labels": [[text, x, y], ...]}       # text centred on x, baseline at y,
                                          # "font" units high

Units are SVG user units with a cell ``cell`` high (a square's side, a
hexagon's height flat to flat); ``shade`` is ``"light"``, ``"medium"`` or
``"dark"``.  ``flip`` lays the board out with Black at the bottom.  Hexagons
use :mod:`boardctl.rules.hexlattice`, the lattice the screen draws them on.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache, singledispatch
from typing import Any

from ..rules import get_variant
from ..rules.boardgeometry import BoardGeometry
from ..rules.geometry import Geometry
from ..rules.hexgeo import HexGeometry
from ..rules.hexlattice import CORNERS, HEX_SHADES, lattice, rank_ends

CELL = 100
HEX_RADIUS = CELL / math.sqrt(3)  # a flat-topped hexagon CELL high, centre to corner
SHADE_NAMES = ("light", "medium", "dark")  # indexed by the screen's shades
# The names along the edges are read on a phone too: at least MIN_LABEL_PX
# high (the page's smallest text is 0.8rem, 12.8 px) where the board is
# PHONE_BOARD_PX wide (on a 360 px phone, the narrowest in common use, with
# the evaluation bar beside it, the board is 316.3 px wide in Chromium).
# Each board's font is the smallest that does, in the board's units
# (:func:`_readable`); a wider screen draws them larger with the board.  At
# the old 18 units the square board's names were 6 px on a 360 px phone.
MIN_LABEL_PX = 12.0
PHONE_BOARD_PX = 316.0
BASELINE_SHARE = 0.36  # from a name's centre down to its baseline, of the font size
# The square board's strip for the names (left and below), of the font size:
# room for two digits ("10") and a gap either side.
STRIP_SHARE = 1.4
CHAR_WIDTH = 0.6  # a digit's or letter's width, in font sizes, generously
LABEL_GAP = 3
EDGE = 4  # room round the hexagon's labels


@cache
def board_layout(variant: str, flip: bool = False) -> dict[str, Any]:
    """The layout of ``variant``'s board (see the module's docstring).

    :raises BoardctlError: for an unknown variant.
    """
    return _layout(get_variant(variant).geometry, flip)


# One drawing per shape, chosen by the geometry's type.
@singledispatch
def _layout(geo: BoardGeometry, flip: bool) -> dict[str, Any]:
    raise TypeError(f"no page layout for {geo!r}")


def _rank_name(geo: BoardGeometry, cell: int) -> tuple[str, str]:
    name = geo.name(cell)
    letters = name.rstrip("0123456789")
    return letters, name[len(letters) :]


def _readable(width: Callable[[int], float]) -> int:
    """The smallest font size, in whole units, at which a drawing
    ``width(font)`` units wide shows its names :data:`MIN_LABEL_PX` high
    when it is :data:`PHONE_BOARD_PX` wide."""
    font = 1
    while font * PHONE_BOARD_PX < MIN_LABEL_PX * width(font):
        font += 1
    return font


def _strip(font: int) -> int:
    return math.ceil(STRIP_SHARE * font)


def _baseline(font: int) -> int:
    return round(BASELINE_SHARE * font)


@_layout.register
def _square(geo: Geometry, flip: bool) -> dict[str, Any]:
    files, ranks = geo.files, geo.ranks
    font = _readable(lambda f: files * CELL + _strip(f))
    margin, baseline = _strip(font), _baseline(font)
    width, height = files * CELL + margin, ranks * CELL + margin

    def corner(cell: int) -> tuple[int, int]:
        file, rank = geo.file_of(cell), geo.rank_of(cell)
        column = files - 1 - file if flip else file
        row = rank if flip else ranks - 1 - rank
        return margin + column * CELL, row * CELL

    half = CELL // 2
    cells = []
    for cell in range(geo.size):
        x, y = corner(cell)
        shade = "light" if geo.is_light(cell) else "dark"
        cells.append([geo.name(cell), x + half, y + half, shade])
    labels = [
        [
            _rank_name(geo, geo.square(file, 0))[0],
            corner(geo.square(file, 0))[0] + half,
            ranks * CELL + margin // 2 + baseline,
        ]
        for file in range(files)
    ]
    labels += [
        [
            _rank_name(geo, geo.square(0, rank))[1],
            margin // 2,
            corner(geo.square(0, rank))[1] + half + baseline,
        ]
        for rank in range(ranks)
    ]
    return {
        "shape": "square",
        "width": width,
        "height": height,
        "cell": CELL,
        "font": font,
        "corners": [[-half, -half], [half, -half], [half, half], [-half, half]],
        "cells": cells,
        "rows": [list(row) for row in geo.fen_rows()],
        "labels": labels,
    }


Spot = tuple[str, float, float]  # a label's text and its centre (x, y)


def _hex_labels(
    geo: HexGeometry,
    places: list[tuple[int, int]],
    centres: list[tuple[float, float]],
    point: Callable[[float, float], tuple[float, float]],
    font: int,
) -> list[Spot]:
    """The edge names of the hexagon: each file's letter under its column, as
    the screen has them, and each rank's number beyond the end that lies
    further out (both on a tie).  ``places`` are the cells' lattice points,
    ``centres`` their drawn centres, ``point`` a lattice point's drawing."""
    radius = HEX_RADIUS
    xs = [x for x, _ in centres]
    bottom = max(y for _, y in centres) + CELL / 2
    middle, sides = (min(xs) + max(xs)) / 2, (min(xs), max(xs))
    columns: dict[str, float] = {}
    ranks: dict[str, list[int]] = {}
    for cell in range(geo.size):
        letters, number = _rank_name(geo, cell)
        columns[letters] = centres[cell][0]
        ranks.setdefault(number, []).append(cell)
    spots = [(letters, x, bottom + LABEL_GAP + font / 2) for letters, x in columns.items()]
    # A number goes beside the end cell on the board's straight sides, else
    # in the next place along the rank.
    for number, members in ranks.items():
        width = CHAR_WIDTH * font * len(number)
        points = [places[cell] for cell in members]
        ends = []
        for index, (dx, dy) in rank_ends(points):
            ex, ey = centres[members[index]]
            if dx and ex in sides and (ex > middle) == (dx > 0):
                sign = 1 if dx > 0 else -1
                spot = (ex + sign * (radius + LABEL_GAP + width / 2), ey)
                ends.append((abs(ex + sign * 1.5 * radius - middle), spot))
            else:
                spot = point(points[index][0] + dx, points[index][1] + dy)
                ends.append((abs(spot[0] - middle), spot))
        reach = max(far for far, _ in ends)
        spots += [(number, x, y) for far, (x, y) in ends if far > reach - radius / 2]
    return spots


@_layout.register
def _hex(geo: HexGeometry, flip: bool) -> dict[str, Any]:
    # The hexagon's names stand in the gaps of its ragged edge, which grow with them.
    font = _readable(lambda f: float(_hex_drawing(geo, flip, f)["width"]))
    return _hex_drawing(geo, flip, font)


def _hex_drawing(geo: HexGeometry, flip: bool, font: int) -> dict[str, Any]:
    radius = HEX_RADIUS
    unit = (radius / 2, CELL / 2)  # one lattice step across, down

    def axial(cell: int) -> tuple[int, int]:
        q, r = geo.axial(cell)
        return (-q, -r) if flip else (q, r)

    def point(x: float, y: float) -> tuple[float, float]:
        return x * unit[0], y * unit[1]

    places = [lattice(*axial(cell)) for cell in range(geo.size)]
    centres = [point(*place) for place in places]
    corners = [point(dx, dy) for dx, dy in CORNERS]
    xs, ys = [x for x, _ in centres], [y for _, y in centres]
    bottom = max(ys) + CELL / 2
    spots = _hex_labels(geo, places, centres, point, font)
    half = {text: CHAR_WIDTH * font * len(text) / 2 for text, _, _ in spots}
    left = min(min(xs) - radius, *(x - half[t] for t, x, _ in spots)) - EDGE
    top = min(min(ys) - CELL / 2, *(y - font / 2 for _, _, y in spots)) - EDGE
    right = max(max(xs) + radius, *(x + half[t] for t, x, _ in spots)) + EDGE
    low = max(bottom, *(y + font / 2 for _, _, y in spots)) + EDGE

    def fix(value: float) -> float:
        return round(value, 1)

    return {
        "shape": "hex",
        "width": fix(right - left),
        "height": fix(low - top),
        "cell": CELL,
        "font": font,
        "corners": [[fix(x), fix(y)] for x, y in corners],
        "cells": [
            [geo.name(cell), fix(x - left), fix(y - top), SHADE_NAMES[HEX_SHADES[geo.colour(cell)]]]
            for cell, (x, y) in enumerate(centres)
        ],
        "rows": [list(row) for row in geo.fen_rows()],
        "labels": [[text, fix(x - left), fix(y - top + _baseline(font))] for text, x, y in spots],
    }
