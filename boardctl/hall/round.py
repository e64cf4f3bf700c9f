"""A round of a tournament, as the organiser writes it: a small TOML file.

::

    event = "spring-open"          # the boards' [hall] event: their topics' name
    name = "Spring Open 2025"      # optional: the PGN's Event and the page's title
    site = "Falcon Club, Leeds"    # optional: the PGN's Site
    round = 3
    [[board]]
    number = 1
    id = "table-7"                 # the board's [hall] board
    key = "3f2a9c01d4e5f607"       # its fingerprint (boardctl hall key on that board)
    white = "Anna Schmidt"
    black = "Ben Okafor"

The round file is the hall's only source of trust: a board's game is shown
only when the key named here signed it.  Names are the organiser's (a
board's own names for its players are shown only where the file leaves one
out).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import BoardctlError
from ..names import InvalidName, clean_name
from ..userfiles import load_toml
from .place import MAX_ROUND, NAME, NAME_RULE
from .wire import TRUSTED, TRUSTED_RULE

MAX_BOARDS = 256  # boards in one round: a large open's, on one hall
MAX_TEXT = 80  # characters of the event's long name and its site
_TOP = ("event", "name", "site", "round", "board")
_BOARD = ("number", "id", "key", "white", "black")


class RoundError(BoardctlError, ValueError):
    """A round file that cannot be used; the message says where."""


@dataclass(frozen=True)
class Seat:
    """One board of the round: its number, the board's id and key (see the
    module docstring), and the players' names ("": the board's own)."""

    number: int
    board: str
    key: str
    white: str = ""
    black: str = ""


@dataclass(frozen=True)
class Round:
    event: str
    number: int
    seats: tuple[Seat, ...]
    name: str = ""
    site: str = ""

    @property
    def title(self) -> str:
        return self.name or self.event


def parse_round(data: dict[str, Any], source: str = "(text)") -> Round:
    """:raises RoundError: naming the key or the board that is wrong."""
    where = f"round {source}"
    unknown = sorted(set(data) - set(_TOP))
    if unknown:
        raise RoundError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(_TOP)})")
    event = _name(data.get("event"), f"{where}: event")
    number = _number(data.get("round"), f"{where}: round")
    name = _text(data.get("name", ""), f"{where}: name")
    site = _text(data.get("site", ""), f"{where}: site")
    boards = data.get("board")
    if not isinstance(boards, list) or not boards:
        raise RoundError(f"{where}: expected at least one [[board]] with number, id and key")
    if len(boards) > MAX_BOARDS:
        raise RoundError(f"{where}: at most {MAX_BOARDS} boards; got {len(boards)}")
    seats = tuple(_seat(board, f"{where}: board {i}") for i, board in enumerate(boards, 1))
    for field in ("number", "board"):
        seen: set[object] = set()
        for seat in seats:
            value = getattr(seat, field)
            if value in seen:
                what = "number" if field == "number" else "id"
                raise RoundError(f"{where}: two boards with the {what} {value!r}")
            seen.add(value)
    return Round(event, number, tuple(sorted(seats, key=lambda s: s.number)), name, site)


def _seat(board: object, at: str) -> Seat:
    if not isinstance(board, dict):
        raise RoundError(f"{at}: expected a table with number, id and key")
    unknown = sorted(set(board) - set(_BOARD))
    if unknown:
        raise RoundError(f"{at}: unknown key {unknown[0]!r} (known: {', '.join(_BOARD)})")
    key = board.get("key")
    if isinstance(key, str):
        key = "".join(key.split()).lower()  # as shown: "3f2a 9c01 …" reads the same
    if not isinstance(key, str) or not TRUSTED.fullmatch(key):
        raise RoundError(f"{at}: key: expected {TRUSTED_RULE}")
    try:
        white = clean_name(board.get("white", ""), "white", allow_empty=True)
        black = clean_name(board.get("black", ""), "black", allow_empty=True)
    except InvalidName as exc:
        raise RoundError(f"{at}: {exc}") from None
    return Seat(
        _number(board.get("number"), f"{at}: number"),
        _name(board.get("id"), f"{at}: id"),
        key,
        white,
        black,
    )


def _name(value: object, at: str) -> str:
    if not isinstance(value, str) or not NAME.fullmatch(value):
        raise RoundError(f"{at}: expected {NAME_RULE}; got {value!r:.60}")
    return value


def _number(value: object, at: str) -> int:
    if type(value) is not int or not 1 <= value <= MAX_ROUND:
        raise RoundError(f"{at}: expected a whole number from 1 to {MAX_ROUND}; got {value!r:.60}")
    return value


def _text(value: object, at: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT or not value.isprintable():
        raise RoundError(f"{at}: expected printable text of at most {MAX_TEXT} characters")
    return value.strip()


def load_round(path: Path) -> Round:
    """:raises RoundError: one line, for a file that cannot be read or used."""
    return parse_round(load_toml(path, f"round {path}", RoundError), str(path))
