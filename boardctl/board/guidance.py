"""Telling the player how to bring the board back to a position, one fix at a time.

A board that disagrees with the game has squares that should be empty
(extra) and squares that should hold a piece (missing).  Lighting them all at
once confuses the player further (NOTES-eboards.md, complaint 8), so one fix
is chosen: the piece most recently put down where it does not belong goes to
the square most recently emptied that needs a piece.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Position


@dataclass(frozen=True)
class Fix:
    """Take a piece from ``from_square`` (if any) and put one on ``to_square`` (if any)."""

    from_square: int | None
    to_square: int | None
    text: str


def piece_name(pos: Position, square: int) -> str:
    found = pos.piece_at(square)
    return found[0].title if found else "piece"


def _most_recent(squares: int, recent: list[int]) -> int:
    """The square of ``squares`` that changed last (lowest if none did)."""
    for sq in reversed(recent):
        if squares >> sq & 1:
            return sq
    return (squares & -squares).bit_length() - 1


def next_fix(target: Position, reading: int, recent: list[int], back: bool = True) -> Fix | None:
    """The one fix that brings ``reading`` closer to ``target``; None when they agree.

    ``recent`` lists squares in the order they last changed (latest last);
    ``back`` words it as undoing ("back on") rather than carrying out a move.
    """
    want = target.colors[0] | target.colors[1]
    missing = want & ~reading
    extra = reading & ~want
    name = target.geometry.name
    if missing:
        to = _most_recent(missing, recent)
        piece = piece_name(target, to)
        if extra:
            frm = _most_recent(extra, recent)
            verb = "back to" if back else "to"
            return Fix(frm, to, f"Move the {piece} from {name(frm)} {verb} {name(to)}")
        return Fix(None, to, f"Put the {piece} {'back ' if back else ''}on {name(to)}")
    if extra:
        frm = _most_recent(extra, recent)
        return Fix(frm, None, f"Take the piece off {name(frm)}")
    return None
