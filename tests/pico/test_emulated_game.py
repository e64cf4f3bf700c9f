"""A short game on the emulated Pico: the daemon, in-process, plays the
engine's side through the host's real SerialBoard on the firmware running in
rp2040js (issue 22).  A scripted hand lifts and places pieces on the matrix's
contacts; the engine's moves are read off the LED line the emulator decodes
from the data pin; the game lands in a real GameStore.

Everything runs on the chip's simulated clock, which the daemon is given as
its own time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from boardctl.board.explain import occupancy
from boardctl.board.reconciler import State
from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware, Services
from boardctl.rules import Game
from boardctl.storage.store import GameStore

from ..daemon_fakes import ScriptedOpponent
from ..e2e.helpers import Screen, names, sq
from .rig import Rig, harness

REASON = harness.missing()
if REASON is not None:
    pytest.skip(REASON, allow_module_level=True)

CONFIG = parse_config(
    {
        "game": {"mode": "engine", "human": "white"},
        "board": {"sensors": "serial"},
        "engine": {"movetime": 0.05},
    }
)
GAME = ["e2e4", "e7e5", "i1h3", "b8c6"]  # White the hand, Black the scripted engine
WALL_LIMIT = 240.0  # real seconds for the whole game


class Table:
    """The daemon at the emulated board, played by a scripted hand."""

    def __init__(self, rig: Rig, store: GameStore) -> None:
        self.rig = rig
        self.occupied = {s for s in range(80) if occupancy(Game().position) >> s & 1}
        rig.place([(0.0, self.occupied)])
        self.screen = Screen()
        self.daemon = Daemon(
            CONFIG,
            Hardware(rig.host, leds=rig.host, display=self.screen),
            store,
            Services(opponent=ScriptedOpponent(GAME[1::2])),
            now=rig.now(),
        )
        self.deadline = time.monotonic() + WALL_LIMIT

    def until(self, done: Callable[[], bool], what: str) -> None:
        while not done():
            if time.monotonic() > self.deadline:
                rec = self.daemon.reconciler
                raise AssertionError(
                    f"gave up waiting for {what}: reconciler {rec.state} "
                    f"{rec.prompt!r}, link {self.rig.host.status}"
                )
            if self.rig.pico.stopped():
                raise harness.EmulatorError(self.rig.pico.stderr())
            self.daemon.step(self.rig.now())
            time.sleep(0.002)

    def lit(self) -> set[str]:
        """The squares whose LEDs the last decoded frame lights."""
        frames = self.rig.pico.frames
        if not frames:
            return set()
        words = frames[-1].words
        position = self.rig.board.led_position
        return names(s for s in range(80) if words[position[s]])

    def hand(self, square: str, occupied: bool) -> None:
        self.occupied ^= {sq(square)}
        assert (sq(square) in self.occupied) == occupied
        self.rig.place([(0.0, self.occupied)])
        want = sum(1 << s for s in self.occupied)
        self.until(lambda: self.daemon.reconciler.reading == want, f"{square} to be read")

    def play(self, uci: str) -> None:
        plies = len(self.daemon.game.moves)
        self.hand(uci[:2], False)
        self.hand(uci[2:4], True)
        self.until(lambda: len(self.daemon.game.moves) > plies, f"{uci} to be committed")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Table, GameStore]]:
    rig = Rig.start(harness.boards()["matrix"])
    store = GameStore(tmp_path / "games.sqlite3")
    try:
        rig.connect(limit=6.0)
        yield Table(rig, store), store
    finally:
        store.close()
        rig.close()


def test_a_short_game_against_the_engine_on_the_emulated_board(
    table: tuple[Table, GameStore],
) -> None:
    t, store = table
    t.until(lambda: t.daemon.reconciler.state is State.SYNCED, "the start position")
    for human, engine in zip(GAME[::2], GAME[1::2], strict=True):
        t.play(human)
        # The engine's move on the LEDs: its from and to squares, and on a
        # pawn's double step the square passed over, lit on the real line.
        path = {engine[:2], engine[2:4]}
        t.until(lambda p=path: p <= t.lit(), f"the LEDs to show {engine}")
        assert t.daemon.reconciler.engine_move is not None
        t.play(engine)
        t.until(lambda: t.lit() == set(), "the LEDs to go dark")
    assert store.load(t.daemon.game_id).moves == tuple(GAME)
    assert t.rig.host.dropped == {k: 0 for k in t.rig.host.dropped}
