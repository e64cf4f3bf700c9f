"""Legal move generation and attack detection on bitboards.

Out of check, moves are legal by construction: the king never steps onto an
attacked square (tested with the king lifted off the board), and a piece that
shields its king is held to the squares that keep it shielding.  Two kinds of
shield exist in Falcon Chess: the only piece between the king and an enemy
slider (a pin, as in chess), and the only piece on one of the two squares of
an enemy falcon's path to the king (blocked paths open when it leaves).  En
passant, and every move while in check, is made and tested instead; they are
rare enough that the simpler way costs nothing measurable.

``count_legal`` walks the same code but adds up target sets with
``int.bit_count`` instead of building a list: the fast leaf of a perft.

One generator serves every board: the geometry's tables give each slider
its lines through a cell (two on a rectangle, three on a hexagon), the
falcon its groups of destinations, and the pawns their steps, by a shift of
the whole bitboard where one serves (a rectangle) or cell by cell.
"""

from __future__ import annotations

from collections.abc import Iterator

from .boardgeometry import Bitboard, BoardTables
from .moves import CASTLE, DOUBLE_PUSH, EN_PASSANT
from .pieces import BISHOP, FALCON, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE
from .state import PositionState

Position = PositionState[BoardTables]  # what the generator reads of a position


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


def legal_codes(pos: Position) -> list[int]:
    out: list[int] = []
    _generate(pos, out)
    return out


def count_legal(pos: Position) -> int:
    return _generate(pos, None)


def legal_captures(pos: Position) -> list[int]:
    """Legal captures and promotions; every legal move when in check."""
    out: list[int] = []
    _generate(pos, out, captures=True)
    return out


def pseudo_legal_codes(pos: Position) -> list[int]:
    """Moves that follow the pieces' movement rules but may leave the own king
    attacked (castling only where legal): what a player might try on the board."""
    t = pos.tables
    own = pos.colors[pos.turn]
    occ = own | pos.colors[pos.turn ^ 1]
    king = pos.kings[pos.turn]
    out: list[int] = []
    _piece_moves(pos, out, t.all & ~own, own, occ)
    _pawn_moves(pos, out, own, t.all, occ)
    targets = t.king[king] & ~own
    while targets:
        low = targets & -targets
        targets ^= low
        out.append(king | (low.bit_length() - 1) << 7)
    if pos.ep_square is not None:
        pawns = t.pawn_attacks[pos.turn ^ 1][pos.ep_square] & pos.pieces[PAWN] & own
        while pawns:
            low = pawns & -pawns
            pawns ^= low
            out.append((low.bit_length() - 1) | pos.ep_square << 7 | EN_PASSANT << 17)
    if pos.castling & own:
        out.extend(code for code in legal_codes(pos) if code >> 17 == CASTLE)
    return out


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


def _generate(pos: Position, out: list[int] | None, captures: bool = False) -> int:
    """Append legal moves to ``out``, or count them when ``out`` is None;
    with ``captures``, only captures and promotions (unless in check)."""
    t = pos.tables
    us = pos.turn
    them = us ^ 1
    p = pos.pieces
    own = pos.colors[us]
    opp = pos.colors[them]
    occ = own | opp
    king = pos.kings[us]
    checkers = attackers(pos, king, them, occ)
    if checkers:
        return _evasions(pos, out, checkers, king, own, occ)
    shielding = shields(pos, king, own, occ)
    pinned = 0
    for sq in shielding:
        pinned |= 1 << sq
    target = opp if captures else t.all & ~own
    # A shielding pawn has always been held to ``target`` on a rectangle and
    # not on a hexagon, so only the hexagon's legal_captures lists a shielding
    # pawn's promoting step: kept as it was, this being one generator now.
    pawn_target = target if t.pawn_shift else t.all
    n = _piece_moves(pos, out, target, own & ~pinned, occ)
    for sq, allowed in shielding.items():
        bit = 1 << sq
        if p[PAWN] & bit:
            n += _pawn_moves(pos, out, bit, allowed & pawn_target, occ, captures)
        else:
            n += _piece_moves(pos, out, allowed & target, bit, occ)
    n += _pawn_moves(pos, out, own & ~pinned, t.all, occ, captures)
    n += _king_moves(pos, out, king, own | (~opp if captures else 0), occ)
    if pos.castling & own and not captures:
        n += _castles(pos, out, king, occ)
    if pos.ep_square is not None:
        n += _en_passant(pos, out, p[PAWN] & own)
    return n


def _piece_moves(
    pos: Position, out: list[int] | None, target: Bitboard, movers: Bitboard, occ: Bitboard
) -> int:
    """Knight, bishop, rook, queen and falcon moves of ``movers`` onto ``target``."""
    t = pos.tables
    p = pos.pieces
    jobs: list[tuple[int, Bitboard]] = []
    bb = p[KNIGHT] & movers
    knight = t.knight
    while bb:
        low = bb & -bb
        bb ^= low
        sq = low.bit_length() - 1
        jobs.append((sq, knight[sq] & target))
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
    groups = t.falcon_groups
    while bb:
        low = bb & -bb
        bb ^= low
        sq = low.bit_length() - 1
        att = 0
        for mask, table in groups[sq]:
            att |= table[occ & mask]
        jobs.append((sq, att & target))
    n = 0
    if out is None:
        for _, targets in jobs:
            n += targets.bit_count()
        return n
    append = out.append
    for sq, targets in jobs:
        while targets:
            low = targets & -targets
            targets ^= low
            append(sq | (low.bit_length() - 1) << 7)
    return 0


