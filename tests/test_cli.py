"""The command line: perft output and one-line errors."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from boardctl.cli import main


def test_perft_prints_only_the_total(capsys):
    assert main(["perft", "2"]) == 0
    assert capsys.readouterr().out == "576\n"


def test_perft_divide_prints_one_line_per_move_and_the_total_last(capsys):
    assert main(["perft", "2", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 25
    rows = [line.split(": ") for line in lines[:-1]]
    assert all(len(row) == 2 and int(row[1]) == 24 for row in rows[:1])
    assert int(lines[-1]) == sum(int(count) for _, count in rows) == 576


def test_perft_depth_zero_is_one_node(capsys):
    assert main(["perft", "0", "--divide"]) == 0
    assert capsys.readouterr().out == "1\n"


def test_perft_with_fen_and_variant(capsys):
    assert main(["perft", "2", "--variant", "falcon-8x8"]) == 0
    assert capsys.readouterr().out == "400\n"
    fen = "k9/10/10/10/10/10/10/9K w - - 0 1"
    assert main(["perft", "1", "--fen", fen]) == 0
    assert capsys.readouterr().out == "3\n"


@pytest.mark.parametrize(
    ("variant", "counts"),
    [
        ("falcon-9x10", "24 576"),
        ("falcon-10x10-central", "43 1847"),
        ("falcon-hex", "67 4464"),
        ("glinski", "51 2586"),
    ],
)
def test_perft_knows_every_preset_and_help_lists_them(capsys, variant, counts):
    assert [main(["perft", depth, "--variant", variant]) for depth in ("1", "2")] == [0, 0]
    assert capsys.readouterr().out.split() == counts.split()
    with pytest.raises(SystemExit):
        main(["perft", "--help"])
    assert variant in "".join(capsys.readouterr().out.split())  # however argparse wraps it


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["perft", "-1"], "depth"),
        (["perft", "2", "--fen", "rubbish"], "FEN"),
        (["perft", "2", "--fen", "k9/10/10/10/10/10/10/9K w KQ - 0 1"], "castling"),
        (["perft", "2", "--variant", "shogi"], "shogi"),
        (
            [
                "perft",
                "1",
                "--variant",
                "falcon-hex",
                "--fen",
                "prnfqp/2p3bk/3p2b1f/4p1b2n/5p4r/6pppppp/11/PPPPPP6/R4P5/N2B1P4/F1B2P3/QB3P2/KFNRP"
                " w - - 0 1",
            ],
            "rank 13 has 6 cells where the board has 5 (b13 to f13)",
        ),
        (
            [
                "perft",
                "1",
                "--variant",
                "falcon-hex",
                "--fen",
                "prnfq/2p3bk/3p2b1f/4p1b2n/5p4r/6pppppp/11/PPPPPP6/R4P5/N2B1P4/F1B2P3/QB3P2/KFNRP"
                " w - g13 0 1",
            ],
            "'g13' is not a cell",
        ),
        (
            ["perft", "1", "--variant", "falcon-hex", "--fen", "k9/10/10/10/10/10/10/9K w - - 0 1"],
            "expected 13 ranks, got 8",
        ),
        (["sim", "--setup", "rubbish"], "FEN"),
        (["run", "--setup", "k9/10/10/10/10/10/10/9K w KQ - 0 1"], "castling"),
        (
            [
                "sim",
                "--headless",
                "--script",
                "x.log",
                "--setup",
                "k9/10/10/10/10/10/10/9K w - - 0 1",
            ],
            "--setup needs the window",
        ),
        (["perft", "two"], "two"),
        (["perft"], "depth"),
        ([], "command"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_a_nonzero_exit(args, needle):
    result = subprocess.run(
        [sys.executable, "-m", "boardctl", *args], capture_output=True, text=True, check=False
    )
    assert result.returncode != 0
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert needle in lines[0]
    assert "Traceback" not in result.stderr


# ------------------------------------------------------------ numbers (issue 11)
# What str.isdigit() and int() take that is no number, and numbers too large:
# each command-line number is refused in one line with exit status 2.
NUMBER_PROBES = ["²", "٣", "１", "1_0", "+1", " 1", "1e3", "-1", "9" * 5000, str(2**63), ""]


def _one_line_exit_2(args, capsys):
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1 and len(captured.err) < 300
    return captured.err


@pytest.mark.parametrize("text", [*NUMBER_PROBES, "33", "1000"])
def test_perft_depth_is_ascii_and_bounded(text, capsys):
    err = _one_line_exit_2(["perft", text], capsys)
    assert "argument depth: expected a whole number from 0 to 32" in err


@pytest.mark.parametrize("text", [*NUMBER_PROBES, "0", "9223372036854775808"])
def test_pgn_game_number_is_ascii_and_bounded(text, capsys, tmp_path):
    err = _one_line_exit_2(["pgn", text, "--db", str(tmp_path / "none.sqlite")], capsys)
    assert "argument game: expected a whole number from 1 to 9223372036854775807" in err


@pytest.mark.parametrize(
    "size", ["²x320", "480x٣٢٠", "20000x20000", "9" * 5000 + "x320", "100x100", "480x320x2"]
)
def test_screenshot_size_is_ascii_and_bounded(size, capsys, tmp_path):
    err = _one_line_exit_2(["screenshot", "--size", size, str(tmp_path / "s.png")], capsys)
    assert "size" in err


@pytest.mark.parametrize(
    "fen_tail", ["- ² 1", "- 0 ²", "- 0 " + "9" * 5000, "e² 0 1", "- " + "1" * 30 + " 1"]
)
def test_fen_numbers_on_the_command_line_are_one_line(fen_tail, capsys):
    fen = f"rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR b KQkq {fen_tail}"
    assert "invalid FEN" in _one_line_exit_2(["perft", "1", "--fen", fen], capsys)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.one_of(st.text(max_size=12), st.integers(-(10**25), 10**25).map(str)))
def test_perft_depth_from_any_text_counts_or_is_one_line(capsys, text):
    assume(not text.startswith("-") or text.lstrip("-").isdigit())  # "-x" reads as an option
    try:
        depth = int(text) if text.isascii() and text.isdigit() else None
    except ValueError:
        depth = None
    assume(depth is None or depth <= 2 or depth > 32)  # deep counts take long
    args = ["perft", "--fen", "k9/10/10/10/10/10/10/9K w - - 0 1", "--", text]
    if depth is not None and depth <= 2:
        assert main(args) == 0
        assert capsys.readouterr().out.strip().isdigit()
    else:
        _one_line_exit_2(args, capsys)


def test_a_command_line_override_changes_only_the_game_and_keeps_the_file(tmp_path):
    import argparse

    from boardctl.cli import _config

    path = tmp_path / "config.toml"
    path.write_text(
        '[game]\nclock = "5+3"\nmode = "engine"\n[web]\nport = 8123\n[engine]\nskill = 7\n'
    )
    config = _config(
        argparse.Namespace(config=path, mode="two-players", human=None, variant="falcon-9x10")
    )
    assert (config.game.mode, config.game.variant, config.game.clock) == (
        "two-players",
        "falcon-9x10",
        "5+3",
    )
    assert config.web.port == 8123 and config.engine.skill == 7
    assert config.source == str(path)


# ------------------------------------------------------------ help and errors (issue 25)
@pytest.mark.parametrize("command", ["perft", "replay", "sim", "screenshot", "diag"])
def test_help_never_cuts_a_preset_name_at_its_hyphen(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    lines = capsys.readouterr().out.splitlines()
    assert not any(line.rstrip().endswith("-") for line in lines), lines
    text = " ".join(line.strip() for line in lines)
    for name in ("falcon-hex", "falcon-10x10-central", "glinski"):
        if "rule preset, one of" in text:
            assert name in text


def test_sim_help_says_what_the_lights_mean_and_uci_help_lists_its_options(capsys):
    from boardctl.board import lights

    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    out = capsys.readouterr().out
    assert "what the lights mean" in out
    for hue, meaning in lights.legend():
        assert f"{hue.name}" in out and meaning[:30] in out
    with pytest.raises(SystemExit):
        main(["uci", "--help"])
    out = capsys.readouterr().out
    assert "UCI_Variant" in out and "Skill Level" in out and "falcon-hex" in out


@pytest.mark.parametrize(
    ("args", "prefix"),
    [
        (["perft", "2", "--fen", "rubbish"], "boardctl perft: "),
        (["pgn", "3", "--all"], "boardctl pgn: "),
        (["sim", "--headless"], "boardctl sim: "),
        (["perft"], "boardctl perft: "),
        (["screenshot", "x.png", "--state", "fix", "--fen", "8/8 w"], "boardctl screenshot: "),
    ],
)
def test_every_error_begins_with_the_command(args, prefix, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(prefix) and err.count("\n") == 1, err


def test_sim_web_without_aiohttp_is_one_line_before_anything_starts(tmp_path):
    # A Python where aiohttp cannot be found: nothing is started or logged first.
    code = (
        "import sys, importlib.util as u; real = u.find_spec; "
        "u.find_spec = lambda n, *a: None if n == 'aiohttp' else real(n, *a); "
        "from boardctl.cli import main; sys.exit(main(['sim', '--web']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path)},
    )
    assert result.returncode == 2
    assert result.stderr == "boardctl sim: --web needs aiohttp: pip install 'boardctl[web]'\n"


def test_screenshot_draws_a_state_of_the_gallery(tmp_path):
    import pygame

    out = tmp_path / "fix.png"
    assert main(["screenshot", str(out), "--state", "hex-fix", "--size", "800x480"]) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (800, 480)
    # The fix's red banner is in it: a state, not just a position.
    from boardctl.ui import display

    banner = image.get_at((400, 470))[:3]
    assert tuple(banner) == display.BANNER_BG["error"], banner


# ------------------------------------------------------------ --replay (issue 26)
@pytest.fixture
def stored_games(tmp_path, monkeypatch):
    """A game database with game 1 (no moves) and game 2 (falcon-9x10, one move)."""
    from boardctl.rules import get_variant
    from boardctl.storage.store import GameStore, default_db_path

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    with GameStore(default_db_path()) as store:
        store.new_game("falcon", get_variant("falcon").start_fen, "a", "b", "two-players", 1.0)
        other = get_variant("falcon-9x10").start_fen
        game = store.new_game("falcon-9x10", other, "a", "b", "two-players", 1.0)
        store.add_move(game, 1, "e2e4", 2.0)
    gpio = tmp_path / "gpio.toml"
    gpio.write_text('[board]\nsensors = "gpio"\n')
    return gpio


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["sim", "--replay", "3"], "no game 3 in"),
        (["sim", "--replay", "1"], "game 1 has no moves to step through"),
        (["sim", "--replay", "2", "--variant", "falcon"], "game 2 is falcon-9x10, not falcon"),
        (["sim", "--replay", "2", "--setup", "8/8 w"], "give --setup or --replay, not both"),
        (["sim", "--headless", "--script", "x.log", "--replay", "2"], "--replay needs the window"),
        (["sim", "--replay", "x"], "argument --replay: expected a whole number"),
        (["run", "--replay", "0"], "argument --replay: expected a whole number"),
        (["run", "--replay", "3"], "no game 3 in"),
    ],
)
def test_replay_errors_are_one_line(args, needle, stored_games, capsys):
    err = _one_line_exit_2(args, capsys)
    assert err.startswith(f"boardctl {args[0]}: ") and needle in err


def test_replay_on_the_board_of_another_size_is_one_line(stored_games, capsys):
    err = _one_line_exit_2(["run", "--config", str(stored_games), "--replay", "2"], capsys)
    assert "falcon-9x10 is played on a 9×10 board" in err


def test_replay_without_a_database_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    assert "no game database at" in _one_line_exit_2(["sim", "--replay", "1"], capsys)


def test_sim_help_names_the_keys_for_stepping(capsys):
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    out = capsys.readouterr().out
    assert "--replay GAME" in out and "Right  Left" in out and "play on from here" in out


# ------------------------------------------------------------ run with nothing configured
def test_run_with_no_configuration_refuses_in_one_line_and_starts_nothing(
    tmp_path, monkeypatch, capsys
):
    """It printed SDL's "error: XDG_RUNTIME_DIR is invalid" and played a game on
    sensors nobody can touch, stored empty."""
    from boardctl import cli
    from boardctl.daemon import wiring

    monkeypatch.setattr(cli, "DEFAULT_PATH", tmp_path / "etc" / "config.toml")
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    started = []
    monkeypatch.setattr(wiring, "run", lambda *args, **kwargs: started.append(args) or 0)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "boardctl run: no configuration (" + str(tmp_path / "etc" / "config.toml") + " is not "
        "there): give --config PATH (a file not there yet is written for a first start), or "
        "play on the desktop with boardctl sim"
    ]
    assert started == [] and not (tmp_path / "state").exists()
    # A configuration there, at the default path or named, and it runs.
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "config.toml").write_text("[game]\n")
    assert main(["run"]) == 0
    assert main(["run", "--config", str(tmp_path / "etc" / "config.toml")]) == 0
    assert len(started) == 2


# ------------------------------------------------------------ sim --level
def test_sim_level_plays_at_that_level_and_keeps_it_as_the_level_buttons_do(tmp_path, monkeypatch):
    """Nothing on the command line set the level: only the file, the settings
    page or + and - in the window."""
    from boardctl.daemon import wiring
    from boardctl.daemon.session import LEVEL_SETTING
    from boardctl.storage.store import GameStore, default_db_path

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    played = []
    monkeypatch.setattr(wiring, "sim", lambda config, *rest: played.append(config) or 0)
    assert main(["sim", "--level", "3", "--mode", "teaching"]) == 0
    assert (played[0].engine.skill, played[0].game.mode) == (3, "teaching")
    with GameStore(default_db_path()) as store:
        assert store.setting(LEVEL_SETTING) == "3"  # a level set at the board wins over the file's


def test_sim_level_is_refused_outside_0_to_20(capsys):
    assert main(["sim", "--level", "21"]) == 2
    assert "--level: expected a whole number from 0 to 20, got '21'" in capsys.readouterr().err


def test_the_sim_help_names_teaching_mode_and_the_level(capsys):
    with pytest.raises(SystemExit):
        main(["sim", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "teaching plays the engine with a coach" in out
    assert "--level LEVEL the engine's level, 0 (a beginner) to 20 (full strength" in out
