"""``boardctl diag``: the bring-up tool for the person who just built the board.

Four steps, each optional (``--steps``), in this order:

1. **walk** — every square's LED lights in turn, a1 … j1, a2 … j8, each rank
   in its own colour: a dark square or a light out of order shows at once.
2. **live** — an ASCII board (files a–j, ranks 8 … 1) follows the sensors
   while the user lifts and places pieces anywhere.
3. **sweep** — the user makes every square read occupied and empty at least
   once.  Squares that never do are *stuck*; a whole rank or file that never
   reads occupied, always does, never changes or only ever changes as one is
   a row/column fault (a broken row wire empties a rank, a shorted column
   fills a file).
4. **order** — one square lights; the user places a piece there (or lifts
   the one on it), and the sensors must see the change on that square.  The
   squares seen instead are matched against every LED chain order the
   pinout can describe (``order``, ``along``, ``first`` in ``[leds]`` of
   ``hardware/pinout.toml``) to say which setting is wrong.

Readings taken while the source is unhealthy are counted, not used, and
every stretch without a connection is reported: a disconnected board shows
"board not connected" and the session goes on.

:class:`Diagnostics` is the core: sensors and LEDs are injected, time comes
in as ``now`` on every call, there is no I/O, thread or sleep in it.  The
front ends are thin: :func:`run_scripted` drives it in virtual time with a
:class:`ScriptedUser` at a :class:`~boardctl.hw.sim.SimBoard` (the tests and
``boardctl diag --sim``), :func:`run_terminal` in real time with the
keyboard.  Usage::

    diag = Diagnostics(SimBoard(), SimLeds(), layout=default_pinout().leds)
    while diag.phase is not Phase.DONE:
        diag.tick(now)                 # ~100 times a second
        if enter_pressed:
            diag.advance(now)
    print(diag.finish(now).summary())
"""

from __future__ import annotations

import queue
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from itertools import product
from pathlib import Path
from typing import Protocol, TextIO

from .config import Config
from .errors import BoardctlError
from .hw.base import Colour, LedSink, Reading, SensorSource
from .hw.leds import LedMap
from .hw.pins import ALONG, CORNERS, FILES, ORDERS, RANKS, SQUARES, LedLayout
from .hw.sim import SimBoard, SimLeds

FILE_NAMES = "abcdefghij"
ALL_SQUARES = (1 << SQUARES) - 1
WALK_DWELL = 0.25       # seconds each square stays lit in the walk
SETTLE = 0.3            # the board must be still this long before an LED check is judged
TICK = 0.01             # front ends call tick() this often (the sensors scan at 100 Hz)
REFRESH = 0.1           # the terminal redraws at most this often
WALK_COLOURS: tuple[Colour, ...] = (
    (255, 0, 0), (255, 96, 0), (255, 255, 0), (0, 255, 0),
    (0, 255, 255), (0, 0, 255), (160, 0, 255), (255, 255, 255))
CHECK_COLOUR: Colour = (255, 255, 255)
DONE_COLOUR: Colour = (0, 160, 0)
OCCUPIED_COLOUR: Colour = (0, 64, 255)


class DiagError(BoardctlError, ValueError):
    """A bad ``--steps`` list or check square."""


def square_name(square: int) -> str:
    rank, file = divmod(square, FILES)
    return f"{FILE_NAMES[file]}{rank + 1}"


def parse_square(name: str) -> int:
    """``"e4"`` as a square number.  :raises DiagError: for a square off the board."""
    if len(name) >= 2 and name[0] in FILE_NAMES and name[1:].isdigit():
        rank = int(name[1:]) - 1
        if 0 <= rank < RANKS:
            return rank * FILES + FILE_NAMES.index(name[0])
    raise DiagError(f"no square {name!r} on the board (a1 … j8)")


def _squares(bits: int) -> tuple[int, ...]:
    return tuple(sq for sq in range(SQUARES) if bits >> sq & 1)


def _names(squares: Iterable[int]) -> str:
    return ", ".join(square_name(sq) for sq in squares)


# The squares that tell every chain order of 80 LEDs apart (tests check this).
CHECK_SQUARES: tuple[int, ...] = tuple(
    parse_square(n) for n in ("a1", "b1", "j1", "a2", "j2", "a8", "j8"))


