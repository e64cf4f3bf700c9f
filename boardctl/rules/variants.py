"""Rule presets: board size, start position, castling style and promotions.

A variant is data (python-chess's ``variant.py`` idea): the move generator
reads these fields and has no per-variant branches beyond them.  Look one up
with :func:`get_variant`; a wrong name raises :class:`UnknownVariantError`
that lists the names there are.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UnknownVariantError
from .geometry import Geometry
from .pieces import BISHOP, FALCON, KNIGHT, QUEEN, ROOK, PieceType


@dataclass(frozen=True)
class Variant:
    """One set of Falcon Chess rules.

    Castling: the king moves towards a rook by a distance in
    ``castle_min .. castle_max`` (``None``: up to the square next to the rook)
    and the rook jumps over it.  ``castle_judged_after`` tests the king's
    squares for attacks in the position after castling, as Fairy-Max does
    (see docs/fairymax-castling.md); otherwise before, with the king at home.

    Pawns: a pawn steps twice from any square where a pawn of its colour
    stands in ``start_fen`` (:func:`boardctl.rules.position.pawn_start_squares`),
    so a set-up with pawns on two ranks needs no field of its own.
    """

    name: str
    title: str
    files: int
    ranks: int
    start_fen: str
    king_file: int
    castle_min: int = 1
    castle_max: int | None = None
    castle_judged_after: bool = False
    promotions: tuple[PieceType, ...] = (QUEEN, FALCON, ROOK, BISHOP, KNIGHT)

    @property
    def pgn_name(self) -> str:
        """The PGN ``Variant`` tag: "Falcon" for the default, else the preset name."""
        return "Falcon" if self.name == "falcon" else self.name

    @property
    def geometry(self) -> Geometry:
        return Geometry(self.files, self.ranks)

    @property
    def rook_files(self) -> tuple[int, int]:
        """Files of the castling rooks: (a-side, far side)."""
        return (0, self.files - 1)

    def castle_distances(self, rook_file: int) -> range:
        """How far the king may move when castling with the rook on ``rook_file``."""
        room = abs(rook_file - self.king_file) - 1
        high = room if self.castle_max is None else min(room, self.castle_max)
        return range(self.castle_min, high + 1)


FALCON_START = "rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1"

_PRESETS = (
    Variant("falcon", "Falcon Chess (free castling)", 10, 8, FALCON_START, king_file=5),
    Variant(
        "falcon-orthodox-castling", "Falcon Chess, orthodox castling", 10, 8,
        FALCON_START, king_file=5, castle_min=2, castle_max=2,
    ),
    Variant(
        "falcon-modified-free", "Falcon Chess, modified free castling", 10, 8,
        FALCON_START, king_file=5, castle_min=2,
    ),
    Variant(
        "falcon-xboard", "Falcon Chess as XBoard and Fairy-Max play it", 10, 8,
        FALCON_START, king_file=5, castle_min=3, castle_max=3, castle_judged_after=True,
    ),
    # The patent's other board sizes, "the pieces remain the same": the 8×10
    # back rank and free castling.  docs/board-sizes.md gives the readings.
    Variant(
        "falcon-9x10", "Falcon Chess on 9×10", 10, 9,
        "rnbfqkfbnr/pppppppppp/10/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1",
        king_file=5,
    ),
    # RULES.md: pawns on the third rank on 10×10, otherwise not specified;
    # rank 2 stays empty.
    Variant(
        "falcon-10x10", "Falcon Chess on 10×10", 10, 10,
        "rnbfqkfbnr/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/RNBFQKFBNR w KQkq - 0 1",
        king_file=5,
    ),
    # The essay's 10×10 set-up: only "the central pawns in front of falcons,
    # queen, and king" (files d to g) on the third rank, the others on the
    # second, where they keep the castling king covered.
    Variant(
        "falcon-10x10-central", "Falcon Chess on 10×10, central pawns advanced", 10, 10,
        "rnbfqkfbnr/ppp4ppp/3pppp3/10/10/10/10/3PPPP3/PPP4PPP/RNBFQKFBNR w KQkq - 0 1",
        king_file=5,
    ),
    Variant(
        "falcon-8x8", "Falcon Chess on 8×8, falcon for queen", 8, 8,
        "rnbfkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBFKBNR w KQkq - 0 1", king_file=4,
        castle_min=2, castle_max=2, promotions=(FALCON, ROOK, BISHOP, KNIGHT),
    ),
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
