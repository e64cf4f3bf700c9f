"""The serial board against a fake microcontroller on a pty (tests/hw/fake_mcu.py).

The fake runs the firmware's own link logic; the host opens the pty by name
through pyserial.  No assertion depends on timing: every wait is a bounded
polling loop, and the tests about timers (heartbeats, retries, the watchdog)
share a clock the test moves by hand between the host and the fake, or one
that moves on with each of the host's polls (:class:`LockstepClock`).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from boardctl.hw.base import Reading
from boardctl.hw.errors import LedFrameError
from boardctl.hw.protocol.acceptance import MAX_HAND_CHANGE
from boardctl.hw.protocol.constants import ACK_TIMEOUT, LINK_TIMEOUT, MAX_RETRIES
from boardctl.hw.protocol.messages import BoardShape
from boardctl.hw.serial_link import SerialBoard, SerialStatus
from boardctl.rules.hexgeo import FALCON_HEX

from .fake_mcu import FakeMcu
from .helpers import START, bits, sq

pytest.importorskip("serial")

# e2-e4: the pawn lifted from e2 and put on e4.
MOVED = START & ~bits("e2") | bits("e4")
WAIT = 20.0  # seconds a polling loop may take before the test fails
LOCKSTEP = 0.01  # virtual seconds per poll of the host: four of the firmware's scan periods
STEP_WAIT = 0.2  # real seconds a poll waits for the fake to run a step
LOCKSTEP_IDLE = 0.0002  # the fake's wait for input in lockstep: no poll waits its 2 ms


class ManualClock:
    """Time that moves only when the test says; host and fake share it."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class LockstepClock(ManualClock):
    """Virtual time that moves :data:`LOCKSTEP` on at each poll of the host,
    once the fake's firmware has run a step at the time before (it looks at
    :meth:`device` once a step): the device's timers (its retries of a lost
    line, its heartbeat) run as fast as the two sides step, not in real time,
    and never ahead of the device."""

    def __init__(self, start: float = 1000.0) -> None:
        super().__init__(start)
        self.looks = 0
        self.looked = threading.Condition()

    def device(self) -> float:
        with self.looked:
            self.looks += 1
            self.looked.notify_all()
        return self.now

    def step(self) -> None:
        with self.looked:
            looks = self.looks
            self.looked.wait_for(lambda: self.looks != looks, STEP_WAIT)
        self.advance(LOCKSTEP)


class Session:
    """A :class:`SerialBoard` driven as the daemon's loop drives it."""

    def __init__(
        self,
        board: SerialBoard,
        clock: Callable[[], float],
        tick: Callable[[], None] | None = None,
    ) -> None:
        self.board = board
        self.clock = clock
        self.tick = tick  # called before each poll: a clock that moves with them
        self.readings: list[Reading] = []
        self.health: list[bool] = []

    def poll(self) -> None:
        if self.tick is not None:
            self.tick()
        reading = self.board.read(self.clock())
        if reading is not None:
            self.readings.append(reading)
        self.health.append(self.board.healthy)

    def pump(self, until: Callable[[], bool], what: str) -> None:
        """Poll until ``until()`` holds; fail after :data:`WAIT` seconds."""
        deadline = time.monotonic() + WAIT
        while True:
            self.poll()
            if until():
                return
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"gave up waiting for {what}; status {self.board.status} "
                    f"({self.board.last_error}), {self.board.counters}"
                )
            if self.tick is None:  # a tick waits for the device itself
                time.sleep(0.001)

    def past(self, count: Callable[[], int], before: int, what: str) -> None:
        """Poll until ``count()`` has gone past ``before``."""
        self.pump(lambda: count() > before, what)

    def polls(self, count: int) -> None:
        for _ in range(count):
            self.poll()
            time.sleep(0.001)

    @property
    def occupancies(self) -> list[int]:
        return [r.occupancy for r in self.readings]

    def counter(self, name: str) -> int:
        return self.board.counters[name]

    def up(self, occupancy: int = START) -> None:
        """Wait for the handshake and the first snapshot."""
        self.pump(
            lambda: (
                self.board.healthy
                and bool(self.readings)
                and self.readings[-1].occupancy == occupancy
            ),
            "the first snapshot",
        )

    def settle(self, fake: FakeMcu) -> None:
        """Up, and done with connecting: the first LED frame is shown and
        the host has read the ACKs for it."""
        self.up()
        self.pump(lambda: len(fake.led_frames) >= 1, "the LED frame sent on connecting")
        self.sync(fake)

    def sync(self, fake: FakeMcu) -> None:
        """Wait until the host has read every line the fake wrote so far: the
        fake writes a line of noise after them, and the host counts it."""
        noise = self.counter("NOISE")
        fake.send_garbage(b"# sync\n")
        self.pump(lambda: self.counter("NOISE") > noise, "the host to catch up")


