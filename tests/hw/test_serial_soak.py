"""The serial soak (bench/serial_soak.py), bounded: a few thousand damaged
lines of every family through SerialBoard and the daemon's reconciler, with
no phantom reading and no phantom move.  The full run (100,000 lines and
more) is ``.venv/bin/python bench/serial_soak.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardctl.hw.protocol import codec
from boardctl.hw.protocol.codec import encode
from boardctl.hw.protocol.constants import PROTOCOL_VERSION
from boardctl.hw.protocol.messages import Frame, Hello, Snap, Stamp
from boardctl.hw.serial_link import SerialBoard, SerialPort

from ..pathimport import import_file

BENCH = Path(__file__).resolve().parents[2] / "bench" / "serial_soak.py"


soak = import_file(BENCH, "serial_soak")


def total(counter: dict[str, int]) -> int:
    return sum(counter.values())


def test_thousands_of_damaged_lines_make_no_phantom_reading_and_no_phantom_move() -> None:
    figures = soak.soak(3000, seed=1)
    assert figures.total_damaged >= 3000
    assert all(figures.damaged[family] > 0 for family in soak.FAMILIES), figures.damaged
    assert total(figures.phantom_readings) == 0, figures.examples
    assert total(figures.phantom_moves) == 0, figures.examples
    assert figures.missed == 0, figures.examples
    assert figures.moves > 100 and figures.readings > 300
    assert figures.host["CRC"] > 0 and figures.host["HELD"] > 0 and figures.host["PORTLOST"] > 0


def test_on_a_clean_wire_every_move_is_the_players() -> None:
    """The players and the judge themselves: no damage, no surprise."""
    figures = soak.soak(1, seed=2, damage=0.0, games=2)
    assert figures.total_damaged == 0
    assert figures.moves == 2 * soak.MAX_PLIES
    assert (total(figures.phantom_readings), total(figures.phantom_moves), figures.missed) == (
        0,
        0,
        0,
    )


def test_without_a_checksum_the_soak_sees_phantom_readings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The soak can fail: with the check switched off at both ends, damaged
    lines become boards the device never sent, and it counts them."""
    fw = soak.load_firmware()
    monkeypatch.setattr(fw.protocol, "checksum", lambda data: "00000000")
    # ... and where the firmware checks and writes its frequent lines in place.
    monkeypatch.setattr(
        fw.wire, "crc_matches", lambda buf, start, end, at: bytes(buf[at : at + 8]) == b"00000000"
    )
    monkeypatch.setattr(
        fw.wire,
        "put_crc",
        lambda buf, start, end, at: buf.__setitem__(slice(at, at + 8), b"00000000"),
    )
    monkeypatch.setattr(codec, "crc32", lambda data: 0)
    figures = soak.soak(3000, seed=1, fw=fw)
    assert total(figures.phantom_readings) > 0


class Port:
    """A port that delivers one chunk per ``SerialBoard.read``."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.pause = False

    def read(self, size: int = 1) -> bytes:
        self.pause = not self.pause  # b"" ends the board's drain of the port
        return self.chunks.pop(0) if self.pause and self.chunks else b""

    def write(self, data: bytes, /) -> int | None:
        return len(data)

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


def test_issue_11s_splices_give_no_reading_through_the_serial_board() -> None:
    """The reproducer's two boards, framed by protocol 2 and spliced at every
    offset both ways, between the genuine lines: the readings are the two
    genuine boards, in order, and nothing else."""
    first, second = 0xFFFFB0000000008FDFFF, 0xFFFFB0000400008FDFFD
    one = encode(Frame(1, Snap(first, Stamp(1, 1))))
    two = encode(Frame(2, Snap(second, Stamp(1, 2))))
    chunks = [encode(Frame(0, Hello(PROTOCOL_VERSION, 10, 8, 80, (("E", "0001"),)))), one]
    for cut in range(1, len(one) - 1):
        chunks += [one[:cut] + two[cut:], two[:cut] + one[cut:]]
    chunks += [b"$00 SNAP FFFFB0000000008FDFFD*88\n", two]  # the issue's line, as in version 1
    count = len(chunks)

    def opener(url: str, *, baudrate: int, timeout: float, write_timeout: float) -> SerialPort:
        return Port(chunks)

    board = SerialBoard("/dev/ttyACM0", open_serial=opener, heartbeat=None)
    readings = [board.read(0.01 * k) for k in range(count + 1)]
    assert [r.occupancy for r in readings if r is not None] == [first, second]
    assert board.counters["CRC"] > 50 and board.counters["FORMAT"] >= 1
