"""The daemon's drivers for a game on the hex board (the ``falcon-hex``
preset): which build reads it, which pinout it takes, and its LEDs in chain
order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boardctl.config import ConfigError, parse_config
from boardctl.daemon import wiring as app
from boardctl.hw.hexpins import default_hex_pinout, load_any_pinout, repo_hex_pinout_path
from boardctl.hw.leds import LedEncoder, LedMap
from boardctl.hw.mockpins import Mock74HC165Chain
from boardctl.hw.pins import Pinout, repo_pinout_path
from boardctl.hw.protocol.messages import BoardShape
from boardctl.hw.serial_link import SerialBoard
from boardctl.hw.shiftreg import ShiftRegisterSensor
from boardctl.rules import Game, get_variant
from boardctl.rules.hexgeo import FALCON_HEX, GLINSKI

HEX_GAME = Game(get_variant("falcon-hex"))


def config(sensors: str, pinout: str = "") -> Any:
    return parse_config({"board": {"sensors": sensors, "pinout": pinout}})


def test_a_hex_game_on_a_pico_expects_the_hex_board_over_the_link() -> None:
    board = app.make_sensors(config("serial"), HEX_GAME)
    assert isinstance(board, SerialBoard)
    assert board.shape == BoardShape.named("hex121") and board.shape.squares == 121
    board.close()


def test_a_hex_game_on_the_pi_reads_sixteen_74hc165(factory: Any) -> None:
    pins = default_hex_pinout().pi.shiftreg
    chain = Mock74HC165Chain.from_pinout(pins, occupancy=1 << 120, pin_factory=factory, squares=121)
    sensor = app.make_sensors(config("shiftreg"), HEX_GAME)
    assert isinstance(sensor, ShiftRegisterSensor)
    for tick in range(3):
        reading = sensor.read(tick / 100)
    assert reading is not None and reading.occupancy == 1 << 120
    assert chain.rx_bit == 128
    sensor.close()


def test_a_hex_game_refuses_the_pis_own_gpios_in_one_line() -> None:
    with pytest.raises(app.StartError) as info:
        app.make_sensors(config("gpio"), HEX_GAME)
    assert "\n" not in str(info.value)
    assert "needs 24 GPIOs" in str(info.value) and '"shiftreg"' in str(info.value)


def test_each_board_refuses_the_others_pinout() -> None:
    with pytest.raises(app.StartError, match="is not the hex board's"):
        app.make_sensors(config("serial", str(repo_pinout_path())), HEX_GAME)
    with pytest.raises(app.StartError, match="is the hex board's: a game on 8×10"):
        app.make_sensors(config("serial", str(repo_hex_pinout_path())), Game(get_variant("falcon")))


def test_the_configuration_takes_either_pinout_and_checks_it(tmp_path: Path) -> None:
    assert config("serial", str(repo_hex_pinout_path())).board.pinout
    assert isinstance(load_any_pinout(repo_pinout_path()), Pinout)
    bad = tmp_path / "pinout.toml"
    bad.write_text(
        repo_hex_pinout_path()
        .read_text(encoding="utf-8")
        .replace('"m2 m3 m4 m5 m6"', '"m2 m3 m4 m5"'),
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="no LED for m6"):
        config("serial", str(bad))


def test_the_pis_led_chain_lights_each_cell_in_its_place() -> None:
    layout = default_hex_pinout().leds
    encoder = LedEncoder(layout, brightness=1.0)
    chain = layout.chain
    for name in ("a8", "g7", "f13", "m6", "h1"):
        cell = FALCON_HEX.parse_cell(name)
        pixels = encoder.pixels({cell: (255, 255, 255)})
        assert [i for i, p in enumerate(pixels) if any(p)] == [chain.index(cell)], name
    assert len(encoder.pixels({})) == 121
    assert LedMap(layout).cells == 121
    with pytest.raises(ValueError, match="no square 121"):
        encoder.pixels({121: (1, 1, 1)})


def test_a_hexagon_no_e_board_has_is_refused_in_one_line() -> None:
    assert get_variant("glinski").geometry == GLINSKI
    with pytest.raises(app.StartError) as info:
        app.make_sensors(config("serial"), Game(get_variant("glinski")))
    assert str(info.value) == (
        "glinski is played on a 91-cell hexagon, the hex e-board has "
        "121 cells: play it in boardctl sim"
    )


def test_the_daemon_refuses_a_hex_game_on_the_pis_gpios_before_it_starts(tmp_path: Path) -> None:
    cfg = parse_config(
        {
            "board": {"sensors": "gpio"},
            "game": {"variant": "falcon-hex"},
            "display": {"enabled": False},
        }
    )
    with pytest.raises(app.StartError, match="needs 24 GPIOs"):
        app.run(cfg)
