"""The diagnostic session: a state machine over injected sensors and LEDs,
with time passed in on every call (no I/O, thread or sleep)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from ..board import lights
from ..colour import Colour
from ..hw.base import LedSink, Reading, SensorSource
from ..hw.pins import LedLayout
from .boards import SQUARE_BOARD, DiagBoard
from .ledorder import LedCheck, led_order_advice
from .report import DiagReport, Outage
from .steps import LED_STEPS, STEPS, Phase
from .sweep import LineFault, StuckSquare, SweepTracker

WALK_DWELL = 0.25  # seconds each square stays lit in the walk
SETTLE = 0.3  # the board must be still this long before an LED check is judged
TICK = 0.01  # front ends call tick() this often (the sensors scan at 100 Hz)
NO_ANSWER = "no answer from the board"  # unhealthy with no error given
WALK_COLOURS: tuple[Colour, ...] = (
    (255, 0, 0),
    (255, 96, 0),
    (255, 255, 0),
    (0, 255, 0),
    (0, 255, 255),
    (0, 0, 255),
    (160, 0, 255),
    (255, 255, 255),
)
# The game's colour language where a step has a game meaning (board/lights.py):
# the square for your hand is white, a square done is blue.
CHECK_COLOUR: Colour = lights.WHITE.rgb
DONE_COLOUR: Colour = lights.BLUE.rgb
OCCUPIED_COLOUR: Colour = lights.WHITE.rgb


class Diagnostics:
    """A diagnostic session over injected sensors and LEDs.

    Call :meth:`tick` about every 10 ms with the current time; :meth:`advance`
    when the user presses Enter (ends the walk, the live view or the sweep,
    skips an LED check); :meth:`finish` for the report.  ``leds`` None skips
    the LED steps; ``layout`` (the pinout's ``[leds]``) lets the report name
    the setting behind LED mismatches; ``board`` is the board checked (the
    8×10 board, or :class:`~.boards.HexDiagBoard`), and ``check_squares`` the
    cells of the LED order check (default: the board's).  Errors from the
    hardware are caught and reported: a session never ends because the board
    went away.
    """

    def __init__(
        self,
        sensors: SensorSource,
        leds: LedSink | None,
        *,
        layout: LedLayout | None = None,
        steps: Sequence[Phase] = STEPS,
        check_squares: Sequence[int] | None = None,
        walk_dwell: float = WALK_DWELL,
        settle: float = SETTLE,
        board: DiagBoard = SQUARE_BOARD,
    ) -> None:
        if walk_dwell <= 0 or settle < 0:
            raise ValueError("walk_dwell must be positive and settle not negative")
        self.sensors = sensors
        self.leds = leds
        self.layout = layout
        self.steps = tuple(step for step in STEPS if step in steps)
        self.board = board
        self.check_squares = tuple(board.check_cells if check_squares is None else check_squares)
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
        self._answered = False  # the board has been healthy once
        self._unhealthy_readings = 0
        self._led_errors: dict[str, int] = {}

    # -------------------------------------------------------------- driving

    def tick(self, now: float) -> Phase:
        """Read the sensors once, drive the LEDs and move on when a step is done."""
        self._start(now)
        self._read(now)
        if self.phase is Phase.WALK:
            step = int((now - self._phase_start) / self.walk_dwell)
            if step >= self.board.cells:
                self._next(now)
            else:
                colour = WALK_COLOURS[self.board.walk_group(step) % len(WALK_COLOURS)]
                self._light({step: colour}, step)
        elif self.phase is Phase.LIVE and self.occupancy is not None:
            self._light(dict.fromkeys(self._cells_in(self.occupancy), OCCUPIED_COLOUR))
        elif self.phase is Phase.SWEEP and self._sweep is not None:
            both = self._sweep.both
            self._light(dict.fromkeys(self._cells_in(both), DONE_COLOUR))
            if both == self.board.all:
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
            steps=self.steps,
            started=self._started or 0.0,
            swept=None if self._sweep is None else self.swept,
            stuck=stuck,
            line_faults=faults,
            led_checks=self.led_checks,
            led_advice=led_order_advice(self.layout, self._checks, self.board),
            outages=tuple(outages),
            unhealthy_readings=self._unhealthy_readings,
            led_errors=tuple(
                f"{error} ({count}×)" if count > 1 else error
                for error, count in self._led_errors.items()
            ),
            notes=tuple(self.notes),
            cells=self.board.cells,
            noun=self.board.noun,
        )

    def prompt(self) -> str:
        """What the user is asked to do now."""
        if self.phase is Phase.WALK:
            noun = self.board.noun
            where = f": {self.board.name(self.lit)}" if self.lit is not None else ""
            return (
                f"LED walk: each {noun} lights in turn, {self.board.walk_order}. Watch "
                f"for a dark {noun} or one out of order{where}. Enter skips."
            )
        if self.phase is Phase.LIVE:
            return (
                "Live view: lift and place pieces anywhere; the board below follows the "
                f"sensors, and each occupied {self.board.noun} is lit {lights.WHITE.name}. "
                "Enter goes on."
            )
        if self.phase is Phase.SWEEP:
            noun = self.board.noun
            return (
                f"Sweep: make every {noun} read occupied and then empty "
                f"({self.board.sweep_hint}). {self.swept}/{self.board.cells} done (lit "
                f"{lights.BLUE.name}). Enter when finished."
            )
        if self.phase is Phase.ORDER:
            done = len(self._checks)
            return (
                f"LED order check {done + 1}/{len(self.check_squares)}: place a piece on "
                f"the {self.board.noun} lit {lights.WHITE.name}, or lift the piece on it. "
                f"Enter skips this {self.board.noun}."
            )
        return "Done."

    def status_line(self) -> str:
        if not self.healthy:
            return f"board not connected ({self._reason()})"
        if self.occupancy is None:
            return "waiting for the board's first reading"
        line = f"{self.occupancy.bit_count()} {self.board.noun}s occupied"
        if self._led_errors:
            line += f"; LEDs: {next(iter(self._led_errors))}"
        return line

    def view(self) -> str:
        """The whole screen: prompt, connection, board."""
        # The order check shows no square on screen: the piece goes where the light is.
        lit = None if self.phase is Phase.ORDER else self.lit
        return "\n".join(
            [
                textwrap.fill(self.prompt(), 78),
                self.status_line(),
                "",
                self.board.render(self.occupancy, lit),
            ]
        )

    # -------------------------------------------------------------- internals

    def _start(self, now: float) -> None:
        if self._started is None:
            self._started = now
            self._enter(self.phase, now)

    def _reason(self) -> str:
        reason = self.error or getattr(self.sensors, "last_error", None)
        return str(reason) if reason else NO_ANSWER

    def _read(self, now: float) -> None:
        reading: Reading | None
        try:
            reading = self.sensors.read(now)
            healthy = bool(self.sensors.healthy)
            self.error = None
        except OSError as exc:  # a driver that raises instead of turning unhealthy
            reading, healthy, self.error = None, False, str(exc) or type(exc).__name__
        if not healthy:
            if self._outage_start is None:
                self._outage_start = now
            self._outage_reason = self._reason()
        elif self._outage_start is not None:
            if self._answered or self._outage_reason != NO_ANSWER:
                self._outages.append(Outage(self._outage_start, now, self._outage_reason))
            else:
                # Connecting, not an outage: a serial board answers only
                # after its port opens and its HELLO is acknowledged; a
                # port that failed to open on the way has its error.
                self.notes.append(
                    f"the board answered {now - self._outage_start:.2f} s after the start"
                )
            self._outage_start = None
        self._answered = self._answered or healthy
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
            self._sweep = SweepTracker(self.board)
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
            self._record(self._cells_in(changed))

    def _record(self, observed: tuple[int, ...]) -> None:
        if len(self._checks) < len(self.check_squares):
            self._checks.append(
                LedCheck(self.check_squares[len(self._checks)], observed, self.board)
            )
        self._baseline = self.occupancy if self.healthy else None
        self._light_check()

    def _cells_in(self, bits: int) -> tuple[int, ...]:
        return tuple(cell for cell in range(self.board.cells) if bits >> cell & 1)

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
