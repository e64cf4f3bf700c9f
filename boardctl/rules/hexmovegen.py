"""Legal moves and attacks on the hexagon (RULES-HEX.md), on bitboards.

The method is the rectangle's (:mod:`boardctl.rules.movegen`): out of check,
moves are legal by construction, the king tested with itself lifted off the
board and every shielding piece held to the cells that keep it shielding (the
only man between the king and an enemy slider, or on a falcon's path to it);
in check, and for en passant, each candidate is made and tested.  What
differs is the board: three rook lines and three bishop lines through a cell,
pawns stepping by per-cell tables, a double step from any initial pawn cell
of the pawn's colour, promotion on the last cell of each file, no castling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .boardgeometry import Bitboard
from .movegen import check_stops, shields
from .moves import DOUBLE_PUSH, EN_PASSANT
from .pieces import BISHOP, FALCON, KING, KNIGHT, PAWN, QUEEN, ROOK

if TYPE_CHECKING:
    from .hexposition import HexPosition



def attackers(pos: HexPosition, sq: int, by: int, occ: Bitboard) -> Bitboard:
    """Men of colour ``by`` attacking ``sq``, with ``occ`` as the blockers."""
    t = pos.tables
    p = pos.pieces
    them = pos.colors[by]
    att = (
        (t.knight[sq] & p[KNIGHT])
        | (t.king[sq] & p[KING])
        | (t.pawn_attacks[by ^ 1][sq] & p[PAWN])
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


def legal_codes(pos: HexPosition) -> list[int]:
    out: list[int] = []
    _generate(pos, out)
    return out


def count_legal(pos: HexPosition) -> int:
    return _generate(pos, None)


def legal_captures(pos: HexPosition) -> list[int]:
    """Legal captures and promotions; every legal move when in check."""
    out: list[int] = []
    _generate(pos, out, captures=True)
    return out


def pseudo_legal_codes(pos: HexPosition) -> list[int]:
    """Moves by the men's movement rules that may leave the own king attacked."""
    t = pos.tables
    own = pos.colors[pos.turn]
    occ = own | pos.colors[pos.turn ^ 1]
    king = pos.kings[pos.turn]
    out: list[int] = []
    _piece_moves(pos, out, t.all & ~own, own, occ)
    _pawn_moves(pos, out, own, t.all, occ)
    out.extend(_codes(king, t.king[king] & ~own))
    if pos.ep_square is not None:
        out.extend(_ep_codes(pos))
    return out


def _codes(frm: int, targets: Bitboard) -> list[int]:
    out = []
    while targets:
        low = targets & -targets
        targets ^= low
        out.append(frm | (low.bit_length() - 1) << 7)
    return out


def _ep_codes(pos: HexPosition) -> list[int]:
    ep = pos.ep_square
    assert ep is not None
    pawns = pos.tables.pawn_attacks[pos.turn ^ 1][ep] & pos.pieces[PAWN] & pos.colors[pos.turn]
    return [frm | ep << 7 | EN_PASSANT << 17 for frm in pos.geometry.squares(pawns)]


def _generate(pos: HexPosition, out: list[int] | None, captures: bool = False) -> int:
    """Append legal moves to ``out``, or count them when ``out`` is None;
    with ``captures``, only captures and promotions (unless in check)."""
    t = pos.tables
    us = pos.turn
    own = pos.colors[us]
    opp = pos.colors[us ^ 1]
    occ = own | opp
    king = pos.kings[us]
    checkers = attackers(pos, king, us ^ 1, occ)
    if checkers:
        return _evasions(pos, out, checkers, king, own, occ)
    shielding = shields(pos, king, own, occ)
    pinned = 0
    for sq in shielding:
        pinned |= 1 << sq
    target = opp if captures else t.all & ~own
    n = _piece_moves(pos, out, target, own & ~pinned, occ)
    for sq, allowed in shielding.items():
        bit = 1 << sq
        if pos.pieces[PAWN] & bit:
            n += _pawn_moves(pos, out, bit, allowed & t.all, occ, captures)
        else:
            n += _piece_moves(pos, out, allowed & target, bit, occ)
    n += _pawn_moves(pos, out, own & ~pinned, t.all, occ, captures)
    n += _king_moves(pos, out, king, own | (~opp if captures else 0), occ)
    if pos.ep_square is not None:
        n += _keep_safe(pos, out, _ep_codes(pos))
    return n


