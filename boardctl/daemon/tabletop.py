"""The game on the board, and what the board is doing with it.

:class:`Tabletop` holds what changes as the game is played: the activity
(:mod:`.activity`), the reconciler and its game, the stored game
(:mod:`.record`), the clocks and who is seated (:mod:`.players`); its
methods are every change of them: a set-up completed, a start guided, the
reconciler's events (each committed move stored *before* the display and
LEDs confirm it), a game begun or ended, and the actions of the features
that change the game (:mod:`.actions`).  It knows no hardware, no screen and
no page: :class:`~boardctl.daemon.loop.Daemon` drives it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..board import Event, GameOver, MoveAmended, MoveMade, MoveTakenBack, NewGame, Reconciler
from ..board.setup import begin, retarget
from ..board.stepping import Stepping, game_at, played
from ..config import Config
from ..puzzles import Puzzle
from ..rules import Game, Outcome, Position, Termination, get_variant
from . import actions as do
from . import activity as act
from .activity import Activity, Playing, RemoteGame, SettingUp, Solving, SteppingThrough
from .clock import Clocks
from .players import Players
from .puzzle import PuzzleSession
from .record import Record
from .remote import SETTING_UP
from .view import Phase

log = logging.getLogger("boardctl")

TAKEBACK_PAUSE = 3.0  # after a takeback, wait for the board to settle before the engine moves
ABANDONED = Outcome(Termination.ABANDONED, None)


class Tabletop:
    """See the module docstring.  ``game``: the game the board starts with;
    ``say``: shows a notice on the screen (a new game played on, an engine
    that cannot start)."""

    def __init__(
        self,
        config: Config,
        activity: Activity,
        game: Game,
        record: Record,
        players: Players,
        say: Callable[[str], None],
        now: float,
    ) -> None:
        self.config = config
        self.pending: Config | None = None  # the settings saved for the next game
        self.variant = get_variant(config.game.variant)
        self.activity = activity
        rules = act.reconciler_config(config, activity)
        self.reconciler = Reconciler(game, rules, act.board_side(activity))
        self.record = record
        self.players = players
        self.clocks = Clocks(config.clock_seconds, config.clock_delay, now)
        self.say = say

    @property
    def game(self) -> Game:
        return self.reconciler.game

    @property
    def playing(self) -> bool:
        """Is a game played (no set-up, no stepping)?"""
        return act.phase(self.activity) is Phase.PLAYING

    def become(self, activity: Activity) -> None:
        """The board does ``activity`` from now on: the reconciler is told
        who plays and by which rules."""
        self.activity = activity
        self.reconciler.engine_side = act.board_side(activity)
        self.reconciler.config = act.reconciler_config(self.config, activity)

    def set_up(self, now: float) -> list[Event]:
        """While the pieces are set up: once they stand as the target has
        them, what follows begins.  A game kept goes on (a remote game), a
        stepping begins at the stored game's start, else a new game begins
        from the position (stored as a new game, like one from the start)."""
        setting_up = self.activity
        if not isinstance(setting_up, SettingUp):
            return []
        self.activity = act.settled(setting_up, now, self.reconciler.config.settle)
        if isinstance(self.activity, SettingUp):
            return []
        game = setting_up.game or Game(self.variant, setting_up.setup.target.fen())
        if isinstance(self.activity, SteppingThrough):
            game = game_at(self.activity.stepping)
        rules = act.reconciler_config(self.config, self.activity)
        self.reconciler = Reconciler(game, rules, act.board_side(self.activity))
        new = setting_up.game is None and not isinstance(self.activity, SteppingThrough)
        return [NewGame()] if new else []

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
        then = act.then_of(self.activity)
        if isinstance(start, PuzzleSession):
            if start.puzzle.variant != self.variant.name:
                raise ValueError(f"puzzle {start.puzzle.id} is played in {start.puzzle.variant}")
            self.players.engine_for(None, self.config, now)  # its own engine defends
            then, target = Solving(start), start.puzzle.position()
        elif isinstance(start, Stepping):
            if start.variant.name != self.variant.name:
                raise ValueError(f"game {start.game_id} is played in {start.variant.name}")
            self.record.resume(start.game_id, self.record.started_at)
            side = act.engine_side(self.activity)
            then, target = SteppingThrough(start, side), game_at(start, 0).position
        else:
            target = start
        if isinstance(self.activity, SettingUp):  # half set up: what stands trusted stays so
            setup = retarget(self.activity.setup, target)
        else:  # the board is taken to stand as the game left it, as when a game is resumed
            setup = begin(target, self.reconciler.reading, self.game.position)
        self.become(SettingUp(setup, then))

    def _end_guided(self, now: float) -> None:
        """A puzzle or a stepping under way ends: the players are seated as
        configured; after stepping, no stored game is on the board (the one
        stepped through stays as it was stored)."""
        match act.then_of(self.activity):
            case Solving(session=session):
                session.close()
            case SteppingThrough():
                self.record.drop()
            case _:
                return
        self._seat_players(now)

    def _guide_to(self, game: Game, status: str, now: float) -> None:
        """Play ``game`` from now on, once the pieces stand as it has them:
        until then the readings are the set-up's, and the reconciler takes
        the board to stand as the game has it, and judges nothing."""
        old, reading = self.game.position, self.reconciler.reading
        self.players.engine.cancel()
        self.players.engine.wake(now)  # the other side's move, if theirs, is asked for anew
        then = act.then_of(self.activity)
        rules = act.reconciler_config(self.config, then)
        self.reconciler = Reconciler(game, rules, act.board_side(then))
        setup = begin(game.position.copy(), reading, old)
        self.activity = SettingUp(setup, then, game, status=status)

    def _play_on(self, now: float) -> None:
        """Play on from the move the stepping has reached: a new stored game,
        from the stored game's start with its moves so far (so that its PGN
        reads on from them), against the engine or two players as configured
        (the settings saved for the next game taken first).  The game
        stepped through is left as it was stored."""
        if not isinstance(stepped := self.activity, SteppingThrough):
            return
        self.become(Playing(stepped.engine_side))
        self._take_pending(now)
        game, reading = game_at(stepped.stepping), self.reconciler.reading
        rules = act.reconciler_config(self.config, self.activity)
        self.reconciler = Reconciler(game, rules, act.board_side(self.activity), reading)
        names = act.names(self.config, self.activity)
        self.record.begin(game, names, self.config.game.mode, played(stepped.stepping))
        was = stepped.stepping.game_id
        log.info("game %d: played on from game %d", self.record.game_id, was)
        where = f"move {game.position.fullmove_number}" if game.moves else "the start"
        self.say(f"A new game, from {where} of game {was}")
        self.players.engine.new_game(now)
        self.clocks = Clocks(self.config.clock_seconds, self.config.clock_delay, now)

    # ------------------------------------------------------------ events
    def handle(self, event: Event, now: float) -> None:
        """One of the reconciler's events."""
        log.info("%s", event.line())
        engine = self.players.engine
        engine.new_position()
        if isinstance(self.activity, SteppingThrough):
            self.activity = act.followed(self.activity, event)  # it changes on the board only
            return
        if isinstance(event, MoveMade | MoveAmended | MoveTakenBack) and self.game.declared:
            # Ended on time or from the web page: the store keeps the game as it
            # ended (it refuses more moves); the board may be played on until the
            # pieces are set up for a new game.  An ending the position shows is
            # not so final: taking back the mating move is stored like any other.
            log.info("the game is over: %s not stored", event.line())
            return
        match event:
            case MoveMade():
                self._moved(event.uci, now)  # stored before anything shows it (crash safety)
            case MoveAmended():
                self.record.amend(event.new_uci)
                engine.cancel()
                engine.wake(now)
            case MoveTakenBack():
                self.record.take_back()
                engine.cancel()
                engine.pause(now, TAKEBACK_PAUSE)
            case NewGame():
                self.begin_game(now)
            case GameOver():
                self._finish(event.outcome)
                engine.cancel()

    def _moved(self, uci: str, now: float) -> None:
        """A move is made: its mover's clock is pressed and it is stored with
        the time they have left (a remote game's clocks are its link's, and
        its seat stores the times its log has)."""
        mover, ply = self.game.position.turn ^ 1, len(self.game.moves)
        fell, left = False, None
        if not isinstance(act.then_of(self.activity), RemoteGame):
            fell, left = self.clocks.press(mover, ply == 1, now), self.clocks.left(mover)
        self.record.add(ply, uci, left)
        if fell:
            self._flag_fell()
        self.players.engine.wake(now)

    def begin_game(self, now: float) -> None:
        """A new game on the board: the old one ends (the store keeps the first
        ending: one the old game had stands), the settings saved for the next
        game are taken, and the new game is stored with its players.  The
        start position set up after a puzzle ends it: two players play on.
        A remote game is stored by its seat: a game set up after it ended is
        not stored, and one set up while it goes on is guided back."""
        match self.activity:
            case Solving(session=session) if not session.new_game(self.game):
                session.close()
                self.become(Playing(None))
            case RemoteGame(seat=seat):
                if seat.over:
                    self.record.drop()
                return
        self._finish(ABANDONED)
        self._take_pending(now)
        self.record.begin(self.game, act.names(self.config, self.activity), self.config.game.mode)
        self.players.engine.new_game(now)
        self.clocks = Clocks(self.config.clock_seconds, self.config.clock_delay, now)

    def _finish(self, outcome: Outcome) -> None:
        self.record.finish(outcome, self.game, self.config.review.at_end)

    def declare(self, outcome: Outcome) -> None:
        """The game ends off the board: the game, and so the screen, the page and
        the engine, know it; the store keeps it."""
        self.game.declare(outcome)
        self._finish(outcome)
        self.players.engine.cancel()

    def _flag_fell(self) -> None:
        """Time is up: the game is lost on time (the board may still be played
        on, but nothing is stored or asked of the engine until a new game)."""
        flagged = self.clocks.flagged
        assert flagged is not None
        self.declare(Outcome(Termination.TIME_FORFEIT, flagged ^ 1))

    def tick_clock(self, now: float) -> None:
        """Charge the side to move while a game is played (a remote game's
        clocks are its link's: its seat shows them)."""
        if isinstance(act.then_of(self.activity), RemoteGame):
            return
        game = self.game
        running = bool(game.moves) and game.ending() is None and self.playing
        if self.clocks.run(game.position.turn, running, now):
            self._flag_fell()

    # ------------------------------------------------------------ actions
    def carry_out(self, action: do.Action, now: float) -> None:
        """A feature's action that changes the game, the store or the seats."""
        match action:
            case do.Declare(outcome=outcome):
                self.declare(outcome)
            case do.PlayOn():
                self._play_on(now)
            case do.Begin(start=start):
                self._end_guided(now)
                self._finish(ABANDONED)
                self.guide(PuzzleSession(start) if isinstance(start, Puzzle) else start, now)
            case do.StartRemote(game=game, clocks=clocks):
                self._finish(ABANDONED)  # the game the board had
                self.players.engine.new_game(now)
                moves = [game.position.uci(move) for move in game.moves]
                names = act.names(self.config, self.activity)
                self.record.begin(game, names, "remote", moves, clocks)
                self._guide_to(game, SETTING_UP, now)
            case do.StoreLine(line=line, clocks=clocks):
                have = [self.game.position.uci(move) for move in self.game.moves]
                self.record.rewrite(have, line, clocks)
            case do.KeepClocks(first=first, clocks=clocks):
                self.record.keep_clocks(first, clocks)
            case do.Guide(game=game, status=status):
                self._guide_to(game, status, now)
            case do.Rename():
                self.record.rename(act.names(self.config, self.activity))
                self.become(self.activity)  # the fixes name the other player
            case do.Reseat():
                self.become(self.activity)
            case do.ShowClocks(clocks=clocks):
                self.clocks.show(clocks, now)

    # ----------------------------------------------------------- settings
    def _take_pending(self, now: float) -> None:
        """A new game takes the settings saved for it: its variant (on the same
        board), who plays which colour, the clock and the players' names."""
        if self.pending is None:
            return
        new, self.pending = self.pending, None
        other_variant = new.game.variant != self.config.game.variant
        self.config = new
        if not isinstance(act.then_of(self.activity), Solving):  # a puzzle keeps its seats
            self._seat_players(now)
        if other_variant:
            self.variant = get_variant(new.game.variant)
            self.fresh_game()

    def fresh_game(self) -> None:
        """A new game of the variant, on the board as it stands."""
        rec = self.reconciler
        self.reconciler = Reconciler(Game(self.variant), rec.config, rec.engine_side, rec.reading)

    def _seat_players(self, now: float) -> None:
        """Who plays, as the configuration says (a remote game's seat stays)."""
        if isinstance(act.then_of(self.activity), RemoteGame):
            return
        side = self.players.seat(self.config, now, self.say)
        self.become(act.with_then(self.activity, Playing(side)))
