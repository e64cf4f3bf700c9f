"""A sensor source that knows when it is behind (the serial board after a
lost or damaged line, or holding a snapshot for confirmation): the daemon's
reconciler does not count that time as the board standing still."""

from __future__ import annotations

from boardctl.board import MoveMade
from boardctl.board.explain import occupancy
from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware
from boardctl.hw.base import MayLag, Reading
from boardctl.rules import Game, get_variant

from ..daemon_fakes import MemoryStore

TWO_PLAYERS = parse_config({"game": {"mode": "two-players"}})
GEO = get_variant("falcon").geometry


def sq(name: str) -> int:
    return GEO.parse_square(name)


class LateSource:
    """Readings at set times; ``behind`` during the set stretches."""

    def __init__(
        self, readings: list[tuple[float, int]], behind: list[tuple[float, float]]
    ) -> None:
        self.readings = readings
        self.stretches = behind
        self.now = 0.0
        self.healthy = True

    def read(self, now: float) -> Reading | None:
        self.now = now
        if self.readings and self.readings[0][0] <= now:
            _, board = self.readings.pop(0)
            return Reading(board, now)
        return None

    @property
    def behind(self) -> bool:
        return any(start <= self.now < end for start, end in self.stretches)

    def close(self) -> None: ...


def test_a_reading_that_comes_late_is_not_judged_by_the_time_it_was_missing() -> None:
    """1. e4 d5, then White lifts the e4 pawn and pushes it to e5.  The
    reading of the push is lost for 3 s: the pawn seems to hang in the air
    for longer than the 2 s after which a swap capture (exd5, the pawn's only
    capture) is taken.  The source knew it was behind, so the push is read as
    the push."""
    game = Game()
    start = occupancy(game.position)
    e4 = start & ~(1 << sq("e2")) | 1 << sq("e4")
    d5 = e4 & ~(1 << sq("d7")) | 1 << sq("d5")
    lifted = d5 & ~(1 << sq("e4"))
    pushed = lifted | 1 << sq("e5")
    source = LateSource([(1.0, e4), (3.0, d5), (5.0, lifted), (8.5, pushed)], behind=[(5.1, 8.5)])
    assert isinstance(source, MayLag)
    daemon = Daemon(TWO_PLAYERS, Hardware(source), MemoryStore(), now=0.0)
    now = 0.0
    while now < 12.0:
        now = round(now + 0.05, 6)
        daemon.step(now)
    moves = [e.uci for e in daemon.events if isinstance(e, MoveMade)]
    assert moves == ["e2e4", "d7d5", "e4e5"]
    assert 3.0 <= daemon.sensing.lagged <= 3.5
