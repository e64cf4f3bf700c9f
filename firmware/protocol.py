# The wire protocol, firmware side: codec and line assembler.
#
# The specification is PROTOCOL.md in this directory; boardctl/hw/protocol/
# is the host's implementation of the same spec.  Both are checked against
# vectors.txt.  This file runs under MicroPython and CPython alike: no
# typing, no dataclasses; only the firmware's own wire.py and
# protocol_constants.py are imported.
#
# Messages are (command, value) pairs; the value depends on the command:
#   "HELLO"     (version, files, ranks, leds, info)   files/ranks/leds may be None,
#                                                      info a list of (key, text),
#                                                      a board's name (B) among them
#   "SNAP"      (occupancy, epoch, count): occupancy int, bit sq = square sq
#               (a1 = 0); the boot and the snapshot's number in it
#   "LED"       bytes, one palette index (0-15) per LED
#   "LEDS"      the same, written as the lit LEDs only (PROTOCOL.md, LEDS)
#   "PAL"       list of (r, g, b), 1 to 15 entries
#   "STAT"      None
#   "COUNTERS"  list of (name, int)
#   "ACK"       sequence number acknowledged
#   "NAK"       (sequence number, reason)
#
# The numbers and names both ends share are protocol_constants.py's,
# generated from the host's boardctl/hw/protocol/constants.py.

try:
    from binascii import crc32 as _crc32_c  # the C one, if the build has it
except ImportError:
    _crc32_c = None
import array
from binascii import unhexlify as _unhexlify

import wire
from protocol_constants import (
    ARG,
    BOARD_KEY,
    BOARDS,
    CHAR,
    CHECK_DIGITS,
    CMD,
    COUNT_DIGITS,
    CRC,
    CRC8_VERSION,
    EPOCH_DIGITS,
    FORMAT,
    HEX_DIGITS,
    KEY_FIRST,
    KEY_REST,
    LONG,
    MAX_FILES,
    MAX_LEDS,
    MAX_LINE,
    MAX_RANKS,
    NAK_REASONS,
    NOISE,
    NUMBER_KEYS,
    PALETTE_SIZE,
    SPARSE_INDEX_DIGITS,
    SUPPORTED_VERSIONS,
    TRUNC,
    VALUE_CHARS,
    VER,
)

# CRC-32's byte table (wire.py's) as two tables of 16-bit halves: on the
# Pico an int of 31 bits or more is a heap object, 16-bit halves never are.
_CRC_HIGH = tuple([word >> 16 for word in wire.CRC_TABLE])
_CRC_LOW = tuple([word & 0xFFFF for word in wire.CRC_TABLE])


def crc32_halves(data):
    """CRC-32 of data in Python, as (high 16 bits, low 16 bits)."""
    high = 0xFFFF
    low = 0xFFFF
    table_high = _CRC_HIGH
    table_low = _CRC_LOW
    for byte in data:
        index = (low ^ byte) & 0xFF
        low = ((low >> 8) | ((high & 0xFF) << 8)) ^ table_low[index]
        high = (high >> 8) ^ table_high[index]
    return high ^ 0xFFFF, low ^ 0xFFFF


def _hex4(value):
    return (
        HEX_DIGITS[(value >> 12) & 15]
        + HEX_DIGITS[(value >> 8) & 15]
        + HEX_DIGITS[(value >> 4) & 15]
        + HEX_DIGITS[value & 15]
    )


def checksum(data):
    """The line checksum of data: CRC-32 (zlib's, check value CBF43926 for
    b"123456789") as 8 upper-case hex digits.  binascii's C version when
    the MicroPython build has it, else the same in Python."""
    if _crc32_c is not None:
        return "%08X" % _crc32_c(data)
    high, low = crc32_halves(data)
    return _hex4(high) + _hex4(low)


