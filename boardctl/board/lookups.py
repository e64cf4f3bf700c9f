"""What the reconciler works out from the game more than once a reading, kept.

Nothing here is state: each answer is worked out again when what it depends
on changes, and forgetting them all changes nothing but the time taken.
"""

from __future__ import annotations

from ..rules import Position
from .explain import Explainer, occupancy


class Lookups:
    """The explained moves of the game's position and of the position before
    the amendable move.  (The game's outcome the game keeps itself.)"""

    def __init__(self) -> None:
        self._explainer: Explainer | None = None
        self._before: Explainer | None = None

    def forget(self) -> None:
        """The game changed (a move, or a new game): its position's moves are
        explained again."""
        self._explainer = None

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
