"""The sweep step's analysis: squares that never read both empty and occupied,
and whole ranks or files that misbehave together (row and column faults)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from .squares import FILE_NAMES, square_name

if TYPE_CHECKING:
    from .boards import DiagBoard


class LineKind(Enum):
    NEVER_OCCUPIED = "never reads occupied"
    ALWAYS_OCCUPIED = "always reads occupied"
    NEVER_CHANGES = "never changes"
    TOGETHER = "only ever changes as one"


@dataclass(frozen=True)
class StuckSquare:
    """A square that did not read both empty and occupied during the sweep."""

    square: int
    occupied: bool  # what it read all along
    label: str = field(default="", compare=False)  # its name (default: the 8×10 board's)

    def __str__(self) -> str:
        name = self.label or square_name(self.square)
        return f"{name} ({'always' if self.occupied else 'never'} occupied)"


@dataclass(frozen=True)
class LineFault:
    """A whole rank (``file`` False) or file misbehaving: a row or column line."""

    file: bool
    index: int  # rank 0–7 or file 0–9 (the hex board: its row or column line)
    kind: LineKind
    label: str = field(default="", compare=False)  # "ranks 1 and 13" on the hex board
    noun: str = field(default="square", compare=False)  # what its cells are called

    @property
    def name(self) -> str:
        if self.label:
            return self.label
        return f"file {FILE_NAMES[self.index]}" if self.file else f"rank {self.index + 1}"

    @property
    def advice(self) -> str:
        wire = "column" if self.file else "row"
        key = "columns" if self.file else "rows"
        if self.kind is LineKind.NEVER_OCCUPIED:
            return (
                f"the {wire} wire of {self.name} is open: a broken wire or joint, or the "
                f"wrong GPIO for it in the pinout's {key}"
            )
        if self.kind is LineKind.ALWAYS_OCCUPIED:
            return (
                f"the {wire} line of {self.name} is shorted (to 3.3 V or another line), "
                "or its pull is missing"
            )
        if self.kind is LineKind.TOGETHER:
            return f"the {self.noun}s of {self.name} are joined: look for a short along its {wire}"
        return f"no square of {self.name} responds: check its {wire} wire and connector"

    def __str__(self) -> str:
        return f"{self.name} {self.kind.value}: {self.advice}"


class SweepTracker:
    """Which squares read occupied, which empty, and which lines ever read mixed
    (``board``'s lines: the 8×10 board's ranks and files by default)."""

    def __init__(self, board: DiagBoard | None = None) -> None:
        from .boards import SQUARE_BOARD

        self.board = board or SQUARE_BOARD
        self.lines = self.board.lines
        self.every = self.board.all
        self.seen_occupied = 0
        self.seen_empty = 0
        self.mixed = [False] * len(self.lines)

    @property
    def both(self) -> int:
        return self.seen_occupied & self.seen_empty

    def feed(self, occupancy: int) -> None:
        self.seen_occupied |= occupancy
        self.seen_empty |= self.every & ~occupancy
        for i, line in enumerate(self.lines):
            mask = line.mask
            if occupancy & mask not in (0, mask):
                self.mixed[i] = True

    def analyse(self) -> tuple[tuple[StuckSquare, ...], tuple[LineFault, ...]]:
        """Stuck squares (less those a line fault explains) and line faults.
        Nothing at all changing is no finding about lines or squares."""
        both = self.both
        if not both:
            return (), ()
        stuck = self.every & ~both
        faults: list[LineFault] = []
        explained = 0
        for i, line in enumerate(self.lines):
            mask = line.mask
            label, noun = line.name, self.board.noun
            if stuck & mask == mask:
                occupied = self.seen_occupied & mask
                kind = (
                    LineKind.ALWAYS_OCCUPIED
                    if occupied == mask
                    else LineKind.NEVER_OCCUPIED
                    if not occupied
                    else LineKind.NEVER_CHANGES
                )
                faults.append(LineFault(line.file, line.index, kind, label, noun))
                explained |= mask
            elif not self.mixed[i] and both & mask:
                faults.append(LineFault(line.file, line.index, LineKind.TOGETHER, label, noun))
        left = stuck & ~explained
        squares = tuple(
            StuckSquare(sq, bool(self.seen_occupied >> sq & 1), self.board.name(sq))
            for sq in range(self.board.cells)
            if left >> sq & 1
        )
        return squares, tuple(faults)
