"""Perft speed: boardctl's rules core against python-chess, in one run.

Both sides count leaf nodes the same way: the moves of the last ply are
counted with the library's own counter (``Position.count_legal`` /
``Board.legal_moves.count``), not made.  A second pair of figures counts the
last ply by building the move list (``len(legal_codes())`` /
``len(list(board.legal_moves))``) for those who want that comparison too.

Last, the lookup tables every process builds at its first move (cached
after it): a fresh build of the 10×8 board's and the hexagon's, best of five.

Run: ``make bench`` (or ``.venv/bin/python bench/perft.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

import chess

from boardctl.rules import Position, get_variant
from boardctl.rules.geometry import Tables
from boardctl.rules.hexgeo import FALCON_HEX
from boardctl.rules.hextables import HexTables

FALCON_CASES = [
    ("falcon start", None, 4),
    # A middle game with all four castling rights, falcons of both sides out
    # and 62 legal moves (picked from 400 random 18-ply games as the busiest).
    # Depth 3 (149,131) is confirmed by tests/naive_falcon.py; depth 4 is not.
    (
        "falcon middle game",
        "rnbfqk1b1r/3Qp1p1pp/2p6n/1p2fp1p2/3P2PN2/2N4P2/PPP1PP2PP/R1BF1KFB1R w KQkq - 1 10",
        4,
    ),
]
CHESS_CASES = [
    ("chess start", chess.STARTING_FEN, 4),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4),
]


def falcon_perft(pos: Position, depth: int, leaf: Callable[[Position], int]) -> int:
    if depth == 1:
        return leaf(pos)
    total = 0
    for code in pos.legal_codes():
        pos.make(code)
        total += falcon_perft(pos, depth - 1, leaf)
        pos.unmake()
    return total


def chess_perft(board: chess.Board, depth: int, leaf: Callable[[chess.Board], int]) -> int:
    if depth == 1:
        return leaf(board)
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += chess_perft(board, depth - 1, leaf)
        board.pop()
    return total


T = TypeVar("T")


def best_of(runs: int, fn: Callable[[], T]) -> tuple[T, float]:
    """What ``fn`` returns, and its best wall time of several runs: the
    least disturbed by the machine."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return result, best


def rate(label: str, cases: list[tuple[str, int, Callable[[], int]]]) -> float:
    """Nodes per second over ``cases`` (name, depth, perft), each the best of
    three runs; prints each case's figures under ``label``."""
    total_nodes = total_time = 0.0
    for name, depth, perft in cases:
        nodes, secs = best_of(3, perft)
        print(
            f"  {label:13} {name:22} depth {depth}: {nodes:>9} nodes "
            f"{secs:7.3f} s {nodes / secs:>11,.0f} nodes/s"
        )
        total_nodes += nodes
        total_time += secs
    return total_nodes / total_time


def measure(
    mode: str, falcon_leaf: Callable[[Position], int], chess_leaf: Callable[[chess.Board], int]
) -> float:
    variant = get_variant("falcon")
    falcon = rate(
        "boardctl",
        [
            (name, depth, partial(falcon_perft, Position(fen, variant), depth, falcon_leaf))
            for name, fen, depth in FALCON_CASES
        ],
    )
    board = rate(
        "python-chess",
        [
            (name, depth, partial(chess_perft, chess.Board(fen), depth, chess_leaf))
            for name, fen, depth in CHESS_CASES
        ],
    )
    ratio = falcon / board
    print(
        f"  {mode}: boardctl {falcon:,.0f} nodes/s, "
        f"python-chess {board:,.0f} nodes/s, ratio {ratio:.2f}"
    )
    return ratio


def main() -> None:
    print(f"python-chess {chess.__version__}")
    print("Last ply counted by each library's counter:")
    measure("counted leaves", Position.count_legal, lambda b: b.legal_moves.count())
    print("Last ply counted by building the move list:")
    measure("listed leaves", lambda p: len(p.legal_codes()), lambda b: len(list(b.legal_moves)))
    print("The tables a process builds at its first move, a fresh build (best of 5):")
    builds = (("10×8", lambda: Tables(10, 8)), ("hexagon", lambda: HexTables(FALCON_HEX)))
    for name, build in builds:
        _, best = best_of(5, build)
        print(f"  {name}: {best * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