class Shape:
    """Files, ranks and LED count: the board the device announces in HELLO.
    A board that is not a rectangle is named instead (board, a key of
    BOARDS; files and ranks are then None) and has one LED per cell."""

    def __init__(self, files=10, ranks=8, leds=80, board=None):
        if board is None:
            if not (1 <= files <= MAX_FILES and 1 <= ranks <= MAX_RANKS and 1 <= leds <= MAX_LEDS):
                raise ValueError("board shape out of range")
            squares = files * ranks
        else:
            if board not in BOARDS or leds != BOARDS[board]:
                raise ValueError("board shape out of range")
            files = ranks = None
            squares = BOARDS[board]
        self.files = files
        self.ranks = ranks
        self.leds = leds
        self.board = board
        self.squares = squares
        self.snap_digits = (squares + 3) // 4

    def hello_info(self):
        """The HELLO pairs that name the board, before FW and ID."""
        return [] if self.board is None else [(BOARD_KEY, self.board)]


class ProtocolError(Exception):
    """A line that cannot be accepted: reason is the counter it goes to,
    nak the sequence number to answer with NAK (None: no answer)."""

    def __init__(self, reason, nak=None):
        super().__init__(reason)
        self.reason = reason
        self.nak = nak


# ------------------------------------------------------------------ encoding


def _hex2(value):
    return HEX_DIGITS[(value >> 4) & 15] + HEX_DIGITS[value & 15]


def _is_key(text):
    return bool(text) and text[0] in KEY_FIRST and all(c in KEY_REST for c in text)


def _is_value(text):
    return bool(text) and all(c in VALUE_CHARS for c in text)


def _snap_hex(occupancy, digits):
    text = f"{occupancy:X}"
    return "0" * (digits - len(text)) + text


def _args(command, value, shape):
    if command == "HELLO":
        version, files, ranks, leds, info = value
        args = []
        for key, number in (("P", version), ("F", files), ("R", ranks), ("L", leds)):
            if number is not None:
                args.append(f"{key}={number}")
        for key, text in info:
            if not _is_key(key) or key in NUMBER_KEYS or not _is_value(text):
                raise ValueError("bad HELLO field")
            args.append(key + "=" + text)
        return args
    if command == "SNAP":
        occupancy, epoch, count = value
        if not 0 <= occupancy < (1 << shape.squares):
            raise ValueError("occupancy out of range")
        if not (0 <= epoch < 1 << 4 * EPOCH_DIGITS and 0 <= count < 1 << 4 * COUNT_DIGITS):
            raise ValueError("stamp out of range")
        stamp = _snap_hex(epoch, EPOCH_DIGITS) + _snap_hex(count, COUNT_DIGITS)
        return [_snap_hex(occupancy, shape.snap_digits), stamp]
    if command == "LED":
        if len(value) != shape.leds:
            raise ValueError("LED frame length")
        return ["".join([HEX_DIGITS[i] for i in value])]
    if command == "LEDS":
        if len(value) != shape.leds:
            raise ValueError("LED frame length")
        lit = [_hex2(led) + HEX_DIGITS[value[led]] for led in range(len(value)) if value[led]]
        return ["".join(lit)] if lit else []
    if command == "PAL":
        if not 1 <= len(value) <= PALETTE_SIZE:
            raise ValueError("palette size")
        return [_hex2(r) + _hex2(g) + _hex2(b) for r, g, b in value]
    if command == "STAT":
        return []
    if command == "COUNTERS":
        return [f"{name}={number}" for name, number in value]
    if command == "ACK":
        return [_hex2(value)]
    if command == "NAK":
        return [_hex2(value[0]), value[1]]
    raise ValueError("unknown command")


def frame(seq, command, value, shape):
    """The frame for a message: "$" body "*" checksum, without terminator."""
    parts = [_hex2(seq), command]
    parts.extend(_args(command, value, shape))  # MicroPython has no [a, *b]
    body = " ".join(parts)
    line = "$" + body + "*" + checksum(body.encode())
    if len(line) > MAX_LINE:
        raise ValueError("line too long")
    return line.encode()


def encode(seq, command, value, shape):
    """The line to send: the frame and CR LF (CR so that terminals show lines)."""
    return frame(seq, command, value, shape) + b"\r\n"


# ------------------------------------------------------------------ decoding


def _is_hex(text, digits):
    # A plain loop: on MicroPython a generator is an allocation and a call per item.
    if len(text) != digits:
        return False
    for c in text:
        if c not in HEX_DIGITS:
            return False
    return True


