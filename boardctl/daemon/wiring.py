"""From a configuration to a running daemon: which drivers, which engine,
which store, which screen.  ``boardctl run`` and ``boardctl sim`` start here.

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
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from ..board.explain import occupancy
from ..board.stepping import Stepping
from ..config import Config
from ..engine import Limits
from ..engine.interface import Opponent
from ..hw import LedSink, SensorSource
from ..hw.hexpins import (
    HexPinout,
    default_hex_pinout,
    hex_board,
    load_hex_pinout,
    read_pinout_schema,
)
from ..hw.pins import FILES, RANKS, Pinout, default_pinout, load_pinout
from ..hw.sim import SimBoard, SimButtons
from ..puzzles import Puzzle
from ..remote.desk import Desk
from ..remote.journal import JOURNAL_NAME
from ..review.background import Reviewer
from ..rules import BLACK, WHITE, BoardctlError, Game, Position, Variant, get_variant
from ..rules.geometry import Geometry
from ..rules.hexgeo import FALCON_HEX, HexGeometry
from ..storage.store import DamagedGameError, GameStore, StoreError, default_db_path
from ..ui.state import welcome_words
from ..voice.engines import Espeak, SpeechError, VoiceSettings
from ..voice.speaker import Speaker
from ..web.starts import stepping_of
from .loop import Daemon
from .puzzle import PuzzleSession
from .restart import RESTART_GAP, RESTART_STATUS, under_systemd

if TYPE_CHECKING:
    from ..settings import SettingsFile
    from ..web.server import WebServer
    from ..web.snapshot import Hub

log = logging.getLogger("boardctl")

SQUARE_BOARD = Geometry(FILES, RANKS)  # the 8×10 e-board's
# The e-board of each pinout schema, for a game its board cannot be played on.
_E_BOARD = {
    SQUARE_BOARD.pinout_schema: f"the sensors read {RANKS}×{FILES} squares",
    FALCON_HEX.pinout_schema: f"the hex e-board has {FALCON_HEX.size} cells",
}


class StartError(BoardctlError, RuntimeError):
    """Something the daemon needs is not there; the message says what."""


def _pinout(config: Config) -> Pinout:
    """The 8×10 board's pinout: the configured one, or the one shipped.

    :raises StartError: if the configured pinout is the hex board's.
    """
    if not config.board.pinout:
        return default_pinout()
    path = Path(config.board.pinout)
    if read_pinout_schema(path) != SQUARE_BOARD.pinout_schema:
        raise StartError(
            f"the pinout {config.board.pinout} is the hex board's: a game on "
            f"{RANKS}×{FILES} squares needs one like hardware/pinout.toml"
        )
    return load_pinout(path)


def _hex_geometry(variant: Variant) -> HexGeometry | None:
    """The hex e-board the variant is played on (falcon-hex), or None."""
    return hex_board(variant.geometry)


def _hex_pinout(config: Config, geo: HexGeometry) -> HexPinout:
    """The hex board's pinout: the configured one, or the one shipped.

    :raises StartError: if the configured pinout is not a hex board's, or another hexagon's.
    """
    wrong = StartError(
        f"the pinout {config.board.pinout} is not the hex board's: point "
        "[board] pinout at one like hardware/hex/pinout.toml, or leave it "
        "empty for the one shipped"
    )
    if not config.board.pinout:
        pinout = default_hex_pinout()
    else:
        path = Path(config.board.pinout)
        if read_pinout_schema(path) != geo.pinout_schema:
            raise wrong
        pinout = load_hex_pinout(path)
    if pinout.geometry != geo:
        raise wrong
    return pinout


def _fits_sensors(variant: Variant, config: Config | None = None) -> None:
    """The pinout, its LED layouts and the sensor drivers are the 8×10 board's
    or the hex board's.

    :raises StartError: for a preset of another size, or a hex game on a
        build that cannot read the hex board.
    """
    hexagon = _hex_geometry(variant)
    if hexagon is not None:
        if config is not None and config.board.sensors == "gpio":
            raise StartError(
                f"{variant.name} is played on the {hexagon.size}-cell hex board, whose 12 × 12 "
                "matrix needs 24 GPIOs (the Pi has 19 beside the LEDs and buttons): set "
                '[board] sensors = "shiftreg" (sixteen 74HC165) or "serial" (a Pico)'
            )
        if config is not None:
            _hex_pinout(config, hexagon)
        return
    geo = variant.geometry
    if geo != SQUARE_BOARD:
        raise StartError(
            f"{variant.name} is played on {geo.description}, "
            f"{_E_BOARD[geo.pinout_schema]}: play it in boardctl sim"
        )


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
    kind = config.board.sensors
    _fits_sensors(variant, config)
    hexagon = _hex_geometry(variant)
    if hexagon is not None:
        return _hex_sensors(config, _hex_pinout(config, hexagon))
    pinout = _pinout(config)
    if kind == "gpio":
        from ..hw.matrix import GpioMatrix

        return GpioMatrix.from_pinout(pinout.pi.matrix)
    if kind == "shiftreg":
        from ..hw.shiftreg import ShiftRegisterSensor

        return ShiftRegisterSensor.from_pinout(pinout.pi.shiftreg)
    from ..hw.protocol import BoardShape
    from ..hw.serial_link import SerialBoard

    geo = variant.geometry
    shape = BoardShape(geo.files, geo.ranks, pinout.leds.count)
    return SerialBoard(config.board.serial_port, brightness=config.leds.brightness, shape=shape)


def _hex_sensors(config: Config, pinout: HexPinout) -> SensorSource:
    """The hex board's sensors: sixteen 74HC165 on the Pi, or its Pico."""
    if config.board.sensors == "shiftreg":
        from ..hw.shiftreg import ShiftRegisterSensor

        return ShiftRegisterSensor.from_pinout(pinout.pi.shiftreg, squares=pinout.cells)
    from ..hw.protocol import BoardShape
    from ..hw.serial_link import SerialBoard

    return SerialBoard(
        config.board.serial_port,
        brightness=config.leds.brightness,
        shape=BoardShape.named(pinout.board),
    )


