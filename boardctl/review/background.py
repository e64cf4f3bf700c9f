"""Stored games reviewed in a process of their own while the board plays on.

The daemon asks its :class:`Reviewer` for a game's review (when the game ends,
or from the page) and calls :meth:`Reviewer.step` from its loop; nothing here
waits.  One review runs at a time, the others wait their turn.  Its process:

- runs at a lower priority (:data:`NICENESS` added with ``os.nice``), so on a
  busy Pi the board's loop and the opponent's engine come first;
- reads the game from the store, searches every position with an engine of
  its own (never the opponent's worker), and keeps the review in the store in
  one transaction, and only if the game's moves are still the ones it judged.
  SQLite (WAL, a busy timeout) keeps its write and the daemon's apart, and a
  process killed half-way through that transaction leaves nothing of it;
- tells the daemon how many positions it has done, and how it ended;
- ends with the daemon (:mod:`~boardctl.engine.lifeline`); on :meth:`close`
  it is asked to stop (its searches poll the flag) and killed if it does not.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing as mp
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from ..engine import Engine, Limits
from ..engine.lifeline import watch_parent
from ..errors import BoardctlError
from ..rules import Game
from ..storage.records import to_game
from ..storage.reviews import Review
from ..storage.store import GameStore
from .analysis import Progress, ReviewCancelled, analyse
from .command import reviewable
from .status import ReviewStatus

log = logging.getLogger("boardctl")

NICENESS = 10  # added to the review's niceness: below the loop and the opponent's engine
STOP_WAIT = 2.0  # seconds a stopped review may take to end before it is killed
RECENT = 8  # finished reviews (done or failed) the page is told about

# (game, limits, now, on_position, stop) -> the review; run in the review's process.
Analyser = Callable[[Game, Limits, float, Progress, Callable[[], bool]], Review]


def engine_review(
    game: Game, limits: Limits, now: float, on_position: Progress, stop: Callable[[], bool]
) -> Review:
    """The built-in engine over every position (:func:`~.analysis.analyse`)."""
    return analyse(
        game, Engine(seed=0, vary=False), limits, now, on_position=on_position, stop=stop
    )


def _serve(
    db_path: str,
    game_id: int,
    limits: Limits,
    conn: Connection,
    stopped: Any,
    parent: int,
    analyser: Analyser,
) -> None:
    """The review's process: one game reviewed and kept, or why not."""
    # First, so that every thread it starts has it too; a system that refuses
    # (a seccomp filter without setpriority) gets its review all the same.
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    watch_parent(parent)
    try:
        stored = reviewable(Path(db_path), game_id)

        def progress(done: int, total: int) -> None:
            conn.send(("progress", done, total))

        review = analyser(to_game(stored), limits, time.time(), progress, stopped.is_set)
        if stopped.is_set():
            return
        with GameStore(db_path, move_aside=False) as store:
            store.save_review(game_id, review, moves=stored.moves)
        conn.send(("done",))
    except ReviewCancelled:
        return
    except BoardctlError as exc:
        with contextlib.suppress(OSError):
            conn.send(("failed", str(exc)))
    except OSError:
        return  # the daemon stopped listening: it is closing


@dataclass
class _Run:
    """The review running now, and its process."""

    process: Any
    conn: Connection
    stopped: Any  # the multiprocessing Event it polls
    status: ReviewStatus
    ended: ReviewStatus | None = None  # how it said it ended
    cancelled: bool = False


