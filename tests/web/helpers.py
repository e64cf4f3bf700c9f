"""A simulated board with the daemon publishing to a hub, for the web tests:
stepped in virtual time (:class:`SimGame`) or run in real time on a thread
(:class:`LiveGame`, for the browser tests).  Every snapshot either publishes
is checked against the LEDs as they stand (:meth:`SimGame._mirrored`)."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from boardctl.board.explain import occupancy
from boardctl.board.setup import instruction
from boardctl.config import parse_config
from boardctl.daemon.activity import SettingUp
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware, Services, Start
from boardctl.engine import Limits
from boardctl.engine.interface import Thinking
from boardctl.engine.limits import Info
from boardctl.hw.sim import SimBoard
from boardctl.review.background import Reviewer
from boardctl.rules import Game, Position, get_variant
from boardctl.storage.store import GameStore
from boardctl.web.snapshot import Hub

from ..daemon_fakes import ScriptedOpponent
from ..hand import carry_out

STEP = 0.01


class ThinkingOpponent(ScriptedOpponent):
    """A scripted engine that reports a score (centipawns for the side to
    move, one per answer) before each move."""

    def __init__(self, moves: list[str], scores: list[int]) -> None:
        super().__init__(moves)
        self.scores = list(scores)

    def go(self, fen: str, moves: list[str], limits: Limits, variant: str = "falcon") -> int:
        score = self.scores.pop(0) if self.scores else 0
        self.outbox.append(Thinking(self.requests + 1, Info(6, score, None, 5000, 0.2)))
        return super().go(fen, moves, limits, variant)


class SimGame:
    """A daemon on a simulated board, stepped by hand in virtual time."""

    def __init__(
        self,
        db: Path,
        *,
        opponent: Any = None,
        hub: Hub | None = None,
        setup: Position | None = None,
        reviewer: Reviewer | None = None,
        puzzle: Any = None,
        replay: Any = None,
        adviser: Any = None,
        **sections: dict[str, Any],
    ) -> None:
        game_section = {"mode": "two-players", **sections.pop("game", {})}
        self.config = parse_config({"game": game_section, **sections})
        self.store = GameStore(db)
        self.hub = hub or Hub()
        start = Game(get_variant(self.config.game.variant)).position
        self.geo = start.geometry
        # As boardctl sim builds it: any board's cells are numbers below files × ranks.
        self.board = SimBoard(
            self.geo.squares(occupancy(start)),
            scan_hz=100,
            files=self.geo.files,
            ranks=self.geo.ranks,
        )
        self.now = 0.0
        self.reviewer = reviewer  # the daemon's reviews; closed with the game
        self.daemon = Daemon(
            self.config,
            Hardware(self.board),
            self.store,
            Services(opponent=opponent, adviser=adviser, web=self.hub, reviewer=reviewer),
            Start(setup=setup, puzzle=puzzle, replay=replay),
        )

        self.lit: dict[int, str] = {}  # the LEDs' squares and roles, after the last step
        self._published: Any = None

    def run(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.daemon.step(self.now)
            self.lit = {sq: role.value for sq, role in self.daemon.scene().squares.items()}
            self._mirrored()
            self.now = round(self.now + STEP, 6)

    def _mirrored(self) -> None:
        """Every snapshot the page is given mirrors the LEDs as they are when
        it is made: the same squares, the same roles (whatever the test)."""
        snap = self.hub.latest
        if snap is self._published or snap is None:
            return
        self._published = snap
        rings = {ring.square: ring.role for ring in snap.rings}
        assert rings == self.lit, f"the page's rings {rings} are not the LEDs' {self.lit}"

    def lift(self, square: str) -> None:
        self.board.lift(self.geo.parse_square(square))
        self.run(0.1)

    def move(self, uci: str) -> None:
        """Lift the piece, (lift the captured one,) put it down; let it settle."""
        carry_out(self.board, self.geo, uci, self.run, settle=0.6)

    def follow_the_set_up(self) -> None:
        """Do what the set-up asks, one piece at a time, until it is complete."""
        for _ in range(200):  # a step for each piece off and each piece on, at most
            activity = self.daemon.activity
            if not isinstance(activity, SettingUp):
                return
            step = instruction(activity.setup)
            if step is None:  # set up already: the board reads it once it has settled
                pass
            elif step.put:
                self.board.place(step.square)
            else:
                self.board.lift(step.square)
            self.run(0.6)
        raise AssertionError("the set-up never ended")

    def close(self) -> None:
        self.daemon.close()
        if self.reviewer is not None:
            self.reviewer.close()
        self.store.close()


@contextmanager
def running(db: Path, **options: Any) -> Iterator[SimGame]:
    """A :class:`SimGame` on ``db`` that has run a tenth of a second; closed after."""
    sim = SimGame(db, **options)
    sim.run(0.1)
    yield sim
    sim.close()


class LiveGame(threading.Thread):
    """A :class:`SimGame` made and stepped at 100 Hz of real time on its own
    thread (its store belongs to that thread); :meth:`do` asks that thread to
    lift a piece (``"lift e2"``) or make a move (``"e2e4"``)."""

    def __init__(self, db: Path, **options: Any) -> None:
        super().__init__(name="live-game", daemon=True)
        self.db = db
        self.options = options
        self.hub = Hub()
        self._todo: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._halt = threading.Event()
        self._ready = threading.Event()

    def start(self) -> None:
        super().start()
        self._ready.wait(60)  # its SimGame is built in the thread: slow on a loaded machine

    def run(self) -> None:
        sim = SimGame(self.db, hub=self.hub, **self.options)
        self.sim = sim  # read from another thread: only its lit, a dict replaced whole
        self._ready.set()
        try:
            while not self._halt.is_set():
                try:
                    what = self._todo.get_nowait()
                except queue.Empty:
                    what = ""
                if what.startswith("lift "):
                    sim.lift(what[5:])
                elif what == "hint":
                    sim.daemon.request_hint()
                elif what:
                    sim.move(what)  # virtual time runs ahead of the wall clock: no matter
                sim.run(STEP)
                time.sleep(STEP)
        finally:
            sim.close()

    def do(self, what: str) -> None:
        """``"lift e2"``, a move ``"e2e4"``, or ``"hint"`` (the hint button)."""
        self._todo.put(what)

    @property
    def lit(self) -> dict[int, str]:
        """The LEDs' squares and roles now."""
        return self.sim.lit

    def stop(self) -> None:
        self._halt.set()
        self.join(5)
