"""The wire protocol to the board's microcontroller, host side.

The specification is ``firmware/PROTOCOL.md``; the firmware implements the
same spec in ``firmware/protocol.py`` and both are checked against
``firmware/vectors.txt``.  In short: one printable-ASCII line per message,
``$<seq> <COMMAND> <args>*<crc32>``, full occupancy snapshots from the device
(on change and once a second), LED frames as one palette digit per LED from
the host, ACK/NAK with bounded retries, and every damaged line dropped and
counted by reason.  A snapshot that jumps further than a hand can move, or
that follows missing lines, is held until the next one confirms it.

This module does no I/O and reads no clock.  It has three layers:

* the codec: :func:`encode` and :func:`decode` turn a :class:`Frame` (a
  sequence number and a message) into a line and back;
* :class:`LineAssembler`: bytes from the port in, whole frames or
  :class:`DropReason` out, so the link resynchronises after any garbage;
* :class:`HostLink`: the host's state machine, ``feed(event, now)`` returns
  the actions to carry out (bytes to write, snapshots to pass on, state
  changes to show).  ``now`` is in seconds from any monotonic clock.

Example::

    link = HostLink(BoardShape(files=10, ranks=8, leds=80))
    for action in link.feed(Tick(), now=0.0):
        if isinstance(action, Send):
            port.write(action.data)     # b"$00 HELLO P=2 SW=boardctl-0.1.0*C0C5B4F9\\n"
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from .. import __version__
from ..colour import Colour
from ..errors import BoardctlError

PROTOCOL_VERSION = 2
SUPPORTED_VERSIONS = frozenset({2})
MAX_LINE = 200  # bytes from "$" to the last checksum digit, terminator excluded
CHECK_DIGITS = 8  # the CRC-32, in upper-case hex
# A hand changes at most this many squares between two snapshots (20 ms or
# more apart): two hands, each lifting or putting down two pieces.  A snapshot
# that differs more from the last one passed on is held until the next one
# confirms it (PROTOCOL.md, "Accepting a snapshot").
MAX_HAND_CHANGE = 4
SEQ_MODULO = 256
PALETTE_SIZE = 15  # indices 1-15; 0 is always off
MAX_FILES = 16
MAX_RANKS = 16
MAX_LEDS = 180
# Boards that are not files × ranks, as the device names them in HELLO's
# ``B`` key, with their number of cells.  A cell is numbered as in the rules
# core's geometry for that board (boardctl/rules/hexgeo.py for "hex121":
# by rank, then file, lowest first).
BOARDS: dict[str, int] = {"hex121": 121}
BOARD_KEY = "B"

# Timing, in seconds (PROTOCOL.md, "Timing").
HEARTBEAT = 1.0  # the device sends a SNAP at least this often
SNAP_SPACING = 0.010  # half the device's 20 ms between two SNAPs: two closer
# than this are one burst (a replay), and never confirm each other
ACK_TIMEOUT = 0.25  # an unacknowledged line is sent again after this long ...
MAX_RETRIES = 3  # ... at most this many times, then given up
LINK_TIMEOUT = 3.0  # no valid line for this long: the peer is gone
HELLO_INTERVAL = 1.0  # HELLO is repeated this often until answered
LED_REFRESH = 5.0  # the host repeats palette and LED frame this often


DEFAULT_PALETTE: tuple[Colour, ...] = (
    (255, 0, 0),
    (0, 255, 0),
    (0, 0, 255),
    (255, 255, 0),
    (0, 255, 255),
    (255, 0, 255),
    (255, 255, 255),
    (255, 128, 0),
    (128, 0, 0),
    (0, 128, 0),
    (0, 0, 128),
    (128, 128, 0),
    (0, 128, 128),
    (128, 0, 128),
    (128, 128, 128),
)

COUNTER_NAMES = (
    "RX",
    "TX",
    "NOISE",
    "TRUNC",
    "LONG",
    "CHAR",
    "FORMAT",
    "CRC",
    "CMD",
    "ARG",
    "VER",
    "DUP",
    "LOST",
    "RETRY",
    "GIVEUP",
    "NAKRX",
    "STALE",
)
# The host's own: snapshots held for confirmation, those the next one did not
# confirm, and those older than the last one passed on (a replayed run).
HOST_COUNTER_NAMES = ("HELD", "UNCONFIRMED", "OLDSNAP")
# Lines before the last snapshot passed on that are taken as old: a USB hub
# or adapter replays a few lines of its buffer, never a few dozen.
REPLAY_WINDOW = 32

_HEX = "0123456789ABCDEF"
_NUMBER_KEYS = ("P", "F", "R", "L")
_KEY_FIRST = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_KEY_REST = _KEY_FIRST + "0123456789"
_VALUE_CHARS = frozenset(_KEY_REST + "abcdefghijklmnopqrstuvwxyz._:+-")
_WHITESPACE = frozenset(b" \t\r")


def crc32(data: bytes) -> int:
    """The line checksum, CRC-32 as zlib and Ethernet compute it (polynomial
    0x04C11DB7 reflected, initial value and final XOR 0xFFFFFFFF);
    ``crc32(b"123456789") == 0xCBF43926``."""
    return zlib.crc32(data)


def _crc8(data: bytes) -> int:
    """Protocol version 1's checksum (CRC-8/SMBUS), only to recognise a
    version-1 HELLO and say which version the peer speaks."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc << 1 ^ 0x07) & 0xFF if crc & 0x80 else crc << 1 & 0xFF
    return crc


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class BoardShape:
    """What the device reports in its HELLO: files, ranks and LED count, or
    for a board that is not a rectangle its name (``board``, a key of
    :data:`BOARDS`) and LED count, with ``files`` and ``ranks`` None.

    The decoder needs it for the length of SNAP and LED arguments.

    :raises ValueError: for a shape the protocol cannot carry.
    """

    files: int | None = 10
    ranks: int | None = 8
    leds: int = 80
    board: str | None = None

    def __post_init__(self) -> None:
        if self.board is None:
            if not (
                self.files is not None
                and self.ranks is not None
                and 1 <= self.files <= MAX_FILES
                and 1 <= self.ranks <= MAX_RANKS
                and 1 <= self.leds <= MAX_LEDS
            ):
                raise ValueError(f"board shape out of range: {self}")
        elif (
            self.board not in BOARDS
            or self.files is not None
            or self.ranks is not None
            or self.leds != BOARDS[self.board]
        ):
            raise ValueError(f"not a board the protocol knows: {self}")

    @classmethod
    def named(cls, board: str) -> BoardShape:
        """A board of :data:`BOARDS` with one LED per cell.

        :raises ValueError: for a name not in :data:`BOARDS`.
        """
        if board not in BOARDS:
            raise ValueError(f"no board {board!r} (known: {', '.join(BOARDS)})")
        return cls(None, None, BOARDS[board], board)

    @property
    def squares(self) -> int:
        """The number of squares (cells): the bits of a SNAP."""
        if self.files is None or self.ranks is None:
            return BOARDS[self.board or ""]
        return self.files * self.ranks

    def describe(self) -> str:
        """In words, for the one line that says two shapes differ."""
        if self.files is None or self.ranks is None:
            return f"the {self.squares}-cell hexagon ({BOARD_KEY}={self.board}, {self.leds} LEDs)"
        return f"a {self.files}×{self.ranks} rectangle of squares ({self.leds} LEDs)"

    @property
    def snap_digits(self) -> int:
        """Hex digits in a SNAP: one per four squares, rounded up."""
        return (self.squares + 3) // 4


