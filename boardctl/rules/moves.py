"""Moves: the public ``Move`` value and the packed ints the generator uses.

The generator and the engine pass moves around as ints (``encode``), which
Python creates and compares far faster than objects; everything user-facing
uses :class:`Move`.  A ``Move`` is exactly what coordinate notation says:
from-square, to-square and promotion.  Castling is the king's from- and
to-square, except the castling whose king goes one square towards the rook,
which is written king-takes-rook (``f1j1``) so that it differs from the
plain king step (``f1g1``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .pieces import PieceType

# The packed layout is written here and, for the compiled search core, in
# boardctl/engine/csrc/move.h; a change to one is a change to both.
# Flags in bits 17-18 of a packed move.
NORMAL = 0
DOUBLE_PUSH = 1
EN_PASSANT = 2
CASTLE = 3


def encode(frm: int, to: int, promotion: int = 0, flag: int = NORMAL) -> int:
    """Pack a move; for castling ``to`` is the king's destination."""
    return frm | to << 7 | promotion << 14 | flag << 17


def code_from(code: int) -> int:
    return code & 127


def code_to(code: int) -> int:
    return code >> 7 & 127


def code_promotion(code: int) -> int:
    return code >> 14 & 7


def code_flag(code: int) -> int:
    return code >> 17


def code_squares(code: int) -> int:
    """The from- and to-square together, without promotion and flag: a key
    for tables kept by both squares (the search's history)."""
    return code & 16383


@dataclass(frozen=True, slots=True)
class Move:
    """A move as coordinate notation sees it (see module docstring)."""

    from_square: int
    to_square: int
    promotion: PieceType | None = None
