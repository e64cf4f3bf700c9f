"""The host side of the wire protocol: codec against firmware/vectors.txt,
properties of the codec and the line assembler, and the host link in
sessions with a scripted device (virtual time: no clocks, no sleeping)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.hw.hexpins import HEX_BOARDS
from boardctl.hw.protocol.acceptance import MAX_HAND_CHANGE
from boardctl.hw.protocol.codec import (
    LineAssembler,
    ProtocolError,
    crc32,
    decode,
    encode,
    shorter_led,
)
from boardctl.hw.protocol.constants import (
    ACK_TIMEOUT,
    BOARDS,
    DEFAULT_PALETTE,
    HEARTBEAT,
    HELLO_INTERVAL,
    LINK_TIMEOUT,
    MAX_LINE,
    MAX_RETRIES,
    PROTOCOL_VERSION,
    DropReason,
    NakReason,
)
from boardctl.hw.protocol.events import (
    Action,
    DeviceCounters,
    Event,
    LinkState,
    Received,
    Reopened,
    RequestCounters,
    Send,
    SetPalette,
    ShowLeds,
    SnapshotReceived,
    StateChanged,
    Tick,
)
from boardctl.hw.protocol.link import LED_REFRESH, HostLink
from boardctl.hw.protocol.messages import (
    DEFAULT_SHAPE,
    Ack,
    BoardShape,
    Counters,
    Frame,
    Hello,
    Led,
    Message,
    Nak,
    Palette,
    Snap,
    Stamp,
    Stat,
)

from .helpers import crc8_smbus

VECTORS = Path(__file__).resolve().parents[2] / "firmware" / "vectors.txt"
FILES = "abcdefghijklmnop"
START = sum(1 << s for s in [*range(0, 20), *range(60, 80)])


# --------------------------------------------------------------------- vectors


@dataclass(frozen=True)
class Record:
    line: int
    shape: BoardShape
    kind: str
    text: str


def unescape(text: str) -> bytes:
    out = bytearray()
    i = 0
    while i < len(text):
        if text[i] == "\\":
            code = text[i + 1]
            if code == "x":
                out.append(int(text[i + 2 : i + 4], 16))
                i += 4
                continue
            out.append({"n": 10, "r": 13, "\\": 92}[code])
            i += 2
        else:
            out.append(ord(text[i]))
            i += 1
    return bytes(out)


def read_vectors() -> list[Record]:
    shape = DEFAULT_SHAPE
    records = []
    for number, line in enumerate(VECTORS.read_text(encoding="ascii").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        kind, _, rest = line.partition(" ")
        if kind == "shape":
            fields = rest.split()
            if len(fields) == 2:  # a named board: "shape hex121 121"
                shape = BoardShape(None, None, int(fields[1]), fields[0])
            else:
                files, ranks, leds = map(int, fields)
                shape = BoardShape(files, ranks, leds)
        else:
            records.append(Record(number, shape, kind, rest))
    return records


RECORDS = read_vectors()


def name(square: int, shape: BoardShape) -> str:
    if shape.files is None:
        return HEX_BOARDS[shape.board or ""].name(square)
    return FILES[square % shape.files] + str(square // shape.files + 1)


def square_of(text: str, shape: BoardShape) -> int:
    if shape.files is None:
        return HEX_BOARDS[shape.board or ""].parse_cell(text)
    return FILES.index(text[0]) + (int(text[1:]) - 1) * shape.files


def meaning(frame: Frame, shape: BoardShape) -> dict[str, Any]:
    """A decoded frame as the vectors' JSON meaning."""
    result: dict[str, Any] = {"seq": frame.seq}
    match frame.message:
        case Hello(version, files, ranks, leds, info):
            result.update(
                cmd="HELLO",
                version=version,
                files=files,
                ranks=ranks,
                leds=leds,
                info=[list(pair) for pair in info],
            )
        case Snap(occupancy, stamp):
            assert stamp is not None
            result.update(
                cmd="SNAP",
                occupied=[name(sq, shape) for sq in range(shape.squares) if occupancy >> sq & 1],
                stamp=[stamp.epoch, stamp.count],
            )
        case Led(indices, sparse):
            lit = [[i, v] for i, v in enumerate(indices) if v]
            result.update(cmd="LEDS" if sparse else "LED", lit=lit)
        case Palette(colours):
            result.update(cmd="PAL", colours=[list(c) for c in colours])
        case Stat():
            result.update(cmd="STAT")
        case Counters(values):
            result.update(cmd="COUNTERS", counters=[list(pair) for pair in values])
        case Ack(ref):
            result.update(cmd="ACK", ack=ref)
        case Nak(ref, reason):
            result.update(cmd="NAK", nak=ref, reason=reason.value)
    return result


def message_of(m: dict[str, Any], shape: BoardShape) -> Message:
    """The inverse of :func:`meaning`."""
    match m["cmd"]:
        case "HELLO":
            return Hello(
                m["version"], m["files"], m["ranks"], m["leds"], tuple((k, v) for k, v in m["info"])
            )
        case "SNAP":
            return Snap(sum(1 << square_of(n, shape) for n in m["occupied"]), Stamp(*m["stamp"]))
        case "LED" | "LEDS":
            indices = [0] * shape.leds
            for i, v in m["lit"]:
                indices[i] = v
            return Led(tuple(indices), sparse=m["cmd"] == "LEDS")
        case "PAL":
            return Palette(tuple((r, g, b) for r, g, b in m["colours"]))
        case "STAT":
            return Stat()
        case "COUNTERS":
            return Counters(tuple((k, v) for k, v in m["counters"]))
        case "ACK":
            return Ack(m["ack"])
        case "NAK":
            return Nak(m["nak"], NakReason(m["reason"]))
    raise AssertionError(m)


def outcomes(data: bytes, shape: BoardShape) -> list[tuple[Any, int | None]]:
    """What a fresh assembler and decoder make of ``data``: (meaning or
    lower-case reason, NAK seq) per frame or drop."""
    results: list[tuple[Any, int | None]] = []
    for item in LineAssembler().feed(data):
        if isinstance(item, DropReason):
            results.append((item.value.lower(), None))
            continue
        try:
            results.append((meaning(decode(item, shape), shape), None))
        except ProtocolError as error:
            results.append((error.reason.value.lower(), error.nak))
    return results


def test_the_checksum_is_crc32() -> None:
    assert crc32(b"123456789") == 0xCBF43926
    assert crc32(b"") == 0


def test_the_vectors_are_all_read() -> None:
    kinds = {r.kind for r in RECORDS}
    assert kinds == {"ok", "bad", "stream"}
    assert len(RECORDS) > 100


