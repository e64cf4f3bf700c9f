"""K+F v K drills, drawn from the engine's table and graded by distance to mate.

``python -m boardctl.puzzles.drills`` writes ``data/drills.toml``; a test
checks that the file shipped is what this writes.  Positions are picked, not
sampled: of every position of a band (the falcon's side to move, the bare
king not touching the falcon, so the first move need not rescue it), those
whose place in the table has the lowest CRC-32, so the same table always
gives the same drills.
"""

from __future__ import annotations

import sys
import zlib
from collections.abc import Sequence
from pathlib import Path

from ..engine import tablebase as tb
from ..rules import Geometry, get_variant
from .library import Difficulty, Goal, Puzzle

# Each band: the fewest and the most moves to mate with best play, and the
# moves more than that the player may take.
BANDS: dict[Difficulty, tuple[int, int, int]] = {
    "easy": (3, 6, 1),
    "medium": (10, 16, 3),
    "hard": (24, 33, 6),
}
# The presets with a table, the prefix of their drills' ids, and how many
# drills each band gets.
BOARDS = (("falcon", "kfk", 3), ("falcon-8x8", "kfk8", 1))
SOURCE = "boardctl's K+F v K table (boardctl/engine/tablebase.py): best play by both sides"
NAME = "King and falcon against king"
HEADER = (
    "# K+F v K drills, written by `python -m boardctl.puzzles.drills` from the engine's\n"
    "# table: do not edit (a test checks this file is what the generator writes).\n"
)


def picked(variant: str, count: int) -> dict[Difficulty, list[tuple[str, int]]]:
    """The first ``count`` positions of each band on ``variant``'s board, in
    the order described above: (FEN, moves to mate)."""
    board = get_variant(variant).geometry
    table = tb.table_for(board.files, board.ranks)
    assert table is not None and board.grid, f"no table ships for {variant}"
    geo = Geometry(table.files, table.ranks)  # the table's rectangle
    near = geo.tables.king
    n = geo.size
    found: dict[Difficulty, list[tuple[int, int, int]]] = {band: [] for band in BANDS}
    for i, value in enumerate(table.strong):
        if value in (tb.DRAW, tb.ILLEGAL):
            continue
        moves = value // 2  # the DTM in plies is value - 1, and odd
        band = next((b for b, (low, high, _) in BANDS.items() if low <= moves <= high), None)
        if band is None or near[i % n] >> (i // n % n) & 1:  # the bare king by the falcon
            continue
        found[band].append((zlib.crc32(i.to_bytes(4, "little")), i, moves))
    out: dict[Difficulty, list[tuple[str, int]]] = {}
    for band, entries in found.items():
        out[band] = []
        for _, i, moves in sorted(entries)[:count]:
            king, rest = divmod(i, n * n)
            falcon, bare = divmod(rest, n)
            out[band].append((tb.fen_of(geo, king, falcon, bare, True), moves))
    return out


def generate() -> list[Puzzle]:
    """The drills, board by board and band by band."""
    drills = []
    for variant, prefix, count in BOARDS:
        chosen = picked(variant, count)
        for band, (_, _, slack) in BANDS.items():
            for number, (fen, moves) in enumerate(chosen[band], 1):
                drills.append(
                    Puzzle(
                        id=f"{prefix}-{band}-{number}",
                        name=NAME,
                        variant=variant,
                        fen=fen,
                        goal=Goal("drill", moves, slack),
                        source=SOURCE,
                        difficulty=band,
                    )
                )
    return drills


def render(drills: Sequence[Puzzle]) -> str:
    """The text of ``data/drills.toml``."""
    out = [HEADER]
    for drill in drills:
        out.append(
            "\n[[puzzle]]\n"
            f'id = "{drill.id}"\n'
            f'name = "{drill.name}"\n'
            f'variant = "{drill.variant}"\n'
            f'fen = "{drill.fen}"\n'
            'goal = "drill"\n'
            f"moves = {drill.goal.moves}\n"
            f"slack = {drill.goal.slack}\n"
            f'difficulty = "{drill.difficulty}"\n'
            f'source = "{drill.source}"\n'
        )
    return "".join(out)


def data_path() -> Path:
    return Path(__file__).parent / "data" / "drills.toml"


def main(argv: Sequence[str] | None = None) -> int:
    path = data_path()
    path.write_text(render(generate()), encoding="utf-8")
    print(path, file=sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
