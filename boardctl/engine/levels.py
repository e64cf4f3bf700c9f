"""The engine's levels, 0 to 20: how much each one searches, and how it errs.

Level 20 is the full engine: as deep as its time allows (the same search
as before the levels were calibrated, issue 26), with a little randomness
among near-equal opening moves so that games differ.  Below it a level is
four numbers (:class:`Level`), set by measuring (``bench/levels.py``) so
that each step up is worth about as much as the one before; what they came
to, in rating points, is in :mod:`.ratings`:

- ``nodes``: the most positions it searches for a move.  A cap in positions,
  not seconds, makes a level as strong on a Raspberry Pi as here: every cap
  is below what a Pi searches in the default 3 s a move (``PI_MOVE_NODES``),
  so only level 20 depends on the machine and the time it is given;
- ``depth``: the deepest it looks, in plies (one, at the weakest levels:
  its own move and the captures that follow);
- ``spread``: random points, up to this many centipawns either way, added
  to the score of each of its moves before it picks one: it chooses among
  near-equal moves, so two games do not repeat move for move;
- ``slip``: the chance that it picks a move without looking at the reply at
  all (the evaluation of the position right after its own move): a
  beginner's oversight, which can leave a piece where it is taken.  The
  rest of its moves it searches as the other numbers say.

What counts as a human-looking move, and how often each level leaves
material where it is taken for nothing, is in ``docs/levels.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import get_variant
from .ratings import RATINGS

MAX_LEVEL = 20
CALIBRATED = "falcon"  # the game the levels were measured in
# The positions a Raspberry Pi 4 searches in the default 3 s a move
# (config.py's ``movetime``): this machine's compiled core searches about
# 1.3 M positions a second of CPU time (bench/engine.py), a Pi 4 core some
# 3.6 times fewer (bench/piratio.py), so 3 s x 360 k/s.  The calibration plays
# level 20 at this many positions a move; an engine with a seed counts its
# time at the Pi's rate (config.py's [engine] seed).
PI_NODES_PER_SECOND = 360_000
PI_MOVE_NODES = 3 * PI_NODES_PER_SECOND
# Random points of level 20's opening moves (its first 6 moves, while 30 or
# more pieces stand): near-equal moves vary, a worse one is never chosen for it.
OPENING_SPREAD = 12
OPENING_MOVES = 6
OPENING_PIECES = 30
# The weakest level gives material away (boardctl.engine.hanging) in at
# most one move in six: now and then, like a beginner, not every move.
MOST_GIVEN_AWAY = 1 / 6
# The ratings shown are rounded to this many points: 50 would be the
# measurement's honest grain, but it showed levels 7 and 8 (measured 35 points
# apart) as the same number, and a player reads a higher level as a higher one.
RATING_STEP = 25


@dataclass(frozen=True)
class Level:
    """One level's search and its errors (see the module docstring)."""

    nodes: int | None  # None: as many as the time and the caller's limits allow
    depth: int | None  # None: no cap of its own
    spread: int  # centipawns either way
    slip: float  # chance per move, 0 to 1


FULL = Level(None, None, 0, 0.0)

# By level, 0 first.  Set from pilot matches and a first calibration
# (docs/levels.md) so that each step is worth about the same: a doubling of
# the positions searched is worth 100 to 250 points at a few thousand
# positions and some 100 to 150 at a few hundred thousand, so the caps are
# close at the bottom and about a doubling apart at the top; below what one
# ply searches, the spread and the slips take over.
LEVELS: tuple[Level, ...] = (
    Level(None, 1, 150, 0.15),
    Level(None, 1, 150, 0.10),
    Level(None, 1, 150, 0.05),
    Level(None, 1, 150, 0.0),
    Level(None, 1, 100, 0.0),
    Level(None, 1, 50, 0.0),
    Level(500, None, 30, 0.0),
    Level(700, None, 25, 0.0),
    Level(1_000, None, 20, 0.0),
    Level(1_900, None, 15, 0.0),
    Level(4_000, None, 15, 0.0),
    Level(5_600, None, 15, 0.0),
    Level(8_000, None, 15, 0.0),
    Level(16_000, None, 10, 0.0),
    Level(25_000, None, 10, 0.0),
    Level(40_000, None, 10, 0.0),
    Level(70_000, None, 10, 0.0),
    Level(130_000, None, 10, 0.0),
    Level(250_000, None, 10, 0.0),
    Level(500_000, None, 10, 0.0),
    FULL,
)


def level(number: int) -> Level:
    """The level ``number`` (0 to ``MAX_LEVEL``).

    :raises ValueError: for a number outside that range.
    """
    if not 0 <= number <= MAX_LEVEL:
        raise ValueError(f"a level is from 0 to {MAX_LEVEL}, not {number}")
    return LEVELS[number]


def rating(number: int, variant: str = CALIBRATED) -> int | None:
    """Level ``number``'s approximate rating (:mod:`.ratings`, measured by
    ``bench/levels.py``), rounded to ``RATING_STEP``.  None in a game the
    levels were not measured in: one with another board or other pieces than
    ``CALIBRATED`` (castling rules aside).

    :raises ValueError: for a number outside 0 to ``MAX_LEVEL``, or an unknown variant.
    """
    level(number)
    if get_variant(variant).start_fen != get_variant(CALIBRATED).start_fen:
        return None
    return round(RATINGS[number][0] / RATING_STEP) * RATING_STEP
