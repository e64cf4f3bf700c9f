"""The board daemon: one loop, the hub the features plug into.

:meth:`Daemon.step` is one turn of the loop and never blocks.  It reads the
sensors and hands the reading to the reconciler (or, while the pieces are
guided to a position, to the set-up), has the reconciler's events stored
(:mod:`.tabletop`), hands the turn to each feature in play (the engine
session, a puzzle, the remote seat, the coach, the page: :mod:`.view`),
carries out the actions they answer with (:mod:`.actions`), and sends the
LED frame and the display state.  What the board is doing is one value,
:attr:`Daemon.activity` (:mod:`.activity`).

:meth:`Daemon.run` calls it at ``LOOP_HZ`` with the real clock; ``boardctl
sim --headless`` and the tests call it with a virtual one.  That clock only
times things (the settle time, the clocks, the engine); what the store keeps
is the wall-clock time, ``wall_clock()``, read when the move is made.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace

from ..board import Event, LedScene, Reconciler, lights
from ..board.stepping import BACK_BUTTON, FORWARD_BUTTON, PLAY_ON_BUTTON, Stepping
from ..config import Config
from ..hw import Colour
from ..hw.base import Dims, Wakes
from ..rules import Game, IllegalMoveError, Move, PieceType, Position, get_variant
from ..settings import Abilities, taken
from ..storage.backlog import Store
from ..ui.state import DisplayState
from ..voice.speaker import Announcer
from ..web.snapshot import Snapshot, WebAction
from . import actions as do
from . import activity as act
from .activity import Activity, Playing, RemoteGame, SettingUp, Solving, SteppingThrough
from .buttons import pressed
from .page import Page, page_actions
from .parts import NOTHING_LENT, PLAIN_START, Hardware, Services, Start
from .players import Players, engine_colour
from .puzzle import PuzzleSession
from .record import Record
from .remote import RemoteSeat
from .retune import take_now
from .sensing import Sensing
from .session import EngineSession
from .shown import Shown
from .tabletop import Tabletop
from .view import Feature, View

log = logging.getLogger("boardctl")

LOOP_HZ = 50
NOTICE_SECONDS = 3.0  # how long a notice (the new level) stays on the screen
EVENTS_KEPT = 1000  # events the daemon remembers (see Daemon.events)
STEPPING_BUTTONS = (FORWARD_BUTTON, BACK_BUTTON, PLAY_ON_BUTTON)


class Daemon:
    """See the module docstring.  ``store`` must already be open; the daemon
    resumes the unfinished game ``start`` gives, if any."""

    def __init__(
        self,
        config: Config,
        hardware: Hardware,
        store: Store,
        services: Services = NOTHING_LENT,
        start: Start = PLAIN_START,
        *,
        now: float = 0.0,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.hw = hardware
        self.now = self.watchdog_due = now
        self.notice: tuple[str, float] | None = None  # a short message and until when
        self.sensing = Sensing(hardware.sensors, hardware.recorder, now)
        record = Record(store, wall_clock, services.reviewer)
        opponent = services.opponent if config.game.mode == "engine" else None
        players = Players(config, opponent, services.adviser, record.store, now)
        activity: Activity = Playing(engine_colour(config) if opponent else None)
        if config.game.mode == "remote" and services.remote is not None:
            confirm = config.remote.confirm_ms / 1000
            activity = RemoteGame(RemoteSeat(services.remote, engine_colour(config) ^ 1, confirm))
        game = first_game(config, activity, record, start)
        self.top = Tabletop(config, activity, game, record, players, self._say, now)
        # What happened lately, for tests and logs: the last EVENTS_KEPT, so
        # that a board that plays for days does not grow; event_count counts all.
        self.events: deque[Event] = deque(maxlen=EVENTS_KEPT)
        self.event_count = 0
        self.stopping = False
        self.restart = False  # the page asked for the program to start again (.restart)
        # Words for what changes, said by the speaker (if any) and shown to
        # the page, whose own speech may be on while the board's is not.
        self.voice = Announcer(services.speaker, config.speech.squares)
        self.shown = Shown(self.sensing, record, players, self.voice)
        reviews = services.reviewer is not None
        self.page = Page(services.web, reviews, now) if services.web is not None else None
        self.welcome = start.welcome  # where the settings page is, until they are saved
        first = start.puzzle or start.replay or start.setup  # as the page's would be
        if first is not None:
            self.guide(first, now)

    # ------------------------------------------------------ what it holds
    @property
    def activity(self) -> Activity:
        return self.top.activity

    @property
    def reconciler(self) -> Reconciler:
        return self.top.reconciler

    @property
    def game(self) -> Game:
        return self.top.reconciler.game

    @property
    def game_id(self) -> int:
        return self.top.record.game_id

    @property
    def engine_side(self) -> int | None:
        """The colour the board plays against (None: two players)."""
        return act.engine_side(self.top.activity)

    @property
    def engine(self) -> EngineSession:
        """The engine session: the opponent, the hints, the level."""
        return self.top.players.engine

    @property
    def clocks(self) -> list[float] | None:
        """White's and Black's remaining seconds, or None for no clock."""
        return self.top.clocks.remaining

    @property
    def flagged(self) -> int | None:
        """The side whose time ran out, if it did."""
        return self.top.clocks.flagged

    @property
    def mode(self) -> str:
        """What the board is doing, as the page is told (Snapshot.mode)."""
        return act.mode(self.top.activity)

    # --------------------------------------------------------------- loop
    def step(self, now: float) -> list[Event]:
        """One turn of the loop (never blocks)."""
        previous, self.now = self.now, now
        top = self.top
        reading = self.sensing.read(now, previous, self.game.position.geometry)
        board_now = self.sensing.board_time(now)  # the time the sensors were behind left out
        events: list[Event] = []
        if reading is not None and isinstance(top.activity, SettingUp):
            top.activity = replace(top.activity, reading=(reading.occupancy, reading.time))
        elif reading is not None:
            events += top.reconciler.feed(reading.occupancy, reading.time)
        events += top.set_up(board_now)
        if self.hw.buttons is not None:
            for press in self.hw.buttons.presses(now):
                events += self._button(press.button, now)
        if self.voice.speaking:
            self._hold(now, board_now)
        events += top.reconciler.tick(board_now)
        self._handle(events, now)
        top.record.store.retry(now)
        top.tick_clock(now)
        for feature in self._features():
            self._carry_out(feature.step(now, self.view()), now)
        reviewer = top.record.reviewer
        reviewed = reviewer is not None and reviewer.step()
        self._outputs(now)
        if self.page is not None:
            self._carry_out(self.page.step(now, self.view()), now)
            self.page.publish(now, bool(events) or reviewed, self.snapshot)
        notifier = self.hw.notifier
        if notifier is not None and now >= self.watchdog_due:
            # From the loop itself, so a hung loop really trips systemd's watchdog.
            notifier.watchdog()
            interval = notifier.watchdog_interval()
            self.watchdog_due = now + (interval / 2 if interval else 10.0)
        return events

    def _hold(self, now: float, board_now: float) -> None:
        """The voice is still speaking: every wait that words belong to
        starts when they end, not when they began (a promotion's choice,
        the start position kept for a new game, the pause after a takeback,
        a notice on the screen), so that the board never decides, nor says
        the next thing, while a player is still hearing what to do."""
        self.top.reconciler.hold(board_now)
        self.top.players.engine.hold(now)
        if self.notice is not None and now < self.notice[1]:
            self.notice = (self.notice[0], max(self.notice[1], now + NOTICE_SECONDS))

    def _features(self) -> list[Feature]:
        """The features in play, in the order they step."""
        players = self.top.players
        match self.top.activity:
            case Solving(session=session):
                return [session, players.engine, players.coach]
            case RemoteGame(seat=seat) | SettingUp(then=RemoteGame(seat=seat)):
                return [players.engine, seat]
        return [players.engine, players.coach]

    def view(self) -> View:
        """What the features see of the daemon now."""
        top = self.top
        activity = top.activity
        return View(
            top.game,
            top.record.game_id,
            top.reconciler,
            act.phase(activity),
            act.mode(activity),
            act.engine_side(activity),
            isinstance(act.then_of(activity), RemoteGame),
            top.clocks.limits(top.config.engine.movetime),
            top.config,
        )

    def _handle(self, events: list[Event], now: float) -> None:
        for event in events:
            self.top.handle(event, now)
        self.events += events
        self.event_count += len(events)

    def guide(self, start: PuzzleSession | Stepping | Position, now: float) -> None:
        """Guide the player from the pieces as they stand to ``start`` (see
        :meth:`.Tabletop.guide`).

        :raises ValueError: for a puzzle or game of another preset than the board's.
        """
        self.top.guide(start, now)

    def choose(self, piece: PieceType, now: float) -> list[Event]:
        """The player's promotion choice from the display or the simulator."""
        events = self.top.reconciler.choose(piece, self.sensing.board_time(now))
        self._handle(events, now)
        if isinstance(self.activity, Solving):
            self._carry_out(self.activity.session.step(now, self.view()), now)
        return events

    def wait_for_engine(self, timeout: float) -> None:
        """Block until the engine answers the current request, or the
        puzzle's engine its question (headless runs)."""
        engine = self.top.players.engine
        self._carry_out(engine.wait(timeout, self.now, self.game), self.now)
        if isinstance(self.activity, Solving):
            self.activity.session.wait(timeout)

    # ------------------------------------------------------------ actions
    def _carry_out(self, actions: list[do.Action], now: float) -> list[Event]:
        """Do what the features asked, in order; returns the board's events
        (a promotion chosen).  What changes the game is the tabletop's."""
        events: list[Event] = []
        rec, engine = self.top.reconciler, self.top.players.engine
        for action in actions:
            match action:
                case do.SetOpponentMove(move=move):
                    self._offer(move)
                case do.AskTakeBack():
                    rec.ask_takeback()
                case do.Withdraw():
                    rec.withdraw()
                case do.Seal():
                    rec.seal()
                case do.Highlight(piece=piece):
                    rec.highlight(piece)
                case do.Choose(piece=piece):
                    events += rec.choose(piece, self.sensing.board_time(now))
                case do.Notice(text=text):
                    self._say(text)
                case do.ShowHint(move=move):
                    engine.show_hint(self.game.position, move)
                case do.RequestHint():
                    self.request_hint()
                case do.ChangeLevel(step=step):
                    self.change_level(step, now)
                case do.SetLevel(level=level):
                    self.change_level(level - engine.level, now)
                case do.Question(name=name):
                    self.ask(name)
                case do.Mute():
                    self.voice.mute(not self.voice.muted)
                case do.Offer(kind=kind) if isinstance(
                    then := act.then_of(self.activity), RemoteGame
                ):
                    self._say(then.seat.ask(kind))
                case do.Review(game_id=game_id) if self.top.record.reviewer is not None:
                    self.top.record.reviewer.request(game_id)
                case do.SaveSettings(config=config):
                    self.settings_saved(config, now)
                case do.Restart():
                    # Ends the loop as SIGTERM does; the game is resumed at the next start.
                    self.restart = self.stopping = True
                case _:
                    self.top.carry_out(action, now)
        return events

    def _offer(self, move: Move) -> None:
        """The other side's move, lit for the hand to carry out."""
        try:
            self.top.reconciler.set_engine_move(move)
        except IllegalMoveError as exc:
            log.error("the opponent's move refused: %s", exc)

    def web_action(self, action: WebAction, now: float) -> None:
        """An action from the web page (see :mod:`.page`)."""
        reviews = self.top.record.reviewer is not None
        self._carry_out(page_actions(action, self.view(), reviews), now)

    def _say(self, text: str) -> None:
        """Show ``text`` for a few seconds."""
        self.notice = (text, self.now + NOTICE_SECONDS)

    # ------------------------------------------------------------ buttons
    def _button(self, name: str, now: float) -> list[Event]:
        rec = self.reconciler
        choices = rec.promotion_choices
        match self.activity:
            case RemoteGame(seat=seat) | SettingUp(then=RemoteGame(seat=seat)) if (
                not choices and seat.button(name)
            ):
                return []  # the other side's question answered
            case SteppingThrough() as stepping if name in STEPPING_BUTTONS:
                self.top.activity, asked = act.pressed(stepping, name)
                return self._carry_out(asked, now)
            case SettingUp(then=SteppingThrough()) if name in STEPPING_BUTTONS:
                return []
        speaking = self.voice.speaker is not None
        return self._carry_out(pressed(name, choices, rec.promotion_piece, speaking), now)

    def ask(self, question: str) -> str:
        """A player's question, answered aloud (see
        :data:`~boardctl.voice.speaker.QUESTIONS`); "ok" with nothing to
        choose: where a lifted piece may go, else what the screen says and
        whose turn it is."""
        lifted = self.reconciler.lifted
        if question == "ok":
            question = "moves" if lifted is not None else "repeat"
        return self.voice.answer(question, self.status(), lifted)

    def change_level(self, step: int, now: float) -> None:
        """Raise or lower the engine's level (the next/prev buttons)."""
        if isinstance(act.then_of(self.activity), RemoteGame):
            self._say("No engine plays in a remote game")
            return
        self._say(self.top.players.engine.change_level(step, now, self.game.variant.name))

    def request_hint(self) -> None:
        """The hint button: the side to move's best move, unless the engine is
        to move; in a puzzle, the next move of its solution; none while a game
        is set up, stepped through, or played against a person elsewhere."""
        view = self.view()
        if self.game.ending() is not None or view.engine_to_move or view.remote:
            return
        match self.activity:
            case Solving(session=session):
                self._carry_out(session.request_hint(self.game), self.now)
            case Playing():
                self.top.players.engine.request_hint(self.game)

    # ------------------------------------------------------------ outputs
    def led_colours(self, now: float, scene: LedScene | None = None) -> dict[int, Colour]:
        return lights.frame(self.scene() if scene is None else scene, now)

    def scene(self) -> LedScene:
        """What the LEDs show (see :meth:`.Shown.scene`)."""
        return self.shown.scene(self.activity, self.reconciler)

    def status(self, scene: LedScene | None = None, *, screen: bool = True) -> DisplayState:
        """What the screen shows now; ``screen=False``: what the page and the
        voice may tell everyone, without the first start's PIN and a remote
        game's player code, which are for the owner at the board."""
        scene = self.scene() if scene is None else scene
        welcome = self.welcome if screen else None
        notice = self._notice()
        top = self.top
        return self.shown.status(
            top.activity, top.reconciler, top.clocks, notice, welcome, scene, not screen
        )

    def snapshot(self) -> Snapshot:
        """What the spectator page shows now, from the same state as the screen."""
        top = self.top
        return self.shown.snapshot(
            top.config, top.activity, top.reconciler, top.clocks, self._notice()
        )

    def _notice(self) -> str | None:
        return self.notice[0] if self.notice is not None and self.now < self.notice[1] else None

    def _outputs(self, now: float) -> None:
        heard = self.voice.speaker is not None or self.page is not None
        leds, display = self.hw.leds, self.hw.display
        if leds is None and display is None and not heard:
            return
        scene = self.scene()  # once for all: it walks the lifted pieces' moves
        if leds is not None:
            leds.show(self.led_colours(now, scene))
        if display is None and not heard:
            return
        state = self.status(scene)
        if display is not None:
            display.show(state)
        if heard:
            # What is said reaches the page too: the first start's PIN and a
            # remote game's player code are for the screen only.
            then = act.then_of(self.activity)
            code = isinstance(then, RemoteGame) and then.seat.code_shown
            self.voice.heard(self.status(scene, screen=False) if self.welcome or code else state)
            self.voice.step()  # a long answer's next part, once the last is said

    # --------------------------------------------------------------- run
    def run(self, clock: Callable[[], float], sleep: Callable[[float], None]) -> None:
        """Loop until :attr:`stopping` is set (by a signal handler, or the
        page's restart): a step every period, and at once when a source that
        :class:`Wakes` has a reading (the serial board: its bytes end the wait)."""
        period = 1.0 / LOOP_HZ
        sensors = self.hw.sensors
        wait = sensors.wait if isinstance(sensors, Wakes) else sleep
        while not self.stopping:
            started = clock()
            self.step(started)
            spent = clock() - started
            if spent < period:
                wait(period - spent)

    def close(self) -> None:
        """Stop the engines the daemon started (for hints, the coach, a
        puzzle, or to play when the settings turned one on; the opponent it
        was given is its caller's); try the store's waiting writes once
        more, and log any that are lost."""
        self.top.record.close()
        self.top.players.close()
        if isinstance(then := act.then_of(self.activity), Solving):
            then.session.close()

    # ----------------------------------------------------------- settings
    def abilities(self) -> Abilities:
        """What this board changes while it runs (see boardctl.settings.when_taken)."""
        return Abilities(voice=self.voice.speaker is not None, dims=isinstance(self.hw.leds, Dims))

    def settings_saved(self, new: Config, now: float) -> None:
        """The settings page saved ``new`` to the file: each change is taken
        now, with the next game (at once while no move has been made) or at
        the next start, as :func:`boardctl.settings.when_taken` says, which
        is what the page said."""
        self.welcome = None  # the owner has found the page
        top = self.top
        split = taken(top.config, new, self.abilities())
        top.config, top.pending = split.now, split.next_game
        engine = top.players.engine
        notice = take_now(split.keys, top.config, engine, self.voice, self.hw.leds, now)
        if notice is not None:
            self._say(notice)
        if top.pending is not None and not self.game.moves and top.playing:
            top.fresh_game()  # nothing played yet: the game starts again as they say
            top.begin_game(now)


def first_game(config: Config, activity: Activity, record: Record, start: Start) -> Game:
    """The game the board starts with: the one resumed, else a new one,
    stored unless a remote game is to be bound (its seat stores it).  While
    stepping, nothing is stored and no game is started: the game resumed, if
    any, tells only how the board stands."""
    variant = get_variant(config.game.variant)
    if start.replay is not None:
        record.resume(start.replay.game_id, start.started_at)
        return start.resume[1] if start.resume is not None else Game(variant)
    if start.resume is not None:
        record.resume(start.resume[0], start.started_at)
        return start.resume[1]
    game = Game(variant)
    if not isinstance(activity, RemoteGame):
        record.begin(game, act.names(config, activity), config.game.mode)
    return game