def test_the_vectors_cover_every_command_and_reason() -> None:
    commands = {json.loads(r.text.partition(" => ")[2])["cmd"] for r in RECORDS if r.kind == "ok"}
    assert commands == {"HELLO", "SNAP", "LED", "LEDS", "PAL", "STAT", "COUNTERS", "ACK", "NAK"}
    reasons = {r.text.split(" ")[0] for r in RECORDS if r.kind == "bad"}
    reasons |= {
        x
        for r in RECORDS
        if r.kind == "stream"
        for x in json.loads(r.text.rpartition(" => ")[2])
        if isinstance(x, str)
    }
    assert reasons == {d.value.lower() for d in DropReason}


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"line{r.line}-{r.kind}")
def test_vector(record: Record) -> None:
    shape = record.shape
    if record.kind == "ok":
        text, _, expected = record.text.partition(" => ")
        frame, want = unescape(text), json.loads(expected)
        assert outcomes(frame + b"\n", shape) == [(want, None)]
        assert encode(Frame(want["seq"], message_of(want, shape)), shape) == frame + b"\n"
    elif record.kind == "bad":
        reason, nak, text = record.text.split(" ", 2)
        want_nak = None if nak == "-" else int(nak, 16)
        assert outcomes(unescape(text) + b"\n", shape) == [(reason, want_nak)]
    else:
        data, _, expected = record.text.rpartition(" => ")
        assert [o for o, _ in outcomes(unescape(data), shape)] == json.loads(expected)


# --------------------------------------------------------------------- codec properties

keys = st.from_regex(r"[A-Z][A-Z0-9]{0,6}", fullmatch=True).filter(lambda k: k not in "PFRL")
values = st.from_regex(r"[0-9A-Za-z._:+-]{1,16}", fullmatch=True)
seqs = st.integers(0, 255)
colours = st.tuples(*[st.integers(0, 255)] * 3)


def messages(shape: BoardShape) -> st.SearchStrategy[Message]:
    small = st.none() | st.integers(1, 16)
    return st.one_of(
        st.builds(
            Hello,
            st.just(PROTOCOL_VERSION),
            small,
            small,
            st.none() | st.integers(1, 180),
            st.lists(st.tuples(keys, values), max_size=4, unique_by=lambda kv: kv[0]).map(tuple),
        ),
        st.builds(
            Snap,
            st.integers(0, (1 << shape.squares) - 1),
            st.builds(Stamp, st.integers(0, 0xFFFF), st.integers(0, 0xFFFFFF)),
        ),
        st.lists(st.integers(0, 15), min_size=shape.leds, max_size=shape.leds).map(
            lambda v: Led(tuple(v))
        ),
        st.lists(colours, min_size=1, max_size=15).map(lambda c: Palette(tuple(c))),
        st.just(Stat()),
        st.lists(
            st.tuples(keys, st.integers(0, 9_999_999_999)), max_size=6, unique_by=lambda kv: kv[0]
        ).map(lambda v: Counters(tuple(v))),
        seqs.map(Ack),
        st.builds(Nak, seqs, st.sampled_from(NakReason)),
    )


shapes = st.one_of(
    st.builds(BoardShape, st.integers(1, 16), st.integers(1, 16), st.integers(1, 180)),
    st.sampled_from([BoardShape.named(board) for board in BOARDS]),
)
frames = st.builds(Frame, seqs, messages(DEFAULT_SHAPE))


@given(shape=shapes, data=st.data())
def test_encode_then_decode_gives_the_frame_back(shape: BoardShape, data: st.DataObject) -> None:
    frame = Frame(data.draw(seqs), data.draw(messages(shape)))
    line = encode(frame, shape)
    assert line.endswith(b"\n") and len(line) - 1 <= MAX_LINE
    assert all(0x20 <= b <= 0x7E for b in line[:-1]), "printable ASCII only: never 0x03"
    assert LineAssembler().feed(line) == [line[:-1]]
    assert decode(line[:-1], shape) == frame


@given(st.binary(max_size=800))
def test_garbage_never_raises_and_every_piece_is_counted(data: bytes) -> None:
    link = HostLink()
    pieces = len(LineAssembler().feed(data))
    link.feed(Received(data), now=0.0)
    counted = link.counters["RX"] + sum(link.counters[r.value] for r in DropReason)
    assert counted == pieces


@given(st.lists(st.one_of(st.binary(max_size=40), frames.map(encode)), max_size=12))
def test_garbage_among_good_lines_never_raises(chunks: list[bytes]) -> None:
    link = HostLink()
    for now, chunk in enumerate(chunks):
        link.feed(Received(chunk), now=now * 0.01)


@given(
    st.binary(min_size=1, max_size=200).filter(
        lambda b: b"$" not in b and b"\n" not in b and any(x not in b" \t\r" for x in b)
    )
)
def test_a_line_of_junk_is_one_noise(junk: bytes) -> None:
    assert LineAssembler().feed(junk + b"\n") == [DropReason.NOISE]


@given(garbage=st.binary(max_size=400), frame=frames)
def test_the_next_frame_after_any_garbage_gets_through(garbage: bytes, frame: Frame) -> None:
    out = LineAssembler().feed(garbage + encode(frame))
    assert isinstance(out[-1], bytes)
    assert decode(out[-1]) == frame


@given(frame=frames, data=st.data())
def test_any_single_byte_damage_is_caught(frame: Frame, data: st.DataObject) -> None:
    line = encode(frame)[:-1]
    i = data.draw(st.integers(0, len(line) - 1))
    byte = data.draw(st.integers(0, 255).filter(lambda b: b not in (line[i], 0x24, 0x0A)))
    damaged = line[:i] + bytes([byte]) + line[i + 1 :]
    for item in LineAssembler().feed(damaged + b"\n"):
        if isinstance(item, bytes):
            with pytest.raises(ProtocolError):
                decode(item)


def test_encode_refuses_what_the_protocol_cannot_carry() -> None:
    with pytest.raises(ValueError):
        encode(Frame(256, Stat()))
    with pytest.raises(ValueError):
        encode(Frame(0, Snap(1 << 80, Stamp(EPOCH, 1))))
    with pytest.raises(ValueError):
        encode(Frame(0, Led((0,) * 79)))
    with pytest.raises(ValueError):
        encode(Frame(0, Palette(())))
    with pytest.raises(ValueError):
        encode(Frame(0, Hello(info=(("F", "x"),))))
    with pytest.raises(ValueError):
        encode(Frame(0, Hello(info=(("FW", "a b"),))))
    with pytest.raises(ValueError):
        encode(Frame(0, Counters(tuple((f"K{i}", 10**9) for i in range(20)))))
    with pytest.raises(ValueError):
        BoardShape(17, 8, 80)


