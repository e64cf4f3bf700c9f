"""The board daemon: one loop that wires sensors, reconciler, engine, LEDs,
display and the game store together.

:meth:`Daemon.step` is one turn of the loop and never blocks: it takes a
sensor reading and button presses, feeds them to the reconciler, stores every
committed move *before* the display and LEDs confirm it, asks the engine
worker for a move when it is the engine's turn and collects its answer, and
sends the LED frame and the display state.  :meth:`Daemon.run` calls it at
``LOOP_HZ`` with the real clock; ``boardctl sim --headless`` and the tests
call it with a virtual one.  That clock only times things (the settle time,
the clocks, the engine); what the store keeps is the wall-clock time,
``wall_clock()`` (UTC seconds since 1970), read when the move is made.

The store is written through a :class:`~boardctl.storage.backlog.Backlog`: when it
cannot be written (a full disk, a read-only database) the game goes on and
the screen's status line says that moves are not being saved.

A game that ends is reviewed (``[review] at_end``) by the
:class:`~boardctl.review.background.Reviewer`, in a process of its own that
:meth:`Daemon.step` only polls; the page may ask for any stored game's review.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol, TextIO

from ..board import (
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
    lights,
)
from ..board.setup import SetUp, begin, complete, instruction, observe, retarget
from ..board.setup import scene as setup_scene
from ..board.stepping import (
    BACK_BUTTON,
    FORWARD_BUTTON,
    PLAY_ON_BUTTON,
    Ask,
    Offer,
    Stepping,
    followed,
    game_at,
    line,
    played,
    pressed,
)
from ..board.stepping import status as stepping_status
from ..config import Config
from ..engine import Limits
from ..engine.interface import Opponent, WorkerError
from ..hw import Buttons, Colour, LedSink, Reading, SensorSource
from ..hw.base import Dims, ExplainsProblems, MayLag, Wakes
from ..puzzles import Puzzle
from ..remote.desk import Desk
from ..review.background import Reviewer
from ..rules import (
    BLACK,
    WHITE,
    BoardctlError,
    Game,
    Outcome,
    PieceType,
    Position,
    Termination,
    get_variant,
)
from ..rules.pieces import SYMBOLS
from ..settings import Abilities, When, changed, config_keys, merged, when_taken
from ..storage.backlog import Backlog, Store
from ..ui.state import DisplayState
from ..voice.engines import VoiceSettings
from ..voice.speaker import QUESTIONS, Announcer, SaysAloud
from ..web.shaping import EngineShown, Shaper
from ..web.snapshot import START_KINDS, Hub, Snapshot, WebAction
from ..web.starts import StartRefused, refusal, target, under_way
from .clock import ChessClock
from .coach import Coach
from .presenter import Machine, Presenter
from .puzzle import PuzzleSession
from .remote import RemoteOpponent, RemoteSeat
from .session import HINT_THINKING, EngineSession

log = logging.getLogger("boardctl")

LOOP_HZ = 50
TAKEBACK_PAUSE = 3.0  # after a takeback, wait for the board to settle before the engine moves
NOTICE_SECONDS = 3.0  # how long a notice (the new level) stays on the screen
EVENTS_KEPT = 1000  # events the daemon remembers (see Daemon.events)
# The game id while no stored game is on the board: after stepping through one,
# until the position set up next begins a game (the store's ids start at 1).
NO_GAME = 0
# The web page's snapshot is built at once after a move or an action, else at most this
# often (a lifted piece's LEDs, the clocks): building one costs more than a whole step.
WEB_PERIOD = 0.1


PLAYER = "Player"  # a player the configuration does not name
ENGINE_NAME = "boardctl"

# How each of the page's endings ends the game ("resign": the side to move resigns).
_DECLARED = {
    "resign": Termination.RESIGNATION,
    "draw": Termination.AGREEMENT,
    "newgame": Termination.ABANDONED,
}


class Display(Protocol):
    def show(self, state: DisplayState) -> None: ...


class Notifier(Protocol):
    def watchdog(self) -> None: ...
    def watchdog_interval(self) -> float | None: ...


def reconciler_config(config: Config) -> ReconcilerConfig:
    """The reconciler's timings and permissions, from the configuration."""
    return ReconcilerConfig(
        settle=config.board.settle_ms / 1000,
        grace=config.board.grace_ms / 1000,
        # A remote game takes a move back only when both sides agree (the
        # daemon then guides the pieces back itself).
        allow_takeback=config.game.takeback and config.game.mode != "remote",
        teaching=config.game.mode == "teaching",
    )


def stepping_config(config: Config) -> ReconcilerConfig:
    """The reconciler's, while stepping through a stored game: every move is
    given, and taking one back is how the player steps back."""
    return replace(reconciler_config(config), allow_takeback=True, teaching=False, stepping=True)


