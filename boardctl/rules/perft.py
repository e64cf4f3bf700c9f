"""Perft: count the leaf nodes of the legal-move tree, to check the generator."""

from __future__ import annotations

from .position import Position


def perft(pos: Position, depth: int) -> int:
    """Leaf nodes at ``depth`` plies; the last ply is counted, not made."""
    if depth <= 0:
        return 1
    if depth == 1:
        return pos.count_legal()
    total = 0
    make, unmake = pos.make, pos.unmake
    for code in pos.legal_codes():
        make(code)
        total += perft(pos, depth - 1)
        unmake()
    return total


def divide(pos: Position, depth: int) -> list[tuple[str, int]]:
    """``perft(depth - 1)`` below each legal move, in coordinate notation."""
    rows = []
    for move, code in pos.iter_legal():
        pos.make(code)
        rows.append((pos.uci(move), perft(pos, depth - 1)))
        pos.unmake()
    return rows
