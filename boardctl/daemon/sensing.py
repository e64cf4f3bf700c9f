"""The sensors as the daemon reads them: the board's own clock, what is wrong
with them, and the raw stream written for a bug report."""

from __future__ import annotations

import contextlib
import logging
from typing import TextIO

from ..hw import Reading, SensorSource
from ..hw.base import ExplainsProblems, MayLag
from ..rules.boardgeometry import BoardGeometry

log = logging.getLogger("boardctl")


class Sensing:
    """Reads ``sensors`` each turn of the loop; ``recorder``: where the raw
    stream goes in the replay format (None: nowhere), with times from ``now``.

    The reconciler's clock is the daemon's, less the time the sensors were
    behind.  Its timers judge a board that stays still; while the last
    reading may be out of date (a serial line lost, a snapshot held) the
    board may have moved already, so that time does not count, and a late
    reading is judged as if it had come when the sensors fell behind.
    """

    def __init__(self, sensors: SensorSource, recorder: TextIO | None, now: float) -> None:
        self.sensors = sensors
        # Asked once: an isinstance against a runtime-checkable protocol costs
        # some 9 us (a Pi several times that), and the tests' games in virtual
        # time turn the loop a quarter of a million times.
        self._lags = sensors if isinstance(sensors, MayLag) else None
        self.recorder = recorder
        self.start_time = now
        self.lagged = 0.0
        self._lagging = False
        self.last_reading: int | None = None
        self.problem: str | None = None  # what the sensors last said was wrong (logged)

    def board_time(self, now: float) -> float:
        """``now`` on the reconciler's clock."""
        return now - self.lagged

    def read(self, now: float, previous: float, geometry: BoardGeometry) -> Reading | None:
        """The sensors' reading at ``now`` (the last turn's was at
        ``previous``), if any, on the reconciler's clock."""
        reading = self.sensors.read(now)
        if self._lagging:
            self.lagged += now - previous
        self._lagging = self._lags is not None and self._lags.behind
        if reading is not None:
            self._record(reading, geometry)
        self._watch()
        if reading is None:
            return None
        return Reading(reading.occupancy, self.board_time(reading.time))

    @property
    def healthy(self) -> bool:
        return self.sensors.healthy

    def _watch(self) -> None:
        """Log what is wrong with the sensors once when it starts or changes,
        and once when they are back; the screen shows it while it lasts."""
        healthy = self.sensors.healthy
        problem = None
        if not healthy and isinstance(self.sensors, ExplainsProblems):
            problem = self.sensors.problem
        if problem is not None and problem != self.problem:
            log.warning("%s", problem)
            self.problem = problem
        elif healthy and self.problem is not None:
            log.info("sensor board connected again")
            self.problem = None

    def _record(self, reading: Reading, geo: BoardGeometry) -> None:
        """Write the raw sensor stream in the replay format (for bug reports)."""
        if self.recorder is None:
            self.last_reading = reading.occupancy
            return
        if self.last_reading is not None:
            changed = reading.occupancy ^ self.last_reading
            try:
                for sq in geo.squares(changed):
                    verb = "place" if reading.occupancy >> sq & 1 else "lift"
                    self.recorder.write(
                        f"{reading.time - self.start_time:.3f} {verb} {geo.name(sq)}\n"
                    )
                self.recorder.flush()
            except OSError as exc:
                # A recording is for a bug report: a full disk ends it, not the game.
                log.error(
                    "[board] record: cannot write (%s): recording stopped", exc.strerror or exc
                )
                with contextlib.suppress(OSError):  # its unwritten lines are lost
                    self.recorder.close()
                self.recorder = None
        self.last_reading = reading.occupancy