Start = Callable[..., tuple[FakeMcu, Session]]


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Start]:
    """start(clock=None, occupancy=START, **board options) -> (fake, session);
    a :class:`LockstepClock` moves on with the session's polls."""
    with ExitStack() as stack:

        def make(
            clock: Callable[[], float] = time.monotonic,
            occupancy: int = START,
            mcu: dict[str, Any] | None = None,
            **options: Any,
        ) -> tuple[FakeMcu, Session]:
            lockstep = clock if isinstance(clock, LockstepClock) else None
            device = clock if lockstep is None else lockstep.device
            fake = stack.enter_context(FakeMcu(tmp_path, occupancy, clock=device, **(mcu or {})))
            options.setdefault("reconnect_interval", 0.05)
            options.setdefault("reconnect_max", 0.2)
            board = SerialBoard(fake.port, **options)
            stack.callback(board.close)
            return fake, Session(board, clock, None if lockstep is None else lockstep.step)

        yield make


def lit(fake: FakeMcu, square: int) -> tuple[int, int, int]:
    return fake.colours()[square]


# ---------------------------------------------------------------- connecting


def test_handshake_brings_the_link_up_with_the_board_as_it_stands(start: Start) -> None:
    fake, s = start()
    s.up()
    device = s.board.device
    assert device is not None and device.shape() == BoardShape(10, 8, 80)
    assert dict(device.info)["FW"] == "0.1.0-fake"
    assert s.board.status is SerialStatus.UP
    assert fake.host_hellos >= 1
    assert s.occupancies[0] == START
    assert s.counter("OPENS") == 1 and s.counter("OPENFAIL") == 0
    assert sum(s.board.dropped.values()) == 0


def test_a_move_arrives_as_exactly_one_new_reading(start: Start) -> None:
    clock = ManualClock()
    fake, s = start(clock, heartbeat=None)
    s.settle(fake)
    fake.occupancy = MOVED
    clock.advance(0.05)  # past the firmware's 20 ms between snapshots
    s.pump(lambda: s.occupancies[-1] == MOVED, "the move")
    assert s.readings[-1] == Reading(MOVED, clock.now)
    for _ in range(2):  # two heartbeats later: nothing new
        received = s.counter("RX")
        clock.advance(1.0)
        s.past(lambda: s.counter("RX"), received, "a heartbeat")
    assert s.occupancies == [START, MOVED]


def test_heartbeats_keep_it_healthy_and_silence_trips_the_watchdog(start: Start) -> None:
    clock = ManualClock()
    fake, s = start(clock)
    s.settle(fake)
    s.health.clear()
    for _ in range(5):  # 5 s: longer than the link timeout
        received = s.counter("RX")
        clock.advance(1.0)
        s.past(lambda: s.counter("RX"), received, "a heartbeat")
    assert all(s.health)
    assert len(s.readings) >= 5 and set(s.occupancies) == {START}  # heartbeat readings
    fake.mute()  # the firmware hangs
    # A heartbeat written just before the mute but read after the clock moved
    # on would count as heard at the later time, and the clock moves no more:
    # the host first reads all the fake wrote.
    s.sync(fake)
    clock.advance(LINK_TIMEOUT + 0.5)
    s.pump(lambda: not s.board.healthy, "the watchdog")
    assert s.board.status is SerialStatus.CONNECTING
    count = len(s.readings)
    fake.unmute()
    s.pump(lambda: s.board.healthy, "the device to answer again")
    s.pump(lambda: len(s.readings) > count, "a snapshot")
    assert set(s.occupancies) == {START}


# ---------------------------------------------------------------- damaged lines