DEFAULT_SHAPE = BoardShape()


class DropReason(Enum):
    """Why a received line was dropped; the value is its counter's name."""

    NOISE = "NOISE"  # text outside a frame (not just whitespace)
    TRUNC = "TRUNC"  # a frame cut short by the next "$"
    LONG = "LONG"  # a frame longer than MAX_LINE
    CHAR = "CHAR"  # a byte outside printable ASCII inside a frame
    FORMAT = "FORMAT"  # not "$" body "*" two hex digits, or no seq/command
    CRC = "CRC"  # checksum mismatch
    CMD = "CMD"  # unknown command (or one the receiver does not take)
    ARG = "ARG"  # known command, bad arguments
    VER = "VER"  # HELLO with a protocol version the receiver does not speak


class NakReason(Enum):
    """The reason a NAK gives.  Only CRC asks for the line again at once."""

    CRC = "CRC"
    CMD = "CMD"
    ARG = "ARG"
    VER = "VER"


@dataclass(frozen=True)
class Hello:
    """``HELLO``: who is talking.  The device gives files, ranks and LED count;
    ``info`` holds every other ``KEY=value`` pair (``FW``, ``SW``, ``ID``, …) in order."""

    version: int = PROTOCOL_VERSION
    files: int | None = None
    ranks: int | None = None
    leds: int | None = None
    info: tuple[tuple[str, str], ...] = ()

    @property
    def board(self) -> str | None:
        """The ``B`` key: the name of a board that is not a rectangle, or None."""
        return dict(self.info).get(BOARD_KEY)

    def shape(self) -> BoardShape | None:
        """The board shape announced, or None if the HELLO has none (or one
        that does not hold together: a named board with files and ranks, or
        with another LED count than its cells)."""
        if self.leds is None:
            return None
        try:
            if self.board is None:
                if self.files is None or self.ranks is None:
                    return None
                return BoardShape(self.files, self.ranks, self.leds)
            return BoardShape(self.files, self.ranks, self.leds, self.board)
        except ValueError:
            return None

    def describe_board(self) -> str:
        """The announced board in words, also when :meth:`shape` is None."""
        shape = self.shape()
        if shape is not None:
            return shape.describe()
        if self.board is not None and self.board not in BOARDS:
            return f"a board this boardctl does not know ({BOARD_KEY}={self.board})"
        given = " ".join(
            f"{k}={v}"
            for k, v in (
                ("F", self.files),
                ("R", self.ranks),
                ("L", self.leds),
                (BOARD_KEY, self.board),
            )
            if v is not None
        )
        return f"no board shape that holds together ({given or 'nothing announced'})"


@dataclass(frozen=True)
class Snap:
    """``SNAP``: every square's occupancy, bit ``sq`` set = occupied (a1 = 0)."""

    occupancy: int


