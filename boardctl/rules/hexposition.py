"""A position on a hexagonal board.

Everything but move generation is :class:`~boardctl.rules.position.Position`'s
own (FEN by the ranks of the names, make/unmake, Zobrist keys): it reads the
board only through the geometry and the tables both shapes share.  This
class swaps in the hexagon's tables and generator, so the rectangle's hot
paths carry no test for the board's shape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import hexmovegen
from .boardgeometry import Bitboard
from .geometry import Square
from .hexgeo import HexGeometry
from .pieces import Color
from .position import Position

if TYPE_CHECKING:
    from .hextables import HexTables


class HexPosition(Position):
    """A :class:`Position` of a hexagonal preset (``Position(fen, variant)``
    makes one when the variant's board is a hexagon)."""

    __slots__ = ()

    # The slot holds the hexagon's tables; rectangle-only code never sees a
    # HexPosition, and everything shared reads the names both tables have.
    tables: HexTables  # type: ignore[assignment]

    def _set_tables(self) -> None:
        geo = self.geometry
        assert isinstance(geo, HexGeometry)
        self.tables = geo.tables

    def attackers(self, sq: Square, by: Color, occupied: Bitboard | None = None) -> Bitboard:
        occ = self.colors[0] | self.colors[1] if occupied is None else occupied
        return hexmovegen.attackers(self, sq, by, occ)

    def is_attacked(self, sq: Square, by: Color) -> bool:
        return bool(hexmovegen.attackers(self, sq, by, self.colors[0] | self.colors[1]))

    def checkers(self) -> Bitboard:
        return self.attackers(self.kings[self.turn], self.turn ^ 1)

    def is_check(self) -> bool:
        return self.is_attacked(self.kings[self.turn], self.turn ^ 1)

    def legal_codes(self) -> list[int]:
        return hexmovegen.legal_codes(self)

    def pseudo_legal_codes(self) -> list[int]:
        return hexmovegen.pseudo_legal_codes(self)

    def castling_shapes(self) -> list[int]:
        return []

    def legal_captures(self) -> list[int]:
        return hexmovegen.legal_captures(self)

    def count_legal(self) -> int:
        return hexmovegen.count_legal(self)
