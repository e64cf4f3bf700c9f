"""The page's snapshot shaped from the daemon's values, without a daemon."""

from __future__ import annotations

from dataclasses import dataclass

from boardctl.board import EMPTY_SCENE, LedScene, Role
from boardctl.rules import BLACK, WHITE, Game, Outcome, Termination, parse_uci
from boardctl.web.shaping import EngineShown, Shaper


@dataclass(frozen=True)
class Screen:
    fen: str = ""
    orientation: int = WHITE
    moves: tuple[str, ...] = ()
    first_ply: int = 0
    last_move: tuple[int, int] | None = None
    check_square: int | None = None
    prompt: str = ""
    status: str = ""
    engine_move: tuple[str, int, int] | None = None
    opponent: str = "Engine"


ENGINE = EngineShown("+0.35", "ready", 7, 950)


def shaped(
    shaper: Shaper,
    game: Game,
    clocks=(170.6, 180.0),
    scene=EMPTY_SCENE,
    colours=None,
    engine_move=None,
    on_screen=None,
):
    """``engine_move``: the engine's move to carry out; ``on_screen``: the
    screen's (SAN, from, to) of it."""
    return shaper.snapshot(
        game_id=3,
        started_at=1.7e9,
        game=game,
        names=("Player", "boardctl"),
        screen=Screen(fen=game.position.fen(), orientation=BLACK, engine_move=on_screen),
        clocks=clocks,
        engine=ENGINE,
        scene=scene,
        colours=colours or {},
        engine_move=engine_move,
    )


def test_a_game_going_on_runs_the_movers_clock_and_shows_the_score():
    game = Game()
    game.push_text("e2e4")
    snap = shaped(Shaper(), game)
    assert (snap.result, snap.reason, snap.clock_running) == ("*", "", "black")
    assert snap.moves == ("e2e4",) and snap.turn == "black" and snap.orientation == "black"
    assert (snap.white_clock, snap.black_clock, snap.clocks_after) == (170.0, 180.0, (170.6,))
    assert (snap.score, snap.evals, snap.level, snap.rating) == ("+0.35", (None, 0.35), 7, 950)
    assert (snap.white, snap.black, snap.game_id) == ("Player", "boardctl", 3)


def test_the_games_ending_is_the_pages_result_and_stops_its_clock():
    game = Game()
    game.push_text("e2e4")
    game.declare(Outcome(Termination.RESIGNATION, WHITE))
    snap = shaped(Shaper(), game)
    assert (snap.result, snap.reason, snap.clock_running, snap.score) == (
        "1-0",
        "resignation",
        None,
        "",
    )
    # An abandoned game has no result, and no clock runs either.
    game = Game()
    game.push_text("e2e4")
    game.declare(Outcome(Termination.ABANDONED, None))
    snap = shaped(Shaper(), game)
    assert (snap.result, snap.reason, snap.clock_running) == ("*", "abandoned", None)


def test_rings_take_the_leds_colours_and_skip_unlit_squares():
    scene = LedScene({5: Role.LIFTED, 9: Role.CANDIDATE}, blink=frozenset({9}))
    snap = shaped(Shaper(), Game(), clocks=None, scene=scene, colours={9: (255, 16, 0)})
    assert [(r.square, r.role, r.colour, r.blink) for r in snap.rings] == [
        (9, Role.CANDIDATE.value, "#ff1000", True)
    ]
    assert snap.white_clock is None and snap.clock_running is None


def test_the_engines_move_to_carry_out_is_named_as_the_screens_banner_names_it():
    game = Game()
    game.push_text("e2e4")
    move = parse_uci(game.position, "e7e5")
    shown = ("e5", move.from_square, move.to_square)
    snap = shaped(Shaper(), game, engine_move=move, on_screen=shown)
    assert (snap.engine_move, snap.engine_san) == ((move.from_square, move.to_square), "e5")
    # A screen still showing another move names nothing: the page says the squares.
    other = parse_uci(game.position, "d7d5")
    snap = shaped(Shaper(), game, engine_move=other, on_screen=shown)
    assert (snap.engine_move, snap.engine_san) == ((other.from_square, other.to_square), "")
    snap = shaped(Shaper(), game, on_screen=shown)
    assert (snap.engine_move, snap.engine_san) == (None, "")