@dataclass(frozen=True)
class Led:
    """``LED``: a palette index (0 = off, 1-15) for every LED, in LED order."""

    indices: tuple[int, ...]


@dataclass(frozen=True)
class Palette:
    """``PAL``: colours for palette indices 1, 2, …; the indices not given are off."""

    colours: tuple[Colour, ...]


@dataclass(frozen=True)
class Stat:
    """``STAT``: the host asks the device for its counters."""


@dataclass(frozen=True)
class Counters:
    """``COUNTERS``: some of the device's counters, as (name, value) pairs."""

    values: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Ack:
    """``ACK``: the line with sequence number ``ref`` was received and carried out."""

    ref: int


@dataclass(frozen=True)
class Nak:
    """``NAK``: the line with sequence number ``ref`` was refused."""

    ref: int
    reason: NakReason


Message = Hello | Snap | Led | Palette | Stat | Counters | Ack | Nak


@dataclass(frozen=True)
class Frame:
    """One line: the sender's sequence number (0-255) and the message."""

    seq: int
    message: Message


class ProtocolError(BoardctlError, ValueError):
    """A line that cannot be accepted.  ``reason`` is the counter it goes to;
    ``nak`` is the sequence number to answer with a NAK, or None for no answer;
    ``version`` the protocol version of a HELLO refused as ``VER``."""

    def __init__(
        self,
        reason: DropReason,
        nak: int | None = None,
        detail: str = "",
        version: int | None = None,
    ) -> None:
        super().__init__(f"{reason.value.lower()}: {detail}" if detail else reason.value.lower())
        self.reason = reason
        self.nak = nak
        self.version = version


# --------------------------------------------------------------------------- encoding


def _check(condition: bool, what: str) -> None:
    if not condition:
        raise ValueError(f"cannot encode: {what}")


def _is_key(text: str) -> bool:
    return bool(text) and text[0] in _KEY_FIRST and all(c in _KEY_REST for c in text)


def _is_value(text: str) -> bool:
    return bool(text) and all(c in _VALUE_CHARS for c in text)


def _args(message: Message, shape: BoardShape) -> tuple[str, list[str]]:
    match message:
        case Hello(version, files, ranks, leds, info):
            _check(version >= 0, "protocol version")
            for value, high in ((files, MAX_FILES), (ranks, MAX_RANKS), (leds, MAX_LEDS)):
                _check(value is None or 1 <= value <= high, "board shape in HELLO")
            pairs = zip(_NUMBER_KEYS, (version, files, ranks, leds), strict=True)
            args = [f"{key}={value}" for key, value in pairs if value is not None]
            for key, text in info:
                _check(
                    _is_key(key) and key not in _NUMBER_KEYS and _is_value(text),
                    f"HELLO {key}={text}",
                )
                args.append(f"{key}={text}")
            return "HELLO", args
        case Snap(occupancy):
            _check(0 <= occupancy < 1 << shape.squares, "occupancy out of range")
            return "SNAP", [f"{occupancy:0{shape.snap_digits}X}"]
        case Led(indices):
            _check(
                len(indices) == shape.leds and all(0 <= i <= PALETTE_SIZE for i in indices),
                "LED frame does not fit the board shape",
            )
            return "LED", ["".join(_HEX[i] for i in indices)]
        case Palette(colours):
            _check(
                1 <= len(colours) <= PALETTE_SIZE
                and all(len(c) == 3 and all(0 <= v <= 255 for v in c) for c in colours),
                "palette",
            )
            return "PAL", [f"{r:02X}{g:02X}{b:02X}" for r, g, b in colours]
        case Stat():
            return "STAT", []
        case Counters(values):
            _check(all(_is_key(k) and v >= 0 for k, v in values), "counters")
            return "COUNTERS", [f"{k}={v}" for k, v in values]
        case Ack(ref):
            _check(0 <= ref < SEQ_MODULO, "ACK reference")
            return "ACK", [f"{ref:02X}"]
        case Nak(ref, reason):
            _check(0 <= ref < SEQ_MODULO, "NAK reference")
            return "NAK", [f"{ref:02X}", reason.value]
    raise TypeError(f"not a message: {message!r}")


def encode(frame: Frame, shape: BoardShape = DEFAULT_SHAPE) -> bytes:
    """The line for ``frame``, with its checksum and LF terminator.

    :raises ValueError: if the message does not fit the protocol or ``shape``.
    """
    _check(0 <= frame.seq < SEQ_MODULO, "sequence number")
    command, args = _args(frame.message, shape)
    body = " ".join([f"{frame.seq:02X}", command, *args]).encode("ascii")
    line = b"$" + body + b"*" + f"{crc32(body):0{CHECK_DIGITS}X}".encode("ascii")
    _check(len(line) <= MAX_LINE, f"line longer than {MAX_LINE} bytes")
    return line + b"\n"


# --------------------------------------------------------------------------- decoding


def _is_hex(text: str, digits: int) -> bool:
    return len(text) == digits and all(c in _HEX for c in text)