class Reviewer:
    """Reviews of the games in the store at ``db_path``, each within
    ``limits`` a position, one at a time (see the module docstring).
    ``analyser`` must be a module-level function (it is sent to the process);
    ``stop_wait`` is how long :meth:`close` lets a stopped review end."""

    def __init__(
        self,
        db_path: Path,
        limits: Limits,
        *,
        analyser: Analyser = engine_review,
        stop_wait: float = STOP_WAIT,
    ) -> None:
        self.db_path = db_path
        self.limits = limits
        self._analyser = analyser
        self._stop_wait = stop_wait
        self._ctx = mp.get_context("spawn")
        # The flag every review's process polls, made here once: the first
        # one starts multiprocessing's resource tracker, a process of its own
        # (180 ms measured), which belongs at start-up, not in the loop.
        self._stopped = self._ctx.Event()
        self._waiting: deque[int] = deque()
        self._run: _Run | None = None
        self._recent: deque[ReviewStatus] = deque(maxlen=RECENT)

    def request(self, game_id: int) -> None:
        """Review ``game_id`` when the reviews asked for before it are done
        (asking again for one that waits or runs changes nothing)."""
        running = self._run is not None and self._run.status.game_id == game_id
        if not running and game_id not in self._waiting:
            self._waiting.append(game_id)

    def cancel(self, game_id: int) -> None:
        """Drop ``game_id``'s review, waiting or running (its game changed)."""
        if game_id in self._waiting:
            self._waiting.remove(game_id)
        run = self._run
        if run is not None and run.status.game_id == game_id and not run.cancelled:
            run.cancelled = True
            run.stopped.set()

    def step(self) -> bool:
        """Take in what the running review said, start the next one when it
        is over; True when the status changed.  Never waits."""
        before = self.status()
        run = self._run
        if run is not None:
            self._hear(run)
            if not run.process.is_alive():
                self._over(run)
        if self._run is None and self._waiting:
            self._start(self._waiting.popleft())
        return self.status() != before

    def status(self) -> tuple[ReviewStatus, ...]:
        """The running review, those waiting (in turn), then the recent ones."""
        running = () if self._run is None or self._run.cancelled else (self._run.status,)
        waiting = tuple(ReviewStatus(game_id, "waiting") for game_id in self._waiting)
        return running + waiting + tuple(reversed(self._recent))

    @property
    def pid(self) -> int | None:
        """The running review's process id (None: none runs)."""
        return None if self._run is None else int(self._run.process.pid)

    def _start(self, game_id: int) -> None:
        parent, child = self._ctx.Pipe(duplex=False)
        stopped = self._stopped
        stopped.clear()  # the review it stopped before has ended
        process = self._ctx.Process(
            target=_serve,
            args=(
                str(self.db_path),
                game_id,
                self.limits,
                child,
                stopped,
                os.getpid(),
                self._analyser,
            ),
            name=f"boardctl-review-{game_id}",
            daemon=True,
        )
        try:
            process.start()
        except OSError as exc:
            self._recent.append(ReviewStatus(game_id, "failed", note=f"cannot start: {exc}"))
            log.error("review of game %d: cannot start its process: %s", game_id, exc)
            return
        finally:
            child.close()
        log.info("reviewing game %d in process %d", game_id, process.pid)
        self._run = _Run(process, parent, stopped, ReviewStatus(game_id, "running"))

    def _hear(self, run: _Run) -> None:
        try:
            while run.conn.poll(0):
                message = run.conn.recv()
                if message[0] == "progress":
                    run.status = replace(run.status, done=message[1], total=message[2])
                elif message[0] == "done":
                    run.ended = replace(run.status, state="done")
                else:
                    run.ended = replace(run.status, state="failed", note=message[1])
        except (EOFError, OSError):
            pass  # the process is gone: _over says how

    def _over(self, run: _Run) -> None:
        """The review's process has ended: keep how, and forget it."""
        run.process.join(0)
        run.conn.close()
        self._run = None
        game_id = run.status.game_id
        if run.cancelled:
            log.info("review of game %d stopped: its game changed", game_id)
            return
        ended = run.ended or replace(
            run.status,
            state="failed",
            note=f"the review's process ended unexpectedly (exit code {run.process.exitcode})",
        )
        self._recent.append(ended)
        if ended.state == "done":
            log.info("review of game %d kept with the game", game_id)
        else:
            log.warning("review of game %d failed: %s", game_id, ended.note)

    def close(self) -> None:
        """Stop the running review (killed if it does not end in the
        ``stop_wait`` given, :data:`STOP_WAIT` by default) and forget those
        waiting; nothing of an unfinished review is kept."""
        self._waiting.clear()
        run, self._run = self._run, None
        if run is None:
            return
        run.stopped.set()
        run.process.join(self._stop_wait)
        if run.process.is_alive():
            run.process.kill()
            run.process.join(self._stop_wait)
        run.conn.close()
