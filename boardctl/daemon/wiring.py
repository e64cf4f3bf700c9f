"""From a configuration to a running daemon: which drivers (:mod:`.boards`),
which engine, which store, which screen, and what else it is lent
(:mod:`.services`).  ``boardctl run`` and ``boardctl sim`` start here.

Drivers that need a Pi (gpiozero's backends, spidev, a serial port) are
imported only when the configuration asks for them, so the simulator runs
anywhere.
"""

from __future__ import annotations

import logging
import signal
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Protocol, TextIO

from ..board.explain import occupancy
from ..board.stepping import Stepping
from ..config import Config
from ..engine.interface import Opponent
from ..hw import Buttons, LedSink, SensorSource
from ..hw.hexpins import HexPinout
from ..hw.pins import Pinout
from ..hw.sim import SimBoard, SimButtons
from ..puzzles import Puzzle
from ..rules import Game, Position, Variant, get_variant
from ..rules.hexgeo import HexGeometry
from ..storage.store import DamagedGameError, GameStore, StoreError, default_db_path
from ..web.starts import stepping_of
from .boards import HexBoard, SquareBoard, StartError, e_board, fits_sensors
from .loop import Daemon
from .parts import NOTHING_LENT, PLAIN_START, Display, Hardware, Notifier, Services, Start
from .puzzle import PuzzleSession
from .restart import RESTART_STATUS
from .services import lent

log = logging.getLogger("boardctl")

# diag/ reads these by their old names.
_fits_sensors = fits_sensors


def _pinout(config: Config) -> Pinout:
    return SquareBoard().pinout(config)


def _hex_pinout(config: Config, geo: HexGeometry) -> HexPinout:
    return HexBoard(geo).pinout(config)


def make_sensors(config: Config, start: Game) -> SensorSource:
    if config.board.sensors == "sim":
        pos = start.position
        geo = pos.geometry
        return SimBoard(geo.squares(occupancy(pos)), files=geo.files, ranks=geo.ranks)
    return make_board_sensors(config, start.variant)


def make_board_sensors(config: Config, variant: Variant) -> SensorSource:
    """The physical board's sensors, for a game of ``variant``.

    :raises StartError: for a board or build that cannot play it.
    """
    return fits_sensors(variant, config).sensors(config)


def make_leds(config: Config, variant: Variant | None = None) -> LedSink | None:
    """The Pi's own LED chain (None in the simulator and when a Pico drives them),
    of the e-board ``variant`` is played on (default: the 8×10 board's)."""
    if not config.leds.enabled or config.board.sensors in ("sim", "serial"):
        return None  # a Pico drives the LEDs: the SerialBoard is the sink
    board = e_board(variant.geometry) if variant is not None else None
    return (board or SquareBoard()).leds(config)


def make_opponent(config: Config, vary: bool = True) -> Opponent | None:
    """The engine that plays (``vary``: with full strength's opening variety;
    an adviser, which judges, goes without)."""
    if config.game.mode != "engine":
        return None
    if config.engine.external:
        from ..engine.external import ExternalEngine

        return ExternalEngine(config.engine.external)
    from ..engine import core
    from ..engine.levels import PI_NODES_PER_SECOND
    from ..engine.worker import EngineWorker

    if core.available():
        log.info("engine: the compiled search core")  # its level: from the session
    else:
        # Some 30 times slower: a player should know why the engine is weak.
        log.warning(
            "engine: the compiled search core is not built (no C compiler or "
            "Python headers at install); searching in Python, much weaker"
        )
    seed = config.engine.seed or None
    # A seed makes the game reproducible: the same random choices, and time
    # counted in positions, so that a faster or busier machine plays the same.
    rate = PI_NODES_PER_SECOND if seed is not None else None
    return EngineWorker(config.engine.skill, seed=seed, vary=vary, nodes_per_second=rate)


def open_store(config: Config) -> GameStore:
    store = GameStore(default_db_path())
    if store.notice:
        log.warning("%s", store.notice)
    return store


