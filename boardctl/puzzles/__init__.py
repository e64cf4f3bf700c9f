"""Puzzles: positions with a goal, played on the board against the engine's defence.

:mod:`.library` holds the puzzles shipped (``data/``), :mod:`.drills` makes
the K+F v K drills from the engine's table, :mod:`.solver` asks the engine,
:mod:`.attempt` judges a game played from a puzzle move by move, and
:mod:`.verify` checks the library.  A puzzle is a game with a start position
and a goal, not a mode with its own loop: the daemon sets the position up,
plays it as a game and asks :func:`.attempt.judge` after each move.
"""

from .attempt import Attempt, Status, hint, judge
from .library import Goal, Puzzle, UnknownPuzzleError, find, library
from .solver import Solver

__all__ = [
    "Attempt",
    "Goal",
    "Puzzle",
    "Solver",
    "Status",
    "UnknownPuzzleError",
    "find",
    "hint",
    "judge",
    "library",
]
