"""What an occupancy means in a given position.

Presence sensors see only which squares are occupied.  For one position this
module lists every legal move with the occupancy it leaves behind and the
squares it physically touches (its footprint), so that a reading can be
matched: the position itself, the end of a legal move, or a legal move still
being carried out (the reading differs from the position only inside the
move's footprint, with no extra piece).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Move, Position
from ..rules.moves import CASTLE, EN_PASSANT, code_flag, code_from, code_to


def occupancy(pos: Position) -> int:
    return pos.colors[0] | pos.colors[1]


@dataclass(frozen=True)
class Candidate:
    """A legal move as the board sees it."""

    move: Move
    code: int
    after: int  # occupancy once the move is made
    footprint: int  # squares the move lifts from or places on
    capture: int  # the square of the captured piece, or -1

    @property
    def from_square(self) -> int:
        return self.move.from_square


def footprint(pos: Position, code: int) -> tuple[int, int]:
    """The squares a move lifts from or places on, and its capture square (or -1)."""
    frm, to, flag = code_from(code), code_to(code), code_flag(code)
    squares = 1 << frm | 1 << to
    capture = to if pos.squares[to] and flag != CASTLE else -1
    if flag == EN_PASSANT:
        capture = pos.en_passant_victim(to)
        squares |= 1 << capture
    elif flag == CASTLE:
        rook_from, rook_to = pos.castle_rook_squares(frm, to)
        squares |= 1 << rook_from | 1 << rook_to
    return squares, capture


class Explainer:
    """The legal moves of one position, indexed for matching readings."""

    def __init__(self, pos: Position) -> None:
        self.position = pos
        self.base = occupancy(pos)
        self.candidates: list[Candidate] = []
        for move, code in pos.iter_legal():
            squares, capture = footprint(pos, code)
            pos.make(code)
            after = occupancy(pos)
            pos.unmake()
            self.candidates.append(Candidate(move, code, after, squares, capture))

    def matches(self, reading: int) -> list[Candidate]:
        """Legal moves whose end occupancy is ``reading``."""
        return [c for c in self.candidates if c.after == reading]

    def in_progress(self, reading: int) -> list[Candidate]:
        """Legal moves of which ``reading`` may be a stage (lifted, half placed)."""
        diff = reading ^ self.base
        out = []
        for c in self.candidates:
            if diff & ~c.footprint:
                continue
            # Inside the footprint no more pieces than there were.
            if (reading & c.footprint).bit_count() <= (self.base & c.footprint).bit_count():
                out.append(c)
        return out

    def moves_from(self, square: int) -> list[Candidate]:
        return [c for c in self.candidates if c.from_square == square]


def pseudo_match(pos: Position, reading: int) -> int | None:
    """A move by the pieces' rules (but leaving the king attacked) that ends
    in ``reading``, packed; None when there is none."""
    for code in pos.pseudo_legal_codes():
        pos.make(code)
        after = occupancy(pos)
        pos.unmake()
        if after == reading:
            return code
    return None
