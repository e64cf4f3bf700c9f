"""The project's error tree.

Each error is also a builtin exception, so callers that do not know boardctl
can still catch ``ValueError`` (gpiozero's ``exc.py`` and python-chess do the
same).  The root lives in the rules core because that package imports nothing
of the project; ``boardctl.errors`` re-exports it for everyone else.
"""

from __future__ import annotations


class BoardctlError(Exception):
    """Root of every error boardctl raises on purpose."""


class UnknownVariantError(BoardctlError, ValueError):
    """A rule preset name that the registry does not know."""


class FenError(BoardctlError, ValueError):
    """A malformed FEN.  ``field`` names the part that is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"invalid FEN {field}: {message}")
        self.field = field


class IllegalMoveError(BoardctlError, ValueError):
    """A move that is not legal in the position it was played in."""


class InvalidMoveError(BoardctlError, ValueError):
    """Move text that cannot be parsed at all."""


class AmbiguousMoveError(BoardctlError, ValueError):
    """SAN that names more than one legal move."""


class PgnError(BoardctlError, ValueError):
    """A PGN game that cannot be read."""
