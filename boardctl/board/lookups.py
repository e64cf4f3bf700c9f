"""What the reconciler works out from the game more than once a reading, kept.

Nothing here is state: each answer is worked out again when what it depends
on changes, and forgetting them all changes nothing but the time taken.
"""

from __future__ import annotations

from ..rules import Game, Outcome, Position
from .explain import Explainer, occupancy


class Lookups:
    """The explained moves of the game's position and of the position before
    the amendable move, and the game's outcome."""

    def __init__(self) -> None:
        self._explainer: Explainer | None = None
        self._before: Explainer | None = None
        self._outcome_key: tuple[int, int, int] | None = None
        self._outcome: Outcome | None = None

    def forget(self) -> None:
        """The game changed: its position's moves are explained again."""
        self._explainer = None

    def forget_game(self) -> None:
        """A new game: nothing of the old one's holds (its id may be reused)."""
        self._explainer = None
        self._outcome_key = None

    def explain(self, pos: Position) -> Explainer:
        ex = self._explainer
        if ex is None or ex.position is not pos or ex.base != occupancy(pos):
            ex = self._explainer = Explainer(pos)
        return ex

    def explain_before(self, before: Position) -> Explainer:
        """The position before the amendable move, explained once (it does not change)."""
        if self._before is None or self._before.position is not before:
            self._before = Explainer(before)
        return self._before

    def outcome(self, game: Game) -> Outcome | None:
        """The game's outcome, worked out once per position of the game: it
        costs a full move count and is asked several times per reading."""
        key = (id(game), len(game.moves), game.position.hash)
        if key != self._outcome_key:
            self._outcome_key = key
            self._outcome = game.outcome()
        return self._outcome
