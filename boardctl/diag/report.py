"""What a ``boardctl diag`` session found, and its summary in words."""

from __future__ import annotations

from dataclasses import dataclass

from ..hw.pins import SQUARES
from .ledorder import LedCheck
from .link import LinkCounts
from .steps import Phase
from .sweep import LineFault, StuckSquare


@dataclass(frozen=True)
class Outage:
    """A stretch with the sensor source unhealthy; ``end`` None: still at the end."""

    start: float
    end: float | None
    reason: str


@dataclass(frozen=True)
class DiagReport:
    """What a session found.  ``started`` is the time of its first tick."""

    steps: tuple[Phase, ...]
    started: float
    swept: int | None  # squares seen both ways; None: no sweep
    stuck: tuple[StuckSquare, ...]  # squares not explained by a line fault
    line_faults: tuple[LineFault, ...]
    led_checks: tuple[LedCheck, ...]
    led_advice: tuple[str, ...]
    outages: tuple[Outage, ...]
    unhealthy_readings: int
    led_errors: tuple[str, ...]
    notes: tuple[str, ...]
    cells: int = SQUARES  # the board's squares, or the hex board's cells
    noun: str = "square"
    link: LinkCounts | None = None  # a serial board's counters at the end

    @property
    def mismatches(self) -> tuple[LedCheck, ...]:
        return tuple(c for c in self.led_checks if c.observed and not c.matched)

    @property
    def skipped(self) -> tuple[LedCheck, ...]:
        return tuple(c for c in self.led_checks if not c.observed)

    @property
    def problems(self) -> int:
        nothing_moved = self.swept == 0
        return (
            len(self.stuck)
            + len(self.line_faults)
            + len(self.mismatches)
            + len(self.skipped)
            + len(self.outages)
            + len(self.led_errors)
            + int(nothing_moved)
            + (self.link.problems if self.link is not None else 0)
        )

    @property
    def ok(self) -> bool:
        return self.problems == 0

    def summary(self) -> str:
        lines = [
            "boardctl diag: summary",
            f"  steps: {', '.join(s.value for s in self.steps) or 'none'}",
        ]
        if self.swept is None:
            lines.append("  sweep: not run")
        elif self.swept == 0:
            lines.append(
                f"  sweep: no {self.noun} changed (were pieces moved? is the sensor "
                "board connected?)"
            )
        else:
            lines.append(
                f"  sweep: {self.swept} of {self.cells} {self.noun}s read both empty and occupied"
            )
            lines.append(f"  stuck {self.noun}s: {', '.join(map(str, self.stuck)) or 'none'}")
            lines.append("  rank/file faults: " + ("none" if not self.line_faults else ""))
            lines += [f"    {fault}" for fault in self.line_faults]
        if Phase.ORDER in self.steps and self.led_checks:
            matched = sum(c.matched for c in self.led_checks)
            lines.append(
                f"  LED order: {matched} of {len(self.led_checks)} checked {self.noun}s matched"
            )
            lines += [f"    mismatch: {check}" for check in self.mismatches]
            lines += [f"    skipped: {check}" for check in self.skipped]
            lines += [f"    advice: {text}" for text in self.led_advice]
        elif Phase.ORDER in self.steps:
            lines.append("  LED order: not checked")
        if self.outages:
            lines.append(f"  connection: board not connected {len(self.outages)} time(s)")
            for outage in self.outages:
                start = outage.start - self.started
                until = (
                    "until the end"
                    if outage.end is None
                    else f"for {outage.end - outage.start:.2f} s"
                )
                lines.append(f"    at {start:.2f} s {until}: {outage.reason}")
        else:
            lines.append("  connection: no interruptions")
        if self.unhealthy_readings:
            lines.append(f"    {self.unhealthy_readings} reading(s) while unhealthy were ignored")
        if self.link is not None:
            lines += self.link.lines()
        lines += [f"  LEDs: {error}" for error in self.led_errors]
        lines += [f"  note: {note}" for note in self.notes]
        lines.append(
            "  result: no faults found"
            if self.ok
            else f"  result: {self.problems} problem(s) found"
        )
        return "\n".join(lines)
