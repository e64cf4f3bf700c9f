"""The coach's judgement of a move as it is played, and its words.

A teaching board searches the position a move was played in and the one it
left; :func:`judge` grades the move as the review does (:mod:`.grading`,
lichess's model: the win% its mover had with the engine's move less what it
had after its own).  The margin: the coach speaks up at a mistake or worse,
a loss of :data:`WARN_AT` = grading's ``MISTAKE`` (20 points of win%, twice
lila's band: see grading.py for why).  An inaccuracy is left to the review.

:func:`remark` says what the move costs in plain words: the mate it allows
or misses, else the material it loses or fails to win, counted along the
engine's lines (the best move's, and the reply's to the move played), else
only that it is a mistake; a move that costs less may still show something
about the falcon (:mod:`.falcon`), which is said instead.
:func:`hint_words` names up to three good moves, best first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..engine.weights import VALUES
from ..rules import Move, PieceType, Position, san
from ..rules.pieces import PAWN, QUEEN
from .falcon import (
    FalconThreat,
    falcon_threats,
    opened_path,
    opened_words,
    opener_words,
    threat_words,
)
from .grading import INACCURACY, MISTAKE, Grade, Score, grade, move_loss

WARN_AT = MISTAKE  # points of win% a move must lose for the coach to say so
HINT_MOVES = 3  # good moves a hint names
# Material is named when the line played ends at least this far behind the
# best line (centipawns): half a pawn, so an exchange gone a little wrong is not.
NAMED_LOSS = VALUES[PAWN][0] // 2
# A line's material is counted while it is still being won or lost: its first
# SETTLE_PLIES plies (a fork, the reply, the piece taken), then on until two
# quiet plies in a row (no capture, promotion or check).  A deep line's later
# exchanges are the engine's guess at a middle game, not what this move costs:
# counted whole, the lines of 1. Nc3 e6 2. Nd5? named "loses a knight" at depths
# 3-7, 10 and 11, but "loses a pawn" at 8 and "misses winning a pawn" at 9.
SETTLE_PLIES = 3


@dataclass(frozen=True)
class Evaluation:
    """The engine's view of a position, from its side to move: the score,
    and its best line (empty when there is no legal move)."""

    cp: int | None
    mate: int | None
    line: tuple[Move, ...] = ()

    @property
    def score(self) -> Score:
        return self.cp, self.mate

    @property
    def best(self) -> Move | None:
        return self.line[0] if self.line else None


@dataclass(frozen=True)
class Verdict:
    """The win% the move cost its mover, its grade, and whether the coach
    warns about it."""

    loss: float
    grade: Grade | None

    @property
    def warn(self) -> bool:
        return self.loss >= WARN_AT


@dataclass(frozen=True)
class Remark:
    """What the coach says of a move, and whether it offers the move back."""

    text: str
    takeback: bool


def judge(pos: Position, played: Move, before: Evaluation, after: Evaluation) -> Verdict | None:
    """The verdict on ``played``, a legal move of ``pos``; ``before`` and
    ``after`` are the engine's on ``pos`` and on the position the move left.
    None, as in the review, for a move with no other legal one and for a
    move of a side already being mated."""
    mated = before.mate is not None and before.mate <= 0
    if pos.count_legal() == 1 or mated:
        return None
    if played == before.best:
        return Verdict(0.0, None)
    loss = move_loss(before.score, after.score)
    return Verdict(loss, grade(loss))


def remark(
    pos: Position, played: Move, before: Evaluation | None, after: Evaluation | None, offer: bool
) -> Remark | None:
    """What the coach says of ``played``, a legal move of ``pos`` (whose
    history holds the move before it), or None for nothing.  One thing, so
    that the banner of the smallest screen holds it: a warning when the move
    loses at least :data:`WARN_AT` (the move offered back when ``offer``),
    saying so when a falcon alone takes the piece lost; else a piece
    the move leaves to a falcon alone; else the path the last move opened
    for a falcon move.  Without the engine's evaluations (``None``) the
    falcon's lessons alone."""
    left = pos.copy()
    left.push(played)
    threats = new_falcon_threats(pos, left)
    if before is not None and after is not None:
        verdict = judge(pos, played, before, after)
        if verdict is not None and verdict.warn and before.best is not None:
            cost = _cost(pos, played, before, after, verdict)
            taker = next((t for t in threats if cost.endswith(_loses(t.piece))), None)
            if taker is not None:
                cost += " to a falcon"  # its square would not fit the smallest banner
            warning = f"{cost}: {san(pos, before.best)} was better."
            return Remark(f"{warning} Take it back?" if offer else warning, offer)
    if threats:
        return Remark(f"{threat_words(left, threats[0])}.", False)
    opened = opened_path(pos, played)
    if opened is not None:
        return Remark(f"{opened_words(pos, opened)}.", False)
    return None


def _loses(piece: PieceType) -> str:
    return f"loses {_named(piece)}"


def _named(piece: PieceType) -> str:
    """``a knight``, ``the queen`` (a side has one)."""
    return f"{'the' if piece == QUEEN else 'a'} {piece.title}"


