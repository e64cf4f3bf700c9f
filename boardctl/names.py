"""Players' names, wherever they come from: the configuration, the settings
page, a remote player's login or a peer board.

A name is shown on the screen, spoken, stored and written into PGN tags, so
one rule holds for all of them: printable characters only (no newline, tab,
control or formatting character, nothing that reorders text), no spaces at
the ends, at most :data:`MAX_NAME` characters.  :func:`clean_name` strips the
ends and refuses anything else with its reason in one line, rather than
mending it quietly: a name that is not what its owner typed is a surprise on
the board's screen and in every stored game.
"""

from __future__ import annotations

from .errors import BoardctlError

MAX_NAME = 40  # characters of a player's name: a screen's row and a PGN tag


class InvalidName(BoardctlError, ValueError):
    """Not a name boardctl takes; :attr:`reason` says why, without ``what``."""

    def __init__(self, what: str, reason: str) -> None:
        super().__init__(f"{what}: {reason}")
        self.reason = reason


def clean_name(text: object, what: str = "name", *, allow_empty: bool = False) -> str:
    """``text`` without spaces at its ends, if it is a name (see the module
    docstring); ``what`` names the field in the refusal.

    :raises InvalidName: for anything else, or an empty name unless
        ``allow_empty``.
    """
    if not isinstance(text, str):
        raise InvalidName(what, "expected text")
    name = text.strip()
    if len(name) > MAX_NAME:
        raise InvalidName(what, f"expected a name of at most {MAX_NAME} characters")
    if not name.isprintable():
        raise InvalidName(
            what, "expected printable characters only (no newline, tab or control character)"
        )
    if not name and not allow_empty:
        raise InvalidName(what, "expected a name")
    return name
