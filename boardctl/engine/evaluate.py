"""Static evaluation of a Falcon Chess position, in centipawns.

Where the numbers come from
---------------------------
Material.  Three published estimates for Falcon Chess: the inventor's, from
hundreds of games (queen 9, falcon 7, rook 5, bishop 3, knight 3, pawn 1.2);
a later one (queen 9.5, falcon about 5, rook 5, bishop 3.5 plus 0.5 for the
pair, knight 3); and Fairy-Max's ``fmax.ini`` (pawn 100, knight 310, bishop
350, rook 475, falcon 450, queen 950).  The values below start from the
middle of those (the falcon between the rook and the queen at 5.6, the
bishop pair as in the second estimate, a pawn worth more in the endgame) and
were then fitted to the results of 1,579 self-play games (Texel's method:
``scripts/texel_tune.py``; every run and its self-play check are in
docs/tuning.md): the falcon fell to 4.8 in the middle game, near
Fairy-Max's 4.5; the knight rose; the rook and the queen gained in the
endgame and the bishop lost there.  The same fit moved the other terms by a
few centipawns at most (a pawn's advance, isolated and far-advanced passed
pawns, rook mobility, the bishop pair): those games decide material and
little else.

Piece-square values.  Built from the board's shape rather than typed in, so
they fit 10×8 (and the other presets): knights, bishops and falcons gain for
central squares (the falcon reaches 16 squares only from the middle), pawns
for advancing, rooks for the seventh rank, the king for staying home behind
its pawns until the endgame, when it heads for the centre.

Terms computed at the leaf: mobility, the falcon's counted through open
paths (4 cp a square), the others from a baseline as Fruit counts it;
king-zone pressure; the bishop pair; doubled, isolated and passed pawns; the
pawn shield in front of the king while there is material to attack it; and
rooks on open and half-open files.  Mobility beyond the falcon's and the
king zone were first tried in the Python search and dropped, because there
they cost more depth than they won; in the compiled core (``csrc/eval.c``) they
cost about a sixth of its speed, and the first matches with them against
Fairy-Max at 0.5 s a move went from 7.5/10 to better (figures in the
closing note of issue 4 and in the README).

This module is the reference: the compiled core computes the same terms
with the weights it is given from here (:func:`core_weights`), and
tests/engine/test_core.py checks that both give the same score.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, singledispatch
from typing import cast

from ..rules import Position
from ..rules.boardgeometry import BoardGeometry
from ..rules.geometry import Geometry, Tables
from ..rules.hexgeo import DIAGONAL, ORTHOGONAL, HexGeometry, distance, knight_leaps
from ..rules.pieces import (
    BISHOP,
    BLACK,
    FALCON,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    PieceType,
)
from ..rules.variants import DEFAULT_VARIANT, Variant

# (middle game, endgame) material by piece type.
VALUES = {
    PAWN: (94, 122),
    KNIGHT: (337, 309),
    BISHOP: (341, 280),
    ROOK: (433, 620),
    QUEEN: (932, 1172),
    FALCON: (482, 569),
    KING: (0, 0),
}
# The game's phase: these weights summed over the pieces on the board, from
# FULL_PHASE (the start position's sum, two of each minor piece, rook and
# falcon and a queen a side) down to 0; the mg and eg scores are blended by it.
PHASE_WEIGHT = {KNIGHT: 1, BISHOP: 1, ROOK: 2, FALCON: 2, QUEEN: 4}
FULL_PHASE = 2 * (
    2 * (PHASE_WEIGHT[KNIGHT] + PHASE_WEIGHT[BISHOP] + PHASE_WEIGHT[ROOK] + PHASE_WEIGHT[FALCON])
    + PHASE_WEIGHT[QUEEN]
)
BISHOP_PAIR = 41
FALCON_MOBILITY = 4
DOUBLED = 15
ISOLATED = 11
# By ranks advanced (1 = start rank).
PASSED: tuple[int, ...] = (0, 5, 10, 20, 35, 62, 101, 0, 0, 0)
ROOK_OPEN, ROOK_HALF_OPEN = 20, 10
SHIELD = 10
# Mobility of the other pieces: (centipawns a square, squares of an average
# piece), Fruit's way of counting from a baseline, baselines for 10×8.
MOBILITY = {KNIGHT: (4, 4), BISHOP: (4, 6), ROOK: (3, 6), QUEEN: (1, 12)}
# King-zone pressure: squares next to the enemy king (or its own) a piece
# reaches, weighted by the piece; the danger is units² × scale / 16 once two
# pieces take part, capped, and scaled down with the material on the board.
ZONE_WEIGHT = {KNIGHT: 2, BISHOP: 2, ROOK: 3, QUEEN: 5, FALCON: 3}
DANGER_SCALE = 15
DANGER_DIVISOR = 16
DANGER_CAP = 400
# The shape of the piece-square values (see _square_bonus).  Centralisation:
# ((mg slope, mg offset), (eg slope, eg offset)) applied to a square's
# ``centre``, minus its distance from the middle of the board (from about -1
# in the middle to -8 in a corner of 10×8); the offsets keep the average
# square near zero.  The king's is for the endgame only.
CENTRALISATION: dict[int, tuple[tuple[int, int], tuple[int, int]]] = {
    KNIGHT: ((6, 10), (4, 6)),
    BISHOP: ((3, 6), (2, 4)),
    FALCON: ((5, 10), (4, 8)),
    QUEEN: ((2, 4), (3, 6)),
}
KING_CENTRE = (8, 20)
PAWN_ADVANCE = (3, 12)  # (mg, eg) per step forward
PAWN_CENTRAL = 6  # mg: in the centre on ranks 3 to 5
KING_HOME, KING_STEP = 12, 18  # mg: at home on a wing; lost per step off the back rank
ROOK_SEVENTH = 15  # mg: on the seventh rank
ROOK_CENTRE = 4  # mg: on one of the centre files


NAMES: dict[PieceType, str] = {
    PAWN: "pawn",
    KNIGHT: "knight",
    BISHOP: "bishop",
    ROOK: "rook",
    QUEEN: "queen",
    FALCON: "falcon",
}
Weights = Mapping[str, int]


def default_weights() -> dict[str, int]:
    """Every number above by name: what scripts/texel_tune.py varies and
    what :func:`core.build <boardctl.engine.core.build>` can be given instead."""
    w: dict[str, int] = {}
    for ptype, name in NAMES.items():
        w[f"{name}.mg"], w[f"{name}.eg"] = VALUES[ptype]
    w["pawn.advance.mg"], w["pawn.advance.eg"] = PAWN_ADVANCE
    w["pawn.centre"] = PAWN_CENTRAL
    for piece, ((slope_mg, offset_mg), (slope_eg, offset_eg)) in CENTRALISATION.items():
        name = NAMES[PieceType(piece)]
        w[f"{name}.centre.mg"], w[f"{name}.centre.eg"] = slope_mg, slope_eg
        w[f"{name}.offset.mg"], w[f"{name}.offset.eg"] = offset_mg, offset_eg
    w["rook.seventh"], w["rook.centre"] = ROOK_SEVENTH, ROOK_CENTRE
    w["king.home"], w["king.advance"] = KING_HOME, KING_STEP
    w["king.centre.eg"], w["king.offset.eg"] = KING_CENTRE
    w["bishop_pair"], w["falcon.mobility"] = BISHOP_PAIR, FALCON_MOBILITY
    w["doubled"], w["isolated"] = DOUBLED, ISOLATED
    for advanced, bonus in enumerate(PASSED):
        w[f"passed.{advanced}"] = bonus
    w["rook_open"], w["rook_half_open"], w["shield"] = ROOK_OPEN, ROOK_HALF_OPEN, SHIELD
    for ptype, (weight, baseline) in MOBILITY.items():
        w[f"{NAMES[ptype]}.mobility"] = weight
        w[f"{NAMES[ptype]}.baseline"] = baseline
    for ptype, weight in ZONE_WEIGHT.items():
        w[f"{NAMES[ptype]}.zone"] = weight
    w["danger_scale"], w["danger_divisor"], w["danger_cap"] = (
        DANGER_SCALE,
        DANGER_DIVISOR,
        DANGER_CAP,
    )
    for ptype, weight in PHASE_WEIGHT.items():
        w[f"{NAMES[ptype]}.phase"] = weight
    w["full_phase"] = FULL_PHASE
    return w


def core_weights(
    variant: Variant = DEFAULT_VARIANT, weights: Weights | None = None
) -> tuple[int, ...]:
    """The weights ``weights`` (by default :func:`default_weights`) of
    ``variant``'s evaluator (:class:`Evaluator`, or :class:`HexEvaluator` on
    a hexagon, which has no bishop-pair, pawn, rook or shield term) in the
    order the compiled core (csrc/setup.c) takes them."""
    w = default_weights() if weights is None else weights
    mobility, grid_terms, full_phase = _shape_weights(variant.geometry, variant, w)
    bishop_pair, doubled, isolated, rook_open, rook_half, shield = grid_terms
    return (
        bishop_pair,
        w["falcon.mobility"],
        doubled,
        isolated,
        rook_open,
        rook_half,
        shield,
        *mobility[KNIGHT],
        *mobility[BISHOP],
        *mobility[ROOK],
        *mobility[QUEEN],
        w["knight.zone"],
        w["bishop.zone"],
        w["rook.zone"],
        w["queen.zone"],
        w["falcon.zone"],
        w["danger_scale"],
        w["danger_cap"],
        w["danger_divisor"],
        w["knight.phase"],
        w["bishop.phase"],
        w["rook.phase"],
        w["queen.phase"],
        w["falcon.phase"],
        full_phase,
    )


_ShapeWeights = tuple[dict[int, tuple[int, int]], tuple[int, ...], int]


# One implementation per shape, chosen by the geometry's type: the hexagon's
# evaluator has no grid terms and scales its mobility by the board's reach.
@singledispatch
def _shape_weights(geo: BoardGeometry, variant: Variant, w: Weights) -> _ShapeWeights:
    """(mobility, the six grid terms, the full phase) of :func:`core_weights`."""
    raise TypeError(f"no evaluation for {geo!r}")


@_shape_weights.register
def _(geo: HexGeometry, variant: Variant, w: Weights) -> _ShapeWeights:
    return hex_mobility(geo, w), (0,) * 6, start_phase(variant, w)


@_shape_weights.register
def _(geo: Geometry, variant: Variant, w: Weights) -> _ShapeWeights:
    mobility = {int(p): (w[f"{NAMES[p]}.mobility"], w[f"{NAMES[p]}.baseline"]) for p in MOBILITY}
    grid_terms = (
        w["bishop_pair"],
        w["doubled"],
        w["isolated"],
        w["rook_open"],
        w["rook_half_open"],
        w["shield"],
    )
    return mobility, grid_terms, w["full_phase"]


def passed_bonuses(w: Weights) -> tuple[int, ...]:
    """The passed-pawn bonuses by ranks advanced, as :data:`PASSED` holds them."""
    return tuple(w[f"passed.{advanced}"] for advanced in range(len(PASSED)))


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


def start_phase(variant: Variant, weights: Weights | None = None) -> int:
    """:func:`material_phase` of ``variant``'s start position (with the phase
    weights of ``weights`` if given): the phase of a full board (Glinski's
    game has no falcons)."""
    pieces = Position(None, variant).pieces
    if weights is None:
        return _phase(pieces)
    return sum(weights[f"{NAMES[p]}.phase"] * pieces[p].bit_count() for p in PHASE_WEIGHT)


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


@singledispatch
def _evaluator(geometry: BoardGeometry, pos: Position) -> Evaluator:
    raise TypeError(f"no evaluator for {geometry!r}")


def evaluator_for(pos: Position) -> Evaluator:
    """The leaf evaluator of ``pos``'s board: :class:`HexEvaluator` on a
    hexagon, :class:`Evaluator` on a rectangle."""
    return _evaluator(pos.geometry, pos)


def _phase(p: list[int]) -> int:
    return sum(weight * p[ptype].bit_count() for ptype, weight in PHASE_WEIGHT.items())


def material_sums(pos: Position) -> tuple[int, int]:
    """The (mg, eg) sums of :func:`piece_tables` from scratch."""
    mg, eg = piece_tables(pos.geometry)
    total_mg = total_eg = 0
    for sq, piece in enumerate(pos.squares):
        if piece:
            total_mg += mg[piece][sq]
            total_eg += eg[piece][sq]
    return total_mg, total_eg


def material_phase(pos: Position) -> int:
    """How much of the middle game's material is on the board (:data:`PHASE_WEIGHT`)."""
    return _phase(pos.pieces)


