"""Scanning and debouncing, independent of gpiozero.

The same classes run with real pins (:mod:`.matrix`, :mod:`.shiftreg`),
gpiozero's mock pins (the tests) and the simulator (:mod:`.sim`):

* a :class:`MatrixLines` drives one row and senses the columns;
* :class:`MatrixScanner` turns that into one raw snapshot, 80 bits on the
  8 × 10 board (row drive → read columns, rank by rank; bit
  ``rank * files + file``);
* :class:`Debouncer` accepts a square's new state only after N equal reads;
* :class:`ScanningSource` is the :class:`~boardctl.hw.base.SensorSource`:
  it scans at ``scan_hz`` when the daemon calls ``read(now)``, debounces and
  reports changes (and a heartbeat).

Nothing here reads the clock or sleeps: ``now`` comes from the caller.
"""

from __future__ import annotations

from collections import deque
from typing import Protocol

from .base import Reading
from .pins import FILES, RANKS, SQUARES

ALL_SQUARES = (1 << SQUARES) - 1

# Every board's defaults (matrix, 74HC165 chain, simulator): a change is
# believed after DEBOUNCE_SCANS equal scans at SCAN_HZ (20-30 ms, past a reed
# switch's bounce of about 1 ms), and the board is reported every HEARTBEAT_S even when
# still, so that a lost reading is made good within a second.
DEBOUNCE_SCANS = 3
SCAN_HZ = 100.0
HEARTBEAT_S = 1.0


class MatrixLines(Protocol):
    """The electrical side of a row/column matrix."""

    @property
    def rows(self) -> int: ...

    @property
    def columns(self) -> int: ...

    def select(self, row: int | None) -> None:
        """Drive ``row`` active and every other row idle (``None``: all idle)."""

    def sense(self) -> int:
        """Bit ``c`` set when column ``c`` sees a closed switch in the selected row."""

    def close(self) -> None: ...


class RawScanner(Protocol):
    """Anything that reads the whole board at once, without debouncing."""

    def scan(self) -> int:
        """One raw snapshot: bit ``sq`` set = sensor at ``sq`` closed.

        :raises HardwareError: if the hardware cannot be read.
        """

    def close(self) -> None: ...


class MatrixScanner:
    """Row by row: select a row, sense its columns; rows are ranks, columns files.

    With 8 rows and 10 columns this yields the 80-bit snapshot in the rules
    core's numbering (a1 = bit 0, j1 = bit 9, a2 = bit 10 … j8 = bit 79).
    ``rows`` and ``columns`` are the board's ranks and files: the physical
    board's by default, another preset's in the simulator.
    """

    def __init__(self, lines: MatrixLines, *, rows: int = RANKS, columns: int = FILES) -> None:
        if (lines.rows, lines.columns) != (rows, columns):
            raise ValueError(
                f"a matrix of {lines.rows}×{lines.columns} lines; "
                f"the board needs {rows} rows × {columns} columns"
            )
        self.lines = lines
        self.rows = rows
        self.columns = columns

    def scan(self) -> int:
        bits = 0
        try:
            for row in range(self.rows):
                self.lines.select(row)
                bits |= (self.lines.sense() & ((1 << self.columns) - 1)) << (row * self.columns)
        finally:
            self.lines.select(None)
        return bits

    def close(self) -> None:
        self.lines.close()


class Debouncer:
    """A square takes a new state after ``reads`` equal raw reads in a row.

    Reed switches bounce for about a millisecond; at 100 scans a second the
    default of 3 reads filters that and a hand passing over a Hall sensor's
    edge, and accepts a move within 30 ms.  The first stable snapshot exists
    after ``reads`` scans (squares still bouncing then take their latest read
    and settle by the same rule later).
    """

    def __init__(self, reads: int = 3, squares: int = SQUARES) -> None:
        if reads < 1:
            raise ValueError("debounce needs at least one read")
        self.reads = reads
        self.all_squares = (1 << squares) - 1
        self._history: deque[int] = deque(maxlen=reads)
        self.stable: int | None = None

    def feed(self, raw: int) -> bool:
        """Take one raw snapshot; True if the stable snapshot changed."""
        self._history.append(raw & self.all_squares)
        if len(self._history) < self.reads:
            return False
        ones = self.all_squares
        any_one = 0
        for snapshot in self._history:
            ones &= snapshot
            any_one |= snapshot
        zeros = self.all_squares & ~any_one
        base = raw if self.stable is None else self.stable
        new = (base | ones) & ~zeros
        changed = new != self.stable
        self.stable = new
        return changed


class ScanningSource:
    """A :class:`~boardctl.hw.base.SensorSource` over any :class:`RawScanner`.

    ``read(now)`` runs one scan when one is due (every ``1/scan_hz`` seconds;
    a call up to a quarter period early also scans, so a loop running at the
    scan rate does not skip every other scan), feeds the debouncer and returns
    a :class:`Reading` when the stable snapshot changed or ``heartbeat``
    seconds passed since the last one.  Call it at least ``scan_hz`` times a
    second, or call :meth:`scan` from a thread of your own.

    A scan that raises ``OSError`` (:class:`~boardctl.hw.errors.HardwareError`)
    makes the source unhealthy until a scan succeeds again; ``last_error``
    keeps the message for the display.  ``squares`` is how many squares a
    snapshot holds: the physical board's 80 unless a simulated board is larger.
    """

    def __init__(
        self,
        scanner: RawScanner,
        *,
        debounce: int = DEBOUNCE_SCANS,
        scan_hz: float = SCAN_HZ,
        heartbeat: float | None = HEARTBEAT_S,
        squares: int = SQUARES,
    ) -> None:
        if scan_hz <= 0:
            raise ValueError("scan_hz must be positive")
        self.scanner = scanner
        self.debouncer = Debouncer(debounce, squares)
        self.period = 1.0 / scan_hz
        self.heartbeat = heartbeat
        self.last_error: str | None = None
        self.scans = 0
        self._last_scan: float | None = None
        self._last_report: float | None = None
        self._changed = False
        self._changed_at = 0.0
        self._healthy = True

    @property
    def healthy(self) -> bool:
        return self._healthy

    @property
    def stable(self) -> int | None:
        """The debounced snapshot (None before the first ``debounce`` scans)."""
        return self.debouncer.stable

    def scan(self, now: float) -> None:
        """Scan once and debounce, whether or not a scan is due."""
        self._last_scan = now
        try:
            raw = self.scanner.scan()
        except OSError as exc:
            self._healthy = False
            self.last_error = str(exc)
            return
        self._healthy = True
        self.last_error = None
        self.scans += 1
        if self.debouncer.feed(raw):
            self._changed = True
            self._changed_at = now

    def read(self, now: float) -> Reading | None:
        if self._last_scan is None or now - self._last_scan >= 0.75 * self.period:
            self.scan(now)
        stable = self.debouncer.stable
        if stable is None:
            return None
        if self._changed:
            self._changed = False
            self._last_report = now
            return Reading(stable, self._changed_at)
        if (
            self._healthy
            and self.heartbeat is not None
            and self._last_report is not None
            and now - self._last_report >= self.heartbeat
        ):
            self._last_report = now
            return Reading(stable, now)
        return None

    def close(self) -> None:
        self.scanner.close()
