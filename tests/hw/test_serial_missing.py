"""A serial sensor board whose port does not exist, or goes away: the daemon
says so once in the log and on the screen, keeps trying, and carries on
when the port appears.

The port is a pseudo-terminal under a name in ``tmp_path`` (tests/hw/fake_mcu.py),
made to vanish and come back as udev's ``/dev/serial/by-id`` link does.  The
daemon runs on a virtual clock; bytes cross the pty in real time, so each
wait is a polling loop bounded in real seconds, never a timing assertion.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from boardctl.board.reconciler import State
from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware
from boardctl.hw.protocol.constants import LINK_TIMEOUT
from boardctl.hw.serial_link import SerialBoard, SerialStatus
from boardctl.storage.store import GameStore
from boardctl.ui.state import DisplayState

from .fake_mcu import FakeMcu
from .helpers import START

pytest.importorskip("serial")

TWO_PLAYERS = parse_config({"game": {"mode": "two-players"}, "board": {"sensors": "serial"}})
WAIT = 30.0  # real seconds a wait may take before the test fails
DT = 0.02  # virtual seconds per turn of the daemon's loop


class VirtualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Screen:
    def __init__(self) -> None:
        self.last: DisplayState | None = None

    def show(self, state: DisplayState) -> None:
        self.last = state


class Table:
    """The daemon at a serial board that is not plugged in yet."""

    def __init__(self, fake: FakeMcu, clock: VirtualClock, store: GameStore) -> None:
        self.fake, self.clock = fake, clock
        self.board = SerialBoard(fake.port, reconnect_interval=1.0, reconnect_max=10.0)
        self.screen = Screen()
        self.daemon = Daemon(
            TWO_PLAYERS,
            Hardware(self.board, leds=self.board, display=self.screen),
            store,
            now=clock.now,
        )

    def run_for(self, seconds: float) -> None:
        """Virtual time with no device: nothing to wait for in real time."""
        end = self.clock.now + seconds
        while self.clock.now < end:
            self.clock.now = round(self.clock.now + DT, 6)
            self.daemon.step(self.clock.now)

    def until(self, done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT
        while not done():
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"gave up waiting for {what}: {self.board.status}, {self.board.counters}"
                )
            self.clock.now = round(self.clock.now + DT, 6)
            self.daemon.step(self.clock.now)
            time.sleep(0.001)  # the fake's firmware runs in real time

    @property
    def prompt(self) -> str:
        assert self.screen.last is not None
        return self.screen.last.prompt


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    clock = VirtualClock()
    with FakeMcu(tmp_path, START, clock=clock) as fake:
        fake.unplug()  # no board: the port's name does not exist
        store = GameStore(tmp_path / "games.sqlite3")
        t = Table(fake, clock, store)
        try:
            yield t
        finally:
            t.board.close()
            store.close()


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "boardctl" and r.levelno == logging.WARNING
    ]


def test_a_missing_port_is_said_once_on_the_screen_and_in_the_log(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="boardctl")
    message = f"sensor board not connected on {table.fake.port}, retrying"
    table.run_for(40.0)
    assert warnings(caplog) == [message]
    assert table.prompt == "S" + message[1:]
    assert table.screen.last is not None and table.screen.last.prompt_kind == "error"
    assert table.board.status is SerialStatus.DISCONNECTED
    attempts = table.board.counters["OPENFAIL"]
    assert 4 <= attempts <= 40  # it kept trying, with a back-off
    # The board is plugged in: the daemon finds it by itself and plays on.
    table.fake.plug()
    table.until(
        lambda: table.board.healthy and table.daemon.reconciler.state is State.SYNCED, "the board"
    )
    assert table.prompt == ""
    assert "sensor board connected again" in [r.getMessage() for r in caplog.records]
    assert warnings(caplog) == [message]


def test_a_port_that_disappears_is_said_once_each_time(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    table.fake.plug()
    table.until(lambda: table.board.healthy, "the board")
    caplog.set_level(logging.INFO, logger="boardctl")
    for _ in range(2):
        table.fake.unplug()
        table.until(lambda: not table.board.healthy, "the host to notice")
        table.run_for(30.0)
        table.fake.plug()
        table.until(lambda: table.board.healthy, "the board again")
    message = f"sensor board not connected on {table.fake.port}, retrying"
    assert warnings(caplog) == [message, message]
    assert table.prompt == ""


def test_a_port_that_opens_but_never_answers_is_said_after_the_link_timeout(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="boardctl")
    table.fake.mute()  # a device that does not speak the protocol,
    table.fake.plug()  # silent from the moment it is plugged in
    table.until(lambda: table.board.status is SerialStatus.CONNECTING, "the port to open")
    assert table.board.problem is None  # too early to tell
    table.run_for(LINK_TIMEOUT + 1.0)
    message = f"sensor board on {table.fake.port} is not answering, retrying"
    assert warnings(caplog) == [message]
    assert table.prompt == "S" + message[1:]
