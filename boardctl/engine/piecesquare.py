"""Piece-square values: material plus position for each piece on each cell,
built from the board's shape rather than typed in (see :mod:`.evaluate`).

A rectangle's come from files and ranks: central squares for the minor
pieces and the falcon, advance for pawns, the seventh rank for rooks, home
and then the centre for the king.  A hexagon's are the square board's
scaled by how far each piece reaches there and by the distance from the
middle.  :func:`piece_tables` picks by the board's geometry.
"""

from __future__ import annotations

from functools import cache, singledispatch

from ..rules.boardgeometry import BoardGeometry
from ..rules.geometry import Geometry
from ..rules.hexgeo import DIAGONAL, ORTHOGONAL, HexGeometry, distance, knight_leaps
from ..rules.pieces import BISHOP, BLACK, FALCON, KING, KNIGHT, PAWN, QUEEN, ROOK, PieceType
from .weights import MOBILITY, NAMES, VALUES, Weights, default_weights


def _square_bonus(
    ptype: PieceType, file: int, rank: int, files: int, ranks: int, w: Weights
) -> tuple[int, int]:
    """Positional (mg, eg) for a white piece; black uses the mirrored rank."""
    df = abs(file - (files - 1) / 2)
    dr = abs(rank - (ranks - 1) / 2)
    centre = -(df + dr)
    if ptype == PAWN:
        advance = rank - 1
        central = w["pawn.centre"] if 0 < df < 2.5 and 2 <= rank <= 4 else 0
        return w["pawn.advance.mg"] * advance + central, w["pawn.advance.eg"] * advance
    if ptype == ROOK:
        return (w["rook.seventh"] if rank == ranks - 2 else 0) + (
            w["rook.centre"] if df < 2 else 0
        ), 0
    if ptype == KING:
        # At home in the middle game, to the centre in the endgame.
        home = w["king.home"] if rank == 0 and df > 1.5 else 0
        return (
            home - w["king.advance"] * rank,
            int(w["king.centre.eg"] * centre) + w["king.offset.eg"],
        )
    name = NAMES[ptype]
    return (
        int(w[f"{name}.centre.mg"] * centre) + w[f"{name}.offset.mg"],
        int(w[f"{name}.centre.eg"] * centre) + w[f"{name}.offset.eg"],
    )


@cache
def square_tables(files: int, ranks: int) -> tuple[list[list[int]], list[list[int]]]:
    """(mg, eg)[piece code][square]: material plus position, white-positive."""
    return build_square_tables(files, ranks, default_weights())


def build_square_tables(
    files: int, ranks: int, w: Weights
) -> tuple[list[list[int]], list[list[int]]]:
    """:func:`square_tables` with the weights ``w``."""
    size = files * ranks
    mg = [[0] * size for _ in range(16)]
    eg = [[0] * size for _ in range(16)]
    for ptype in (*NAMES, KING):
        mv, ev = (w[f"{NAMES[ptype]}.mg"], w[f"{NAMES[ptype]}.eg"]) if ptype in NAMES else (0, 0)
        for sq in range(size):
            file, rank = sq % files, sq // files
            pm, pe = _square_bonus(ptype, file, rank, files, ranks, w)
            mg[ptype][sq] = mv + pm
            eg[ptype][sq] = ev + pe
            mirror = (ranks - 1 - rank) * files + file
            mg[ptype | BLACK << 3][mirror] = -(mv + pm)
            eg[ptype | BLACK << 3][mirror] = -(ev + pe)
    return mg, eg


# ------------------------------------------------------------ the hexagon
# Piece values on a hexagon are the square board's, scaled by how much more
# each piece reaches there: a piece's average number of destinations on the
# empty board (from every cell, sliders to the edge), hexagon over 10×8,
# divided by the mean of those ratios over the five pieces, so a piece keeps
# its square value when it gains as much as the others.  On the 121-cell board
# the rook gains most (six directions: 26.5 cells against 16), the bishop least
# (six directions, but bound to a third of the cells: 14.1 against 9.8).
HEX_REFERENCE = (10, 8)  # the board the square values were set for
# Scaled like the piece values: a hexagon's distance from the middle (0 to
# the radius) is spread over the square board's range of ``centre``.
HEX_CENTRE_RANGE = (-1.0, -8.0)

