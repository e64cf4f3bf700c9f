"""The serial board without a pty: a scripted port through the injectable
``open_serial``, time passed by hand.  Damaged streams, reconnect backoff,
LED frames and palettes."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from boardctl.hw.base import Reading
from boardctl.hw.errors import LedFrameError
from boardctl.hw.protocol.codec import decode
from boardctl.hw.protocol.constants import DEFAULT_PALETTE
from boardctl.hw.protocol.messages import BoardShape, Led, Palette
from boardctl.hw.serial_link import (
    SerialBoard,
    SerialPort,
    SerialStatus,
    led_points,
)

from .fake_mcu import firmware
from .helpers import START, bits, sq

MOVED = START & ~bits("e2") | bits("e4")
SHAPE = firmware().protocol.Shape(10, 8, 80)


def device_line(seq: int, command: str, value: object, epoch: int = 1) -> bytes:
    """A line as the firmware writes it (its own codec); a SNAP's value is
    the board, stamped as the firmware stamps it in boot ``epoch`` (its
    line's number, counted from 1, as its own number)."""
    if command == "SNAP":
        value = (value, epoch, seq + 1)
    line: bytes = firmware().protocol.encode(seq, command, value, SHAPE)
    return line


def hello(epoch: int = 1) -> bytes:
    """The device's HELLO in boot ``epoch``."""
    version = firmware().protocol_constants.PROTOCOL_VERSION
    return device_line(0, "HELLO", (version, 10, 8, 80, [("E", f"{epoch:04X}"), ("FW", "test")]))


HELLO = hello()


class ScriptedPort:
    """A port whose incoming bytes the test supplies; ``fail`` makes it break."""

    def __init__(self, chunk: int = 4096) -> None:
        self.incoming = bytearray()
        self.written: list[bytes] = []
        self.chunk = chunk
        self.fail: OSError | None = None
        self.closed = False

    def read(self, size: int = 1) -> bytes:
        if self.fail is not None:
            raise self.fail
        data = bytes(self.incoming[: min(size, self.chunk)])
        del self.incoming[: len(data)]
        return data

    def write(self, data: bytes, /) -> int | None:
        if self.fail is not None:
            raise self.fail
        self.written.append(bytes(data))
        return len(data)

    def reset_input_buffer(self) -> None:
        self.incoming.clear()

    def close(self) -> None:
        self.closed = True

    def sent(self) -> list[object]:
        """The messages the host wrote, decoded."""
        return [decode(line.rstrip(b"\n")).message for line in self.written]


class Opener:
    """An ``open_serial`` that hands out scripted ports, or fails while ``down``."""

    def __init__(self, chunk: int = 4096) -> None:
        self.ports: list[ScriptedPort] = []
        self.attempts: list[float] = []
        self.down = False
        self.chunk = chunk
        self.clock: Callable[[], float] = lambda: 0.0

    def __call__(
        self, url: str, *, baudrate: int, timeout: float, write_timeout: float
    ) -> SerialPort:
        assert timeout == 0  # reads must never wait
        self.attempts.append(self.clock())
        if self.down:
            raise OSError(f"could not open port {url}")
        self.ports.append(ScriptedPort(self.chunk))
        return self.ports[-1]

    @property
    def port(self) -> ScriptedPort:
        return self.ports[-1]


def connected(opener: Opener, **options: object) -> SerialBoard:
    board = SerialBoard("/dev/ttyACM0", open_serial=opener, **options)  # type: ignore[arg-type]
    assert board.read(0.0) is None  # opens the port, says HELLO
    opener.port.incoming += HELLO
    board.read(0.01)
    assert board.healthy
    return board


# ---------------------------------------------------------------- no phantom readings

lines_with_damage = st.lists(
    st.tuples(
        st.integers(0, (1 << 80) - 1),
        st.none() | st.tuples(st.integers(0, 10_000), st.integers(0, 255)),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=200, deadline=None)
@given(lines=lines_with_damage, chunk=st.integers(1, 64), noise=st.binary(max_size=40))
@example(lines=[(0, (198, 10))], chunk=1, noise=b"")  # the CR of a 40-byte line made a LF
def test_a_damaged_stream_never_yields_a_board_that_was_not_sent(
    lines: list[tuple[int, tuple[int, int] | None]], chunk: int, noise: bytes
) -> None:
    """Snapshots, each maybe with one byte changed, noise in between, read in
    odd-sized pieces: every reading is a snapshot that was sent intact."""
    opener = Opener(chunk)
    board = connected(opener, heartbeat=0.0)
    stream = bytearray()
    intact = set()
    for seq, (occupancy, damage) in enumerate(lines, start=1):
        line = bytearray(device_line(seq, "SNAP", occupancy))
        payload = bytes(line).rstrip(b"\r\n")
        if damage is not None:
            line[damage[0] % len(line)] = damage[1]
        # A line whose payload survives is intact: a CR turned into a LF
        # only ends it early, after the checksum.
        if bytes(line).split(b"\n")[0].rstrip(b"\r") == payload:
            intact.add(occupancy)
        stream += line + noise
    opener.port.incoming += stream
    readings = [board.read(0.02 + i / 1000) for i in range(len(stream) // chunk + 2)]
    assert opener.port.incoming == b""
    assert {r.occupancy for r in readings if r is not None} <= intact


def test_a_snapshot_with_a_bad_checksum_is_counted_not_read() -> None:
    opener = Opener()
    board = connected(opener, heartbeat=None)
    good = device_line(1, "SNAP", START)
    bad = bytearray(device_line(2, "SNAP", MOVED))
    bad[12] ^= 0x01  # one bit of one hex digit
    opener.port.incoming += good + bad + good[:15]  # and a line cut short
    assert board.read(0.02) == Reading(START, 0.02)
    opener.port.incoming += device_line(3, "SNAP", START)
    assert board.read(0.03) is None  # unchanged
    assert board.dropped["CRC"] == 1 and board.dropped["TRUNC"] == 1
    assert board.healthy


# ---------------------------------------------------------------- the port comes and goes


def test_reopening_backs_off_and_never_spins() -> None:
    opener = Opener()
    opener.down = True
    now = 0.0
    opener.clock = lambda: now
    board = SerialBoard(
        "/dev/ttyACM0", open_serial=opener, reconnect_interval=0.125, reconnect_max=1.0
    )
    while now < 6.0:  # a loop at about 1 kHz for 6 s
        assert board.read(now) is None
        now += 1 / 1024  # exact in binary: no rounding drift
    gaps = [b - a for a, b in zip(opener.attempts, opener.attempts[1:], strict=False)]
    assert gaps == [0.125, 0.25, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0]
    assert board.status is SerialStatus.DISCONNECTED and not board.healthy
    assert board.counters["OPENFAIL"] == 9
    assert board.last_error == "cannot open /dev/ttyACM0: could not open port /dev/ttyACM0"


def test_a_pulled_cable_closes_the_port_and_it_is_opened_again() -> None:
    opener = Opener()
    board = connected(opener, reconnect_interval=0.5)
    first = opener.port
    first.fail = OSError(5, "Input/output error")
    assert board.read(1.0) is None
    assert first.closed and board.status is SerialStatus.DISCONNECTED
    assert board.counters["PORTLOST"] == 1
    board.read(1.4)
    assert len(opener.ports) == 1  # not before the interval
    board.read(1.5)
    assert len(opener.ports) == 2 and board.status is SerialStatus.CONNECTING
    # A Pico is powered by its cable: plugged in again, it boots again.
    opener.port.incoming += hello(epoch=2) + device_line(1, "SNAP", MOVED, epoch=2)
    assert board.read(1.6) == Reading(MOVED, 1.6)
    assert board.healthy and board.counters["RECONNECTS"] == 1


def test_a_failed_write_is_a_lost_port_too() -> None:
    opener = Opener()
    board = connected(opener)
    opener.port.fail = OSError(5, "Input/output error")
    board.show({sq("a1"): (255, 0, 0)})
    assert board.status is SerialStatus.DISCONNECTED
    assert board.last_error is not None and "write" in board.last_error


def test_close_is_final() -> None:
    opener = Opener()
    board = connected(opener)
    board.close()
    assert opener.port.closed and board.status is SerialStatus.CLOSED
    assert board.read(100.0) is None and len(opener.ports) == 1


# ---------------------------------------------------------------- LED frames


def test_a_frame_shown_while_disconnected_goes_out_when_the_device_answers() -> None:
    opener = Opener()
    opener.down = True
    board = SerialBoard("/dev/ttyACM0", open_serial=opener, reconnect_interval=0.1)
    board.read(0.0)
    board.show({sq("b2"): (0, 0, 255)})  # no port: kept, no error
    opener.down = False
    board.read(0.1)
    assert [type(m).__name__ for m in opener.port.sent()] == ["Hello"]
    opener.port.incoming += HELLO
    board.read(0.2)
    led = [m for m in opener.port.sent() if isinstance(m, Led)]
    assert len(led) == 1 and led[0].indices[sq("b2")] == 3  # blue: default palette slot 3
    assert sum(led[0].indices) == 3


def test_colours_keep_their_palette_slot_and_new_ones_take_free_slots() -> None:
    opener = Opener()
    board = connected(opener, brightness=1.0)
    opener.port.written.clear()
    board.show({sq("a1"): (255, 0, 0), sq("b1"): (1, 2, 3)})
    first = opener.port.sent()
    assert isinstance(first[0], Palette) and isinstance(first[1], Led)
    palette = first[0].colours
    assert palette[0] == (255, 0, 0) and (1, 2, 3) in palette
    assert palette.index((1, 2, 3)) == 1  # slot 2: the first one this frame leaves free
    opener.port.written.clear()
    board.show({sq("c1"): (1, 2, 3)})
    assert [type(m) for m in opener.port.sent()] == [Led]  # no new palette needed


def test_more_than_fifteen_colours_show_as_the_nearest() -> None:
    opener = Opener()
    board = connected(opener, brightness=1.0)
    opener.port.written.clear()
    common = {s: (16 * (s // 2 + 1), 0, 0) for s in range(30)}  # 15 colours, twice each
    rare = {30 + c: (16 * (c + 1) + 3, 0, 0) for c in range(5)}  # 5 more, once each
    board.show(common | rare)
    palette, led = opener.port.sent()[-2:]
    assert isinstance(palette, Palette) and isinstance(led, Led)
    assert board.counters["MERGED"] == 5
    shown = {s: palette.colours[led.indices[s] - 1] for s in range(35)}
    assert {s: shown[s] for s in common} == common  # the common ones exact
    assert {s: shown[s][0] for s in rare} == {s: c[0] - 3 for s, c in rare.items()}


def test_brightness_scales_the_palette() -> None:
    opener = Opener()
    board = connected(opener, brightness=0.5)
    opener.port.written.clear()
    board.show({sq("a1"): (200, 100, 0)})
    palette = next(m for m in opener.port.sent() if isinstance(m, Palette))
    assert (100, 50, 0) in palette.colours


def test_bad_frames_raise() -> None:
    board = SerialBoard("/dev/null", open_serial=Opener())
    with pytest.raises(LedFrameError):
        board.show({80: (255, 0, 0)})
    with pytest.raises(LedFrameError):
        board.show({0: (256, 0, 0)})


def test_led_points_for_squares_and_corners() -> None:
    assert led_points(BoardShape(10, 8, 80))[sq("e4")] == (sq("e4"),)
    corners = led_points(BoardShape(10, 8, 99))
    assert corners[sq("a1")] == (0, 1, 11, 12)
    assert corners[sq("j8")] == (86, 87, 97, 98)
    with pytest.raises(ValueError):
        led_points(BoardShape(10, 8, 60))


def test_the_default_palette_is_what_the_device_boots_with() -> None:
    assert tuple(firmware().protocol_constants.DEFAULT_PALETTE) == DEFAULT_PALETTE


def test_the_default_opener_is_pyserial() -> None:
    pytest.importorskip("serial")
    board = SerialBoard("loop://")  # pyserial's loopback: the host hears itself
    board.read(0.0)
    board.read(0.01)
    assert board.status is SerialStatus.INCOMPATIBLE  # a HELLO without a board shape
    assert board.counters["OPENS"] == 1
    board.close()
    bad = SerialBoard("nosuchscheme://x", reconnect_interval=1.0)
    bad.read(0.0)
    assert bad.status is SerialStatus.DISCONNECTED and bad.last_error is not None
