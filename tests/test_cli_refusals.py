"""A refused command leaves nothing behind: every argument of every command
is checked before anything is written (issue 41: ``run --config NEWPATH
--setup BADFEN`` wrote a first configuration with a PIN, then refused the
FEN).  Each case runs in an empty folder with the state, home and runtime
folders inside it, and must end in one line on stderr and an empty folder."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from boardctl.cli import main

NEW = "new.toml"  # a configuration file not there yet: run's first start
ROUND = 'event = "open"\nround = 1\n[[board]]\nnumber = 1\nid = "t1"\nkey = "0123456789abcdef"\n'
CASES = [
    ["run", "--config", NEW, "--setup", "not a fen"],
    ["run", "--config", NEW, "--setup", "10/10/10/10/10/10/10/10 w - - 0 1"],  # no kings
    ["run", "--config", NEW, "--puzzle", "no-such-puzzle"],
    ["run", "--config", NEW, "--replay", "3"],  # no game database yet
    ["run", "--config", NEW, "--setup", "8/8/8/8/8/8/8/8 w - - 0 1", "--puzzle", "duke-a"],
    ["run", "--config", NEW, "--puzzle", "duke-a", "--replay", "1"],
    ["run", "--config", NEW, "--replay", "0"],
    ["run", "--setup", "not a fen"],
    ["sim", "--config", NEW, "--headless", "--script", "log"],
    ["sim", "--headless", "--script", "no-such-log"],
    ["sim", "--headless", "--script", "log", "--setup", "x"],
    ["screenshot", "out.png", "--fen", "not a fen"],
    ["screenshot", "out.png", "--size", "0x0"],
    ["screenshot", "out.png", "--variant", "no-such-preset"],
    ["screenshot", "out.png", "--state", "start", "--fen", "x"],
    ["review", "--db", "new.db", "1"],
    ["pgn", "--db", "new.db"],
    ["pgn", "--db", "new.db", "3", "--all"],
    ["replay", "no-such-log"],
    ["perft", "2", "--fen", "not a fen"],
    ["diag", "--config", NEW],
    ["diag", "--sim", "--variant", "no-such-preset"],
    ["hall", NEW],
    ["hall"],
    ["hall", "--round", NEW],
    ["hall", "key", "--round", NEW],
    ["hall", "--round", "round.toml"],  # a good round, but no [hall] broker to read it from
    ["puzzles", "--every-move"],
]


@pytest.fixture
def empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "here"
    folder.mkdir()
    monkeypatch.chdir(folder)
    for name, sub in (
        ("STATE_DIRECTORY", "state"),
        ("XDG_STATE_HOME", "xdg-state"),
        ("HOME", "home"),
        ("XDG_RUNTIME_DIR", "run"),
    ):
        monkeypatch.setenv(name, str(folder / sub))
    return folder


@pytest.mark.parametrize("argv", CASES, ids=lambda argv: " ".join(argv))
def test_a_refused_command_says_why_in_one_line_and_writes_nothing(
    argv: list[str],
    empty: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    if "round.toml" in argv:
        (empty.parent / "round.toml").write_text(ROUND)
        argv = [str(empty.parent / "round.toml") if a == "round.toml" else a for a in argv]
    if "--script" in argv and "log" in argv:
        (empty.parent / "log").write_text("0 lift e2\n")
        argv = [str(empty.parent / "log") if a == "log" else a for a in argv]
    with caplog.at_level(logging.INFO):
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith(f"boardctl {argv[0]}: "), err
    assert sorted(os.listdir(empty)) == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO] == []


def test_with_every_argument_good_the_first_start_writes_its_configuration(
    empty: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = []
    monkeypatch.setattr(
        "boardctl.daemon.wiring.run", lambda *args, first_start: started.append(first_start) or 0
    )
    fen = "4k5/10/10/10/10/10/10/4K5 w - - 0 1"
    assert main(["run", "--config", NEW, "--setup", fen]) == 0
    assert started == [True] and (empty / NEW).read_text().startswith("# boardctl configuration")
