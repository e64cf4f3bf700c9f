"""The sweep step's analysis: squares that never read both empty and occupied,
and whole ranks or files that misbehave together (row and column faults)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..hw.pins import FILES, RANKS
from .squares import ALL_SQUARES, FILE_NAMES, square_name, squares_in


class LineKind(Enum):
    NEVER_OCCUPIED = "never reads occupied"
    ALWAYS_OCCUPIED = "always reads occupied"
    NEVER_CHANGES = "never changes"
    TOGETHER = "only ever changes as one"


@dataclass(frozen=True)
class StuckSquare:
    """A square that did not read both empty and occupied during the sweep."""

    square: int
    occupied: bool          # what it read all along

    def __str__(self) -> str:
        return f"{square_name(self.square)} ({'always' if self.occupied else 'never'} occupied)"


@dataclass(frozen=True)
class LineFault:
    """A whole rank (``file`` False) or file misbehaving: a row or column line."""

    file: bool
    index: int              # rank 0–7 or file 0–9
    kind: LineKind

    @property
    def name(self) -> str:
        return f"file {FILE_NAMES[self.index]}" if self.file else f"rank {self.index + 1}"

    @property
    def advice(self) -> str:
        wire = "column" if self.file else "row"
        key = "columns" if self.file else "rows"
        if self.kind is LineKind.NEVER_OCCUPIED:
            return (f"the {wire} wire of {self.name} is open: a broken wire or joint, or the "
                    f"wrong GPIO for it in the pinout's {key}")
        if self.kind is LineKind.ALWAYS_OCCUPIED:
            return (f"the {wire} line of {self.name} is shorted (to 3.3 V or another line), "
                    "or its pull is missing")
        if self.kind is LineKind.TOGETHER:
            return f"the squares of {self.name} are joined: look for a short along its {wire}"
        return f"no square of {self.name} responds: check its {wire} wire and connector"

    def __str__(self) -> str:
        return f"{self.name} {self.kind.value}: {self.advice}"


RANK_MASK = (1 << FILES) - 1
FILE_MASK = sum(1 << (rank * FILES) for rank in range(RANKS))
LINES: tuple[tuple[bool, int, int], ...] = (
    *((False, rank, RANK_MASK << (rank * FILES)) for rank in range(RANKS)),
    *((True, file, FILE_MASK << file) for file in range(FILES)),
)


class SweepTracker:
    """Which squares read occupied, which empty, and which lines ever read mixed."""

    def __init__(self) -> None:
        self.seen_occupied = 0
        self.seen_empty = 0
        self.mixed = [False] * len(LINES)

    @property
    def both(self) -> int:
        return self.seen_occupied & self.seen_empty

    def feed(self, occupancy: int) -> None:
        self.seen_occupied |= occupancy
        self.seen_empty |= ALL_SQUARES & ~occupancy
        for i, (_, _, mask) in enumerate(LINES):
            if occupancy & mask not in (0, mask):
                self.mixed[i] = True

    def analyse(self) -> tuple[tuple[StuckSquare, ...], tuple[LineFault, ...]]:
        """Stuck squares (less those a line fault explains) and line faults.
        Nothing at all changing is no finding about lines or squares."""
        both = self.both
        if not both:
            return (), ()
        stuck = ALL_SQUARES & ~both
        faults: list[LineFault] = []
        explained = 0
        for i, (is_file, index, mask) in enumerate(LINES):
            if stuck & mask == mask:
                occupied = self.seen_occupied & mask
                kind = (LineKind.ALWAYS_OCCUPIED if occupied == mask
                        else LineKind.NEVER_OCCUPIED if not occupied
                        else LineKind.NEVER_CHANGES)
                faults.append(LineFault(is_file, index, kind))
                explained |= mask
            elif not self.mixed[i] and both & mask:
                faults.append(LineFault(is_file, index, LineKind.TOGETHER))
        squares = tuple(StuckSquare(sq, bool(self.seen_occupied >> sq & 1))
                        for sq in squares_in(stuck & ~explained))
        return squares, tuple(faults)
