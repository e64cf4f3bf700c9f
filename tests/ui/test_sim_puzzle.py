"""A puzzle in the simulator, as ``boardctl sim --puzzle`` plays it: set up
as guided, then solved (or not) against the engine's defence, with the goal,
the verdict and the hint in the banner, the voice and the lights."""

from __future__ import annotations

from contextlib import ExitStack

import pygame
import pytest

from boardctl.board.lights import LIGHTS
from boardctl.board.scene import Role
from boardctl.config import parse_config, with_game
from boardctl.daemon import wiring as app
from boardctl.daemon.activity import SettingUp, Solving, then_of
from boardctl.puzzles import find
from boardctl.rules import BLACK, WHITE, Position
from boardctl.ui.display import player_label, to_move
from boardctl.ui.state import banner_line
from boardctl.voice.speaker import Recorder
from tests.ui.test_sim_window import Rig, follow_the_set_up


@pytest.fixture
def solving():
    """Makes a simulator with a puzzle's position set up from the start
    position; its engine process ends with the test."""
    made: list[Rig] = []

    def make(puzzle_id: str) -> tuple[Rig, Recorder]:
        voice = Recorder()
        rig = Rig(puzzle=find(puzzle_id), speaker=voice)
        made.append(rig)
        rig.run(0.2)
        follow_the_set_up(rig)
        rig.run(0.5)
        return rig, voice

    yield make
    for rig in made:
        rig.daemon.close()


def banner(rig: Rig) -> tuple[str, str]:
    return banner_line(rig.window.state)


def settle(rig: Rig) -> None:
    """Let the board settle and the puzzle's engine (a process of its own)
    answer whatever the move asked it, however many questions that takes."""
    for _ in range(10):
        rig.run(0.3)
        if not then_of(rig.daemon.activity).session.thinking:
            return
        rig.daemon.wait_for_engine(30)
    raise AssertionError("the puzzle's engine never stopped thinking")


def test_a_puzzle_is_set_up_then_solved_against_the_engines_defence(solving):
    rig, voice = solving("duke-a")
    assert rig.daemon.game.start_fen == find("duke-a").fen
    assert banner(rig) == ("info", "White to mate in 2")
    assert voice.said[-1] == "White to mate in 2."
    assert rig.window.state.status == "puzzle"
    rig.click("i7", button=3)  # 1. Qxi7+: the pawn into the tray first
    rig.drag("c1", "i7")
    settle(rig)
    # The engine defends at once, with the only move there is.
    assert banner(rig) == ("engine", "Engine: Kxi7 \N{EN DASH} i8 to i7")
    rig.click("i7", button=3)  # carried out on the board: the king takes the queen
    rig.drag("i8", "i7")
    settle(rig)
    assert banner(rig) == ("info", "White to mate in 1")
    rig.drag("j5", "j6")  # 2. j6#
    settle(rig)
    assert banner(rig) == ("over", "Solved! Checkmate in 2 moves")
    assert voice.said[-1].endswith("Solved! Checkmate in 2 moves.")
    game_id = rig.daemon.game_id
    assert rig.store.moves(game_id) == ["c1i7", "i8i7", "j5j6"]
    assert rig.store.games[game_id]["result"] == ("1-0", "checkmate")
    # The start position set up after it: the puzzle is over, two players play on.
    start = Position()
    rig.board.set_occupancy(start.colors[0] | start.colors[1])
    rig.run(1.0)
    assert (
        not isinstance(then_of(rig.daemon.activity), Solving)
        and rig.daemon.reconciler.engine_side is None
    )
    assert banner(rig) == ("idle", "White to move")


