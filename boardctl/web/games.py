"""The stored games, read for the web page on a thread of their own.

SQLite connections belong to the thread that opened them, and a query must
not hold up the server's event loop: one worker thread opens the database
read-only (``create=False``, so it never moves a file aside) and answers
every question.  The daemon writes in WAL mode, so reading never blocks it.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..board.stepping import Stepping
from ..rules import Game
from ..storage.store import GameStore, GameSummary, StoredGame, StoreError
from .layout import board_layout
from .reviewed import review_json
from .starts import stepping_of

T = TypeVar("T")


@dataclass(frozen=True)
class Replay:
    """One stored game, ready for the replay page: ``fens[k]`` is the
    position after ``k`` plies."""

    summary: GameSummary
    sans: tuple[str, ...]
    fens: tuple[str, ...]
    moves: tuple[tuple[int, int], ...]  # (from, to) of each ply
    board: dict[str, Any]  # the board's layout (boardctl.web.layout)
    review: dict[str, Any] | None = None  # boardctl.web.reviewed's, if reviewed

    def to_json(self) -> dict[str, Any]:
        s = self.summary
        return {
            "id": s.id,
            "variant": s.variant,
            "white": s.white,
            "black": s.black,
            "result": s.result or "*",
            "termination": s.termination or "",
            "started_at": s.started_at,
            "board": self.board,
            "sans": list(self.sans),
            "fens": list(self.fens),
            "moves": [list(m) for m in self.moves],
            # A game can be reviewed once it has ended with moves.
            "reviewable": s.finished and s.plies > 0,
            "review": self.review,
        }


class StoredGames:
    """Read-only access to the game database at ``path`` (None: no store,
    every list is empty).  Call :meth:`close` when done."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="boardctl-web-store")
        self._store: GameStore | None = None

    async def _run(self, work: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)

    def _open(self) -> GameStore | None:
        if self._store is None and self.path is not None and self.path.is_file():
            self._store = GameStore(self.path, create=False)
        return self._store

    def _games(self) -> list[GameSummary]:
        store = self._open()
        return [] if store is None else store.games()

    def _pgn_all(self) -> str:
        store = self._open()
        return "" if store is None else store.pgn_all()

    def _pgn(self, game_id: int) -> str:
        store = self._open()
        if store is None:
            raise StoreError("no game database")
        return store.pgn(game_id)

    def _summary(self, game_id: int) -> GameSummary:
        store = self._open()
        if store is None:
            raise StoreError("no game database")
        stored = store.load(game_id)
        return _summary_of(stored)

    def _replay(self, game_id: int) -> Replay:
        store = self._open()
        if store is None:
            raise StoreError("no game database")
        stored = store.load(game_id)
        game = GameStore.to_game(stored)
        sans = tuple(game.sans())
        fens = [game.start_fen]
        again = Game(game.variant, game.start_fen)
        for move in game.moves:
            again.push(move)
            fens.append(again.position.fen())
        return Replay(
            _summary_of(stored),
            sans,
            tuple(fens),
            tuple((m.from_square, m.to_square) for m in game.moves),
            board_layout(game.variant.name),
            None if stored.review is None else review_json(stored.id, game, stored.review),
        )

    def _stepping(self, game_id: int) -> Stepping:
        store = self._open()
        if store is None:
            raise StoreError("no game database")
        return stepping_of(store.load(game_id))

    async def stepping(self, game_id: int) -> Stepping:
        """Game ``game_id`` ready to step through on the board.

        :raises UnknownGameError: StoreError, DamagedGameError, StartRefused (no moves).
        """
        stepping: Stepping = await self._run(self._stepping, game_id)
        return stepping

    async def games(self) -> list[GameSummary]:
        """Every stored game, newest first.  :raises StoreError:"""
        games: list[GameSummary] = await self._run(self._games)
        return games[::-1]

    async def pgn_all(self) -> str:
        """:raises StoreError: or ReplayError for a game that no longer replays."""
        text: str = await self._run(self._pgn_all)
        return text

    async def pgn(self, game_id: int) -> str:
        """:raises UnknownGameError: StoreError, ReplayError."""
        text: str = await self._run(self._pgn, game_id)
        return text

    async def summary(self, game_id: int) -> GameSummary:
        """:raises UnknownGameError: StoreError, DamagedGameError."""
        summary: GameSummary = await self._run(self._summary, game_id)
        return summary

    async def replay(self, game_id: int) -> Replay:
        """:raises UnknownGameError: StoreError, ReplayError."""
        replay: Replay = await self._run(self._replay, game_id)
        return replay

    def close(self) -> None:
        def shut() -> None:
            if self._store is not None:
                self._store.close()
                self._store = None

        self._pool.submit(shut).result()
        self._pool.shutdown()


def _summary_of(stored: StoredGame) -> GameSummary:
    return GameSummary(**{name: getattr(stored, name) for name in GameSummary.__dataclass_fields__})