@pytest.mark.parametrize("seed", [1, 2])
def test_corrupted_lines_never_become_readings(start: Start, seed: int) -> None:
    # The lost lines are sent again after the device's ACK timeout, and a
    # board held for changing too much comes with its heartbeat: in virtual time.
    fake, s = start(LockstepClock(), mcu={"seed": seed, "idle": LOCKSTEP_IDLE})
    s.up()
    fake.corrupt_ratio = 0.3  # one line in three to the host loses a byte
    rng = random.Random(seed)

    def hand() -> int:  # what a hand changes between two snapshots
        return sum(1 << b for b in rng.sample(range(80), rng.randint(1, MAX_HAND_CHANGE)))

    for turn in range(120):
        lines = fake.counters()["TX"]
        fake.occupancy ^= hand()
        if turn % 20 == 0:
            fake.send_garbage(rng.randbytes(rng.randrange(1, 300)))
        s.past(lambda: fake.counters()["TX"], lines, "the fake to send")
        if turn % 8 == 7:  # the hand rests: this board gets through
            s.pump(
                lambda b=fake.occupancy: bool(s.readings) and s.readings[-1].occupancy == b,
                "the board",
            )
    final = fake.occupancy ^ hand()
    fake.occupancy = final
    s.pump(lambda: bool(s.readings) and s.readings[-1].occupancy == final, "the final board")
    sent = set(fake.snaps_sent)
    assert [o for o in s.occupancies if o not in sent] == []
    assert fake.corrupted_tx > 20
    assert s.board.dropped["CRC"] > 0
    assert len(set(s.occupancies)) > 10  # many boards did get through


def test_a_lost_snapshot_is_put_right_by_the_next_one(start: Start) -> None:
    fake, s = start(LockstepClock(), mcu={"idle": LOCKSTEP_IDLE})  # the retries, the heartbeat
    s.up()
    with fake.lock:  # the move's snapshot and all its retries are lost
        fake.occupancy = MOVED
        fake.drop_next("SNAP", count=1 + MAX_RETRIES)
    s.pump(lambda: s.occupancies[-1] == MOVED, "the heartbeat after the lost snapshot")
    assert fake.dropped_tx == 1 + MAX_RETRIES
    assert set(s.occupancies) == {START, MOVED}
    assert s.counter("LOST") >= 1
    assert s.board.healthy


def test_garbage_including_ctrl_c_never_crashes_the_host(start: Start) -> None:
    fake, s = start()
    s.up()
    garbage = [
        bytes(range(256)),
        b"\x03\x03\x03\r\nTraceback (most recent call last):\r\nKeyboardInterrupt\r\n>>> ",
        b"$$$\n$00 SNAP\n$01 SNAP FFFFFFFFFFFFFFFFFFFF*00000000\n",
        b"$" + b"7" * 500 + b"\n",
        b"\x03$02 SNAP 0000\x03000000000000000*E0\n",
        b"\xff\xfe\x00\x80" * 50,
    ]
    for chunk in garbage:
        fake.send_garbage(chunk)
        s.polls(5)
    fake.occupancy = MOVED
    s.pump(lambda: s.occupancies[-1] == MOVED, "the move after the garbage")
    assert set(s.occupancies) == {START, MOVED}
    dropped = s.board.dropped
    assert dropped["NOISE"] > 0 and dropped["LONG"] > 0 and dropped["CRC"] > 0
    assert s.board.healthy


# ---------------------------------------------------------------- LED frames


def test_an_led_frame_is_sent_and_acknowledged(start: Start) -> None:
    clock = ManualClock()
    fake, s = start(clock)
    s.settle(fake)
    s.board.show({sq("e4"): (10, 20, 30), sq("e2"): (255, 0, 0)})
    s.pump(lambda: len(fake.led_frames) == 2, "the frame")
    assert lit(fake, sq("e4")) == (10, 20, 30) and lit(fake, sq("e2")) == (255, 0, 0)
    s.sync(fake)  # the host has read the ACKs (PAL and LED) ...
    clock.advance(4 * ACK_TIMEOUT)  # ... so the time for retries passes quietly
    received = s.counter("RX")
    s.pump(lambda: s.counter("RX") > received, "a heartbeat")
    assert (s.counter("RETRY"), s.counter("GIVEUP"), s.counter("STALE")) == (0, 0, 0)
    assert len(fake.led_frames) == 2 and fake.counters()["DUP"] == 0


def test_a_nak_makes_the_host_send_the_frame_again(start: Start) -> None:
    clock = ManualClock()
    fake, s = start(clock)
    s.settle(fake)
    fake.corrupt_incoming("LEDS")  # one lit LED: the firmware takes the sparse frame
    s.board.show({sq("a1"): (0, 0, 255)})
    s.pump(lambda: lit(fake, sq("a1")) == (0, 0, 255), "the frame, sent again")
    assert fake.counters()["CRC"] == 1  # the firmware saw the damage and said NAK
    assert s.counter("NAKRX") == 1 and s.counter("RETRY") == 1 and s.counter("GIVEUP") == 0


