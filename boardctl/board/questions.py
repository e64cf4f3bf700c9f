"""What the judgement (:mod:`.judgement`) asks of a phase and the game's
:class:`~.machine.View` before it decides: which moves the board may show
now, whether a reading is explained or a move is still in progress, which
piece a promotion takes.  Questions only: nothing here changes a phase.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import PieceType
from .diagnosis import illegal_castling
from .explain import Candidate
from .machine import View
from .phases import Phase
from .picking import pick, promoting


def promotion_piece(p: Phase, view: View) -> PieceType:
    """The piece a promotion takes now: the one chosen, else the one
    highlighted, else the default."""
    return p.move.choice or p.move.highlight or view.default_promotion


def allowed(p: Phase, view: View, candidates: list[Candidate]) -> list[Candidate]:
    """Moves the board may show now: any human move, or the engine's own."""
    if view.outcome is not None:
        return []
    if view.human_to_move:
        return candidates
    return [c for c in candidates if c.move == p.engine_move]


def explained(p: Phase, view: View, reading: int) -> bool:
    ex = view.explainer
    if reading == ex.base:
        return True
    return bool(allowed(p, view, ex.matches(reading)) or allowed(p, view, ex.in_progress(reading)))


def proven(p: Phase, view: View, candidates: list[Candidate]) -> list[Candidate]:
    """The moves of ``candidates`` the board may show whose capture was seen."""
    episode = p.move.episode
    return [c for c in allowed(p, view, candidates) if episode.proves(c)]


def reply_chose(p: Phase) -> bool:
    """Was the promotion piece picked after the move last shown, once the
    board had changed again?  Then the opponent picked it, ahead of a
    promotion of their own."""
    t = p.move
    return t.choice is not None and t.choice_at > t.tentative_at


def promoting_now(
    p: Phase, view: View, candidates: Sequence[Candidate], piece: PieceType | None = None
) -> Candidate:
    """The one of ``candidates`` (of one move) that a promotion would take
    now, or that promotes to ``piece``."""
    return promoting(candidates, piece or promotion_piece(p, view), view.default_promotion)


def in_progress(p: Phase, view: View, reading: int) -> bool:
    ex = view.explainer
    if allowed(p, view, ex.in_progress(reading)):
        return True
    amendable = p.move.amendable
    if amendable and view.explain_before(amendable.before).in_progress(reading):
        return True
    history = p.history
    if view.config.allow_takeback and history:
        # Undoing the last move, half done: changes only on its squares.
        earlier, squares = history[-1]
        return (
            not (reading ^ ex.base) & ~squares
            and (reading & squares).bit_count() <= (earlier & squares).bit_count()
        )
    return False


def illegal(p: Phase, view: View, matches: list[Candidate]) -> Candidate | None:
    """A castling the rules forbid that the human made instead of ``matches``."""
    if not matches or not view.human_to_move:
        return None
    return illegal_castling(view.explainer, p.move.episode, matches)


def picked(p: Phase, view: View, matches: list[Candidate]) -> list[Candidate]:
    return pick(matches, p.move.episode, view.explainer.base)