def _pawn_moves(
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
    """:func:`_pawn_moves` by shifting the whole bitboard: a rectangle's."""
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
    """:func:`_pawn_moves` cell by cell, by the tables' steps: a hexagon's."""
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
    pos: Position, out: list[int] | None, king: int, own: Bitboard, occ: Bitboard
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


def _castles(pos: Position, out: list[int] | None, king: int, occ: Bitboard) -> int:
    """Castling moves.  Unless the variant judges castling after the fact,
    the caller has made sure the king is not in check."""
    variant = pos.variant
    them = pos.turn ^ 1
    n = 0
    for rook, step, distances in _castling_rooks(pos, king, occ):
        if not distances:
            continue
        for d in range(1, distances[-1] + 1):
            dest = king + step * d
            if variant.castle_judged_after:
                if d < distances[0]:
                    continue
                if not _safe_after_castling(pos, king, dest, rook, step, occ):
                    continue
            elif attackers(pos, dest, them, occ):
                break
            elif d < distances[0]:
                continue
            if out is None:
                n += 1
            else:
                out.append(king | dest << 7 | CASTLE << 17)
    return n


def castling_shapes(pos: Position) -> list[int]:
    """Castlings the rights and the empty squares allow, whether or not the
    king would be attacked on its way: what a player may try on the board, so
    that an illegal one is recognised as castling and not as another move
    that fills the same squares."""
    king = pos.kings[pos.turn]
    occ = pos.colors[0] | pos.colors[1]
    return [
        king | (king + step * d) << 7 | CASTLE << 17
        for _, step, distances in _castling_rooks(pos, king, occ)
        for d in distances
    ]


def _castling_rooks(pos: Position, king: int, occ: Bitboard) -> Iterator[tuple[int, int, range]]:
    """(rook square, the king's direction, its distances) for each rook the
    side to move may castle with, nothing standing between."""
    t = pos.tables
    rights = pos.castling & pos.colors[pos.turn]
    while rights:
        low = rights & -rights
        rights ^= low
        rook = low.bit_length() - 1
        if not t.between[king][rook] & occ:
            yield (
                rook,
                1 if rook > king else -1,
                pos.variant.castle_distances(pos.geometry.file_of(rook)),
            )


def _safe_after_castling(
    pos: Position, king: int, dest: int, rook: int, step: int, occ: Bitboard
) -> bool:
    """Fairy-Max's test: the king's squares, judged with king and rook moved.

    See docs/fairymax-castling.md for how this was established.
    """
    them = pos.turn ^ 1
    after = occ ^ (1 << king) ^ (1 << rook) ^ (1 << dest) ^ (1 << (dest - step))
    sq = king
    while True:
        if attackers(pos, sq, them, after):
            return False
        if sq == dest:
            return True
        sq += step


def _en_passant(pos: Position, out: list[int] | None, pawns: Bitboard) -> int:
    """En passant captures, each made and tested: removing two pawns from one
    rank can open a line (or a falcon path) to the king."""
    ep = pos.ep_square
    assert ep is not None
    capturers = pos.tables.pawn_attacks[pos.turn ^ 1][ep] & pawns
    codes = []
    while capturers:
        low = capturers & -capturers
        capturers ^= low
        codes.append((low.bit_length() - 1) | ep << 7 | EN_PASSANT << 17)
    return _keep_safe(pos, out, codes)


def _keep_safe(pos: Position, out: list[int] | None, codes: list[int]) -> int:
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


def _evasions(
    pos: Position,
    out: list[int] | None,
    checkers: Bitboard,
    king: int,
    own: Bitboard,
    occ: Bitboard,
) -> int:
    """Moves out of check: king steps, and moves of other pieces onto a square
    that stops every check at once, each made and tested.

    A move other than the king's answers a check only where it lands (leaving
    a square opens lines and paths, never closes them): on the checker,
    between a line piece and the king, or on a square that every open path
    of a checking falcon crosses.  Against two checkers the square must stop
    both, and unlike in chess one square can: a falcon's path may cross a
    rook's line, or another falcon's path (RULES.md).  En passant, which also
    removes a pawn, is always tried.
    """
    t = pos.tables
    us = pos.turn
    n = _king_moves(pos, out, king, own, occ)
    if pos.variant.castle_judged_after and pos.castling & own:
        # Fairy-Max judges castling only in the position after it, so a
        # castling whose rook blocks the check is legal there.
        n += _castles(pos, out, king, occ)
    target = check_stops(pos, king, checkers, occ)
    candidates: list[int] = []
    if target:
        movers = own & ~(1 << king)
        _piece_moves(pos, candidates, target, movers, occ)
        _pawn_moves(pos, candidates, movers, target, occ)
    if pos.ep_square is not None:
        # The captured pawn may be the checker, and the square it leaves may
        # open a line: pseudo-legal here, the test below decides.
        ep = pos.ep_square
        pawns = t.pawn_attacks[us ^ 1][ep] & pos.pieces[PAWN] & own
        while pawns:
            low = pawns & -pawns
            pawns ^= low
            candidates.append((low.bit_length() - 1) | ep << 7 | EN_PASSANT << 17)
    return n + _keep_safe(pos, out, candidates)
