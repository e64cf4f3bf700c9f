"""What the board is doing, as one value.

The board plays a game (against the engine, or two players), solves a
puzzle, steps through a stored game, plays a remote game, or guides the
pieces to a position before one of those.  :data:`Activity` is exactly one
of these frozen values; the daemon replaces it as a whole and dispatches on
it with ``match``, as scalachess's ``Game`` is a value a move replaces.  A
puzzle and a remote game are played by a feature with engines or a link of
its own (:class:`~boardctl.daemon.puzzle.PuzzleSession`,
:class:`~boardctl.daemon.remote.RemoteSeat`): the activity names it; what it
keeps is its own.

The rest of the module answers what follows from the activity: who the
opponent is, the reconciler's rules, the players' names, the page's mode;
and the two pure steps of its own: a set-up taking in readings, and a
stepping taking in the buttons.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..board import Event, ReconcilerConfig
from ..board import stepping as steps
from ..board.setup import SetUp, complete, observe
from ..config import Config
from ..rules import Game
from .actions import Action, AskTakeBack, PlayOn, SetOpponentMove, Withdraw
from .players import configured_names
from .puzzle import PuzzleSession
from .remote import SETTING_UP, RemoteSeat
from .view import Phase


@dataclass(frozen=True)
class Playing:
    """A game on the board: against the engine (``engine_side``, the colour
    it plays) or between two players (None)."""

    engine_side: int | None = None


@dataclass(frozen=True)
class Solving:
    """A puzzle: ``session`` judges the moves, and its engine defends."""

    session: PuzzleSession


@dataclass(frozen=True)
class SteppingThrough:
    """A stored game stepped through (nothing is stored); ``engine_side``:
    who plays the engine's side if the player plays on from it."""

    stepping: steps.Stepping
    engine_side: int | None = None


@dataclass(frozen=True)
class RemoteGame:
    """A game against someone elsewhere, whose moves ``seat`` brings."""

    seat: RemoteSeat


Then = Playing | Solving | SteppingThrough | RemoteGame


@dataclass(frozen=True)
class SettingUp:
    """The pieces are guided to ``setup``'s target; ``then`` follows once it
    stands: ``game`` goes on (a remote game), or without one a new game
    begins from the position (a stepping: the stored game's start).
    ``reading``: the last occupancy and when, until it settles; ``status``:
    the panel's word for it."""

    setup: SetUp
    then: Then
    game: Game | None = None
    reading: tuple[int, float] | None = None
    status: str = SETTING_UP


Activity = Playing | Solving | SteppingThrough | RemoteGame | SettingUp


def then_of(activity: Activity) -> Then:
    """What the board does, or will do once the pieces are set up."""
    return activity.then if isinstance(activity, SettingUp) else activity


def with_then(activity: Activity, then: Then) -> Activity:
    """``activity`` with ``then`` to follow (a set-up under way goes on)."""
    return replace(activity, then=then) if isinstance(activity, SettingUp) else then


def engine_side(activity: Activity) -> int | None:
    """The colour the board plays against (None: two players)."""
    match then_of(activity):
        case Playing(engine_side=side) | SteppingThrough(engine_side=side):
            return side
        case Solving(session=session):
            return session.defender
        case RemoteGame(seat=seat):
            return seat.colour ^ 1


def board_side(activity: Activity) -> int | None:
    """The colour whose moves the reconciler is given: none while stepping,
    where every move is given."""
    return None if isinstance(activity, SteppingThrough) else engine_side(activity)


def phase(activity: Activity) -> Phase:
    match activity:
        case SettingUp():
            return Phase.SETTING_UP
        case SteppingThrough():
            return Phase.STEPPING
    return Phase.PLAYING


def mode(activity: Activity) -> str:
    """What the board is doing, as the page is told (Snapshot.mode)."""
    match then_of(activity):
        case Solving():
            return "puzzle"
        case SteppingThrough():
            return "stepping"
    return "setup" if isinstance(activity, SettingUp) else "game"


def reconciler_config(config: Config, activity: Activity) -> ReconcilerConfig:
    """The reconciler's timings and permissions, from the configuration and
    the activity: a puzzle's wrong move may be taken back to try again; a
    stored game's every move is given, and taking one back is how the
    player steps back; a remote game takes a move back only when both sides
    agree (the daemon then guides the pieces back itself), and its fixes
    name who the opponent is."""
    base = ReconcilerConfig(
        settle=config.board.settle_ms / 1000,
        grace=config.board.grace_ms / 1000,
        allow_takeback=config.game.takeback and config.game.mode != "remote",
        teaching=config.game.mode == "teaching",
    )
    match then_of(activity):
        case Solving():
            return replace(base, allow_takeback=True)
        case SteppingThrough():
            return replace(base, allow_takeback=True, teaching=False, stepping=True)
        case RemoteGame(seat=seat):
            return replace(base, allow_takeback=False, opponent=seat.who)
    return base


def names(config: Config, activity: Activity) -> tuple[str, str]:
    """(White, Black), for the store and the page."""
    then = then_of(activity)
    if isinstance(then, RemoteGame):
        return then.seat.names()
    return configured_names(config, engine_side(then))


def settled(activity: SettingUp, now: float, settle: float) -> Activity:
    """The set-up after its last reading, once that has settled (a piece slid
    across the board must not make the words flicker): what follows it,
    once it is complete."""
    if activity.reading is None:
        return activity
    occupancy, since = activity.reading
    if now - since < settle:
        return activity
    setup = observe(activity.setup, occupancy)
    return activity.then if complete(setup) else replace(activity, setup=setup, reading=None)


def pressed(activity: SteppingThrough, button: str) -> tuple[SteppingThrough, list[Action]]:
    """A button while stepping: the stepping after it, and what the board is asked."""
    stepping, asked = steps.pressed(activity.stepping, button)
    activity = replace(activity, stepping=stepping)
    match asked:
        case steps.Offer(move=move):
            return activity, [SetOpponentMove(move)]
        case steps.Ask.TAKE_BACK:
            return activity, [AskTakeBack()]
        case steps.Ask.WITHDRAW:
            return activity, [Withdraw()]
        case steps.Ask.PLAY_ON:
            return activity, [PlayOn()]
    return activity, []


def followed(activity: SteppingThrough, event: Event) -> SteppingThrough:
    """The stepping after the reconciler's ``event``: a stored game stepped
    through changes on the board only."""
    return replace(activity, stepping=steps.followed(activity.stepping, event))
