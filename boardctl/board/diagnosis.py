"""Why a settled reading is no position the game accepts, and the one fix to show."""

from __future__ import annotations

from ..rules import Move, Position
from ..rules.moves import CASTLE, code_flag, code_from, code_to
from .explain import Candidate, Explainer, footprint, occupancy, pseudo_match
from .guidance import Fix, next_fix, piece_name
from .phases import Episode
from .picking import handled_score


def diagnose(
    pos: Position, reading: int, recent: list[int], castling: Candidate | None
) -> Fix | None:
    """The fix for ``reading`` on the human's turn in ``pos`` (``recent``:
    squares in the order they last changed); ``castling`` is a castling the
    rules forbid that the player made (:func:`illegal_castling`), if any."""
    fix = next_fix(pos, reading, recent)
    if fix is None:
        return None
    if castling is not None:
        king_from, king_to = castling.from_square, code_to(castling.code)
        rook_from, _ = pos.castle_rook_squares(king_from, king_to)
        at = pos.geometry.name
        return Fix(
            king_to,
            king_from,
            "That castling is not allowed: the king would cross or land on an "
            f"attacked square. Put the king back on {at(king_from)} and the "
            f"rook back on {at(rook_from)}",
        )
    code = pseudo_match(pos, reading)
    if code is not None and code_flag(code) != CASTLE:
        frm, to = code_from(code), code_to(code)
        reason = (
            "Your king is in check"
            if check_stands(pos, code)
            else "That move leaves your king in check"
        )
        name = piece_name(pos, frm)
        return Fix(to, frm, f"{reason}: move the {name} back to {pos.geometry.name(frm)}")
    return fix


def play_given(stepping: bool, opponent: str = "the engine") -> str:
    """What the player is told to do with the move given: the opponent's
    (``opponent`` names it), or the stored game's while stepping through it."""
    return "Play the game's move" if stepping else f"Play {opponent}'s move"


def engine_turn_fix(
    pos: Position,
    reading: int,
    recent: list[int],
    engine_move: Move | None,
    taking_back: bool = False,
    stepping: bool = False,
    opponent: str = "the engine",
) -> Fix | None:
    """The fix while the opponent (``opponent`` names it) is to move (or,
    ``stepping``, while the stored game's moves are given): towards its move
    once it came; back to the position before the last move while that move
    is to be taken back (``taking_back``); else back to the position it is
    thinking about."""
    if engine_move is not None:
        target = pos.copy()
        target.push(engine_move)
        fix = next_fix(target, reading, recent, back=False)
        return fix and Fix(
            fix.from_square,
            fix.to_square,
            f"{play_given(stepping, opponent)}: {fix.text[0].lower()}{fix.text[1:]}",
        )
    if taking_back:
        target = pos.copy()
        target.pop()
        fix = next_fix(target, reading, recent)
        return fix and Fix(
            fix.from_square,
            fix.to_square,
            f"Take the last move back: {fix.text[0].lower()}{fix.text[1:]}",
        )
    fix = next_fix(pos, reading, recent)
    if stepping:
        return fix  # nothing to wait for: the next move comes when it is asked for
    wait = f"Wait for {opponent}'s move"
    return fix and Fix(fix.from_square, fix.to_square, f"{wait}. {fix.text}")


def illegal_castling(ex: Explainer, seen: Episode, matches: list[Candidate]) -> Candidate | None:
    """A castling the rules forbid in ``ex``'s position (the king would cross
    or land on an attacked square) that fills the squares of ``matches`` and
    accounts for the squares the player handled better than any of them:
    king f1 to g1 with the rook to f1 leaves the squares of the rook move
    j1-g1 filled, and must not be read as it."""
    pos = ex.position
    legal = {c.code for c in ex.candidates}
    best = max(handled_score(c, seen, ex.base) for c in matches)
    for code in pos.castling_shapes():
        if code in legal:
            continue
        squares, _ = footprint(pos, code)
        pos.make(code)
        after = occupancy(pos)
        pos.unmake()
        if after != matches[0].after:
            continue
        tried = Candidate(pos.to_move(code), code, after, squares, -1)
        if handled_score(tried, seen, ex.base) > best:
            return tried
    return None


def check_stands(pos: Position, code: int) -> bool:
    """Does a piece that gave check before ``code`` (and was not taken)
    still give it after?  Else the move made a new check (a piece stepping
    off a falcon's path, say), and the player is told so."""
    before = pos.checkers()
    if not before:
        return False
    us = pos.turn
    pos.make(code)
    try:
        after = pos.attackers(pos.kings[us], us ^ 1)
    finally:
        pos.unmake()
    return bool(before & after)