_RECT_STEPS = {
    "rook": ((1, 0), (-1, 0), (0, 1), (0, -1)),
    "bishop": ((1, 1), (1, -1), (-1, 1), (-1, -1)),
    "knight": tuple((a, b) for a in (1, -1, 2, -2) for b in (1, -1, 2, -2) if abs(a) != abs(b)),
    "falcon": tuple(
        (a * x, b * y)
        for x, y in ((1, 3), (3, 1), (2, 3), (3, 2))
        for a in (1, -1)
        for b in (1, -1)
    ),
}


@cache
def _rect_reach(files: int, ranks: int) -> dict[int, float]:
    """Average destinations on an empty ``files``×``ranks`` board, by piece type."""
    cells = [(f, r) for f in range(files) for r in range(ranks)]

    def on(f: int, r: int) -> bool:
        return 0 <= f < files and 0 <= r < ranks

    def slide(steps: tuple[tuple[int, int], ...]) -> float:
        total = 0
        for f, r in cells:
            for df, dr in steps:
                k = 1
                while on(f + k * df, r + k * dr):
                    k += 1
                total += k - 1
        return total / len(cells)

    def leap(steps: tuple[tuple[int, int], ...]) -> float:
        return sum(on(f + df, r + dr) for f, r in cells for df, dr in steps) / len(cells)

    rook, bishop = slide(_RECT_STEPS["rook"]), slide(_RECT_STEPS["bishop"])
    return {
        ROOK: rook,
        BISHOP: bishop,
        QUEEN: rook + bishop,
        KNIGHT: leap(_RECT_STEPS["knight"]),
        FALCON: leap(_RECT_STEPS["falcon"]),
    }


@cache
def _hex_reach(geo: HexGeometry) -> dict[int, float]:
    """Average destinations on the empty hexagon, by piece type."""
    n = geo.size
    rook = sum(len(geo.ray(c, d)) for c in range(n) for d in ORTHOGONAL) / n
    bishop = sum(len(geo.ray(c, d)) for c in range(n) for d in DIAGONAL) / n
    knight = sum(geo.leap(c, o) is not None for c in range(n) for o in knight_leaps()) / n
    falcon = sum(len(geo.falcon_paths(c)) for c in range(n)) / n
    return {ROOK: rook, BISHOP: bishop, QUEEN: rook + bishop, KNIGHT: knight, FALCON: falcon}


@cache
def hex_values(geo: HexGeometry) -> dict[int, tuple[int, int]]:
    """(mg, eg) material by piece type on the hexagon ``geo`` (see above)."""
    return _hex_values(geo, default_weights())


def _hex_values(geo: HexGeometry, w: Weights) -> dict[int, tuple[int, int]]:
    square, hexagon = _rect_reach(*HEX_REFERENCE), _hex_reach(geo)
    ratios = {ptype: hexagon[ptype] / square[ptype] for ptype in square}
    mean = sum(ratios.values()) / len(ratios)
    values: dict[int, tuple[int, int]] = {
        int(p): (w[f"{NAMES[p]}.mg"], w[f"{NAMES[p]}.eg"]) if p in NAMES else (0, 0) for p in VALUES
    }
    for ptype, ratio in ratios.items():
        mg, eg = values[ptype]
        values[ptype] = (round(mg * ratio / mean), round(eg * ratio / mean))
    return values


def hex_mobility(geo: HexGeometry, weights: Weights | None = None) -> dict[int, tuple[int, int]]:
    """:data:`MOBILITY` (or the mobility of ``weights``) on the hexagon
    ``geo``: the baselines are average reaches, so they grow with the board's."""
    w = default_weights() if weights is None else weights
    square, hexagon = _rect_reach(*HEX_REFERENCE), _hex_reach(geo)
    return {
        int(p): (
            w[f"{NAMES[p]}.mobility"],
            round(w[f"{NAMES[p]}.baseline"] * hexagon[p] / square[p]),
        )
        for p in MOBILITY
    }


