"""The spectator page's snapshot, shaped from the values the daemon hands over.

The daemon knows the game, what the screen shows and what the LEDs show;
:class:`Shaper` turns them into a :class:`~boardctl.web.snapshot.Snapshot`:
sides and results spelt as the page reads them, LED rings with their colours,
and the per-ply clocks and scores that the game does not keep.  The screen's
state comes in as a :class:`Screen`, a shape that the screen's own value has,
so the web knows nothing of the screen's code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..board import LedScene, lights
from ..colour import Colour
from ..review.status import ReviewStatus
from ..rules import NO_RESULT, WHITE, Game, Move
from .snapshot import History, Ring, Snapshot, score_value


class Screen(Protocol):
    """What the page mirrors of the screen (:class:`boardctl.ui.state.DisplayState`)."""

    @property
    def fen(self) -> str: ...
    @property
    def orientation(self) -> int: ...
    @property
    def moves(self) -> tuple[str, ...]: ...
    @property
    def first_ply(self) -> int: ...
    @property
    def last_move(self) -> tuple[int, int] | None: ...
    @property
    def check_square(self) -> int | None: ...
    @property
    def prompt(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def engine_move(self) -> tuple[str, int, int] | None: ...
    @property
    def opponent(self) -> str: ...


@dataclass(frozen=True)
class EngineShown:
    """The engine as the screen shows it: its score text ("+0.35", "M3"),
    its status word, its level (None when no engine plays) and the level's
    approximate rating (None when it has none)."""

    score: str
    status: str
    level: int | None
    rating: int | None = None


def side(colour: int) -> str:
    return "white" if colour == WHITE else "black"


class Shaper:
    """Shapes the daemon's snapshots; one per daemon, since it keeps the
    history of each ply (:class:`~boardctl.web.snapshot.History`) and the
    game's moves in coordinate notation (worked out again only when they change)."""

    def __init__(self) -> None:
        self.history = History()
        self._ucis: tuple[tuple[str, tuple[Move, ...]], tuple[str, ...]] = (("", ()), ())

    def move_ucis(self, game: Game) -> tuple[str, ...]:
        key = (game.start_fen, tuple(game.moves))
        if key != self._ucis[0]:
            pos = game.position
            self._ucis = (key, tuple(pos.uci(move) for move in game.moves))
        return self._ucis[1]

    # long: one keyword for each field of the snapshot; split up, no one place
    # would show everything the page is sent.
    def snapshot(
        self,
        *,
        game_id: int,
        started_at: float | None,
        game: Game,
        names: tuple[str, str],
        screen: Screen,
        clocks: Sequence[float] | None,
        engine: EngineShown,
        scene: LedScene,
        colours: Mapping[int, Colour],
        engine_move: Move | None,
        said: tuple[int, str] = (0, ""),
        reviews: tuple[ReviewStatus, ...] | None = None,
    ) -> Snapshot:
        """The page's view of the game now.  ``clocks``: White's and Black's
        seconds left (None: no clocks); ``colours``: what the LEDs show at a
        moment when blinking ones are on (the page blinks them itself, so a
        blink is not a new snapshot); ``said``: the board's last words, numbered;
        ``reviews``: where the board's reviews stand (None: it does none)."""
        pos = game.position
        mover_clock = clocks[pos.turn ^ 1] if clocks is not None else None
        self.history.update(game_id, len(game.moves), mover_clock, score_value(engine.score))
        ending = game.ending()
        running = side(pos.turn) if clocks is not None and game.moves and ending is None else None
        return Snapshot(
            game_id=game_id,
            started_at=started_at,
            variant=game.variant.name,
            start_fen=game.start_fen,
            fen=screen.fen,
            turn=side(pos.turn),
            orientation=side(screen.orientation),
            moves=self.move_ucis(game),
            sans=screen.moves,
            first_ply=screen.first_ply,
            last_move=screen.last_move,
            check=screen.check_square,
            white=names[0],
            black=names[1],
            white_clock=float(int(clocks[0])) if clocks else None,
            black_clock=float(int(clocks[1])) if clocks else None,
            clock_running=running,
            clocks_after=tuple(self.history.clocks),
            score=engine.score if ending is None else "",
            evals=tuple(self.history.evals),
            engine=engine.status,
            level=engine.level,
            rating=engine.rating,
            result=ending.result if ending is not None else NO_RESULT,
            reason=ending.termination.value if ending is not None else "",
            prompt=screen.prompt,
            rings=rings(scene, colours),
            engine_move=(engine_move.from_square, engine_move.to_square)
            if engine_move is not None
            else None,
            engine_san=_engine_san(screen, engine_move),
            opponent=screen.opponent,
            status=screen.status,
            said_seq=said[0],
            said=said[1],
            reviews=reviews,
        )


def _engine_san(screen: Screen, engine_move: Move | None) -> str:
    """The SAN the screen's banner shows for the engine's move to carry out,
    when it is the move the snapshot carries (the screen names it already,
    so the page says it the same way without working it out again)."""
    shown = screen.engine_move
    if engine_move is None or shown is None:
        return ""
    san, frm, to = shown
    return san if (frm, to) == (engine_move.from_square, engine_move.to_square) else ""


def rings(scene: LedScene, colours: Mapping[int, Colour]) -> tuple[Ring, ...]:
    """The scene's lit squares as the page draws them, blinking where the LEDs blink."""
    return tuple(
        Ring(
            sq,
            role.value,
            "#{:02x}{:02x}{:02x}".format(*colours[sq]),
            sq in scene.blink or lights.LIGHTS[role].blink,
        )
        for sq, role in sorted(scene.squares.items())
        if sq in colours
    )