class Phase(Enum):
    WALK = "walk"
    LIVE = "live"
    SWEEP = "sweep"
    ORDER = "order"
    DONE = "done"


STEPS = (Phase.WALK, Phase.LIVE, Phase.SWEEP, Phase.ORDER)
LED_STEPS = frozenset({Phase.WALK, Phase.ORDER})


def parse_steps(text: str) -> tuple[Phase, ...]:
    """``"walk,sweep"`` as steps, in the order they run.

    :raises DiagError: naming an unknown step.
    """
    names = [part.strip() for part in text.replace(" ", ",").split(",") if part.strip()]
    known = {step.value: step for step in STEPS}
    for name in names:
        if name not in known:
            raise DiagError(f"--steps: unknown step {name!r} (steps: {', '.join(known)})")
    if not names:
        raise DiagError(f"--steps: name at least one step ({', '.join(known)})")
    return tuple(step for step in STEPS if step.value in names)


# ---------------------------------------------------------------- results


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


@dataclass(frozen=True)
class LedCheck:
    """One LED order check: the square lit, and the squares the sensors saw change
    (empty when the user skipped it)."""

    square: int
    observed: tuple[int, ...]

    @property
    def matched(self) -> bool:
        return self.observed == (self.square,)

    def __str__(self) -> str:
        seen = _names(self.observed) if self.observed else "nothing"
        return f"lit {square_name(self.square)}, sensors saw {seen}"


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
    swept: int | None                   # squares seen both ways; None: no sweep
    stuck: tuple[StuckSquare, ...]      # squares not explained by a line fault
    line_faults: tuple[LineFault, ...]
    led_checks: tuple[LedCheck, ...]
    led_advice: tuple[str, ...]
    outages: tuple[Outage, ...]
    unhealthy_readings: int
    led_errors: tuple[str, ...]
    notes: tuple[str, ...]

    @property
    def mismatches(self) -> tuple[LedCheck, ...]:
        return tuple(c for c in self.led_checks if c.observed and not c.matched)

    @property
    def skipped(self) -> tuple[LedCheck, ...]:
        return tuple(c for c in self.led_checks if not c.observed)

    @property
    def problems(self) -> int:
        nothing_moved = self.swept == 0
        return (len(self.stuck) + len(self.line_faults) + len(self.mismatches)
                + len(self.skipped) + len(self.outages) + len(self.led_errors)
                + int(nothing_moved))

    @property
    def ok(self) -> bool:
        return self.problems == 0

    def summary(self) -> str:
        lines = ["boardctl diag: summary",
                 f"  steps: {', '.join(s.value for s in self.steps) or 'none'}"]
        if self.swept is None:
            lines.append("  sweep: not run")
        elif self.swept == 0:
            lines.append("  sweep: no square changed (were pieces moved? is the sensor board "
                         "connected?)")
        else:
            lines.append(f"  sweep: {self.swept} of {SQUARES} squares read both empty and "
                         "occupied")
            lines.append(f"  stuck squares: {', '.join(map(str, self.stuck)) or 'none'}")
            lines.append("  rank/file faults: " + ("none" if not self.line_faults else ""))
            lines += [f"    {fault}" for fault in self.line_faults]
        if Phase.ORDER in self.steps and self.led_checks:
            matched = sum(c.matched for c in self.led_checks)
            lines.append(f"  LED order: {matched} of {len(self.led_checks)} checked squares "
                         "matched")
            lines += [f"    mismatch: {check}" for check in self.mismatches]
            lines += [f"    skipped: {check}" for check in self.skipped]
            lines += [f"    advice: {text}" for text in self.led_advice]
        elif Phase.ORDER in self.steps:
            lines.append("  LED order: not checked")
        if self.outages:
            lines.append(f"  connection: board not connected {len(self.outages)} time(s)")
            for outage in self.outages:
                start = outage.start - self.started
                until = ("until the end" if outage.end is None
                         else f"for {outage.end - outage.start:.2f} s")
                lines.append(f"    at {start:.2f} s {until}: {outage.reason}")
        else:
            lines.append("  connection: no interruptions")
        if self.unhealthy_readings:
            lines.append(f"    {self.unhealthy_readings} reading(s) while unhealthy were "
                         "ignored")
        lines += [f"  LEDs: {error}" for error in self.led_errors]
        lines += [f"  note: {note}" for note in self.notes]
        lines.append("  result: no faults found" if self.ok
                     else f"  result: {self.problems} problem(s) found")
        return "\n".join(lines)