def _hex_mirror(geo: HexGeometry, cell: int) -> int:
    """The cell Black's piece stands on where White's stands on ``cell``:
    north and south swapped, the file kept ((q, r) to (q, -q-r))."""
    q, r = geo.axial(cell)
    mirror = geo.cell_at(q, -q - r)
    assert mirror is not None, "the hexagons are symmetric north to south"
    return mirror


def _hex_bonus(ptype: int, geo: HexGeometry, cell: int, w: Weights) -> tuple[int, int]:
    """Positional (mg, eg) for a white piece on a cell of the hexagon."""
    q, r = geo.axial(cell)
    near, far = HEX_CENTRE_RANGE
    centre = near + (far - near) * distance((q, r), (0, 0)) / geo.radius
    if ptype == PAWN:
        # Steps made towards promotion: a pawn on its start line has as far to
        # go as one on the square board's second rank (6 cells), more on the
        # long outer files of the chevron.
        to_go = len(geo.ray(cell, "N"))
        advance = max(0, HEX_REFERENCE[1] - 2 - to_go)
        central = w["pawn.centre"] if 1 <= abs(q) <= 2 and 1 <= advance <= 3 else 0
        return w["pawn.advance.mg"] * advance + central, w["pawn.advance.eg"] * advance
    if ptype == ROOK:
        return (w["rook.centre"] if abs(q) < 2 else 0), 0
    if ptype == KING:
        # Behind its pawns in the middle game (each step up from the bottom
        # edge of its file costs), to the centre in the endgame.
        return (
            -w["king.advance"] * len(geo.ray(cell, "S")),
            int(w["king.centre.eg"] * centre) + w["king.offset.eg"],
        )
    name = NAMES[PieceType(ptype)]
    return (
        int(w[f"{name}.centre.mg"] * centre) + w[f"{name}.offset.mg"],
        int(w[f"{name}.centre.eg"] * centre) + w[f"{name}.offset.eg"],
    )


@cache
def cell_tables(geo: HexGeometry) -> tuple[list[list[int]], list[list[int]]]:
    """:func:`square_tables` for a hexagon: (mg, eg)[piece code][cell]."""
    return build_cell_tables(geo, default_weights())


def build_cell_tables(geo: HexGeometry, w: Weights) -> tuple[list[list[int]], list[list[int]]]:
    """:func:`cell_tables` with the weights ``w``: the hexagon's values are
    derived from the square board's (:func:`hex_values`)."""
    size = geo.size
    mg = [[0] * size for _ in range(16)]
    eg = [[0] * size for _ in range(16)]
    for ptype, (mv, ev) in _hex_values(geo, w).items():
        for cell in range(size):
            pm, pe = _hex_bonus(ptype, geo, cell, w)
            mg[ptype][cell] = mv + pm
            eg[ptype][cell] = ev + pe
            mirror = _hex_mirror(geo, cell)
            mg[ptype | BLACK << 3][mirror] = -(mv + pm)
            eg[ptype | BLACK << 3][mirror] = -(ev + pe)
    return mg, eg


_PieceTables = tuple[list[list[int]], list[list[int]]]


@singledispatch
def piece_tables(geometry: BoardGeometry) -> _PieceTables:
    """The (mg, eg) material and position tables of any board."""
    raise TypeError(f"no piece tables for {geometry!r}")


@piece_tables.register
def _(geometry: HexGeometry) -> _PieceTables:
    return cell_tables(geometry)


@piece_tables.register
def _(geometry: Geometry) -> _PieceTables:
    return square_tables(geometry.files, geometry.ranks)


@singledispatch
def build_piece_tables(geometry: BoardGeometry, w: Weights) -> _PieceTables:
    """:func:`piece_tables` with the weights ``w``."""
    raise TypeError(f"no piece tables for {geometry!r}")


@build_piece_tables.register
def _(geometry: HexGeometry, w: Weights) -> _PieceTables:
    return build_cell_tables(geometry, w)


@build_piece_tables.register
def _(geometry: Geometry, w: Weights) -> _PieceTables:
    return build_square_tables(geometry.files, geometry.ranks, w)
