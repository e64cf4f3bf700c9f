"""The Falcon Chess rules core: pure Python, typed, no I/O.

Everything the rest of boardctl needs from the rules is importable from here.
"""

from .errors import (
    AmbiguousMoveError,
    BoardctlError,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    PgnError,
    UnknownVariantError,
)
from .game import Game, Outcome, Termination, is_dead_position
from .geometry import Geometry, SquareError, falcon_steps
from .moves import Move
from .notation import parse_move, parse_san, parse_uci, san
from .perft import divide, perft
from .pieces import BLACK, WHITE, PieceType
from .position import Position
from .variants import DEFAULT_VARIANT, VARIANTS, Variant, get_variant

__all__ = [
    "BLACK",
    "DEFAULT_VARIANT",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "BoardctlError",
    "FenError",
    "Game",
    "Geometry",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "Outcome",
    "PgnError",
    "PieceType",
    "Position",
    "SquareError",
    "Termination",
    "UnknownVariantError",
    "Variant",
    "divide",
    "falcon_steps",
    "get_variant",
    "is_dead_position",
    "parse_move",
    "parse_san",
    "parse_uci",
    "perft",
    "san",
]
