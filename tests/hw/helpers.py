"""Square names for the hardware tests (a1 = 0 … j8 = 79, rank by rank)."""

from __future__ import annotations

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
    0x07, init 0): the tests' own oracle, not the code under test."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc << 1 ^ 0x07) & 0xFF if crc & 0x80 else crc << 1 & 0xFF
    return crc
