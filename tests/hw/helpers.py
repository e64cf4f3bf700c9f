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
