"""LED scenes: which squares to light, in which role, as a value.

A scene says *what* a square means (a legal destination, a square of the
engine's move, a fix to make); the LED drivers decide the colour from the
configuration, and whether they light a square's own LED (80 per-square LEDs)
or the four corner LEDs around it (a 9×11 grid).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Role(Enum):
    LEGAL = "legal"  # a destination of the lifted piece
    LEGAL_ONE_PATH = "legal-1"  # falcon destination by one open path
    LEGAL_TWO_PATHS = "legal-2"  # ... by two
    LEGAL_THREE_PATHS = "legal-3"  # ... by all three
    FALCON_PATH = "falcon-path"  # a square on an open falcon path
    LIFTED = "lifted"  # where the lifted piece came from
    ENGINE_FROM = "engine-from"
    ENGINE_PATH = "engine-path"
    ENGINE_TO = "engine-to"
    HINT_FROM = "hint-from"  # the hint's move, for the side to move
    HINT_TO = "hint-to"
    CHECK = "check"  # the king in check
    FIX_FROM = "fix-from"  # take the piece from here ...
    FIX_TO = "fix-to"  # ... and put it here
    CANDIDATE = "candidate"  # one of several squares the player must choose


FALCON_PATH_ROLES = {1: Role.LEGAL_ONE_PATH, 2: Role.LEGAL_TWO_PATHS, 3: Role.LEGAL_THREE_PATHS}


@dataclass(frozen=True)
class LedScene:
    """Square → role, and the squares that blink."""

    squares: dict[int, Role] = field(default_factory=dict)
    blink: frozenset[int] = frozenset()

    def with_squares(self, extra: dict[int, Role], blink: frozenset[int] = frozenset()) -> LedScene:
        """A scene with ``extra`` drawn over this one."""
        return LedScene({**self.squares, **extra}, self.blink | blink)


EMPTY_SCENE = LedScene()
