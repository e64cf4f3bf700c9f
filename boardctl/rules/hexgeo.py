"""The hexagonal boards: cells, names, directions, leaps and falcon paths.

Cells are flat-topped hexagons in axial coordinates ``(q, r)`` (RULES-HEX.md,
section 2): ``q`` counts files from the centre, ``r`` rises up a file.  A cell
is an ``int`` like a square: the cells of the board listed by ``r`` then
``q``, lowest first, so index order is the FEN's ranks read bottom-up, as on
the rectangular boards (``rank * files + file``).

Two boards exist:

* Falcon Hexagonal Chess: radius 6 with the six corners trimmed (121 cells),
  named as the seed's Game Courier diagram does: file ``"abcdefghijklm"[q+6]``
  and rank ``r+7``, so a rank is a straight line rising to the right.
* Glinski's hexagonal chess: radius 5 (91 cells), files ``a``–``l`` without
  ``j`` and ranks that bend at the centre file: ``r + 6 + min(q, 0)``.

Everything here is data computed once per board; nothing is hard-wired to a
piece set or a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from .boardgeometry import Cells, Vector
from .digits import is_ascii_digits, shown
from .geometry import SquareError

# The steps live below this module and its tables; named again here, where
# the rest of boardctl has always imported them from.
from .hexsteps import COMPASS as COMPASS
from .hexsteps import DIAGONAL as DIAGONAL
from .hexsteps import DIRECTIONS as DIRECTIONS
from .hexsteps import ORTHOGONAL as ORTHOGONAL
from .hexsteps import Axial as Axial
from .hexsteps import Cell as Cell
from .hexsteps import distance as distance
from .hexsteps import falcon_steps as falcon_steps
from .hexsteps import knight_leaps as knight_leaps

if TYPE_CHECKING:
    from .hextables import HexTables

HEX_PINOUT = "hex"  # the schema of hardware/hex/pinout.toml (a top-level ``board`` key)


class CellError(SquareError):
    """A cell name that does not exist on the board (a :class:`SquareError`,
    so code written for any board catches it)."""


@dataclass(frozen=True, slots=True)
class HexGeometry(Cells):
    """A hexagon of ``radius`` cells from the centre; ``trimmed`` removes its
    six corners; ``glinski_names`` picks Glinski's names over Game Courier's."""

    radius: int = 6
    trimmed: bool = True
    glinski_names: bool = False

    # What BoardGeometry asks that is the same on every hexagon.
    shades = 3
    compass = COMPASS
    grid = False
    noun = "cell"
    pawn_barred = "the last cell of its file"
    pinout_schema = HEX_PINOUT

    @property
    def cells(self) -> tuple[Axial, ...]:
        """Axial coordinates of every cell, in index order."""
        return _cells(self.radius, self.trimmed)

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def file_letters(self) -> str:
        return "abcdefghikl" if self.glinski_names else "abcdefghijklm"[: 2 * self.radius + 1]

    def axial(self, cell: Cell) -> Axial:
        return self.cells[cell]

    def cell_at(self, q: int, r: int) -> Cell | None:
        """The cell at ``(q, r)``, or None off the board (trimmed corners included)."""
        return _index(self.radius, self.trimmed).get((q, r))

    def colour(self, cell: Cell) -> int:
        """0, 1 or 2; cells that share an edge differ, the centre is 0."""
        q, r = self.cells[cell]
        return (q - r) % 3

    @property
    def files(self) -> int:
        return 2 * self.radius + 1

    @property
    def ranks(self) -> int:
        """How many rank numbers the names use (the FEN's ranks)."""
        return len(_rows(self))

    def shade(self, cell: Cell) -> int:
        """The cell's colour (:meth:`colour`)."""
        return self.colour(cell)

    def is_light(self, cell: Cell) -> bool:
        """Colour 0, the centre's: with three colours "light" means only that."""
        return self.colour(cell) == 0

    @property
    def directions(self) -> tuple[str, ...]:
        return tuple(name for name, _ in COMPASS)

    @property
    def tables(self) -> HexTables:
        """The lookup tables of this board, built on first use."""
        from .hextables import hex_tables_for

        return hex_tables_for(self)

    @property
    def description(self) -> str:
        return f"a {self.size}-cell hexagon"

    def coordinates(self) -> tuple[Vector, ...]:
        """Axial ``(q, r)`` shifted to start at 0."""
        return tuple((q + self.radius, r + self.radius) for q, r in self.cells)

    def falcon_steps(self) -> tuple[tuple[Vector, Vector], ...]:
        return falcon_steps()

    def file_of(self, cell: Cell) -> int:
        return self.cells[cell][0] + self.radius

    def rank_of(self, cell: Cell) -> int:
        """The number in the cell's name, from 0."""
        return self.rank_number(cell) - 1

    def square(self, file: int, rank: int) -> Cell:
        """The cell of file ``file`` whose name has rank ``rank`` (from 0).

        :raises CellError: when that file has no such cell.
        """
        cell = _by_file_rank(self).get((file, rank))
        if cell is None:
            raise CellError(
                f"no cell at file {file}, rank {rank + 1} on the {self.size}-cell hexagon"
            )
        return cell

    def fen_rows(self) -> tuple[tuple[Cell, ...], ...]:
        """The cells of each rank of the names, highest rank first, by file.

        On the Game Courier names these are the straight lines rising to the
        right (RULES-HEX.md section 6); on Glinski's names, his bent ranks.
        """
        return _rows(self)

    def rank_number(self, cell: Cell) -> int:
        """The number in the cell's name."""
        q, r = self.cells[cell]
        if self.glinski_names:
            return r + self.radius + 1 + min(q, 0)
        return r + self.radius + 1

    def name(self, cell: Cell) -> str:
        return f"{self.file_letters[self.file_of(cell)]}{self.rank_number(cell)}"

    def parse_cell(self, text: str) -> Cell:
        """``"e3"`` → cell.

        :raises CellError: when the text names no cell of this board.
        """
        cell = _names(self).get(text) if isinstance(text, str) else None
        if cell is None:
            raise CellError(f"no cell {shown(text)} on the {self.size}-cell hexagon")
        return cell

    def parse_square(self, text: str) -> Cell:
        """:meth:`parse_cell` under the name every board geometry has."""
        return self.parse_cell(text)

    def step(self, cell: Cell, direction: str) -> Cell | None:
        """The next cell in a named direction of :data:`COMPASS`, or None."""
        q, r = self.cells[cell]
        dq, dr = DIRECTIONS[direction]
        return self.cell_at(q + dq, r + dr)

    def ray(self, cell: Cell, direction: str) -> tuple[Cell, ...]:
        """The cells from ``cell`` (excluded) to the edge in one direction."""
        q, r = self.cells[cell]
        dq, dr = DIRECTIONS[direction]
        out = []
        k = 1
        while (nxt := self.cell_at(q + k * dq, r + k * dr)) is not None:
            out.append(nxt)
            k += 1
        return tuple(out)

    def leap(self, cell: Cell, offset: Axial) -> Cell | None:
        q, r = self.cells[cell]
        return self.cell_at(q + offset[0], r + offset[1])

    def falcon_paths(self, cell: Cell) -> dict[Cell, tuple[tuple[Cell, Cell], ...]]:
        """Each falcon destination from ``cell`` with its paths on the board.

        A path is its two intermediate cells.  A path through a trimmed
        corner or off the board does not count (AMB-3), so a destination is
        listed only if at least one of its three paths lies on the board.
        """
        return _falcon_paths(self)[cell]

    def last_cells(self, forward: str) -> tuple[Cell, ...]:
        """The last cell of each file going ``forward`` (``"N"`` or ``"S"``):
        where a pawn moving that way promotes (AMB-5)."""
        return tuple(cell for cell in range(self.size) if self.step(cell, forward) is None)


@cache
def _cells(radius: int, trimmed: bool) -> tuple[Axial, ...]:
    corners = (
        {(radius, 0), (-radius, 0), (0, radius), (0, -radius), (radius, -radius), (-radius, radius)}
        if trimmed
        else set()
    )
    return tuple(
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if distance((q, r), (0, 0)) <= radius and (q, r) not in corners
    )


@cache
def _index(radius: int, trimmed: bool) -> dict[Axial, Cell]:
    return {qr: i for i, qr in enumerate(_cells(radius, trimmed))}


@cache
def _names(geo: HexGeometry) -> dict[str, Cell]:
    names = {geo.name(cell): cell for cell in range(geo.size)}
    if len(names) != geo.size:
        raise AssertionError("two cells share a name")
    # Names are also checked digit by digit: "e03" and "e³" are not cells.
    assert all(is_ascii_digits(n[1:]) and n[1] != "0" for n in names)
    return names


@cache
def _by_file_rank(geo: HexGeometry) -> dict[tuple[int, int], Cell]:
    return {(geo.file_of(cell), geo.rank_of(cell)): cell for cell in range(geo.size)}


@cache
def _rows(geo: HexGeometry) -> tuple[tuple[Cell, ...], ...]:
    ranks = sorted({geo.rank_of(cell) for cell in range(geo.size)}, reverse=True)
    return tuple(
        tuple(sorted((c for c in range(geo.size) if geo.rank_of(c) == rank), key=geo.file_of))
        for rank in ranks
    )


@cache
def _falcon_paths(geo: HexGeometry) -> tuple[dict[Cell, tuple[tuple[Cell, Cell], ...]], ...]:
    out = []
    for cell in range(geo.size):
        q, r = geo.cells[cell]
        paths: dict[Cell, tuple[tuple[Cell, Cell], ...]] = {}
        for a, b in falcon_steps():
            to = geo.cell_at(q + 2 * a[0] + b[0], r + 2 * a[1] + b[1])
            if to is None:
                continue
            these = []
            for first, second in ((a, a), (a, b), (b, a)):
                s1 = geo.cell_at(q + first[0], r + first[1])
                s2 = geo.cell_at(q + first[0] + second[0], r + first[1] + second[1])
                if s1 is not None and s2 is not None:
                    these.append((s1, s2))
            if these:
                paths[to] = tuple(these)
        out.append(paths)
    return tuple(out)


FALCON_HEX = HexGeometry()
GLINSKI = HexGeometry(radius=5, trimmed=False, glinski_names=True)
