"""Board geometry: squares, names and the precomputed attack tables.

A square is an ``int``: ``rank * files + file``, so a1 is 0 and, on the 8×10
board, j8 is 79.  A set of squares is a bitboard, a Python ``int`` with bit
``sq`` set; Python's big ints make an 80- or 100-square board as cheap as 64.

Nothing here is hard-wired to 8×10: :func:`tables_for` builds (once, on first
use, then cached) every lookup table a board size needs, the way python-chess
builds its tables for 8×8.  Sliders use occupancy-keyed dictionaries per line;
the falcon uses one dictionary per quadrant keyed by the eight squares its
paths into that quadrant cross.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .boardgeometry import Bitboard, Cells, Vector
from .digits import is_ascii_digits, shown
from .errors import BoardctlError

Square = int

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"

# The eight named directions as (file, rank) steps, clockwise from north, so
# that neighbours in this list are 45° apart.
COMPASS: tuple[tuple[str, tuple[int, int]], ...] = (
    ("N", (0, 1)),
    ("NE", (1, 1)),
    ("E", (1, 0)),
    ("SE", (1, -1)),
    ("S", (0, -1)),
    ("SW", (-1, -1)),
    ("W", (-1, 0)),
    ("NW", (-1, 1)),
)
DIRECTIONS: dict[str, tuple[int, int]] = dict(COMPASS)
_COMPASS: tuple[tuple[int, int], ...] = tuple(step for _, step in COMPASS)
_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_ROOK_LINES = (((1, 0), (-1, 0)), ((0, 1), (0, -1)))
_BISHOP_LINES = (((1, 1), (-1, -1)), ((1, -1), (-1, 1)))


class SquareError(BoardctlError, ValueError):
    """A square name that does not exist on the board."""


def falcon_steps() -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """The falcon's 16 moves as ``(a, b)`` pairs of king steps.

    A falcon move is two like steps ``a`` and one step ``b`` 45° away from
    ``a``; the destination is ``2a + b`` and its three paths are the orders
    ``a a b``, ``a b a`` and ``b a a`` (RULES.md, "The pieces").
    """
    pairs = []
    for i, a in enumerate(_COMPASS):
        for b in (_COMPASS[(i + 1) % 8], _COMPASS[(i - 1) % 8]):
            pairs.append((a, b))
    return tuple(pairs)


SQUARE_PINOUT = "square"  # the schema of hardware/pinout.toml


@dataclass(frozen=True, slots=True)
class Geometry(Cells):
    """A rectangular board of ``files`` × ``ranks`` squares."""

    files: int
    ranks: int

    # What BoardGeometry asks that is the same on every rectangle.
    shades = 2
    compass = COMPASS
    grid = True
    noun = "square"
    pawn_barred = "the first or last rank"
    pinout_schema = SQUARE_PINOUT

    @property
    def size(self) -> int:
        return self.files * self.ranks

    def square(self, file: int, rank: int) -> Square:
        return rank * self.files + file

    def file_of(self, sq: Square) -> int:
        return sq % self.files

    def rank_of(self, sq: Square) -> int:
        return sq // self.files

    def on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.files and 0 <= rank < self.ranks

    def is_light(self, sq: Square) -> bool:
        """a1 is light (RULES.md), so on 10 files j1 is dark."""
        return (sq % self.files + sq // self.files) % 2 == 0

    def shade(self, sq: Square) -> int:
        """0 for a light square, 1 for a dark one."""
        return (sq % self.files + sq // self.files) % 2

    @property
    def directions(self) -> tuple[str, ...]:
        """The named directions, clockwise from north (see :data:`COMPASS`)."""
        return tuple(name for name, _ in COMPASS)

    def leap(self, sq: Square, offset: tuple[int, int]) -> Square | None:
        """The square ``offset`` (files, ranks) away, or None off the board."""
        f, r = sq % self.files + offset[0], sq // self.files + offset[1]
        return self.square(f, r) if self.on_board(f, r) else None

    def step(self, sq: Square, direction: str) -> Square | None:
        """The next square in a named direction, or None off the board."""
        return self.leap(sq, DIRECTIONS[direction])

    def ray(self, sq: Square, direction: str) -> tuple[Square, ...]:
        """The squares from ``sq`` (excluded) to the edge in one direction."""
        out = []
        nxt = self.step(sq, direction)
        while nxt is not None:
            out.append(nxt)
            nxt = self.step(nxt, direction)
        return tuple(out)

    def falcon_paths(self, sq: Square) -> dict[Square, tuple[tuple[Square, Square], ...]]:
        """Each falcon destination from ``sq`` with its three paths (the two
        squares each crosses)."""
        return self.tables.falcon_paths[sq]

    def fen_rows(self) -> tuple[tuple[Square, ...], ...]:
        """The squares of each FEN rank, from the last rank down, a-file first."""
        return _fen_rows(self.files, self.ranks)

    def name(self, sq: Square) -> str:
        return f"{FILE_LETTERS[sq % self.files]}{sq // self.files + 1}"

    def parse_square(self, text: str) -> Square:
        """``"e2"`` → square.

        :raises SquareError: when the text names no square of this board.
        """
        # ASCII digits, and no more of them than the largest rank has: "e²"
        # and a thousand-digit rank are not squares.
        digits = text[1:]
        if (
            len(text) >= 2
            and text[0] in FILE_LETTERS
            and is_ascii_digits(digits)
            and len(digits) <= len(str(self.ranks))
            and digits[0] != "0"
        ):
            file = FILE_LETTERS.index(text[0])
            rank = int(digits) - 1
            if self.on_board(file, rank):
                return self.square(file, rank)
        raise SquareError(f"no square {shown(text)} on a {self.files}×{self.ranks} board")

    @property
    def tables(self) -> Tables:
        return tables_for(self.files, self.ranks)

    @property
    def description(self) -> str:
        return f"a {self.ranks}×{self.files} board"

    def coordinates(self) -> tuple[Vector, ...]:
        return tuple((sq % self.files, sq // self.files) for sq in range(self.size))

    def falcon_steps(self) -> tuple[tuple[Vector, Vector], ...]:
        return falcon_steps()


def line_table(
    rays: list[list[Square]] | tuple[tuple[Square, ...], ...],
) -> tuple[Bitboard, dict[Bitboard, Bitboard]]:
    """The blocker mask of a slider's line (its rays out from one square, in
    order) and its attacks for every occupancy of that mask; shared by the
    rectangle's and the hexagon's tables."""
    # The last square of a ray is attacked whatever stands on it.
    mask = sum(1 << s for ray in rays for s in ray[:-1])
    table: dict[Bitboard, Bitboard] = {}
    sub = 0
    while True:
        att = 0
        for ray in rays:
            for s in ray:
                att |= 1 << s
                if sub >> s & 1:
                    break
        table[sub] = att
        sub = (sub - mask) & mask
        if sub == 0:
            break
    return mask, table


def falcon_group_table(
    dests: list[Square], masks: dict[Square, tuple[Bitboard, ...]]
) -> tuple[Bitboard, dict[Bitboard, Bitboard]]:
    """The mask of every cell the paths to ``dests`` cross, and the
    destinations reached (one path open) for every occupancy of it; shared
    by the rectangle's and the hexagon's tables."""
    # Each path as (the cells it crosses, its destination's bit), in one flat
    # list: every process builds these tables at its first move, and a loop
    # over pairs takes a third of the time of any() over each destination's.
    paths = [(m, 1 << to) for to in dests for m in masks[to]]
    gmask = 0
    for m, _ in paths:
        gmask |= m
    table: dict[Bitboard, Bitboard] = {}
    sub = 0
    while True:
        att = 0
        for m, bit in paths:
            if not sub & m:
                att |= bit
        table[sub] = att
        sub = (sub - gmask) & gmask
        if sub == 0:
            break
    return gmask, table


class Tables:
    """Every precomputed lookup a board size needs (see module docstring)."""

    def __init__(self, files: int, ranks: int) -> None:
        geo = Geometry(files, ranks)
        n = files * ranks
        self.files = files
        self.ranks = ranks
        self.all: Bitboard = (1 << n) - 1
        self.file_bb = [sum(1 << geo.square(f, r) for r in range(ranks)) for f in range(files)]
        self.rank_bb = [sum(1 << geo.square(f, r) for f in range(files)) for r in range(ranks)]
        # Where a pawn of each colour promotes, and where none may stand: on
        # a rectangle neither colour's pawn stands on the first or last rank.
        self.promotion = (self.rank_bb[-1], self.rank_bb[0])
        ends = self.rank_bb[0] | self.rank_bb[-1]
        self.pawn_forbidden = (ends, ends)

        def step_targets(sq: Square, steps: tuple[tuple[int, int], ...]) -> Bitboard:
            f, r = sq % files, sq // files
            bb = 0
            for df, dr in steps:
                if geo.on_board(f + df, r + dr):
                    bb |= 1 << geo.square(f + df, r + dr)
            return bb

        self.knight = [step_targets(sq, _KNIGHT) for sq in range(n)]
        self.king = [step_targets(sq, _COMPASS) for sq in range(n)]
        # pawn_attacks[colour][sq]: the squares a pawn of that colour on sq attacks.
        self.pawn_attacks = [
            [step_targets(sq, ((-1, 1), (1, 1))) for sq in range(n)],
            [step_targets(sq, ((-1, -1), (1, -1))) for sq in range(n)],
        ]
        # pawn_push[colour][sq]: the square a pawn there steps to, -1 off the board.
        self.pawn_push = [
            [sq + files if sq + files < n else -1 for sq in range(n)],
            [sq - files if sq >= files else -1 for sq in range(n)],
        ]

        rook_lines = [self._line_tables(geo, d) for d in _ROOK_LINES]
        bishop_lines = [self._line_tables(geo, d) for d in _BISHOP_LINES]
        # (masks, attacks-by-occupancy) per line, as the hexagon's tables
        # hold them, for the one move generator.
        self.rook_lines = [(masks, att) for _, masks, att in rook_lines]
        self.bishop_lines = [(masks, att) for _, masks, att in bishop_lines]
        self.rook_empty = [rook_lines[0][0][sq] | rook_lines[1][0][sq] for sq in range(n)]
        self.bishop_empty = [bishop_lines[0][0][sq] | bishop_lines[1][0][sq] for sq in range(n)]
        # Unpacked per line for the evaluation's hot paths.
        (self.rank_mask, self.rank_att), (self.file_mask, self.file_att) = self.rook_lines
        (self.diag_mask, self.diag_att), (self.anti_mask, self.anti_att) = self.bishop_lines
        # A pawn steps by a constant shift of the bitboard (0 on a hexagon).
        self.pawn_shift = files

        self.between = self._between(geo)
        self._build_falcon(geo)

    @staticmethod
    def _between(geo: Geometry) -> list[list[Bitboard]]:
        """between[a][b]: the squares strictly between a and b on a line, else 0."""
        n = geo.size
        between: list[list[Bitboard]] = [[0] * n for _ in range(n)]
        for sq in range(n):
            f, r = geo.file_of(sq), geo.rank_of(sq)
            for df, dr in _COMPASS:
                acc = 0
                k = 1
                while geo.on_board(f + k * df, r + k * dr):
                    to = geo.square(f + k * df, r + k * dr)
                    between[sq][to] = acc
                    acc |= 1 << to
                    k += 1
        return between

    @staticmethod
    def _line_tables(
        geo: Geometry, dirs: tuple[tuple[int, int], tuple[int, int]]
    ) -> tuple[list[Bitboard], list[Bitboard], list[dict[Bitboard, Bitboard]]]:
        """Empty-board attacks, blocker masks and occupancy tables for one line."""
        empty: list[Bitboard] = []
        masks: list[Bitboard] = []
        tables: list[dict[Bitboard, Bitboard]] = []
        for sq in range(geo.size):
            f, r = geo.file_of(sq), geo.rank_of(sq)
            rays: list[list[Square]] = []
            for df, dr in dirs:
                ray = []
                k = 1
                while geo.on_board(f + k * df, r + k * dr):
                    ray.append(geo.square(f + k * df, r + k * dr))
                    k += 1
                rays.append(ray)
            mask, table = line_table(rays)
            empty.append(sum(1 << s for ray in rays for s in ray))
            masks.append(mask)
            tables.append(table)
        return empty, masks, tables

    def _build_falcon(self, geo: Geometry) -> None:
        n = geo.size
        # paths[sq][to] = the three paths as (first, second) intermediate squares
        self.falcon_paths: list[dict[Square, tuple[tuple[Square, Square], ...]]] = []
        self.falcon_path_masks: list[dict[Square, tuple[Bitboard, ...]]] = []
        self.falcon_empty: list[Bitboard] = []
        # quadrants[sq] = ((mask, {occ & mask: attacks}), ...) for up to 4 quadrants
        self.falcon_quadrants: list[tuple[tuple[Bitboard, dict[Bitboard, Bitboard]], ...]] = []
        for sq in range(n):
            f, r = geo.file_of(sq), geo.rank_of(sq)
            paths: dict[Square, tuple[tuple[Square, Square], ...]] = {}
            by_quadrant: dict[tuple[int, int], list[Square]] = {}
            for a, b in falcon_steps():
                df, dr = 2 * a[0] + b[0], 2 * a[1] + b[1]
                if not geo.on_board(f + df, r + dr):
                    continue
                to = geo.square(f + df, r + dr)
                these = []
                for order in ((a, a, b), (a, b, a), (b, a, a)):
                    s1 = geo.square(f + order[0][0], r + order[0][1])
                    s2 = geo.square(f + order[0][0] + order[1][0], r + order[0][1] + order[1][1])
                    these.append((s1, s2))
                paths[to] = tuple(these)
                quadrant = (1 if df > 0 else -1, 1 if dr > 0 else -1)
                by_quadrant.setdefault(quadrant, []).append(to)
            masks = {to: tuple((1 << s1) | (1 << s2) for s1, s2 in p) for to, p in paths.items()}
            quads = [falcon_group_table(dests, masks) for dests in by_quadrant.values()]
            self.falcon_paths.append(paths)
            self.falcon_path_masks.append(masks)
            self.falcon_empty.append(sum(1 << to for to in paths))
            self.falcon_quadrants.append(tuple(quads))
        self.falcon_groups = self.falcon_quadrants  # the name both boards' tables share

    # Attack queries.  Hot paths inline these; they stay here for everyone else.
    def rook_attacks(self, sq: Square, occ: Bitboard) -> Bitboard:
        return (
            self.rank_att[sq][occ & self.rank_mask[sq]]
            | self.file_att[sq][occ & self.file_mask[sq]]
        )

    def bishop_attacks(self, sq: Square, occ: Bitboard) -> Bitboard:
        return (
            self.diag_att[sq][occ & self.diag_mask[sq]]
            | self.anti_att[sq][occ & self.anti_mask[sq]]
        )

    def falcon_attacks(self, sq: Square, occ: Bitboard) -> Bitboard:
        att = 0
        for mask, table in self.falcon_quadrants[sq]:
            att |= table[occ & mask]
        return att


@cache
def _fen_rows(files: int, ranks: int) -> tuple[tuple[Square, ...], ...]:
    return tuple(tuple(r * files + f for f in range(files)) for r in range(ranks - 1, -1, -1))


@cache
def tables_for(files: int, ranks: int) -> Tables:
    """The lookup tables for a board size, built on first use."""
    return Tables(files, ranks)
