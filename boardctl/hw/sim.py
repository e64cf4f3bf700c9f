"""Simulated hardware for the desktop simulator and the tests.

No gpiozero, no SPI: pure Python, but through the drivers' own code paths.

* :class:`DiodeMatrix` is an electrical model of the 8 × 10 switch matrix
  (with or without its diodes, to show why they are needed), or of a larger
  one: the simulator plays every preset, 9 × 10 and 10 × 10 too.
* :class:`SimBoard` is a :class:`~boardctl.hw.base.SensorSource`: pieces are
  lifted and placed, the model's switches follow, and the real
  :class:`~boardctl.hw.scan.MatrixScanner` scans it row by row through
  :class:`SimMatrixLines`, debounced by the real
  :class:`~boardctl.hw.scan.ScanningSource`.  Fault injection: flicker a
  square for a few scans, disconnect.
* :class:`SimLeds` is the real :class:`~boardctl.hw.leds.SpiLeds` writing
  into a :class:`RecordingSpi`: frames are recorded as given and as the exact
  bytes the SPI bus would carry.
* :class:`SimButtons` queues presses made by the simulator window or a test.

Usage in a test::

    board = SimBoard(start_squares)
    board.lift(sq("e2"))
    for i in range(3):
        reading = board.read(0.01 * i)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from ..colour import Colour
from .base import Press
from .errors import HardwareError
from .leds import RESET_BYTES, LedMap, SpiLeds
from .pins import FILES, RANKS, LedLayout, default_pinout
from .scan import DEBOUNCE_SCANS, HEARTBEAT_S, SCAN_HZ, MatrixScanner, ScanningSource


class DiodeMatrix:
    """Which switches are closed, and what the columns see when rows are selected.

    ``closed`` has bit ``row * columns + column`` set for a closed switch (rows
    are ranks, columns files, so it is an occupancy snapshot).  With ``diodes``,
    a selected row pulls exactly the columns of its own closed switches.
    Without them, current also flows backwards through other closed switches:
    a column is pulled when any path of closed switches joins it to a selected
    row, which is how ghost squares appear (three corners of a rectangle
    closed make the fourth read closed).
    """

    def __init__(
        self, closed: int = 0, *, diodes: bool = True, rows: int = RANKS, columns: int = FILES
    ) -> None:
        self.rows = rows
        self.columns = columns
        self.all_squares = (1 << rows * columns) - 1
        self.closed = closed & self.all_squares
        self.diodes = diodes

    def row_switches(self, row: int) -> int:
        return self.closed >> (row * self.columns) & ((1 << self.columns) - 1)

    def pulled_columns(self, selected_rows: Iterable[int]) -> int:
        """Bit ``c`` set when column ``c`` is pulled to the selected rows' level."""
        rows = set(selected_rows)
        if self.diodes:
            pulled = 0
            for row in rows:
                pulled |= self.row_switches(row)
            return pulled
        columns = 0
        while True:
            new_columns = columns
            for row in rows:
                new_columns |= self.row_switches(row)
            new_rows = rows | {r for r in range(self.rows) if self.row_switches(r) & new_columns}
            if new_columns == columns and new_rows == rows:
                return columns
            columns, rows = new_columns, new_rows


class SimMatrixLines:
    """A :class:`~boardctl.hw.scan.MatrixLines` over a :class:`DiodeMatrix`.

    While ``failure`` is set, :meth:`sense` raises :class:`HardwareError`
    with it, as a real driver does when a GPIO read fails.
    """

    def __init__(self, matrix: DiodeMatrix) -> None:
        self.matrix = matrix
        self.failure: str | None = None
        self._selected: int | None = None

    @property
    def rows(self) -> int:
        return self.matrix.rows

    @property
    def columns(self) -> int:
        return self.matrix.columns

    def select(self, row: int | None) -> None:
        self._selected = row

    def sense(self) -> int:
        if self.failure is not None:
            raise HardwareError(self.failure)
        return self.matrix.pulled_columns(() if self._selected is None else (self._selected,))

    def close(self) -> None:
        pass


class _FlickeringScanner:
    """The real matrix scanner, with squares read inverted for a few scans."""

    def __init__(self, inner: MatrixScanner) -> None:
        self.inner = inner
        self.pending: dict[int, int] = {}

    def scan(self) -> int:
        bits = self.inner.scan()
        for square, left in list(self.pending.items()):
            bits ^= 1 << square
            if left <= 1:
                del self.pending[square]
            else:
                self.pending[square] = left - 1
        return bits

    def close(self) -> None:
        self.inner.close()


