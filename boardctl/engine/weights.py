"""Every evaluation weight by name: the numbers :mod:`.evaluate` explains,
what ``scripts/texel_tune.py`` varies, and what the compiled core is given
(:func:`~boardctl.engine.evaluate.core_weights`); and the game's phase they
weigh the material by.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..rules import Position
from ..rules.pieces import BISHOP, FALCON, KING, KNIGHT, PAWN, QUEEN, ROOK, PieceType
from ..rules.variants import Variant

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


def passed_bonuses(w: Weights) -> tuple[int, ...]:
    """The passed-pawn bonuses by ranks advanced, as :data:`PASSED` holds them."""
    return tuple(w[f"passed.{advanced}"] for advanced in range(len(PASSED)))


def start_phase(variant: Variant, weights: Weights | None = None) -> int:
    """:func:`material_phase` of ``variant``'s start position (with the phase
    weights of ``weights`` if given): the phase of a full board (Glinski's
    game has no falcons)."""
    pieces = Position(None, variant).pieces
    if weights is None:
        return pieces_phase(pieces)
    return sum(weights[f"{NAMES[p]}.phase"] * pieces[p].bit_count() for p in PHASE_WEIGHT)


def pieces_phase(p: list[int]) -> int:
    return sum(weight * p[ptype].bit_count() for ptype, weight in PHASE_WEIGHT.items())


def material_phase(pos: Position) -> int:
    """How much of the middle game's material is on the board (:data:`PHASE_WEIGHT`)."""
    return pieces_phase(pos.pieces)
