"""What every board shape offers: the rectangles and the hexagons alike.

:class:`BoardGeometry` is what code above the rules core may rely on for any
preset (``variant.geometry``, ``position.geometry``): cells are ints from 0 to
``size - 1``, each has a name and a shade, and moves are described by named
directions, rays, leaps and falcon paths.  :class:`BoardTables` is the part
of the precomputed lookups that both shapes share.  Only the move generator of
each shape reads its own shape's other tables.

``files`` and ``ranks`` stay for the rectangular world: on a hexagon they
count the files and the FEN ranks of the names (13 and 13 on the 121-cell
board), never a grid that the cells fill.
"""

from __future__ import annotations

from typing import Protocol

Bitboard = int  # a set of squares or cells, bit n for square n: the one definition
Vector = tuple[int, int]


class Cells:
    """What every shape does the same way, written once: both geometries
    inherit it."""

    __slots__ = ()

    def squares(self, bb: Bitboard) -> list[int]:
        """The cells of a bitboard, lowest first."""
        out = []
        while bb:
            low = bb & -bb
            out.append(low.bit_length() - 1)
            bb ^= low
        return out


class BoardTables(Protocol):
    """The lookups both shapes compute (bitboards indexed by cell)."""

    all: Bitboard
    knight: list[Bitboard]
    king: list[Bitboard]
    pawn_attacks: list[list[Bitboard]]
    pawn_push: list[list[int]]
    promotion: tuple[Bitboard, Bitboard]
    pawn_forbidden: tuple[Bitboard, Bitboard]  # where no pawn of each colour may stand
    between: list[list[Bitboard]]
    rook_empty: list[Bitboard]
    bishop_empty: list[Bitboard]
    falcon_paths: list[dict[int, tuple[tuple[int, int], ...]]]
    falcon_path_masks: list[dict[int, tuple[Bitboard, ...]]]
    falcon_empty: list[Bitboard]
    file_bb: list[Bitboard]
    # (blocker masks, {occupancy & mask: attacks}) per line through a cell:
    # two lines a slider on a rectangle, three on a hexagon.
    rook_lines: list[tuple[list[Bitboard], list[dict[Bitboard, Bitboard]]]]
    bishop_lines: list[tuple[list[Bitboard], list[dict[Bitboard, Bitboard]]]]
    # (mask, {occupancy & mask: destinations}) per group of falcon moves.
    falcon_groups: list[tuple[tuple[Bitboard, dict[Bitboard, Bitboard]], ...]]
    pawn_shift: int  # how far a pawn's step shifts its bit; 0 where no shift serves

    def rook_attacks(self, sq: int, occ: Bitboard) -> Bitboard: ...

    def bishop_attacks(self, sq: int, occ: Bitboard) -> Bitboard: ...

    def falcon_attacks(self, sq: int, occ: Bitboard) -> Bitboard: ...


class BoardGeometry(Protocol):
    """A board: its cells, their names and shades, and how pieces move on it.

    Code above the rules never asks which shape it holds: what differs
    between shapes is asked of the geometry here (its steps, its cells'
    coordinates, its pinout schema), and where a package keeps one
    implementation per shape it picks it by the geometry's type in a
    registry (``functools.singledispatch``), never by ``isinstance``.
    """

    @property
    def size(self) -> int: ...

    @property
    def files(self) -> int: ...

    @property
    def ranks(self) -> int: ...

    @property
    def shades(self) -> int:
        """How many cell colours there are (2 on a rectangle, 3 on a hexagon)."""

    @property
    def directions(self) -> tuple[str, ...]:
        """The names :meth:`step` and :meth:`ray` accept, clockwise from north."""

    @property
    def tables(self) -> BoardTables: ...

    @property
    def compass(self) -> tuple[tuple[str, Vector], ...]:
        """The named unit steps with their vectors in :meth:`coordinates`,
        clockwise from north, orthogonal and diagonal in turn."""

    @property
    def grid(self) -> bool:
        """Whether the cells fill ``files`` × ``ranks`` (cell ``rank * files +
        file``), so that terms about whole files and ranks mean something."""

    @property
    def description(self) -> str:
        """The board in words, for messages: "a 8×10 board", "a 121-cell hexagon"."""

    @property
    def noun(self) -> str:
        """What one cell is called in messages: "square", "cell"."""

    @property
    def pawn_barred(self) -> str:
        """Where no pawn may stand (the tables' ``pawn_forbidden``), in words
        for messages: "the first or last rank", "the last cell of its file"."""

    @property
    def pinout_schema(self) -> str:
        """The name of the pinout file layout an e-board of this shape uses."""

    def coordinates(self) -> tuple[Vector, ...]:
        """Each cell's (x, y) in the lattice of :attr:`compass`, from 0."""

    def falcon_steps(self) -> tuple[tuple[Vector, Vector], ...]:
        """The falcon's moves as ``(a, b)`` pairs of unit steps: to ``2a + b``."""

    def name(self, sq: int) -> str: ...

    def parse_square(self, text: str) -> int:
        """The cell a name names.  :raises SquareError: when there is none."""

    def shade(self, sq: int) -> int:
        """The cell's colour, 0 to ``shades - 1``."""

    def is_light(self, sq: int) -> bool: ...

    def file_of(self, sq: int) -> int: ...

    def rank_of(self, sq: int) -> int:
        """The rank in the cell's name, from 0."""

    def square(self, file: int, rank: int) -> int: ...

    def step(self, sq: int, direction: str) -> int | None: ...

    def ray(self, sq: int, direction: str) -> tuple[int, ...]: ...

    def leap(self, sq: int, offset: tuple[int, int]) -> int | None: ...

    def falcon_paths(self, sq: int) -> dict[int, tuple[tuple[int, int], ...]]: ...

    def fen_rows(self) -> tuple[tuple[int, ...], ...]:
        """The cells of each FEN rank, first rank of the FEN first."""

    def squares(self, bb: Bitboard) -> list[int]: ...
