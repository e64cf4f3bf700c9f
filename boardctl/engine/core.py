"""The compiled search core (``_core.c``), set up from the rules core.

The core takes everything that defines the game from Python: the variant's
board size, castling, promotions and the squares pawns step twice from, the
rules core's Zobrist keys (so a hash means the same on both sides), the
evaluation's square tables and weights and the search's numbers
(``params.py``), so there is one source for every number.  When the
extension was not built (no C compiler on the machine), :func:`available` is False and
the engine searches in Python instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules import Position
from ..rules.position import pawn_start_squares
from ..rules.variants import Variant
from ..rules.zobrist import keys_for
from . import evaluate, params

try:
    from . import _core
except ImportError:  # built without a compiler: the Python search stands in
    _core = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from ._core import Core as Core

TT_BITS = 20        # 2**20 entries of 16 bytes: 16 MiB, small for a Pi's memory


def available() -> bool:
    return _core is not None


def plays(variant: Variant) -> bool:
    """Whether the compiled core is built and can play ``variant``: it knows
    the rectangular boards; on a hexagon the Python search plays."""
    return _core is not None and not variant.hexagonal


def build(variant: Variant, tt_bits: int = TT_BITS, search: tuple[int, ...] | None = None) -> Core:
    """A core for ``variant``, with the search's numbers ``search`` (by
    default :func:`params.core_search`'s).

    :raises RuntimeError: when the extension is not built.
    """
    if _core is None:
        raise RuntimeError("the compiled search core is not built")
    geo = variant.geometry
    keys = keys_for(geo.size, geo.files)
    mg, eg = evaluate.square_tables(geo.files, geo.ranks)
    white, black = pawn_start_squares(variant)
    double_steps = [(white >> sq & 1) | (black >> sq & 1) << 1 for sq in range(geo.size)]
    return _core.Core(
        geo.files, geo.ranks, variant.king_file, variant.castle_min,
        -1 if variant.castle_max is None else variant.castle_max,
        variant.castle_judged_after, double_steps,
        [int(p) for p in variant.promotions],
        keys.piece, keys.black_to_move, keys.castle, keys.ep_file,
        mg, eg, list(evaluate.core_weights()), list(evaluate.PASSED),
        list(params.core_search() if search is None else search), tt_bits,
    )


def reversible_history(pos: Position) -> list[int]:
    """Hashes of the positions since the last capture or pawn move (before
    each move since then): the only ones the current position can repeat."""
    history = pos.hash_history()
    clock = pos.halfmove_clock
    return history[max(0, len(history) - clock):] if clock else []


def load(core: Core, pos: Position) -> None:
    """Give ``core`` the position, with :func:`reversible_history` so that it
    sees repetitions."""
    size = pos.geometry.size
    rooks = [sq for sq in range(size) if pos.castling >> sq & 1]
    ep = -1 if pos.ep_square is None else pos.ep_square
    core.set_position(pos.squares, pos.turn, rooks, ep, pos.halfmove_clock,
                      reversible_history(pos))
