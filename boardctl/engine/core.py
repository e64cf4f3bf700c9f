"""The compiled search core (``csrc/``), set up from the rules core.

The core takes everything that defines the game from Python: the variant's
board as a :class:`Mailbox` (rectangle or hexagon, every move an offset),
castling, promotions and the cells pawns step twice from, the
rules core's Zobrist keys (so a hash means the same on both sides), the
evaluation's square tables and weights and the search's numbers
(``params.py``), so there is one source for every number.  When the
extension was not built (no C compiler on the machine), :func:`available` is False and
the engine searches in Python instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules import Position
from ..rules.fen import pawn_start_squares
from ..rules.hextables import PAWN_CAPTURES, PAWN_FORWARD
from ..rules.variants import Variant
from ..rules.zobrist import keys_for
from . import evaluate, params, piecesquare
from . import weights as eval_weights

# The compiled core's class, imported by name: to the import graph (the
# extension is no .py file) ``from . import _core`` reads as an import of the
# package itself, a circle through its __init__ and the search back to here.
try:
    from ._core import Core as _Compiled
except ImportError:  # built without a compiler: the Python search stands in
    _Compiled = None  # type: ignore[assignment,misc]

if TYPE_CHECKING:
    from ._core import Core as Core

TT_BITS = 20  # 2**20 entries of 16 bytes: 16 MiB, small for a Pi's memory


def available() -> bool:
    return _Compiled is not None


Vector = tuple[int, int]


@dataclass(frozen=True)
class Mailbox:
    """The board as the compiled core holds it: a grid of ``width`` ×
    ``height`` cells, the board's cells in it surrounded by padding as wide
    as the longest leap (so no step from a cell leaves the array, and every
    slide stops on the padding), and every move as an offset in it.

    Coordinates: (file, rank) on a rectangle, axial (q, r) shifted to start
    at 0 on a hexagon.  Both shapes list their 8 or 12 directions clockwise
    from north, orthogonal and diagonal in turn; a knight leaps an orthogonal
    step and then a diagonal one next to it; a falcon repeats a step ``a`` and
    adds a step ``b`` next to it, by the paths ``a a b``, ``a b a`` and ``b a a``.
    """

    width: int
    height: int
    cells: tuple[int, ...]  # the mailbox index of each of the rules core's cells
    king: tuple[int, ...]
    knight: tuple[int, ...]
    rook: tuple[int, ...]
    bishop: tuple[int, ...]
    falcon: tuple[int, ...]  # per move: destination, then 3 paths of 2 cells
    pawn_steps: tuple[int, ...]  # push W, push B, captures W (2), captures B (2)


def mailbox(variant: Variant) -> Mailbox:
    """:class:`Mailbox` of ``variant``'s board, from the rules core's geometry."""
    geo = variant.geometry
    compass = geo.compass
    steps = [step for _, step in compass]
    directions = dict(compass)
    orthogonal, diagonal = steps[0::2], steps[1::2]
    knight = [
        _add(o, steps[(2 * i + k) % len(steps)]) for i, o in enumerate(orthogonal) for k in (1, -1)
    ]
    falcon = [
        (_add(_add(a, a), b), a, _add(a, a), a, _add(a, b), b, _add(b, a))
        for a, b in geo.falcon_steps()
    ]
    pawns = [directions[name] for name in PAWN_FORWARD]
    pawns += [directions[name] for pair in PAWN_CAPTURES for name in pair]
    coords = geo.coordinates()
    pad = max(abs(x) for vec in [*steps, *knight, *(f[0] for f in falcon)] for x in vec)
    width = max(x for x, _ in coords) + 1 + 2 * pad
    height = max(y for _, y in coords) + 1 + 2 * pad

    def offset(vec: Vector) -> int:
        return vec[1] * width + vec[0]

    return Mailbox(
        width,
        height,
        tuple((y + pad) * width + x + pad for x, y in coords),
        tuple(map(offset, steps)),
        tuple(map(offset, knight)),
        tuple(map(offset, orthogonal)),
        tuple(map(offset, diagonal)),
        tuple(offset(vec) for move in falcon for vec in move),
        tuple(map(offset, pawns)),
    )


def _add(a: Vector, b: Vector) -> Vector:
    return a[0] + b[0], a[1] + b[1]


def build(
    variant: Variant,
    tt_bits: int = TT_BITS,
    search: tuple[int, ...] | None = None,
    weights: eval_weights.Weights | None = None,
) -> Core:
    """A core for ``variant``, with the search's numbers ``search`` (by
    default :func:`params.core_search`'s), evaluating with ``weights`` (by
    default the evaluation's own, :func:`~boardctl.engine.weights.default_weights`; a tuner
    or a match between two sets of weights gives others).

    :raises RuntimeError: when the extension is not built.
    """
    if _Compiled is None:
        raise RuntimeError("the compiled search core is not built")
    geo = variant.geometry
    box = mailbox(variant)
    keys = keys_for(geo.size, geo.files)
    if weights is None:
        mg, eg = piecesquare.piece_tables(geo)
        passed = eval_weights.PASSED
    else:
        mg, eg = piecesquare.build_piece_tables(geo, weights)
        passed = eval_weights.passed_bonuses(weights)
    white, black = pawn_start_squares(variant)
    double_steps = [(white >> sq & 1) | (black >> sq & 1) << 1 for sq in range(geo.size)]
    last_white, last_black = geo.tables.promotion
    promotes = [(last_white >> sq & 1) | (last_black >> sq & 1) << 1 for sq in range(geo.size)]
    ep_keys = [keys.ep_file[geo.file_of(sq)] for sq in range(geo.size)]
    # The arguments in module.c's order, a line for each group it reads.
    # fmt: off
    return _Compiled(
        geo.files, geo.ranks,
        variant.king_file if variant.castling else -1, variant.castle_min,
        -1 if variant.castle_max is None else variant.castle_max, variant.castle_judged_after,
        geo.grid, box.width * box.height, box.cells,
        [geo.file_of(sq) for sq in range(geo.size)], [geo.rank_of(sq) for sq in range(geo.size)],
        box.king, box.knight, box.rook, box.bishop, box.falcon, box.pawn_steps,
        promotes, double_steps, [int(p) for p in variant.promotions],
        keys.piece, keys.black_to_move, keys.castle, ep_keys,
        mg, eg, list(evaluate.core_weights(variant, weights)), list(passed),
        list(params.core_search() if search is None else search), tt_bits,
    )
    # fmt: on


def reversible_history(pos: Position) -> list[int]:
    """Hashes of the positions since the last capture or pawn move (before
    each move since then): the only ones the current position can repeat."""
    history = pos.hash_history()
    clock = pos.halfmove_clock
    return history[max(0, len(history) - clock) :] if clock else []


def load(core: Core, pos: Position) -> None:
    """Give ``core`` the position, with :func:`reversible_history` so that it
    sees repetitions."""
    size = pos.geometry.size
    rooks = [sq for sq in range(size) if pos.castling >> sq & 1]
    ep = -1 if pos.ep_square is None else pos.ep_square
    core.set_position(pos.squares, pos.turn, rooks, ep, pos.halfmove_clock, reversible_history(pos))
