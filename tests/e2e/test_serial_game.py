"""A game at the serial board, end to end, with no hardware.

The daemon reads the board and lights its LEDs through a
:class:`~boardctl.hw.serial_link.SerialBoard` on a pseudo-terminal; at the
other end runs the fake Pico (tests/hw/fake_mcu.py: the firmware's own
scanner, link and LED strip).  Moves are stored in a real
:class:`~boardctl.storage.store.GameStore`; the engine is a script, or the real engine
worker at its lowest skill.  The test plays as a person would: it changes the
fake's occupancy (lift, place) and lets the daemon's loop run.

Time: the daemon and the fake's firmware share one virtual clock, moved on
:data:`DT` per loop turn.  Bytes still have to cross the pty in real time, so
after each turn the loop waits (briefly, bounded) until the fake's firmware
has looked at the clock again, i.e. has run a step: virtual time cannot run
away from the device.  Nothing is asserted about elapsed time; every wait is a
polling loop that fails only after :data:`~.helpers.WAIT` real seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from boardctl.board import ErrorShown, MoveAmended, MoveMade, MoveTakenBack, NewGame
from boardctl.board.explain import occupancy
from boardctl.board.reconciler import State
from boardctl.config import Config, parse_config
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware, Services
from boardctl.engine.interface import Opponent
from boardctl.hw import Colour
from boardctl.hw.serial_link import SerialBoard
from boardctl.rules import Game, parse_uci
from boardctl.storage.store import GameStore

from ..daemon_fakes import ScriptedOpponent
from ..hw.fake_mcu import FakeMcu
from .helpers import WAIT, Screen, engine_frame, names, sq

pytest.importorskip("serial")

DT = 0.02  # virtual seconds per turn of the daemon's loop
STEP_WAIT = 0.2  # real seconds a turn waits for the fake to run a step
ENGINE_WHITE_HUMAN = parse_config(
    {
        "game": {"mode": "engine", "human": "white"},
        "board": {"sensors": "serial"},
        "engine": {"movetime": 0.05},
    }
)
OFF: Colour = (0, 0, 0)


class VirtualClock:
    """Virtual seconds shared by the daemon and the fake; counts the fake's looks."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.looks = 0

    def __call__(self) -> float:  # the fake's firmware calls this once a step
        self.looks += 1
        return self.now


class SerialTable:
    """The daemon at the serial board, played by hand."""

    def __init__(
        self, directory: Path, stack: ExitStack, config: Config, opponent: Opponent | None = None
    ) -> None:
        self.clock = VirtualClock()
        start = Game()
        self.fake: FakeMcu = stack.enter_context(
            FakeMcu(directory, occupancy(start.position), clock=self.clock)
        )
        self.board = SerialBoard(
            self.fake.port, reconnect_interval=0.05, reconnect_max=0.2, brightness=1.0
        )  # full brightness: the exact colours
        stack.callback(self.board.close)
        self.store = GameStore(directory / "games.sqlite3")
        stack.callback(self.store.close)
        self.screen = Screen()
        self.daemon = Daemon(
            config,
            Hardware(self.board, leds=self.board, display=self.screen),
            self.store,
            Services(opponent=opponent),
            now=self.clock.now,
        )
        self.until(
            lambda: (
                self.board.healthy
                and bool(self.fake.led_frames)
                and self.daemon.reconciler.state is State.SYNCED
            ),
            "the board to connect",
        )

    # ------------------------------------------------------------ the loop
    def step(self) -> None:
        self.clock.now = round(self.clock.now + DT, 6)
        looks = self.clock.looks
        self.daemon.step(self.clock.now)
        if not self.fake.plugged:
            time.sleep(0.0005)
            return
        deadline = time.monotonic() + STEP_WAIT
        while self.clock.looks == looks and time.monotonic() < deadline:
            time.sleep(0.0002)

    def until(self, done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT
        while not done():
            if time.monotonic() > deadline:
                rec = self.daemon.reconciler
                raise AssertionError(
                    f"gave up waiting for {what}: reconciler {rec.state} {rec.prompt!r}, "
                    f"moves {self.ucis}, link {self.board.status} {self.board.counters}"
                )
            self.step()

    def run_for(self, seconds: float) -> None:
        end = self.clock.now + seconds
        while self.clock.now < end:
            self.step()

    # ------------------------------------------------------------ what is seen
    @property
    def ucis(self) -> list[str]:
        pos = Game().position
        out = []
        for move in self.daemon.game.moves:
            out.append(pos.uci(move))
            pos.push(move)
        return out

    def lit(self) -> dict[int, Colour]:
        """The squares the fake's LEDs light now (one LED per square)."""
        return {i: c for i, c in enumerate(self.fake.colours()) if c != OFF}

    def moves_made(self) -> list[str]:
        return [e.uci for e in self.daemon.events if isinstance(e, MoveMade)]

    # ------------------------------------------------------------ the hands
    def _set(self, name: str, occupied: bool, seen: bool) -> None:
        bit = 1 << sq(name)
        with self.fake.lock:
            assert bool(self.fake.occupancy & bit) != occupied, f"{name} is already so"
            self.fake.occupancy ^= bit
        if seen:
            self.until(
                lambda: self.daemon.reconciler.reading == self.fake.occupancy,
                f"the daemon to see {name} {'placed' if occupied else 'lifted'}",
            )

    def lift(self, name: str, *, seen: bool = True) -> None:
        self._set(name, False, seen)

    def place(self, name: str, *, seen: bool = True) -> None:
        self._set(name, True, seen)

    def play(self, uci: str) -> None:
        """Carry out a move (the mover first, then a captured piece) and wait
        until the daemon has committed it."""
        frm, to = uci[:2], uci[2:4]
        plies = len(self.daemon.game.moves)
        self.lift(frm)
        if self.fake.occupancy >> sq(to) & 1:
            self.lift(to)
        self.place(to)
        self.until(lambda: len(self.daemon.game.moves) > plies, f"{uci} to be committed")
        assert self.ucis[-1] == uci

    def engine_shows(self, uci: str, path: tuple[str, ...] = ()) -> None:
        """Wait for the engine's move; check it is what the LEDs (as the fake
        holds them) and the screen show while it is pending."""
        self.until(lambda: self.daemon.reconciler.engine_move is not None, "the engine's move")
        pos = self.daemon.game.position
        move = self.daemon.reconciler.engine_move
        assert move is not None and pos.uci(move) == uci
        want = engine_frame(uci, path)
        self.until(lambda: self.lit() == want, f"the LEDs to show {uci}")
        assert self.daemon.reconciler.engine_move == move  # still pending
        assert self.screen.last.engine_move is not None
        assert self.screen.last.engine_move[1:] == (sq(uci[:2]), sq(uci[2:4]))
        assert self.screen.last.prompt == ""

    def wait_dark(self) -> None:
        self.until(lambda: self.lit() == {}, "the LEDs to go dark")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Callable[..., SerialTable]]:
    with ExitStack() as stack:

        def make(
            config: Config = ENGINE_WHITE_HUMAN, opponent: Opponent | None = None
        ) -> SerialTable:
            return SerialTable(tmp_path, stack, config, opponent)

        yield make


