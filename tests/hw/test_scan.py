"""Debouncing and the scanning source, on scripted raw snapshots (no pins)."""

from __future__ import annotations

import pytest

from boardctl.hw.base import Reading
from boardctl.hw.errors import HardwareError
from boardctl.hw.scan import Debouncer, MatrixScanner, ScanningSource

from .helpers import bits, sq


def stable_after(reads: int, raws: list[int], start: int | None = 0) -> list[int | None]:
    """Feed ``raws`` to a debouncer (settled first on ``start``); the stable value after each."""
    d = Debouncer(reads)
    if start is not None:
        for _ in range(reads):
            d.feed(start)
    out: list[int | None] = []
    for raw in raws:
        d.feed(raw)
        out.append(d.stable)
    return out


E2 = bits("e2")


@pytest.mark.parametrize(
    ("reads", "raws", "expected"),
    [
        # A piece placed on e2: the square changes on exactly the Nth equal read.
        (3, [E2, E2, E2, E2], [0, 0, E2, E2]),
        (1, [E2, 0], [E2, 0]),
        (5, [E2] * 5, [0, 0, 0, 0, E2]),
        # A bouncing reed switch: never three equal reads, never a change.
        (3, [E2, 0, E2, 0, E2, 0, E2], [0] * 7),
        # Bounce, then it closes for good: counted from the last bounce.
        (3, [E2, 0, E2, E2, E2], [0, 0, 0, 0, E2]),
        # Lifted again: same rule the other way.
        (2, [E2, E2, 0, E2, 0, 0], [0, E2, E2, E2, E2, 0]),
    ],
)
def test_a_square_changes_after_exactly_n_equal_reads(
    reads: int, raws: list[int], expected: list[int]
) -> None:
    assert stable_after(reads, raws) == expected


def test_squares_settle_independently() -> None:
    # e2 is lifted cleanly while f2 bounces: e2's change is not held up by f2.
    start = bits("e2", "f2")
    raws = [bits("f2"), 0, bits("f2"), bits("f2")]
    assert stable_after(3, raws, start) == [start, start, bits("f2"), bits("f2")]


def test_the_first_stable_snapshot_needs_n_reads() -> None:
    d = Debouncer(3)
    assert [d.feed(E2), d.feed(E2), d.feed(E2), d.feed(E2)] == [False, False, True, False]
    assert d.stable == E2


def test_a_debouncer_needs_a_read() -> None:
    with pytest.raises(ValueError):
        Debouncer(0)


class Script:
    """A raw scanner that plays back snapshots (the last one repeats)."""

    def __init__(self, *raws: int | Exception) -> None:
        self.raws = list(raws)
        self.scans = 0
        self.closed = False

    def scan(self) -> int:
        self.scans += 1
        raw = self.raws.pop(0) if len(self.raws) > 1 else self.raws[0]
        if isinstance(raw, Exception):
            raise raw
        return raw

    def close(self) -> None:
        self.closed = True


def test_read_scans_at_the_scan_rate_and_reports_changes() -> None:
    script = Script(0, 0, 0, E2)
    source = ScanningSource(script, debounce=3, scan_hz=100, heartbeat=None)
    assert source.read(0.000) is None  # scan 1
    assert source.read(0.004) is None  # too early: no scan
    assert script.scans == 1
    assert source.read(0.010) is None  # scan 2
    assert source.read(0.020) == Reading(0, 0.020)  # scan 3: first stable reading
    assert source.read(0.030) is None  # scan 4: e2 seen once
    assert source.read(0.040) is None
    assert source.read(0.050) == Reading(E2, 0.050)
    assert source.read(0.060) is None  # unchanged, no heartbeat
    assert script.scans == 7


def test_a_call_slightly_early_still_scans() -> None:
    script = Script(0)
    source = ScanningSource(script, scan_hz=100)
    for now in (0.0, 0.0098, 0.0196, 0.0294):
        source.read(now)
    assert script.scans == 4


def test_a_heartbeat_repeats_the_stable_reading() -> None:
    source = ScanningSource(Script(E2), debounce=1, scan_hz=100, heartbeat=1.0)
    assert source.read(0.0) == Reading(E2, 0.0)
    assert source.read(0.5) is None
    assert source.read(1.0) == Reading(E2, 1.0)
    assert source.read(1.5) is None


def test_a_failing_scan_makes_the_source_unhealthy_until_it_recovers() -> None:
    script = Script(E2, HardwareError("GPIO read failed"), E2)
    source = ScanningSource(script, debounce=1, scan_hz=100, heartbeat=0.01)
    assert source.read(0.00) == Reading(E2, 0.00)
    assert source.healthy
    assert source.read(0.01) is None  # the scan failed: no heartbeat either
    assert not source.healthy
    assert source.last_error == "GPIO read failed"
    assert source.read(0.02) == Reading(E2, 0.02)  # heartbeat again
    assert source.healthy and source.last_error is None


def test_close_closes_the_scanner() -> None:
    script = Script(0)
    ScanningSource(script).close()
    assert script.closed


class Lines:
    """Matrix lines with a fixed set of closed switches, logging what was driven."""

    def __init__(self, closed: int, rows: int = 8, columns: int = 10) -> None:
        self.closed = closed
        self.rows, self.columns = rows, columns
        self.log: list[int | None] = []
        self.selected: int | None = None

    def select(self, row: int | None) -> None:
        self.log.append(row)
        self.selected = row

    def sense(self) -> int:
        assert self.selected is not None, "columns read with no row selected"
        return self.closed >> (self.selected * 10) & 0x3FF

    def close(self) -> None:
        pass


def test_the_matrix_scanner_drives_each_row_then_releases() -> None:
    lines = Lines(bits("a1", "j1", "e4", "a8", "j8"))
    assert MatrixScanner(lines).scan() == bits("a1", "j1", "e4", "a8", "j8")
    assert lines.log == [0, 1, 2, 3, 4, 5, 6, 7, None]


def test_the_matrix_scanner_wants_eight_by_ten() -> None:
    with pytest.raises(ValueError, match="8 rows × 10 columns"):
        MatrixScanner(Lines(0, rows=8, columns=8))


def test_the_matrix_scanner_takes_the_shape_it_is_given() -> None:
    lines = Lines(1 << 95, rows=10)  # f10 of a 10 × 10 board
    assert MatrixScanner(lines, rows=10, columns=10).scan() == 1 << 95
    assert lines.log == [*range(10), None]
    with pytest.raises(ValueError, match="10 rows × 10 columns"):
        MatrixScanner(Lines(0), rows=10, columns=10)


def test_square_numbering() -> None:
    assert (sq("a1"), sq("j1"), sq("a2"), sq("j8")) == (0, 9, 10, 79)
