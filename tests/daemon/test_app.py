"""Wiring from the configuration: which opponent the daemon gets, and what it logs."""

from __future__ import annotations

import logging
import sqlite3
from contextlib import ExitStack

import pytest

from boardctl.config import parse_config
from boardctl.daemon import boards
from boardctl.daemon import wiring as app
from boardctl.engine import core
from boardctl.engine.worker import EngineWorker
from boardctl.rules import Game, get_variant
from boardctl.storage.store import GameStore


def test_two_players_have_no_opponent():
    assert app.make_opponent(parse_config({"game": {"mode": "two-players"}})) is None


@pytest.mark.parametrize("built", [True, False])
def test_the_log_says_which_search_core_the_engine_runs_on(built, monkeypatch, caplog):
    monkeypatch.setattr(core, "available", lambda: built)
    caplog.set_level(logging.INFO, logger="boardctl")
    opponent = app.make_opponent(parse_config({"game": {"mode": "engine"}}))
    assert isinstance(opponent, EngineWorker)
    messages = [(r.levelno, r.getMessage()) for r in caplog.records if "engine:" in r.getMessage()]
    assert len(messages) == 1
    level, text = messages[0]
    if built:
        assert level == logging.INFO and "compiled search core" in text
    else:
        assert level == logging.WARNING and "not built" in text and "Python" in text


def test_an_unfinished_game_that_cannot_be_read_is_closed_and_a_new_one_begins(
    tmp_path, monkeypatch, caplog
):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        damaged = store.new_game("falcon", Game().start_fen, "a", "b", "two-players", 1.7e9)
        store.add_move(damaged, 1, "e2e4", 1.7e9)
    raw = sqlite3.connect(path)
    raw.execute("UPDATE games SET start_fen = 'nonsense' WHERE id = ?", (damaged,))
    raw.commit()
    raw.close()
    caplog.set_level(logging.INFO, logger="boardctl")
    with ExitStack() as stack:
        daemon = app.build(parse_config({"game": {"mode": "two-players"}}), stack)
        assert daemon.game.moves == [] and daemon.game_id > damaged
    assert any(f"cannot resume: game {damaged}:" in r.getMessage() for r in caplog.records)
    with GameStore(path) as store:
        assert (store.games()[0].result, store.games()[0].termination) == ("*", "unreadable")
        assert store.unfinished() is not None and store.unfinished().id == daemon.game_id


def test_a_resumed_game_keeps_the_time_it_began(tmp_path, monkeypatch):
    # The live PGN's date is the game's start: after a restart it is the
    # stored one, not the restart's.
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    with GameStore(tmp_path / "games.sqlite3") as store:
        game_id = store.new_game("falcon", Game().start_fen, "a", "b", "two-players", 1.7e9)
        store.add_move(game_id, 1, "e2e4", 1.7e9 + 5)
    with ExitStack() as stack:
        daemon = app.build(parse_config({"game": {"mode": "two-players"}}), stack, now=0.0)
        assert daemon.game_id == game_id and len(daemon.game.moves) == 1
        assert daemon.top.record.started_at == 1.7e9
        assert daemon.snapshot().started_at == 1.7e9


@pytest.mark.parametrize("sensors", ["gpio", "shiftreg", "serial"])
@pytest.mark.parametrize(
    ("variant", "shape"),
    [("falcon-9x10", "9×10"), ("falcon-10x10-central", "10×10"), ("falcon-8x8", "8×8")],
)
def test_the_physical_board_refuses_a_preset_of_another_size(sensors, variant, shape):
    config = parse_config({"board": {"sensors": sensors}, "game": {"variant": variant}})
    with pytest.raises(app.StartError, match=f"{variant} is played on a {shape} board.*8×10"):
        app.make_sensors(config, Game(get_variant(variant)))


@pytest.mark.parametrize(("layout", "needs"), [("corners", "99 LEDs at the square corners")])
def test_a_led_layout_the_pinout_does_not_have_is_refused_before_any_led_lights(layout, needs):
    # The shipped pinout has 80 LEDs, one per square.
    config = parse_config({"board": {"sensors": "gpio"}, "leds": {"layout": layout}})
    with pytest.raises(app.StartError, match=f"{needs}, but the pinout's chain has 80"):
        app.make_leds(config)


def test_the_led_layout_is_checked_against_a_corner_grid_pinout_too():
    from boardctl.hw.pins import default_pinout

    corner = default_pinout()
    config = parse_config({"board": {"sensors": "gpio"}, "leds": {"layout": "squares"}})
    with pytest.raises(
        app.StartError, match="80 LEDs, one per square, but the pinout's chain has 99"
    ):
        boards.fits_layout(config, 99, True)
    boards.fits_layout(config, corner.leds.count, corner.leds.corner_grid)  # the shipped one fits