def _nibbles(text):
    """The values of a string of upper-case hex digits, one byte each, or
    None.  "ABC" becomes "0A0B0C" and unhexlify does the rest: on the Pico
    a Python loop over a 121-digit frame took 5 ms."""
    if text.upper() != text:
        return None
    try:
        return _unhexlify("0" + "0".join(text))
    except ValueError:  # CPython's binascii.Error is one
        return None


def _sparse_frame(args, shape):
    """The frame (bytes, one palette index an LED) a LEDS line's argument
    lights, or None: three hex digits a lit LED, its index (below L, each
    above the last) and its palette index (1-15); no argument, all off."""
    frame = bytearray(shape.leds)
    if not args:
        return bytes(frame)
    text = args[0]
    step = SPARSE_INDEX_DIGITS + 1
    if len(args) != 1 or len(text) % step or not _is_hex(text, len(text)):
        return None
    last = -1
    for at in range(0, len(text), step):
        led = int(text[at : at + SPARSE_INDEX_DIGITS], 16)
        index = HEX_DIGITS.index(text[at + SPARSE_INDEX_DIGITS])
        if not last < led < shape.leds or not index:
            return None
        frame[led] = index
        last = led
    return bytes(frame)


def _decimal(text):
    if not text or len(text) > 10 or (len(text) > 1 and text[0] == "0"):
        return None
    for c in text:
        if c not in "0123456789":
            return None
    return int(text)


def _pairs(args, seq):
    pairs = []
    seen = []
    for arg in args:
        key, eq, text = arg.partition("=")
        if not eq or not _is_key(key) or not _is_value(text) or key in seen:
            raise ProtocolError(ARG, seq)
        seen.append(key)
        pairs.append((key, text))
    return pairs


def _decode_hello(args, seq):
    pairs = _pairs(args, seq)
    fields = {}
    for key, text in pairs:
        fields[key] = text
    if "P" not in fields or _decimal(fields["P"]) is None:
        raise ProtocolError(ARG, seq)
    version = int(fields["P"])
    if version not in SUPPORTED_VERSIONS:
        raise ProtocolError(VER, seq)
    numbers = []
    for key, high in (("F", MAX_FILES), ("R", MAX_RANKS), ("L", MAX_LEDS)):
        number = None
        if key in fields:
            number = _decimal(fields[key])
            if number is None or not 1 <= number <= high:
                raise ProtocolError(ARG, seq)
        numbers.append(number)
    info = [(k, t) for k, t in pairs if k not in NUMBER_KEYS]
    return (version, numbers[0], numbers[1], numbers[2], info)


def _decode_value(command, args, seq, shape):
    if command == "HELLO":
        return _decode_hello(args, seq)
    if command == "SNAP":
        if (
            len(args) == 2
            and _is_hex(args[0], shape.snap_digits)
            and _is_hex(args[1], EPOCH_DIGITS + COUNT_DIGITS)
        ):
            occupancy = int(args[0], 16)
            if occupancy < (1 << shape.squares):
                stamp = args[1]
                return (occupancy, int(stamp[:EPOCH_DIGITS], 16), int(stamp[EPOCH_DIGITS:], 16))
    elif command == "LED":
        if len(args) == 1 and len(args[0]) == shape.leds:
            frame = _nibbles(args[0])
            if frame is not None:
                return frame
    elif command == "LEDS":
        frame = _sparse_frame(args, shape)
        if frame is not None:
            return frame
    elif command == "PAL":
        if 1 <= len(args) <= PALETTE_SIZE:
            colours = []
            for arg in args:
                if not _is_hex(arg, 6):
                    break
                rgb = int(arg, 16)
                colours.append((rgb >> 16, (rgb >> 8) & 0xFF, rgb & 0xFF))
            else:
                return colours
    elif command == "STAT":
        if not args:
            return None
    elif command == "COUNTERS":
        values = []
        for key, text in _pairs(args, seq):
            number = _decimal(text)
            if number is None:
                break
            values.append((key, number))
        else:
            return values
    elif command == "ACK":
        if len(args) == 1 and _is_hex(args[0], 2):
            return int(args[0], 16)
    elif command == "NAK":
        if len(args) == 2 and _is_hex(args[0], 2) and args[1] in NAK_REASONS:
            return (int(args[0], 16), args[1])
    else:
        raise ProtocolError(CMD, seq)
    raise ProtocolError(ARG, seq)


