"""What the owner's page may ask the board to set up, and why it may not.

The page can start what ``--setup``, ``--puzzle`` and ``--replay`` start: a
position set up from a FEN, a puzzle from the library, a stored game to step
through, and it can go back to a normal game (the start position set up).
The server checks each request against the snapshot it has and answers at
once; the daemon checks it again against the board itself (the board is the
truth: a move may have been made in between) with the same functions, and
says a refusal on the screen.

Pure: this module imports no web server, so the daemon can use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..board.stepping import Stepping, begin
from ..puzzles import Puzzle, UnknownPuzzleError, find, library
from ..rules import BoardctlError, Position, Variant
from ..storage.records import StoredGame
from ..storage.store import GameStore

MAX_FEN = 300  # characters: the longest FEN of the largest preset is under 150


@dataclass(frozen=True)
class Refusal:
    """Why not, in one line, with the HTTP status the server answers."""

    status: int
    text: str


BUSY = Refusal(409, "Finish or end the game first")
REMOTE = Refusal(409, "Not in a remote game: positions, puzzles and stepping are for the board")
NOTHING_TO_END = Refusal(409, "No set-up, puzzle or stepping to end: this is a normal game")


def under_way(mode: str, moves: int, ended: bool) -> bool:
    """Is a game under way, one the owner must finish or end first?  One
    with ``moves`` that has not ``ended``, played as a game: a puzzle's
    attempt, a stepping and a set-up give way to what the owner asks for."""
    return mode == "game" and moves > 0 and not ended


def stepping_of(stored: StoredGame) -> Stepping:
    """A stored game, from its start, ready to step through.

    :raises StartRefused: for a game without a move.
    :raises DamagedGameError: for one that no longer replays.
    """
    if not stored.moves:
        raise StartRefused(Refusal(409, f"game {stored.id} has no moves to step through"))
    return begin(stored.id, GameStore.to_game(stored), stored.result, stored.termination)


def refusal(kind: str, mode: str, playing: bool, remote: bool) -> Refusal | None:
    """Why ``kind`` may not start now, or None.  ``mode`` is the board's
    (:attr:`~boardctl.web.snapshot.Snapshot.mode`); ``playing``: a game that
    has moves and has not ended is under way (one a set-up, puzzle or stepping
    is not); ``remote``: a remote game is on."""
    if remote:
        return REMOTE
    if kind == "normal":
        return NOTHING_TO_END if mode == "game" else None
    return BUSY if playing else None


def target(kind: str, text: str, stepping: Any, variant: Variant) -> Position | Puzzle | Stepping:
    """What ``kind`` sets up on a board of ``variant``: ``"setup"`` the FEN
    ``text``, ``"puzzle"`` the puzzle called ``text``, ``"replay"`` the
    ``stepping`` (the stored game, read by the server), ``"normal"`` the
    start position.

    :raises StartRefused: when it cannot (a bad FEN, an unknown puzzle, one
        of another preset than the board's).
    """
    if kind == "normal":
        return Position(None, variant)
    if kind == "setup":
        if len(text) > MAX_FEN:
            raise StartRefused(Refusal(400, f"a FEN is at most {MAX_FEN} characters"))
        try:
            return Position(text, variant)
        except BoardctlError as exc:
            raise StartRefused(Refusal(400, f"not a {variant.name} position: {exc}")) from None
    if kind == "puzzle":
        try:
            puzzle = find(text)
        except UnknownPuzzleError:
            raise StartRefused(Refusal(404, f"no puzzle called {text!r}")) from None
        _same_preset(f"puzzle {puzzle.id}", puzzle.variant, variant)
        return puzzle
    if not isinstance(stepping, Stepping):
        raise StartRefused(Refusal(404, "no stored game to step through"))
    _same_preset(f"game {stepping.game_id}", stepping.variant.name, variant)
    return stepping


def _same_preset(what: str, preset: str, variant: Variant) -> None:
    """A puzzle or game is played in the board's own preset: the set-up, the
    reconciler and the store are all in it."""
    if preset != variant.name:
        raise StartRefused(
            Refusal(
                409,
                f"{what} is played in {preset}; this board plays {variant.name} "
                "(change the variant in the settings first)",
            )
        )


class StartRefused(BoardctlError, ValueError):
    """A start the board will not make (its :class:`Refusal` says why)."""

    def __init__(self, why: Refusal) -> None:
        super().__init__(why.text)
        self.why = why


def puzzles_for(variant: Variant) -> list[dict[str, str]]:
    """The puzzles a board of ``variant`` can set up, for the page's list:
    those of its own preset (another preset's, the hexagon's on the square
    board, is not listed, and refused if asked for)."""
    return [
        {
            "id": p.id,
            "name": p.name,
            "difficulty": p.difficulty,
            "goal": p.goal.text(p.side),
        }
        for p in library()
        if p.variant == variant.name
    ]
