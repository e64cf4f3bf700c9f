"""A simulated board with the daemon publishing to a hub, for the web tests:
stepped in virtual time (:class:`SimGame`) or run in real time on a thread
(:class:`LiveGame`, for the browser tests)."""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path
from typing import Any

from boardctl.board.explain import occupancy
from boardctl.config import parse_config
from boardctl.daemon import Daemon
from boardctl.hw.sim import SimBoard
from boardctl.rules import Game, get_variant
from boardctl.store import GameStore
from boardctl.web.snapshot import Hub

STEP = 0.01


class SimGame:
    """A daemon on a simulated board, stepped by hand in virtual time."""

    def __init__(self, db: Path, *, opponent: Any = None, **sections: dict[str, Any]) -> None:
        game_section = {"mode": "two-players", **sections.pop("game", {})}
        self.config = parse_config({"game": game_section, **sections})
        self.store = GameStore(db)
        self.hub = Hub()
        start = Game(get_variant(self.config.game.variant)).position
        self.board = SimBoard(start.geometry.squares(occupancy(start)), scan_hz=100)
        self.geo = start.geometry
        self.now = 0.0
        self.daemon = Daemon(self.config, self.board, self.store, opponent=opponent,
                             web=self.hub)

    def run(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.daemon.step(self.now)
            self.now = round(self.now + STEP, 6)

    def move(self, uci: str, capture: bool = False) -> None:
        """Lift the piece, (lift the captured one,) put it down; let it settle."""
        src, dst = self.geo.parse_square(uci[:2]), self.geo.parse_square(uci[2:4])
        self.board.lift(src)
        self.run(0.1)
        if capture:
            self.board.lift(dst)
            self.run(0.1)
        self.board.place(dst)
        self.run(0.6)

    def close(self) -> None:
        self.daemon.close()
        self.store.close()


class LiveGame(threading.Thread):
    """A :class:`SimGame` stepped at 100 Hz of real time on its own thread;
    :meth:`move` asks that thread to make a move with the pieces."""

    def __init__(self, db: Path, **sections: dict[str, Any]) -> None:
        super().__init__(name="live-game", daemon=True)
        self.sim = SimGame(db, **sections)
        self.hub = self.sim.hub
        self._moves: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._stop = threading.Event()

    def run(self) -> None:
        sim = self.sim
        while not self._stop.is_set():
            try:
                uci = self._moves.get_nowait()
            except queue.Empty:
                uci = None
            if uci is not None:
                sim.move(uci)   # virtual time runs ahead of the clock: fine for a spectator
            sim.run(STEP)
            time.sleep(STEP)

    def move(self, uci: str) -> None:
        self._moves.put(uci)

    def stop(self) -> None:
        self._stop.set()
        self.join(5)
        self.sim.close()
