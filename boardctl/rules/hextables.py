"""The lookup tables of a hexagonal board, for its move generator.

The same idea as the rectangle's :class:`~boardctl.rules.geometry.Tables`:
bitboards per cell, computed once per board on first use.  A hexagon has
three lines through a cell for the rook (the orthogonal directions) and three
for the bishop (the diagonal ones), each with its own occupancy table, where
the rectangle has two and two.  Pawns step by per-cell tables (a hexagon has
no constant shift between a cell and the next one up its file), and the
falcon's 24 destinations are looked up in 12 small tables, one per repeated
step, keyed by the six cells the two destinations' paths cross.
"""

from __future__ import annotations

from functools import cache
from typing import Protocol

from .boardgeometry import Bitboard, BoardGeometry
from .geometry import falcon_group_table, line_table
from .hexsteps import COMPASS, DIAGONAL, ORTHOGONAL, Axial, Cell, knight_leaps

# Forward, and the two capturing steps, for White then Black (RULES-HEX.md 5).
PAWN_FORWARD = ("N", "S")
PAWN_CAPTURES = (("NW", "NE"), ("SW", "SE"))

_Line = tuple[list[Bitboard], list[dict[Bitboard, Bitboard]]]


class HexBoard(BoardGeometry, Protocol):
    """What the tables read of a hexagon (:class:`~boardctl.rules.hexgeo.HexGeometry`),
    named here so that the geometry may build its tables without a cycle."""

    def axial(self, cell: Cell) -> Axial: ...

    def last_cells(self, forward: str) -> tuple[Cell, ...]: ...


def _bits(cells: list[Cell] | tuple[Cell, ...]) -> Bitboard:
    bb = 0
    for cell in cells:
        bb |= 1 << cell
    return bb


class HexTables:
    """Every lookup the hexagon's move generator needs (see module docstring)."""

    def __init__(self, geo: HexBoard) -> None:
        n = geo.size
        self.size = n
        self.all: Bitboard = (1 << n) - 1
        self.file_bb = [
            _bits([c for c in range(n) if geo.file_of(c) == f]) for f in range(geo.files)
        ]
        self.knight = [
            _bits([t for off in knight_leaps() if (t := geo.leap(c, off)) is not None])
            for c in range(n)
        ]
        self.king = [
            _bits([t for name, _ in COMPASS if (t := geo.step(c, name)) is not None])
            for c in range(n)
        ]
        self.pawn_push = [
            [-1 if (t := geo.step(c, forward)) is None else t for c in range(n)]
            for forward in PAWN_FORWARD
        ]
        self.pawn_attacks = [
            [_bits([t for d in dirs if (t := geo.step(c, d)) is not None]) for c in range(n)]
            for dirs in PAWN_CAPTURES
        ]
        white_last = _bits(geo.last_cells("N"))
        black_last = _bits(geo.last_cells("S"))
        self.promotion = (white_last, black_last)
        # A pawn never stands where it would have promoted; the other side's
        # last cells are another matter (White's pawn starts on l1).
        self.pawn_forbidden = self.promotion
        self.pawn_shift = 0  # no constant shift: pawns step by pawn_push

        self.rook_lines = [self._line(geo, ORTHOGONAL[i], ORTHOGONAL[i + 3]) for i in range(3)]
        self.bishop_lines = [self._line(geo, DIAGONAL[i], DIAGONAL[i + 3]) for i in range(3)]
        self.rook_empty = [_bits([t for d in ORTHOGONAL for t in geo.ray(c, d)]) for c in range(n)]
        self.bishop_empty = [_bits([t for d in DIAGONAL for t in geo.ray(c, d)]) for c in range(n)]

        self.between: list[list[Bitboard]] = [[0] * n for _ in range(n)]
        for c in range(n):
            for name, _ in COMPASS:
                acc = 0
                for t in geo.ray(c, name):
                    self.between[c][t] = acc
                    acc |= 1 << t

        self.falcon_paths = [geo.falcon_paths(c) for c in range(n)]
        self.falcon_path_masks = [
            {to: tuple((1 << a) | (1 << b) for a, b in paths) for to, paths in by_to.items()}
            for by_to in self.falcon_paths
        ]
        self.falcon_empty = [_bits(list(by_to)) for by_to in self.falcon_paths]
        self.falcon_groups = [self._falcon_groups(geo, c) for c in range(n)]

    @staticmethod
    def _line(geo: HexBoard, forward: str, backward: str) -> _Line:
        """Blocker masks and occupancy tables for the line through each cell."""
        masks: list[Bitboard] = []
        tables: list[dict[Bitboard, Bitboard]] = []
        for c in range(geo.size):
            mask, table = line_table((geo.ray(c, forward), geo.ray(c, backward)))
            masks.append(mask)
            tables.append(table)
        return masks, tables

    def _falcon_groups(
        self, geo: HexBoard, cell: Cell
    ) -> tuple[tuple[Bitboard, dict[Bitboard, Bitboard]], ...]:
        """(mask, {occupancy & mask: destinations}) per group of destinations
        that share a repeated step; each mask holds at most six cells."""
        q, r = geo.axial(cell)
        masks = self.falcon_path_masks[cell]
        groups: dict[tuple[int, int], list[Cell]] = {}
        for to in masks:
            tq, tr = geo.axial(to)
            groups.setdefault(_repeated_step(tq - q, tr - r), []).append(to)
        return tuple(falcon_group_table(dests, masks) for dests in groups.values())

    # Attack queries for everyone but the move generator, which inlines them.
    def rook_attacks(self, sq: Cell, occ: Bitboard) -> Bitboard:
        att = 0
        for masks, tables in self.rook_lines:
            att |= tables[sq][occ & masks[sq]]
        return att

    def bishop_attacks(self, sq: Cell, occ: Bitboard) -> Bitboard:
        att = 0
        for masks, tables in self.bishop_lines:
            att |= tables[sq][occ & masks[sq]]
        return att

    def falcon_attacks(self, sq: Cell, occ: Bitboard) -> Bitboard:
        att = 0
        for mask, table in self.falcon_groups[sq]:
            att |= table[occ & mask]
        return att


def _repeated_step(dq: int, dr: int) -> tuple[int, int]:
    """The step a falcon move ``(dq, dr)`` repeats (``2a + b`` gives ``a``)."""
    steps = [step for _, step in COMPASS]
    for i, a in enumerate(steps):
        for b in (steps[(i + 1) % 12], steps[(i - 1) % 12]):
            if (2 * a[0] + b[0], 2 * a[1] + b[1]) == (dq, dr):
                return a
    raise AssertionError(f"({dq}, {dr}) is no falcon move")


@cache
def hex_tables_for(geo: HexBoard) -> HexTables:
    """The lookup tables for a hexagonal board, built on first use."""
    return HexTables(geo)