def build(
    config: Config,
    stack: ExitStack,
    *,
    sensors: SensorSource | None = None,
    leds: LedSink | None = None,
    buttons: Buttons | None = None,
    display: Display | None = None,
    notifier: Notifier | None = None,
    recorder: TextIO | None = None,
    given: Services = NOTHING_LENT,
    start: Start = PLAIN_START,
    now: float = 0.0,
    first_start: bool = False,
) -> Daemon:
    """A daemon with everything the configuration asks for that the caller
    has not given (the hardware, and the page's hub, the voice, the reviews
    or the remote desk in ``given``; the engines are always the
    configuration's), closed by ``stack``; ``start``: a position, a puzzle
    or a stored game to set up first (the game to resume is the store's);
    ``first_start``: the screen shows where the settings page is and its PIN."""
    store = open_store(config)
    stack.callback(store.close)
    resume, started_at = _resume_as_configured(store, config, start.replay is not None)
    game = resume[1] if resume else Game(get_variant(config.game.variant))
    if sensors is None:
        sensors = make_sensors(config, game)
    stack.callback(sensors.close)
    opponent = make_opponent(config) if start.puzzle is None else None  # a puzzle's: its own
    if opponent is not None:
        stack.callback(opponent.close)
    if leds is None and (leds := make_leds(config, game.variant)) is not None:
        stack.callback(leds.close)
    elif leds is None and config.board.sensors == "serial" and config.leds.enabled:
        leds = sensors  # type: ignore[assignment]  # SerialBoard is both
    # Hints, the coach, and an engine to play when the settings turn one on.
    engine_config = replace(config, game=replace(config.game, mode="engine"))
    adviser = lambda: make_opponent(engine_config, vary=False) or _no_engine()  # noqa: E731
    engines = replace(given, opponent=opponent, adviser=adviser)
    services, welcome, web = lent(config, store.path, stack, engines, first_start)
    if buttons is None and config.buttons.enabled:
        from ..hw.buttons import GpioButtons

        buttons = GpioButtons(_pinout(config).pi.buttons)
        stack.callback(buttons.close)
    hardware = Hardware(sensors, leds, buttons, display, notifier, recorder)
    start = replace(start, resume=resume, started_at=started_at, welcome=welcome)
    daemon = Daemon(config, hardware, store, services, start, now=now)
    stack.callback(daemon.close)
    if web is not None:
        if web.settings is not None:
            web.settings.abilities = daemon.abilities()  # before the loop runs
        # The page listens only once the daemon holds its game (the resumed
        # one after a restart) and has published it: a client that sees this
        # start's run (/api/session; the settings page waits for a new one)
        # sees that game, however slowly the rest of the start goes.
        web.hub.publish(daemon.snapshot())
        web.listen(stack)
    return daemon


def _resume_as_configured(
    store: GameStore, config: Config, replaying: bool = False
) -> tuple[tuple[int, Game] | None, float | None]:
    """The unfinished game and when it began, unless it is of another variant
    than the configuration's (the board is set for that one).  While a stored
    game is stepped through (``replaying``) it is not played on: it only
    tells how the board stands."""
    resume, started_at = _resume(store)
    if resume is not None and resume[1].variant.name != config.game.variant:
        log.warning(
            "the unfinished game is %s, the configuration says %s: starting anew",
            resume[1].variant.name,
            config.game.variant,
        )
        return None, None
    if replaying:
        return resume, None  # the live page's date is not that game's
    if resume is not None:
        log.info("resuming game %d after %d moves", resume[0], len(resume[1].moves))
    return resume, started_at