def led_frames(shape: BoardShape, lit: int | None = None) -> st.SearchStrategy[tuple[int, ...]]:
    """Frames for ``shape``: any, or with at most ``lit`` LEDs lit."""
    if lit is None:
        return st.lists(st.integers(0, 15), min_size=shape.leds, max_size=shape.leds).map(tuple)
    return st.dictionaries(
        st.integers(0, shape.leds - 1), st.integers(1, 15), max_size=min(lit, shape.leds)
    ).map(lambda on: tuple(on.get(i, 0) for i in range(shape.leds)))


@given(shape=shapes, data=st.data())
def test_any_frame_goes_through_both_forms_and_comes_back_the_same(
    shape: BoardShape, data: st.DataObject
) -> None:
    indices = data.draw(led_frames(shape) | led_frames(shape, 8))
    seq = data.draw(seqs)
    dense = encode(Frame(seq, Led(indices)), shape)
    assert decode(dense[:-1], shape) == Frame(seq, Led(indices))
    lit = sum(1 for i in indices if i)
    if len(f"${seq:02X} LEDS {'000' * lit}*00000000") > MAX_LINE:
        with pytest.raises(ValueError, match="longer than"):
            encode(Frame(seq, Led(indices, sparse=True)), shape)
        return
    line = encode(Frame(seq, Led(indices, sparse=True)), shape)
    assert line.startswith(b"$%02X LEDS" % seq) and len(line) == 18 + (1 + 3 * lit if lit else 0)
    assert decode(line[:-1], shape) == Frame(seq, Led(indices, sparse=True))


@given(shape=shapes, data=st.data())
def test_the_host_writes_a_frame_sparsely_only_where_the_device_takes_it_and_it_is_shorter(
    shape: BoardShape, data: st.DataObject
) -> None:
    indices = data.draw(led_frames(shape) | led_frames(shape, 8))
    assert shorter_led(indices, sparse=False) == Led(indices)
    dense = len(encode(Frame(0, Led(indices)), shape))
    try:
        sparse = len(encode(Frame(0, Led(indices, sparse=True)), shape))
    except ValueError:  # longer than a line may be
        sparse = MAX_LINE + 2
    assert shorter_led(indices, sparse=True) == Led(indices, sparse=sparse < dense)


def test_protocol_errors_are_boardctl_value_errors() -> None:
    from boardctl.errors import BoardctlError

    with pytest.raises(ProtocolError) as caught:
        decode(b"$05 ACK 04*00000000")
    assert isinstance(caught.value, BoardctlError) and isinstance(caught.value, ValueError)
    assert caught.value.reason is DropReason.CRC and caught.value.nak == 5


# --------------------------------------------------------------------- the host link

EPOCH = 7  # the scripted device's boot


def device_hello(epoch: int = EPOCH, nonce: str | None = None) -> Hello:
    """The scripted device's HELLO in boot ``epoch``, answering the host's
    HELLO ``nonce`` if given."""
    answer = (("N", nonce),) if nonce is not None else ()
    return Hello(PROTOCOL_VERSION, 10, 8, 80, (("E", f"{epoch:04X}"), ("FW", "0.1.0"), *answer))


DEVICE_HELLO = device_hello()


@dataclass
class Session:
    """The host link and a scripted device, in virtual time."""

    link: HostLink = field(default_factory=lambda: HostLink(nonces=iter(range(1, 1 << 20))))
    now: float = 0.0
    seq: int = 0
    actions: list[Action] = field(default_factory=list)
    # The device's snapshots: the count of the last, and each line's stamp by
    # its number, so that a line sent again (seq=) carries its stamp again.
    count: int = 0
    stamps: dict[int, Stamp] = field(default_factory=dict)
    epoch: int = EPOCH
    lines: list[bytes] = field(default_factory=list)  # every line the device sent

    def feed(self, event: Event) -> list[Action]:
        got = self.link.feed(event, self.now)
        self.actions += got
        return got

    def wait(self, seconds: float, step: float = 1 / 32) -> list[Action]:
        """Let time pass, ticking like the daemon's loop (steps that binary
        floating point adds up exactly)."""
        got: list[Action] = []
        start = self.now
        for k in range(1, round(seconds / step) + 1):
            self.now = start + k * step
            got += self.feed(Tick())
        return got

    def device(self, message: Message, seq: int | None = None) -> list[Action]:
        """The device sends a line.  A snapshot without a stamp gets the one
        its line had if ``seq`` names a line sent before, else the next."""
        again = seq is not None and seq in self.stamps
        if seq is None:
            seq, self.seq = self.seq, (self.seq + 1) % 256
        if isinstance(message, Snap) and message.stamp is None:
            if not again:
                self.count += 1
                self.stamps[seq] = Stamp(self.epoch, self.count)
            message = Snap(message.occupancy, self.stamps[seq])
        line = encode(Frame(seq, message), self.link.shape)
        self.lines.append(line)
        return self.feed(Received(line))

    def heartbeats(self, board: int, count: int = 1) -> list[Action]:
        """The device's next ``count`` heartbeats, each a snapshot of ``board``."""
        got: list[Action] = []
        for _ in range(count):
            self.now += HEARTBEAT
            got += self.device(Snap(board))
        return got

    def deliver_again(self, lines: list[bytes], gap: float = 0.05) -> None:
        """Lines the device sent before, delivered again ``gap`` seconds apart."""
        for line in lines:
            self.now += gap
            self.feed(Received(line))

    def reboot(self) -> Hello:
        """The device restarts: its next boot, a new numbering; its HELLO."""
        self.epoch += 1
        self.seq = self.count = 0
        self.stamps.clear()
        return device_hello(self.epoch)

    def answer(self, ours: Frame) -> Hello:
        """The device's HELLO in answer to the host's (``ours``): its nonce repeated."""
        assert isinstance(ours.message, Hello)
        return device_hello(self.epoch, ours.message.nonce)

    def connect(self) -> None:
        self.feed(Tick())
        self.device(DEVICE_HELLO)
        assert self.link.state is LinkState.UP
        for f in sent(self.actions):
            if not isinstance(f.message, Ack | Nak):
                self.device(Ack(f.seq))
        self.actions.clear()


def up(board: int | None = None) -> Session:
    """A session with the link up; with ``board``, the device has sent its
    first snapshot of it."""
    s = Session()
    s.connect()
    if board is not None:
        s.device(Snap(board))
    return s


def sent(actions: list[Action], shape: BoardShape = DEFAULT_SHAPE) -> list[Frame]:
    return [decode(a.data[:-1], shape) for a in actions if isinstance(a, Send)]


def sent_messages(actions: list[Action], shape: BoardShape = DEFAULT_SHAPE) -> list[Message]:
    return [f.message for f in sent(actions, shape)]


