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

The package: :mod:`.core` holds the session (:class:`Diagnostics`),
:mod:`.report` what it found (:class:`DiagReport`), :mod:`.sweep` and
:mod:`.ledorder` the analysis behind the sweep and the LED order check,
:mod:`.squares` and :mod:`.steps` the square names and step names they share,
:mod:`.scripted` and :mod:`.terminal` the two front ends, and :mod:`.command`
``boardctl diag`` itself (:func:`diag_command`).
"""

from .command import ReopeningSource, diag_command
from .core import (
    CHECK_COLOUR,
    DONE_COLOUR,
    OCCUPIED_COLOUR,
    SETTLE,
    TICK,
    WALK_COLOURS,
    WALK_DWELL,
    Diagnostics,
)
from .ledorder import CHECK_SQUARES, LedCheck, chain_layouts, led_order_advice, seen_square
from .report import DiagReport, Outage
from .scripted import ScriptedUser, run_scripted
from .squares import ALL_SQUARES, FILE_NAMES, DiagError, parse_square, render_board, square_name
from .steps import LED_STEPS, STEPS, Phase, parse_steps
from .sweep import LineFault, LineKind, StuckSquare, SweepTracker
from .terminal import REFRESH, Keys, StdinKeys, run_terminal

__all__ = [
    "ALL_SQUARES",
    "CHECK_COLOUR",
    "CHECK_SQUARES",
    "DONE_COLOUR",
    "FILE_NAMES",
    "LED_STEPS",
    "OCCUPIED_COLOUR",
    "REFRESH",
    "SETTLE",
    "STEPS",
    "TICK",
    "WALK_COLOURS",
    "WALK_DWELL",
    "DiagError",
    "DiagReport",
    "Diagnostics",
    "Keys",
    "LedCheck",
    "LineFault",
    "LineKind",
    "Outage",
    "Phase",
    "ReopeningSource",
    "ScriptedUser",
    "StdinKeys",
    "StuckSquare",
    "SweepTracker",
    "chain_layouts",
    "diag_command",
    "led_order_advice",
    "parse_square",
    "parse_steps",
    "render_board",
    "run_scripted",
    "run_terminal",
    "seen_square",
    "square_name",
]
