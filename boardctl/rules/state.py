"""What a move generator reads of a position: :class:`PositionState`.

The move generator (:mod:`.movegen`) is typed against this protocol, not
against :class:`~boardctl.rules.position.Position`, so that the position
may import its generator without the generator importing it back.  The
protocol is generic in the board's tables, for a reader that needs more of
them than every board has (:class:`BoardTables`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar

from .boardgeometry import Bitboard, BoardGeometry, BoardTables

if TYPE_CHECKING:
    from .variants import Variant

T_co = TypeVar("T_co", bound=BoardTables, covariant=True)


class PositionState(Protocol[T_co]):
    """A position as its move generator sees it (see module docstring)."""

    pieces: list[Bitboard]
    colors: list[Bitboard]
    kings: list[int]
    turn: int
    castling: Bitboard
    ep_square: int | None
    double_step_from: tuple[Bitboard, Bitboard]

    @property
    def tables(self) -> T_co: ...

    @property
    def geometry(self) -> BoardGeometry: ...

    @property
    def variant(self) -> Variant: ...

    def make(self, code: int) -> None: ...

    def unmake(self) -> int: ...