def make_leds(config: Config, variant: Variant | None = None) -> LedSink | None:
    """The Pi's own LED chain (None in the simulator and when a Pico drives them);
    ``variant`` picks the hex board's chain for a game on the hexagon."""
    if not config.leds.enabled or config.board.sensors == "sim":
        return None
    if config.board.sensors == "serial":
        return None  # the microcontroller drives the LEDs: the SerialBoard is the sink
    from ..hw.leds import SpiLeds

    hexagon = None if variant is None else _hex_geometry(variant)
    pinout = _pinout(config) if hexagon is None else _hex_pinout(config, hexagon)
    if hexagon is None:
        _fits_layout(config, pinout.leds.count, pinout.leds.corner_grid)
    return SpiLeds.open(pinout, brightness=config.leds.brightness)


def _fits_layout(config: Config, count: int, corner_grid: bool) -> None:
    """The configured [leds] layout is the one the pinout's chain has: a
    board wired one way and configured the other would light the wrong places.

    :raises StartError: when they differ.
    """
    corners = config.leds.layout == "corners"
    if corners != corner_grid:
        wanted = (
            f"{(RANKS + 1) * (FILES + 1)} LEDs at the square corners"
            if corners
            else f"{RANKS * FILES} LEDs, one per square"
        )
        raise StartError(
            f'[leds] layout = "{config.leds.layout}" needs {wanted}, but the '
            f"pinout's chain has {count}: set the layout or the pinout to match"
        )


def make_opponent(config: Config, vary: bool = True) -> Opponent | None:
    """The engine that plays (``vary``: with full strength's opening variety;
    an adviser, which judges, goes without)."""
    if config.game.mode != "engine":
        return None
    if config.engine.external:
        from ..engine.external import ExternalEngine

        return ExternalEngine(config.engine.external)
    from ..engine import core
    from ..engine.worker import EngineWorker

    if core.available():
        log.info("engine: the compiled search core")  # its level: from the session
    else:
        # Some 30 times slower: a player should know why the engine is weak.
        log.warning(
            "engine: the compiled search core is not built (no C compiler or "
            "Python headers at install); searching in Python, much weaker"
        )
    return EngineWorker(config.engine.skill, vary=vary)


def open_store(config: Config) -> GameStore:
    store = GameStore(default_db_path())
    if store.notice:
        log.warning("%s", store.notice)
    return store


@dataclass(frozen=True)
class WebParts:
    """The web page: the hub the daemon publishes to, the page's address, its
    settings' side of the configuration file (None without one), whether it
    offers actions (a PIN is set), and its server, which listens once
    :meth:`listen` is called."""

    hub: Hub
    url: str
    settings: SettingsFile | None
    actions: bool
    server: WebServer

    def listen(self, stack: ExitStack) -> None:
        """Serve the page until ``stack`` closes.

        :raises WebError: when the port cannot be listened on.
        """
        self.server.start()
        stack.callback(self.server.stop)
        log.info(
            "web page on %s (%s)",
            self.url,
            "actions and settings need the PIN" if self.actions else "view only: no PIN set",
        )


