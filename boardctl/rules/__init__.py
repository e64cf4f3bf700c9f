"""The Falcon Chess rules core (square boards and hexagons): pure Python, typed, no I/O.

Everything the rest of boardctl needs from the rules is importable from here.
"""

from .boardgeometry import BoardGeometry
from .errors import (
    AmbiguousMoveError,
    BoardctlError,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    PgnError,
    UnknownVariantError,
)
from .game import NO_RESULT, RESULTS, Game, Outcome, Termination, is_dead_position
from .geometry import Geometry, SquareError, falcon_steps
from .hexgeo import FALCON_HEX, GLINSKI, CellError, HexGeometry
from .moves import Move
from .notation import parse_move, parse_san, parse_uci, san
from .perft import divide, perft
from .pieces import BLACK, WHITE, PieceType
from .position import Position
from .variants import DEFAULT_VARIANT, VARIANTS, Variant, get_variant

__all__ = [
    "BLACK",
    "DEFAULT_VARIANT",
    "FALCON_HEX",
    "GLINSKI",
    "NO_RESULT",
    "RESULTS",
    "VARIANTS",
    "WHITE",
    "AmbiguousMoveError",
    "BoardGeometry",
    "BoardctlError",
    "CellError",
    "FenError",
    "Game",
    "Geometry",
    "HexGeometry",
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
