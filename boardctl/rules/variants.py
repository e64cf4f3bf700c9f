"""Rule presets: board, start position, castling style, promotions, scoring.

A variant is data (python-chess's ``variant.py`` idea): the move generator
reads these fields and has no per-variant branches beyond them.  Look one up
with :func:`get_variant`; a wrong name raises :class:`UnknownVariantError`
that lists the names there are.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .boardgeometry import BoardGeometry
from .errors import UnknownVariantError
from .geometry import Geometry
from .hexgeo import FALCON_HEX, GLINSKI
from .pieces import BISHOP, FALCON, KNIGHT, QUEEN, ROOK, PieceType


@dataclass(frozen=True)
class Variant:
    """One set of Falcon Chess rules: every way the presets differ is a field
    here, set by the preset, so that no code asks which board it is on.

    Castling: a preset with ``castling`` has a king on ``king_file`` of its
    first and last ranks and rooks in the corners (:attr:`rook_files`); the
    king moves towards a rook by a distance in ``castle_min .. castle_max``
    (``None``: up to the square next to the rook) and the rook jumps over it.
    ``castle_judged_after`` tests the king's squares for attacks in the
    position after castling, as Fairy-Max does (see docs/fairymax-castling.md);
    otherwise before, with the king at home.  The hexagons have no castling.

    Pawns: a pawn steps twice from any square where a pawn of its colour
    stands in ``start_fen`` (:func:`boardctl.rules.fen.pawn_start_squares`),
    so a set-up with pawns on two ranks needs no field of its own; it promotes
    to one of ``promotions``.

    ``geometry`` is the board: a :class:`Geometry` rectangle or a
    :class:`~boardctl.rules.hexgeo.HexGeometry` hexagon.  ``stalemate_points``
    is what the side that gives stalemate scores: ½ where stalemate is a draw,
    ¾ in Glinski's hexagonal chess and its falcon version.

    Dead positions (kings with knights and bishops only,
    :func:`~boardctl.rules.game.is_dead_position`): with ``lone_knight_mates``
    a king and a knight can mate a bare king, so no knight is dead; bishops
    that all stand on one cell colour are dead unless it is one of
    ``bishop_mate_shades``, the colours on which bishops alone can mate.  On a
    rectangle bishops of one colour never mate; on the hexagons a lone knight
    does, and so do bishops on any colour but the centre's
    (tests/rules/test_hex_game.py derives both from the board).

    ``pgn_tag`` is the PGN ``Variant`` tag; ``None``: the preset's name.
    """

    name: str
    title: str
    geometry: BoardGeometry
    start_fen: str
    castling: bool = True
    king_file: int = 0
    castle_min: int = 1
    castle_max: int | None = None
    castle_judged_after: bool = False
    promotions: tuple[PieceType, ...] = (QUEEN, FALCON, ROOK, BISHOP, KNIGHT)
    stalemate_points: float = 0.5
    lone_knight_mates: bool = False
    bishop_mate_shades: frozenset[int] = frozenset()
    pgn_tag: str | None = None

    @property
    def pgn_name(self) -> str:
        """The PGN ``Variant`` tag: the preset's own tag, else its name."""
        return self.name if self.pgn_tag is None else self.pgn_tag

    @property
    def files(self) -> int:
        return self.geometry.files

    @property
    def ranks(self) -> int:
        return self.geometry.ranks

    @property
    def rook_files(self) -> tuple[int, int]:
        """Files of the castling rooks: (a-side, far side)."""
        return (0, self.geometry.files - 1)

    def castle_distances(self, rook_file: int) -> range:
        """How far the king may move when castling with the rook on ``rook_file``."""
        room = abs(rook_file - self.king_file) - 1
        high = room if self.castle_max is None else min(room, self.castle_max)
        return range(self.castle_min, high + 1)


FALCON_START = "rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1"
# RULES-HEX.md section 6 (falcon-hex) and 1.7 (Glinski's set-up, in the FEN
# of his names: the bent ranks 11 down to 1).
FALCON_HEX_START = (
    "prnfq/2p3bk/3p2b1f/4p1b2n/5p4r/6pppppp/11/PPPPPP6/R4P5/N2B1P4/F1B2P3/QB3P2/KFNRP w - - 0 1"
)
GLINSKI_START = "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - - 0 1"
_8x10 = Geometry(10, 8)
_OFF_CENTRE = frozenset({1, 2})  # a hexagon's cell colours but the centre's (0)

