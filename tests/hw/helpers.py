"""For the hardware tests: square names (a1 = 0 … j8 = 79, rank by rank), boards,
the old checksum, and the Pico's pins as the build documents list them."""

from __future__ import annotations

import re

FILES = "abcdefghij"


def sq(name: str) -> int:
    return (int(name[1:]) - 1) * 10 + FILES.index(name[0])


def bits(*names: str) -> int:
    return sum(1 << sq(n) for n in names)


# The start position closes whole ranks: 1, 2, 7 and 8.
START = sum(1 << s for s in [*range(0, 20), *range(60, 80)])
FULL = (1 << 80) - 1
CHECKER = sum(1 << s for s in range(80) if (s // 10 + s % 10) % 2 == 0)


def crc8_smbus(data: bytes) -> int:
    """Protocol version 1's check, written here from its definition (poly
    0x07, init 0, nothing reflected): the remainder of the message times x^8
    divided by x^8 + x^2 + x + 1, by long division of the message as one
    number; the tests' own oracle, not the code under test."""
    rem = int.from_bytes(data, "big") << 8
    for shift in range(rem.bit_length() - 9, -1, -1):
        if rem >> (shift + 8) & 1:
            rem ^= 0x107 << shift
    return rem


# Raspberry Pi Pico: GP number → pin on the board's edge.
PICO_EDGE = {
    0: 1,
    1: 2,
    2: 4,
    3: 5,
    4: 6,
    5: 7,
    6: 9,
    7: 10,
    8: 11,
    9: 12,
    10: 14,
    11: 15,
    12: 16,
    13: 17,
    14: 19,
    15: 20,
    16: 21,
    17: 22,
    18: 24,
    19: 25,
    20: 26,
    21: 27,
    22: 29,
    26: 31,
    27: 32,
    28: 34,
}
# A row of a build document's pin table: | GPIO17 | 11 | `key` | (or GP for the Pico).
PIN_ROW = re.compile(r"^\| (GPIO|GP)(\d+) \| (\d+) \| `([^`]+)` \|", re.MULTILINE)


def pin_table(document: str) -> dict[tuple[str, str], tuple[int, int]]:
    """A build document's pin tables: (GPIO or GP, key) → (its number, the header pin)."""
    return {
        (kind, key): (int(gpio), int(pin)) for kind, gpio, pin, key in PIN_ROW.findall(document)
    }
