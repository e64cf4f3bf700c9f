"""The compiled core's node counts and best moves at a fixed depth, and its speed.

A change that must not change the search (a refactor of ``csrc/``) keeps every
node count and best move printed here; nodes per second may move a little.
Run: ``.venv/bin/python bench/nodes.py`` (``--depth N``, default 8; ``--hex-depth N``,
default 6; ``--repeat N`` runs per position, the fastest one's time counts, default 3).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import HEX_POSITIONS, POSITIONS

from boardctl.engine import Engine, Limits, core
from boardctl.rules import Position, get_variant


def _positions() -> list[tuple[str, Position, bool]]:
    rect = [(name, Position(fen), False) for name, fen in POSITIONS]
    hexa = [
        (name, Position(fen, get_variant(variant)), True) for name, variant, fen in HEX_POSITIONS
    ]
    return rect + hexa


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--hex-depth", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not core.available():
        raise SystemExit("nodes: the compiled core is not built")
    total_nodes, total_time = 0, 0.0
    for name, pos, hexagon in _positions():
        depth = args.hex_depth if hexagon else args.depth
        runs = []
        for _ in range(args.repeat):
            engine = Engine(seed=0)
            engine.tablebase = False
            start = time.process_time()
            move = engine.search(pos, Limits(depth=depth))
            runs.append(
                (time.process_time() - start, engine.nodes, pos.uci(move) if move else "none")
            )
        if len({(nodes, move) for _, nodes, move in runs}) != 1:
            raise SystemExit(f"nodes: {name}: runs disagree: {runs}")
        seconds = min(t for t, _, _ in runs)
        _, nodes, move = runs[0]
        total_nodes += nodes
        total_time += seconds
        print(
            f"{name:20} depth {depth:2}  nodes {nodes:9}  best {move:8}  "
            f"{nodes / seconds / 1000:7.0f} knodes/s"
        )
    print(
        f"{'total':20}           nodes {total_nodes:9}  "
        f"{'':13} {total_nodes / total_time / 1000:7.0f} knodes/s"
    )


if __name__ == "__main__":
    main()