def _resume(store: GameStore) -> tuple[tuple[int, Game] | None, float | None]:
    """The unfinished game, if it can be read, and when it began.  One that
    cannot (values edited into the database) is finished as abandoned, so
    that the next start does not stumble on it again, and a new game begins."""
    try:
        found = store.resume_stored()
        if found is None:
            return None, None
        stored, game = found
        return (stored.id, game), stored.started_at
    except DamagedGameError as exc:
        log.error("cannot resume: %s; starting a new game", exc)
        try:
            store.finish(exc.game_id, "*", "unreadable", time.time())
        except StoreError as again:
            log.warning("cannot mark game %d as ended: %s", exc.game_id, again)
        return None, None


def load_replay(path: Path, game_id: int) -> Stepping:
    """Stored game ``game_id`` of the database at ``path``, to step through.

    :raises StoreError: when there is no database or it cannot be read.
    :raises UnknownGameError: for a game that is not stored.
    :raises DamagedGameError: for one that cannot be read or no longer replays.
    :raises StartRefused: for a game without a move.
    """
    with GameStore(path, create=False) as store:
        stored = store.load(game_id)
    return stepping_of(stored)


def _guided(setup: Position | None, puzzle: Puzzle | None, replay: Stepping | None) -> Start:
    """The command line's start (``--setup``, ``--puzzle``, ``--replay``)."""
    return Start(setup=setup, puzzle=PuzzleSession(puzzle) if puzzle else None, replay=replay)


def _no_engine() -> Opponent:
    raise StartError("no engine for hints")


def check_run(config: Config) -> None:
    """What :func:`run` checks before it starts anything: the configured
    e-board plays the preset (the command line checks it before it writes
    a first start's configuration).

    :raises StartError: for a preset the configured board cannot play.
    """
    if config.board.sensors != "sim":
        _fits_sensors(get_variant(config.game.variant), config)


class _OwnScreen(Display, Protocol):
    def close(self) -> None: ...


def open_screen(config: Config) -> _OwnScreen:
    """The board's own screen: a frame buffer when ``[display] framebuffer``
    names one, else SDL's (KMSDRM full screen on a Pi, a window on a desktop).

    :raises Exception: whatever keeps it from opening (pygame's, the device's).
    """
    if config.display.framebuffer:
        from ..ui.framebuffer import FramebufferScreen

        screen = FramebufferScreen(Path(config.display.framebuffer), config.display_size)
        f = screen.frame
        log.info(
            "screen: %s, %dx%d at %d bits a pixel",
            config.display.framebuffer,
            f.width,
            f.height,
            f.depth,
        )
        return screen
    from ..ui.screen import Screen

    return Screen(config.display_size, config.display.fullscreen)


def run(
    config: Config,
    setup: Position | None = None,
    puzzle: Puzzle | None = None,
    replay: Stepping | None = None,
    first_start: bool = False,
) -> int:
    """``boardctl run``: the service's main loop, until SIGTERM or SIGINT
    (0), or the page's restart (:data:`~.restart.RESTART_STATUS`);
    ``setup``: a position to guide the player to set up first; ``puzzle``:
    a puzzle to set up and solve (``config`` plays its preset); ``replay``: a
    stored game to step through, once its start is set up; ``first_start``:
    the configuration was just written, and the screen shows where to change it."""
    from .notify import Notifier

    check_run(config)  # before the screen speaks
    notifier = Notifier.from_env()
    with ExitStack() as stack:
        display = None
        if config.display.enabled:
            try:
                display = open_screen(config)
                stack.callback(display.close)
            except Exception as exc:  # no screen is no reason not to play
                log.warning("no display (%s): running without one", exc)
        recorder = None
        if config.board.record:
            try:
                recorder = stack.enter_context(open(config.board.record, "a", encoding="utf-8"))
            except OSError as exc:  # checked at load, but it may have changed since
                raise StartError(
                    f"[board] record: cannot write to {config.board.record}: {exc.strerror or exc}"
                ) from None
        daemon = build(
            config,
            stack,
            display=display,
            notifier=notifier,
            recorder=recorder,
            start=_guided(setup, puzzle, replay),
            now=time.monotonic(),
            first_start=first_start,
        )

        def stop(signum: int, frame: FrameType | None) -> None:
            daemon.stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        notifier.ready(f"playing {config.game.variant}, {config.game.mode}")
        log.info("boardctl running: sensors %s, mode %s", config.board.sensors, config.game.mode)
        daemon.run(time.monotonic, time.sleep)
        notifier.stopping("restarting" if daemon.restart else "")
    return RESTART_STATUS if daemon.restart else 0