def test_a_wrong_move_fails_with_the_key_and_is_taken_back_to_try_again(solving):
    rig, voice = solving("duke-a")
    rig.drag("c1", "c7")  # 1. Qc7?
    settle(rig)
    failed = "Not the solution: 1. Qxi7 mates in 2. Take your move back to try again"
    assert banner(rig) == ("error", failed)
    assert rig.daemon.reconciler.engine_move is None  # the engine does not play on
    # The move is said at once, the verdict once the engine has judged it.
    assert voice.said[-2:] == [
        "Queen c1 to c7.",
        "Not the solution: 1. queen takes i7 mates in 2. Take your move back to try again.",
    ]
    rig.drag("c7", "c1")  # taken back
    settle(rig)
    assert banner(rig) == ("info", "White to mate in 2")
    assert rig.store.moves(rig.daemon.game_id) == []


def rows(rig: Rig) -> list[str]:
    """The panel's two player rows as the screen words them, the lit one starred."""
    state = rig.window.state
    return [
        player_label(state, colour, to_move(state, colour))
        + ("*" if to_move(state, colour) else "")
        for colour in (BLACK, WHITE)
    ]


def test_after_a_wrong_move_the_panel_waits_for_the_player_not_the_engine(solving):
    """The header said "Engine's move" while the board waited for the takeback."""
    rig, _ = solving("duke-a")
    assert rows(rig) == ["Engine", "Your move*"]
    rig.drag("c1", "c7")  # 1. Qc7?
    settle(rig)
    assert banner(rig)[0] == "error" and rig.window.state.turn == BLACK
    assert rows(rig) == ["Engine", "Your move*"]
    rig.drag("c7", "c1")  # taken back
    settle(rig)
    assert rows(rig) == ["Engine", "Your move*"]
    rig.click("i7", button=3)  # 1. Qxi7+, the key: the engine's move, lit as ever
    rig.drag("c1", "i7")
    settle(rig)
    assert rows(rig) == ["Engine's move*", "You"]


def carry_out_the_engines_move(rig: Rig) -> None:
    move = rig.daemon.reconciler.engine_move
    assert move is not None
    frm, to = rig.geo.name(move.from_square), rig.geo.name(move.to_square)
    if rig.daemon.game.position.squares[move.to_square]:
        rig.click(to, button=3)  # the piece taken, into the tray
    rig.drag(frm, to)
    settle(rig)


def test_the_hint_lights_the_next_move_of_the_solution(solving):
    rig, _ = solving("duke-c")
    rig.buttons.press("hint", rig.now)
    rig.run(0.2)
    assert banner(rig) == ("info", "Hint: Fa3 \N{EN DASH} d1 to a3")  # the essay's key
    d1, a3 = rig.geo.parse_square("d1"), rig.geo.parse_square("a3")
    colours = rig.daemon.led_colours(0.0)
    assert colours[d1] == LIGHTS[Role.HINT_FROM].rgb
    assert colours[a3] == LIGHTS[Role.HINT_TO].rgb
    rig.drag("d1", "a3")
    settle(rig)
    carry_out_the_engines_move(rig)
    # Now the engine looks for the mate, in its own process.
    rig.buttons.press("hint", rig.now)
    rig.daemon.step(rig.now)  # the question goes out: no answer can be back yet
    assert rig.daemon.status().prompt == "Thinking about a hint…"
    settle(rig)
    hint = rig.daemon.engine.hint_move
    assert hint is not None and banner(rig)[1].startswith("Hint: ")
    rig.drag(rig.geo.name(hint[0]), rig.geo.name(hint[1]))
    settle(rig)
    assert banner(rig) == ("over", "Solved! Checkmate in 2 moves")


def test_sim_puzzle_opens_the_window_on_the_puzzles_set_up(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1, 1))
    config = with_game(parse_config({}), variant="falcon-hex")
    puzzle = find("hex-3")
    times = iter(x * 0.02 for x in range(10_000))
    with ExitStack() as stack:
        daemon = app.run_window(config, stack, frames=3, clock=lambda: next(times), puzzle=puzzle)
        assert (
            isinstance(daemon.activity, SettingUp)
            and daemon.activity.setup.target.fen() == puzzle.fen
        )
        assert daemon.engine_side == BLACK  # the engine defends, the board faces White
        assert daemon.status().prompt.startswith("Take the piece off ")
