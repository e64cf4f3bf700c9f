"""``boardctl puzzles``, and ``--puzzle`` for ``sim`` and ``run``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from boardctl.cli import main
from boardctl.daemon import wiring
from boardctl.puzzles import find, library


def test_the_list_has_each_puzzle_with_its_goal_and_difficulty(capsys):
    assert main(["puzzles"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(library())
    assert lines[0].split() == ["duke-a", "mate", "in", "2", "medium", "falcon"]
    hard = find("kfk-hard-1").goal
    drill = next(line for line in lines if line.startswith("kfk-hard-1 "))
    assert f"K+F v K, mate in {hard.allowed} (best {hard.moves})" in drill and " hard " in drill


def test_verify_checks_every_puzzle_and_says_how_long_it_took(capsys):
    assert main(["puzzles", "--verify"]) == 0
    out = capsys.readouterr().out.splitlines()
    count = len(library())
    assert out[-1].startswith(f"{count} of {count} verified in ")
    first = out[0].split(maxsplit=4)
    assert first[:2] == ["duke-a", "ok"] and first[3] == "s"
    assert "the key c1i7 mates in 2 against every defence" in first[4]


@pytest.mark.parametrize("command", ["run", "sim"])
def test_a_puzzle_is_played_in_its_own_preset(command, monkeypatch, tmp_path):
    started = {}
    config = tmp_path / "config.toml"  # run refuses to start with none
    config.write_text("[game]\n")

    def start(config, setup=None, puzzle=None, replay=None, first_start=False):
        started.update(variant=config.game.variant, setup=setup, puzzle=puzzle, replay=replay)
        return 0

    monkeypatch.setattr(wiring, command, start)
    assert main([command, "--config", str(config), "--puzzle", "kfk8-easy-1"]) == 0
    assert started == {
        "variant": "falcon-8x8",
        "setup": None,
        "puzzle": find("kfk8-easy-1"),
        "replay": None,
    }


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["sim", "--puzzle", "nope"], "no puzzle called 'nope': 'boardctl puzzles' lists them"),
        (
            ["run", "--puzzle", "duke-a", "--setup", "k9/10/10/10/10/10/10/9K w - - 0 1"],
            "give --setup or --puzzle, not both",
        ),
        (
            ["sim", "--puzzle", "duke-a", "--variant", "falcon-hex"],
            "puzzle duke-a is played in falcon, not falcon-hex",
        ),
        (
            ["sim", "--headless", "--script", "x.log", "--puzzle", "duke-a"],
            "--puzzle needs the window",
        ),
        (["puzzles", "--every-move"], "--every-move needs --verify"),
    ],
)
def test_a_wrong_puzzle_option_is_one_line(args, needle):
    result = subprocess.run(
        [sys.executable, "-m", "boardctl", *args], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert needle in result.stderr, result.stderr


def test_a_puzzle_and_a_replay_are_not_asked_for_together(capsys):
    assert main(["sim", "--puzzle", "duke-a", "--replay", "1"]) == 2
    assert "give --puzzle or --replay, not both" in capsys.readouterr().err
