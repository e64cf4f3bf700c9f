"""The game store's errors, one tree, and the form of a stored move.

:class:`StoreError` is the disk (the database cannot be created, opened, read
or written); :class:`StoreValueError` is a request the stored games cannot
satisfy, and its :class:`DamagedGameError` a stored value boardctl never
writes.  Every module of the store raises these; the store hands them out.
"""

from __future__ import annotations

import re

from ..errors import BoardctlError

# A move as the store keeps it, a game's or a review's better move: coordinate
# notation.  A value of another form was not written by boardctl.
UCI = re.compile(r"^[a-z][0-9]{1,2}[a-z][0-9]{1,2}[a-z]?$")


class StoreError(BoardctlError, OSError):
    """The game database cannot be created, opened, read or written.

    ``reason`` says why in a word or two, for the screen ("disk full").
    """

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message


class StoreValueError(BoardctlError, ValueError):
    """A request the stored games cannot satisfy (see the subclasses)."""


class UnknownGameError(StoreValueError):
    """A game id that is not in the store."""


class StoreConflictError(StoreValueError):
    """A write that contradicts what is stored (another move at a ply, a gap)."""


class DamagedGameError(StoreValueError):
    """A stored game holding values boardctl never writes (edited in, or
    damaged where ``quick_check`` cannot see); names the game and the value."""

    def __init__(self, game_id: int, message: str) -> None:
        super().__init__(f"game {game_id}: {message}")
        self.game_id = game_id


class ReplayError(DamagedGameError):
    """A stored game the rules core cannot replay; names the game and the ply."""
