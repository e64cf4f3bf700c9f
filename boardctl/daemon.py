"""The board daemon: one loop that wires sensors, reconciler, engine, LEDs,
display and the game store together.

:meth:`Daemon.step` is one turn of the loop and never blocks: it takes a
sensor reading and button presses, feeds them to the reconciler, stores every
committed move *before* the display and LEDs confirm it, asks the engine
worker for a move when it is the engine's turn and collects its answer, and
sends the LED frame and the display state.  :meth:`Daemon.run` calls it at
``LOOP_HZ`` with the real clock; ``boardctl sim --headless`` and the tests
call it with a virtual one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol, TextIO

from .board import (
    Event,
    GameOver,
    LedScene,
    MoveAmended,
    MoveMade,
    MoveTakenBack,
    NewGame,
    Reconciler,
    ReconcilerConfig,
    Role,
)
from .board.reconciler import State
from .config import Config
from .engine import MAX_SKILL, Limits
from .engine.worker import BestMove, Failed, Message, Thinking, WorkerError
from .hw import Buttons, Colour, LedSink, Reading, SensorSource
from .rules import (
    BLACK,
    WHITE,
    Game,
    IllegalMoveError,
    Move,
    PieceType,
    get_variant,
    parse_uci,
    san,
)
from .rules.digits import NumberError, parse_whole, shown
from .rules.pieces import SYMBOLS
from .store import StoreError
from .ui.state import DisplayState, PromptKind

log = logging.getLogger("boardctl")

LOOP_HZ = 50
BLINK_HZ = 2.0
TAKEBACK_PAUSE = 3.0   # after a takeback, wait for the board to settle before the engine moves
ENGINE_RETRIES = 3     # engine processes started again on one position before giving up
ENGINE_RETRY_DELAY = 1.0
MAX_LEVEL = MAX_SKILL             # the engine's levels, 0 to 20
LEVEL_SETTING = "engine.level"   # the level set at the board, kept in the store
NOTICE_SECONDS = 3.0           # how long a notice (the new level) stays on the screen

PALETTE: dict[Role, Colour] = {
    Role.LEGAL: (0, 160, 0),
    Role.LEGAL_ONE_PATH: (0, 120, 255),
    Role.LEGAL_TWO_PATHS: (0, 200, 200),
    Role.LEGAL_THREE_PATHS: (0, 255, 120),
    Role.FALCON_PATH: (140, 0, 200),
    Role.LIFTED: (255, 255, 255),
    Role.ENGINE_FROM: (255, 160, 0),
    Role.ENGINE_PATH: (120, 70, 0),
    Role.ENGINE_TO: (255, 255, 0),
    Role.CHECK: (255, 0, 0),
    Role.FIX_FROM: (255, 0, 0),
    Role.FIX_TO: (0, 255, 0),
    Role.CANDIDATE: (0, 120, 255),
}


class Opponent(Protocol):
    """The engine worker, or an external UCI engine (same interface)."""

    def go(self, fen: str, moves: list[str], limits: Limits, variant: str = ...) -> int: ...
    def stop(self) -> None: ...
    def new_game(self) -> None: ...
    def set_skill(self, skill: int) -> None: ...
    def poll(self, timeout: float = ...) -> list[Message]: ...
    def close(self) -> None: ...


class Store(Protocol):
    def new_game(self, variant: str, start_fen: str, white: str, black: str, mode: str,
                 now: float) -> int: ...
    def add_move(self, game_id: int, ply: int, uci: str, now: float) -> None: ...
    def remove_last_move(self, game_id: int) -> None: ...
    def amend_last_move(self, game_id: int, uci: str, now: float) -> None: ...
    def finish(self, game_id: int, result: str, termination: str, now: float) -> None: ...
    def setting(self, key: str) -> str | None: ...
    def set_setting(self, key: str, value: str) -> None: ...


class Display(Protocol):
    def show(self, state: DisplayState) -> None: ...


class Notifier(Protocol):
    def watchdog(self) -> None: ...
    def watchdog_interval(self) -> float | None: ...


class Daemon:
    """See the module docstring.  ``store`` must already be open; the daemon
    resumes its unfinished game if ``resume`` gives one."""

    def __init__(
        self,
        config: Config,
        sensors: SensorSource,
        store: Store,
        *,
        opponent: Opponent | None = None,
        adviser: Callable[[], Opponent] | None = None,
        leds: LedSink | None = None,
        buttons: Buttons | None = None,
        display: Display | None = None,
        notifier: Notifier | None = None,
        resume: tuple[int, Game] | None = None,
        recorder: TextIO | None = None,
        now: float = 0.0,
    ) -> None:
        self.config = config
        self.sensors = sensors
        self.store = store
        self.opponent = opponent if config.game.mode == "engine" else None
        # Hints come from the opponent, or from an engine started on first use.
        self._adviser_factory = adviser
        self._adviser: Opponent | None = None
        self.hint_request: int | None = None
        self.leds = leds
        self.buttons = buttons
        self.display = display
        self.notifier = notifier
        self.recorder = recorder
        self.variant = get_variant(config.game.variant)
        self.engine_side: int | None = None
        if self.opponent is not None:
            self.engine_side = BLACK if config.game.human == "white" else WHITE
        rec_config = ReconcilerConfig(
            settle=config.board.settle_ms / 1000, grace=config.board.grace_ms / 1000,
            allow_takeback=config.game.takeback, teaching=config.game.mode == "teaching",
        )
        if resume is not None:
            self.game_id, game = resume
        else:
            game = Game(self.variant)
            self.game_id = self._store_new_game(game, now)
        self.reconciler = Reconciler(game, rec_config, self.engine_side)
        self.request: int | None = None      # the engine request whose answer we want
        self.engine_due: float | None = now  # when to ask the engine (if its turn)
        self.engine_text = "off" if self.opponent is None else "ready"
        self.engine_failures = 0             # engine processes lost on this position
        self.engine_depth: int | None = None
        self.engine_score = ""
        self.events: list[Event] = []        # everything that happened, for tests and logs
        self.choice = 0                      # highlighted promotion piece
        self.hint: str | None = None
        self.hint_move: tuple[int, int] | None = None
        self.notice: tuple[str, float] | None = None  # a short message and until when
        self.level = self._stored_level(config.engine.skill)
        clock = config.clock_seconds
        self.clocks: list[float] | None = [clock[0], clock[0]] if clock else None
        self.increment = clock[1] if clock else 0.0
        self.clock_since = now
        self.flagged: int | None = None      # the side whose time ran out
        self.last_reading: int | None = None
        self._sans: tuple[tuple[str, tuple[Move, ...]], tuple[str, ...]] = (("", ()), ())
        self.start_time = now
        self.now = now                       # the time of the last step
        self.stopping = False
        self.watchdog_due = now

    # --------------------------------------------------------------- loop
    @property
    def game(self) -> Game:
        return self.reconciler.game

    def step(self, now: float) -> list[Event]:
        """One turn of the loop (never blocks)."""
        self.now = now
        events: list[Event] = []
        reading = self.sensors.read(now)
        if reading is not None:
            self._record(reading)
            events += self.reconciler.feed(reading.occupancy, reading.time)
        if self.buttons is not None:
            for press in self.buttons.presses(now):
                events += self._button(press.button, now)
        events += self.reconciler.tick(now)
        for event in events:
            self._handle(event, now)
        self._tick_clock(now)
        self._engine(now)
        self._poll_adviser()
        self._outputs(now)
        if self.notifier is not None and now >= self.watchdog_due:
            # From the loop itself, so a hung loop really trips systemd's watchdog.
            self.notifier.watchdog()
            interval = self.notifier.watchdog_interval()
            self.watchdog_due = now + (interval / 2 if interval else 10.0)
        self.events += events
        return events

    def choose(self, piece: PieceType, now: float) -> list[Event]:
        """The player's promotion choice from the display or the simulator."""
        events = self.reconciler.choose(piece, now)
        for event in events:
            self._handle(event, now)
        self.events += events
        return events

    def wait_for_engine(self, timeout: float) -> None:
        """Block until the engine answers the current request (headless runs)."""
        if self.opponent is None:
            return
        waited = 0.0
        while self.request is not None and waited < timeout:
            try:
                messages = self.opponent.poll(0.05)
            except WorkerError as exc:
                self._engine_lost(exc, self.now)
                return
            for message in messages:
                self._engine_message(message)
            waited += 0.05

    # ------------------------------------------------------------ events
    def _handle(self, event: Event, now: float) -> None:
        log.info("%s", event.line())
        self._clear_hint()
        self.engine_failures = 0  # a new position: a lost engine gets new tries
        if isinstance(event, MoveMade):
            # Stored before anything shows it to the player (crash safety).
            self.store.add_move(self.game_id, len(self.game.moves), event.uci, now)
            self._switch_clock(now)
            self.engine_due = now
        elif isinstance(event, MoveAmended):
            # One transaction: a crash cannot leave the old move gone and the new one unsaved.
            self.store.amend_last_move(self.game_id, event.new_uci, now)
            self._cancel_engine()
            self.engine_due = now
        elif isinstance(event, MoveTakenBack):
            self.store.remove_last_move(self.game_id)
            self._cancel_engine()
            self.engine_due = now + TAKEBACK_PAUSE
        elif isinstance(event, NewGame):
            self.store.finish(self.game_id, "*", "abandoned", now)
            self.game_id = self._store_new_game(self.game, now)
            self._cancel_engine()
            if self.opponent is not None:
                try:
                    self.opponent.new_game()
                except WorkerError as exc:
                    self._engine_lost(exc, now)
            clock = self.config.clock_seconds
            self.clocks = [clock[0], clock[0]] if clock else None
            self.flagged = None
            self.clock_since = now
            self.engine_due = now
        elif isinstance(event, GameOver):
            self.store.finish(self.game_id, event.outcome.result,
                              event.outcome.termination.value, now)
            self._cancel_engine()

    def _store_new_game(self, game: Game, now: float) -> int:
        names = {"engine": "boardctl", "human": "Player"}
        white = black = names["human"]
        if self.config.game.mode == "engine":
            if self.config.game.human == "white":
                black = names["engine"]
            else:
                white = names["engine"]
        return self.store.new_game(game.variant.name, game.start_fen, white, black,
                                   self.config.game.mode, now)

    # ------------------------------------------------------------ engine
    def _engine_to_move(self) -> bool:
        return (
            self.flagged is None
            and self.opponent is not None
            and self.game.position.turn == self.engine_side
            and self.game.outcome() is None
        )

    def _limits(self) -> Limits:
        if self.clocks is not None:
            return Limits(wtime=self.clocks[0], btime=self.clocks[1],
                          winc=self.increment, binc=self.increment)
        return Limits(movetime=self.config.engine.movetime)

    def _engine(self, now: float) -> None:
        if self.opponent is None:
            return
        if self.engine_failures and self.request is None and (
            self.engine_due is None or now < self.engine_due
        ):
            return  # lost: left alone until it is asked again (go() starts it anew)
        try:
            if (
                self.request is None
                and self._engine_to_move()
                and self.reconciler.engine_move is None
                and self.engine_due is not None
                and now >= self.engine_due
                and self.reconciler.state in (State.SYNCED, State.BUSY)
            ):
                moves = [self.game.position.uci(m) for m in self.game.moves]
                self.request = self.opponent.go(self.game.start_fen, moves, self._limits(),
                                                self.variant.name)
                self.engine_text = "thinking"
                self.engine_due = None
            for message in self.opponent.poll(0):
                if self.opponent is self._adviser and message.request == self.hint_request:
                    self._hint_message(message)
                else:
                    self._engine_message(message)
        except WorkerError as exc:
            self._engine_lost(exc, now)

    def _engine_lost(self, exc: WorkerError, now: float) -> None:
        """The engine process died or cannot start: start it again a few
        times (the next go() does), then stop asking until the position
        changes, so a broken engine never stops the board."""
        self.request = None
        self.hint_request = None
        self.engine_failures += 1
        if self.engine_failures <= ENGINE_RETRIES:
            log.warning("engine lost (%s): starting it again (%d of %d)", exc,
                        self.engine_failures, ENGINE_RETRIES)
            self.engine_due = now + ENGINE_RETRY_DELAY
            self.engine_text = "restarting"
        else:
            log.error("engine lost %d times on this position (%s): not asking it again "
                      "until the position changes", self.engine_failures, exc)
            self.engine_due = None
            self.engine_text = "engine error"

    def _engine_message(self, message: Message) -> None:
        if message.request != self.request:
            return  # an answer to a position that is gone
        if isinstance(message, Thinking):
            info = message.info
            # The display shows scores from White's point of view.
            sign = 1 if self.game.position.turn == WHITE else -1
            if info.mate is not None:
                self.engine_score = f"M{sign * info.mate}"
            else:
                self.engine_score = f"{sign * (info.score_cp or 0) / 100:+.2f}"
            self.engine_depth = info.depth
            self.engine_text = "thinking"
        elif isinstance(message, BestMove):
            self.request = None
            self.engine_failures = 0
            if message.move is None:
                self.engine_text = "no move"
                return
            try:
                move = parse_uci(self.game.position, message.move)
                self.reconciler.set_engine_move(move)
                self.engine_text = f"plays {message.move}"
                self.engine_depth = None
            except IllegalMoveError as exc:
                log.error("engine move refused: %s", exc)
                self.engine_text = "engine error"
        elif isinstance(message, Failed):
            self.request = None
            log.error("engine failed: %s", message.reason)
            self.engine_text = "engine error"

    def _cancel_engine(self) -> None:
        if self.request is not None and self.opponent is not None:
            self.opponent.stop()
        self.request = None
        self.engine_text = "ready" if self.opponent is not None else "off"

    # -------------------------------------------------------------- hints
    def request_hint(self, seconds: float = 1.0) -> None:
        """Ask an engine for the side to move's best move (the "hint" button)."""
        if self.game.outcome() is not None or self._engine_to_move():
            return
        adviser = self.opponent
        if adviser is None:
            if self._adviser_factory is None:
                return
            if self._adviser is None:
                self._adviser = self._adviser_factory()
            adviser = self._adviser
        self._adviser = adviser
        moves = [self.game.position.uci(m) for m in self.game.moves]
        try:
            self.hint_request = adviser.go(self.game.start_fen, moves,
                                           Limits(movetime=seconds), self.variant.name)
        except WorkerError as exc:
            self._adviser_lost(exc)
            return
        self.hint = "Thinking about a hint…"

    def _poll_adviser(self) -> None:
        if self._adviser is None or self._adviser is self.opponent:
            return
        try:
            for message in self._adviser.poll(0):
                self._hint_message(message)
        except WorkerError as exc:
            self._adviser_lost(exc)

    def _adviser_lost(self, exc: WorkerError) -> None:
        """No hint this time; the next hint starts a fresh engine."""
        log.warning("hint engine lost: %s", exc)
        if self._adviser is not None and self._adviser is not self.opponent:
            self._adviser.close()
            self._adviser = None
        self._clear_hint()
        self.hint = "No hint: the engine is not answering"

    def _hint_message(self, message: Message) -> None:
        if message.request != self.hint_request or not isinstance(message, BestMove):
            return
        self.hint_request = None
        if message.move is None:
            self._clear_hint()
            return
        pos = self.game.position
        try:
            move = parse_uci(pos, message.move)
        except IllegalMoveError:
            self._clear_hint()
            return
        self.hint = f"Hint: {san(pos, move)}"
        self.hint_move = (move.from_square, move.to_square)

    def _clear_hint(self) -> None:
        self.hint = None
        self.hint_move = None
        self.hint_request = None

    def close(self) -> None:
        """Stop an engine started for hints (the opponent is the caller's)."""
        if self._adviser is not None and self._adviser is not self.opponent:
            self._adviser.close()
            self._adviser = None

    # ------------------------------------------------------------ buttons
    def _button(self, name: str, now: float) -> list[Event]:
        choices = self.variant.promotions
        if name == "hint":
            self.request_hint()
        elif name in ("next", "prev"):
            step = 1 if name == "next" else -1
            if self.reconciler.state is State.CHOOSING:
                self.choice = (self.choice + step) % len(choices)
            else:
                self.change_level(step, now)
        elif name == "ok" and self.reconciler.state is State.CHOOSING:
            return self.reconciler.choose(choices[self.choice], now)
        elif name in ("q", "f", "r", "b", "n"):
            return self.reconciler.choose(PieceType(SYMBOLS.index(name)), now)
        return []

    # ------------------------------------------------------------- levels
    def _stored_level(self, configured: int) -> int:
        """The level last set at the board, else the configuration's; the
        engine is told when they differ."""
        try:
            text = self.store.setting(LEVEL_SETTING)
        except StoreError as exc:
            log.warning("cannot read the engine level from the store: %s", exc)
            text = None
        try:
            level = parse_whole(text, 0, MAX_LEVEL) if text is not None else configured
        except NumberError:
            log.warning("ignoring the stored engine level %s: not a level from 0 to %d",
                        shown(text or ""), MAX_LEVEL)
            return configured
        if level != configured and self.opponent is not None:
            try:
                self.opponent.set_skill(level)
            except WorkerError as exc:
                log.warning("cannot set the engine level: %s", exc)
        return level

    def change_level(self, step: int, now: float) -> None:
        """Raise or lower the engine's level (the next/prev buttons); it applies
        from the engine's next move and is kept for the next start."""
        if self.opponent is None:
            self.notice = ("The level is for games against the engine", now + NOTICE_SECONDS)
            return
        level = max(0, min(MAX_LEVEL, self.level + step))
        self.notice = (f"Engine level {level} of {MAX_LEVEL}", now + NOTICE_SECONDS)
        if level == self.level:
            return
        self.level = level
        try:
            self.opponent.set_skill(level)
        except WorkerError as exc:
            self._engine_lost(exc, now)
        try:
            self.store.set_setting(LEVEL_SETTING, str(level))
        except StoreError as exc:
            log.warning("cannot keep the engine level: %s", exc)
        log.info("engine level %d", level)

    # ------------------------------------------------------------- clocks
    def _tick_clock(self, now: float) -> None:
        if (self.clocks is None or self.game.outcome() is not None or not self.game.moves
                or self.flagged is not None):
            self.clock_since = now
            return
        side = self.game.position.turn
        self.clocks[side] = max(0.0, self.clocks[side] - (now - self.clock_since))
        self.clock_since = now
        if self.clocks[side] == 0.0:
            # Time is up: the game is lost on time (the board may still be played
            # on, but nothing is stored or asked of the engine until a new game).
            self.flagged = side
            self.store.finish(self.game_id, "0-1" if side == WHITE else "1-0",
                              "time forfeit", now)
            self._cancel_engine()

    def _switch_clock(self, now: float) -> None:
        if self.clocks is None:
            return
        mover = self.game.position.turn ^ 1
        self._tick_clock(now)
        self.clocks[mover] += self.increment

    # ------------------------------------------------------------ outputs
    def led_colours(self, now: float, scene: LedScene | None = None) -> dict[int, Colour]:
        if scene is None:
            scene = self.reconciler.scene()
        blink_off = int(now * BLINK_HZ * 2) % 2 == 1
        colours = {
            sq: PALETTE[role] for sq, role in scene.squares.items()
            if not (blink_off and sq in scene.blink)
        }
        if self.hint_move is not None and not scene.squares:
            colours[self.hint_move[0]] = PALETTE[Role.ENGINE_FROM]
            colours[self.hint_move[1]] = PALETTE[Role.ENGINE_TO]
        return colours

    def status(self, scene: LedScene | None = None) -> DisplayState:
        """What the screen shows now."""
        pos = self.game.position
        last = None
        if self.game.moves:
            move = self.game.moves[-1]
            last = (move.from_square, move.to_square)
        state = self.reconciler.state
        prompt = self.reconciler.prompt
        kind: PromptKind = "info"
        choices: tuple[PieceType, ...] = ()
        if state is State.ERROR:
            kind = "error"
        elif state is State.CHOOSING and prompt.startswith("Choose"):
            kind = "choice"
            choices = self.variant.promotions
        if not prompt and self.flagged is not None:
            loser, winner = ("White", "Black") if self.flagged == WHITE else ("Black", "White")
            prompt = f"{loser}'s time is up: {winner} wins. Set up the pieces for a new game"
        if not prompt and self.hint:
            prompt = self.hint
        if not prompt and self.notice is not None and self.now < self.notice[1]:
            prompt = self.notice[0]
        if scene is None:
            scene = self.reconciler.scene()
        marks = tuple(sq for sq, role in scene.squares.items()
                      if role in (Role.FIX_FROM, Role.FIX_TO, Role.CANDIDATE))
        return DisplayState(
            fen=pos.fen(), variant=self.variant.name,
            orientation=BLACK if self.engine_side == WHITE else WHITE,
            last_move=last, check_square=pos.kings[pos.turn] if pos.is_check() else None,
            moves=self._move_texts(), engine_status=self.engine_text,
            engine_depth=self.engine_depth, engine_score=self.engine_score,
            white_clock=self.clocks[0] if self.clocks else None,
            black_clock=self.clocks[1] if self.clocks else None,
            prompt=prompt, prompt_kind=kind,
            choices=choices, chosen=self.choice if choices else None, marks=marks,
            status="" if self.sensors.healthy else "board not connected",
            status_alert=not self.sensors.healthy,
        )

    def _move_texts(self) -> tuple[str, ...]:
        """The game's moves in SAN, worked out again only when they change:
        replaying the whole game at every turn of the loop takes longer than
        a turn once the game is long."""
        key = (self.game.start_fen, tuple(self.game.moves))
        if key != self._sans[0]:
            self._sans = (key, tuple(self.game.sans()))
        return self._sans[1]

    def _outputs(self, now: float) -> None:
        if self.leds is None and self.display is None:
            return
        scene = self.reconciler.scene()  # once for both: it walks the lifted pieces' moves
        if self.leds is not None:
            self.leds.show(self.led_colours(now, scene))
        if self.display is not None:
            self.display.show(self.status(scene))

    def _record(self, reading: Reading) -> None:
        """Write the raw sensor stream in the replay format (for bug reports)."""
        if self.recorder is None:
            self.last_reading = reading.occupancy
            return
        if self.last_reading is not None:
            changed = reading.occupancy ^ self.last_reading
            geo = self.game.position.geometry
            for sq in geo.squares(changed):
                verb = "place" if reading.occupancy >> sq & 1 else "lift"
                self.recorder.write(f"{reading.time - self.start_time:.3f} {verb} {geo.name(sq)}\n")
            self.recorder.flush()
        self.last_reading = reading.occupancy

    # --------------------------------------------------------------- run
    def run(self, clock: Callable[[], float], sleep: Callable[[float], None]) -> None:
        """Loop until :attr:`stopping` is set (by a signal handler)."""
        period = 1.0 / LOOP_HZ
        while not self.stopping:
            started = clock()
            self.step(started)
            spent = clock() - started
            if spent < period:
                sleep(period - spent)