class Daemon:
    """See the module docstring.  ``store`` must already be open; the daemon
    resumes its unfinished game if ``resume`` gives one."""

    # long: every part the loop holds, each named once with why it is there;
    # spread over helpers, no one place would show what a daemon is made of.
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
        started_at: float | None = None,
        recorder: TextIO | None = None,
        web: Hub | None = None,
        speaker: SaysAloud | None = None,
        reviewer: Reviewer | None = None,
        setup: Position | None = None,
        welcome: str | None = None,
        puzzle: PuzzleSession | None = None,
        replay: Stepping | None = None,
        remote: Desk | None = None,
        now: float = 0.0,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.config = config
        self.sensors = sensors
        self.store = Backlog(store)
        self.wall_clock = wall_clock
        # A remote game's other side is an opponent too: its moves come from the desk.
        self.remote: RemoteSeat | None = None
        if config.game.mode == "remote" and remote is not None:
            human = WHITE if config.game.human == "white" else BLACK
            self.remote = RemoteSeat(remote, human, config.remote.confirm_ms / 1000)
            opponent = RemoteOpponent(remote)
        self.opponent = opponent if config.game.mode in ("engine", "remote") else None
        self.leds = leds
        self.buttons = buttons
        self.display = display
        self.notifier = notifier
        self.recorder = recorder
        self.variant = get_variant(config.game.variant)
        self.engine_side: int | None = None
        if self.opponent is not None:
            self.engine_side = BLACK if config.game.human == "white" else WHITE
        # A puzzle (``--puzzle``): its position is set up, then played as a
        # game in which the engine defends; its goal is judged after each move.
        self.puzzle: PuzzleSession | None = None
        # When the game began (UTC seconds since 1970), for the live PGN's date;
        # a resumed game's comes from the store (None: not known).
        self.started_at = started_at
        # A stored game to step through (``--replay``), once its start is set up.
        self.stepping: Stepping | None = None
        # Its banner's words, for the stepping they were made for: worked out
        # again only when it changes (naming a move walks the legal moves).
        self._stepping_words: tuple[Stepping, str] | None = None
        if replay is not None:
            # Nothing is stored while stepping, and no game is started: the
            # game resumed, if any, tells only how the board stands.
            game = resume[1] if resume is not None else Game(self.variant)
            self.game_id = replay.game_id
        else:
            self.game_id, game = resume if resume is not None else self._new_game()
        self.reconciler = Reconciler(game, reconciler_config(config), self.engine_side)
        # A position to set up before play (``--setup``), before a puzzle or
        # before stepping: while it is being set up, readings go to it instead
        # of the reconciler.
        self.setup: SetUp | None = None
        self.setup_reading: tuple[int, float] | None = None  # not yet settled, and since
        # The game to play once the set-up is complete, when it is not a new
        # game from the position (a remote game the pieces are guided back to).
        self.setup_game: Game | None = None
        # What happened lately, for tests and logs: the last EVENTS_KEPT, so
        # that a board that plays for days does not grow; event_count counts all.
        self.events: deque[Event] = deque(maxlen=EVENTS_KEPT)
        self.event_count = 0
        self.notice: tuple[str, float] | None = None  # a short message and until when
        # Hints come from the opponent, or from an engine started on first use.
        teaching = config.game.mode == "teaching"
        self.engine = EngineSession(
            self.opponent, adviser, self.store, config.engine.skill, now, ranked_hints=teaching
        )
        # A teaching board judges every move with an engine of its own (see coach.py).
        self.coach = Coach(adviser if teaching else None, offer=config.game.takeback)
        self.clock = self._new_clock(now)
        self.last_reading: int | None = None
        self.sensor_problem: str | None = None  # what the sensors last said was wrong (logged)
        # The reconciler's clock: the daemon's, less the time the sensors
        # were behind.  Its timers judge a board that stays still; while the
        # last reading may be out of date (a serial line lost, a snapshot
        # held) the board may have moved already, so that time does not count,
        # and a late reading is judged as if it had come when the sensors fell
        # behind.
        self.lagged = 0.0
        self._lagging = False
        self.presenter = Presenter(self.engine_side)
        self.start_time = now
        self.now = now  # the time of the last step
        self.stopping = False
        # The page asked for the program to start again (boardctl.daemon.restart).
        self.restart = False
        self.watchdog_due = now
        # The spectator page: snapshots out, actions in (see boardctl.web).
        self.web = web
        self.web_shaper = Shaper()
        self.web_due = now
        # Words for what changes, said by the speaker (if any) and shown to
        # the page, whose own speech may be on while the board's is not.
        self.voice = Announcer(speaker, config.speech.squares)
        # Reviews of ended games, in a process of their own (the caller's to close).
        self.reviewer = reviewer
        # Settings saved from the page for the next game (boardctl.settings);
        # an engine the daemon starts itself when a game against it begins
        # (the one it was given is its caller's), kept for the next such game.
        self.pending: Config | None = None
        self.adviser = adviser
        self.spare_engine = self.opponent
        self.own_engine: Opponent | None = None
        # The first start: where the settings page is and its PIN, shown
        # until the owner saves the settings once.
        self.welcome = welcome
        # The command line's start, as the page's would be (see guide).
        start = puzzle or replay or setup
        if start is not None:
            self.guide(start, now)

    # --------------------------------------------------------------- loop
    @property
    def game(self) -> Game:
        return self.reconciler.game

    def step(self, now: float) -> list[Event]:
        """One turn of the loop (never blocks)."""
        previous, self.now = self.now, now
        events: list[Event] = []
        reading = self.sensors.read(now)
        if self._lagging:
            self.lagged += now - previous
        self._lagging = isinstance(self.sensors, MayLag) and self.sensors.behind
        if reading is not None:
            self._record(reading)
            if self.setup is not None:
                self.setup_reading = (reading.occupancy, reading.time - self.lagged)
            else:
                events += self.reconciler.feed(reading.occupancy, reading.time - self.lagged)
        events += self._set_up(now - self.lagged)
        self._watch_sensors()
        if self.buttons is not None:
            for press in self.buttons.presses(now):
                events += self._button(press.button, now)
        events += self.reconciler.tick(now - self.lagged)
        for event in events:
            self._handle(event, now)
        self._puzzle_step()
        self.store.retry(now)
        self._tick_clock(now)
        self.engine.step(now, self.game, self.reconciler, self._engine_to_move(), self._limits())
        if self.remote is not None:
            self.remote.step(self, now)
        if self.setup is None and self.stepping is None:
            self.coach.step(self.game)
        reviewed = self.reviewer is not None and self.reviewer.step()
        self._outputs(now)
        if self.web is not None:
            self._web_step(now, bool(events) or reviewed)
        if self.notifier is not None and now >= self.watchdog_due:
            # From the loop itself, so a hung loop really trips systemd's watchdog.
            self.notifier.watchdog()
            interval = self.notifier.watchdog_interval()
            self.watchdog_due = now + (interval / 2 if interval else 10.0)
        self.events += events
        self.event_count += len(events)
        return events

    def _set_up(self, now: float) -> list[Event]:
        """While a position is set up: the last reading, once it has settled
        (a piece slid across the board must not make the words flicker);
        once the set-up is complete, a new game starts from it (stored as a
        new game, like one from the start)."""
        if self.setup is None or self.setup_reading is None:
            return []
        occupancy, since = self.setup_reading
        if now - since < self.reconciler.config.settle:
            return []
        self.setup_reading = None
        self.setup = observe(self.setup, occupancy)
        if not complete(self.setup):
            return []
        fen, self.setup = self.setup.target.fen(), None
        kept, self.setup_game = self.setup_game, None
        if kept is not None:  # a remote game, stored already: it goes on
            self.reconciler = Reconciler(kept, self.reconciler.config, self.engine_side)
            return []
        game = Game(self.variant, fen)
        if self.stepping is not None:
            self.reconciler = Reconciler(game_at(self.stepping), stepping_config(self.config))
            return []
        self.reconciler = Reconciler(game, self.reconciler.config, self.engine_side)
        return [NewGame()]

    # -------------------------------------------------------- guided starts
    def guide(self, start: PuzzleSession | Stepping | Position, now: float) -> None:
        """Guide the player from the pieces as they stand to ``start``: a
        position to play on from (``--setup``), a puzzle to solve
        (``--puzzle``) or a stored game to step through (``--replay``).  The
        one way in for the command line and the owner's page; a puzzle or a
        stepping under way ends first.

        :raises ValueError: for a puzzle or game of another preset than the board's.
        """
        self._end_guided(now)
        if isinstance(start, PuzzleSession):
            target = self._start_puzzle(start, now)
        elif isinstance(start, Stepping):
            if start.variant.name != self.variant.name:
                raise ValueError(f"game {start.game_id} is played in {start.variant.name}")
            self.stepping, self.game_id = start, start.game_id
            target = game_at(start, 0).position
        else:
            target = start
        if self.setup is not None:  # half set up: what stands trusted stays so
            self.setup = retarget(self.setup, target)
        else:  # the board is taken to stand as the game left it, as when a game is resumed
            self.setup = begin(target, self.reconciler.reading, self.game.position)

    def _start_puzzle(self, puzzle: PuzzleSession, now: float) -> Position:
        """The puzzle's side of :meth:`guide`: its own engine defends (the
        opponent's waits), and a wrong move may be taken back to try again."""
        if puzzle.puzzle.variant != self.variant.name:
            raise ValueError(f"puzzle {puzzle.puzzle.id} is played in {puzzle.puzzle.variant}")
        self.puzzle = puzzle
        self._engine_for(None, now)
        self.engine_side = self.reconciler.engine_side = puzzle.defender
        self.presenter = Presenter(puzzle.defender)
        self.reconciler.config = replace(reconciler_config(self.config), allow_takeback=True)
        return puzzle.puzzle.position()

    def _end_guided(self, now: float) -> None:
        """A puzzle or a stepping under way ends: the players are seated as
        configured; after stepping, no stored game is on the board (the one
        stepped through stays as it was stored)."""
        if self.puzzle is None and self.stepping is None:
            return
        if self.puzzle is not None:
            self.puzzle.close()
            self.puzzle = None
        if self.stepping is not None:
            self.stepping, self.game_id = None, NO_GAME
        self._seat_players(now)

    @property
    def mode(self) -> str:
        """What the board is doing, as the page is told (Snapshot.mode)."""
        if self.puzzle is not None:
            return "puzzle"
        if self.stepping is not None:
            return "stepping"
        return "setup" if self.setup is not None else "game"

    def _start_asked(self, action: WebAction, now: float) -> None:
        """The owner's page asks for a set-up, a puzzle, a stepping or a
        normal game again: checked against the board (as the server checked
        it against the page's snapshot), then begun as the flags begin it.
        The game on the board, which has no moves or has ended, is finished."""
        try:
            playing = under_way(self.mode, len(self.game.moves), self.game.ending() is not None)
            why = refusal(action.kind, self.mode, playing, self.remote is not None)
            if why is not None:
                raise StartRefused(why)
            found = target(action.kind, action.text, action.config, self.variant)
        except StartRefused as exc:
            log.info("web: %s refused: %s", action.kind, exc.why.text)
            self.notice = (exc.why.text, now + NOTICE_SECONDS)
            return
        self._end_guided(now)
        self._finish(Outcome(Termination.ABANDONED, None))
        self.guide(found if not isinstance(found, Puzzle) else PuzzleSession(found), now)

    def choose(self, piece: PieceType, now: float) -> list[Event]:
        """The player's promotion choice from the display or the simulator."""
        events = self.reconciler.choose(piece, now - self.lagged)
        for event in events:
            self._handle(event, now)
        self._puzzle_step()
        self.events += events
        self.event_count += len(events)
        return events

    def wait_for_engine(self, timeout: float) -> None:
        """Block until the engine answers the current request, or the
        puzzle's engine its question (headless runs)."""
        self.engine.wait(timeout, self.now, self.game, self.reconciler)
        if self.puzzle is not None:
            self.puzzle.wait(timeout)

    def _puzzle_step(self) -> None:
        """A puzzle: judge what changed, offer the defence, show a hint found."""
        if self.puzzle is None:
            return
        hinted = self.puzzle.step(self.game, self.reconciler)
        if hinted is not None:
            self.engine.show_hint(self.game.position, hinted)

    def _watch_sensors(self) -> None:
        """Log what is wrong with the sensors once when it starts or changes,
        and once when they are back; the screen shows it while it lasts."""
        healthy = self.sensors.healthy
        problem = None
        if not healthy and isinstance(self.sensors, ExplainsProblems):
            problem = self.sensors.problem
        if problem is not None and problem != self.sensor_problem:
            log.warning("%s", problem)
            self.sensor_problem = problem
        elif healthy and self.sensor_problem is not None:
            log.info("sensor board connected again")
            self.sensor_problem = None

    # ------------------------------------------------------------ events
    def _handle(self, event: Event, now: float) -> None:
        log.info("%s", event.line())
        self.engine.new_position()
        if self.stepping is not None:
            # A stored game stepped through: it changes on the board only.
            self.stepping = followed(self.stepping, event)
            return
        if (
            isinstance(event, MoveMade | MoveAmended | MoveTakenBack)
            and self.game.declared is not None
        ):
            # Ended on time or from the web page: the store keeps the game as it
            # ended (it refuses more moves); the board may be played on until the
            # pieces are set up for a new game.  An ending the position shows is
            # not so final: taking back the mating move is stored like any other.
            log.info("the game is over: %s not stored", event.line())
        elif isinstance(event, MoveMade):
            # Stored before anything shows it to the player (crash safety).
            # A remote game's clocks are the link's: it measures both sides.
            fell = self._press_clock(now) if self.remote is None else False
            if self.remote is not None and not event.by_engine:
                self.remote.moved(now)
            self.store.add_move(
                self.game_id,
                len(self.game.moves),
                event.uci,
                self.wall_clock(),
                clock=self._mover_clock(),
            )
            if fell:
                self._flag_fell()
            self.engine.due = now
        elif isinstance(event, MoveAmended):
            # One transaction: a crash cannot leave the old move gone and the new one unsaved.
            self.store.amend_last_move(self.game_id, event.new_uci, self.wall_clock())
            if self.remote is not None:
                self.remote.moved(now)
            self._game_changed()
            self.engine.cancel()
            self.engine.due = now
        elif isinstance(event, MoveTakenBack):
            self.store.remove_last_move(self.game_id)
            self._game_changed()
            self.engine.cancel()
            self.engine.due = now + TAKEBACK_PAUSE
        elif isinstance(event, NewGame):
            self._begin_game(now)
        elif isinstance(event, GameOver):
            self._finish(event.outcome)
            self.engine.cancel()

    def _begin_game(self, now: float) -> None:
        """A new game on the board: the old one ends (the store keeps the first
        ending: one the old game had stands), the settings saved for the next
        game are taken, and the new game is stored with its players."""
        self._finish(Outcome(Termination.ABANDONED, None))
        self._take_pending(now)
        self.game_id = self._store_new_game(self.game)
        self.engine.new_game(now)
        self.clock = self._new_clock(now)
        if self.puzzle is not None and not self.puzzle.new_game(self.game):
            self._puzzle_over()

    def _puzzle_over(self) -> None:
        """The start position was set up after a puzzle: two players play on
        (no engine was started for the puzzle)."""
        if self.puzzle is not None:
            self.puzzle.close()
        self.puzzle = None
        self.engine_side = self.reconciler.engine_side = None
        self.presenter = Presenter(None)

    def _finish(self, outcome: Outcome) -> None:
        if self.game_id == NO_GAME:
            return
        self.store.finish(
            self.game_id, outcome.result, outcome.termination.value, self.wall_clock()
        )
        if outcome.termination is not Termination.ABANDONED:
            self._review_at_end()

    def _review_at_end(self) -> None:
        """A game that has ended is reviewed, if the configuration says so and
        the store holds all of it (while writes wait, it is left for the page
        to ask for later)."""
        if self.reviewer is None or not self.config.review.at_end or not self.game.moves:
            return
        if self.store.waiting or self.game_id < 1:
            log.info("game %d is not reviewed: its moves are not all saved", self.game_id)
            return
        self.reviewer.request(self.game_id)

    def _game_changed(self) -> None:
        """A move taken back or changed: a review of the game judged other moves."""
        if self.reviewer is not None:
            self.reviewer.cancel(self.game_id)

    def declare(self, outcome: Outcome) -> None:
        """The game ends off the board (a remote game's log ended it)."""
        self._declare(outcome)

    def play_as(self, colour: int) -> None:
        """The board player plays ``colour`` from now on (the host of a remote
        game this board joined chose it); the other side is the opponent."""
        self.engine_side = colour ^ 1
        self.presenter = Presenter(self.engine_side)
        self.reconciler.engine_side = self.engine_side

    def end_for_remote(self, now: float) -> None:
        """A remote game begins: the game on the board now ends unfinished
        (a result it has stands) and the engine forgets it."""
        self._finish(Outcome(Termination.ABANDONED, None))
        self.engine.new_game(now)

    def _declare(self, outcome: Outcome) -> None:
        """The game ends off the board: the game, and so the screen, the page and
        the engine, know it; the store keeps it."""
        self.game.declare(outcome)
        self._finish(outcome)
        self.engine.cancel()

    def _new_game(self) -> tuple[int, Game]:
        game = Game(self.variant)
        return self._store_new_game(game), game

    def _store_new_game(self, game: Game) -> int:
        white, black = self._player_names()
        self.started_at = self.wall_clock()
        return self.store.new_game(
            game.variant.name, game.start_fen, white, black, self.config.game.mode, self.started_at
        )

    def _player_names(self) -> tuple[str, str]:
        """(White, Black), for the store and the web page: as configured, else
        "Player"; the engine's side is the engine's (in a puzzle, it defends);
        a remote game's other side is the remote player."""
        if self.remote is not None:
            return self.remote.names(self.remote.view)
        game = self.config.game
        white, black = game.white_name or PLAYER, game.black_name or PLAYER
        engine_side = self.puzzle.defender if self.puzzle is not None else self.engine_side
        if engine_side == WHITE:
            white = ENGINE_NAME
        elif engine_side == BLACK:
            black = ENGINE_NAME
        return white, black

    # ------------------------------------------------------------ engine
    def _engine_to_move(self) -> bool:
        return (
            self.opponent is not None
            and self.setup is None
            and self.stepping is None
            and self.game.position.turn == self.engine_side
            and self.game.ending() is None
        )

    def _limits(self) -> Limits:
        if self.clock is not None:
            white, black = self.clock.remaining
            # A delay's seconds are free as an increment's are (UCI knows no delay).
            free = self.clock.increment + self.clock.delay
            return Limits(wtime=white, btime=black, winc=free, binc=free)
        return Limits(movetime=self.config.engine.movetime)

    def close(self) -> None:
        """Stop the engines the daemon started (for hints, or to play when the
        settings turned one on; the opponent it was given is its caller's);
        try the store's waiting writes once more, and log any that are lost."""
        self.store.close()
        self.engine.close()
        self.coach.close()
        if self.own_engine is not None:
            self.own_engine.close()
        if self.puzzle is not None:
            self.puzzle.close()

    # ------------------------------------------------------------ buttons
    def _button(self, name: str, now: float) -> list[Event]:
        rec = self.reconciler
        choices = rec.promotion_choices
        if not choices and self.remote is not None and self.remote.button(name, now):
            return []
        if self.stepping is not None and name in (FORWARD_BUTTON, BACK_BUTTON, PLAY_ON_BUTTON):
            if self.setup is None:
                self._step(name, now)
            return []
        if name == "hint":
            self.request_hint()
        elif name in ("next", "prev"):
            step = 1 if name == "next" else -1
            if choices:
                at = choices.index(rec.promotion_piece) if rec.promotion_piece in choices else 0
                rec.highlight(choices[(at + step) % len(choices)])
            else:
                self.change_level(step, now)
        elif name == "ok" and choices:
            return rec.choose(rec.promotion_piece, now - self.lagged)
        elif name in QUESTIONS or (name == "ok" and self.voice.speaker is not None):
            self.ask(name)
        elif name == "mute":
            self.voice.mute(not self.voice.muted)
        elif name in ("q", "f", "r", "b", "n"):
            return self.reconciler.choose(PieceType(SYMBOLS.index(name)), now - self.lagged)
        return []

    def _step(self, button: str, now: float) -> None:
        """A step through the stored game: what the press asks of the reconciler."""
        assert self.stepping is not None
        self.stepping, action = pressed(self.stepping, button)
        if isinstance(action, Offer):
            self.reconciler.set_engine_move(action.move)
        elif action is Ask.TAKE_BACK:
            self.reconciler.ask_takeback()
        elif action is Ask.WITHDRAW:
            self.reconciler.withdraw()
        elif action is Ask.PLAY_ON:
            self.play_on(now)

    def play_on(self, now: float) -> None:
        """Play on from the move the stepping has reached: a new stored game,
        from the stored game's start with its moves so far (so that its PGN
        reads on from them), against the engine or two players as configured.
        The game stepped through is left as it was stored."""
        assert self.stepping is not None
        stepped, self.stepping = self.stepping, None
        self._take_pending(now)  # the settings saved for the next game (its players)
        game = game_at(stepped)
        config = reconciler_config(self.config)
        self.reconciler = Reconciler(game, config, self.engine_side, self.reconciler.reading)
        self.game_id = self._store_new_game(game)
        at = self.wall_clock()
        for ply, uci in enumerate(played(stepped), start=1):
            self.store.add_move(self.game_id, ply, uci, at)
        log.info("game %d: played on from game %d", self.game_id, stepped.game_id)
        where = f"move {game.position.fullmove_number}" if game.moves else "the start"
        text = f"A new game, from {where} of game {stepped.game_id}"
        self.notice = (text, now + NOTICE_SECONDS)
        self.engine.new_game(now)
        self.clock = self._new_clock(now)

    def ask(self, question: str) -> str:
        """A player's question, answered aloud (see :data:`~boardctl.voice.speaker.QUESTIONS`);
        "ok" with nothing to choose: where a lifted piece may go, else what the
        screen says and whose turn it is."""
        lifted = self.reconciler.lifted
        if question == "ok":
            question = "moves" if lifted is not None else "repeat"
        return self.voice.answer(question, self.status(), lifted)

    # ------------------------------------------------------------- levels
    def change_level(self, step: int, now: float) -> None:
        """Raise or lower the engine's level (the next/prev buttons)."""
        if self.remote is not None:
            self.notice = ("No engine plays in a remote game", now + NOTICE_SECONDS)
            return
        notice = self.engine.change_level(step, now, self.game.variant.name)
        self.notice = (notice, now + NOTICE_SECONDS)

    def request_hint(self) -> None:
        """The hint button: the side to move's best move, unless the engine is
        to move; in a puzzle, the next move of its solution; none while a game
        is set up or stepped through."""
        if (
            self.game.ending() is not None
            or self._engine_to_move()
            or self.setup is not None
            or self.stepping is not None
            or self.remote is not None  # no help from an engine against a person
        ):
            return
        if self.puzzle is None:
            self.engine.request_hint(self.game)
            return
        move = self.puzzle.request_hint(self.game)
        if move is not None:
            self.engine.show_hint(self.game.position, move)
        elif self.puzzle.hint_wanted:
            self.engine.hint = HINT_THINKING  # shown once the engine has found it

    # The engine's state, as the screen, the web page and the tests read it.
    @property
    def engine_text(self) -> str:
        return self.engine.text

    @property
    def engine_failures(self) -> int:
        return self.engine.failures

    @property
    def level(self) -> int:
        return self.engine.level

    @property
    def request(self) -> int | None:
        return self.engine.request

    # ------------------------------------------------------------- clocks
    @property
    def clocks(self) -> list[float] | None:
        """White's and Black's remaining seconds, or None for no clock."""
        return self.clock.remaining if self.clock is not None else None

    @property
    def flagged(self) -> int | None:
        """The side whose time ran out, if it did."""
        return self.clock.flagged if self.clock is not None else None

    def _tick_clock(self, now: float) -> None:
        clock = self.clock
        if self.remote is not None:
            self.remote.clocks(clock, now)
            return
        if clock is None:
            return
        if (
            not self.game.moves
            or self.game.ending() is not None
            or self.setup is not None
            or self.stepping is not None
        ):
            # Before the first move, after the game, while setting up and while stepping.
            clock.hold(now)
        elif clock.run(self.game.position.turn, now):
            self._flag_fell()

    def _flag_fell(self) -> None:
        """Time is up: the game is lost on time (the board may still be played
        on, but nothing is stored or asked of the engine until a new game)."""
        assert self.flagged is not None
        self._declare(Outcome(Termination.TIME_FORFEIT, self.flagged ^ 1))

    def _new_clock(self, now: float) -> ChessClock | None:
        """The clock the configuration sets for a new game (None: no clock)."""
        return ChessClock.start(self.config.clock_seconds, now, self.config.clock_delay)

    def _press_clock(self, now: float) -> bool:
        """The move just made ends its mover's time; True if their flag fell
        before it.  White's clock starts with Black's first reply."""
        if self.clock is None:
            return False
        if len(self.game.moves) == 1:
            self.clock.hold(now)
        return self.clock.press(self.game.position.turn ^ 1, now)

    def _mover_clock(self) -> float | None:
        """The time the side that just moved has left (None: no clocks)."""
        if self.clock is None:
            return None
        return self.clock.remaining[self.game.position.turn ^ 1]

    # ------------------------------------------------------------ outputs
    def led_colours(self, now: float, scene: LedScene | None = None) -> dict[int, Colour]:
        return lights.frame(self.scene() if scene is None else scene, now)

    def scene(self) -> LedScene:
        """What the LEDs show: the set-up's next square, else the reconciler's
        scene, or on a quiet board the hint, else the move the coach offers
        back (in the hint's colours: the piece to lift, the square it goes
        back to blinking)."""
        if self.setup is not None:
            return setup_scene(instruction(self.setup))
        scene = self.reconciler.scene()
        advice = self.engine.hint_move or self.coach.takeback
        if advice is not None and not scene.squares:
            scene = scene.with_squares({advice[0]: Role.HINT_FROM, advice[1]: Role.HINT_TO})
        return scene

    def status(self, scene: LedScene | None = None, *, screen: bool = True) -> DisplayState:
        """What the screen shows now; ``screen=False``: what the page and the
        voice may tell everyone, without the first start's PIN, which is for
        the owner at the board."""
        notice = self.notice[0] if self.notice is not None and self.now < self.notice[1] else None
        remote = self.remote.prompt(not screen) if self.remote is not None else None
        machine = Machine(
            notice=notice,
            remote=remote,
            opponent="Engine" if self.remote is None else "Opponent",
            welcome=self.welcome if screen else None,
            sensors_healthy=self.sensors.healthy,
            sensor_problem=self.sensor_problem,
            saving=self.store.status(),
            store_problem=self.store.problem,
            puzzle=self.puzzle.shown() if self.puzzle is not None else None,
        )
        scene = self.scene() if scene is None else scene
        if self.setup is not None:
            return self.presenter.setup_state(self.setup, machine, scene)
        said = self.coach.remark
        state = self.presenter.state(
            self.reconciler,
            self.engine,
            self.clock,
            machine,
            scene,
            advice=said.text if said is not None else None,
        )
        if self.stepping is not None:
            words = notice or self._stepping_line(self.stepping)
            return self.presenter.stepping_state(
                state, self.reconciler, scene, words, stepping_status(self.stepping)
            )
        return state

    def _stepping_line(self, stepping: Stepping) -> str:
        if self._stepping_words is None or self._stepping_words[0] is not stepping:
            words = line(stepping, self.game.position, self.opponent is not None)
            self._stepping_words = (stepping, words)
        return self._stepping_words[1]

    def _outputs(self, now: float) -> None:
        heard = self.voice.speaker is not None or self.web is not None
        if self.leds is None and self.display is None and not heard:
            return
        scene = self.scene()  # once for all: it walks the lifted pieces' moves
        if self.leds is not None:
            self.leds.show(self.led_colours(now, scene))
        if self.display is not None or heard:
            state = self.status(scene)
            if self.display is not None:
                self.display.show(state)
            if heard:
                # What is said reaches the page too: the first start's PIN
                # and a remote game's player code are for the screen only.
                secret = self.welcome or (self.remote is not None and self.remote.code_shown)
                self.voice.heard(self.status(scene, screen=False) if secret else state)

    def _record(self, reading: Reading) -> None:
        """Write the raw sensor stream in the replay format (for bug reports)."""
        if self.recorder is None:
            self.last_reading = reading.occupancy
            return
        if self.last_reading is not None:
            changed = reading.occupancy ^ self.last_reading
            geo = self.game.position.geometry
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

    # --------------------------------------------------------------- run
    def run(self, clock: Callable[[], float], sleep: Callable[[float], None]) -> None:
        """Loop until :attr:`stopping` is set (by a signal handler, or the
        page's restart): a step
        every period, and at once when a source that :class:`Wakes` has a
        reading (the serial board: its bytes end the wait)."""
        period = 1.0 / LOOP_HZ
        wait = self.sensors.wait if isinstance(self.sensors, Wakes) else sleep
        while not self.stopping:
            started = clock()
            self.step(started)
            spent = clock() - started
            if spent < period:
                wait(period - spent)

    # ---------------------------------------------------------------- web
    def _web_step(self, now: float, moved: bool) -> None:
        """Carry out the spectators' actions, then publish what they see."""
        assert self.web is not None
        actions = self.web.take_actions()
        for action in actions:
            self.web_action(action, now)
        if moved or actions or now >= self.web_due:
            self.web.publish(self.snapshot())
            self.web_due = now + WEB_PERIOD

    def web_action(self, action: WebAction, now: float) -> None:
        """An action from the web page (the server has checked the PIN and the
        value).  The board is the truth: a new game or a takeback is made with
        the pieces, so the page can only end the game or ask for the takeback."""
        log.info("web: %s %s", action.kind, action.value or action.text or "")
        if action.kind == "restart":
            # Ends the loop as SIGTERM does; the game is resumed at the next start.
            self.restart = self.stopping = True
            return
        if action.kind == "settings":
            if isinstance(action.config, Config):
                self.settings_saved(action.config, now)
            return
        if action.kind in START_KINDS:
            self._start_asked(action, now)
            return
        if self.remote is not None and action.kind in ("takeback", "draw", "resign", "newgame"):
            # The other side must agree: the page's buttons ask it.
            self.notice = (self.remote.ask(action.kind, now), now + NOTICE_SECONDS)
            return
        over = self.game.ending() is not None
        if self.stepping is not None and action.kind not in ("level", "review"):
            # The stored game is shown, not played: nothing of it is to end.
            self.notice = ("Stepping through a stored game: nothing to end", now + NOTICE_SECONDS)
        elif action.kind == "level":
            self.change_level(action.value - self.level, now)
        elif action.kind == "review":
            if self.reviewer is None:
                self.notice = ("Reviews are off on this board", now + NOTICE_SECONDS)
            else:
                self.reviewer.request(action.value)
        elif action.kind == "takeback":
            if not self.game.moves or over or not self.config.game.takeback:
                self.notice = ("No move to take back", now + NOTICE_SECONDS)
            else:
                last = self.game.position.uci(self.game.moves[-1])
                self.notice = (f"Take back {last}: put the piece back", now + NOTICE_SECONDS)
        elif not over:
            winner = {"resign": self.game.position.turn ^ 1}.get(action.kind)
            self._declare(Outcome(_DECLARED[action.kind], winner))

    # ----------------------------------------------------------- settings
    def abilities(self) -> Abilities:
        """What this board changes while it runs (see boardctl.settings.when_taken)."""
        return Abilities(voice=self.voice.speaker is not None, dims=isinstance(self.leds, Dims))

    def settings_saved(self, new: Config, now: float) -> None:
        """The settings page saved ``new`` to the file: each change is taken
        now, with the next game (at once while no move has been made) or at
        the next start, as :func:`boardctl.settings.when_taken` says, which
        is what the page said."""
        self.welcome = None  # the owner has found the page
        can = self.abilities()
        keys = changed(self.config, new, config_keys())
        timing = {key: when_taken(key, self.config, new, can) for key in keys}
        at_once = [key for key in keys if timing[key] is When.NOW]
        later = [key for key in keys if timing[key] is When.NEXT_GAME]
        self.config = merged(self.config, new, at_once)
        self._take_now(at_once, now)
        self.pending = merged(self.config, new, later) if later else None
        if (
            self.pending is not None
            and not self.game.moves
            and self.setup is None
            and self.stepping is None
        ):
            self._fresh_game()  # nothing played yet: the game starts again as they say
            self._begin_game(now)

    def _take_now(self, keys: list[tuple[str, str]], now: float) -> None:
        config = self.config
        speech = config.speech
        for key in keys:
            if key == ("engine", "skill"):
                self.engine.set_level(config.engine.skill, now)
                if self.opponent is not None:
                    self.notice = (f"Engine level {self.level}", now + NOTICE_SECONDS)
            elif key == ("speech", "enabled"):
                self.voice.mute(not speech.enabled)
            elif key in (("speech", "rate"), ("speech", "volume")) and self.voice.speaker:
                self.voice.speaker.tune(VoiceSettings(speech.voice, speech.rate, speech.volume))
            elif key == ("leds", "brightness") and isinstance(self.leds, Dims):
                self.leds.set_brightness(config.leds.brightness)

    def _take_pending(self, now: float) -> None:
        """A new game takes the settings saved for it: its variant (on the same
        board), who plays which colour, the clock and the players' names."""
        if self.pending is None:
            return
        new, self.pending = self.pending, None
        other_variant = new.game.variant != self.config.game.variant
        self.config = new
        self._seat_players(now)
        if other_variant:
            self.variant = get_variant(new.game.variant)
            self._fresh_game()

    def _fresh_game(self) -> None:
        """A new game of the variant, on the board as it stands."""
        rec = self.reconciler
        self.reconciler = Reconciler(Game(self.variant), rec.config, self.engine_side, rec.reading)

    def _seat_players(self, now: float) -> None:
        """Who plays, as the configuration says: the engine (started if none
        is at hand) against the human's colour, or two players."""
        config = self.config
        self._engine_for(self._an_engine(now) if config.game.mode == "engine" else None, now)
        teaching = config.game.mode == "teaching"
        # A coach for the teaching mode only (its engine is started on first use).
        self.coach.close()
        self.coach = Coach(self.adviser if teaching else None, offer=config.game.takeback)
        self.engine_side = None
        if self.opponent is not None:
            self.engine_side = BLACK if config.game.human == "white" else WHITE
        self.reconciler.engine_side = self.engine_side
        self.reconciler.config = reconciler_config(config)
        self.presenter = Presenter(self.engine_side)

    def _engine_for(self, opponent: Opponent | None, now: float) -> None:
        """The engine session for ``opponent`` (None: nobody, or a puzzle's own engine)."""
        teaching = self.config.game.mode == "teaching"
        if opponent is not self.opponent or teaching != self.engine.ranked_hints:
            self.engine.close()
            self.opponent = opponent
            self.engine = EngineSession(
                opponent,
                self.adviser,
                self.store,
                self.config.engine.skill,
                now,
                ranked_hints=teaching,
            )

    def _an_engine(self, now: float) -> Opponent | None:
        """The engine to play against: the one at hand, else one started now."""
        if self.spare_engine is None and self.adviser is not None:
            try:
                self.spare_engine = self.own_engine = self.adviser()
            except (BoardctlError, OSError, WorkerError) as exc:
                log.error("the engine cannot start (%s): a game of two players", exc)
                self.notice = ("The engine cannot start: two players", now + NOTICE_SECONDS)
        return self.spare_engine

    def snapshot(self) -> Snapshot:
        """What the spectator page shows now, from the same state as the screen."""
        scene = self.reconciler.scene() if self.setup is None else self.scene()
        engine = EngineShown(
            self.engine.score,
            self.engine_text,
            self.level if self.opponent else None,
            self.engine.rating(self.game.variant.name),
        )
        if self.remote is not None:
            engine = EngineShown("", "", None, None)  # a person plays: no engine to show
        # While a position is set up, the page shows it, as the screen does,
        # with none of the last game's moves.
        shown = self.game if self.setup is None else Game(self.variant, self.setup.target.fen())
        shaped = self.web_shaper.snapshot(
            game_id=self.game_id,
            started_at=self.started_at,
            game=shown,
            names=self._player_names(),
            screen=self.status(scene, screen=False),
            clocks=self.clocks,
            engine=engine,
            scene=scene,
            colours=self.led_colours(0.0, scene),
            engine_move=self.reconciler.engine_move,
            said=self.voice.said,
            reviews=None if self.reviewer is None else self.reviewer.status(),
        )
        return replace(shaped, mode=self.mode)