def test_the_host_says_hello_at_once_and_every_second_until_the_device_answers() -> None:
    s = Session()
    assert sent_messages(s.feed(Tick())) == [
        Hello(PROTOCOL_VERSION, info=(("SW", "boardctl-0.1.0"), ("N", "00000001")))
    ]
    assert s.link.state is LinkState.CONNECTING and not s.link.healthy
    hellos = [m for m in sent_messages(s.wait(3.0)) if isinstance(m, Hello)]
    assert len(hellos) == 3
    assert all(
        a.data.startswith(b"$") and a.data.endswith(b"\n") for a in s.actions if isinstance(a, Send)
    )


def test_the_device_hello_brings_the_link_up_and_gets_palette_and_frame() -> None:
    s = Session()
    s.feed(Tick())
    got = s.device(DEVICE_HELLO)
    assert StateChanged(LinkState.UP, "device firmware 0.1.0") in got
    assert sent_messages(got) == [Ack(0), Palette(DEFAULT_PALETTE), Led((0,) * 80)]
    assert s.link.healthy and s.link.device == DEVICE_HELLO


def test_snapshots_are_acknowledged_and_passed_on_with_their_time() -> None:
    s = up()
    s.now = 0.75
    got = s.device(Snap(START))
    assert SnapshotReceived(START, 0.75) in got
    assert sent_messages(got) == [Ack(s.seq - 1)]


def test_snapshots_before_the_device_hello_are_acknowledged_but_not_used() -> None:
    s = Session()
    s.feed(Tick())
    got = s.device(Snap(START))
    assert sent_messages(got) == [Ack(0)]
    assert not any(isinstance(a, SnapshotReceived) for a in got)


def test_a_device_with_another_board_is_incompatible() -> None:
    s = Session()
    s.feed(Tick())
    got = s.device(Hello(PROTOCOL_VERSION, 10, 10, 100))
    assert any(isinstance(a, StateChanged) and a.state is LinkState.INCOMPATIBLE for a in got)
    assert not s.link.healthy
    assert not any(isinstance(a, SnapshotReceived) for a in s.device(Snap(0)))


HEX = BoardShape.named("hex121")
HEX_HELLO = Hello(
    PROTOCOL_VERSION, None, None, 121, (("B", "hex121"), ("E", "0007"), ("FW", "0.1.0"))
)


def incompatible(got: list[Action]) -> list[str]:
    return [
        a.detail for a in got if isinstance(a, StateChanged) and a.state is LinkState.INCOMPATIBLE
    ]


def test_a_hex_board_comes_up_with_121_cells_and_121_leds() -> None:
    s = Session(HostLink(HEX))
    s.feed(Tick())
    got = s.device(HEX_HELLO)
    assert s.link.state is LinkState.UP and HEX_HELLO.shape() == HEX
    assert sent_messages(got, HEX) == [Ack(0), Palette(DEFAULT_PALETTE), Led((0,) * 121)]
    top = 1 << 120  # f13, the last cell
    assert SnapshotReceived(top | 1, s.now) in s.device(Snap(top | 1))
    s.feed(ShowLeds([0] * 120 + [3]))
    assert sent_messages(s.actions, HEX)[-1] == Led((0,) * 120 + (3,))
    with pytest.raises(ValueError):
        s.feed(ShowLeds([0] * 80))


@pytest.mark.parametrize(
    ("config", "device", "line"),
    [
        (
            HEX,
            DEVICE_HELLO,
            "the board is a 10×8 rectangle of squares (80 LEDs), but the game "
            "needs the 121-cell hexagon (B=hex121, 121 LEDs)",
        ),
        (
            DEFAULT_SHAPE,
            HEX_HELLO,
            "the board is the 121-cell hexagon (B=hex121, 121 LEDs), but "
            "the game needs a 10×8 rectangle of squares (80 LEDs)",
        ),
        (
            HEX,
            Hello(PROTOCOL_VERSION, None, None, 121, (("B", "hex91"),)),
            "the board is a board this boardctl does not know (B=hex91), but the game needs the "
            "121-cell hexagon (B=hex121, 121 LEDs)",
        ),
        (
            HEX,
            Hello(PROTOCOL_VERSION, 11, 11, 121, (("B", "hex121"),)),
            "the board is no board shape that holds together (F=11 R=11 L=121 B=hex121), but the "
            "game needs the 121-cell hexagon (B=hex121, 121 LEDs)",
        ),
        (
            HEX,
            Hello(PROTOCOL_VERSION, None, None, 80, (("B", "hex121"),)),
            "the board is no board shape that holds together (L=80 B=hex121), but the game needs "
            "the 121-cell hexagon (B=hex121, 121 LEDs)",
        ),
    ],
)
def test_a_board_of_another_shape_is_refused_in_one_line_naming_both(
    config: BoardShape, device: Hello, line: str
) -> None:
    s = Session(HostLink(config))
    s.feed(Tick())
    assert incompatible(s.device(device)) == [line]
    assert not s.link.healthy
    assert not any(isinstance(a, SnapshotReceived) for a in s.device(Snap(0)))


def test_a_hex_hello_has_no_shape_for_a_host_that_reads_only_f_r_l() -> None:
    # What a host from before the B key sees: no F and R, so no board it could misread.
    line = encode(Frame(0, HEX_HELLO))
    fields = dict(arg.split("=") for arg in line[1:].split(b"*")[0].decode().split()[2:])
    assert "F" not in fields and "R" not in fields and fields["B"] == "hex121"


def test_the_named_boards_are_the_rules_boards() -> None:
    for board, cells in BOARDS.items():
        assert HEX_BOARDS[board].size == cells == BoardShape.named(board).squares
    assert BoardShape.named("hex121").snap_digits == 31
    with pytest.raises(ValueError):
        BoardShape.named("hex91")
    with pytest.raises(ValueError):
        BoardShape(11, 11, 121, "hex121")


def test_a_device_speaking_another_version_is_nakked_and_incompatible() -> None:
    s = Session()
    s.feed(Tick())
    body = b"00 HELLO P=4 F=10 R=8 L=80"
    got = s.feed(Received(b"$" + body + b"*%08X\n" % crc32(body)))
    assert sent_messages(got) == [Nak(0, NakReason.VER)]
    assert s.link.state is LinkState.INCOMPATIBLE
    assert s.link.counters["VER"] == 1
    assert (
        StateChanged(
            LinkState.INCOMPATIBLE,
            "the board's firmware speaks protocol version "
            "4, this boardctl speaks 3: update boardctl",
        )
        in got
    )


