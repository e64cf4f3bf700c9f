"""Perft: count the leaf nodes of the legal-move tree, to check the generator."""

from __future__ import annotations

from .position import Position

# The deepest count asked for: depth 6 of the start position already takes
# hours in Python, and the recursion must stay far inside Python's own limit.
MAX_DEPTH = 32


def perft(pos: Position, depth: int) -> int:
    """Leaf nodes at ``depth`` plies; the last ply is counted, not made.

    :raises ValueError: when ``depth`` is over :data:`MAX_DEPTH`.
    """
    if depth > MAX_DEPTH:
        raise ValueError(f"perft depth {depth} is over {MAX_DEPTH}")
    return _perft(pos, depth)


def _perft(pos: Position, depth: int) -> int:
    if depth <= 0:
        return 1
    if depth == 1:
        return pos.count_legal()
    total = 0
    make, unmake = pos.make, pos.unmake
    for code in pos.legal_codes():
        make(code)
        total += _perft(pos, depth - 1)
        unmake()
    return total


def divide(pos: Position, depth: int) -> list[tuple[str, int]]:
    """``perft(depth - 1)`` below each legal move, in coordinate notation.

    :raises ValueError: as :func:`perft`.
    """
    if depth > MAX_DEPTH:
        raise ValueError(f"perft depth {depth} is over {MAX_DEPTH}")
    rows = []
    for move, code in pos.iter_legal():
        pos.make(code)
        rows.append((pos.uci(move), _perft(pos, depth - 1)))
        pos.unmake()
    return rows