class SimBoard(ScanningSource):
    """A simulated sensor board: a set of occupied squares, scanned like the real one.

    ``lift``/``place`` change the pieces at once; :meth:`read` sees the change
    after ``debounce`` scans, exactly like the GPIO matrix.  ``files`` and
    ``ranks`` default to the physical board's 10 × 8; the simulator passes
    its preset's board.
    """

    def __init__(
        self,
        occupied: Iterable[int] = (),
        *,
        debounce: int = DEBOUNCE_SCANS,
        scan_hz: float = SCAN_HZ,
        heartbeat: float | None = HEARTBEAT_S,
        diodes: bool = True,
        files: int = FILES,
        ranks: int = RANKS,
    ) -> None:
        self.squares = files * ranks
        bits = 0
        for square in occupied:
            self._check_square(square)
            bits |= 1 << square
        self.matrix = DiodeMatrix(bits, diodes=diodes, rows=ranks, columns=files)
        self.lines = SimMatrixLines(self.matrix)
        scanner = MatrixScanner(self.lines, rows=ranks, columns=files)
        self._flicker = _FlickeringScanner(scanner)
        super().__init__(
            self._flicker,
            debounce=debounce,
            scan_hz=scan_hz,
            heartbeat=heartbeat,
            squares=self.squares,
        )

    def _check_square(self, square: int) -> None:
        if not (isinstance(square, int) and 0 <= square < self.squares):
            raise ValueError(f"no square {square!r} on the board")

    @property
    def occupancy(self) -> int:
        """The pieces as they are now (before scanning and debouncing)."""
        return self.matrix.closed

    @property
    def occupied(self) -> frozenset[int]:
        return frozenset(sq for sq in range(self.squares) if self.matrix.closed >> sq & 1)

    def lift(self, square: int) -> None:
        """Take the piece off ``square``.

        :raises ValueError: if the square is empty.
        """
        self._check_square(square)
        if not self.matrix.closed >> square & 1:
            raise ValueError(f"no piece on square {square} to lift")
        self.matrix.closed &= ~(1 << square)

    def place(self, square: int) -> None:
        """Put a piece on ``square``.

        :raises ValueError: if the square is occupied.
        """
        self._check_square(square)
        if self.matrix.closed >> square & 1:
            raise ValueError(f"square {square} is already occupied")
        self.matrix.closed |= 1 << square

    def toggle(self, square: int) -> None:
        """Lift or place, whichever applies (a click in the simulator window)."""
        self._check_square(square)
        self.matrix.closed ^= 1 << square

    def set_occupancy(self, bits: int) -> None:
        self.matrix.closed = bits & self.matrix.all_squares

    def flicker(self, square: int, scans: int = 1) -> None:
        """The next ``scans`` scans read ``square`` inverted (a bouncing switch)."""
        self._check_square(square)
        self._flicker.pending[square] = scans

    def disconnect(self, reason: str = "sensor cable unplugged") -> None:
        """Scans fail (the source turns unhealthy) until :meth:`reconnect`."""
        self.lines.failure = reason

    def reconnect(self) -> None:
        self.lines.failure = None


class RecordingSpi:
    """A fake SPI bus that keeps every write (an :class:`~boardctl.hw.leds.SpiWriter`)."""

    def __init__(self, keep: int = 100) -> None:
        self.writes: deque[bytes] = deque(maxlen=keep)
        self.closed = False

    def write(self, data: bytes) -> None:
        if self.closed:
            raise HardwareError("SPI bus is closed")
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True


class SimLeds(SpiLeds):
    """The real LED driver on a :class:`RecordingSpi`: an :class:`~boardctl.hw.base.LedSink`.

    ``frames`` holds the last ``keep`` frames as given to :meth:`show`,
    ``pixels`` the LED colours in chain order after brightness, ``data`` the
    bytes the SPI bus carried.  :meth:`colour_at` tells the simulator window
    what the LED at a grid point shows.
    """

    def __init__(
        self,
        layout: LedLayout | None = None,
        *,
        brightness: float = 0.3,
        reset: int = RESET_BYTES,
        keep: int = 100,
    ) -> None:
        self.recorder = RecordingSpi(keep)
        super().__init__(
            layout or default_pinout().leds, spi=self.recorder, brightness=brightness, reset=reset
        )
        self.frames: deque[dict[int, Colour]] = deque(maxlen=keep)

    @property
    def map(self) -> LedMap:
        return self.encoder.map

    @property
    def last(self) -> dict[int, Colour]:
        """The last frame shown (empty before the first)."""
        return self.frames[-1] if self.frames else {}

    @property
    def data(self) -> bytes:
        """The bytes of the last SPI write."""
        return self.recorder.writes[-1] if self.recorder.writes else b""

    def show(self, colours: dict[int, Colour]) -> None:
        super().show(colours)
        self.frames.append(dict(colours))

    def colour_at(self, x: int, y: int) -> Colour:
        """The colour of the LED at grid point (x, y) (see :class:`LedMap`)."""
        return self.pixels[self.encoder.map.index(x, y)]


class SimButtons:
    """Buttons pressed by the simulator window or a test (:class:`~boardctl.hw.base.Buttons`)."""

    def __init__(self, names: Iterable[str] | None = None) -> None:
        self.names = None if names is None else frozenset(names)
        self._queue: deque[Press] = deque()

    def press(self, name: str, now: float) -> None:
        """:raises ValueError: for a button that this board does not have."""
        if self.names is not None and name not in self.names:
            raise ValueError(f"no button {name!r} (have {', '.join(sorted(self.names))})")
        self._queue.append(Press(name, now))

    def presses(self, now: float) -> list[Press]:
        """Presses made up to ``now``, oldest first (later ones wait)."""
        ready = []
        while self._queue and self._queue[0].time <= now:
            ready.append(self._queue.popleft())
        return ready

    def close(self) -> None:
        self._queue.clear()