def test_a_version_1_firmware_is_named_in_one_line_and_never_comes_up() -> None:
    s = Session()
    s.feed(Tick())
    old = b"$00 HELLO P=1 F=10 R=8 L=80 FW=0.1.0 ID=E6614C311B4F7E2A*B6\r\n"  # CRC-8
    got = s.feed(Received(old))
    changes = [a for a in got if isinstance(a, StateChanged)]
    assert changes == [
        StateChanged(
            LinkState.INCOMPATIBLE,
            "the board's firmware speaks protocol version 1, this "
            "boardctl speaks 3: install the firmware from this boardctl's firmware/ directory "
            "(firmware/README.md)",
        )
    ]
    assert sent_messages(got) == []  # it could not read a NAK anyway
    start = len(s.actions)
    for _ in range(5):  # it repeats its HELLO every second
        s.wait(1.0)
        s.feed(Received(old + b"$01 SNAP FFFFF0000000000FFFFF*D3\r\n"))
    assert s.link.state is LinkState.INCOMPATIBLE
    assert not any(isinstance(a, SnapshotReceived | StateChanged) for a in s.actions[start:])


def version_1_hello(version: int) -> bytes:
    """A HELLO in version 1's frame (a CRC-8 that holds) naming ``version``:
    a version-1 board, or a damaged line whose 8-bit check held by chance."""
    body = b"00 HELLO P=%d F=10 R=8 L=80" % version
    return b"$" + body + b"*%02X\r\n" % crc8_smbus(body)


@pytest.mark.parametrize("version", [1, 3])
def test_a_version_1_hello_amid_good_lines_does_not_stop_the_readings(version: int) -> None:
    s = up(START)
    s.now += 0.1
    got = s.feed(Received(version_1_hello(version)))
    if version == 1:  # a version-1 board's HELLO, or a damaged line like one
        assert s.link.state is LinkState.INCOMPATIBLE
    else:  # only version 1 ever used that frame: damage
        assert s.link.state is LinkState.UP and s.link.counters["FORMAT"] == 1
        assert not any(isinstance(a, StateChanged) for a in got)
    # The device goes on with good lines of this version, as a version-2 board does.
    start = len(s.actions)
    lifted = START & ~(1 << 14)
    for board in (START, lifted, lifted):
        s.now += 0.25
        got = s.device(Snap(board))
        for frame in sent(got):
            if isinstance(frame.message, Hello):  # the host asks who is there
                s.device(Ack(frame.seq))
                s.device(s.answer(frame))
    assert s.link.state is LinkState.UP
    readings = [a.occupancy for a in s.actions[start:] if isinstance(a, SnapshotReceived)]
    assert readings[-1:] == [lifted]


def test_an_unacknowledged_frame_is_sent_three_more_times_then_given_up() -> None:
    s = up()
    frame = tuple(1 if i == 14 else 0 for i in range(80))
    first = s.feed(ShowLeds(frame))
    line = next(a.data for a in first if isinstance(a, Send))
    # The device keeps the link alive with heartbeats but never ACKs the frame.
    resent: list[bytes] = []
    for _ in range(8):
        resent += [a.data for a in s.wait(ACK_TIMEOUT / 2) if isinstance(a, Send)]
        s.device(Snap(START))
    assert resent == [line] * MAX_RETRIES  # byte for byte, same sequence number
    assert s.link.counters["RETRY"] == MAX_RETRIES
    assert s.link.counters["GIVEUP"] == 1


def test_an_ack_stops_the_retries() -> None:
    s = up()
    (frame,) = sent(s.feed(ShowLeds((2,) * 80)))
    s.device(Ack(frame.seq))
    assert not sent(s.wait(1.0))
    assert s.link.counters["RETRY"] == 0


def test_nak_crc_gets_the_line_again_at_once_and_nak_arg_drops_it() -> None:
    s = up()
    (frame,) = sent(s.feed(ShowLeds((3,) * 80)))
    assert sent(s.device(Nak(frame.seq, NakReason.CRC))) == [frame]
    assert s.link.counters["NAKRX"] == 1 and s.link.counters["RETRY"] == 1
    s.device(Nak(frame.seq, NakReason.ARG))
    assert not sent(s.wait(1.0))


def test_the_newest_frame_replaces_a_pending_one() -> None:
    s = up()
    (old,) = sent(s.feed(ShowLeds((1,) * 80)))
    (new,) = sent(s.feed(ShowLeds((2,) * 80)))
    retried = sent(s.wait(ACK_TIMEOUT + 0.01))
    assert retried == [new] and old.seq != new.seq


def test_the_same_frame_twice_is_sent_once() -> None:
    s = up()
    assert len(sent(s.feed(ShowLeds((1,) * 80)))) == 1
    assert sent(s.feed(ShowLeds((1,) * 80))) == []


def test_palette_and_frame_are_refreshed_every_five_seconds() -> None:
    s = up()
    s.feed(SetPalette(((9, 9, 9),)))
    got: list[Action] = []
    while s.now < LED_REFRESH + 0.1:
        got += s.wait(HEARTBEAT)
        for f in sent(got):  # a device that ACKs everything
            if not isinstance(f.message, Ack | Nak):
                s.device(Ack(f.seq))
        got = [a for a in got if not isinstance(a, Send)]
        s.device(Snap(START))
    refreshed = sent_messages(s.actions)
    assert Palette(((9, 9, 9),)) in refreshed and Led((0,) * 80) in refreshed


def sparse_session(hello: Hello) -> Session:
    """A session whose device says ``hello`` (with ``S=1``: it takes LEDS)."""
    s = Session()
    s.feed(Tick())
    s.device(hello)
    for f in sent(s.actions):
        if not isinstance(f.message, Ack | Nak):
            s.device(Ack(f.seq))
    s.actions.clear()
    return s


SPARSE_HELLO = Hello(PROTOCOL_VERSION, 10, 8, 80, (("E", "0007"), ("S", "1"), ("FW", "0.2.0")))


def test_a_device_that_says_s_1_gets_its_frames_sparsely_where_that_is_shorter() -> None:
    s = Session()
    s.feed(Tick())
    got = s.device(SPARSE_HELLO)
    assert SPARSE_HELLO.sparse and not DEVICE_HELLO.sparse
    assert sent_messages(got) == [Ack(0), Palette(DEFAULT_PALETTE), Led((0,) * 80, sparse=True)]
    assert got[-1] == Send(b"$03 LEDS*%08X\n" % crc32(b"03 LEDS"))
    lifted = tuple(6 if i == 14 else 2 if i in (24, 34) else 0 for i in range(80))
    (frame,) = sent(s.feed(ShowLeds(lifted)))
    assert frame.message == Led(lifted, sparse=True)
    # 27 lit LEDs: "LEDS", a space and 81 digits, longer than "LED", a space
    # and 80; 26 lit, 83 bytes against 84.
    crowded = tuple(1 if i < 27 else 0 for i in range(80))
    assert sent_messages(s.feed(ShowLeds(crowded))) == [Led(crowded)]
    fewer = tuple(1 if i < 26 else 0 for i in range(80))
    assert sent_messages(s.feed(ShowLeds(fewer))) == [Led(fewer, sparse=True)]


