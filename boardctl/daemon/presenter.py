"""What the screen shows, worked out from the daemon's parts.

The :class:`Presenter` turns the game, the reconciler's state, the engine
session, the clock and what is wrong with the machine into one
:class:`~boardctl.ui.state.DisplayState`, choosing the one prompt that
matters most: a fix or a choice from the board, the end of the game, a piece
that cannot move, a hint, the coach's word on the last move, a short notice
(the new level), a store that cannot save, and above all a sensor board that
is not there.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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
PUZZLE = "puzzle"  # and while a puzzle is played


@dataclass(frozen=True)
class PuzzleShown:
    """A puzzle under way, as the screen shows it: the attempt's banner line
    (the goal, "Solved!", or why a move was not the solution), its kind, and
    whether the engine is judging a move."""

    text: str
    kind: PromptKind
    thinking: bool = False


@dataclass(frozen=True)
class Machine:
    """What the daemon knows beyond the game: a notice, a puzzle under way,
    and what is wrong with the sensors and the store."""

    notice: str | None = None  # shown while nothing else is
    # What a remote game asks of the player, and whether it is a fault (the
    # sides disagree, the other is away): before a hint or a notice.
    remote: tuple[str, bool] | None = None
    opponent: str = "Engine"  # what the screen calls the other side
    # The panel's word for the other side when it is no engine (a remote
    # player: online, away); None: the engine's status.
    opponent_status: str | None = None
    welcome: str | None = None  # the first start: where the settings are (after the notice)
    sensors_healthy: bool = True
    sensor_problem: str | None = None  # in full, for the prompt
    saving: str | None = None  # why moves wait to be saved, in full
    store_problem: str | None = None  # the same in a word or two
    puzzle: PuzzleShown | None = None


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
        self,
        rec: Reconciler,
        engine: EngineSession,
        clock: ChessClock | None,
        machine: Machine,
        advice: str | None = None,
    ) -> tuple[str, PromptKind, tuple[PieceType, ...]]:
        """The prompt, its kind and the choices it offers; ``advice`` is
        what the coach says of the last move."""
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
        puzzle = machine.puzzle
        if puzzle is not None and puzzle.kind != "info" and kind not in ("error", "choice"):
            # Solved, or not the solution: said over the board's own ending.
            prompt, kind = puzzle.text, puzzle.kind
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
        if not prompt and advice and kind == "info":
            prompt, kind = advice, "coach"
        if not prompt and puzzle is not None:
            prompt = puzzle.text  # the goal, with the moves left
        if not prompt and machine.notice:
            prompt = machine.notice
        if not prompt and machine.welcome:
            prompt = machine.welcome
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
        advice: str | None = None,
    ) -> DisplayState:
        """What the screen shows now."""
        game = rec.game
        pos = game.position
        last = (game.moves[-1].from_square, game.moves[-1].to_square) if game.moves else None
        prompt, kind, choices = self.prompt(rec, engine, clock, machine, advice)
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
            engine_status=_engine_status(machine, engine),
            engine_depth=engine.depth,
            engine_score=engine.score,
            engine_move=engine_move,
            level=engine.level if engine.opponent is not None else None,
            rating=engine.rating(game.variant.name),
            engine_side=self.engine_side,
            opponent=machine.opponent,
            white_clock=clock.remaining[0] if clock else None,
            black_clock=clock.remaining[1] if clock else None,
            prompt=prompt,
            prompt_kind=kind,
            choices=choices,
            chosen=chosen,
            marks=marks,
            status="; ".join(faults) or _puzzle_line(machine),
            status_alert=bool(faults),
            awaited=_awaited(machine, self.engine_side),
        )

    def setup_state(
        self, setup: SetUp, machine: Machine, scene: LedScene, status: str = SETTING_UP
    ) -> DisplayState:
        """What the screen shows while the player sets up a position: the
        position, and the one thing to do next in the banner (the voice says
        it); ``status``: why the pieces are set up, for the panel's line
        (a remote game's pieces are taken back, or catch up with the log)."""
        step = instruction(setup)
        prompt: str = step.text if step else ""
        kind: PromptKind = "info"
        lost = _sensors_lost(machine)
        if lost is not None:
            prompt, kind = lost, "error"
        faults = _faults(machine)
        return DisplayState.from_position(
            setup.target,
            orientation=BLACK if self.engine_side == WHITE else WHITE,
            engine_side=self.engine_side,
            opponent=machine.opponent,
            engine_status=machine.opponent_status or "off",
            prompt=prompt,
            prompt_kind=kind,
            marks=tuple(sq for sq, role in scene.squares.items() if role in MARKED),
            # The panel's line says why nobody is to move yet.
            status="; ".join(faults) or status,
            status_alert=bool(faults),
            setting_up=True,
        )

    def stepping_state(
        self, state: DisplayState, rec: Reconciler, scene: LedScene, words: str, status: str
    ) -> DisplayState:
        """``state`` while stepping through a stored game: the banner says
        what the stepping asks (``words``) unless the board is being fixed or
        a capture is being shown how, and the squares it names are outlined;
        no engine plays."""
        own = state.prompt_kind == "error" or (
            bool(rec.prompt) and rec.state in (State.BUSY, State.UNEXPLAINED)
        )
        named = (*MARKED, Role.ENGINE_FROM, Role.ENGINE_TO)
        return replace(
            state,
            prompt=state.prompt if own else words,
            prompt_kind=state.prompt_kind if own else "info",
            marks=tuple(sq for sq, role in scene.squares.items() if role in named),
            engine_move=None,
            engine_status="off",
            engine_score="",
            engine_depth=None,
            level=None,
            status=state.status or status,
        )


def _sensors_lost(machine: Machine) -> str | None:
    """The prompt while the sensor board is not there: nothing on the board
    counts until it is back, so say why, in full (the status line is too
    short for a port name)."""
    if machine.sensor_problem is None or machine.sensors_healthy:
        return None
    return machine.sensor_problem[:1].upper() + machine.sensor_problem[1:]


def _engine_status(machine: Machine, engine: EngineSession) -> str:
    """The panel's word for the other side: a puzzle's engine judging, a
    remote player there or away, else the engine's own."""
    if machine.puzzle is not None and machine.puzzle.thinking:
        return "thinking"
    return machine.opponent_status or engine.text


def _awaited(machine: Machine, engine_side: int | None) -> int | None:
    """The side the board waits for out of turn: after a puzzle's wrong move
    the engine does not play on, the player takes the move back."""
    failed = machine.puzzle is not None and machine.puzzle.kind == "error"
    return engine_side ^ 1 if failed and engine_side is not None else None


def _puzzle_line(machine: Machine) -> str:
    """The status line of a puzzle under way (its id is too long for the
    small screen's panel; the banner says the goal)."""
    return "" if machine.puzzle is None else PUZZLE


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