def decode(frame_bytes, shape):
    """(seq, command, value) from a frame ("$" ... checksum, no terminator).
    Raises ProtocolError.  The firmware reads its frequent lines in place
    (link.py, wire.py) and comes here for the others and for the reason a
    line is refused."""
    if len(frame_bytes) > MAX_LINE:
        raise ProtocolError(LONG)
    if frame_bytes and (min(frame_bytes) < 0x20 or max(frame_bytes) > 0x7E):
        raise ProtocolError(CHAR)
    text = frame_bytes.decode()
    star = text.find("*")
    if not text or text[0] != "$" or star < 0 or not _is_hex(text[star + 1 :], CHECK_DIGITS):
        if _version_1_hello(text, star):
            raise ProtocolError(VER)
        raise ProtocolError(FORMAT)
    body = text[1:star]
    if checksum(body.encode()) != text[star + 1 :]:
        nak = None
        if _is_hex(body[:2], 2) and body[2:3] in ("", " "):
            nak = int(body[:2], 16)
        raise ProtocolError(CRC, nak)
    tokens = body.split(" ")
    if len(tokens) < 2 or not _is_hex(tokens[0], 2) or "" in tokens:
        raise ProtocolError(FORMAT)
    seq = int(tokens[0], 16)
    return seq, tokens[1], _decode_value(tokens[1], tokens[2:], seq, shape)


def _crc8(data):
    """Protocol version 1's checksum (CRC-8/SMBUS), bit by bit: only ever
    run on a line that already failed version 2's format."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def _version_1_hello(text, star):
    """True for a version-1 HELLO (two-digit CRC-8 that holds, P=1): the
    peer speaks version 1, which is a VER, not a damaged line.  Any other
    version in that frame is a damaged line whose 8-bit check happens to
    hold (1 in 256), never a peer: later versions frame HELLO as version 2."""
    if star < 0 or not text or text[0] != "$" or not _is_hex(text[star + 1 :], 2):
        return False
    body = text[1:star]
    tokens = body.split(" ")
    return (
        len(tokens) >= 3
        and tokens[1] == "HELLO"
        and _is_hex(tokens[0], 2)
        and "P=%d" % CRC8_VERSION in tokens
        and _crc8(body.encode()) == int(text[star + 1 :], 16)
    )


class LineAssembler:
    """Cuts the byte stream into frames, in a buffer of its own made once.

    feed(data, count, sink) takes data[0:count] and calls sink(line, size,
    None) for each frame (line[0:size], "$" ... checksum; the buffer is the
    assembler's and is reused, so the sink uses it before it returns) or
    sink(None, 0, reason) for what was dropped, in order.  A "$" always
    starts a new frame, and a frame longer than MAX_LINE is dropped (one CR
    before the LF is allowed).  frames(data) gives the same as a list."""

    def __init__(self):
        self._line = bytearray(MAX_LINE + 1)  # room for one CR before the LF
        # The frame's size plus one (0: outside one), whether it overflowed,
        # whether junk came outside a frame (wire.cut keeps them).
        self._state = array.array("i", [0, 0, 0])

    def feed(self, data, count, sink):
        # wire.cut goes through the bytes in machine code up to each thing
        # to report: byte by byte in Python, a 140-byte LED line cost the
        # Pico 9 ms, and cutting it with find and slices 0.9 ms.
        i = 0
        line = self._line
        state = self._state
        while i < count:
            found = wire.cut(data, i, min(count, i + 0xFFFF), line, state)
            i += found & 0xFFFF
            event = (found >> 16) & 7
            if event == wire.CUT_FRAME:
                sink(line, found >> 19, None)
            elif event:
                sink(None, 0, _CUT_REASONS[event])

    def frames(self, data):
        """The frames (bytes) and drop reasons (str) in data, as a list."""
        out = []

        def sink(line, size, reason):
            out.append(reason if line is None else bytes(line[:size]))

        self.feed(data, len(data), sink)
        return out


_CUT_REASONS = (None, None, TRUNC, LONG, NOISE)  # by wire.CUT_*