# ---------------------------------------------------------------- sweep analysis

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
                        for sq in _squares(stuck & ~explained))
        return squares, tuple(faults)


# ---------------------------------------------------------------- LED order


def chain_layouts(layout: LedLayout) -> list[LedLayout]:
    """Every chain order the pinout can describe for this LED count, ``layout`` first."""
    others = [replace(layout, order=o, along=a, first=f)
              for o, a, f in product(ORDERS, ALONG, CORNERS)]
    return [layout, *(other for other in others if other != layout)]


class _Chain:
    """Squares ↔ LED chain positions for one layout."""

    def __init__(self, layout: LedLayout) -> None:
        self.map = LedMap(layout)
        self.layout = layout
        self.points = {self.map.index(x, y): (x, y)
                       for x in range(layout.width) for y in range(layout.height)}

    def indices(self, square: int) -> frozenset[int]:
        return frozenset(self.map.index(x, y) for x, y in self.map.points(square))

    def square_at(self, indices: Iterable[int]) -> int | None:
        """The square whose LEDs are exactly these, if they make one."""
        points = {self.points[i] for i in indices if i in self.points}
        if not points:
            return None
        x, y = min(p[0] for p in points), min(p[1] for p in points)
        square = y * FILES + x
        if x < FILES and y < RANKS and set(self.map.points(square)) == points:
            return square
        return None


def seen_square(configured: LedLayout, actual: LedLayout, square: int) -> int | None:
    """Where the light shows when the software, believing ``configured``, lights
    ``square`` on a chain wired as ``actual`` (None: not on one square)."""
    return _Chain(actual).square_at(_Chain(configured).indices(square))


def _mirror_files(sq: int) -> int:
    return sq - sq % FILES + FILES - 1 - sq % FILES


