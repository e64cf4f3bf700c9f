"""What the screen shows, worked out from the daemon's parts.

The :class:`Presenter` turns the game, the reconciler's state, the engine
session, the clock and what is wrong with the machine into one
:class:`~boardctl.ui.state.DisplayState`, choosing the one prompt that
matters most: a fix or a choice from the board, the end of the game, a piece
that cannot move, a hint, a short notice (the new level), a store that cannot
save, and above all a sensor board that is not there.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import LedScene, Reconciler, Role
from ..board.guidance import piece_name
from ..board.reconciler import State
from ..board.setup import SetUp, instruction
from ..rules import BLACK, WHITE, Game, Move, Outcome, PieceType, Termination, san
from ..ui.state import DisplayState, PromptKind
from .clock import ChessClock
from .session import EngineSession

MARKED = (Role.FIX_FROM, Role.FIX_TO, Role.CANDIDATE)  # outlined on the screen's board
SETTING_UP = "setting up"  # the panel's status line while a position is set up


@dataclass(frozen=True)
class Machine:
    """What the daemon knows beyond the game: a notice, and what is wrong
    with the sensors and the store."""

    notice: str | None = None  # shown while nothing else is
    # What a remote game asks of the player, and whether it is a fault (the
    # sides disagree, the other is away): before a hint or a notice.
    remote: tuple[str, bool] | None = None
    opponent: str = "Engine"  # what the screen calls the other side
    sensors_healthy: bool = True
    sensor_problem: str | None = None  # in full, for the prompt
    saving: str | None = None  # why moves wait to be saved, in full
    store_problem: str | None = None  # the same in a word or two


class Presenter:
    """See the module docstring.  One per daemon: it keeps the game's SAN."""

    def __init__(self, engine_side: int | None) -> None:
        self.engine_side = engine_side
        self._sans: tuple[tuple[str, tuple[Move, ...]], tuple[str, ...]] = (("", ()), ())

    def moves(self, game: Game) -> tuple[str, ...]:
        """The game's moves in SAN, worked out again only when they change:
        replaying the whole game at every turn of the loop takes longer than
        a turn once the game is long."""
        key = (game.start_fen, tuple(game.moves))
        if key != self._sans[0]:
            self._sans = (key, tuple(game.sans()))
        return self._sans[1]

    def prompt(
        self, rec: Reconciler, engine: EngineSession, clock: ChessClock | None, machine: Machine
    ) -> tuple[str, PromptKind, tuple[PieceType, ...]]:
        """The prompt, its kind and the choices it offers."""
        declared = rec.game.declared
        prompt = rec.prompt
        kind: PromptKind = "info"
        choices: tuple[PieceType, ...] = ()
        if rec.state is State.ERROR:
            kind = "error"
        elif rec.state is State.GAME_OVER or declared is not None:
            kind = "over"
        elif rec.promotion_choices:
            kind = "choice"
            choices = rec.promotion_choices
        if not prompt and declared is not None:
            prompt = _declared_prompt(declared)
        stuck = rec.stuck()
        if not prompt and stuck:
            pos = rec.game.position
            prompt = (
                f"The {piece_name(pos, stuck[0])} on {pos.geometry.name(stuck[0])} "
                "has no legal move: put it back"
            )
        if not prompt and machine.remote is not None:
            prompt = machine.remote[0]
            kind = "error" if machine.remote[1] else kind
        if not prompt and engine.hint:
            prompt = engine.hint
        if not prompt and machine.notice:
            prompt = machine.notice
        if not prompt and machine.saving is not None:
            prompt, kind = machine.saving, "error"  # the status line is too narrow to say it
        lost = _sensors_lost(machine)
        if lost is not None:
            prompt, kind, choices = lost, "error", ()
        return prompt, kind, choices

    def state(
        self,
        rec: Reconciler,
        engine: EngineSession,
        clock: ChessClock | None,
        machine: Machine,
        scene: LedScene,
    ) -> DisplayState:
        """What the screen shows now."""
        game = rec.game
        pos = game.position
        last = (game.moves[-1].from_square, game.moves[-1].to_square) if game.moves else None
        prompt, kind, choices = self.prompt(rec, engine, clock, machine)
        marks = tuple(sq for sq, role in scene.squares.items() if role in MARKED)
        engine_move = None
        if rec.engine_move is not None:
            move = rec.engine_move
            engine_move = san(pos, move), move.from_square, move.to_square
        chosen = None
        if rec.promotion_choices:
            piece = rec.promotion_piece
            chosen = rec.promotion_choices.index(piece) if piece in rec.promotion_choices else 0
        faults = _faults(machine)
        return DisplayState(
            fen=pos.fen(),
            variant=game.variant.name,
            orientation=BLACK if self.engine_side == WHITE else WHITE,
            last_move=last,
            check_square=pos.kings[pos.turn] if pos.is_check() else None,
            moves=self.moves(game),
            engine_status=engine.text,
            engine_depth=engine.depth,
            engine_score=engine.score,
            engine_move=engine_move,
            level=engine.level if engine.opponent is not None else None,
            engine_side=self.engine_side,
            opponent=machine.opponent,
            white_clock=clock.remaining[0] if clock else None,
            black_clock=clock.remaining[1] if clock else None,
            prompt=prompt,
            prompt_kind=kind,
            choices=choices,
            chosen=chosen,
            marks=marks,
            status="; ".join(faults),
            status_alert=bool(faults),
        )

    def setup_state(self, setup: SetUp, machine: Machine, scene: LedScene) -> DisplayState:
        """What the screen shows while the player sets up a position: the
        position, and the one thing to do next in the banner (the voice says it)."""
        step = instruction(setup)
        prompt: str = step.text if step else ""
        kind: PromptKind = "info"
        lost = _sensors_lost(machine)
        if lost is not None:
            prompt, kind = lost, "error"
        faults = _faults(machine)
        return DisplayState.from_fen(
            setup.target.fen(),
            setup.target.variant.name,
            orientation=BLACK if self.engine_side == WHITE else WHITE,
            engine_side=self.engine_side,
            prompt=prompt,
            prompt_kind=kind,
            marks=tuple(sq for sq, role in scene.squares.items() if role in MARKED),
            # The panel's line says why nobody is to move yet.
            status="; ".join(faults) or SETTING_UP,
            status_alert=bool(faults),
            setting_up=True,
        )


def _sensors_lost(machine: Machine) -> str | None:
    """The prompt while the sensor board is not there: nothing on the board
    counts until it is back, so say why, in full (the status line is too
    short for a port name)."""
    if machine.sensor_problem is None or machine.sensors_healthy:
        return None
    return machine.sensor_problem[:1].upper() + machine.sensor_problem[1:]


def _faults(machine: Machine) -> list[str]:
    """The status line's faults, in a word or two each."""
    faults = [] if machine.sensors_healthy else ["board not connected"]
    if machine.store_problem is not None:
        faults.append("not saved")
    return faults


def _declared_prompt(declared: Outcome) -> str:
    """The prompt for a game ended off the board: the board's own prompt
    speaks only of what the position shows."""
    if declared.termination is Termination.TIME_FORFEIT:
        loser, winner = ("Black", "White") if declared.winner == WHITE else ("White", "Black")
        return f"{loser}'s time is up: {winner} wins. Set up the pieces for a new game"
    return f"Game over ({declared.termination.value}): set up the pieces for a new game"
