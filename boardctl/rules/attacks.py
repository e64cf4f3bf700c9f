"""What attacks a cell, and what shields a king: the attack tables read
through the board's geometry.

Two kinds of shield exist in Falcon Chess: the only piece between the king
and an enemy slider (a pin, as in chess), and the only piece on one of the
two squares of an enemy falcon's path to the king (blocked paths open when it
leaves).  The move generator (:mod:`.movegen`) holds a shield to the squares
that keep it shielding, and a piece that answers a check to
:func:`check_stops`.
"""

from __future__ import annotations

from .boardgeometry import Bitboard, BoardTables
from .pieces import BISHOP, FALCON, KING, KNIGHT, PAWN, QUEEN, ROOK
from .state import PositionState

Position = PositionState[BoardTables]  # what the attacks read of a position


def attackers(pos: Position, sq: int, by: int, occ: Bitboard) -> Bitboard:
    """Pieces of colour ``by`` attacking ``sq``, with ``occ`` as the blockers."""
    t = pos.tables
    p = pos.pieces
    them = pos.colors[by]
    att = (
        (t.knight[sq] & p[KNIGHT]) | (t.king[sq] & p[KING]) | (t.pawn_attacks[by ^ 1][sq] & p[PAWN])
    ) & them
    rq = (p[ROOK] | p[QUEEN]) & them
    if t.rook_empty[sq] & rq:
        for masks, tables in t.rook_lines:
            att |= tables[sq][occ & masks[sq]] & rq
    bq = (p[BISHOP] | p[QUEEN]) & them
    if t.bishop_empty[sq] & bq:
        for masks, tables in t.bishop_lines:
            att |= tables[sq][occ & masks[sq]] & bq
    falcons = p[FALCON] & them
    if t.falcon_empty[sq] & falcons:
        for mask, table in t.falcon_groups[sq]:
            att |= table[occ & mask] & falcons
    return att


def shields(pos: Position, king: int, own: Bitboard, occ: Bitboard) -> dict[int, Bitboard]:
    """Own pieces that shield the king, mapped to the squares they may move to."""
    t = pos.tables
    p = pos.pieces
    opp = pos.colors[pos.turn ^ 1]
    allowed: dict[int, Bitboard] = {}
    snipers = (
        (t.rook_empty[king] & (p[ROOK] | p[QUEEN]))
        | (t.bishop_empty[king] & (p[BISHOP] | p[QUEEN]))
    ) & opp
    between = t.between[king]
    while snipers:
        low = snipers & -snipers
        snipers ^= low
        sniper = low.bit_length() - 1
        blockers = between[sniper] & occ
        if blockers and not blockers & (blockers - 1) and blockers & own:
            sq = blockers.bit_length() - 1
            allowed[sq] = allowed.get(sq, t.all) & (between[sniper] | low)
    falcons = t.falcon_empty[king] & p[FALCON] & opp
    while falcons:
        low = falcons & -falcons
        falcons ^= low
        for mask in t.falcon_path_masks[king][low.bit_length() - 1]:
            blockers = occ & mask
            if not blockers & (blockers - 1) and blockers & own:
                sq = blockers.bit_length() - 1
                allowed[sq] = allowed.get(sq, t.all) & (mask | low)
    return allowed


def check_stops(pos: Position, king: int, checkers: Bitboard, occ: Bitboard) -> Bitboard:
    """The squares where a piece other than the king stops every check at
    once: the checker, a square between a line piece and the king, or a
    square every open path of a checking falcon crosses.  Reads only the
    tables every board shape has, so the hexagon's generator uses it too."""
    t = pos.tables
    target = t.all
    between = t.between[king]
    falcons = pos.pieces[FALCON]
    bb = checkers
    while bb:
        low = bb & -bb
        bb ^= low
        checker = low.bit_length() - 1
        stops = low | between[checker]
        if falcons & low:
            common = t.all
            for mask in t.falcon_path_masks[king][checker]:
                if not occ & mask:
                    common &= mask
            stops |= common
        target &= stops
    return target
