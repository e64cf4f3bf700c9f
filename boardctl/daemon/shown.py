"""What the LEDs, the screen and the page show, worked out from the activity
and the daemon's parts (the page is shown the same, less what is for the owner)."""

from __future__ import annotations

from dataclasses import replace

from ..board import LedScene, Reconciler, Role, lights
from ..board.setup import instruction
from ..board.setup import scene as setup_scene
from ..board.stepping import Stepping, line
from ..board.stepping import status as stepping_status
from ..config import Config
from ..rules import Game
from ..ui.state import DisplayState
from ..voice.speaker import Announcer
from ..web.shaping import EngineShown, Shaper
from ..web.snapshot import Snapshot
from .activity import (
    Activity,
    RemoteGame,
    SettingUp,
    Solving,
    SteppingThrough,
    engine_side,
    mode,
    names,
    then_of,
)
from .clock import Clocks
from .players import Players
from .presenter import Machine, Presenter
from .record import Record
from .sensing import Sensing


class Shown:
    """See the module docstring: from the parts that last as long as the
    daemon (the sensors, the stored game, the players, the voice); what
    changes is given to each call.  It keeps what is costly to work out
    again (the game's moves in SAN and in coordinates, the stepping's words)."""

    def __init__(
        self, sensing: Sensing, record: Record, players: Players, voice: Announcer
    ) -> None:
        self.sensing, self.record, self.players, self.voice = sensing, record, players, voice
        self.presenter = Presenter(None)
        self.shaper = Shaper()
        # The stepping's banner, for the stepping it was made for: worked out
        # again only when it changes (naming a move walks the legal moves).
        self._stepping_words: tuple[Stepping, str] | None = None

    def scene(self, activity: Activity, board: Reconciler) -> LedScene:
        """What the LEDs show: the set-up's next square, else the reconciler's
        scene, or on a quiet board the hint, else the move the coach offers
        back, in the hint's colours (the piece to lift, the square it goes to
        blinking)."""
        if isinstance(activity, SettingUp):
            return setup_scene(instruction(activity.setup))
        scene = board.scene()
        advice = self.players.engine.hint_move or self.players.coach.takeback
        if advice is not None and not scene.squares:
            scene = scene.with_squares({advice[0]: Role.HINT_FROM, advice[1]: Role.HINT_TO})
        return scene

    def status(
        self,
        activity: Activity,
        board: Reconciler,
        clocks: Clocks,
        notice: str | None,
        welcome: str | None,
        scene: LedScene,
        page: bool = False,
    ) -> DisplayState:
        """What the screen shows now (``page``: what the page and the voice
        may tell everyone: no remote game's player code; the caller leaves
        the first start's PIN out, the ``welcome``)."""
        presenter, engine = self.presenter, self.players.engine
        presenter.engine_side = engine_side(activity)
        machine = self._machine(activity, notice, welcome, page)
        if isinstance(activity, SettingUp):
            return presenter.setup_state(activity.setup, machine, scene, activity.status)
        remark = self.players.coach.remark
        said = remark.text if remark is not None else None
        state = presenter.state(board, engine, clocks.clock, machine, scene, advice=said)
        if isinstance(activity, SteppingThrough):
            stepping = activity.stepping
            words = notice or self._stepping_line(stepping, board)
            return presenter.stepping_state(state, board, scene, words, stepping_status(stepping))
        return state

    def _machine(
        self, activity: Activity, notice: str | None, welcome: str | None, page: bool
    ) -> Machine:
        """What the daemon knows beyond the game."""
        then = then_of(activity)
        seat = then.seat if isinstance(then, RemoteGame) else None
        store = self.record.store
        return Machine(
            notice=notice,
            remote=seat.prompt(page) if seat is not None else None,
            opponent="Engine" if seat is None else "Opponent",
            opponent_status=seat.status() if seat is not None else None,
            welcome=welcome,
            sensors_healthy=self.sensing.healthy,
            sensor_problem=self.sensing.problem,
            saving=store.status(),
            store_problem=store.problem,
            puzzle=then.session.shown() if isinstance(then, Solving) else None,
        )

    def _stepping_line(self, stepping: Stepping, board: Reconciler) -> str:
        if self._stepping_words is None or self._stepping_words[0] is not stepping:
            engine = self.players.engine.opponent is not None
            self._stepping_words = (stepping, line(stepping, board.game.position, engine))
        return self._stepping_words[1]

    def snapshot(
        self,
        config: Config,
        activity: Activity,
        board: Reconciler,
        clocks: Clocks,
        notice: str | None,
    ) -> Snapshot:
        """What the spectator page shows now, from the same state as the
        screen.  While a position is set up, the page shows it, as the
        screen does, with none of the last game's moves; while a person
        plays, no engine is shown."""
        game, engine = board.game, self.players.engine
        scene = self.scene(activity, board)  # the LEDs' own: the hint's and the coach's too
        shown = EngineShown(
            engine.score,
            engine.text,
            engine.level if engine.opponent is not None else None,
            engine.rating(game.variant.name),
        )
        if isinstance(then_of(activity), RemoteGame):
            shown = EngineShown("", "", None, None)
        if isinstance(activity, SettingUp):
            game = Game(game.variant, activity.setup.target.fen())
        reviewer = self.record.reviewer
        shaped = self.shaper.snapshot(
            game_id=self.record.game_id,
            started_at=self.record.started_at,
            game=game,
            names=names(config, activity),
            screen=self.status(activity, board, clocks, notice, None, scene, page=True),
            clocks=clocks.remaining,
            engine=shown,
            scene=scene,
            colours=lights.frame(scene, 0.0),
            engine_move=board.engine_move,
            said=self.voice.said,
            reviews=None if reviewer is None else reviewer.status(),
        )
        return replace(shaped, mode=mode(activity))
