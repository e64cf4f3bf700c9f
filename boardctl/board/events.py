"""What the reconciler tells the rest of boardctl, as values.

Each event knows its line in the replay output (``boardctl replay``), so a
sensor log and its printed events read like a session at the board.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Move, Outcome


@dataclass(frozen=True)
class MoveMade:
    move: Move
    uci: str
    san: str
    by_engine: bool = False

    def line(self) -> str:
        return f"move {self.uci}"


@dataclass(frozen=True)
class MoveAmended:
    """A committed move turned out to be another (a slide went on, castling)."""

    old: Move
    new: Move
    old_uci: str
    new_uci: str
    san: str

    def line(self) -> str:
        return f"amend {self.old_uci} {self.new_uci}"


@dataclass(frozen=True)
class MoveTakenBack:
    move: Move
    uci: str

    def line(self) -> str:
        return f"takeback {self.uci}"


@dataclass(frozen=True)
class NewGame:
    def line(self) -> str:
        return "newgame"


@dataclass(frozen=True)
class GameOver:
    outcome: Outcome

    def line(self) -> str:
        return f"gameover {self.outcome.result} {self.outcome.termination.value}"


@dataclass(frozen=True)
class ErrorShown:
    """The board disagrees with the game; ``text`` says the fix to make."""

    text: str

    def line(self) -> str:
        return f"error {self.text}"


@dataclass(frozen=True)
class Prompt:
    """Something for the player to do that is not an error."""

    text: str

    def line(self) -> str:
        return f"prompt {self.text}"


Event = MoveMade | MoveAmended | MoveTakenBack | NewGame | GameOver | ErrorShown | Prompt
