"""One board playing a remote game in real time: the daemon on a simulated
board, its web server with the link, and a hand that does what a person at
the board does (carries out the remote side's moves when they light up,
follows the set-up guidance after a takeback, plays its own moves).

Used on a thread by the browser tests and as a process of its own by the
board-against-board tests and bench/remote_faults.py (``side_child.py``).
"""

from __future__ import annotations

import queue
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from boardctl.board.explain import occupancy
from boardctl.board.setup import instruction
from boardctl.config import parse_config
from boardctl.daemon.activity import SettingUp
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware, Services, Start
from boardctl.daemon.services import link_settings
from boardctl.hw.sim import SimBoard, SimButtons
from boardctl.remote.desk import Desk
from boardctl.remote.journal import JOURNAL_NAME
from boardctl.remote.link import Link
from boardctl.remote.transport import MqttTransport
from boardctl.rules import WHITE, Game
from boardctl.storage.store import GameStore
from boardctl.web.server import WebServer
from boardctl.web.snapshot import Hub

from .broker import RETRY, free_port

PIN = "1357"
TICK = 0.01  # seconds between the daemon's steps
HAND = 0.04  # seconds between one movement of the hand and the next


@dataclass
class Options:
    colour: int = WHITE
    port: int = 0
    clock: str = ""
    name: str = ""
    script: tuple[str, ...] = ()  # this board player's moves come from it, at their plies
    carry_out: bool = True  # the hand carries out the remote side's moves by itself
    offer: bool = True  # offer a game at start when the journal has none
    broker: str = ""  # mqtt://HOST:PORT; "": a broker of the board's own (mosquitto)
    lan_port: int = 0  # 0: a free one (a broker of the board's own, when broker is "")


class LiveSide:
    """See the module docstring.  Build and step it on one thread: the game
    store belongs to the thread that made it."""

    def __init__(self, folder: Path, options: Options) -> None:
        self.folder = folder
        self.options = options
        human = "white" if options.colour == WHITE else "black"
        self.config = parse_config(
            {
                "game": {"mode": "remote", "human": human, "clock": options.clock},
                "board": {"settle_ms": 30, "grace_ms": 400},
                "remote": {
                    "confirm_ms": 150,
                    "name": options.name,
                    "broker": options.broker,
                    "lan_port": options.lan_port or free_port(),
                },
                "web": {"enabled": True, "pin": PIN, "bind": "127.0.0.1"},
            }
        )
        self.store = GameStore(folder / "games.sqlite3")
        resume = self.store.resume()
        pos = (resume[1] if resume is not None else Game()).position
        self.board = SimBoard(pos.geometry.squares(occupancy(pos)), scan_hz=100)
        self.geo = pos.geometry
        self.buttons = SimButtons()
        self.desk = Desk()
        self.hub = Hub()
        settings = replace(link_settings(self.config), offer_at_start=options.offer)
        self.link = Link(
            self.desk,
            folder / JOURNAL_NAME,
            settings,
            transport_for=lambda broker: MqttTransport(broker, retry=RETRY),
        )
        self.server = WebServer(
            self.hub,
            host="127.0.0.1",
            port=options.port,
            pin=PIN,
            link=self.link,
            db_path=folder / "games.sqlite3",
        )
        self.server.start()
        self.daemon = Daemon(
            self.config,
            Hardware(self.board, buttons=self.buttons),
            self.store,
            Services(web=self.hub, remote=self.desk),
            Start(resume=resume),
            now=time.monotonic(),
        )
        self.acts: deque[tuple[str, int]] = deque()  # the hand's movements to come
        self.hand_due = 0.0

    @property
    def url(self) -> str:
        return self.server.url

    def step(self) -> None:
        now = time.monotonic()
        self.daemon.step(now)
        if now >= self.hand_due:
            self._hand(now)

    def _hand(self, now: float) -> None:
        if self.daemon.sensing.last_reading != self.board.occupancy:
            return  # a person waits for the board to take in a movement (a loaded machine is slow)
        if not self.acts:
            self._plan()
        if self.acts:
            verb, square = self.acts.popleft()
            (self.board.lift if verb == "lift" else self.board.place)(square)
            self.hand_due = now + HAND
            if not self.acts:
                self.hand_due = now + HAND * 4  # let the move settle before looking again

    def _plan(self) -> None:
        """What the hand does next, if anything."""
        d = self.daemon
        if isinstance(d.activity, SettingUp):
            step = instruction(d.activity.setup)
            if step is not None and (self.board.occupancy >> step.square & 1) != step.put:
                self.acts.append(("place" if step.put else "lift", step.square))
            return
        if self.board.occupancy != occupancy(d.game.position):
            return  # the daemon has not yet taken in the last movement: look again soon
        engine = d.reconciler.engine_move
        if engine is not None and self.options.carry_out:
            self.move(d.game.position.uci(engine))
            return
        script, plies = self.options.script, len(d.game.moves)
        view = self.desk.view
        if (
            script
            and plies < len(script)
            and d.game.position.turn == self.options.colour
            and d.game.ending() is None
            and view.key
            and tuple(d.shown.shaper.move_ucis(d.game)) == view.line
            and view.line == script[:plies]
        ):
            self.move(script[plies])

    def move(self, uci: str) -> None:
        """The hand moves a piece: lift it, lift what it takes, put it down."""
        names = re.fullmatch(r"([a-z]+\d+)([a-z]+\d+)[a-z]?", uci)
        assert names is not None, uci
        src, dst = (self.geo.parse_square(n) for n in names.groups())
        self.acts.append(("lift", src))
        if self.board.occupancy >> dst & 1:
            self.acts.append(("lift", dst))
        self.acts.append(("place", dst))

    def press(self, name: str) -> None:
        self.buttons.press(name, time.monotonic())

    def close(self) -> None:
        self.server.stop()
        self.daemon.close()
        self.store.close()


class LiveThread(threading.Thread):
    """A :class:`LiveSide` made and stepped on a thread of its own; the test
    hands it work with :meth:`do` (run on that thread) and reads what it likes."""

    def __init__(self, folder: Path, options: Options) -> None:
        super().__init__(name="live-side", daemon=True)
        self.folder, self.options = folder, options
        self.side: LiveSide | None = None
        self._todo: queue.SimpleQueue[Callable[[LiveSide], Any]] = queue.SimpleQueue()
        self._halt = threading.Event()
        self._ready = threading.Event()
        self.error: BaseException | None = None

    def start(self) -> None:
        super().start()
        if not self._ready.wait(30) or self.side is None:
            raise RuntimeError(f"the live side did not start: {self.error}")

    def run(self) -> None:
        try:
            self.side = LiveSide(self.folder, self.options)
        except BaseException as exc:
            self.error = exc
            self._ready.set()
            raise
        self._ready.set()
        try:
            while not self._halt.is_set():
                while True:
                    try:
                        self._todo.get_nowait()(self.side)
                    except queue.Empty:
                        break
                self.side.step()
                time.sleep(TICK)
        finally:
            self.side.close()

    def do(self, work: Callable[[LiveSide], Any]) -> None:
        self._todo.put(work)

    def wait_for(
        self, what: Callable[[LiveSide], bool], message: str, timeout: float = 20.0
    ) -> None:
        assert self.side is not None
        end = time.monotonic() + timeout
        while not what(self.side):
            if time.monotonic() > end:
                raise AssertionError(f"gave up waiting: {message}")
            time.sleep(0.02)

    def stop(self) -> None:
        self._halt.set()
        self.join(10)
