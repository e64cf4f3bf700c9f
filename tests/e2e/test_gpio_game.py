"""A game at the GPIO board, end to end, with no hardware.

The daemon reads the board through the real :class:`~boardctl.hw.matrix.GpioMatrix`
driver on gpiozero's mock pins, wired by
:class:`~boardctl.hw.mockpins.MockMatrixWiring` like the diode matrix: the
test changes the matrix model's switches as pieces are lifted and placed, and
the driver's row-by-row scan reads them through the mock pins.  The LEDs are
:class:`~boardctl.hw.sim.SimLeds` (the real SPI driver on a recording bus),
the store is the in-memory one, the engine is a script.  Everything runs in
one thread on a virtual clock, so this test is deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from boardctl.board import MoveMade, Role
from boardctl.board.explain import occupancy
from boardctl.board.lights import LIGHTS
from boardctl.board.reconciler import State
from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.hw import Colour
from boardctl.hw.leds import BIT0, BIT1
from boardctl.hw.pins import default_pinout
from boardctl.hw.sim import DiodeMatrix, SimLeds
from boardctl.rules import BLACK, Game

from ..daemon_fakes import MemoryStore, ScriptedOpponent
from .helpers import Screen, engine_frame, sq

gpiozero = pytest.importorskip("gpiozero")
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]  # noqa: E402

from boardctl.daemon.parts import Hardware, Services  # noqa: E402
from boardctl.hw.matrix import GpioMatrix  # noqa: E402
from boardctl.hw.mockpins import MockMatrixWiring  # noqa: E402

DT = 0.01  # virtual seconds per loop turn: the matrix's scan period
LIMIT = 60.0  # virtual seconds any one wait may take before the test fails
ENGINE_WHITE = parse_config(
    {"game": {"mode": "engine", "human": "black"}, "board": {"sensors": "gpio"}}
)


@pytest.fixture
def factory() -> Iterator[Any]:
    """A fresh MockFactory, gpiozero's default while the test runs."""
    previous = gpiozero.Device.pin_factory
    mock = MockFactory()
    gpiozero.Device.pin_factory = mock
    try:
        yield mock
    finally:
        mock.reset()
        gpiozero.Device.pin_factory = previous


def decode_spi(data: bytes, leds: SimLeds) -> dict[int, Colour]:
    """The squares an SPI write lights, and their colours, read back from the
    bytes alone: reset gap, then 24 SPI bytes (one per bit, GRB, MSB first)
    per LED, chained serpentine along the ranks from a1 (the default pinout)."""
    layout = leds.encoder.layout
    assert (layout.count, layout.order, layout.along, layout.first, layout.colour_order) == (
        80,
        "serpentine",
        "ranks",
        "a1",
        "GRB",
    )
    reset = leds.encoder.reset
    assert data[:reset] == bytes(reset) and data[-reset:] == bytes(reset)
    body = data[reset:-reset]
    assert len(body) == 80 * 24 and set(body) <= {BIT0, BIT1}
    values = [
        int("".join("1" if b == BIT1 else "0" for b in body[i : i + 8]), 2)
        for i in range(0, len(body), 8)
    ]
    lit: dict[int, Colour] = {}
    for index in range(80):
        green, red, blue = values[3 * index : 3 * index + 3]
        rank, k = divmod(index, 10)
        file = 9 - k if rank % 2 else k
        if (red, green, blue) != (0, 0, 0):
            lit[rank * 10 + file] = (red, green, blue)
    return lit


