"""Configuration: defaults, every key checked, one clear message naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardctl.config import Config, ConfigError, load_config, parse_config


def test_no_file_means_the_defaults(tmp_path, monkeypatch):
    monkeypatch.setattr("boardctl.config.DEFAULT_PATH", tmp_path / "missing.toml")
    config = load_config(None)
    assert config == Config()
    assert config.board.sensors == "sim" and config.game.mode == "engine"


def test_a_full_file_is_read(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("""
[board]
sensors = "serial"
serial_port = "/dev/ttyACM1"
[leds]
brightness = 0.5
layout = "corners"
[display]
size = "800x480"
[engine]
skill = 7
movetime = 1
[game]
mode = "two-players"
variant = "falcon-8x8"
clock = "5+3"
""")
    config = load_config(path)
    assert config.board.serial_port == "/dev/ttyACM1"
    assert config.leds.layout == "corners" and config.leds.brightness == 0.5
    assert config.display_size == (800, 480)
    assert config.engine.movetime == 1.0  # an integer is fine for a float key
    assert config.clock_seconds == (300.0, 3.0)
    assert config.source == str(path)


@pytest.mark.parametrize(("toml", "needle"), [
    ('[game]\nmode = "chess"', "[game] mode: expected one of engine, two-players, teaching"),
    ('[game]\nvariant = "shogi"', "[game] variant"),
    ('[game]\nclock = "five"', "[game] clock: expected minutes+increment"),
    ('[leds]\nbrightness = 3', "[leds] brightness: must be between 0 and 1"),
    ('[engine]\nskill = "high"', "[engine] skill: expected int"),
    ('[display]\nsize = "big"', "[display] size: expected WIDTHxHEIGHT"),
    ('[display]\nfullscreen = "yes"', "[display] fullscreen: expected bool"),
    ('[board]\nsensor = "gpio"', "[board] sensor: unknown key"),
    ('[sound]\nvolume = 3', "[sound]: unknown section"),
    ("game = 3", "[game]: expected a table"),
    ("[game\nmode = 1", "not valid TOML"),
])
def test_bad_values_name_the_key(tmp_path, toml, needle):
    path = tmp_path / "config.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert needle in message and str(path) in message
    assert "\n" not in message


def test_unreadable_file_is_one_clear_line(tmp_path):
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path / "nope.toml")
    assert "cannot read" in str(info.value)


def test_parse_config_from_a_dict():
    assert parse_config({"game": {"human": "black"}}).game.human == "black"
    assert Path(parse_config({}).source).name == "(text)"
