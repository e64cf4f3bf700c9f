"""Guiding the player to set up any position on the board, one thing at a time.

The sensors see only which squares are occupied, never which piece stands
there, so the guidance trusts a piece only when it was put down where it was
asked for ("Put a black falcon on e5"), or when the board was known to hold
it before the set-up began.  Every other piece on the board is asked off,
even on a square the target fills: nobody can tell it is the right one.
The set-up is complete when every square the target fills holds a trusted
piece and nothing else stands on the board.

Pure: a :class:`SetUp` is a value, :func:`observe` makes the next one from a
reading, :func:`instruction` says what to do and :func:`scene` where.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Position
from ..rules.pieces import KING, PAWN, piece_colour, piece_kind
from .explain import occupancy
from .scene import LedScene, Role

COLOUR_WORDS = ("white", "black")  # indexed by colour


@dataclass(frozen=True)
class SetUp:
    """How far the set-up of ``target`` has come."""

    target: Position
    reading: int  # the last occupancy seen
    trusted: int  # squares holding the piece the target wants there
    recent: tuple[int, ...] = ()  # squares filled unasked, latest last
    # The last square the guidance asked to fill, while it is empty: a piece
    # taken off after a mistake does not make the player's hand forget it.
    asked: int | None = None


@dataclass(frozen=True)
class Instruction:
    """Put a piece on ``square`` (``put``) or take the one there off."""

    square: int
    put: bool
    text: str


def begin(target: Position, reading: int, known: Position | None = None) -> SetUp:
    """A set-up of ``target`` from a board reading ``reading``.  ``known`` is
    the position the board held, if the caller knows it: where its piece is
    the target's piece, the player need not touch it."""
    trusted = 0
    if known is not None:
        for sq in target.geometry.squares(reading & occupancy(target)):
            if known.squares[sq] == target.squares[sq]:
                trusted |= 1 << sq
    return _asking(SetUp(target, reading, trusted))


def retarget(s: SetUp, target: Position) -> SetUp:
    """The set-up of another ``target`` on the same board, half set up: a
    trusted piece stays trusted where ``target`` wants the same piece."""
    kept = 0
    for sq in target.geometry.squares(s.trusted & occupancy(target)):
        if s.target.squares[sq] == target.squares[sq]:
            kept |= 1 << sq
    return _asking(SetUp(target, s.reading, kept, s.recent))


def observe(s: SetUp, reading: int) -> SetUp:
    """The set-up after a new reading: an emptied square loses its trust; the
    square the guidance asked for gains it when it fills; any other square
    that fills is remembered, so the next instruction takes it off."""
    filled = reading & ~s.reading
    trusted = s.trusted & reading
    asked = s.asked
    if asked is not None and filled >> asked & 1:
        trusted |= 1 << asked
        filled &= ~(1 << asked)
        asked = None
    new = s.target.geometry.squares(filled)
    recent = tuple(sq for sq in s.recent if reading >> sq & 1 and sq not in new) + tuple(new)
    return _asking(SetUp(s.target, reading, trusted, recent, asked))


def _asking(s: SetUp) -> SetUp:
    """``s``, asking for the square its instruction names, if it names one to fill."""
    step = instruction(s)
    if step is None or not step.put:
        return s
    return SetUp(s.target, s.reading, s.trusted, s.recent, step.square)


def complete(s: SetUp) -> bool:
    """Does the board hold the target, every piece of it trusted?"""
    return s.reading == s.trusted == occupancy(s.target)


def instruction(s: SetUp) -> Instruction | None:
    """The one thing to do next (None: the set-up is complete): first take
    off every untrusted piece, the one last put down unasked first; then put
    each missing piece down, kings first, then the other pieces, then pawns,
    each group rank by rank from the first."""
    name = s.target.geometry.name
    extra = s.reading & ~s.trusted
    if extra:
        unasked = [sq for sq in reversed(s.recent) if extra >> sq & 1]
        sq = unasked[0] if unasked else _first(s.target, extra, by_kind=False)
        return Instruction(sq, False, f"Take the piece off {name(sq)}")
    missing = occupancy(s.target) & ~s.reading
    if not missing:
        return None
    sq = _first(s.target, missing)
    colour = COLOUR_WORDS[piece_colour(s.target.squares[sq])]
    kind = s.target.piece_at(sq)
    assert kind is not None  # a square the target fills
    return Instruction(sq, True, f"Put a {colour} {kind[0].title} on {name(sq)}")


def _first(target: Position, squares: int, by_kind: bool = True) -> int:
    """The square of ``squares`` to name first (``by_kind``: the target's
    kings, then its other pieces, then its pawns)."""
    return min(target.geometry.squares(squares), key=lambda sq: _key(target, sq)[not by_kind :])


def _key(target: Position, sq: int) -> tuple[int, int, int]:
    """Kings, then the other pieces, then pawns; within each, by rank, then by file."""
    kind = piece_kind(target.squares[sq])
    group = 0 if kind == KING else 2 if kind == PAWN else 1
    return group, target.geometry.rank_of(sq), target.geometry.file_of(sq)


def scene(step: Instruction | None) -> LedScene:
    """The square to act on, lit as the reconciler lights a fix: the fix's
    source for a piece to take off, its target for a piece to put down."""
    if step is None:
        return LedScene()
    role = Role.FIX_TO if step.put else Role.FIX_FROM
    return LedScene({step.square: role}, frozenset({step.square}))
