"""What a search is asked to do, and what it reports while it runs."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules import Move


@dataclass(frozen=True)
class Limits:
    """Search limits; times in seconds.  No limit at all means "until stopped"."""

    depth: int | None = None
    movetime: float | None = None
    nodes: int | None = None
    mate: int | None = None  # find a mate in this many moves
    wtime: float | None = None  # clocks and increments
    btime: float | None = None
    winc: float = 0.0
    binc: float = 0.0
    movestogo: int | None = None
    infinite: bool = False


@dataclass(frozen=True)
class Info:
    """One line of progress: a finished iteration (or the final answer)."""

    depth: int
    score_cp: int | None  # centipawns from the side to move, or None
    mate: int | None  # moves to mate (negative: being mated), or None
    nodes: int
    time: float  # seconds since the search began
    pv: list[Move] = field(default_factory=list)
    seldepth: int = 0

    @property
    def nps(self) -> int:
        return int(self.nodes / self.time) if self.time > 0 else 0