def _decimal(text: str) -> int | None:
    """A canonical decimal (no sign, no leading zero), or None."""
    if not text or len(text) > 10 or not all("0" <= c <= "9" for c in text):
        return None
    if len(text) > 1 and text[0] == "0":
        return None
    return int(text)


def _pairs(args: list[str], seq: int) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for arg in args:
        key, eq, value = arg.partition("=")
        if not eq or not _is_key(key) or not _is_value(value) or any(k == key for k, _ in pairs):
            raise ProtocolError(DropReason.ARG, seq, f"bad pair {arg!r}")
        pairs.append((key, value))
    return pairs


def _decode_hello(args: list[str], seq: int) -> Hello:
    fields = dict(_pairs(args, seq))
    if "P" not in fields or _decimal(fields["P"]) is None:
        raise ProtocolError(DropReason.ARG, seq, "HELLO without a protocol version")
    version = int(fields["P"])
    if version not in SUPPORTED_VERSIONS:
        raise ProtocolError(DropReason.VER, seq, f"protocol version {version}", version)
    numbers: dict[str, int] = {}
    for key, high in (("F", MAX_FILES), ("R", MAX_RANKS), ("L", MAX_LEDS)):
        if key in fields:
            value = _decimal(fields[key])
            if value is None or not 1 <= value <= high:
                raise ProtocolError(DropReason.ARG, seq, f"HELLO {key}={fields[key]}")
            numbers[key] = value
    info = tuple((k, v) for k, v in fields.items() if k not in _NUMBER_KEYS)
    return Hello(version, numbers.get("F"), numbers.get("R"), numbers.get("L"), info)


def _decode_message(command: str, args: list[str], seq: int, shape: BoardShape) -> Message:
    def need(ok: bool, what: str) -> None:
        if not ok:
            raise ProtocolError(DropReason.ARG, seq, f"{command}: {what}")

    match command:
        case "HELLO":
            return _decode_hello(args, seq)
        case "SNAP":
            need(len(args) == 1 and _is_hex(args[0], shape.snap_digits), "occupancy digits")
            occupancy = int(args[0], 16)
            need(occupancy < 1 << shape.squares, "bits beyond the last square")
            return Snap(occupancy)
        case "LED":
            need(len(args) == 1 and _is_hex(args[0], shape.leds), "one digit per LED")
            return Led(tuple(_HEX.index(c) for c in args[0]))
        case "PAL":
            need(1 <= len(args) <= PALETTE_SIZE and all(_is_hex(a, 6) for a in args), "colours")
            return Palette(tuple((int(a[0:2], 16), int(a[2:4], 16), int(a[4:6], 16)) for a in args))
        case "STAT":
            need(not args, "no arguments")
            return Stat()
        case "COUNTERS":
            pairs = _pairs(args, seq)
            values = tuple((k, _decimal(v)) for k, v in pairs)
            need(all(v is not None for _, v in values), "decimal values")
            return Counters(tuple((k, v) for k, v in values if v is not None))
        case "ACK":
            need(len(args) == 1 and _is_hex(args[0], 2), "reference")
            return Ack(int(args[0], 16))
        case "NAK":
            need(
                len(args) == 2 and _is_hex(args[0], 2) and args[1] in NakReason.__members__,
                "reference and reason",
            )
            return Nak(int(args[0], 16), NakReason[args[1]])
    raise ProtocolError(DropReason.CMD, seq, f"unknown command {command!r}")


def decode(frame: bytes, shape: BoardShape = DEFAULT_SHAPE) -> Frame:
    """The :class:`Frame` in one frame as :class:`LineAssembler` gives it
    (from ``$`` to the checksum, no terminator).

    :raises ProtocolError: with the reason to count and whether to NAK.
    """
    if len(frame) > MAX_LINE:
        raise ProtocolError(DropReason.LONG)
    if any(not 0x20 <= b <= 0x7E for b in frame):
        raise ProtocolError(DropReason.CHAR)
    text = frame.decode("ascii")
    star = text.find("*")
    if not text.startswith("$") or star < 0 or not _is_hex(text[star + 1 :], CHECK_DIGITS):
        _refuse_version_1(text, star)
        raise ProtocolError(DropReason.FORMAT, None, f"not $body*{'C' * CHECK_DIGITS}")
    body = text[1:star]
    if crc32(body.encode("ascii")) != int(text[star + 1 :], 16):
        claimed = body[:2] if body[2:3] in ("", " ") else ""
        raise ProtocolError(DropReason.CRC, int(claimed, 16) if _is_hex(claimed, 2) else None)
    tokens = body.split(" ")
    if len(tokens) < 2 or not _is_hex(tokens[0], 2) or "" in tokens:
        raise ProtocolError(DropReason.FORMAT, None, "not 'SS COMMAND args'")
    seq = int(tokens[0], 16)
    return Frame(seq, _decode_message(tokens[1], tokens[2:], seq, shape))


