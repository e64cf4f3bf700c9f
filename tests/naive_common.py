"""What the two naive generators (tests/naive_falcon.py, tests/naive_hex.py)
share that does not depend on the board's shape: FEN ranks read and written a
cell at a time, the counters a move leaves, and the perft walk.

Like them, this imports nothing from boardctl and nothing outside the standard
library.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from itertools import groupby
from typing import Any, TypeVar

PIECE_LETTERS = "PNBRQKF"

Position = TypeVar("Position")
Move = TypeVar("Move")


def read_rank(row: str) -> list[str | None]:
    """The cells of FEN rank ``row`` in order: a piece's letter, or None where
    the cell is empty (a number in the text counts that many empty cells).

    :raises ValueError: for a letter that names no piece.
    """
    cells: list[str | None] = []
    for token in re.findall(r"\d+|\D", row):
        if token.isdigit():
            cells += [None] * int(token)
        elif token.upper() in PIECE_LETTERS:
            cells.append(token)
        else:
            raise ValueError(f"unknown piece {token!r} in rank {row!r}")
    return cells


def write_rank(cells: Iterable[str | None]) -> str:
    """FEN rank text for ``cells`` in order (None for an empty one)."""
    text = ""
    for piece, run in groupby(cells):
        count = len(list(run))
        text += str(count) if piece is None else piece * count
    return text


def counters_after(
    position: Any, move: Any, piece: str, captured: str | None
) -> tuple[tuple[int, int] | None, int, int]:
    """The en passant square, halfmove clock and fullmove number once ``move``
    has put ``piece`` (promoted, if it was) on its end square, taking ``captured``.

    On either board a pawn steps along its second coordinate, so a double step
    passes over the square halfway.
    """
    start, end = move.start, move.end
    en_passant = None
    if piece.upper() == "P" and abs(end[1] - start[1]) == 2:
        en_passant = (start[0], (start[1] + end[1]) // 2)
    pawn_move = piece.upper() == "P" or bool(move.promotion)
    halfmove = 0 if (pawn_move or captured) else position.halfmove_clock + 1
    fullmove = position.fullmove_number + (0 if position.white_to_move else 1)
    return en_passant, halfmove, fullmove


def count_leaves(
    position: Position,
    depth: int,
    legal: Callable[[Position], list[Move]],
    make: Callable[[Position, Move], Position],
) -> int:
    """Perft: the positions ``depth`` plies below ``position`` (depth 0 -> 1)."""
    if depth == 0:
        return 1
    moves = legal(position)
    if depth == 1:
        return len(moves)
    return sum(count_leaves(make(position, move), depth - 1, legal, make) for move in moves)
