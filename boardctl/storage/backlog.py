"""The daemon's writes to the game store, kept in order while the store cannot take them.

A full disk or a read-only database must not stop the board: the game goes on
in memory, the screen says that its moves are not being saved
(:meth:`Backlog.status`), and the writes wait here, in the order they were
made, to be tried again with a growing pause (:meth:`Backlog.retry`, from
every turn of the daemon's loop).  When the store takes them again the whole
backlog is written, oldest first, and the screen clears.

Only :class:`~boardctl.storage.errors.StoreError` (the database cannot be written) is
waited out.  Any other error is a write that contradicts the store, which
waiting cannot mend: it is raised as the store raised it.

A game started while the store cannot write gets a provisional id (below 1),
which stands for the store's id once its ``new_game`` has been written.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .errors import StoreError

log = logging.getLogger("boardctl")

RETRY_FIRST = 1.0  # seconds from a failed write to the first retry
RETRY_MAX = 30.0  # the pause doubles up to this: a full disk may take a while to clear


class Store(Protocol):
    """What the daemon needs of the game store (:class:`~boardctl.storage.store.GameStore`)."""

    def new_game(
        self, variant: str, start_fen: str, white: str, black: str, mode: str, now: float
    ) -> int: ...
    def add_move(
        self, game_id: int, ply: int, uci: str, now: float, *, clock: float | None = None
    ) -> None: ...
    def remove_last_move(self, game_id: int) -> None: ...
    def amend_last_move(self, game_id: int, uci: str, now: float) -> None: ...
    def finish(self, game_id: int, result: str, termination: str, now: float) -> None: ...
    def set_clocks(self, game_id: int, first: int, clocks: Sequence[float | None]) -> None: ...
    def set_players(self, game_id: int, white: str, black: str) -> None: ...
    def setting(self, key: str) -> str | None: ...
    def set_setting(self, key: str, value: str) -> None: ...
    def write_problem(self) -> str | None: ...


@dataclass(frozen=True)
class Write:
    """One store call waiting to be made: ``method(game, *args, **options)``
    (``new_game`` takes no game: ``game`` is the provisional id it answers for)."""

    method: str
    game: int
    args: tuple[Any, ...]
    options: dict[str, Any] = field(default_factory=dict)

    def line(self) -> str:
        """For the log, when it is lost."""
        if self.method == "add_move":
            return f"game {self.game} ply {self.args[0]}: {self.args[1]}"
        return f"game {self.game}: {self.method}"


class Backlog:
    """The :class:`Store` the daemon writes to: ``store``'s, made to wait
    (see the module docstring).  Reads go straight to ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.problem: str | None = None  # why writes are waiting, in a word or two
        self._queue: deque[Write] = deque()
        self._ids: dict[int, int] = {}  # provisional id -> the store's
        self._next_provisional = 0
        self._due: float | None = None  # the loop time of the next retry
        self._pause = RETRY_FIRST
        try:
            why = store.write_problem()
        except StoreError as exc:
            why = exc.reason
        if why is not None:
            # Found at start, said at start: not at the first move.
            self._fail(why, f"the game store cannot be written ({why})")

    # ------------------------------------------------------------ writes
    def new_game(
        self, variant: str, start_fen: str, white: str, black: str, mode: str, now: float
    ) -> int:
        if self.problem is None and not self._queue:
            try:
                return self.store.new_game(variant, start_fen, white, black, mode, now)
            except StoreError as exc:
                self._fail(exc.reason, str(exc))
        self._next_provisional -= 1
        self._queue.append(
            Write("new_game", self._next_provisional, (variant, start_fen, white, black, mode, now))
        )
        return self._next_provisional

    def add_move(
        self, game_id: int, ply: int, uci: str, now: float, *, clock: float | None = None
    ) -> None:
        self._write(Write("add_move", game_id, (ply, uci, now), {"clock": clock}))

    def remove_last_move(self, game_id: int) -> None:
        self._write(Write("remove_last_move", game_id, ()))

    def amend_last_move(self, game_id: int, uci: str, now: float) -> None:
        self._write(Write("amend_last_move", game_id, (uci, now)))

    def finish(self, game_id: int, result: str, termination: str, now: float) -> None:
        self._write(Write("finish", game_id, (result, termination, now)))

    def set_clocks(self, game_id: int, first: int, clocks: Sequence[float | None]) -> None:
        self._write(Write("set_clocks", game_id, (first, tuple(clocks))))

    def set_players(self, game_id: int, white: str, black: str) -> None:
        self._write(Write("set_players", game_id, (white, black)))

    # ------------------------------------------------------------- reads
    def setting(self, key: str) -> str | None:
        return self.store.setting(key)

    def set_setting(self, key: str, value: str) -> None:
        self.store.set_setting(key, value)  # a setting is no move: its caller copes

    def write_problem(self) -> str | None:
        return self.problem

    # ------------------------------------------------------------ status
    @property
    def waiting(self) -> tuple[Write, ...]:
        """The writes not yet made, oldest first."""
        return tuple(self._queue)

    def status(self) -> str | None:
        """One line for the screen while moves are not being saved, else None."""
        if self.problem is None:
            return None
        moves = sum(write.method == "add_move" for write in self._queue)
        if not moves:
            return f"Moves not saved ({self.problem})"
        return f"{moves} move{'s' if moves > 1 else ''} not saved ({self.problem})"

    def retry(self, now: float) -> None:
        """Try the waiting writes again when it is time (every turn of the
        loop calls this; ``now`` is the loop's clock)."""
        if self.problem is None:
            return
        if self._due is None:
            self._due = now + self._pause
            return
        if now < self._due:
            return
        if self._queue:
            self._flush()
        else:
            # Nothing waits, but the screen says no move would be saved: ask.
            try:
                why = self.store.write_problem()
            except StoreError as exc:
                why = exc.reason
            if why is None:
                self._recovered()
        if self.problem is not None:
            self._pause = min(2 * self._pause, RETRY_MAX)
            self._due = now + self._pause

    def close(self) -> None:
        """Try once more; log every write that is still lost.  The store
        itself is the caller's to close."""
        if self._queue:
            self._flush()
        if self._queue:
            log.error(
                "game store still cannot be written (%s): %d writes lost: %s",
                self.problem,
                len(self._queue),
                "; ".join(write.line() for write in self._queue),
            )

    # -------------------------------------------------------- internals
    def _write(self, write: Write) -> None:
        self._queue.append(write)
        if self.problem is None:
            self._flush()

    def _flush(self) -> None:
        while self._queue:
            write = self._queue[0]
            try:
                if write.method == "new_game":
                    self._ids[write.game] = self.store.new_game(*write.args)
                else:
                    game = self._ids.get(write.game, write.game)
                    getattr(self.store, write.method)(game, *write.args, **write.options)
            except StoreError as exc:
                self._fail(exc.reason, str(exc))
                return
            self._queue.popleft()
        if self.problem is not None:
            self._recovered()

    def _fail(self, why: str, detail: str) -> None:
        if self.problem is None:
            log.error(
                "%s: the game goes on in memory and is saved when the store can take it again",
                detail,
            )
            self._due = None
            self._pause = RETRY_FIRST
        self.problem = why

    def _recovered(self) -> None:
        log.warning("game store writable again (%s before)", self.problem)
        self.problem = None
        self._due = None
        self._pause = RETRY_FIRST
