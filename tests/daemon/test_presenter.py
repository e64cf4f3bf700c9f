"""The presenter's choice of prompt, on its own: what matters most wins."""

from __future__ import annotations

import pytest

from boardctl.board import LedScene, Reconciler
from boardctl.daemon.clock import ChessClock
from boardctl.daemon.presenter import Machine, Presenter
from boardctl.daemon.session import EngineSession
from boardctl.rules import BLACK, WHITE, Game, Outcome, Termination

from ..daemon_fakes import MemoryStore


def parts(**machine: object):
    game = Game()
    rec = Reconciler(game)
    engine = EngineSession(None, None, MemoryStore(), 20, 0.0)
    return rec, engine, Machine(**machine)  # type: ignore[arg-type]


def test_a_missing_sensor_board_outranks_everything():
    rec, engine, machine = parts(
        notice="Engine level 3 of 20",
        sensors_healthy=False,
        sensor_problem="sensor board not connected on /dev/ttyACM0",
    )
    prompt, kind, _ = Presenter(None).prompt(rec, engine, None, machine)
    assert (prompt, kind) == ("Sensor board not connected on /dev/ttyACM0", "error")


def test_a_notice_shows_when_nothing_else_does_and_a_full_disk_after_it():
    rec, engine, machine = parts(notice="Engine level 3 of 20", saving="2 moves not saved")
    assert Presenter(None).prompt(rec, engine, None, machine)[0] == "Engine level 3 of 20"
    rec, engine, machine = parts(saving="2 moves not saved (disk full)")
    assert Presenter(None).prompt(rec, engine, None, machine)[:2] == (
        "2 moves not saved (disk full)",
        "error",
    )


def test_a_fallen_flag_ends_the_game_on_the_screen():
    rec, engine, machine = parts()
    clock = ChessClock.start((1.0, 0.0), 0.0)
    assert clock is not None
    clock.run(0, 5.0)
    rec.game.declare(Outcome(Termination.TIME_FORFEIT, BLACK))  # as the daemon does
    prompt, kind, _ = Presenter(None).prompt(rec, engine, clock, machine)
    assert kind == "over" and prompt.startswith("White's time is up: Black wins")


def test_a_flag_that_falls_for_black_says_white_wins():
    rec, engine, machine = parts()
    rec.game.declare(Outcome(Termination.TIME_FORFEIT, WHITE))
    prompt, kind, _ = Presenter(None).prompt(rec, engine, None, machine)
    assert (prompt, kind) == (
        "Black's time is up: White wins. Set up the pieces for a new game",
        "over",
    )


@pytest.mark.parametrize(
    ("termination", "winner", "reason"),
    [
        (Termination.RESIGNATION, WHITE, "resignation"),
        (Termination.AGREEMENT, None, "draw agreed"),
        (Termination.ABANDONED, None, "abandoned"),
    ],
)
def test_an_ending_off_the_board_is_game_over_on_the_screen(termination, winner, reason):
    rec, engine, machine = parts()
    rec.game.declare(Outcome(termination, winner))
    prompt, kind, _ = Presenter(None).prompt(rec, engine, None, machine)
    assert (prompt, kind) == (f"Game over ({reason}): set up the pieces for a new game", "over")


def test_while_a_position_is_set_up_the_panel_says_so_and_the_banner_says_what_next():
    from boardctl.board.explain import occupancy
    from boardctl.board.setup import begin
    from boardctl.daemon.presenter import SETTING_UP
    from boardctl.rules import Position, get_variant

    target = Position("6k3/10/10/10/10/10/10/4K5 w - - 0 1", get_variant("falcon"))
    start = Game().position
    setup = begin(target, occupancy(start), start)
    state = Presenter(None).setup_state(setup, Machine(), LedScene())
    assert state.setting_up and state.status == SETTING_UP and not state.status_alert
    assert state.prompt.startswith("Take the piece off ")
    lost = Presenter(None).setup_state(
        setup, Machine(sensors_healthy=False, sensor_problem="sensor board gone"), LedScene()
    )
    assert lost.status == "board not connected" and lost.prompt_kind == "error"
