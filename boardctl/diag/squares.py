"""Squares as ``boardctl diag`` speaks of them: names a1 … j8, sets of squares
as the bits of an int (square ``rank * FILES + file``), and the board drawn as text."""

from __future__ import annotations

from ..errors import BoardctlError
from ..hw.pins import FILES, RANKS, SQUARES
from ..rules.digits import is_ascii_digits, shown

FILE_NAMES = "abcdefghij"
ALL_SQUARES = (1 << SQUARES) - 1


class DiagError(BoardctlError, ValueError):
    """A bad ``--steps`` list or check square."""


def square_name(square: int) -> str:
    rank, file = divmod(square, FILES)
    return f"{FILE_NAMES[file]}{rank + 1}"


def parse_square(name: str) -> int:
    """``"e4"`` as a square number.  :raises DiagError: for a square off the board."""
    digits = name[1:]
    if (
        len(name) >= 2
        and name[0] in FILE_NAMES
        and is_ascii_digits(digits)
        and len(digits) <= len(str(RANKS))
    ):
        rank = int(digits) - 1
        if 0 <= rank < RANKS:
            return rank * FILES + FILE_NAMES.index(name[0])
    raise DiagError(f"no square {shown(name)} on the board (a1 … j8)")


LEGEND = "     # a piece on the square   . empty   [ ] the square lit now   ? no reading yet"


def render_board(occupancy: int | None, lit: int | None = None) -> str:
    """The board as text, rank 8 at the top: ``#`` occupied, ``.`` empty,
    ``?`` unknown, the lit square in brackets."""
    lines = ["     " + "  ".join(FILE_NAMES)]
    for rank in range(RANKS - 1, -1, -1):
        cells = []
        for file in range(FILES):
            square = rank * FILES + file
            mark = "?" if occupancy is None else "#" if occupancy >> square & 1 else "."
            cells.append(f"[{mark}]" if square == lit else f" {mark} ")
        lines.append(f" {rank + 1:>2} {''.join(cells)}".rstrip())
    lines.append(LEGEND)
    return "\n".join(lines)
