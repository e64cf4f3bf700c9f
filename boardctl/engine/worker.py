"""The engine in a process of its own, so the daemon's loop never waits on it.

The daemon calls :meth:`EngineWorker.go` with a position and limits and gets
a request number back; it calls :meth:`poll` from its loop to collect
:class:`Thinking` (one per finished iteration) and :class:`BestMove`
messages, each tagged with its request; :meth:`rank` asks for several good
moves instead (:mod:`.ranking`), answered by one :class:`Ranked` message.
:meth:`stop`, or a new :meth:`go` or :meth:`rank`, cancels the running
search: the search polls a shared counter every few hundred nodes (see
``params.CHECK_EVERY``), so it ends within milliseconds and still answers
with the best move it has.

Cancellation is "every request up to N": a stop can never be lost to a race
with a request that is still on its way to the worker.

The process ends with the process that started it, however that one dies
(``lifeline.py``): start the worker from a thread that lives as long as its
process.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from multiprocessing.connection import Connection
from typing import Any

from ..rules import BoardctlError, Position, get_variant, parse_uci
from . import core, levels
from .interface import BestMove, Failed, Message, Ranked, RankedMove, Thinking, WorkerError
from .lifeline import watch_parent
from .limits import Info, Limits
from .ranking import rank
from .search import MAX_SKILL, Engine

__all__ = ["EngineWorker"]


def _serve(
    conn: Connection,
    cancelled: Any,
    skill: int,
    seed: int | None,
    parent: int | None = None,
    vary: bool = True,
    nodes_per_second: int | None = None,
) -> None:
    """The worker process: searches what it is sent until told to quit, or
    until the process ``parent`` that started it is gone (see ``lifeline``)."""
    if parent is not None:
        watch_parent(parent)
    engine = Engine(skill, seed, vary=vary)
    engine.nodes_per_second = nodes_per_second
    while True:
        try:
            command = conn.recv()
        except (EOFError, OSError):
            return
        kind = command[0]
        if kind == "quit":
            return
        if kind == "new_game":
            engine.new_game()
            if seed is not None:
                engine.reseed(seed)  # each game from the seed plays alike
        elif kind == "skill":
            engine.skill = command[1]
        elif kind in ("go", "rank"):
            conn.send(_answer(engine, conn, command, cancelled))


def _answer(engine: Engine, conn: Connection, command: tuple[Any, ...], cancelled: Any) -> Message:
    """A search's answer; its iterations are sent on ``conn`` as they finish
    (a ranking sends only its answer)."""
    kind, request, variant, fen, moves, limits, *count = command
    try:
        pos = Position(fen, get_variant(variant))
        for text in moves:
            pos.push(parse_uci(pos, text))
    except BoardctlError as exc:
        return Failed(request, str(exc))

    def stop() -> bool:
        return bool(cancelled.value >= request)

    if kind == "rank":
        ranked = rank(engine, pos, limits, count[0], stop)
        return Ranked(request, tuple(RankedMove(pos.uci(m), info) for m, info in ranked))

    def report(info: Info) -> None:
        conn.send(Thinking(request, info))

    move = engine.search(pos, limits, stop=stop, on_info=report)
    return BestMove(request, pos.uci(move) if move else None)


class EngineWorker:
    """Starts the engine process on first use; see the module docstring."""

    def __init__(
        self,
        skill: int = MAX_SKILL,
        seed: int | None = None,
        vary: bool = True,
        nodes_per_second: int | None = None,
    ) -> None:
        """``vary``: full strength's opening variety (off for an engine that
        judges: see :class:`~.search.Engine`); ``nodes_per_second``: time
        limits counted in positions searched (see ``Engine.nodes_per_second``)."""
        self._ctx = mp.get_context("spawn")
        self._skill = skill
        self._seed = seed
        self.vary = vary
        self._nodes_per_second = nodes_per_second
        self._process: Any = None
        self._conn: Connection | None = None
        self._cancelled: Any = self._ctx.Value("q", 0)
        self._request = 0

    def start(self) -> None:
        if self._process is not None and self._process.is_alive():
            return
        parent, child = self._ctx.Pipe()
        self._process = self._ctx.Process(
            target=_serve,
            args=(
                child,
                self._cancelled,
                self._skill,
                self._seed,
                os.getpid(),
                self.vary,
                self._nodes_per_second,
            ),
            name="boardctl-engine",
            daemon=True,
        )
        self._process.start()
        child.close()
        self._conn = parent

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.is_alive()

    def _send(self, command: tuple[object, ...]) -> None:
        self.start()
        assert self._conn is not None
        try:
            self._conn.send(command)
        except (OSError, BrokenPipeError) as exc:
            raise WorkerError(f"engine process is gone: {exc}") from None

    def go(self, fen: str, moves: list[str], limits: Limits, variant: str = "falcon") -> int:
        """Start searching; a search still running is cancelled first."""
        self.stop()
        self._request += 1
        self._send(("go", self._request, variant, fen, list(moves), limits))
        return self._request

    def stop(self) -> None:
        """Cancel every request made so far (their best moves still arrive)."""
        with self._cancelled.get_lock():
            self._cancelled.value = self._request

    def rank(
        self, fen: str, moves: list[str], limits: Limits, count: int, variant: str = "falcon"
    ) -> int:
        """Rank up to ``count`` good moves (see :mod:`.ranking`), each searched
        within ``limits``; a search still running is cancelled first."""
        self.stop()
        self._request += 1
        self._send(("rank", self._request, variant, fen, list(moves), limits, count))
        return self._request

    def new_game(self) -> None:
        self._send(("new_game",))

    def set_skill(self, skill: int) -> None:
        self._skill = skill
        self._send(("skill", skill))

    def rating(self, skill: int, variant: str) -> int | None:
        """Level ``skill``'s approximate rating in ``variant`` (docs/levels.md),
        measured with the compiled core: None without it (the Python search
        is much slower, so a level is weaker than its rating)."""
        return levels.rating(skill, variant) if core.available() else None

    def poll(self, timeout: float = 0.0) -> list[Message]:
        """Messages that have arrived (waiting up to ``timeout`` for the first).

        :raises WorkerError: once when the engine process has died; the
            worker then forgets it, and the next :meth:`go` starts a new one.
        """
        if self._conn is None:
            return []
        out: list[Message] = []
        try:
            while self._conn.poll(timeout if not out else 0):
                out.append(self._conn.recv())
        except (EOFError, OSError) as exc:
            self._forget()
            raise WorkerError(f"engine process is gone: {exc or 'end of file'}") from None
        if not out and self._process is not None and not self._process.is_alive():
            code = self._process.exitcode
            self._forget()
            raise WorkerError(f"engine process exited with code {code}")
        return out

    def _forget(self) -> None:
        """Drop a dead process and its pipe."""
        if self._conn is not None:
            self._conn.close()
        if self._process is not None:
            self._process.join(1)
        self._process = None
        self._conn = None

    def close(self) -> None:
        """Stop the search and the process (killed if it does not go quietly)."""
        if self._process is None:
            return
        self.stop()
        try:
            if self._conn is not None:
                self._conn.send(("quit",))
        except OSError:
            pass
        self._process.join(2)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(2)
        self._forget()

    def __enter__(self) -> EngineWorker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