def new_falcon_threats(pos: Position, left: Position) -> list[FalconThreat]:
    """The falcon threats (:func:`~.falcon.falcon_threats`) against the side
    that moved from ``pos`` to ``left`` that its move made: a threat it had
    already let stand was said when it arose."""
    had = set()
    if not pos.is_check():
        passed = pos.copy()
        passed.make_null()  # the threats as they stood, the opponent to move
        had = {(t.falcon, t.target) for t in falcon_threats(passed)}
    return [t for t in falcon_threats(left) if (t.falcon, t.target) not in had]


def _cost(pos: Position, played: Move, before: Evaluation, after: Evaluation, v: Verdict) -> str:
    """What the move costs, in words: ``That move loses a knight``."""
    if after.mate is not None and after.mate > 0:
        return f"That move allows mate in {after.mate}"
    if before.mate is not None and before.mate > 0:
        return f"That move misses a mate in {before.mate}"
    material = material_cost(pos, played, before.line, after.line)
    if material:
        return f"That move {material}"
    return "That move is a blunder" if v.grade is Grade.BLUNDER else "That move is a mistake"


def material_cost(
    pos: Position, played: Move, best_line: Sequence[Move], reply_line: Sequence[Move]
) -> str | None:
    """The material ``played`` gives away, counted along the engine's lines
    (``best_line`` from ``pos``, ``reply_line`` from the position the move
    left): ``loses a knight``, ``loses the queen for a bishop``, ``misses
    winning the queen``, ``loses material``; None when the lines end within
    :data:`NAMED_LOSS` of each other."""
    best_net, best_lost, best_won = _tally(pos, best_line)
    net, lost, won = _tally(pos, [played, *reply_line])
    behind = best_net - net
    if behind < NAMED_LOSS:
        return None
    # The piece whose loss explains the difference: the largest that does
    # not exceed it by more than a pawn (a knight for a pawn is "a knight").
    reach = behind + VALUES[PAWN][0]
    given, taken, missed = lost - best_lost, won - best_won, best_won - won
    if fits := [p for p in given if VALUES[p][0] <= reach]:
        return f"loses {_named(_largest(fits))}"
    if given and taken:  # a piece given for a smaller one
        return f"loses {_named(_largest(given))} for {_named(_largest(taken))}"
    if fits := [p for p in missed if VALUES[p][0] <= reach]:
        return f"misses winning {_named(_largest(fits))}"
    return "loses material"


def _largest(pieces: Iterable[PieceType]) -> PieceType:
    return max(pieces, key=lambda p: VALUES[p][0])


Pieces = Counter[PieceType]


def _tally(pos: Position, line: Sequence[Move]) -> tuple[int, Pieces, Pieces]:
    """Along ``line`` (its legal start, while it settles: :data:`SETTLE_PLIES`)
    from ``pos``: the material its first mover gains (centipawns, negative for
    a loss), and the pieces it loses and wins."""
    board = pos.copy()
    mover = pos.turn
    net = 0
    lost: Pieces = Counter()
    won: Pieces = Counter()
    quiet = 0  # quiet plies in a row
    for ply, move in enumerate(line):
        if not board.is_legal(move) or (ply >= SETTLE_PLIES and quiet >= 2):
            break
        capture = board.is_capture(move)
        sign = 1 if board.turn == mover else -1
        if capture:
            found = board.piece_at(move.to_square)
            victim = found[0] if found is not None else PAWN  # en passant
            net += sign * VALUES[victim][0]
            (won if sign > 0 else lost)[victim] += 1
        if move.promotion is not None:
            net += sign * (VALUES[move.promotion][0] - VALUES[PAWN][0])
        board.push(move)
        quiet = 0 if capture or move.promotion is not None or board.is_check() else quiet + 1
    return net, lost, won


def hint_words(pos: Position, ranked: Sequence[tuple[Move, Score]]) -> str:
    """A teaching hint: the best move by its squares too, then the other
    good ones (within an inaccuracy of it: grading's ``INACCURACY``), as
    alternatives and not as a line of play: ``Best: Fxh7 – e5 to h7; also
    good: Qd2 or Nf3``; a falcon move the last move opened the way for says
    so in place of its squares: ``Best: Fxh7 (open since the knight left
    g6); also good: Qd2``.  The screen, the page and the voice all say these
    words."""
    if not ranked:
        return ""
    best, top = ranked[0]
    geo = pos.geometry
    opened = opened_path(pos, best)
    if opened is None:
        where = f"{geo.name(best.from_square)} to {geo.name(best.to_square)}"
        text = f"Best: {san(pos, best)} \N{EN DASH} {where}"
    else:  # the lesson in place of the squares, so that it all fits the banner
        text = f"Best: {san(pos, best)} (open since {opener_words(pos, opened)})"
    # Each alternative's loss, as if it were played instead of the best.
    good = [
        san(pos, move)
        for move, score in ranked[1:HINT_MOVES]
        if move_loss(top, _mirrored(score)) < INACCURACY
    ]
    if good:
        text += f"; also good: {_alternatives(good)}"
    return text


def _alternatives(sans: Sequence[str]) -> str:
    """ "Qd2", "Qd2 or Nf3", "Qd2, Nf3 or Ne4": one of them, not one after another."""
    if len(sans) == 1:
        return sans[0]
    return f"{', '.join(sans[:-1])} or {sans[-1]}"


def _mirrored(score: Score) -> Score:
    """A score of the side to move as the other side's (the position after
    the move, as :func:`~.grading.move_loss` takes it)."""
    cp, mate = score
    return (None if cp is None else -cp), (None if mate is None else -mate)
