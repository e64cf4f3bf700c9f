"""The small status screen beside the board (pygame-ce), drawn from a :class:`DisplayState`.

Only :mod:`boardctl.ui.state` is imported here, so building a state needs no
pygame; :mod:`boardctl.ui.display` (the :class:`~boardctl.ui.display.Renderer`)
and :mod:`boardctl.ui.screenshot` import pygame-ce (the ``display`` extra).
"""

import os

from .state import DisplayState

# pygame prints a banner on import; boardctl's stdout belongs to its commands.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__all__ = ["DisplayState"]
