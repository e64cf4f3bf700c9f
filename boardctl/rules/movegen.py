"""Legal move generation on bitboards.

Out of check, moves are legal by construction: the king never steps onto an
attacked square (tested with the king lifted off the board), and a piece that
shields its king is held to the squares that keep it shielding (the shields
and the attacks are in :mod:`.attacks`; pawns in :mod:`.pawnmoves`, castling
in :mod:`.castling`).  En passant, and every move while in check, is made and
tested instead; they are rare enough that the simpler way costs nothing
measurable.

``count_legal`` walks the same code but adds up target sets with
``int.bit_count`` instead of building a list: the fast leaf of a perft.

One generator serves every board: the geometry's tables give each slider
its lines through a cell (two on a rectangle, three on a hexagon), the
falcon its groups of destinations, and the pawns their steps, by a shift of
the whole bitboard where one serves (a rectangle) or cell by cell.
"""

from __future__ import annotations

from .attacks import attackers, check_stops, shields
from .boardgeometry import Bitboard, BoardTables
from .castling import castles
from .moves import CASTLE, EN_PASSANT
from .pawnmoves import pawn_moves
from .pieces import BISHOP, FALCON, KNIGHT, PAWN, QUEEN, ROOK
from .state import PositionState

Position = PositionState[BoardTables]  # what the generator reads of a position


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
    pawn_moves(pos, out, own, t.all, occ)
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
            n += pawn_moves(pos, out, bit, allowed & pawn_target, occ, captures)
        else:
            n += _piece_moves(pos, out, allowed & target, bit, occ)
    n += pawn_moves(pos, out, own & ~pinned, t.all, occ, captures)
    n += _king_moves(pos, out, king, own | (~opp if captures else 0), occ)
    if pos.castling & own and not captures:
        n += castles(pos, out, king, occ)
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
    for sliders, attacks in (
        (p[BISHOP] | p[QUEEN], t.bishop_attacks),
        (p[ROOK] | p[QUEEN], t.rook_attacks),
        (p[FALCON], t.falcon_attacks),
    ):
        bb = sliders & movers
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            jobs.append((sq, attacks(sq, occ) & target))
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
        n += castles(pos, out, king, occ)
    target = check_stops(pos, king, checkers, occ)
    candidates: list[int] = []
    if target:
        movers = own & ~(1 << king)
        _piece_moves(pos, candidates, target, movers, occ)
        pawn_moves(pos, candidates, movers, target, occ)
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
