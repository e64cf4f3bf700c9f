"""The puzzles shipped with boardctl: what each one is, and where to find it.

Two files in ``data/`` hold them: ``puzzles.toml``, written by hand (the
inventor's problems and positions of our own), and ``drills.toml``, written
by :mod:`.drills` from the K+F v K table.  A puzzle is a start position and
a goal; :mod:`.attempt` judges a game played from it.

Example::

    puzzle = find("duke-a")
    puzzle.goal.text(puzzle.side)  # "White to mate in 2"
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

from ..rules import BLACK, WHITE, BoardctlError, Position, get_variant

DATA_FILES = ("puzzles.toml", "drills.toml")
GoalKind = Literal["mate", "drill"]
Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")
# A mate in this many moves or fewer is easy, medium; deeper is hard.
MATE_GRADES = (1, 2)
SIDES = {WHITE: "White", BLACK: "Black"}


class UnknownPuzzleError(BoardctlError, KeyError):
    """A puzzle id the library does not hold."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class PuzzleDataError(BoardctlError, ValueError):
    """A puzzle file that does not say what a puzzle needs."""


@dataclass(frozen=True)
class Goal:
    """What the side to move must do.

    ``mate``: mate in ``moves`` moves (or fewer).  ``drill``: mate a bare
    king with king and falcon; the table mates in ``moves`` with best play,
    and the player may take ``slack`` moves more.
    """

    kind: GoalKind
    moves: int
    slack: int = 0

    @property
    def allowed(self) -> int:
        """The most moves the player may take to mate."""
        return self.moves + self.slack

    def text(self, side: int, left: int | None = None) -> str:
        """The goal as the banner says it, with ``left`` of the moves left."""
        who = SIDES[side]
        left = self.allowed if left is None else left
        if self.kind == "mate":
            return f"{who} to mate in {left}"
        return f"{who} to mate in {left} moves or fewer"

    def summary(self) -> str:
        """The goal in a few words, for the list of puzzles."""
        if self.kind == "mate":
            return f"mate in {self.moves}"
        return f"K+F v K, mate in {self.allowed} (best {self.moves})"


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: ``fen`` in the preset ``variant``, the ``goal`` for the
    side to move, where it comes from, and for the inventor's problems the
    first move the source gives (``key``, in coordinates)."""

    id: str
    name: str
    variant: str
    fen: str
    goal: Goal
    source: str
    difficulty: Difficulty
    key: str | None = None

    def position(self) -> Position:
        return Position(self.fen, get_variant(self.variant))

    @property
    def side(self) -> int:
        """The side that is to solve it."""
        return BLACK if self.fen.split()[1] == "b" else WHITE


def mate_difficulty(moves: int) -> Difficulty:
    easy, medium = MATE_GRADES
    return "easy" if moves <= easy else "medium" if moves <= medium else "hard"


@cache
def library() -> tuple[Puzzle, ...]:
    """Every puzzle shipped, in the files' order (read once).

    :raises PuzzleDataError: when a file is damaged.
    """
    puzzles: list[Puzzle] = []
    for name in DATA_FILES:
        text = resources.files("boardctl.puzzles").joinpath("data", name).read_text("utf-8")
        puzzles += parse(text, name)
    seen: set[str] = set()
    for puzzle in puzzles:
        if puzzle.id in seen:
            raise PuzzleDataError(f"two puzzles are called {puzzle.id}")
        seen.add(puzzle.id)
    return tuple(puzzles)


def find(puzzle_id: str) -> Puzzle:
    """The puzzle called ``puzzle_id``.

    :raises UnknownPuzzleError: with the ids there are, when there is none.
    """
    for puzzle in library():
        if puzzle.id == puzzle_id:
            return puzzle
    raise UnknownPuzzleError(
        f"no puzzle called {puzzle_id!r}: 'boardctl puzzles' lists them "
        f"({', '.join(p.id for p in library()[:3])}, …)"
    )


def parse(text: str, where: str) -> list[Puzzle]:
    """The puzzles of one file's text (``where`` names it in errors).

    :raises PuzzleDataError: for a missing or wrong field, or a FEN that is
        no position of its preset.
    """
    try:
        entries = tomllib.loads(text).get("puzzle", [])
    except tomllib.TOMLDecodeError as exc:
        raise PuzzleDataError(f"{where}: {exc}") from None
    return [_puzzle(entry, where) for entry in entries]


def _puzzle(entry: dict[str, Any], where: str) -> Puzzle:
    name = f"{where}: puzzle {entry.get('id', '?')}"
    try:
        kind, moves = entry["goal"], entry["moves"]
        if kind not in ("mate", "drill") or not isinstance(moves, int) or moves < 1:
            raise PuzzleDataError(f"{name}: goal must be mate or drill, in 1 move or more")
        goal = Goal(kind, moves, entry.get("slack", 0))
        difficulty = entry.get("difficulty", mate_difficulty(moves))
        if difficulty not in DIFFICULTIES:
            raise PuzzleDataError(f"{name}: difficulty must be one of {DIFFICULTIES}")
        puzzle = Puzzle(
            id=entry["id"],
            name=entry["name"],
            variant=entry["variant"],
            fen=entry["fen"],
            goal=goal,
            source=entry["source"],
            difficulty=difficulty,
            key=entry.get("key"),
        )
        puzzle.position()  # a FEN of its preset
    except KeyError as exc:
        raise PuzzleDataError(f"{name}: no {exc.args[0]}") from None
    except BoardctlError as exc:
        if isinstance(exc, PuzzleDataError):
            raise
        raise PuzzleDataError(f"{name}: {exc}") from None
    return puzzle
