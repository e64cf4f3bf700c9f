"""Castling: the king towards a rook by the preset's distances, the rook
over it; judged before it, with the king at home, or, as Fairy-Max does,
after it (docs/fairymax-castling.md).
"""

from __future__ import annotations

from collections.abc import Iterator

from .attacks import attackers
from .boardgeometry import Bitboard, BoardTables
from .moves import CASTLE
from .state import PositionState

Position = PositionState[BoardTables]  # what the generator reads of a position


def castles(pos: Position, out: list[int] | None, king: int, occ: Bitboard) -> int:
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
