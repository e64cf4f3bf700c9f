# What one sensor scan costs the firmware, in microseconds, on the 8 x 10
# board and on the hex board (12 x 12 matrix, rows turned into cell numbers
# through hexboard.MATRIX_CELLS): with the board still (the usual case) and
# with every square changing on every scan (the worst case: the occupancy
# number is rebuilt each time).  The hardware read is a stand-in, so this is
# the scanner's own cost.  A bench beside the firmware, never flashed with
# it; from the repository's root:
#
#     MICROPYPATH=firmware .venv/bin/micropython bench/firmware/bench_scan.py
#     PYTHONPATH=firmware python3 bench/firmware/bench_scan.py
#     mpremote run bench/firmware/bench_scan.py  (on the Pico, with hexboard.py
#                                                 and benchtime.py copied to it)

import sys

import hexboard
import scanner
from benchtime import per_call_us


class Rows:
    """A reader: every row reads all closed, or inverted on every other scan."""

    def __init__(self, rows, width, flip):
        self.full = (1 << width) - 1
        self.rows = rows
        self.flip = flip
        self.odd = 0

    def read(self, rows):
        self.odd ^= self.flip
        value = self.full if not self.odd else 0
        for row in range(self.rows):
            rows[row] = value


def main():
    rows, width = len(hexboard.MATRIX_ROW_PINS), len(hexboard.MATRIX_COLUMN_PINS)
    boards = (
        ("8 x 10", lambda flip: scanner.Scanner(Rows(8, 10, flip), 10, 8, 1)),
        (
            "hex 121",
            lambda flip: scanner.Scanner(
                Rows(rows, width, flip), width, rows, 1, False, hexboard.MATRIX_CELLS
            ),
        ),
    )
    print("us per scan, %s:" % sys.implementation.name)
    for name, make in boards:
        still = per_call_us(make(0).scan)
        changing = per_call_us(make(1).scan)
        print("  %-8s still %.1f, every square changing %.1f" % (name, still, changing))


main()
