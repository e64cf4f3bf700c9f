"""``boardctl pgn``: the stored games as PGN on standard output.

It only reads the database, and never moves a file (a corrupt one stays where
the daemon will find it and move it aside).
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from .errors import DamagedGameError, StoreValueError, UnknownGameError
from .export import stored_pgn
from .store import GameStore


def pgn_command(db_path: Path, game: int | None, all_games: bool, out: TextIO, err: TextIO) -> int:
    """``boardctl pgn [--all | GAME]``: write PGN to ``out`` (default: the
    latest game) and return the exit status.  Only reads the database.

    A game holding values boardctl never writes is left out with one line on
    ``err`` naming it and the value, and the rest is written: the status is
    then 1 (the output is incomplete, through no fault of the command line),
    else 0.

    :raises StoreError: when there is no database or it cannot be read.
    :raises UnknownGameError: for a game number that is not stored.
    :raises StoreValueError: when both ``game`` and ``all_games`` are given.
    """
    if all_games and game is not None:
        raise StoreValueError("give a game number or --all, not both")
    damaged: list[DamagedGameError] = []
    text = ""
    with GameStore(db_path, create=False) as store:
        try:
            if all_games:
                text = store.pgn_all(damaged)
            elif game is not None:
                text = store.pgn(game)
            else:
                latest = store.latest()
                if latest is None:
                    raise UnknownGameError(f"no games in {db_path} yet")
                text = stored_pgn(latest)
        except DamagedGameError as exc:
            damaged.append(exc)
    out.write(text)
    for bad in damaged:
        err.write(f"boardctl pgn: {bad}; left out\n")
    return 1 if damaged else 0