def test_without_an_ack_the_host_retries_then_gives_up(start: Start) -> None:
    clock = ManualClock()
    fake, s = start(clock)
    s.settle(fake)
    fake.drop_incoming("LEDS", count=1 + MAX_RETRIES)  # one lit LED: the sparse frame
    s.board.show({sq("j8"): (0, 255, 0)})
    s.pump(lambda: fake.dropped_rx == 1, "the frame")
    for retry in range(1, MAX_RETRIES + 1):
        clock.advance(ACK_TIMEOUT + 0.01)
        s.past(lambda: fake.dropped_rx, retry, f"retry {retry}")
        assert s.counter("RETRY") == retry
    clock.advance(ACK_TIMEOUT + 0.01)
    s.pump(lambda: s.counter("GIVEUP") == 1, "giving up")
    assert s.counter("RETRY") == MAX_RETRIES
    assert lit(fake, sq("j8")) == (0, 0, 0)
    assert s.board.healthy  # a lost LED frame is not a dead board


# ---------------------------------------------------------------- unplug and reset


def test_unplug_and_replug(start: Start) -> None:
    fake, s = start()
    s.up()
    s.board.show({sq("c3"): (255, 255, 0)})
    s.pump(lambda: lit(fake, sq("c3")) == (255, 255, 0), "the LED frame")
    fake.unplug()
    s.pump(lambda: not s.board.healthy, "the host to notice")
    assert s.board.status is SerialStatus.DISCONNECTED
    assert s.counter("PORTLOST") == 1
    s.pump(lambda: s.counter("OPENFAIL") >= 3, "attempts to reopen")
    assert s.board.last_error is not None and "open" in s.board.last_error
    s.board.show({sq("c3"): (255, 255, 0), sq("d4"): (0, 255, 255)})  # dropped for now
    fake.occupancy = MOVED  # a move made while the cable was out
    fake.plug()
    s.pump(lambda: s.board.healthy and s.occupancies[-1] == MOVED, "the board after replug")
    s.pump(lambda: lit(fake, sq("d4")) == (0, 255, 255), "the LED frame after replug")
    assert lit(fake, sq("c3")) == (255, 255, 0)
    assert set(s.occupancies) == {START, MOVED}
    assert (s.counter("OPENS"), s.counter("RECONNECTS")) == (2, 1)
    assert fake.boots == 2


def test_a_reset_microcontroller_is_resynchronised(start: Start) -> None:
    fake, s = start(LockstepClock(), mcu={"idle": LOCKSTEP_IDLE})  # the reboot's HELLO
    s.up()
    s.board.show({sq("f5"): (255, 0, 255)})
    s.pump(lambda: lit(fake, sq("f5")) == (255, 0, 255), "the LED frame")
    with fake.lock:
        fake.occupancy = MOVED
        fake.reset()
        assert lit(fake, sq("f5")) == (0, 0, 0)  # rebooted dark
    s.pump(lambda: lit(fake, sq("f5")) == (255, 0, 255), "the frame sent again")
    s.pump(lambda: s.occupancies[-1] == MOVED, "the board after the reset")
    assert s.counter("RESYNCS") >= 1
    assert fake.boots == 2
    assert set(s.occupancies) == {START, MOVED}
    assert s.board.healthy and s.counter("PORTLOST") == 0


def test_a_device_with_another_board_is_refused(start: Start) -> None:
    _, s = start(mcu={"leds": 99})
    s.pump(lambda: s.board.status is SerialStatus.INCOMPATIBLE, "the device's HELLO")
    s.polls(20)
    assert not s.board.healthy and s.readings == []
    assert s.board.last_error is not None and "board" in s.board.last_error


# ---------------------------------------------------------------- the hex board

HEX = BoardShape.named("hex121")


