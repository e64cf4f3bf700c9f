"""Pawn moves: pushes, double steps, captures and promotions.

On a rectangle a pawn's step is a shift of the whole bitboard (the tables'
``pawn_shift``), so every pawn moves at once; on a hexagon no one shift
serves, and each pawn steps by the tables, cell by cell.  Both append the
same packed codes (or count them, with ``out`` None), one per promotion piece
of the preset.
"""

from __future__ import annotations

from .boardgeometry import Bitboard, BoardTables
from .moves import DOUBLE_PUSH
from .pieces import PAWN, WHITE
from .state import PositionState

Position = PositionState[BoardTables]  # what the generator reads of a position


def pawn_moves(
    pos: Position,
    out: list[int] | None,
    movers: Bitboard,
    target: Bitboard,
    occ: Bitboard,
    captures: bool = False,
) -> int:
    """Pushes, double pushes, captures and promotions of the pawns in ``movers``
    onto ``target``; with ``captures``, pushes only when they promote."""
    if pos.tables.pawn_shift:
        return _pawn_shifts(pos, out, movers, target, occ, captures)
    return _pawn_steps(pos, out, movers, target, occ, captures)


def _pawn_shifts(
    pos: Position,
    out: list[int] | None,
    movers: Bitboard,
    target: Bitboard,
    occ: Bitboard,
    captures: bool = False,
) -> int:
    """:func:`pawn_moves` by shifting the whole bitboard: a rectangle's."""
    t = pos.tables
    us = pos.turn
    w = t.pawn_shift
    pawns = pos.pieces[PAWN] & movers
    if not pawns:
        return 0
    empty = t.all & ~occ & target
    opp = pos.colors[us ^ 1] & target
    not_left = ~t.file_bb[0]
    not_right = ~t.file_bb[-1]
    if us == WHITE:
        single = (pawns << w) & empty
        double = ((((pawns & pos.double_step_from[us]) << w) & ~occ) << w) & empty
        left = ((pawns & not_left) << (w - 1)) & opp
        right = ((pawns & not_right) << (w + 1)) & opp
        steps = (w, 2 * w, w - 1, w + 1)
    else:
        single = (pawns >> w) & empty
        double = ((((pawns & pos.double_step_from[us]) >> w) & ~occ) >> w) & empty
        left = ((pawns & not_left) >> (w + 1)) & opp
        right = ((pawns & not_right) >> (w - 1)) & opp
        steps = (-w, -2 * w, -w - 1, -w + 1)
    last = t.promotion[us]
    if captures:
        single &= last
        double = 0
    promos = pos.variant.promotions
    if out is None:
        promoting = (single & last).bit_count() + (left & last).bit_count()
        promoting += (right & last).bit_count()
        plain = (single & ~last).bit_count() + (left & ~last).bit_count()
        plain += (right & ~last).bit_count() + double.bit_count()
        return plain + promoting * len(promos)
    flags = (0, DOUBLE_PUSH << 17, 0, 0)
    for targets, step, flag in zip((single, double, left, right), steps, flags, strict=True):
        _append_shifted(out, targets, step, flag, last, promos)
    return 0


def _append_shifted(
    out: list[int], targets: Bitboard, step: int, flag: int, last: Bitboard, promos: tuple[int, ...]
) -> None:
    """The moves to ``targets`` from ``step`` squares behind each, one per
    promotion piece where a target is on the last rank."""
    append = out.append
    while targets:
        low = targets & -targets
        targets ^= low
        to = low.bit_length() - 1
        code = (to - step) | to << 7 | flag
        if low & last:
            for promo in promos:
                append(code | promo << 14)
        else:
            append(code)


def _pawn_steps(
    pos: Position,
    out: list[int] | None,
    movers: Bitboard,
    target: Bitboard,
    occ: Bitboard,
    captures: bool = False,
) -> int:
    """:func:`pawn_moves` cell by cell, by the tables' steps: a hexagon's."""
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