def _piece_moves(
    pos: HexPosition, out: list[int] | None, target: Bitboard, movers: Bitboard, occ: Bitboard
) -> int:
    """Knight, bishop, rook, queen and falcon moves of ``movers`` onto ``target``."""
    t = pos.tables
    p = pos.pieces
    jobs: list[tuple[int, Bitboard]] = []
    bb = p[KNIGHT] & movers
    while bb:
        low = bb & -bb
        bb ^= low
        sq = low.bit_length() - 1
        jobs.append((sq, t.knight[sq] & target))
    for sliders, lines in (
        (p[BISHOP] | p[QUEEN], t.bishop_lines),
        (p[ROOK] | p[QUEEN], t.rook_lines),
    ):
        bb = sliders & movers
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            att = 0
            for masks, tables in lines:
                att |= tables[sq][occ & masks[sq]]
            jobs.append((sq, att & target))
    bb = p[FALCON] & movers
    while bb:
        low = bb & -bb
        bb ^= low
        sq = low.bit_length() - 1
        att = 0
        for mask, table in t.falcon_groups[sq]:
            att |= table[occ & mask]
        jobs.append((sq, att & target))
    if out is None:
        return sum(targets.bit_count() for _, targets in jobs)
    for sq, targets in jobs:
        out.extend(_codes(sq, targets))
    return 0


def _pawn_moves(
    pos: HexPosition, out: list[int] | None, movers: Bitboard, target: Bitboard, occ: Bitboard,
    captures: bool = False,
) -> int:
    """Steps, double steps, captures and promotions of the pawns in ``movers``
    onto ``target``; with ``captures``, steps only when they promote."""
    t = pos.tables
    us = pos.turn
    pawns = pos.pieces[PAWN] & movers
    push = t.pawn_push[us]
    hits = t.pawn_attacks[us]
    last = t.promotion[us]
    starts = pos.double_step_from[us]
    opp = pos.colors[us ^ 1] & target
    promos = pos.variant.promotions
    n = 0
    while pawns:
        low = pawns & -pawns
        pawns ^= low
        frm = low.bit_length() - 1
        targets = hits[frm] & opp
        to = push[frm]
        if to >= 0 and not occ >> to & 1:
            if target >> to & 1 and (not captures or last >> to & 1):
                targets |= 1 << to
            if starts & low and not captures:
                two = push[to]
                if two >= 0 and not occ >> two & 1 and target >> two & 1:
                    if out is None:
                        n += 1
                    else:
                        out.append(frm | two << 7 | DOUBLE_PUSH << 17)
        if out is None:
            n += (targets & ~last).bit_count() + (targets & last).bit_count() * len(promos)
            continue
        while targets:
            bit = targets & -targets
            targets ^= bit
            code = frm | (bit.bit_length() - 1) << 7
            if bit & last:
                out.extend(code | promo << 14 for promo in promos)
            else:
                out.append(code)
    return n


def _king_moves(
    pos: HexPosition, out: list[int] | None, king: int, own: Bitboard, occ: Bitboard
) -> int:
    them = pos.turn ^ 1
    lifted = occ ^ (1 << king)
    targets = pos.tables.king[king] & ~own
    n = 0
    while targets:
        low = targets & -targets
        targets ^= low
        to = low.bit_length() - 1
        if not attackers(pos, to, them, lifted):
            if out is None:
                n += 1
            else:
                out.append(king | to << 7)
    return n


def _keep_safe(pos: HexPosition, out: list[int] | None, codes: list[int]) -> int:
    """Make each move and keep those after which the mover's king is not attacked."""
    us = pos.turn
    n = 0
    for code in codes:
        pos.make(code)
        safe = not attackers(pos, pos.kings[us], us ^ 1, pos.colors[0] | pos.colors[1])
        pos.unmake()
        if safe:
            if out is None:
                n += 1
            else:
                out.append(code)
    return n


def _evasions(
    pos: HexPosition, out: list[int] | None, checkers: Bitboard, king: int,
    own: Bitboard, occ: Bitboard,
) -> int:
    """Moves out of check: king steps, and moves of other men onto a cell
    that stops every check at once (the checker, a cell between a line piece
    and the king, or a cell every open path of a checking falcon crosses),
    each made and tested; en passant is always tried."""
    n = _king_moves(pos, out, king, own, occ)
    target = check_stops(pos, king, checkers, occ)
    candidates: list[int] = []
    if target:
        movers = own & ~(1 << king)
        _piece_moves(pos, candidates, target, movers, occ)
        _pawn_moves(pos, candidates, movers, target, occ)
    if pos.ep_square is not None:
        candidates.extend(_ep_codes(pos))
    return n + _keep_safe(pos, out, candidates)
