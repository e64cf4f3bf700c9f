"""Configuration: defaults, every key checked, one clear message naming the key."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from boardctl.config import Config, ConfigError, check_value, load_config, parse_config
from boardctl.hw.pins import repo_pinout_path


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
    assert config.clock_delay == 0.0
    assert config.source == str(path)


def test_a_delay_clock_has_no_increment_and_a_remote_game_refuses_it():
    config = parse_config({"game": {"clock": "90d5"}})
    assert config.clock_seconds == (5400.0, 0.0) and config.clock_delay == 5.0
    with pytest.raises(ConfigError) as refused:
        parse_config({"game": {"clock": "90d5", "mode": "remote"}})
    assert refused.value.key == ("game", "clock")
    assert "increment" in refused.value.reason and "not a delay" in refused.value.reason
    assert parse_config({"game": {"clock": "5+3", "mode": "remote"}}).clock_delay == 0.0


@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ('[game]\nmode = "chess"', "[game] mode: expected one of engine, two-players, teaching"),
        ('[game]\nvariant = "shogi"', "[game] variant"),
        ('[game]\nclock = "five"', "[game] clock: expected minutes+increment"),
        ("[leds]\nbrightness = 3", "[leds] brightness: must be between 0 and 1"),
        ('[engine]\nskill = "high"', "[engine] skill: expected int"),
        ('[display]\nsize = "big"', "[display] size: expected WIDTHxHEIGHT"),
        ('[display]\nfullscreen = "yes"', "[display] fullscreen: expected bool"),
        ('[board]\nsensor = "gpio"', "[board] sensor: unknown key"),
        ("[sound]\nvolume = 3", "[sound]: unknown section"),
        ("game = 3", "[game]: expected a table"),
        ("[game\nmode = 1", "not valid TOML"),
    ],
)
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


# ------------------------------------------------- values that used to pass (issue 11)
@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ('[game]\nclock = "inf+0"', "[game] clock: expected minutes+increment"),
        ('[game]\nclock = "1e400+0"', "[game] clock"),
        ('[game]\nclock = "nan+0"', "[game] clock"),
        ('[game]\nclock = "601+0"', "[game] clock"),
        ('[game]\nclock = "0+5"', "[game] clock"),
        ('[game]\nclock = "5+601"', "[game] clock"),
        ('[game]\nclock = "٥+3"', "[game] clock"),
        ('[game]\nclock = "1_0+3"', "[game] clock"),
        ('[game]\nclock = " 5+3"', "[game] clock"),
        ('[game]\nclock = "' + "9" * 5000 + '+0"', "[game] clock"),
        ('[display]\nsize = "20000x20000"', "[display] size: '20000x20000' is outside"),
        ('[display]\nsize = "²x320"', "[display] size: expected WIDTHxHEIGHT"),
        ('[display]\nsize = "480x٣٢٠"', "[display] size"),
        ('[display]\nsize = "100x100"', "[display] size"),
        ('[display]\nsize = ""', "[display] size"),
        ("[engine]\nexternal = 'foo \"bar'", "[engine] external: not a command line"),
        ('[engine]\nexternal = "no-such-engine-boardctl"', "[engine] external: no program"),
        ('[engine]\nexternal = " "', "[engine] external: an empty command"),
        ("[engine]\nmovetime = inf", "[engine] movetime: must be between"),
        ("[engine]\nskill = 99999999999999999999", "[engine] skill: must be between"),
        ("[leds]\nbrightness = nan", "[leds] brightness"),
        ('[board]\nserial_port = "/dev/tty\\u0000"', "[board] serial_port: contains a control"),
        ("[board]\nsettle_ms = true", "[board] settle_ms: expected int"),
        ('[game]\nmode = "' + "x" * 5000 + '"', "[game] mode"),
    ],
)
def test_values_that_cannot_run_are_refused_at_load(tmp_path, toml, needle):
    path = tmp_path / "config.toml"
    path.write_text(toml, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert needle in message and "\n" not in message and len(message) < 300


def _paths(tmp_path):
    (tmp_path / "dir").mkdir()
    return {
        "missing": str(tmp_path / "missing.toml"),
        "dir": str(tmp_path / "dir"),
        "no-dir": str(tmp_path / "no" / "such" / "file.log"),
        "long": str(tmp_path / ("x" * 5000)),
    }


@pytest.mark.parametrize("kind", ["missing", "dir", "long"])
def test_a_pinout_that_cannot_be_read_is_refused_at_load(tmp_path, kind):
    with pytest.raises(ConfigError, match=r"\[board\] pinout: cannot read"):
        parse_config({"board": {"pinout": _paths(tmp_path)[kind]}})


def test_a_pinout_that_is_not_one_is_refused_at_load(tmp_path):
    path = tmp_path / "pinout.toml"
    path.write_text("[pi\n")
    with pytest.raises(ConfigError, match=r"\[board\] pinout: .*not valid TOML"):
        parse_config({"board": {"pinout": str(path)}})


@pytest.mark.parametrize(
    ("kind", "needle"),
    [("dir", "is a directory"), ("no-dir", "no directory"), ("long", "File name too long")],
)
def test_a_record_file_that_cannot_be_written_is_refused_at_load(tmp_path, kind, needle):
    with pytest.raises(ConfigError, match=rf"\[board\] record: .*{needle}"):
        parse_config({"board": {"record": _paths(tmp_path)[kind]}})


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_record_file_in_a_read_only_directory_is_refused_at_load(tmp_path):
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(ConfigError, match=r"\[board\] record: .*cannot create"):
            parse_config({"board": {"record": str(tmp_path / "stream.log")}})
    finally:
        tmp_path.chmod(0o700)


def test_good_paths_and_commands_are_taken(tmp_path):
    pinout = tmp_path / "pinout.toml"
    pinout.write_text(repo_pinout_path().read_text())
    config = parse_config(
        {
            "board": {"pinout": str(pinout), "record": str(tmp_path / "s.log")},
            "engine": {"external": f"'{sys.executable}' -c pass"},
            "game": {"clock": "0.5+0", "mode": "teaching"},
        }
    )
    assert config.board.pinout == str(pinout)
    assert config.clock_seconds == (30.0, 0.0)


def test_a_file_that_is_not_utf8_is_one_line(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b'[game]\nmode = "\xff"\n')
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert "not UTF-8" in str(info.value) and "\n" not in str(info.value)


def test_an_error_names_its_key_apart_from_its_reason_for_a_form():
    with pytest.raises(ConfigError) as refused:
        parse_config({"engine": {"skill": 99}})
    assert refused.value.key == ("engine", "skill")
    assert refused.value.reason == "must be between 0 and 20; got 99"
    assert str(refused.value) == "[engine] skill: must be between 0 and 20; got 99"
    with pytest.raises(ConfigError) as refused:
        check_value("game", "clock", "5")
    assert refused.value.key == ("game", "clock")
    assert refused.value.reason.startswith("expected minutes+increment")


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("", True),
        ("Ann Lee", True),
        ('Ünal "Q" O\'Brien', True),
        (" Ann", False),
        ("x" * 40, True),
        ("x" * 41, False),
        ("a\tb", False),
    ],
)
def test_players_names(name, ok):
    data = {"game": {"white_name": name, "black_name": name}}
    if ok:
        assert parse_config(data).game.black_name == name
    else:
        with pytest.raises(ConfigError, match=r"\[game\] white_name"):
            parse_config(data)
