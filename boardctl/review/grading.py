"""How much a move cost its mover, and what it is called: lichess's model.

The winning-chances curve and its constant are lichess's
(lichess-org/lila ``modules/analyse/src/main/WinPercent.scala``, the constant
fitted in lila pull request 11148)::

    win% = 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)

with cp from the mover's side, held within +-1000 and a mate counted as 1000
(``Cp.CEILING``, ``fromMate``).  A move is graded by the win% its mover had
with the engine's move less what it had after its own, as lila's
``modules/analyse/src/main/Advice.scala`` (``CpAdvice``) does.

The bands are wider than lila's.  lila marks a move at 0.1, 0.2 and 0.3 of
its winning chances (a scale of -1 to +1), which is 5, 10 and 15 points of
win%; boardctl marks at 10, 20 and 30 points.  The curve was fitted to
Stockfish's centipawns, and this engine's differ more between sound moves: at
1 s a position, with the scores compared at the same horizon (see
:mod:`.analysis`), the developing moves 1. e4 e5 2. Nc3 Nc6 3. d3 d6 4. Be3
Be6 cost 0 to 5.7 points each against the engine's own choice, so at lila's 5
three of them were inaccuracies.
"""

from __future__ import annotations

import math
from enum import Enum

from ..rules.game import Outcome
from ..rules.pgn import NAG_BLUNDER, NAG_DUBIOUS, NAG_MISTAKE

WIN_CURVE = 0.00368208  # lila's fit of win% to the engine's centipawns (lila PR 11148)
CP_CEILING = 1000  # lila's Cp.CEILING: scores beyond it, and every mate, count as it
# Win% points (0-100) a move must lose to be marked: twice lila's bands (see above).
INACCURACY = 10.0
MISTAKE = 20.0
BLUNDER = 30.0

Score = tuple[int | None, int | None]  # (centipawns, moves to mate), from the side to move


class Grade(Enum):
    """A marked move: its NAG (PGN standard, section 10) and its glyph."""

    INACCURACY = (NAG_DUBIOUS, "?!")
    MISTAKE = (NAG_MISTAKE, "?")
    BLUNDER = (NAG_BLUNDER, "??")

    @property
    def nag(self) -> int:
        return self.value[0]

    @property
    def glyph(self) -> str:
        return self.value[1]

    @classmethod
    def of_nag(cls, nag: int) -> Grade:
        """:raises ValueError: for a NAG a review does not give."""
        for grade in cls:
            if grade.nag == nag:
                return grade
        raise ValueError(f"no grade has NAG ${nag}")


def win_percent(cp: int | None, mate: int | None) -> float:
    """The mover's chance to win, 0-100, from a score on its side: centipawns,
    or moves to a mate (positive: it mates; zero or negative: it is mated)."""
    if mate is not None:
        cp = CP_CEILING if mate > 0 else -CP_CEILING
    assert cp is not None, "a score is centipawns or a mate"
    held = max(-CP_CEILING, min(CP_CEILING, cp))
    return 50 + 50 * (2 / (1 + math.exp(-WIN_CURVE * held)) - 1)


def move_loss(before: Score, after: Score) -> float:
    """The win% a move cost its mover: ``before`` is the score of the position
    it was played in, ``after`` of the position it left (from the other side)."""
    # The curve is symmetric: the mover's chance is 100 less the opponent's.
    return max(0.0, win_percent(*before) - (100 - win_percent(*after)))


def grade(loss: float) -> Grade | None:
    """What a move that cost its mover ``loss`` points of win% is called."""
    if loss >= BLUNDER:
        return Grade.BLUNDER
    if loss >= MISTAKE:
        return Grade.MISTAKE
    if loss >= INACCURACY:
        return Grade.INACCURACY
    return None


def ended_score(outcome: Outcome, turn: int) -> Score:
    """A position the rules end the game in, from the side to move: mated
    (a mate in 0) when it lost, the ceiling when it won, else level."""
    if outcome.winner is None:
        return 0, None
    if outcome.winner != turn:
        return None, 0
    return CP_CEILING, None  # a scored stalemate the stalemated side wins
