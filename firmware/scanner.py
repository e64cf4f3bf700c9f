# Reading the sensors and debouncing them.
#
# A reader fills `rows` with one int per rank: bit f set = the square on file
# f of that rank reads closed.  Two readers: a diode switch matrix (ranks are
# driven one at a time, files read together) and a chain of 74HC165 shift
# registers read over SPI.  The hardware is a port object from hal.py, or a
# fake in the tests.
#
# Scanner debounces: a square changes only after `reads` equal reads in a
# row that differ from its stable value.  Everything is per-rank small ints
# and a bit string updated in place, so a scan allocates nothing on
# MicroPython.

import array

import wire


class MatrixReader:
    """port.read_row(rank) drives one rank and returns its files as bits;
    a port that can read every rank at once has read_rows(rows), which the
    reader then uses (hal.py's, at machine speed on the Pico)."""

    def __init__(self, port, ranks):
        self._port = port
        self._ranks = ranks
        self._read_rows = getattr(port, "read_rows", None)

    def read(self, rows):
        if self._read_rows is not None:
            self._read_rows(rows)
            return
        port = self._port
        for rank in range(self._ranks):
            rows[rank] = port.read_row(rank)


class ShiftRegReader:
    """port.read() returns the chain's bytes, first byte out first.  Read as
    one big-endian number, bit sq is square sq (a1 = 0): the first bit
    clocked out is the last square (j8 on 8 x 10).  Wire the chain so."""

    def __init__(self, port, files, ranks):
        self._port = port
        self._files = files
        self._ranks = ranks
        self._mask = (1 << files) - 1
        self._last = None  # the chain's bytes at the last read
        self._rows = [0] * ranks  # and the rows they made

    def read(self, rows):
        data = self._port.read()
        cached = self._rows
        if data != self._last:
            # Only a change is unpacked: the chain as one number is a long
            # integer, which MicroPython allocates.
            self._last = bytes(data)
            number = int.from_bytes(data, "big")
            files = self._files
            mask = self._mask
            for rank in range(self._ranks):
                cached[rank] = (number >> (rank * files)) & mask
        for rank in range(self._ranks):
            rows[rank] = cached[rank]


def _runs(cells, files, ranks):
    """For each row, (shift, mask, base) for every run of neighbouring
    columns whose squares are numbered one after the other: bits
    shift ... shift + width - 1 of the row are squares base ... base +
    width - 1.  The hex board's rank lines make one to three runs each, so
    a row costs a few shifts, not one per square."""
    out = []
    for row in range(ranks):
        row_runs = []
        column = 0
        while column < files:
            base = cells[row * files + column]
            if base < 0:
                column += 1
                continue
            width = 1
            while column + width < files and cells[row * files + column + width] == base + width:
                width += 1
            row_runs.append((column, (1 << width) - 1, base))
            column += width
        out.append(tuple(row_runs))
    return tuple(out)


class Scanner:
    """Calls the reader once per scan() and keeps the debounced board.

    The reader's rows need not be ranks: with `cells` (a board that is not
    files x ranks, such as the hex board's 12 x 12 matrix), bit f of row r
    is the square cells[r * files + f], and -1 there means no square.

    The board is kept as a bit string, `bits` (bit sq is bit sq % 8 of byte
    sq // 8), updated in place when it changes: as one number it would be a
    long integer, which MicroPython allocates at every change."""

    def __init__(self, reader, files, ranks, reads=4, active_low=False, cells=None):
        if reads < 1:
            raise ValueError("reads must be at least 1")
        if cells is not None and len(cells) != files * ranks:
            raise ValueError("cells must have files * ranks entries")
        if cells is None:
            cells = tuple(range(files * ranks))
        self._reader = reader
        self._files = files
        self._ranks = ranks
        self._runs = _runs(cells, files, ranks)
        self._reads = reads
        self._invert = (1 << files) - 1 if active_low else 0
        # Arrays, not lists: compared in one call, and filled by hal.py's reader.
        self._history = [array.array("I", [0] * ranks) for _ in range(reads)]
        self._slot = 0
        self.stable = array.array("I", [0] * ranks)
        self.scans = 0
        self.squares = max(cells) + 1
        self.bits = bytearray((self.squares + 7) // 8)

    @property
    def ready(self):
        """True once `reads` scans have been made: the stable board means something."""
        return self.scans >= self._reads

    def scan(self):
        """Read the sensors once; True if the stable board changed."""
        raw = self._history[self._slot]
        self._reader.read(raw)
        invert = self._invert
        if invert:
            for rank in range(self._ranks):
                raw[rank] ^= invert
        self._slot = (self._slot + 1) % self._reads
        self.scans += 1
        if self.scans < self._reads:
            return False
        if self.scans > self._reads and raw == self.stable:
            # The usual scan: whatever the reads before, a square that reads
            # its stable value now keeps it (all equal reads would include
            # this one), so nothing can change.
            return False
        changed = False
        history = self._history
        stable = self.stable
        runs = self._runs
        for rank in range(self._ranks):
            ones = -1
            anys = 0
            for past in history:
                ones &= past[rank]
                anys |= past[rank]
            new = ones | (stable[rank] & anys)  # all 1 -> 1, all 0 -> 0, else keep
            if new != stable[rank]:
                stable[rank] = new
                changed = True
                for shift, mask, base in runs[rank]:
                    wire.put_bits(self.bits, base, new >> shift, mask)
        return changed or self.scans == self._reads

    def reading(self):
        """The debounced board as a bit string (`bits`, the scanner's own,
        updated in place), or None until ready."""
        return self.bits if self.ready else None

    def occupancy(self):
        """The debounced board as a number, bit sq = square sq; None until
        ready.  It allocates: the firmware's loop uses reading()."""
        if not self.ready:
            return None
        return int.from_bytes(bytes(self.bits), "little")