def test_a_hex_board_plays_its_121_cells_over_the_link(start: Start) -> None:
    clock = ManualClock()
    opening = sum(1 << FALCON_HEX.parse_cell(n) for n in ("h1", "g7", "f13", "a8", "m6"))
    fake, s = start(clock, occupancy=opening, mcu={"board": "hex121"}, shape=HEX, heartbeat=None)
    s.up(opening)
    device = s.board.device
    assert device is not None and device.shape() == HEX
    fake.occupancy = opening & ~(1 << FALCON_HEX.parse_cell("f13"))
    clock.advance(0.05)
    s.pump(lambda: s.occupancies[-1] == fake.occupancy, "f13 lifted")
    g7 = FALCON_HEX.parse_cell("g7")
    s.board.show({g7: (255, 255, 255), 120: (0, 0, 255)})
    s.pump(lambda: any(fake.led_frames) and lit(fake, g7) != (0, 0, 0), "the frame")
    assert [i for i, c in enumerate(fake.colours()) if c != (0, 0, 0)] == [g7, 120]
    with pytest.raises(LedFrameError):
        s.board.show({121: (1, 1, 1)})


@pytest.mark.parametrize(
    ("mcu", "shape", "said"),
    [
        (
            {"board": "hex121"},
            BoardShape(10, 8, 80),
            "the board is the 121-cell hexagon (B=hex121, "
            "121 LEDs), but the game needs a 10×8 rectangle of squares (80 LEDs)",
        ),
        (
            {},
            HEX,
            "the board is a 10×8 rectangle of squares (80 LEDs), but the game needs the "
            "121-cell hexagon (B=hex121, 121 LEDs)",
        ),
    ],
)
def test_a_board_of_the_other_shape_is_refused_in_one_line(
    start: Start, mcu: dict[str, Any], shape: BoardShape, said: str
) -> None:
    _, s = start(mcu=mcu, shape=shape)
    s.pump(lambda: s.board.status is SerialStatus.INCOMPATIBLE, "the device's HELLO")
    s.polls(20)
    assert not s.board.healthy and s.readings == []
    assert s.board.problem == f"sensor board on {s.board.port}: {said}"


def test_diag_shows_and_lights_the_hex_board_over_the_link(start: Start) -> None:
    from boardctl.diag import Diagnostics, Phase
    from boardctl.diag.boards import HexDiagBoard
    from boardctl.hw.hexpins import default_hex_pinout

    names = ("h1", "g7", "f13")
    occupied = sum(1 << FALCON_HEX.parse_cell(n) for n in names)
    fake, s = start(occupancy=occupied, mcu={"board": "hex121"}, shape=HEX)
    pinout = default_hex_pinout()
    diag = Diagnostics(
        s.board, s.board, layout=pinout.leds, steps=[Phase.LIVE], board=HexDiagBoard(pinout)
    )
    deadline = time.monotonic() + WAIT  # diag alone reads the board
    while not (
        diag.tick(time.monotonic()) is Phase.LIVE
        and diag.occupancy == occupied
        and sum(c != (0, 0, 0) for c in fake.colours()) == 3
    ):
        assert time.monotonic() < deadline, "the live view, lit"
        time.sleep(0.005)
    lit = [FALCON_HEX.name(i) for i, c in enumerate(fake.colours()) if c != (0, 0, 0)]
    assert sorted(lit) == sorted(names)
    view = diag.view()
    assert "3 cells occupied" in view and " f13#" in view and " g7#" in view and " h12." in view
    report = diag.finish(time.monotonic())
    assert report.cells == 121 and report.stuck == () and report.led_errors == ()
    assert all(o.end is not None for o in report.outages)  # at most the wait to connect


# ---------------------------------------------------------------- the daemon's wait


def test_the_daemons_wait_ends_when_the_device_speaks(
    start: Start, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The daemon's loop waits on the port, not blindly for its period: a
    SNAP is acted on when it arrives (issue 22: the 50 Hz loop alone added
    up to 20 ms between a contact and its light)."""
    from boardctl.hw import serial_link

    fake, s = start()
    s.settle(fake)
    real_select = serial_link.select.select
    waited_on: list[list[int]] = []

    def select(readable: list[int], *rest: Any) -> Any:
        waited_on.append(readable)
        return real_select(readable, *rest)

    monkeypatch.setattr(serial_link.select, "select", select)
    monkeypatch.setattr(
        serial_link.time,
        "sleep",
        lambda seconds: pytest.fail("slept instead of waiting on the port"),
    )
    fake.send_garbage(b"# the device speaks\n")
    s.board.wait(60.0)
    assert waited_on and len(waited_on[0]) == 1
    noise = s.counter("NOISE")
    s.poll()  # what woke it is there to read
    assert s.counter("NOISE") == noise + 1
    s.board.close()  # no port: the wait is a sleep
    with pytest.raises(pytest.fail.Exception, match="slept"):
        s.board.wait(0.01)