# White (the human) and Black (the scripted engine).
GAME = ["e2e4", "e7e5", "i1h3", "b8c6", "h3g5", "d7d6", "g5f7", "a7a6"]
SANS = ("e4", "e5", "Nh3", "Nc6", "Ng5", "d6", "Nxf7", "a6")


def test_a_game_against_the_engine_survives_line_faults_and_a_pulled_cable(
    table: Callable[..., SerialTable],
) -> None:
    opponent = ScriptedOpponent(GAME[1::2])
    t = table(opponent=opponent)
    fake, daemon = t.fake, t.daemon
    assert t.lit() == {}
    assert t.screen.last.status == "" and t.screen.last.moves == ()

    # 1. e4 e5: the engine's move lights e7 (from), e6 (passed over), e5 (to).
    t.play("e2e4")
    t.engine_shows("e7e5", path=("e6",))
    t.play("e7e5")
    t.wait_dark()

    # 2. Nh3 with damaged and lost snapshots and noise on the line; the engine's
    #    LED frame is damaged on its way to the device, which asks for it again.
    crc_before = t.board.dropped["CRC"]
    fake.send_garbage(b"\x00\xffnoise\r\n$77 SNAP 00*00000000\n")
    fake.corrupt_next("SNAP", count=2)
    t.lift("i1")
    fake.drop_next("SNAP", count=2)
    t.place("h3")
    fake.corrupt_incoming("LED")
    t.until(lambda: len(daemon.game.moves) == 3, "Nh3 to be committed")
    t.engine_shows("b8c6")
    assert t.board.dropped["CRC"] > crc_before and fake.corrupted_tx == 2
    assert fake.dropped_tx == 2
    # The device asked for the damaged frame again (NAK); the host sent it
    # again, unless a newer frame had already replaced it (the device reads
    # 64 bytes a step, so its NAK may come after the next frame).
    assert fake.counters()["CRC"] >= 1 and t.board.counters["NAKRX"] >= 1
    t.play("b8c6")
    t.wait_dark()

    # 3. Ng5, with the cable pulled while the knight is in the air: no move
    #    while the board cannot be read, exactly one once it is back.
    t.lift("h3")
    fake.unplug()
    t.until(lambda: t.screen.last.status == "board not connected", "the screen to say so")
    assert t.screen.last.status_alert
    t.place("g5", seen=False)
    t.run_for(1.0)  # longer than settle and grace
    assert len(daemon.game.moves) == 4
    fake.plug()
    t.until(lambda: len(daemon.game.moves) == 5, "Ng5 after the replug")
    assert t.screen.last.status == ""
    t.engine_shows("d7d6", path=())

    # ... and the player first moves the wrong black pawn: after the grace
    #     time the screen says what to do and the LEDs blink the fix.
    t.lift("c7")
    t.place("c5")
    t.until(lambda: t.screen.last.prompt_kind == "error", "the fix")
    prompt = t.screen.last.prompt
    assert prompt.startswith("Play the engine's move") and "c7" in prompt, prompt
    assert set(t.screen.last.marks) == {sq("c5"), sq("c7")}
    t.until(lambda: names(t.lit()) == {"c5", "c7"}, "the LEDs to show the fix")
    t.lift("c5")
    t.place("c7")
    t.until(lambda: t.screen.last.prompt == "", "the fix to be done")
    t.engine_shows("d7d6")
    t.play("d7d6")

    # 4. Nxf7 while one line in three to the host loses a byte; then the
    #    engine's a6 is shown, and a cable pulled and put back in while it is
    #    pending changes nothing but the device, which gets the frame again.
    fake.corrupt_ratio = 0.3
    t.play("g5f7")
    fake.corrupt_ratio = 0.0
    t.engine_shows("a7a6", path=())
    boots = fake.boots
    fake.unplug()
    t.until(lambda: not t.board.healthy, "the host to notice")
    fake.plug()
    t.until(lambda: t.board.healthy, "the board to come back")
    t.engine_shows("a7a6")
    assert fake.boots == boots + 1
    t.play("a7a6")
    t.wait_dark()

    # The game as played, stored, shown and asked of the engine; no phantoms.
    assert t.ucis == GAME
    assert t.moves_made() == GAME
    assert not [e for e in daemon.events if isinstance(e, MoveTakenBack | MoveAmended | NewGame)]
    assert [e.text for e in daemon.events if isinstance(e, ErrorShown)] == [prompt]
    assert opponent.asked == [GAME[:1], GAME[:3], GAME[:5], GAME[:7]]
    stored = t.store.load(daemon.game_id)
    assert stored.moves == tuple(GAME)
    assert (stored.white, stored.black, stored.mode) == ("Player", "boardctl", "engine")
    pgn = t.store.pgn(daemon.game_id)
    assert '[Variant "Falcon"]' in pgn
    assert "1. e4 e5 2. Nh3 Nc6 3. Ng5 d6 4. Nxf7 a6 *" in pgn
    last = t.screen.last
    assert last.moves == SANS
    assert (last.prompt, last.prompt_kind, last.status) == ("", "info", "")
    assert last.fen == daemon.game.position.fen()
    assert last.last_move == (sq("a7"), sq("a6"))
    assert any(
        state.engine_move is not None and state.engine_move[0] == "d6" for state in t.screen.states
    )


