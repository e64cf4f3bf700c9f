"""Stored games as the store hands them out: every value checked, and replayed.

:class:`~boardctl.storage.store.GameStore` reads rows; this module turns them into
:class:`GameSummary` and :class:`StoredGame` values, refusing any value that
boardctl never writes (a text or a blob where a time belongs, a time past the
year 9999, a move that is not coordinate notation, a gap in the plies) with a
:class:`DamagedGameError` that names the game and the value.  A database
edited with another tool passes SQLite's ``quick_check`` and still holds such
values: each costs one game, never the reader.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ..errors import BoardctlError
from ..rules import RESULTS, Game, get_variant
from .errors import UCI, DamagedGameError, ReplayError
from .reviews import Review

LATEST_TIME = 253_402_300_800.0  # 10000-01-01 UTC: no later time has a PGN date


@dataclass(frozen=True)
class GameSummary:
    """One row of :meth:`GameStore.games`: a game without its moves."""

    id: int
    variant: str
    start_fen: str
    started_at: float | None  # UTC seconds since 1970; None: not known (before version 3)
    ended_at: float | None  # likewise, and None while the game goes on
    result: str | None  # None while the game goes on
    termination: str | None
    white: str
    black: str
    mode: str
    plies: int

    @property
    def finished(self) -> bool:
        return self.result is not None


@dataclass(frozen=True)
class StoredGame(GameSummary):
    """A game as stored, with its moves in coordinate notation (ply 1 first)
    and, for a game with clocks, the time each mover had left after the move."""

    moves: tuple[str, ...] = ()
    clocks: tuple[float | None, ...] = ()
    review: Review | None = None  # boardctl review's, if the game was reviewed


# A games row begins with the summary's fields, in their order.
_FIELDS = tuple(field.name for field in dataclasses.fields(GameSummary))
_TEXT_FIELDS = ("variant", "start_fen", "white", "black", "mode")


def checked_fields(row: Any) -> dict[str, Any]:
    """A games row as :class:`GameSummary` fields, each value one boardctl
    writes: anything else (edited in) names the game and the column.

    :raises DamagedGameError: for the first value that is not.
    """
    game_id = row[0]
    fields = dict(zip(_FIELDS, row[: len(_FIELDS)], strict=True))
    for name in _TEXT_FIELDS:
        if not isinstance(fields[name], str):
            raise DamagedGameError(game_id, f"{name} is {_shown(fields[name])}, not text")
    for name in ("result", "termination"):
        if fields[name] is not None and not isinstance(fields[name], str):
            raise DamagedGameError(game_id, f"{name} is {_shown(fields[name])}, not text")
    if fields["result"] is not None and fields["result"] not in RESULTS:
        raise DamagedGameError(
            game_id, f"result is {_shown(fields['result'])}, not one of {', '.join(RESULTS)}"
        )
    wall_clock = row[len(_FIELDS)]
    if wall_clock not in (0, 1):
        raise DamagedGameError(game_id, f"wall_clock is {_shown(wall_clock)}, not 0 or 1")
    for name in ("started_at", "ended_at"):
        value = fields[name]
        if value is None and name == "ended_at":
            continue
        _check_time(game_id, name, value)
        if not wall_clock:
            fields[name] = None  # the daemon's monotonic clock: no date
    return fields


def _is_time(value: Any) -> bool:
    """Seconds that boardctl could have stored: a number from 0 up to the year 9999."""
    return isinstance(value, int | float) and 0 <= value < LATEST_TIME  # NaN fails too


def _check_time(game_id: int, name: str, value: Any) -> None:
    if not _is_time(value):
        raise DamagedGameError(game_id, f"{name} is {_shown(value)}, not a time")


def checked_game(row: Any, moves: list[Any]) -> StoredGame:
    """A games row and its moves rows (ply, uci, created_at, clock) as a
    :class:`StoredGame`.  :raises DamagedGameError: as :func:`checked_fields`."""
    fields = checked_fields(row)
    game_id = fields["id"]
    for ply, *_ in moves:
        if not isinstance(ply, int):
            raise DamagedGameError(game_id, f"a move is stored at ply {_shown(ply)}")
    for expected, (ply, uci, created_at, clock) in enumerate(moves, start=1):
        if ply != expected:
            raise DamagedGameError(
                game_id, f"ply {expected} is missing (the next move stored is at ply {ply})"
            )
        if not isinstance(uci, str) or not UCI.match(uci):
            raise DamagedGameError(
                game_id, f"ply {ply} is {_shown(uci)}, not a move in coordinate notation"
            )
        _check_time(game_id, f"ply {ply}'s time", created_at)
        if clock is not None and not _is_time(clock):
            raise DamagedGameError(
                game_id, f"ply {ply}'s clock is {_shown(clock)}, not a time left"
            )
    return StoredGame(
        **fields,
        moves=tuple(m[1] for m in moves),
        clocks=tuple(None if m[3] is None else float(m[3]) for m in moves),
    )


def to_game(stored: StoredGame) -> Game:
    """Replay a stored game with the rules core.

    :raises ReplayError: naming the game (and the ply) that does not replay.
    """
    try:
        game = Game(get_variant(stored.variant), stored.start_fen)
    except BoardctlError as exc:
        raise ReplayError(stored.id, str(exc)) from None
    for ply, uci in enumerate(stored.moves, start=1):
        try:
            game.push_text(uci)
        except BoardctlError as exc:
            raise ReplayError(stored.id, f"ply {ply} ({uci}) does not replay: {exc}") from None
    return game


def _shown(value: Any) -> str:
    """A stored value in an error message: its repr, cut short (it may be huge)."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."
