"""Static evaluation of a Falcon Chess position, in centipawns.

Where the numbers come from
---------------------------
Material.  Three published estimates for Falcon Chess: the inventor's, from
hundreds of games (queen 9, falcon 7, rook 5, bishop 3, knight 3, pawn 1.2);
a later one (queen 9.5, falcon about 5, rook 5, bishop 3.5 plus 0.5 for the
pair, knight 3); and Fairy-Max's ``fmax.ini`` (pawn 100, knight 310, bishop
350, rook 475, falcon 450, queen 950).  The values below start from the
middle of those: the falcon between the rook and the queen at 5.6, the
bishop pair as in the second estimate, a pawn worth more in the endgame.
Tuning so far is by hand from a few short Fairy-Max matches
(``bench/match.py``); no automatic tuning has been run.

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
they cost more depth than they won; in the compiled core (``_core.c``) they
cost about a sixth of its speed, and the first matches with them against
Fairy-Max at 0.5 s a move went from 7.5/10 to better (figures in the
closing note of issue 4 and in the README).

This module is the reference: the compiled core computes the same terms
with the weights it is given from here (:func:`core_weights`), and
tests/engine/test_core.py checks that both give the same score.
"""

from __future__ import annotations

from functools import cache

from ..rules import Position
from ..rules.geometry import Tables
from ..rules.pieces import BISHOP, BLACK, FALCON, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE

# (middle game, endgame) material by piece type.
VALUES = {
    PAWN: (100, 125), KNIGHT: (310, 300), BISHOP: (335, 345), ROOK: (480, 530),
    QUEEN: (950, 1000), FALCON: (560, 560), KING: (0, 0),
}
# The game's phase: these weights summed over the pieces on the board, from
# FULL_PHASE (the start position's sum, two of each minor piece, rook and
# falcon and a queen a side) down to 0; the mg and eg scores are blended by it.
PHASE_WEIGHT = {KNIGHT: 1, BISHOP: 1, ROOK: 2, FALCON: 2, QUEEN: 4}
FULL_PHASE = 2 * (2 * (PHASE_WEIGHT[KNIGHT] + PHASE_WEIGHT[BISHOP] + PHASE_WEIGHT[ROOK]
                       + PHASE_WEIGHT[FALCON]) + PHASE_WEIGHT[QUEEN])
BISHOP_PAIR = 40
FALCON_MOBILITY = 4
DOUBLED = 15
ISOLATED = 12
PASSED = (0, 5, 10, 20, 35, 60, 100, 0, 0, 0)   # by ranks advanced (1 = start rank)
ROOK_OPEN, ROOK_HALF_OPEN = 20, 10
SHIELD = 10
# Mobility of the other pieces: (centipawns a square, squares of an average
# piece), Fruit's way of counting from a baseline, baselines for 10×8.
MOBILITY = {KNIGHT: (4, 4), BISHOP: (4, 6), ROOK: (2, 6), QUEEN: (1, 12)}
# King-zone pressure: squares next to the enemy king (or its own) a piece
# reaches, weighted by the piece; the danger is units² × scale / 16 once two
# pieces take part, capped, and scaled down with the material on the board.
ZONE_WEIGHT = {KNIGHT: 2, BISHOP: 2, ROOK: 3, QUEEN: 5, FALCON: 3}
DANGER_SCALE = 15
DANGER_DIVISOR = 16
DANGER_CAP = 400
def core_weights() -> tuple[int, ...]:
    """The weights above in the order the compiled core (_core.c) takes them."""
    return (
        BISHOP_PAIR, FALCON_MOBILITY, DOUBLED, ISOLATED, ROOK_OPEN, ROOK_HALF_OPEN, SHIELD,
        *MOBILITY[KNIGHT], *MOBILITY[BISHOP], *MOBILITY[ROOK], *MOBILITY[QUEEN],
        ZONE_WEIGHT[KNIGHT], ZONE_WEIGHT[BISHOP], ZONE_WEIGHT[ROOK], ZONE_WEIGHT[QUEEN],
        ZONE_WEIGHT[FALCON], DANGER_SCALE, DANGER_CAP, DANGER_DIVISOR,
        PHASE_WEIGHT[KNIGHT], PHASE_WEIGHT[BISHOP], PHASE_WEIGHT[ROOK], PHASE_WEIGHT[QUEEN],
        PHASE_WEIGHT[FALCON], FULL_PHASE,
    )


def _square_bonus(ptype: int, file: int, rank: int, files: int, ranks: int) -> tuple[int, int]:
    """Positional (mg, eg) for a white piece; black uses the mirrored rank."""
    df = abs(file - (files - 1) / 2)
    dr = abs(rank - (ranks - 1) / 2)
    centre = -(df + dr)
    if ptype == PAWN:
        advance = rank - 1
        central = 6 if 0 < df < 2.5 and 2 <= rank <= 4 else 0
        return 4 * advance + central, 12 * advance
    if ptype == KNIGHT:
        return int(6 * centre) + 10, int(4 * centre) + 6
    if ptype == BISHOP:
        return int(3 * centre) + 6, int(2 * centre) + 4
    if ptype == FALCON:
        return int(5 * centre) + 10, int(4 * centre) + 8
    if ptype == ROOK:
        return (15 if rank == ranks - 2 else 0) + (4 if df < 2 else 0), 0
    if ptype == QUEEN:
        return int(2 * centre) + 4, int(3 * centre) + 6
    # King: at home in the middle game, to the centre in the endgame.
    home = 12 if rank == 0 and df > 1.5 else 0
    return home - 18 * rank, int(8 * centre) + 20


@cache
def square_tables(files: int, ranks: int) -> tuple[list[list[int]], list[list[int]]]:
    """(mg, eg)[piece code][square]: material plus position, white-positive."""
    size = files * ranks
    mg = [[0] * size for _ in range(16)]
    eg = [[0] * size for _ in range(16)]
    for ptype, (mv, ev) in VALUES.items():
        for sq in range(size):
            file, rank = sq % files, sq // files
            pm, pe = _square_bonus(ptype, file, rank, files, ranks)
            mg[ptype][sq] = mv + pm
            eg[ptype][sq] = ev + pe
            mirror = (ranks - 1 - rank) * files + file
            mg[ptype | BLACK << 3][mirror] = -(mv + pm)
            eg[ptype | BLACK << 3][mirror] = -(ev + pe)
    return mg, eg


def _phase(p: list[int]) -> int:
    return min(sum(weight * p[ptype].bit_count() for ptype, weight in PHASE_WEIGHT.items()),
               FULL_PHASE)


def material_sums(pos: Position) -> tuple[int, int]:
    """The (mg, eg) sums of :func:`square_tables` from scratch."""
    mg, eg = square_tables(pos.geometry.files, pos.geometry.ranks)
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
        self.full_phase = FULL_PHASE

    def material(self, pos: Position, mg: int, eg: int) -> int:
        """Material and square values only, tapered, for the side to move:
        the cheap part of :meth:`evaluate`, for lazy evaluation."""
        phase = _phase(pos.pieces)
        score = (mg * phase + eg * (self.full_phase - phase)) // self.full_phase
        return score if pos.turn == WHITE else -score

    def evaluate(self, pos: Position, mg: int, eg: int) -> int:
        """Score for the side to move; ``mg``/``eg`` are the incremental sums."""
        p = pos.pieces
        white, black = pos.colors
        occ = white | black
        phase = _phase(p)
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
                    weight, baseline = MOBILITY[ptype]
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