def dimmed(frame: dict[int, Colour], leds: SimLeds) -> dict[int, Colour]:
    """A frame's colours after the driver's brightness (capped by the pinout)."""
    level = round(leds.encoder.brightness * 255)
    return {
        s: ((r * level + 127) // 255, (g * level + 127) // 255, (b * level + 127) // 255)
        for s, (r, g, b) in frame.items()
    }


class GpioTable:
    """The daemon at the GPIO board, played by hand in virtual time."""

    def __init__(self, factory: Any, opponent: ScriptedOpponent) -> None:
        pins = default_pinout().pi.matrix
        start = occupancy(Game().position)
        self.wiring = MockMatrixWiring(
            factory, pins.rows, pins.columns, DiodeMatrix(start), row_active_low=pins.row_active_low
        )
        self.matrix = GpioMatrix.from_pinout(pins, pin_factory=factory, settle=0, scan_hz=1 / DT)
        self.leds = SimLeds()
        self.store = MemoryStore()
        self.screen = Screen()
        # The screen checks, each time it is shown, that it shows no move not yet stored.
        self.shown_before_stored: list[int] = []
        self.now = 0.0
        self.daemon = Daemon(
            ENGINE_WHITE,
            Hardware(self.matrix, leds=self.leds, display=self),
            self.store,
            Services(opponent=opponent),
            now=self.now,
        )

    def show(self, state: Any) -> None:
        if len(state.moves) > len(self.store.moves(self.daemon.game_id)):
            self.shown_before_stored.append(len(state.moves))
        self.screen.show(state)

    def close(self) -> None:
        self.matrix.close()
        self.leds.close()

    def step(self) -> None:
        self.now = round(self.now + DT, 6)
        self.daemon.step(self.now)

    def until(self, done: Callable[[], bool], what: str) -> None:
        end = self.now + LIMIT
        while not done():
            assert self.now < end, f"gave up waiting for {what}"
            self.step()

    def run_for(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.step()

    @property
    def occupancy(self) -> int:
        return self.wiring.matrix.closed

    def _set(self, name: str, occupied: bool) -> None:
        bit = 1 << sq(name)
        assert bool(self.occupancy & bit) != occupied
        self.wiring.set_occupancy(self.occupancy ^ bit)
        self.until(
            lambda: self.daemon.reconciler.reading == self.occupancy,
            f"{name} {'placed' if occupied else 'lifted'}",
        )

    def lift(self, name: str) -> None:
        self._set(name, False)

    def place(self, name: str) -> None:
        self._set(name, True)

    def play(self, uci: str) -> None:
        plies = len(self.daemon.game.moves)
        self.lift(uci[:2])
        if self.occupancy >> sq(uci[2:4]) & 1:
            self.lift(uci[2:4])
        self.place(uci[2:4])
        self.until(lambda: len(self.daemon.game.moves) > plies, f"{uci} to be committed")

    def spi_lit(self) -> dict[int, Colour]:
        """What the last SPI write lights, decoded from its bytes."""
        return decode_spi(self.leds.data, self.leds)

    def engine_shows(self, uci: str, path: tuple[str, ...] = ()) -> None:
        self.until(lambda: self.daemon.reconciler.engine_move is not None, "the engine's move")
        want = engine_frame(uci, path)
        # The destination blinks: wait for a frame with it lit.
        self.until(lambda: self.leds.last == want, "the engine's move on the LEDs")
        assert self.spi_lit() == dimmed(want, self.leds)  # ... and as the bus carried it
        assert self.screen.last.engine_move is not None
        assert self.screen.last.engine_move[1:] == (sq(uci[:2]), sq(uci[2:4]))


# White (the scripted engine) and Black (the human).
GAME = ["e2e4", "e7e5", "i1h3", "b8c6", "h3g5", "d7d6", "g5f7", "e8f7"]
SANS = ("e4", "e5", "Nh3", "Nc6", "Ng5", "d6", "Nxf7", "Qxf7")


def test_a_game_on_gpio_mock_pins_against_the_engine(factory: Any) -> None:
    opponent = ScriptedOpponent(GAME[0::2])
    t = GpioTable(factory, opponent)
    try:
        t.until(lambda: t.daemon.reconciler.engine_move is not None, "the first reading")
        assert t.matrix.healthy and t.daemon.reconciler.state is State.SYNCED
        assert t.screen.last.orientation == BLACK  # the human plays Black

        # The engine opens; its move lights e2, e3 (passed over), e4.
        t.engine_shows("e2e4", path=("e3",))
        t.play("e2e4")
        assert t.spi_lit() == {}

        # Lifting a pawn lights it and where it may go.
        t.lift("e7")
        want = {
            sq("e7"): LIGHTS[Role.LIFTED].rgb,
            sq("e6"): LIGHTS[Role.LEGAL].rgb,
            sq("e5"): LIGHTS[Role.LEGAL].rgb,
        }
        t.step()
        assert t.leds.last == want and t.spi_lit() == dimmed(want, t.leds)
        t.place("e5")
        t.until(lambda: len(t.daemon.game.moves) == 2, "e5 to be committed")

        t.engine_shows("i1h3")
        t.play("i1h3")

        # A reed switch that bounces for one scan is no move.
        events = len(t.daemon.events)
        t.wiring.set_occupancy(t.occupancy | 1 << sq("e6"))
        t.step()
        t.wiring.set_occupancy(t.occupancy & ~(1 << sq("e6")))
        t.run_for(2.0)
        assert len(t.daemon.events) == events
        assert t.daemon.reconciler.state is State.SYNCED

        t.play("b8c6")
        t.engine_shows("h3g5")
        t.play("h3g5")
        t.play("d7d6")
        # The engine takes on f7: the player carries the capture out for it.
        t.engine_shows("g5f7")
        t.play("g5f7")
        t.play("e8f7")
        t.run_for(1.0)

        made = [e for e in t.daemon.events if isinstance(e, MoveMade)]
        assert [e.uci for e in made] == GAME
        assert [e.by_engine for e in made] == [True, False] * 4
        assert t.store.moves(t.daemon.game_id) == GAME
        assert [c for c in t.store.calls if c[0] != "add_move"] == [("new_game", 1)]
        assert t.shown_before_stored == []
        last = t.screen.last
        assert last.moves == SANS and last.prompt == "" and last.status == ""
        assert last.fen == t.daemon.game.position.fen()
        assert opponent.asked == [[], GAME[:2], GAME[:4], GAME[:6], GAME[:8]]
        assert t.spi_lit() == {}
    finally:
        t.close()