def test_against_the_real_engine_its_move_is_legal_and_is_played(
    table: Callable[..., SerialTable],
) -> None:
    from boardctl.engine.worker import EngineWorker

    # Skill 0 searches one ply deep, and the configuration gives it 50 ms.
    worker = EngineWorker(skill=0, seed=1)
    try:
        t = table(opponent=worker)
        t.play("e2e4")
        t.until(lambda: t.daemon.reconciler.engine_move is not None, "the engine's move")
        game = t.daemon.game
        move = t.daemon.reconciler.engine_move
        assert move is not None and game.position.is_legal(move)
        uci = game.position.uci(move)
        assert t.screen.last.engine_move is not None
        assert t.screen.last.engine_move[1:] == (sq(uci[:2]), sq(uci[2:4]))
        before = occupancy(game.position)
        t.until(
            lambda: (
                t.lit().get(sq(uci[:2])) == engine_frame(uci)[sq(uci[:2])]
                and t.lit().get(sq(uci[2:4])) == engine_frame(uci)[sq(uci[2:4])]
            ),
            "the LEDs to show the engine's move",
        )
        # Carry it out whatever it is: first lift what it empties, then the end.
        after_pos = game.position.copy()
        after_pos.push(parse_uci(game.position, uci))
        after = occupancy(after_pos)
        with t.fake.lock:
            t.fake.occupancy = before & after
        t.until(lambda: t.daemon.reconciler.reading == before & after, "the lift")
        with t.fake.lock:
            t.fake.occupancy = after
        t.until(lambda: len(t.daemon.game.moves) == 2, "the engine's move to be played")
        assert t.ucis == ["e2e4", uci]
        assert t.store.load(t.daemon.game_id).moves == ("e2e4", uci)
        t.wait_dark()
    finally:
        worker.close()