def sim(
    config: Config,
    setup: Position | None = None,
    puzzle: Puzzle | None = None,
    replay: Stepping | None = None,
) -> int:
    """``boardctl sim``: the desktop simulator window (``setup``: a position
    to guide the player to set up first; ``puzzle``: a puzzle to set up and
    solve, in its own preset, which ``config`` plays; ``replay``: a stored
    game to step through).  Ends with :data:`~.restart.RESTART_STATUS` when
    the page asked for a restart."""
    import os

    try:
        import pygame
    except ImportError:
        print(
            "boardctl sim: pygame-ce is not installed (pip install 'boardctl[display]')",
            file=sys.stderr,
        )
        return 2
    os.environ.setdefault("SDL_VIDEO_X11_WMCLASS", "boardctl")
    if not (
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or os.environ.get("SDL_VIDEODRIVER")
    ):
        print(
            "boardctl sim: no display available (no DISPLAY or WAYLAND_DISPLAY); run it "
            "headless with 'boardctl sim --headless --script LOG'",
            file=sys.stderr,
        )
        return 2
    try:
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_mode((1, 1))
    except pygame.error as exc:
        print(
            f"boardctl sim: no display available ({exc}); run it headless with "
            "'boardctl sim --headless --script LOG'",
            file=sys.stderr,
        )
        return 2
    # Whatever the configuration says about sensors, the simulator's are simulated.
    config = replace(config, board=replace(config.board, sensors="sim"))
    with ExitStack() as stack:
        daemon = run_window(config, stack, setup=setup, puzzle=puzzle, replay=replay)
    return RESTART_STATUS if daemon.restart else 0


def run_window(
    config: Config,
    stack: ExitStack,
    frames: int | None = None,
    clock: Callable[[], float] = time.monotonic,
    setup: Position | None = None,
    puzzle: Puzzle | None = None,
    replay: Stepping | None = None,
) -> Daemon:
    """The simulator (the window is the LEDs, the screen and a hand on the sensors)
    until the window closes or for ``frames`` frames.  A ``setup``, ``puzzle`` or
    ``replay`` position is first set up as guided, from the board as the game left it."""
    import pygame

    from ..ui.sim import FPS, SimWindow
    from ..ui.state import DisplayState
    from ..ui.tray import off_the_board

    start = Game(get_variant(config.game.variant))
    board = make_sensors(config, start)
    assert isinstance(board, SimBoard)
    buttons = SimButtons()
    began = clock()
    window = SimWindow(
        board,
        lambda name: buttons.press(name, clock() - began),
        config.display_size,
        DisplayState.from_fen(None, config.game.variant),
    )
    daemon = build(
        config,
        stack,
        sensors=board,
        now=0.0,
        buttons=buttons,
        leds=window.leds,
        display=window.display,
        start=_guided(setup, puzzle, replay),
    )
    # A resumed game: the board's pieces stand as the game left them.
    pos = daemon.game.position
    board.set_occupancy(pos.colors[0] | pos.colors[1])
    window.show_state(daemon.status())
    window.pieces = {sq: p for sq, p in enumerate(pos.squares) if p}
    first = Position(daemon.game.start_fen, daemon.game.variant)
    window.tray.pieces = off_the_board(first.squares, pos.squares)
    pacer = pygame.time.Clock()
    count = 0
    while not daemon.stopping and window.tick(clock() - began):
        daemon.step(clock() - began)
        window.draw()
        pygame.display.flip()
        pacer.tick(FPS)
        count += 1
        if frames is not None and count >= frames:
            break
    return daemon