def _refuse_version_1(text: str, star: int) -> None:
    """A version-1 HELLO (two-digit CRC-8) says who is talking: refuse it as
    ``VER`` with its version, so the user learns which side to update rather
    than watching a link that never comes up.  Anything else of version 1 is
    only a badly formed line.

    :raises ProtocolError: ``VER`` (no NAK: the peer could not read it).
    """
    body = text[1:star]
    if (
        star < 0
        or not _is_hex(text[star + 1 :], 2)
        or not text.startswith("$")
        or _crc8(body.encode("ascii")) != int(text[star + 1 :], 16)
    ):
        return
    tokens = body.split(" ")
    if len(tokens) < 3 or tokens[1] != "HELLO" or not _is_hex(tokens[0], 2):
        return
    version = _decimal(dict(arg.partition("=")[::2] for arg in tokens[2:]).get("P", ""))
    # A version this side speaks in a version-1 frame is a damaged line of
    # that version whose 8-bit check happens to hold (1 in 256), never a peer.
    if version is not None and version not in SUPPORTED_VERSIONS:
        raise ProtocolError(DropReason.VER, None, f"protocol version {version}", version)


class LineAssembler:
    """Cuts a byte stream into frames.

    ``feed`` returns, in order, each complete frame (``$`` … checksum, the LF
    and a CR right before it removed) and a :class:`DropReason` for each piece
    of garbage, truncated or overlong frame.  A ``$`` always starts a new
    frame, so one damaged line never costs the next one.
    """

    def __init__(self) -> None:
        self._frame: bytearray | None = None  # collecting a frame since its "$"
        self._overlong = False
        self._junk = False  # non-whitespace seen outside a frame

    def feed(self, data: bytes) -> list[bytes | DropReason]:
        out: list[bytes | DropReason] = []
        for byte in data:
            if byte == 0x24 or byte == 0x0A:  # "$" or LF: a boundary
                frame = self._frame
                if frame is not None:
                    if byte == 0x0A and frame.endswith(b"\r"):
                        del frame[-1]
                    if self._overlong or len(frame) > MAX_LINE:
                        out.append(DropReason.LONG)
                    elif byte == 0x24:
                        out.append(DropReason.TRUNC)
                    else:
                        out.append(bytes(frame))
                elif self._junk:
                    out.append(DropReason.NOISE)
                self._frame = bytearray(b"$") if byte == 0x24 else None
                self._overlong = self._junk = False
            elif self._frame is not None:
                if len(self._frame) <= MAX_LINE:  # room for one CR before the LF
                    self._frame.append(byte)
                else:
                    self._overlong = True
            elif byte not in _WHITESPACE:
                self._junk = True
        return out


# --------------------------------------------------------------------------- the link


class LinkState(Enum):
    CONNECTING = "connecting"  # no device HELLO yet (or the device went quiet)
    UP = "up"  # snapshots flow
    INCOMPATIBLE = "incompatible"  # the device speaks another version or board shape


@dataclass(frozen=True)
class Received:
    """Bytes read from the port."""

    data: bytes


@dataclass(frozen=True)
class Tick:
    """Time passed; feed one at least every ``ACK_TIMEOUT / 2`` seconds."""


@dataclass(frozen=True)
class ShowLeds:
    """Show this LED frame: a palette index per LED (0 = off), in LED order."""

    indices: tuple[int, ...]


@dataclass(frozen=True)
class SetPalette:
    """Use these colours for palette indices 1, 2, … (at most 15)."""

    colours: tuple[Colour, ...]


@dataclass(frozen=True)
class RequestCounters:
    """Ask the device for its counters (answered by :class:`DeviceCounters`)."""


@dataclass(frozen=True)
class Reopened:
    """The port was closed and opened again: start the link afresh."""


Event = Received | Tick | ShowLeds | SetPalette | RequestCounters | Reopened


@dataclass(frozen=True)
class Send:
    """Write these bytes to the port (never more than one line)."""

    data: bytes


@dataclass(frozen=True)
class SnapshotReceived:
    """The device reported this occupancy (on a change or as a heartbeat)."""

    occupancy: int
    time: float


@dataclass(frozen=True)
class StateChanged:
    """The link changed state; ``detail`` says why, for the display and the log."""

    state: LinkState
    detail: str


@dataclass(frozen=True)
class DeviceCounters:
    """Counters the device reported after a :class:`RequestCounters`."""

    values: tuple[tuple[str, int], ...]


Action = Send | SnapshotReceived | StateChanged | DeviceCounters

_FROM_DEVICE = (Hello, Snap, Counters, Ack, Nak)  # LED, PAL and STAT go the other way


def version_mismatch(version: int | None) -> str:
    """The one line that says which side to update when the versions differ."""
    if version is None:
        return "the board's firmware refused this boardctl's protocol version"
    fix = (
        "install the firmware from this boardctl's firmware/ directory (firmware/README.md)"
        if version < PROTOCOL_VERSION
        else "update boardctl"
    )
    return (
        f"the board's firmware speaks protocol version {version}, this boardctl "
        f"speaks {PROTOCOL_VERSION}: {fix}"
    )


@dataclass
class _Pending:
    """A sent line waiting for its ACK."""

    seq: int
    kind: type
    line: bytes
    sent: float
    retries: int = 0


