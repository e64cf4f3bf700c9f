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

from functools import singledispatch
from typing import cast

from ..rules import Position
from ..rules.boardgeometry import BoardGeometry
from ..rules.geometry import Geometry, Tables
from ..rules.hexgeo import HexGeometry
from ..rules.pieces import (
    BISHOP,
    BLACK,
    FALCON,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
)
from ..rules.variants import DEFAULT_VARIANT, Variant
from . import weights as eval_weights
from .piecesquare import hex_mobility, piece_tables
from .weights import NAMES, Weights, default_weights, material_phase, pieces_phase, start_phase


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
    mobility = {
        int(p): (w[f"{NAMES[p]}.mobility"], w[f"{NAMES[p]}.baseline"])
        for p in eval_weights.MOBILITY
    }
    grid_terms = (
        w["bishop_pair"],
        w["doubled"],
        w["isolated"],
        w["rook_open"],
        w["rook_half_open"],
        w["shield"],
    )
    return mobility, grid_terms, w["full_phase"]


@singledispatch
def _evaluator(geometry: BoardGeometry, pos: Position) -> Evaluator:
    raise TypeError(f"no evaluator for {geometry!r}")


def evaluator_for(pos: Position) -> Evaluator:
    """The leaf evaluator of ``pos``'s board: :class:`HexEvaluator` on a
    hexagon, :class:`Evaluator` on a rectangle."""
    return _evaluator(pos.geometry, pos)


def material_sums(pos: Position) -> tuple[int, int]:
    """The (mg, eg) sums of :func:`piece_tables` from scratch."""
    mg, eg = piece_tables(pos.geometry)
    total_mg = total_eg = 0
    for sq, piece in enumerate(pos.squares):
        if piece:
            total_mg += mg[piece][sq]
            total_eg += eg[piece][sq]
    return total_mg, total_eg


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
        self.full_phase = eval_weights.FULL_PHASE
        self.mobility: dict[int, tuple[int, int]] = {
            int(p): v for p, v in eval_weights.MOBILITY.items()
        }

    def material(self, pos: Position, mg: int, eg: int) -> int:
        """Material and square values only, tapered, for the side to move:
        the cheap part of :meth:`evaluate`, for lazy evaluation."""
        phase = min(pieces_phase(pos.pieces), self.full_phase)
        score = (mg * phase + eg * (self.full_phase - phase)) // self.full_phase
        return score if pos.turn == WHITE else -score

    def evaluate(self, pos: Position, mg: int, eg: int) -> int:
        """Score for the side to move; ``mg``/``eg`` are the incremental sums."""
        p = pos.pieces
        white, black = pos.colors
        occ = white | black
        phase = min(pieces_phase(p), self.full_phase)
        score = (mg * phase + eg * (self.full_phase - phase)) // self.full_phase
        score += self._pieces(pos, occ, phase)
        bishops = p[BISHOP]
        if (bishops & white).bit_count() >= 2:
            score += eval_weights.BISHOP_PAIR
        if (bishops & black).bit_count() >= 2:
            score -= eval_weights.BISHOP_PAIR
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
        # Through the attack functions every board's tables have: the
        # rectangle's and the hexagon's (HexEvaluator) alike.
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
                    gain = eval_weights.FALCON_MOBILITY * reach
                else:
                    weight, baseline = self.mobility[ptype]
                    gain = weight * (reach - baseline)
                score += gain if colour == WHITE else -gain
                zone = (att & zones[colour]).bit_count()
                if zone:
                    units[colour] += zone * eval_weights.ZONE_WEIGHT[ptype]
                    attackers[colour] += 1
        for colour in (WHITE, BLACK):
            if attackers[colour] >= 2:
                danger = min(
                    units[colour] ** 2 * eval_weights.DANGER_SCALE // eval_weights.DANGER_DIVISOR,
                    eval_weights.DANGER_CAP,
                )
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
                    score -= sign * eval_weights.DOUBLED * (count - 1)
                if not own & self.adjacent[f]:
                    score -= sign * eval_weights.ISOLATED * count
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
                    score += sign * eval_weights.PASSED[min(advanced, len(eval_weights.PASSED) - 1)]
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
                bonus = eval_weights.ROOK_OPEN
            elif not pawns & own & file_mask:
                bonus = eval_weights.ROOK_HALF_OPEN
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
        return eval_weights.SHIELD * (shield & own_pawns).bit_count()


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


@_evaluator.register
def _(geometry: HexGeometry, pos: Position) -> Evaluator:
    # HexEvaluator shares Evaluator's Tables-typed slot but reads only what
    # every board's tables have (boardctl.rules.boardgeometry.BoardTables).
    return HexEvaluator(cast(Tables, geometry.tables), geometry, start_phase(pos.variant))


@_evaluator.register
def _(geometry: Geometry, pos: Position) -> Evaluator:
    return Evaluator(geometry.tables)