def make_web(config: Config, db_path: Path, remote: Desk | None = None) -> WebParts:
    """The spectator page's server, not yet listening.  With a configuration
    file, its settings page writes to that file; with ``remote``, the link of
    remote play runs there too (its journal beside the game store).

    :raises StartError: without aiohttp.
    """
    from ..web.snapshot import Hub

    try:
        from ..settings import SettingsFile
        from ..web.remote_link import Link
        from ..web.server import WebServer
    except ImportError:
        raise StartError("the web page needs aiohttp: pip install 'boardctl[web]'") from None
    hub = Hub()  # the daemon publishes here; the server only reads
    link = None
    if remote is not None:
        link = Link(
            remote,
            db_path.with_name(JOURNAL_NAME),
            colour=WHITE if config.game.human == "white" else BLACK,
            variant=config.game.variant,
            clock=config.clock_seconds,
            name=config.remote.name,
        )
    settings = SettingsFile(Path(config.source)) if config.from_file else None
    # Under systemd a restart counts toward the unit's start limit (see RESTART_GAP).
    restart_from = time.monotonic() + RESTART_GAP if under_systemd() else 0.0
    server = WebServer(
        hub,
        host=config.web.bind,
        port=config.web.port,
        pin=config.web.pin,
        db_path=db_path,
        link=link,
        settings=settings,
        restart_from=restart_from,
    )
    return WebParts(hub, server.url, settings, bool(config.web.pin), server)


def build(
    config: Config,
    stack: ExitStack,
    *,
    sensors: SensorSource | None = None,
    now: float = 0.0,
    first_start: bool = False,
    **extra: Any,
) -> Daemon:
    """A daemon with everything the configuration asks for, closed by ``stack``;
    ``first_start``: the screen shows where the settings page is and its PIN."""
    store = open_store(config)
    stack.callback(store.close)
    resume, started_at = _resume_as_configured(store, config, extra.get("replay") is not None)
    start = resume[1] if resume else Game(get_variant(config.game.variant))
    if sensors is None:
        sensors = make_sensors(config, start)
    stack.callback(sensors.close)
    opponent = make_opponent(config) if extra.get("puzzle") is None else None  # its own engine
    if opponent is not None:
        stack.callback(opponent.close)
    given: LedSink | None = extra.pop("leds", None)
    leds = given or make_leds(config, start.variant)
    if leds is not None:
        stack.callback(leds.close)
    elif config.board.sensors == "serial" and config.leds.enabled:
        leds = sensors  # type: ignore[assignment]  # SerialBoard is both
    web = _add_extras(config, store.path, stack, extra, first_start)
    daemon = Daemon(
        config,
        sensors,
        store,
        opponent=opponent,
        leds=leds,
        resume=resume,
        started_at=started_at,
        adviser=lambda: (
            make_opponent(replace(config, game=replace(config.game, mode="engine")), vary=False)
            or _no_engine()
        ),
        now=now,
        **extra,
    )
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


def _add_extras(
    config: Config, db_path: Path, stack: ExitStack, extra: dict[str, Any], first_start: bool
) -> WebParts | None:
    """The parts the configuration turns on that the caller has not given:
    the voice, the reviews and the buttons, each closed by ``stack``, and the
    page, not yet listening; on the first start, the words that say where the
    settings page is.  Returns the page's parts when it made them."""
    web = None
    if config.game.mode == "remote" and "remote" not in extra:
        if not config.web.enabled:
            raise StartError(
                "a remote game is played through the web server: set [web] enabled = true "
                "(and a pin, to offer or join a game from the page)"
            )
        extra["remote"] = Desk()
    if config.web.enabled and "web" not in extra:
        web = make_web(config, db_path, extra.get("remote"))
        extra["web"] = web.hub
        if first_start:
            extra["welcome"] = welcome_words(web.url, config.web.pin)
    if config.speech.enabled and "speaker" not in extra:
        extra["speaker"] = make_speaker(config, stack)
    if (config.review.at_end or config.web.enabled) and "reviewer" not in extra:
        # At a game's end, or asked for from the page.
        reviewer = Reviewer(db_path, Limits(movetime=config.review.movetime))
        stack.callback(reviewer.close)
        extra["reviewer"] = reviewer
    if config.buttons.enabled and "buttons" not in extra:
        from ..hw.buttons import GpioButtons

        buttons = GpioButtons(_pinout(config).pi.buttons)
        stack.callback(buttons.close)
        extra["buttons"] = buttons
    return web


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


def make_speaker(config: Config, stack: ExitStack) -> Speaker | None:
    """The board's voice as configured, or None (logged once) where the
    speech engine cannot run: the game goes on in silence."""
    speech = config.speech
    try:
        engine = Espeak(VoiceSettings(speech.voice, speech.rate, speech.volume))
    except SpeechError as exc:
        log.warning("[speech] %s: the board stays silent", exc)
        return None
    speaker = Speaker(engine)
    stack.callback(speaker.close)
    return speaker


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


def _no_engine() -> Opponent:
    raise StartError("no engine for hints")


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

    if config.board.sensors != "sim":
        _fits_sensors(get_variant(config.game.variant), config)  # before the screen speaks
    notifier = Notifier.from_env()
    with ExitStack() as stack:
        display = None
        if config.display.enabled:
            try:
                from ..ui.screen import Screen

                display = Screen(config.display_size, config.display.fullscreen)
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
            setup=setup,
            puzzle=PuzzleSession(puzzle) if puzzle is not None else None,
            replay=replay,
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
        setup=setup,
        puzzle=PuzzleSession(puzzle) if puzzle is not None else None,
        replay=replay,
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