# Glinski's hexagonal chess, the base game of the hexagons and the check of
# their geometry: no castling, stalemate scores 3/4 to 1/4, and a lone knight
# or bishops off the centre's colour can mate.
_GLINSKI = Variant(
    "glinski",
    "Glinski's hexagonal chess",
    GLINSKI,
    GLINSKI_START,
    castling=False,
    promotions=(QUEEN, ROOK, BISHOP, KNIGHT),
    stalemate_points=0.75,
    lone_knight_mates=True,
    bishop_mate_shades=_OFF_CENTRE,
    pgn_tag="Glinski",
)

_PRESETS = (
    Variant(
        "falcon",
        "Falcon Chess (free castling)",
        _8x10,
        FALCON_START,
        king_file=5,
        pgn_tag="Falcon",
    ),
    Variant(
        "falcon-orthodox-castling",
        "Falcon Chess, orthodox castling",
        _8x10,
        FALCON_START,
        king_file=5,
        castle_min=2,
        castle_max=2,
    ),
    Variant(
        "falcon-modified-free",
        "Falcon Chess, modified free castling",
        _8x10,
        FALCON_START,
        king_file=5,
        castle_min=2,
    ),
    Variant(
        "falcon-xboard",
        "Falcon Chess as XBoard and Fairy-Max play it",
        _8x10,
        FALCON_START,
        king_file=5,
        castle_min=3,
        castle_max=3,
        castle_judged_after=True,
    ),
    # The patent's other board sizes, "the pieces remain the same": the 8×10
    # back rank and free castling.  docs/board-sizes.md gives the readings.
    Variant(
        "falcon-9x10",
        "Falcon Chess on 9×10",
        Geometry(10, 9),
        "rnbfqkfbnr/pppppppppp/10/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1",
        king_file=5,
    ),
    # RULES.md: pawns on the third rank on 10×10, otherwise not specified;
    # rank 2 stays empty.
    Variant(
        "falcon-10x10",
        "Falcon Chess on 10×10",
        Geometry(10, 10),
        "rnbfqkfbnr/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/RNBFQKFBNR w KQkq - 0 1",
        king_file=5,
    ),
    # The essay's 10×10 set-up: only "the central pawns in front of falcons,
    # queen, and king" (files d to g) on the third rank, the others on the
    # second, where they keep the castling king covered.
    Variant(
        "falcon-10x10-central",
        "Falcon Chess on 10×10, central pawns advanced",
        Geometry(10, 10),
        "rnbfqkfbnr/ppp4ppp/3pppp3/10/10/10/10/3PPPP3/PPP4PPP/RNBFQKFBNR w KQkq - 0 1",
        king_file=5,
    ),
    Variant(
        "falcon-8x8",
        "Falcon Chess on 8×8, falcon for queen",
        Geometry(8, 8),
        "rnbfkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBFKBNR w KQkq - 0 1",
        king_file=4,
        castle_min=2,
        castle_max=2,
        promotions=(FALCON, ROOK, BISHOP, KNIGHT),
    ),
    # Sibahi's Falcon Hexagonal Chess (RULES-HEX.md): Glinski's rules with the
    # falcon on the 121-cell board, and no queen among the promotions.
    replace(
        _GLINSKI,
        name="falcon-hex",
        title="Falcon Hexagonal Chess",
        geometry=FALCON_HEX,
        start_fen=FALCON_HEX_START,
        promotions=(ROOK, BISHOP, KNIGHT, FALCON),
        pgn_tag="Falcon Hexagonal",
    ),
    _GLINSKI,
)

VARIANTS: dict[str, Variant] = {v.name: v for v in _PRESETS}
DEFAULT_VARIANT = VARIANTS["falcon"]


def get_variant(name: str) -> Variant:
    """The preset called ``name``.

    :raises UnknownVariantError: when there is none.
    """
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise UnknownVariantError(f"unknown variant {name!r} (known: {known})") from None