class _SeqTracker:
    """Counts repeated (DUP) and missing (LOST) sequence numbers from the peer.

    A stray line from far ahead (a stale copy numbered just below the last
    one, seen from the other side of the 256 wrap) would leave every line
    after it looking like a repeat; two lines in a row judged repeats that
    number consecutively re-anchor the count on them (PROTOCOL.md, section 4).
    """

    def __init__(self, last: int | None = None) -> None:
        self.last = last
        self._repeat: int | None = None  # the last line judged a repeat
        # The number of the line whose snapshot was last passed on: in this
        # numbering no snapshot numbered at or before it is ever used again,
        # whatever re-anchoring does (a replayed run of old lines re-anchors).
        self.passed_on: int | None = None

    def older_than_passed_on(self, seq: int) -> bool:
        """True if ``seq`` is the line of the last snapshot passed on or one of
        the REPLAY_WINDOW lines before it.  Further back is not a replay of
        recent lines but a count gone astray (a stale line from far ahead
        moved it), which re-anchoring repairs: refusing those would leave the
        host deaf until the count came round."""
        if self.passed_on is None:
            return False
        return (self.passed_on - seq) % SEQ_MODULO < REPLAY_WINDOW

    def see(self, seq: int, counters: dict[str, int]) -> int | None:
        """How many lines went missing before ``seq``; None if ``seq`` does
        not advance (a repeat or an older line), which is then not to be used."""
        if self.last is None:
            self.last = seq
            return 0
        gap = (seq - self.last - 1) % SEQ_MODULO
        if gap >= SEQ_MODULO // 2:  # the last one again, or older: a repeat
            chained = self._repeat is not None and seq == (self._repeat + 1) % SEQ_MODULO
            self._repeat = seq
            if not chained:
                counters["DUP"] += 1
                return None
            gap = 1  # re-anchored: judged as after missing lines
        self._repeat = None
        counters["LOST"] += gap
        self.last = seq
        return gap


def squares_changed(before: int, after: int) -> int:
    """How many squares differ between two occupancies."""
    return (before ^ after).bit_count()