class Evaluator:
    """Leaf evaluation; keeps a cache of pawn-structure scores."""

    def __init__(self, tables: Tables) -> None:
        self.t = tables
        # Pawn structure and king shields, by (white pawns, black pawns, kings).
        self.pawn_cache: dict[tuple[int, int, int, int], tuple[int, int]] = {}
        files = tables.files
        file_bb = tables.file_bb
        self.adjacent = [
            (file_bb[f - 1] if f > 0 else 0) | (file_bb[f + 1] if f < files - 1 else 0)
            for f in range(files)
        ]
        self.full_phase = FULL_PHASE
        self.mobility: dict[int, tuple[int, int]] = {int(p): v for p, v in MOBILITY.items()}

    def material(self, pos: Position, mg: int, eg: int) -> int:
        """Material and square values only, tapered, for the side to move:
        the cheap part of :meth:`evaluate`, for lazy evaluation."""
        phase = min(_phase(pos.pieces), self.full_phase)
        score = (mg * phase + eg * (self.full_phase - phase)) // self.full_phase
        return score if pos.turn == WHITE else -score

    def evaluate(self, pos: Position, mg: int, eg: int) -> int:
        """Score for the side to move; ``mg``/``eg`` are the incremental sums."""
        p = pos.pieces
        white, black = pos.colors
        occ = white | black
        phase = min(_phase(p), self.full_phase)
        score = (mg * phase + eg * (self.full_phase - phase)) // self.full_phase
        score += self._pieces(pos, occ, phase)
        bishops = p[BISHOP]
        if (bishops & white).bit_count() >= 2:
            score += BISHOP_PAIR
        if (bishops & black).bit_count() >= 2:
            score -= BISHOP_PAIR
        pawns = p[PAWN]
        kings = pos.kings
        key = (pawns & white, pawns & black, kings[0], kings[1])
        cached = self.pawn_cache.get(key)
        if cached is None:
            cached = (
                self._pawns(key[0], key[1]),
                self._shield(pos, WHITE) - self._shield(pos, BLACK),
            )
            if len(self.pawn_cache) > 200_000:
                self.pawn_cache.clear()
            self.pawn_cache[key] = cached
        score += cached[0]
        if phase * 2 > self.full_phase:
            score += cached[1]
        score += self._rooks(p[ROOK], white, black, pawns)
        return score if pos.turn == WHITE else -score

    def _attacks(self, ptype: int, sq: int, occ: int) -> int:
        t = self.t
        if ptype == KNIGHT:
            return t.knight[sq]
        if ptype == FALCON:
            att = 0
            for mask, table in t.falcon_quadrants[sq]:
                att |= table[occ & mask]
            return att
        att = 0
        if ptype != ROOK:
            att |= t.diag_att[sq][occ & t.diag_mask[sq]] | t.anti_att[sq][occ & t.anti_mask[sq]]
        if ptype != BISHOP:
            att |= t.rank_att[sq][occ & t.rank_mask[sq]] | t.file_att[sq][occ & t.file_mask[sq]]
        return att

    def _pieces(self, pos: Position, occ: int, phase: int) -> int:
        """Mobility of every piece but pawns and kings, and king danger."""
        t = self.t
        colors = pos.colors
        kings = pos.kings
        # The zone each side attacks: the squares around the other king.
        zones = (t.king[kings[1]] | 1 << kings[1], t.king[kings[0]] | 1 << kings[0])
        units = [0, 0]
        attackers = [0, 0]
        score = 0
        for ptype in (KNIGHT, BISHOP, ROOK, QUEEN, FALCON):
            bb = pos.pieces[ptype]
            while bb:
                low = bb & -bb
                bb ^= low
                colour = WHITE if colors[WHITE] & low else BLACK
                att = self._attacks(ptype, low.bit_length() - 1, occ)
                reach = (att & ~colors[colour]).bit_count()
                if ptype == FALCON:
                    gain = FALCON_MOBILITY * reach
                else:
                    weight, baseline = self.mobility[ptype]
                    gain = weight * (reach - baseline)
                score += gain if colour == WHITE else -gain
                zone = (att & zones[colour]).bit_count()
                if zone:
                    units[colour] += zone * ZONE_WEIGHT[ptype]
                    attackers[colour] += 1
        for colour in (WHITE, BLACK):
            if attackers[colour] >= 2:
                danger = min(units[colour] ** 2 * DANGER_SCALE // DANGER_DIVISOR, DANGER_CAP)
                danger = danger * phase // self.full_phase
                score += danger if colour == WHITE else -danger
        return score

    def _pawns(self, wp: int, bp: int) -> int:
        t = self.t
        files = t.files
        score = 0
        for f in range(files):
            mask = t.file_bb[f]
            for own, enemy, sign in ((wp, bp, 1), (bp, wp, -1)):
                here = own & mask
                if not here:
                    continue
                count = here.bit_count()
                if count > 1:
                    score -= sign * DOUBLED * (count - 1)
                if not own & self.adjacent[f]:
                    score -= sign * ISOLATED * count
                # Passed: no enemy pawn ahead on this or the adjacent files.
                front = here.bit_length() - 1 if sign == 1 else (here & -here).bit_length() - 1
                rank = front // files
                span = mask | self.adjacent[f]
                if sign == 1:
                    ahead = span & ~((1 << ((rank + 1) * files)) - 1)
                    advanced = rank
                else:
                    ahead = span & ((1 << (rank * files)) - 1)
                    advanced = t.ranks - 1 - rank
                if not enemy & ahead:
                    score += sign * PASSED[min(advanced, len(PASSED) - 1)]
        return score

    def _rooks(self, rooks: int, white: int, black: int, pawns: int) -> int:
        t = self.t
        score = 0
        while rooks:
            low = rooks & -rooks
            rooks ^= low
            sq = low.bit_length() - 1
            file_mask = t.file_bb[sq % t.files]
            is_white = bool(white & low)
            own = white if is_white else black
            if not pawns & file_mask:
                bonus = ROOK_OPEN
            elif not pawns & own & file_mask:
                bonus = ROOK_HALF_OPEN
            else:
                continue
            score += bonus if is_white else -bonus
        return score

    def _shield(self, pos: Position, colour: int) -> int:
        king = pos.kings[colour]
        t = self.t
        files = t.files
        rank = king // files
        forward = rank + 1 if colour == WHITE else rank - 1
        if not 0 <= forward < t.ranks:
            return 0
        file = king % files
        shield = 0
        for f in (file - 1, file, file + 1):
            if 0 <= f < files:
                shield |= 1 << (forward * files + f)
        own_pawns = pos.pieces[PAWN] & pos.colors[colour]
        return SHIELD * (shield & own_pawns).bit_count()


class HexEvaluator(Evaluator):
    """Leaf evaluation on a hexagon: material and cell values (:func:`cell_tables`),
    mobility and king-zone pressure as on the square board, through the
    hexagon's attack tables.  The pawn and rook terms of the square board are
    about files and ranks of a grid and are left out; the cell values push
    the pawns forward instead."""

    def __init__(self, tables: Tables, geo: HexGeometry, full_phase: int) -> None:
        # ``tables`` is the hexagon's: it has the attack functions of every
        # board, not the rectangle's rank and file masks.  ``full_phase`` is
        # the start position's (:func:`phase`): Glinski's game has no falcons.
        self.t = tables
        self.full_phase = full_phase
        self.mobility = hex_mobility(geo)

    def evaluate(self, pos: Position, mg: int, eg: int) -> int:
        occ = pos.colors[WHITE] | pos.colors[BLACK]
        phase = min(material_phase(pos), self.full_phase)
        score = (mg * phase + eg * (self.full_phase - phase)) // self.full_phase
        score += self._pieces(pos, occ, phase)
        return score if pos.turn == WHITE else -score

    def _attacks(self, ptype: int, sq: int, occ: int) -> int:
        t = self.t
        if ptype == KNIGHT:
            return t.knight[sq]
        if ptype == FALCON:
            return t.falcon_attacks(sq, occ)
        if ptype == ROOK:
            return t.rook_attacks(sq, occ)
        if ptype == BISHOP:
            return t.bishop_attacks(sq, occ)
        return t.rook_attacks(sq, occ) | t.bishop_attacks(sq, occ)


@_evaluator.register
def _(geometry: HexGeometry, pos: Position) -> Evaluator:
    # HexEvaluator shares Evaluator's Tables-typed slot but reads only what
    # every board's tables have (boardctl.rules.boardgeometry.BoardTables).
    return HexEvaluator(cast(Tables, geometry.tables), geometry, start_phase(pos.variant))


@_evaluator.register
def _(geometry: Geometry, pos: Position) -> Evaluator:
    return Evaluator(geometry.tables)
