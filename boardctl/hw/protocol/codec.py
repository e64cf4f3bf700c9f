"""The wire protocol's codec, host side: lines to messages and back.

The specification is ``firmware/PROTOCOL.md``; the firmware implements the
same spec in ``firmware/protocol.py`` and both are checked against
``firmware/vectors.txt``.  In short: one printable-ASCII line per message,
``$<seq> <COMMAND> <args>*<crc32>``, full occupancy snapshots from the device
(on change and once a second), LED frames as one palette digit per LED from
the host, ACK/NAK with bounded retries, and every damaged line dropped and
counted by reason.

* :func:`encode` and :func:`decode` turn a :class:`~.messages.Frame` (a
  sequence number and a message) into a line and back;
* :class:`LineAssembler`: bytes from the port in, whole frames or
  :class:`~.constants.DropReason` out, so the link resynchronises after any
  garbage.

What to send and when is the link's (:mod:`.link`); the port is
:mod:`boardctl.hw.serial_link`.  This module does no I/O and reads no clock.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

from ...errors import BoardctlError
from .constants import (
    CHECK_DIGITS,
    COUNT_DIGITS,
    CRC8_VERSION,
    EPOCH_DIGITS,
    HEX_DIGITS,
    KEY_FIRST,
    KEY_REST,
    MAX_FILES,
    MAX_LEDS,
    MAX_LINE,
    MAX_RANKS,
    NUMBER_KEYS,
    PALETTE_SIZE,
    SEQ_MODULO,
    SPARSE_INDEX_DIGITS,
    SUPPORTED_VERSIONS,
    VALUE_CHARS,
    DropReason,
    NakReason,
)
from .messages import (
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

_VALUE_CHARS = frozenset(VALUE_CHARS)
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
    return bool(text) and text[0] in KEY_FIRST and all(c in KEY_REST for c in text)


def is_value(text: str) -> bool:
    """True if ``text`` may stand as a HELLO value (``SW=…``, ``FW=…``)."""
    return bool(text) and all(c in _VALUE_CHARS for c in text)


def _args(message: Message, shape: BoardShape) -> tuple[str, list[str]]:
    match message:
        case Hello(version, files, ranks, leds, info):
            _check(version >= 0, "protocol version")
            for value, high in ((files, MAX_FILES), (ranks, MAX_RANKS), (leds, MAX_LEDS)):
                _check(value is None or 1 <= value <= high, "board shape in HELLO")
            pairs = zip(NUMBER_KEYS, (version, files, ranks, leds), strict=True)
            args = [f"{key}={value}" for key, value in pairs if value is not None]
            for key, text in info:
                _check(
                    _is_key(key) and key not in NUMBER_KEYS and is_value(text),
                    f"HELLO {key}={text}",
                )
                args.append(f"{key}={text}")
            return "HELLO", args
        case Snap(occupancy, stamp):
            _check(0 <= occupancy < 1 << shape.squares, "occupancy out of range")
            if stamp is None:
                raise ValueError("cannot encode: a SNAP without its stamp")
            return "SNAP", [f"{occupancy:0{shape.snap_digits}X}", _stamp_text(stamp)]
        case Led(indices, sparse):
            _check(
                len(indices) == shape.leds and all(0 <= i <= PALETTE_SIZE for i in indices),
                "LED frame does not fit the board shape",
            )
            if sparse:
                lit = "".join(
                    f"{led:0{SPARSE_INDEX_DIGITS}X}{HEX_DIGITS[i]}"
                    for led, i in enumerate(indices)
                    if i
                )
                return "LEDS", [lit] if lit else []
            return "LED", ["".join(HEX_DIGITS[i] for i in indices)]
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


def shorter_led(indices: tuple[int, ...], sparse: bool) -> Led:
    """The frame ``indices`` in the shorter of its two lines: ``LEDS`` (the
    lit LEDs only) for a device that takes it (``sparse``, its HELLO's
    ``S=1``) where that line is shorter than ``LED``'s, else ``LED``.  The
    device reads the host's line byte by byte, so every byte saved is time
    from a contact to its light."""
    lit = sum(1 for i in indices if i)
    # "LEDS" and, with a lit LED, a space and three digits each; "LED", a
    # space and a digit per LED.
    sparse_size = len("LEDS") + (1 + (SPARSE_INDEX_DIGITS + 1) * lit if lit else 0)
    return Led(indices, sparse and sparse_size < len("LED ") + len(indices))


def _stamp_text(stamp: Stamp) -> str:
    """The boot's and the snapshot's number, in hex: ``EEEECCCCCC``."""
    return f"{stamp.epoch:0{EPOCH_DIGITS}X}{stamp.count:0{COUNT_DIGITS}X}"


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
    return len(text) == digits and all(c in HEX_DIGITS for c in text)


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
        if not eq or not _is_key(key) or not is_value(value) or any(k == key for k, _ in pairs):
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
    info = tuple((k, v) for k, v in fields.items() if k not in NUMBER_KEYS)
    return Hello(version, numbers.get("F"), numbers.get("R"), numbers.get("L"), info)


def _decode_message(command: str, args: list[str], seq: int, shape: BoardShape) -> Message:
    def need(ok: bool, what: str) -> None:
        if not ok:
            raise ProtocolError(DropReason.ARG, seq, f"{command}: {what}")

    match command:
        case "HELLO":
            return _decode_hello(args, seq)
        case "SNAP":
            need(
                len(args) == 2
                and _is_hex(args[0], shape.snap_digits)
                and _is_hex(args[1], EPOCH_DIGITS + COUNT_DIGITS),
                "occupancy digits and stamp",
            )
            occupancy = int(args[0], 16)
            need(occupancy < 1 << shape.squares, "bits beyond the last square")
            stamp = Stamp(int(args[1][:EPOCH_DIGITS], 16), int(args[1][EPOCH_DIGITS:], 16))
            return Snap(occupancy, stamp)
        case "LED":
            need(len(args) == 1 and _is_hex(args[0], shape.leds), "one digit per LED")
            return Led(tuple(HEX_DIGITS.index(c) for c in args[0]))
        case "LEDS":
            return Led(_sparse_frame(args, shape, need), sparse=True)
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


def _sparse_frame(
    args: list[str], shape: BoardShape, need: Callable[[bool, str], None]
) -> tuple[int, ...]:
    """The frame a ``LEDS`` line's argument lights: none (all off), or one of
    three hex digits a lit LED, its index (below L, each above the last)
    and its palette index (1-15)."""
    need(len(args) <= 1, "one argument")
    text = args[0] if args else ""
    step = SPARSE_INDEX_DIGITS + 1
    need(len(text) % step == 0 and _is_hex(text, len(text)), "three digits a lit LED")
    indices = [0] * shape.leds
    last = -1
    for at in range(0, len(text), step):
        led = int(text[at : at + SPARSE_INDEX_DIGITS], 16)
        need(last < led < shape.leds, "LEDs in increasing order, below L")
        indices[led] = HEX_DIGITS.index(text[at + SPARSE_INDEX_DIGITS])
        need(indices[led] != 0, "a lit LED's colour")
        last = led
    return tuple(indices)


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
    # Any other version in a version-1 frame is a damaged line whose 8-bit
    # check happens to hold (1 in 256), never a peer: a later version frames
    # its HELLO as version 2 does, so that P can always be read.
    if version == CRC8_VERSION:
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
