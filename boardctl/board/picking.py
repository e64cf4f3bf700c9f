"""Telling apart moves that leave the same occupancy, by what the hands did.

All captures by one piece fill the same squares, as do castling f1j1 and the
rook move j1g1, and a promotion fills them whatever the new piece: the
squares the player handled, and in which order, decide.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import PieceType
from .explain import Candidate, Explainer
from .phases import Episode


def handled_score(c: Candidate, seen: Episode, before: int) -> tuple[int, int]:
    """How well ``c`` accounts for the squares handled in ``seen``, starting
    from occupancy ``before``: the squares touched that it takes in, then
    (on a tie) the fewest of its squares that nobody touched."""

    def counts(sq: int) -> bool:
        if not c.footprint >> sq & 1:
            return False
        if before >> sq & 1 and c.after >> sq & 1:
            # A square the move empties and fills again (a capture target,
            # the king's square when the rook lands on it) is handled only
            # if it changed after the squares the move vacates were lifted.
            vacated = c.footprint & before & ~c.after
            return all(
                seen.handled_after(sq, v) for v in range(vacated.bit_length()) if vacated >> v & 1
            )
        return True

    covered = sum(1 for sq in seen.recent if counts(sq))
    # On a tie, the move with no square nobody touched: a1e1 over the
    # castling that also needs the king moved.
    return covered, covered - c.footprint.bit_count()


def pick(matches: list[Candidate], seen: Episode, before: int) -> list[Candidate]:
    """Narrow moves that leave the same occupancy by what the player handled.

    The moves whose squares take in the most of the squares touched win
    (slides and nudges touch squares outside every move), then those with
    the fewest squares untouched, then the capture square put down, or else
    lifted, last.
    """

    def score(c: Candidate) -> tuple[int, int]:
        return handled_score(c, seen, before)

    best = max(score(c) for c in matches)
    matches = [c for c in matches if score(c) == best]
    if one_move(matches):
        return matches
    captures = {c.capture for c in matches if c.capture >= 0}
    for sq in reversed(seen.placed):
        if sq in captures:
            picked = [
                c for c in matches if c.capture == sq and seen.handled_after(sq, c.from_square)
            ]
            if picked:
                return picked
    touched = [
        c
        for c in matches
        if c.capture >= 0
        and seen.touched(c.capture)
        and seen.handled_after(c.capture, c.from_square)
    ]
    if len({c.capture for c in touched}) == 1:
        return touched
    return matches


def one_move(candidates: Sequence[Candidate]) -> bool:
    """Do ``candidates`` differ at most in the promotion piece?"""
    return len({(c.from_square, c.move.to_square) for c in candidates}) == 1


def same_squares(ex: Explainer, c: Candidate) -> list[Candidate]:
    """The moves of ``ex`` with the same squares as ``c`` (its promotion pieces)."""
    return [
        o
        for o in ex.candidates
        if o.from_square == c.from_square and o.move.to_square == c.move.to_square
    ]


def promoting(candidates: Sequence[Candidate], wanted: PieceType, default: PieceType) -> Candidate:
    """The one of ``candidates`` (of one move) that promotes to ``wanted``,
    else to ``default``, else the move that promotes to nothing."""
    for piece in (wanted, default, None):
        for c in candidates:
            if c.move.promotion == piece:
                return c
    return candidates[0]