def test_a_device_that_does_not_say_s_1_gets_every_frame_whole() -> None:
    for hello in (DEVICE_HELLO, Hello(PROTOCOL_VERSION, 10, 8, 80, (("E", "0007"), ("S", "2")))):
        s = sparse_session(hello)
        lit = tuple(5 if i == 9 else 0 for i in range(80))
        assert sent_messages(s.feed(ShowLeds(lit))) == [Led(lit)]
        assert sent_messages(s.feed(ShowLeds((0,) * 80))) == [Led((0,) * 80)]


def test_a_sparse_frame_is_retried_refreshed_and_replaced_as_a_whole_one_is() -> None:
    s = sparse_session(SPARSE_HELLO)
    whole = tuple(range(16)) * 5
    (old,) = sent(s.feed(ShowLeds(whole)))
    lit = tuple(3 if i == 79 else 0 for i in range(80))
    new_actions = s.feed(ShowLeds(lit))
    (new,) = sent(new_actions)
    assert old.message == Led(whole) and new.message == Led(lit, sparse=True)
    retried = s.wait(ACK_TIMEOUT + 0.01)
    assert sent(retried) == [new], "newest wins across the two forms"
    assert [a for a in retried if isinstance(a, Send)] == [
        a for a in new_actions if isinstance(a, Send)
    ]
    s.device(Ack(new.seq))
    s.actions.clear()
    while s.now < LED_REFRESH + 1:  # a device that sends its heartbeats and ACKs all at once
        for f in sent(s.wait(1 / 32)):
            if not isinstance(f.message, Ack | Nak):
                s.device(Ack(f.seq))
        if s.now % HEARTBEAT == 0:
            s.device(Snap(START))
    assert [m for m in sent_messages(s.actions) if isinstance(m, Led)] == [Led(lit, sparse=True)]


def test_a_silent_device_takes_the_link_back_to_connecting() -> None:
    s = up()
    got = s.wait(LINK_TIMEOUT - 0.1)
    assert not any(isinstance(a, StateChanged) for a in got)
    got = s.wait(0.2)
    assert StateChanged(LinkState.CONNECTING, "the device is silent") in got
    assert any(isinstance(m, Hello) for m in sent_messages(got))


def test_a_device_reset_is_noticed_by_its_hello_and_the_leds_are_sent_again() -> None:
    s = up()
    s.feed(ShowLeds((4,) * 80))
    s.device(Snap(START))
    got = s.device(s.reboot())  # rebooted: its next boot, numbering starts again
    assert Led((4,) * 80) in sent_messages(got)
    assert s.link.counters["LOST"] == 0 and s.link.counters["DUP"] == 0


def test_missing_and_repeated_lines_are_counted() -> None:
    s = up()
    s.device(Snap(0), seq=10)
    before = s.link.counters
    s.device(Snap(0), seq=13)  # 11 and 12 missing
    s.device(Snap(0), seq=13)  # a retransmission
    s.device(Snap(0), seq=12)  # an old one, late
    s.device(Snap(0), seq=14)
    assert s.link.counters["LOST"] - before["LOST"] == 2
    assert s.link.counters["DUP"] - before["DUP"] == 2


def test_commands_that_go_the_other_way_are_nakked() -> None:
    s = up()
    got = s.device(Led((0,) * 80), seq=40)
    assert sent_messages(got) == [Nak(40, NakReason.CMD)]
    assert s.link.counters["CMD"] == 1


def test_garbage_then_a_good_line_resynchronises() -> None:
    s = up()
    rx = s.link.counters["RX"]
    junk = b"Traceback (most recent\r\n" + b"\x00\xff" + b"$05 SN"  # noise, noise, trunc
    got = s.feed(Received(junk + encode(Frame(s.seq, Snap(7, Stamp(EPOCH, 1))))))
    assert SnapshotReceived(7, s.now) in got
    assert s.link.counters["NOISE"] == 2 and s.link.counters["TRUNC"] == 1
    assert s.link.counters["RX"] == rx + 1


def test_a_damaged_device_line_is_nakked_with_its_claimed_number() -> None:
    s = up()
    line = encode(Frame(33, Snap(START, Stamp(EPOCH, 1)))).replace(b"FFFFF0", b"FFFFF1")
    got = s.feed(Received(line))
    assert sent_messages(got) == [Nak(33, NakReason.CRC)]
    assert not any(isinstance(a, SnapshotReceived) for a in got)


def test_counters_are_asked_for_and_reported() -> None:
    s = up()
    assert sent_messages(s.feed(RequestCounters())) == [Stat()]
    got = s.device(Counters((("RX", 5), ("SCANS", 4000))))
    assert DeviceCounters((("RX", 5), ("SCANS", 4000))) in got


def test_reopening_the_port_starts_afresh() -> None:
    s = up()
    got = s.feed(Reopened())
    assert StateChanged(LinkState.CONNECTING, "port reopened") in got
    assert any(isinstance(m, Hello) for m in sent_messages(got))


def test_a_frame_that_does_not_fit_the_board_is_refused() -> None:
    s = Session()
    with pytest.raises(ValueError):
        s.feed(ShowLeds((0,) * 79))
    with pytest.raises(ValueError):
        s.feed(ShowLeds((16,) * 80))
    with pytest.raises(ValueError):
        s.feed(SetPalette(((0, 0, 0),) * 16))


def test_no_line_the_host_sends_contains_a_control_byte() -> None:
    s = up()
    s.feed(ShowLeds(tuple(i % 16 for i in range(80))))
    s.feed(SetPalette(DEFAULT_PALETTE))
    s.wait(HELLO_INTERVAL * 6)
    for action in s.actions:
        if isinstance(action, Send):
            assert all(0x20 <= b <= 0x7E for b in action.data[:-1])


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.sampled_from(["tick", "hello", "snap", "ack", "junk", "leds", "silence"]), max_size=40
    )
)
def test_any_sequence_of_events_keeps_the_link_consistent(script: list[str]) -> None:
    s = Session()
    for step in script:
        match step:
            case "tick":
                s.wait(0.1)
            case "hello":
                s.device(DEVICE_HELLO)
            case "snap":
                s.device(Snap(START))
            case "ack":
                for f in sent(s.actions[-6:]):
                    s.device(Ack(f.seq))
            case "junk":
                s.feed(Received(b"\x00$12 SN\xff\r\n"))
            case "leds":
                s.feed(ShowLeds(tuple((int(s.now * 10) + i) % 16 for i in range(80))))
            case "silence":
                s.wait(LINK_TIMEOUT + 0.1, step=0.5)
    assert s.link.healthy == (s.link.state is LinkState.UP)
    assert len(s.link._pending) <= 5  # one per kind: never grows without bound


# --------------------------------------------------------------------- accepting snapshots


def snapshots(actions: list[Action]) -> list[int]:
    return [a.occupancy for a in actions if isinstance(a, SnapshotReceived)]


