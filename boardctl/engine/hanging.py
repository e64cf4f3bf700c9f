"""Whether a move gives material away: the measure of a human-looking move.

A weak level must still play moves a person might play (issue 26): it may
miss a fork or a plan, but it should seldom leave a piece where it is simply
taken, or pass up a piece left for it.  This module says when a move does
either, by a look any beginner could make: the captures that follow it.

A move's *exchange value* is the material its mover has once the captures
that follow it are played out as well as both sides can (a search of
captures alone, on material alone, where either side may stop capturing).
A move *gives material away* when its exchange value is ``HANGING`` or more
below the best exchange value of the moves of its position: it leaves a
piece (or two pawns' worth) to be taken, or does not take one that could be
taken for nothing.  Checks and mates are not looked at, nor anything beyond
the captures.
"""

from __future__ import annotations

from ..rules import Position
from ..rules.moves import EN_PASSANT, code_flag, code_promotion, code_to
from ..rules.pieces import KING, PAWN
from .params import ORDER_VALUE

HANGING = 200  # centipawns: two pawns, or a piece less a pawn
MAX_CAPTURES = 8  # plies of captures looked at after the move
BOUND = 10**6  # beyond any material


def _value(piece: int) -> int:
    """A piece's material; a king is never taken, so it counts nothing."""
    kind = piece & 7
    return 0 if kind == KING else ORDER_VALUE[kind]


def material(pos: Position) -> int:
    """Material of the side to move less its opponent's (``params.ORDER_VALUE``)."""
    total = 0
    for piece in pos.squares:
        if piece:
            total += _value(piece) if (piece >> 3) == pos.turn else -_value(piece)
    return total


def _gain(pos: Position, code: int) -> int:
    """The material a move wins: what it takes, and what a pawn becomes."""
    taken = PAWN if code_flag(code) == EN_PASSANT else pos.squares[code_to(code)] & 7
    gain = _value(taken) if taken else 0
    promotion = code_promotion(code)
    if promotion:
        gain += ORDER_VALUE[promotion] - ORDER_VALUE[PAWN]
    return gain


def _captures(pos: Position, standing: int, alpha: int, beta: int, plies: int) -> int:
    """The side to move's material once the captures are played out;
    ``standing`` is its material now."""
    best = standing
    if best >= beta or plies == 0:
        return best
    alpha = max(alpha, best)
    ordered = sorted(((_gain(pos, code), code) for code in pos.legal_captures()), reverse=True)
    for gain, code in ordered:
        pos.make(code)
        score = -_captures(pos, -(standing + gain), -beta, -alpha, plies - 1)
        pos.unmake()
        if score > best:
            best = score
            alpha = max(alpha, score)
            if alpha >= beta:
                break
    return best


def exchange_value(pos: Position, code: int) -> int:
    """The mover's material after ``code`` (a legal move's packed code) and
    the captures that follow it."""
    after = material(pos) + _gain(pos, code)
    pos.make(code)
    value = -_captures(pos, -after, -BOUND, BOUND, MAX_CAPTURES)
    pos.unmake()
    return value


def given_away(pos: Position) -> set[int]:
    """The packed codes of the moves of ``pos`` that give material away
    (see the module docstring)."""
    values = {code: exchange_value(pos, code) for code in pos.legal_codes()}
    if not values:
        return set()
    best = max(values.values())
    return {code for code, value in values.items() if value <= best - HANGING}
