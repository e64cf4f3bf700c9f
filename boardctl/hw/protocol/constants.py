"""The wire protocol's numbers and names (``firmware/PROTOCOL.md``): the one
source for both ends.

The host reads them here.  The firmware runs MicroPython and cannot import
boardctl, so it reads a copy, ``firmware/protocol_constants.py``, which
``python -m boardctl.hw.protocol.constants sync`` writes from this module and
``tests/hw/test_protocol_constants.py`` holds to it.  Times are seconds here
and whole milliseconds in the copy (``HEARTBEAT`` there is ``HEARTBEAT_MS``):
the firmware's clock counts milliseconds in small integers.  What only one end
uses (the host's ``LED_REFRESH``, the device's outbox) stays with that end.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path

from ...colour import Colour

PROTOCOL_VERSION = 3
SUPPORTED_VERSIONS = frozenset({3})
# The one version framed with a two-digit CRC-8: a line in that frame is of
# that version or damaged (later versions frame HELLO as version 2 does).
CRC8_VERSION = 1
MAX_LINE = 200  # bytes from "$" to the last checksum digit, terminator excluded
CHECK_DIGITS = 8  # the CRC-32, in upper-case hex
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
# Ordering a device's snapshots, across its restarts too (PROTOCOL.md 4.1): its
# HELLO names its boot (EPOCH_KEY, counted in its flash), every SNAP carries a
# stamp of that boot and the snapshot's number in it, and a host HELLO carries
# a nonce (NONCE_KEY) that the device's answer repeats.
EPOCH_KEY = "E"
NONCE_KEY = "N"
EPOCH_DIGITS = 4  # hex digits: boots count round at 65,536
COUNT_DIGITS = 6  # hex digits: snapshots count round at 16,777,216 in a boot
NONCE_DIGITS = 8
# A device whose HELLO says SPARSE_KEY=1 takes LEDS, the sparse form of an LED
# frame (PROTOCOL.md 5): three hex digits a lit LED, its index and its palette
# index.  Reading the host's line costs the Pico some 25 us a byte, and most
# frames light a few LEDs.
SPARSE_KEY = "S"
SPARSE_INDEX_DIGITS = 2  # an LED's index in LEDS, hex: below MAX_LEDS

# Timing, in seconds (PROTOCOL.md, "Timing").
HEARTBEAT = 1.0  # the device sends a SNAP at least this often ...
SNAP_MIN_INTERVAL = 0.020  # ... and two SNAPs at least this far apart
ACK_TIMEOUT = 0.25  # an unacknowledged line is sent again after this long ...
MAX_RETRIES = 3  # ... at most this many times, then given up
LINK_TIMEOUT = 3.0  # no valid line for this long: the peer is gone
HELLO_INTERVAL = 1.0  # HELLO is repeated this often until answered
# Lines before the last one carried out (a snapshot passed on, an LED frame
# shown) that are taken as old: a USB hub or adapter replays a few lines of
# its buffer, never a few dozen.
REPLAY_WINDOW = 32

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

# The counters both ends keep (PROTOCOL.md 7.5); each end adds its own.
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

# The grammar of a line's fields (PROTOCOL.md 2 and 5).
HEX_DIGITS = "0123456789ABCDEF"  # upper case only
KEY_FIRST = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # a HELLO or COUNTERS key starts with one ...
KEY_REST = KEY_FIRST + "0123456789"  # ... and goes on with these
VALUE_CHARS = KEY_REST + "abcdefghijklmnopqrstuvwxyz._:+-"  # a HELLO value's
NUMBER_KEYS = ("P", "F", "R", "L")  # HELLO's numbers: version, files, ranks, LEDs


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


# ------------------------------------------------------------------ the firmware's copy

FIRMWARE_COPY = Path(__file__).resolve().parents[3] / "firmware" / "protocol_constants.py"


def _literal(value: object) -> str:
    """``value`` as Python source, as ruff formats it (double quotes)."""
    match value:
        case str():
            return '"' + value + '"'
        case tuple() if len(value) == 1:
            return f"({_literal(value[0])},)"
        case tuple():
            return "(" + ", ".join(_literal(v) for v in value) + ")"
        case dict():
            return "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _rows(values: tuple[object, ...], per_row: int) -> str:
    """A tuple over several lines, ``per_row`` values a line (as hexboard.py's
    tables: a generated file is not reformatted)."""
    lines = [
        " ".join(f"{_literal(v)}," for v in values[i : i + per_row])
        for i in range(0, len(values), per_row)
    ]
    return "(\n" + "".join(f"    {line}\n" for line in lines) + ")"


def _milliseconds(seconds: float) -> int:
    ms = round(seconds * 1000)
    if abs(ms - seconds * 1000) > 1e-6:
        raise ValueError(f"{seconds} s is not a whole number of milliseconds")
    return ms


def firmware_module() -> str:
    """The text of ``firmware/protocol_constants.py``: this module's numbers
    and names as MicroPython reads them (no typing, tuples for sets, whole
    milliseconds for times, each drop reason also a name of its own)."""
    timing = (
        ("HEARTBEAT", HEARTBEAT),
        ("SNAP_MIN_INTERVAL", SNAP_MIN_INTERVAL),
        ("ACK_TIMEOUT", ACK_TIMEOUT),
        ("LINK_TIMEOUT", LINK_TIMEOUT),
        ("HELLO_INTERVAL", HELLO_INTERVAL),
    )

    return "\n".join(
        [
            "# The wire protocol's numbers and names (PROTOCOL.md).  GENERATED from",
            "# boardctl/hw/protocol/constants.py by `python -m boardctl.hw.protocol.constants",
            "# sync`: do not edit (tests/hw/test_protocol_constants.py checks that it is",
            "# in sync).  Times are in milliseconds.",
            "",
            f"PROTOCOL_VERSION = {PROTOCOL_VERSION}",
            f"SUPPORTED_VERSIONS = {_literal(tuple(sorted(SUPPORTED_VERSIONS)))}",
            f"CRC8_VERSION = {CRC8_VERSION}",
            f"MAX_LINE = {MAX_LINE}",
            f"CHECK_DIGITS = {CHECK_DIGITS}",
            f"SEQ_MODULO = {SEQ_MODULO}",
            f"PALETTE_SIZE = {PALETTE_SIZE}",
            f"MAX_FILES = {MAX_FILES}",
            f"MAX_RANKS = {MAX_RANKS}",
            f"MAX_LEDS = {MAX_LEDS}",
            f"BOARDS = {_literal(BOARDS)}",
            f"BOARD_KEY = {_literal(BOARD_KEY)}",
            f"EPOCH_KEY = {_literal(EPOCH_KEY)}",
            f"NONCE_KEY = {_literal(NONCE_KEY)}",
            f"EPOCH_DIGITS = {EPOCH_DIGITS}",
            f"COUNT_DIGITS = {COUNT_DIGITS}",
            f"NONCE_DIGITS = {NONCE_DIGITS}",
            f"SPARSE_KEY = {_literal(SPARSE_KEY)}",
            f"SPARSE_INDEX_DIGITS = {SPARSE_INDEX_DIGITS}",
            "",
            *(f"{name}_MS = {_milliseconds(seconds)}" for name, seconds in timing),
            f"MAX_RETRIES = {MAX_RETRIES}",
            f"REPLAY_WINDOW = {REPLAY_WINDOW}",
            "",
            f"DEFAULT_PALETTE = {_rows(DEFAULT_PALETTE, 5)}",
            "",
            f"COUNTER_NAMES = {_rows(COUNTER_NAMES, 9)}",
            "",
            f"HEX_DIGITS = {_literal(HEX_DIGITS)}",
            f"KEY_FIRST = {_literal(KEY_FIRST)}",
            f"KEY_REST = {_literal(KEY_REST)}",
            f"VALUE_CHARS = {_literal(VALUE_CHARS)}",
            f"NUMBER_KEYS = {_literal(NUMBER_KEYS)}",
            "",
            "# Why a line was dropped: each is also the name of its counter.",
            *(f"{reason.name} = {_literal(reason.value)}" for reason in DropReason),
            f"DROP_REASONS = {_literal(tuple(reason.value for reason in DropReason))}",
            f"NAK_REASONS = {_literal(tuple(reason.value for reason in NakReason))}",
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m boardctl.hw.protocol.constants [sync|check]``: write the
    firmware's copy, or say whether it is the one this module writes."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else "check"
    if command == "sync":
        FIRMWARE_COPY.write_text(firmware_module(), encoding="utf-8")
        print(f"wrote {FIRMWARE_COPY}")
        return 0
    if command == "check":
        current = FIRMWARE_COPY.read_text(encoding="utf-8") if FIRMWARE_COPY.exists() else ""
        if current == firmware_module():
            print(f"{FIRMWARE_COPY} is in sync")
            return 0
        print(f"{FIRMWARE_COPY} differs: run python -m boardctl.hw.protocol.constants sync")
        return 1
    print(f"unknown command {command!r} (check or sync)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