def far_from(board: int, squares: int) -> int:
    """``board`` with its first ``squares`` squares flipped."""
    return board ^ ((1 << squares) - 1)


def test_a_hand_sized_change_passes_at_once() -> None:
    s = up()
    assert snapshots(s.device(Snap(START))) == [START]
    moved = far_from(START, MAX_HAND_CHANGE)
    assert snapshots(s.device(Snap(moved))) == [moved]
    assert s.link.counters["HELD"] == 0


def test_a_held_jump_is_confirmed_by_the_same_board_in_sequence() -> None:
    s = up(START)
    swept = far_from(START, MAX_HAND_CHANGE + 1)
    s.now = 0.5
    assert snapshots(s.device(Snap(swept))) == []
    s.now = 1.5  # the device's heartbeat
    got = s.device(Snap(swept))
    assert [a for a in got if isinstance(a, SnapshotReceived)] == [SnapshotReceived(swept, 1.5)]
    assert (s.link.counters["HELD"], s.link.counters["UNCONFIRMED"]) == (1, 0)


def test_a_held_jump_that_the_next_snapshot_contradicts_is_dropped() -> None:
    s = up(START)
    phantom = far_from(START, 12)
    moved = START ^ 1 << 14  # e2 lifted
    assert snapshots(s.device(Snap(phantom))) == []
    assert snapshots(s.device(Snap(moved))) == [moved]
    assert snapshots(s.device(Snap(phantom))) == []  # held again, never confirmed ...
    assert snapshots(s.device(Snap(moved))) == [moved]
    assert s.link.counters["UNCONFIRMED"] == 2


def test_a_snapshot_after_missing_lines_is_held_until_confirmed() -> None:
    s = up(START)
    moved = START ^ 1 << 14
    s.seq += 3  # three lines lost on the way
    assert snapshots(s.device(Snap(moved))) == []
    assert snapshots(s.heartbeats(moved)) == [moved]
    assert s.link.counters["LOST"] == 3


def test_a_repeated_or_older_snapshot_is_acknowledged_but_never_used() -> None:
    s = up()
    first, second = START ^ 1 << 14, START ^ 1 << 14 | 1 << 34
    old = s.seq
    s.device(Snap(first))
    s.device(Snap(second))
    got = s.device(Snap(first), seq=old)  # the first line again, late
    assert snapshots(got) == [] and sent_messages(got) == [Ack(old)]
    assert snapshots(s.actions) == [first, second]
    assert s.link.counters["DUP"] == 1


def test_the_spliced_lines_of_issue_11_never_decode() -> None:
    """Two genuine lines spliced at every offset: under CRC-8 the splice
    ``$00 SNAP FFFFB0000000008FDFFD*88`` was a valid SNAP."""
    one = encode(Frame(0, Snap(0xFFFFB0000000008FDFFF, Stamp(EPOCH, 1))))[:-1]
    two = encode(Frame(2, Snap(0xFFFFB0000400008FDFFD, Stamp(EPOCH, 3))))[:-1]
    genuine = {one, two}
    for cut in range(1, len(one)):
        for spliced in (one[:cut] + two[cut:], two[:cut] + one[cut:]):
            if spliced in genuine:
                continue
            with pytest.raises(ProtocolError):
                decode(spliced)
    with pytest.raises(ProtocolError):
        decode(b"$00 SNAP FFFFB0000000008FDFFD*88")


def test_the_link_is_behind_from_a_damaged_or_missing_line_to_the_next_snapshot() -> None:
    s = Session()
    assert s.link.behind  # not up yet
    s.connect()
    s.device(Snap(START))
    assert not s.link.behind
    cut = encode(Frame(s.seq, Snap(START ^ 1 << 14, Stamp(EPOCH, s.count + 1))))[:-9]
    s.feed(Received(cut + b"\n"))  # cut short
    assert s.link.behind  # that may have been the new board
    s.seq += 1
    s.count += 1
    s.device(Snap(START ^ 1 << 14))  # after a missing line: held
    assert s.link.behind
    s.now += HEARTBEAT
    s.device(Snap(START ^ 1 << 14))  # confirmed
    assert not s.link.behind


def test_a_stray_line_from_far_ahead_does_not_stop_the_count() -> None:
    """A stale copy numbered far ahead would make every line after it look
    like a repeat; two lines in a row that follow each other re-anchor."""
    s = up(START)
    s.device(Snap(START), seq=(s.seq + 100) % 256)  # a stray, taken as after 100 lost lines
    moved = START ^ 1 << 14
    assert snapshots(s.device(Snap(moved))) == []  # looks like a repeat
    assert snapshots(s.device(Snap(moved))) == []  # re-anchored, after "missing lines": held
    assert snapshots(s.heartbeats(moved)) == [moved]


def test_the_hex_vectors_opening_is_the_falcon_hex_presets() -> None:
    from boardctl.board.explain import occupancy
    from boardctl.rules import Game, get_variant

    start = occupancy(Game(get_variant("falcon-hex")).position)
    first = next(r for r in RECORDS if r.shape == HEX and r.kind == "ok" and '"SNAP"' in r.text)
    opening = decode(unescape(first.text.split(" => ")[0]), HEX).message
    assert opening.occupancy == start and start.bit_count() == 44


# --------------------------------------------------------------------- the link's last holes


@pytest.mark.parametrize("run", [2, 3, 4, 5])
@pytest.mark.parametrize("back", [0, 1, 3])
def test_a_replayed_run_of_old_lines_never_brings_an_old_board_back(run: int, back: int) -> None:
    """A USB hub or adapter replaying its buffer delivers a run of old lines
    again; numbered one after the other they re-anchor the count, and the
    third used to pass as current (issue 22: 299 stale readings in 75,000
    lines).  A snapshot numbered at or before the one passed on is older."""
    s = up()
    boards = [START]
    for k in range(1, 8):  # a piece walks: hand-sized changes
        boards.append(START ^ 1 << (14 + k) | 1 << (40 + k))
    lines = []
    for board in boards:
        lines.append((s.seq, board))
        s.device(Snap(board))
    assert snapshots(s.actions) == boards
    start = len(s.actions)
    replay = lines[len(lines) - back - run : len(lines) - back]
    for seq, board in replay:
        s.device(Snap(board), seq=seq)
    assert snapshots(s.actions[start:]) == [], replay
    now = boards[-1]
    s.heartbeats(now, 3)  # the device goes on
    after = snapshots(s.actions[start:])
    assert after and set(after) == {now}
    assert s.link.counters["OLDSNAP"] >= 1


