"""Colours and piece types, as small ints for the hot paths.

A piece on the board is ``piece_type | colour << 3`` (0 is an empty square),
so ``piece & 7`` is its type and ``piece >> 3`` its colour.
"""

from __future__ import annotations

from enum import IntEnum

Color = int
WHITE: Color = 0
BLACK: Color = 1


class PieceType(IntEnum):
    PAWN = 1
    KNIGHT = 2
    BISHOP = 3
    ROOK = 4
    QUEEN = 5
    KING = 6
    FALCON = 7

    @property
    def symbol(self) -> str:
        return SYMBOLS[self]

    @property
    def title(self) -> str:
        return self.name.lower()


PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, FALCON = (
    PieceType.PAWN,
    PieceType.KNIGHT,
    PieceType.BISHOP,
    PieceType.ROOK,
    PieceType.QUEEN,
    PieceType.KING,
    PieceType.FALCON,
)

# The order players list pieces in, the king first (the simulator's tray,
# the board's voice naming where the pieces stand).
LISTING_ORDER = (KING, QUEEN, FALCON, ROOK, BISHOP, KNIGHT, PAWN)

# Index by piece type; index 0 is "no piece".
SYMBOLS = ("", "p", "n", "b", "r", "q", "k", "f")


def piece_kind(piece: int) -> int:
    """The type of a piece code (0 for an empty square)."""
    return piece & 7


def piece_colour(piece: int) -> Color:
    return piece >> 3


def piece_symbol(piece: int) -> str:
    """FEN letter of a piece code: upper case for white."""
    letter = SYMBOLS[piece & 7]
    return letter.upper() if piece >> 3 == WHITE else letter


def piece_from_symbol(letter: str) -> int:
    """Piece code of a FEN letter, or 0 when it is not a piece letter."""
    lower = letter.lower()
    if len(letter) != 1 or lower not in SYMBOLS[1:]:
        return 0
    colour = WHITE if letter.isupper() else BLACK
    return SYMBOLS.index(lower) | colour << 3