class HostLink:
    """The host end of the link (PROTOCOL.md, "Link rules").

    Feed it every event with the current time (seconds, any monotonic
    clock); carry out the actions it returns, in order.  It never blocks,
    never reads a clock, and never raises for anything the device sends:
    bad input is dropped and counted in :attr:`counters`.

    ``shape`` is the board the configuration expects; a device that
    announces another one makes the link :attr:`LinkState.INCOMPATIBLE`.
    """

    def __init__(
        self, shape: BoardShape = DEFAULT_SHAPE, software: str = f"boardctl-{__version__}"
    ) -> None:
        if not _is_value(software):
            raise ValueError(f"software name {software!r} is not a HELLO value")
        self.shape = shape
        self.software = software
        self._state = LinkState.CONNECTING
        self._device: Hello | None = None
        self._counters = dict.fromkeys(COUNTER_NAMES + HOST_COUNTER_NAMES, 0)
        self._assembler = LineAssembler()
        self._tracker = _SeqTracker()
        self._seq = 0
        self._pending: list[_Pending] = []
        self._last_rx: float | None = None
        self._last_hello: float | None = None
        self._last_refresh: float | None = None
        self._leds: tuple[int, ...] = (0,) * shape.leds
        self._palette: tuple[Colour, ...] = DEFAULT_PALETTE
        self._sent_leds: tuple[int, ...] | None = None
        self._sent_palette: tuple[Colour, ...] | None = None
        # Snapshots: the last one passed on (kept across sessions: the pieces
        # stay where they are), and one waiting for the next to confirm it.
        self._accepted: int | None = None
        self._held: int | None = None
        self._held_at = 0.0
        self._held_seq = 0
        # After a HELLO mid-session (the device restarted, or an old HELLO
        # replayed with old snapshots behind it) the next snapshot is held.
        self._recheck = False
        # The device answers a host HELLO with an ACK and its own HELLO
        # (PROTOCOL.md 7.2).  Its boot HELLO may have brought the link up
        # first: the answer that follows the ACK is no restart.  Our recent
        # HELLOs' numbers, and until when a device HELLO is such an answer.
        self._hello_seqs: dict[int, float] = {}  # number -> when sent
        self._answer_until: float | None = None
        self.answered = False  # the last device HELLO answered one of ours
        self._doubt = False  # a line was lost or damaged since the last snapshot

    @property
    def state(self) -> LinkState:
        return self._state

    @property
    def healthy(self) -> bool:
        """True while snapshots flow."""
        return self._state is LinkState.UP

    @property
    def device(self) -> Hello | None:
        """The device's last HELLO."""
        return self._device

    @property
    def behind(self) -> bool:
        """True while the last snapshot passed on may no longer be the board:
        one is held for confirmation, or a line went missing or arrived
        damaged since (it may have been a SNAP).  The next snapshot passed
        on settles it, a heartbeat at the latest."""
        return self._state is not LinkState.UP or self._held is not None or self._doubt

    @property
    def counters(self) -> Mapping[str, int]:
        """This end's counters, named as in the device's COUNTERS."""
        return dict(self._counters)

    def feed(self, event: Event, now: float) -> list[Action]:
        """Handle one event; return what to do, in order.

        :raises ValueError: for an LED frame or palette that does not fit the board.
        """
        actions: list[Action] = []
        match event:
            case Received(data):
                for item in self._assembler.feed(data):
                    if isinstance(item, DropReason):
                        self._counters[item.value] += 1
                        self._doubt = True
                    else:
                        self._receive(item, now, actions)
            case ShowLeds(indices):
                encode(Frame(0, Led(tuple(indices))), self.shape)  # validates
                self._leds = tuple(indices)
                if self._state is LinkState.UP and self._leds != self._sent_leds:
                    self._send_leds(now, actions)
            case SetPalette(colours):
                encode(Frame(0, Palette(tuple(colours))), self.shape)  # validates
                self._palette = tuple(colours)
                if self._state is LinkState.UP and self._palette != self._sent_palette:
                    self._send_palette(now, actions)
            case RequestCounters():
                if self._state is LinkState.UP:
                    self._send(Stat(), now, actions)
            case Reopened():
                self._pending.clear()
                self._assembler = LineAssembler()
                self._tracker = _SeqTracker()
                self._held = None
                self._last_rx = None
                self._set_state(LinkState.CONNECTING, "port reopened", actions)
                self._last_hello = None
            case Tick():
                pass
        self._service(now, actions)
        return actions

    # -- receiving

    def _receive(self, raw: bytes, now: float, actions: list[Action]) -> None:
        try:
            frame = decode(raw, self.shape)
        except ProtocolError as error:
            self._counters[error.reason.value] += 1
            self._doubt = True
            if error.nak is not None:
                if error.reason is not DropReason.CRC:  # the checksum held: it is them
                    self._heard(error.nak, now, error.reason is DropReason.VER)
                self._send(Nak(error.nak, NakReason[error.reason.value]), now, actions)
            if error.reason is DropReason.VER:
                self._last_rx = now  # a sign of life all the same
                self._device = None
                self._set_state(LinkState.INCOMPATIBLE, version_mismatch(error.version), actions)
            return
        message = frame.message
        if not isinstance(message, _FROM_DEVICE):  # LED, PAL, STAT go the other way
            self._counters["CMD"] += 1
            self._heard(frame.seq, now)
            self._send(Nak(frame.seq, NakReason.CMD), now, actions)
            return
        self._counters["RX"] += 1
        gap = self._heard(frame.seq, now, isinstance(message, Hello))
        match message:
            case Ack(ref):
                hello_sent = self._hello_seqs.pop(ref, None)
                if hello_sent is not None and now - hello_sent < LINK_TIMEOUT:
                    # Its HELLO follows in the same step of the device's loop.
                    self._take(ref)
                    self._answer_until = now + ACK_TIMEOUT
                elif self._take(ref) is None:
                    self._counters["STALE"] += 1
            case Nak(ref, reason):
                self._counters["NAKRX"] += 1
                self._nak(ref, reason, now, actions)
            case Hello():
                self._send(Ack(frame.seq), now, actions)
                self._hello(message, now, actions)
            case Snap(occupancy):
                self._send(Ack(frame.seq), now, actions)
                if self._state is LinkState.UP and gap is not None:
                    self._snapshot(frame.seq, occupancy, gap, now, actions)
            case Counters(values):
                self._send(Ack(frame.seq), now, actions)
                actions.append(DeviceCounters(values))

    def _heard(self, seq: int, now: float, restart: bool = False) -> int | None:
        """A line with a good checksum came in; a HELLO restarts the count.
        The number of lines missing before it, or None for a repeat."""
        self._last_rx = now
        if restart:
            self._tracker = _SeqTracker(seq)
            return 0
        gap = self._tracker.see(seq, self._counters)
        if gap:
            self._doubt = True
        return gap

    def _snapshot(
        self, seq: int, occupancy: int, gap: int, now: float, actions: list[Action]
    ) -> None:
        """Pass a snapshot on, or hold it (PROTOCOL.md, "Accepting a snapshot").

        A snapshot that follows missing lines, or that differs from the last
        one passed on in more squares than a hand changes at once, is held;
        the next snapshot confirms it if it shows the same board.  Damage that
        slipped through every check is not repeated by the next line, and a
        stale copy is followed by the board as it is now, so neither becomes a
        reading; a real jump (a sweep of the arm, a reset board) costs at most
        a heartbeat.

        A snapshot numbered at or before the one last passed on is older than
        it, whatever the count of repeats made of it: it is dropped
        (``OLDSNAP``).  Old lines replayed in a run (a USB hub replaying its
        buffer) re-anchor the count, and the third would otherwise pass.  A
        replayed run can also hold an old HELLO, which starts a new count: so
        the first snapshot after a HELLO mid-session is held, and a held
        snapshot is confirmed only by a later line (numbered after it, and
        arriving SNAP_SPACING or more after it): never by a copy of itself,
        nor by another line of one replayed burst.
        """
        if self._tracker.older_than_passed_on(seq):
            self._counters["OLDSNAP"] += 1
            self._doubt = True
            return
        held, self._held = self._held, None
        if held == occupancy and (
            now - self._held_at < SNAP_SPACING
            or not 0 < (seq - self._held_seq) % SEQ_MODULO < REPLAY_WINDOW
        ):
            # The same burst, or the same line again: no confirmation, but
            # this line is the one a later line may confirm.
            self._held, self._held_at, self._held_seq = occupancy, now, seq
            return
        confirmed = held == occupancy
        plausible = (
            not self._recheck
            and gap == 0
            and (
                self._accepted is None
                or squares_changed(self._accepted, occupancy) <= MAX_HAND_CHANGE
            )
        )
        if held is not None and not confirmed:
            self._counters["UNCONFIRMED"] += 1
        if confirmed or plausible:
            self._accepted = occupancy
            self._tracker.passed_on = seq
            self._recheck = False
            self._doubt = False
            actions.append(SnapshotReceived(occupancy, now))
        else:
            self._held = occupancy
            self._held_at = now
            self._held_seq = seq
            self._counters["HELD"] += 1

    def _hello(self, hello: Hello, now: float, actions: list[Action]) -> None:
        self.answered = self._answer_until is not None and now <= self._answer_until
        self._answer_until = None
        self._recheck = self._state is LinkState.UP and not self.answered
        self._device = hello
        self._held = None
        shape = hello.shape()
        if shape != self.shape:
            self._set_state(
                LinkState.INCOMPATIBLE,
                f"the board is {hello.describe_board()}, but the game needs "
                f"{self.shape.describe()}",
                actions,
            )
            return
        self._set_state(LinkState.UP, f"device firmware {dict(hello.info).get('FW', '?')}", actions)
        # The device starts every session dark with its default palette.
        self._send_palette(now, actions)
        self._send_leds(now, actions)

    def _nak(self, ref: int, reason: NakReason, now: float, actions: list[Action]) -> None:
        pending = next((p for p in self._pending if p.seq == ref), None)
        if pending is None:
            self._counters["STALE"] += 1
        elif reason is NakReason.CRC and pending.kind is not Hello:
            self._retry(pending, now, actions)
        else:
            self._pending.remove(pending)
            if reason is NakReason.VER:
                self._set_state(LinkState.INCOMPATIBLE, version_mismatch(None), actions)

    # -- sending

    def _send(self, message: Message, now: float, actions: list[Action]) -> None:
        seq = self._seq
        self._seq = (seq + 1) % SEQ_MODULO
        line = encode(Frame(seq, message), self.shape)
        if not isinstance(message, Ack | Nak):
            kind = type(message)
            self._pending = [p for p in self._pending if p.kind is not kind]  # newest wins
            self._pending.append(_Pending(seq, kind, line, now))
        self._counters["TX"] += 1
        actions.append(Send(line))

    def _send_leds(self, now: float, actions: list[Action]) -> None:
        self._sent_leds = self._leds
        self._last_refresh = now
        self._send(Led(self._leds), now, actions)

    def _send_palette(self, now: float, actions: list[Action]) -> None:
        self._sent_palette = self._palette
        self._send(Palette(self._palette), now, actions)

    def _take(self, seq: int) -> _Pending | None:
        for pending in self._pending:
            if pending.seq == seq:
                self._pending.remove(pending)
                return pending
        return None

    def _retry(self, pending: _Pending, now: float, actions: list[Action]) -> None:
        if pending.retries >= MAX_RETRIES:
            self._pending.remove(pending)
            self._counters["GIVEUP"] += 1
            return
        pending.retries += 1
        pending.sent = now
        self._counters["RETRY"] += 1
        self._counters["TX"] += 1
        actions.append(Send(pending.line))

    def _service(self, now: float, actions: list[Action]) -> None:
        """The timers: link timeout, HELLO while connecting, retries, LED refresh."""
        if (
            self._state is not LinkState.CONNECTING
            and self._last_rx is not None
            and now - self._last_rx >= LINK_TIMEOUT
        ):
            self._pending.clear()
            self._tracker = _SeqTracker()
            self._held = None
            self._set_state(LinkState.CONNECTING, "the device is silent", actions)
        if self._state is LinkState.CONNECTING and (
            self._last_hello is None or now - self._last_hello >= HELLO_INTERVAL
        ):
            self._last_hello = now
            self._hello_seqs = {
                seq: at for seq, at in self._hello_seqs.items() if now - at < LINK_TIMEOUT
            }  # before the numbers come round
            self._hello_seqs[self._seq] = now
            self._send(Hello(PROTOCOL_VERSION, info=(("SW", self.software),)), now, actions)
        for pending in list(self._pending):
            if pending.kind is Hello:  # repeated by the HELLO timer, not retried
                if self._state is not LinkState.CONNECTING:
                    self._pending.remove(pending)
            elif now - pending.sent >= ACK_TIMEOUT:
                self._retry(pending, now, actions)
        if (
            self._state is LinkState.UP
            and self._last_refresh is not None
            and now - self._last_refresh >= LED_REFRESH
        ):
            self._send_palette(now, actions)
            self._send_leds(now, actions)

    def _set_state(self, state: LinkState, detail: str, actions: list[Action]) -> None:
        if state is self._state:
            return
        self._state = state
        if state is LinkState.CONNECTING:
            self._last_hello = None
            self._sent_leds = self._sent_palette = None
        actions.append(StateChanged(state, detail))