def _damaged_v2_hellos_read_as_version_1() -> list[bytes]:
    """HELLO lines of this version cut after two checksum digits whose CRC-8 holds."""
    found: list[bytes] = []
    body_tail = f" HELLO P={PROTOCOL_VERSION} F=10 R=8 L=80 FW=0.1.0 ID=E6614C311B4F7E2A"
    for tag in range(20):  # one value varied, until some are found
        for seq in range(256):
            body = f"{seq:02X}{body_tail} X={tag}".encode()
            line = b"$" + body + b"*%08X" % crc32(body)
            cut = line[: len(body) + 4]  # "$", body, "*", two digits
            if int(cut[-2:], 16) == crc8_smbus(body):
                found.append(cut + b"\n")
        if len(found) >= 2:
            return found
    return found


def test_a_damaged_version_2_hello_whose_8_bit_check_holds_is_not_a_version_1_peer() -> None:
    damaged = _damaged_v2_hellos_read_as_version_1()
    assert damaged  # the issue found 2 in 256
    for line in damaged:
        s = Session()
        s.feed(Tick())
        got = s.feed(Received(line))
        assert not [a for a in got if isinstance(a, StateChanged)], line
        assert s.link.state is LinkState.CONNECTING and s.link.counters["VER"] == 0
        s.device(DEVICE_HELLO)  # the next HELLO brings it up
        assert s.link.state is LinkState.UP


def test_an_old_hello_replayed_with_old_snapshots_never_brings_an_old_board_back() -> None:
    """A replayed run that holds the device's old HELLO starts a new count,
    in which the old snapshots behind it are in order: the first snapshot
    after a HELLO mid-session is held, and a burst never confirms itself."""
    s = up()
    old = START ^ 1 << 14
    s.device(Snap(old))
    s.now += 0.5
    new = old | 1 << 30
    s.device(Snap(new))
    start = len(s.actions)
    s.now += 0.5
    s.device(DEVICE_HELLO, seq=0)  # replayed at one instant ...
    s.device(Snap(old), seq=1)  # ... with two old snapshots
    s.device(Snap(old), seq=2)
    assert snapshots(s.actions[start:]) == []
    s.now += HEARTBEAT  # the device's own next heartbeat
    s.device(Snap(new), seq=(s.seq + 1) % 256)
    s.now += HEARTBEAT
    s.device(Snap(new), seq=(s.seq + 2) % 256)
    assert snapshots(s.actions[start:]) == [new]


def test_a_device_that_restarts_mid_game_is_read_again_after_one_heartbeat() -> None:
    s = up(START)
    s.now = 5.0
    s.device(s.reboot())  # it restarted: its next boot, a new count
    assert snapshots(s.device(Snap(START ^ 1 << 14))) == []
    s.now += HEARTBEAT
    got = s.device(Snap(START ^ 1 << 14))
    assert [a for a in got if isinstance(a, SnapshotReceived)] == [
        SnapshotReceived(START ^ 1 << 14, 5.0 + HEARTBEAT)
    ]


def test_a_held_jump_is_not_confirmed_by_a_copy_in_the_same_burst() -> None:
    s = up(START)
    swept = far_from(START, MAX_HAND_CHANGE + 1)
    assert snapshots(s.device(Snap(swept))) == []
    assert snapshots(s.device(Snap(swept))) == []  # at the same instant: one burst
    assert snapshots(s.heartbeats(swept)) == [swept]


def test_the_device_hello_that_answers_ours_is_no_restart_even_after_its_boot_hello() -> None:
    """A device that booted before the port was opened: its boot HELLO
    brings the link up, then it answers our HELLO with an ACK and a HELLO
    of its own (PROTOCOL.md 7.2).  That answer is no restart: the snapshot
    after it is taken at once, not held for a heartbeat, and none is counted
    stale.  (Under load the two HELLOs cross either way; time need not move.)"""
    s = Session()
    ours = sent(s.feed(Tick()))[0]
    assert isinstance(ours.message, Hello)
    s.device(DEVICE_HELLO)  # the boot HELLO, read first
    assert s.link.state is LinkState.UP
    s.device(Ack(ours.seq))  # then the answer to ours
    s.device(s.answer(ours))
    assert s.link.answered
    assert snapshots(s.device(Snap(START))) == [START]
    assert s.link.counters["HELD"] == 0 and s.link.counters["STALE"] == 0


def test_a_device_hello_long_after_the_ack_of_ours_is_a_restart() -> None:
    s = Session()
    ours = sent(s.feed(Tick()))[0]
    s.device(DEVICE_HELLO)
    s.device(Ack(ours.seq))
    s.now += 1.0  # not the answer: a restart, or a replay
    s.device(DEVICE_HELLO, seq=0)
    assert not s.link.answered
    assert snapshots(s.device(Snap(START), seq=1)) == []


# --------------------------------------------------------------------- old lines, stamped


def test_old_heartbeats_from_further_back_than_the_window_never_bring_an_old_board_back() -> None:
    """Three heartbeats from 43 lines back, delivered again 50 ms apart: their
    numbers, counting round at 256, re-anchored the count, and the old board
    came back for 1.8 s.  Each snapshot's stamp says it is older."""
    s = up()
    s.heartbeats(START, 3)  # of the old board
    old = s.lines[-3:]
    moved = START ^ 1 << 14
    s.heartbeats(moved, 44)  # a piece lifted, and the board still for a while
    start = len(s.actions)
    s.deliver_again(old)
    s.heartbeats(moved, 3)
    assert START not in snapshots(s.actions[start:])
    assert s.link.counters["OLDSNAP"] >= 1


def test_old_lines_delivered_again_after_the_device_restarted_are_never_believed() -> None:
    """Lines from before a restart, its HELLO among them, delivered after it:
    the HELLO names an older boot and answers none of the host's, and the
    snapshots are stamped with that boot."""
    s = up()
    s.heartbeats(START, 3)
    before = list(s.lines)  # the HELLO of the last boot among them
    s.device(s.reboot())  # restarted, with a piece lifted meanwhile
    moved = START ^ 1 << 14
    s.heartbeats(moved, 2)
    start = len(s.actions)
    s.deliver_again(before)
    s.heartbeats(moved)
    assert START not in snapshots(s.actions[start:])
    assert s.link.counters["OLDHELLO"] == 1 and s.link.device == device_hello(s.epoch)


def test_a_device_that_counts_its_boots_from_further_back_is_heard_once_it_answers() -> None:
    """Its flash erased, a device names an older boot than before: the host
    says HELLO, and believes the answer that repeats its nonce."""
    s = up(START)
    s.epoch = 0  # the next boot is boot 1: the count started again
    s.now += HEARTBEAT
    got = s.device(s.reboot())
    assert s.link.counters["OLDHELLO"] == 1
    (ours,) = [f for f in sent(got) if isinstance(f.message, Hello)]
    s.device(Ack(ours.seq))
    s.device(s.answer(ours))
    moved = START ^ 1 << 14
    s.now += 0.1
    assert snapshots(s.device(Snap(moved))) == [moved]