def _mirror_ranks(sq: int) -> int:
    return (RANKS - 1 - sq // FILES) * FILES + sq % FILES


def _pattern(answered: Sequence[LedCheck]) -> str | None:
    """How the squares seen relate to the squares lit, if they share one mirror."""
    def fits(rule: Callable[[int], int]) -> bool:
        return all(c.observed == (rule(c.square),) for c in answered)

    def alternate(mirror: Callable[[int], int], line: Callable[[int], int],
                  odd: int) -> Callable[[int], int]:
        return lambda sq: mirror(sq) if line(sq) % 2 == odd else sq

    rules: dict[str, Callable[[int], int]] = {
        "mirrored across the files (a↔j)": _mirror_files,
        "mirrored across the ranks (1↔8)": _mirror_ranks,
        "turned half round (a1↔j8)": lambda sq: _mirror_files(_mirror_ranks(sq)),
        "reversed on every other rank (2, 4, 6, 8)":
            alternate(_mirror_files, lambda sq: sq // FILES, 1),
        "reversed on every other rank (1, 3, 5, 7)":
            alternate(_mirror_files, lambda sq: sq // FILES, 0),
        "reversed on every other file (b, d, f, h, j)":
            alternate(_mirror_ranks, lambda sq: sq % FILES, 1),
        "reversed on every other file (a, c, e, g, i)":
            alternate(_mirror_ranks, lambda sq: sq % FILES, 0),
    }
    for text, rule in rules.items():
        if fits(rule):
            return text
    return None


def led_order_advice(layout: LedLayout | None, checks: Sequence[LedCheck]) -> tuple[str, ...]:
    """Which pinout setting explains the LED checks' mismatches, in words."""
    bad = [c for c in checks if c.observed and not c.matched]
    answered = [c for c in checks if len(c.observed) == 1]
    advice: list[str] = []
    pattern = _pattern(answered) if bad else None
    if pattern:
        advice.append(f"the squares seen are the lit ones {pattern}")
    if layout is None:
        if bad:
            advice.append("check the LED chain order ([leds] order, along, first in the "
                          "pinout) and the sensor rows and columns")
        return tuple(advice)
    if bad and answered:
        configured = _Chain(layout)
        fits = []
        for candidate in chain_layouts(layout)[1:]:
            chain = _Chain(candidate)
            if all(chain.square_at(configured.indices(c.square)) == c.observed[0]
                   for c in answered):
                fits.append(candidate)
        for fit in fits[:3]:
            changes = [f'{key} = "{getattr(fit, key)}"' for key in ("order", "along", "first")
                       if getattr(fit, key) != getattr(layout, key)]
            advice.append(f"the LEDs behave as if wired with {' and '.join(changes)}: set "
                          f"{', '.join(changes)} in [leds] of the pinout (now order = "
                          f'"{layout.order}", along = "{layout.along}", first = '
                          f'"{layout.first}")')
        if not fits:
            advice.append("no LED chain order explains the squares seen: check the sensor "
                          "wiring (the order of the pinout's rows and columns, a swapped pair "
                          "of wires) and that each piece went on the lit square")
        elif pattern and "every other" not in pattern:
            # A mirror of the sensors is a mirror of the LEDs as far as this check can tell.
            advice.append("a sensor board with its rows or columns in reverse order looks the "
                          "same: if the walk started at the a1 corner, the LEDs are right and "
                          "the pinout's sensor rows or columns are reversed")
    if layout.corner_grid and any(not c.observed for c in checks):
        advice.append("if the lit LEDs were scattered rather than the four corners of one "
                      "square, the chain order (order, along, first in [leds]) is wrong")
    return tuple(advice)


# ---------------------------------------------------------------- the core


def render_board(occupancy: int | None, lit: int | None = None) -> str:
    """The board as text, rank 8 at the top: ``#`` occupied, ``.`` empty,
    ``?`` unknown, the lit square in brackets."""
    lines = ["     " + "  ".join(FILE_NAMES)]
    for rank in range(RANKS - 1, -1, -1):
        cells = []
        for file in range(FILES):
            square = rank * FILES + file
            mark = "?" if occupancy is None else "#" if occupancy >> square & 1 else "."
            cells.append(f"[{mark}]" if square == lit else f" {mark} ")
        lines.append(f" {rank + 1:>2} {''.join(cells)}".rstrip())
    return "\n".join(lines)


class Diagnostics:
    """A diagnostic session over injected sensors and LEDs.

    Call :meth:`tick` about every 10 ms with the current time; :meth:`advance`
    when the user presses Enter (ends the walk, the live view or the sweep,
    skips an LED check); :meth:`finish` for the report.  ``leds`` None skips
    the LED steps; ``layout`` (the pinout's ``[leds]``) lets the report name
    the setting behind LED mismatches.  Errors from the hardware are caught
    and reported: a session never ends because the board went away.
    """

    def __init__(self, sensors: SensorSource, leds: LedSink | None, *,
                 layout: LedLayout | None = None, steps: Sequence[Phase] = STEPS,
                 check_squares: Sequence[int] = CHECK_SQUARES, walk_dwell: float = WALK_DWELL,
                 settle: float = SETTLE) -> None:
        if walk_dwell <= 0 or settle < 0:
            raise ValueError("walk_dwell must be positive and settle not negative")
        self.sensors = sensors
        self.leds = leds
        self.layout = layout
        self.steps = tuple(step for step in STEPS if step in steps)
        self.check_squares = tuple(check_squares)
        self.walk_dwell = walk_dwell
        self.settle = settle
        self.notes: list[str] = []
        plan = list(self.steps)
        if leds is None and LED_STEPS & set(plan):
            plan = [step for step in plan if step not in LED_STEPS]
            self.notes.append("no LEDs: the walk and the LED order check were skipped")
        self._plan = [*plan, Phase.DONE]
        self.phase = self._plan[0]
        self.occupancy: int | None = None
        self.healthy = True
        self.error: str | None = None
        self.lit: int | None = None
        self._started: float | None = None
        self._phase_start = 0.0
        self._changed_at = 0.0
        self._frame: dict[int, Colour] | None = None
        self._sweep: SweepTracker | None = None
        self._checks: list[LedCheck] = []
        self._baseline: int | None = None
        self._outages: list[Outage] = []
        self._outage_start: float | None = None
        self._outage_reason = ""
        self._unhealthy_readings = 0
        self._led_errors: dict[str, int] = {}

    # -------------------------------------------------------------- driving

    def tick(self, now: float) -> Phase:
        """Read the sensors once, drive the LEDs and move on when a step is done."""
        self._start(now)
        self._read(now)
        if self.phase is Phase.WALK:
            step = int((now - self._phase_start) / self.walk_dwell)
            if step >= SQUARES:
                self._next(now)
            else:
                self._light({step: WALK_COLOURS[step // FILES % len(WALK_COLOURS)]}, step)
        elif self.phase is Phase.LIVE and self.occupancy is not None:
            self._light(dict.fromkeys(_squares(self.occupancy), OCCUPIED_COLOUR))
        elif self.phase is Phase.SWEEP and self._sweep is not None:
            both = self._sweep.both
            self._light(dict.fromkeys(_squares(both), DONE_COLOUR))
            if both == ALL_SQUARES:
                self._next(now)
        elif self.phase is Phase.ORDER:
            self._check_order(now)
        return self.phase

    def advance(self, now: float) -> Phase:
        """The user pressed Enter: end the current step, or skip this LED check."""
        self._start(now)
        if self.phase is Phase.ORDER:
            self._record(())
        elif self.phase is not Phase.DONE:
            self._next(now)
        return self.phase

    def finish(self, now: float) -> DiagReport:
        """End the session (LEDs off) and report."""
        self._start(now)
        if self.phase is not Phase.DONE:
            self.phase = Phase.DONE
            self._light({})
        if self._outage_start is not None:
            self._outages.append(Outage(self._outage_start, None, self._outage_reason))
            self._outage_start = None
        return self.report()

    # -------------------------------------------------------------- state for views

    @property
    def connected(self) -> bool:
        return self.healthy and self.occupancy is not None

    @property
    def led_checks(self) -> tuple[LedCheck, ...]:
        return tuple(self._checks)

    @property
    def swept(self) -> int:
        """Squares seen both empty and occupied in the sweep so far."""
        return 0 if self._sweep is None else self._sweep.both.bit_count()

    def report(self) -> DiagReport:
        stuck: tuple[StuckSquare, ...] = ()
        faults: tuple[LineFault, ...] = ()
        if self._sweep is not None:
            stuck, faults = self._sweep.analyse()
        outages = list(self._outages)
        if self._outage_start is not None:
            outages.append(Outage(self._outage_start, None, self._outage_reason))
        return DiagReport(
            steps=self.steps, started=self._started or 0.0,
            swept=None if self._sweep is None else self.swept, stuck=stuck,
            line_faults=faults, led_checks=self.led_checks,
            led_advice=led_order_advice(self.layout, self._checks), outages=tuple(outages),
            unhealthy_readings=self._unhealthy_readings,
            led_errors=tuple(f"{error} ({count}×)" if count > 1 else error
                             for error, count in self._led_errors.items()),
            notes=tuple(self.notes))

    def prompt(self) -> str:
        """What the user is asked to do now."""
        if self.phase is Phase.WALK:
            where = f": {square_name(self.lit)}" if self.lit is not None else ""
            return ("LED walk: each square lights in turn, a1 … j1 then a2 … j8, one colour a "
                    f"rank. Watch for a dark square or one out of order{where}. Enter skips.")
        if self.phase is Phase.LIVE:
            return ("Live view: lift and place pieces anywhere; the board below follows the "
                    "sensors. Enter goes on.")
        if self.phase is Phase.SWEEP:
            return ("Sweep: make every square read occupied and then empty (put a piece on "
                    "each square in turn and lift it, or set up ranks 1, 2, 7, 8 and move "
                    f"every piece to ranks 3-6). {self.swept}/{SQUARES} done (green). "
                    "Enter when finished.")
        if self.phase is Phase.ORDER:
            done = len(self._checks)
            return (f"LED order check {done + 1}/{len(self.check_squares)}: place a piece on "
                    "the lit square, or lift the piece on it. Enter skips this square.")
        return "Done."

    def status_line(self) -> str:
        if not self.healthy:
            return f"board not connected ({self._reason()})"
        if self.occupancy is None:
            return "waiting for the board's first reading"
        line = f"{self.occupancy.bit_count()} squares occupied"
        if self._led_errors:
            line += f"; LEDs: {next(iter(self._led_errors))}"
        return line

    def view(self) -> str:
        """The whole screen: prompt, connection, board."""
        # The order check shows no square on screen: the piece goes where the light is.
        lit = None if self.phase is Phase.ORDER else self.lit
        return "\n".join([textwrap.fill(self.prompt(), 78), self.status_line(), "",
                           render_board(self.occupancy, lit)])

    # -------------------------------------------------------------- internals

    def _start(self, now: float) -> None:
        if self._started is None:
            self._started = now
            self._enter(self.phase, now)

    def _reason(self) -> str:
        reason = self.error or getattr(self.sensors, "last_error", None)
        return str(reason) if reason else "no answer from the board"

    def _read(self, now: float) -> None:
        reading: Reading | None
        try:
            reading = self.sensors.read(now)
            healthy = bool(self.sensors.healthy)
            self.error = None
        except OSError as exc:      # a driver that raises instead of turning unhealthy
            reading, healthy, self.error = None, False, str(exc) or type(exc).__name__
        if not healthy:
            if self._outage_start is None:
                self._outage_start = now
            self._outage_reason = self._reason()
        elif self._outage_start is not None:
            self._outages.append(Outage(self._outage_start, now, self._outage_reason))
            self._outage_start = None
        self.healthy = healthy
        if reading is None:
            return
        if not healthy:
            self._unhealthy_readings += 1
            return
        if reading.occupancy != self.occupancy:
            self.occupancy = reading.occupancy
            self._changed_at = now
            if self._sweep is not None and self.phase is Phase.SWEEP:
                self._sweep.feed(reading.occupancy)

    def _next(self, now: float) -> None:
        self._enter(self._plan[self._plan.index(self.phase) + 1], now)

    def _enter(self, phase: Phase, now: float) -> None:
        self.phase = phase
        self._phase_start = now
        self.lit = None
        if phase is Phase.SWEEP:
            self._sweep = SweepTracker()
            if self.occupancy is not None:
                self._sweep.feed(self.occupancy)
        elif phase is Phase.ORDER:
            self._baseline = None
            self._light_check()
        elif phase is Phase.DONE:
            self._light({})

    def _light_check(self) -> None:
        if len(self._checks) < len(self.check_squares):
            square = self.check_squares[len(self._checks)]
            self._light({square: CHECK_COLOUR}, square)

    def _check_order(self, now: float) -> None:
        if len(self._checks) >= len(self.check_squares):
            self._next(now)
            return
        if self.occupancy is None or not self.healthy:
            return
        if self._baseline is None:
            self._baseline = self.occupancy
        changed = self.occupancy ^ self._baseline
        if changed and now - self._changed_at >= self.settle:
            self._record(_squares(changed))

    def _record(self, observed: tuple[int, ...]) -> None:
        if len(self._checks) < len(self.check_squares):
            self._checks.append(LedCheck(self.check_squares[len(self._checks)], observed))
        self._baseline = self.occupancy if self.healthy else None
        self._light_check()

    def _light(self, frame: dict[int, Colour], lit: int | None = None) -> None:
        self.lit = lit
        if self.leds is None or frame == self._frame:
            return
        self._frame = frame
        try:
            self.leds.show(frame)
        except (OSError, ValueError) as exc:
            message = str(exc) or type(exc).__name__
            self._led_errors[message] = self._led_errors.get(message, 0) + 1


# ---------------------------------------------------------------- the scripted user


class ScriptedUser:
    """A person at a :class:`SimBoard` who does what each step asks.

    They see the LEDs through ``actual``, the way the chain is really wired
    (default: as ``leds`` believe), so a miswired board can be simulated.
    They wait ``pause`` between actions, stop while the board is not
    connected, and skip an LED check after ``patience`` without a result.
    """

    def __init__(self, board: SimBoard, leds: SimLeds | None = None, *,
                 actual: LedLayout | None = None, pause: float = 0.05,
                 patience: float = 2.0) -> None:
        self.board = board
        self.leds = leds
        self.eyes = None if leds is None else _Chain(actual or leds.encoder.layout)
        self.pause = pause
        self.patience = patience
        self._phase: Phase | None = None
        self._todo: list[int] = []
        self._next = 0.0
        self._check = -1
        self._acted = 0.0

    def act(self, diag: Diagnostics, now: float) -> bool:
        """Act on the board if it is time; True means "presses Enter"."""
        if diag.phase is not self._phase:
            self._phase = diag.phase
            self._todo = self._plan(diag.phase)
        if now < self._next or not diag.connected:
            return False
        self._next = now + self.pause
        if diag.phase is Phase.ORDER:
            return self._order(diag, now)
        if diag.phase in (Phase.LIVE, Phase.SWEEP):
            if not self._todo:
                return True
            self.board.toggle(self._todo.pop(0))
        return False

    def _plan(self, phase: Phase) -> list[int]:
        if phase is Phase.LIVE:
            return [parse_square("e4"), parse_square("e4")]
        if phase is Phase.SWEEP:
            return [sq for sq in range(SQUARES) for _ in range(2)]
        return []

    def _order(self, diag: Diagnostics, now: float) -> bool:
        done = len(diag.led_checks)
        if done != self._check:
            self._check, self._acted = done, now
            target = self._lit_square()
            if target is None:
                return True
            self.board.toggle(target)
        return now - self._acted > self.patience

    def _lit_square(self) -> int | None:
        if self.leds is None or self.eyes is None:
            return None
        return self.eyes.square_at(i for i, p in enumerate(self.leds.pixels) if any(p))


# ---------------------------------------------------------------- front ends


def run_scripted(diag: Diagnostics, user: ScriptedUser, *, start: float = 0.0,
                 limit: float = 3600.0, on_tick: Callable[[float], None] | None = None,
                 out: TextIO | None = None) -> DiagReport:
    """Run a session in virtual time (steps of :data:`TICK`) until it is done,
    or ``limit`` seconds have passed.  ``on_tick`` can inject faults;
    ``out`` gets each step's prompt and the board as each step ends."""
    n = 0
    now = start
    phase: Phase | None = None
    while diag.phase is not Phase.DONE and now - start < limit:
        now = start + n * TICK
        n += 1
        if on_tick is not None:
            on_tick(now)
        if diag.phase is not phase:
            if out is not None and phase is not None:
                print(render_board(diag.occupancy), file=out)
            phase = diag.phase
            if out is not None:
                print("\n" + textwrap.fill(f"== {diag.prompt()}", 78), file=out)
        diag.tick(now)
        if user.act(diag, now):
            diag.advance(now)
    if out is not None and phase is not None:
        print(render_board(diag.occupancy), file=out)
    return diag.finish(now)


class Keys(Protocol):
    def take(self) -> list[bool]:
        """Keys since the last call: True for Enter, False for the end of input."""


class StdinKeys:
    """Enter presses on stdin, read by a daemon thread so the board keeps refreshing."""

    def __init__(self, read_line: Callable[[], str] = input) -> None:
        self._read_line = read_line
        self._queue: queue.SimpleQueue[bool] = queue.SimpleQueue()
        threading.Thread(target=self._run, name="diag-keys", daemon=True).start()

    def _run(self) -> None:
        while True:
            try:
                self._read_line()
            except (EOFError, OSError, ValueError):
                self._queue.put(False)
                return
            self._queue.put(True)

    def take(self) -> list[bool]:
        keys = []
        while not self._queue.empty():
            keys.append(self._queue.get_nowait())
        return keys


def run_terminal(diag: Diagnostics, keys: Keys, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep,
                 out: TextIO = sys.stdout) -> DiagReport:
    """Run a session at the real board: the view redrawn on change at most
    every :data:`REFRESH`, Enter to go on; Ctrl-C or the end of input ends it."""
    shown = ""
    drawn_at = float("-inf")
    clear = "\x1b[H\x1b[2J" if out.isatty() else ""
    try:
        while diag.phase is not Phase.DONE:
            now = clock()
            diag.tick(now)
            for key in keys.take():
                if not key:
                    return diag.finish(now)
                diag.advance(now)
            if now - drawn_at >= REFRESH:
                drawn_at = now
                text = diag.view()
                if text != shown:
                    out.write(f"{clear}{text}\n\n")
                    out.flush()
                    shown = text
            sleep(max(0.0, TICK - (clock() - now)))
    except KeyboardInterrupt:
        out.write("\n")
    return diag.finish(clock())


class ReopeningSource:
    """A :class:`~boardctl.hw.base.SensorSource` whose driver opens when it can.

    While ``open_source`` fails (``OSError``, or ``ImportError`` off a Pi) the
    source is unhealthy with the reason in ``last_error``, and it tries again
    after ``retry`` seconds, doubling up to ``retry_max``.
    """

    def __init__(self, open_source: Callable[[], SensorSource], *, retry: float = 1.0,
                 retry_max: float = 8.0) -> None:
        self._open = open_source
        self.inner: SensorSource | None = None
        self._retry = retry
        self._retry_max = retry_max
        self._delay = retry
        self._next = float("-inf")
        self._error: str | None = None

    @property
    def healthy(self) -> bool:
        return self.inner is not None and self.inner.healthy

    @property
    def last_error(self) -> str | None:
        if self.inner is None:
            return self._error
        return getattr(self.inner, "last_error", None)

    def read(self, now: float) -> Reading | None:
        if self.inner is None:
            if now < self._next:
                return None
            try:
                self.inner = self._open()
            except (OSError, ImportError) as exc:
                self._error = str(exc) or type(exc).__name__
                self._next = now + self._delay
                self._delay = min(2 * self._delay, self._retry_max)
                return None
        return self.inner.read(now)

    def close(self) -> None:
        if self.inner is not None:
            self.inner.close()


def diag_command(config: Config, *, sim: bool = False, steps: str | None = None,
                 out: TextIO = sys.stdout) -> int:
    """``boardctl diag``: 0 when no fault was found, 1 otherwise.

    :raises DiagError: for a bad ``steps`` list.
    :raises PinoutError: for a bad pinout file.
    """
    from .hw.pins import default_pinout, load_pinout

    chosen = parse_steps(steps) if steps is not None else STEPS
    pinout = load_pinout(Path(config.board.pinout)) if config.board.pinout else default_pinout()
    layout = pinout.leds
    if sim or config.board.sensors == "sim":
        start = [*range(2 * FILES), *range((RANKS - 2) * FILES, SQUARES)]
        board = SimBoard(start)
        sim_leds = (SimLeds(layout, brightness=config.leds.brightness)
                    if config.leds.enabled else None)
        diag = Diagnostics(board, sim_leds, layout=layout, steps=chosen)
        print("boardctl diag: simulated board, scripted user", file=out)
        report = run_scripted(diag, ScriptedUser(board, sim_leds), out=out)
    else:
        report = _diag_board(config, layout, chosen, out)
    print(report.summary(), file=out)
    return 0 if report.ok else 1


def _diag_board(config: Config, layout: LedLayout, steps: tuple[Phase, ...],
                out: TextIO) -> DiagReport:
    from . import app
    from .hw.serial_link import SerialBoard
    from .rules import Game, get_variant

    def open_sensors() -> SensorSource:
        return app.make_sensors(config, Game(get_variant(config.game.variant)))

    # A serial board opens its port lazily and reconnects by itself.
    sensors: SensorSource = (open_sensors() if config.board.sensors == "serial"
                             else ReopeningSource(open_sensors))
    leds: LedSink | None = None
    own_leds = not isinstance(sensors, SerialBoard)
    notes: list[str] = []
    if isinstance(sensors, SerialBoard):
        leds = sensors if config.leds.enabled else None
    else:
        try:
            leds = app.make_leds(config)
        except (OSError, ImportError) as exc:
            notes.append(f"LEDs not available: {exc}")
    diag = Diagnostics(sensors, leds, layout=layout, steps=steps)
    diag.notes.extend(notes)
    print("boardctl diag: Enter goes on, Ctrl-C ends with the summary", file=out)
    try:
        return run_terminal(diag, StdinKeys(), out=out)
    finally:
        if leds is not None and own_leds:
            leds.close()
        sensors.close()
