"""The board starts and plays whatever the disk does: a full disk after a
clean stop, a first start on a full disk, a read-only state directory with no
database yet, a read-only filesystem where the state directory would be made.

Each start goes through :func:`boardctl.daemon.wiring.build`, as ``boardctl run`` does,
on a real tiny tmpfs or a real read-only bind mount (see tests/mounts.py).
The board says once, on the screen and in the log, that moves are not being
saved and why, keeps them, and writes them when the disk takes them again.
"""

from __future__ import annotations

import io
import logging
import os
import signal
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest

from boardctl.config import parse_config
from boardctl.daemon import wiring as app
from boardctl.hw.sim import SimBoard
from boardctl.rules import Game, parse_move
from boardctl.storage.backlog import RETRY_MAX
from boardctl.storage.command import pgn_command
from boardctl.storage.store import GameStore

from ..mounts import fill, make_writable, read_only_view, tiny_filesystem
from .test_backlog import Table

TWO_PLAYERS = parse_config({"game": {"mode": "two-players"}})
OPENING = ["e2e4", "e7e5", "d2d4", "d7d6", "c2c3", "c7c6"]


class Started(Table):
    """A daemon built as ``boardctl run`` builds it, on the simulated board,
    played by hand in virtual time (as :class:`Table`); closed like the
    service at exit."""

    def __init__(self, resumed: list[str] | None = None, **extra: object) -> None:
        game = Game()
        for uci in resumed or []:
            game.push(parse_move(game.position, uci))
        pos = game.position
        self.geometry = pos.geometry
        self.board = SimBoard(pos.geometry.squares(pos.colors[0] | pos.colors[1]))
        self.now = 0.0
        self.stack = ExitStack()
        self.daemon = app.build(TWO_PLAYERS, self.stack, sensors=self.board, now=0.0, **extra)

    @property
    def moves(self) -> list[str]:
        game = self.daemon.game
        replay = Game(game.variant, game.start_fen)
        played = []
        for move in game.moves:
            played.append(replay.position.uci(move))
            replay.push(move)
        return played

    def close(self) -> None:
        self.stack.close()


def stored_moves(db: Path) -> list[str]:
    with GameStore(db, create=False) as store:
        latest = store.latest()
        assert latest is not None
        return list(latest.moves)


def unsaved_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.ERROR and "in memory" in r.getMessage()
    ]


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    def point(folder: Path) -> Path:
        monkeypatch.setenv("STATE_DIRECTORY", str(folder))
        return folder / "games.sqlite3"

    return point


def test_a_full_disk_after_a_clean_stop_resumes_plays_and_saves_when_space_returns(
    tmp_path, state, caplog
):
    with tiny_filesystem(tmp_path / "tiny", "256k") as disk:
        db = state(disk / "state")
        table = Started()
        table.play(*OPENING[:2])
        table.close()
        filler = fill(disk)
        caplog.set_level(logging.INFO, logger="boardctl")
        table = Started(OPENING[:2])
        assert table.moves == OPENING[:2]  # the game was resumed
        assert table.daemon.status().prompt == "Moves not saved (disk full)"
        table.play(*OPENING[2:4])
        assert table.daemon.status().prompt == "2 moves not saved (disk full)"
        # What the disk holds can still be read and exported, full as it is.
        out, err = io.StringIO(), io.StringIO()
        assert pgn_command(db, None, False, out, err) == 0
        assert "1. e4 e5 *" in out.getvalue() and err.getvalue() == ""
        filler.unlink()
        table.wait(RETRY_MAX + 1)
        assert table.daemon.status().prompt == ""
        table.play(*OPENING[4:])
        table.close()
        assert len(unsaved_lines(caplog)) == 1
        assert "disk full" in unsaved_lines(caplog)[0]
        assert stored_moves(db) == OPENING


def unsaved_start(caplog: pytest.LogCaptureFixture, why: str, plies: int) -> Started:
    """A daemon started where it cannot save, for ``why``: it says so, and
    plays the opening's first ``plies`` all the same, counting them unsaved."""
    caplog.set_level(logging.INFO, logger="boardctl")
    table = Started()
    assert table.daemon.status().prompt == f"Moves not saved ({why})"
    table.play(*OPENING[:plies])
    assert table.moves == OPENING[:plies]
    assert table.daemon.status().prompt == f"{plies} moves not saved ({why})"
    return table


def test_a_first_start_on_a_full_disk_plays_and_creates_the_database_later(tmp_path, state, caplog):
    with tiny_filesystem(tmp_path / "tiny", "256k") as disk:
        db = state(disk / "state")
        filler = fill(disk)
        table = unsaved_start(caplog, "disk full", 3)
        table.wait(60)  # still full: still playing
        filler.unlink()
        table.wait(RETRY_MAX + 1)
        assert table.daemon.status().prompt == ""
        table.play(*OPENING[3:])
        table.close()
        assert stored_moves(db) == OPENING
        assert len(unsaved_lines(caplog)) == 1


@pytest.mark.parametrize("where", ["state directory", "its parent"])
def test_a_read_only_filesystem_with_no_database_yet(tmp_path, state, caplog, where):
    source = tmp_path / "card"
    source.mkdir()
    with read_only_view(source, tmp_path / "ro") as card:
        # A read-only state directory, or a read-only root where it would be made.
        db = state(card if where == "state directory" else card / "boardctl")
        table = unsaved_start(caplog, "folder read-only", 2)
        make_writable(card)  # the card remounted read-write
        table.wait(RETRY_MAX + 1)
        assert table.daemon.status().prompt == ""
        table.close()
        assert stored_moves(db) == OPENING[:2]
        assert len(unsaved_lines(caplog)) == 1


def test_boardctl_pgn_reads_a_database_on_a_full_disk(tmp_path):
    with tiny_filesystem(tmp_path / "tiny", "256k") as disk:
        state = disk / "state"
        with GameStore(state / "games.sqlite3") as store:
            game = store.new_game("falcon", Game().start_fen, "a", "b", "two-players", 1.7e9)
            store.add_move(game, 1, "e2e4", 1.7e9)
        fill(disk)
        done = subprocess.run(
            [sys.executable, "-m", "boardctl", "pgn"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env={"STATE_DIRECTORY": str(state), "PATH": "/usr/bin:/bin"},
        )
        assert (done.returncode, done.stderr) == (0, "")
        assert "1. e4 *" in done.stdout


def test_a_sensor_recording_on_a_full_disk_stops_with_one_line_and_the_game_goes_on(
    tmp_path, state, caplog
):
    with tiny_filesystem(tmp_path / "tiny", "256k") as disk:
        state(tmp_path / "state")  # the games on another disk
        record = disk / "sensors.log"
        with record.open("a", encoding="utf-8") as recorder:
            table = Started(recorder=recorder)
            table.play(OPENING[0])
            assert "place e4" in record.read_text()
            # tmpfs gives a file whole pages: end this one, so that the
            # next line needs a page the full disk does not have.
            recorder.write("#" * (4095 - record.stat().st_size) + "\n")
            recorder.flush()
            fill(disk)
            caplog.set_level(logging.INFO, logger="boardctl")
            table.play(*OPENING[1:4])
            assert table.moves == OPENING[:4]
            table.close()
        stopped = [r for r in caplog.records if "recording stopped" in r.getMessage()]
        assert len(stopped) == 1 and stopped[0].levelno == logging.ERROR
        assert stored_moves(tmp_path / "state" / "games.sqlite3") == OPENING[:4]


# ---------------------------------------------- a path that is no database
def test_a_database_path_that_is_a_directory_is_one_line_and_exit_2(tmp_path):
    # It played on, saying "disk error" for ever: a mistake in the setup is
    # said once at start, unlike a disk that fills during play (below).
    state = tmp_path / "state"
    (state / "games.sqlite3").mkdir(parents=True)
    config = tmp_path / "config.toml"
    config.write_text('[game]\nmode = "two-players"\n[display]\nenabled = false\n')
    err = tmp_path / "stderr"
    with err.open("w") as stderr:
        run = subprocess.Popen(
            [sys.executable, "-m", "boardctl", "run", "--config", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env={"STATE_DIRECTORY": str(state), "PATH": "/usr/bin:/bin"},
            start_new_session=True,  # so that what it started goes with it
        )
    try:
        status = run.wait(60)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        run.wait()
        raise AssertionError(f"boardctl run played on: {err.read_text()!r}") from None
    assert status == 2, err.read_text()
    assert err.read_text() == (
        f"boardctl run: cannot use {state / 'games.sqlite3'} as the game database: "
        "a directory, not a regular file\n"
    )


def test_a_disk_that_fills_during_play_is_said_and_the_game_goes_on(tmp_path, state, caplog):
    with tiny_filesystem(tmp_path / "tiny", "256k") as disk:
        db = state(disk / "state")
        caplog.set_level(logging.INFO, logger="boardctl")
        table = Started()
        table.play(*OPENING[:2])
        assert table.daemon.status().prompt == ""
        filler = fill(disk)
        table.play(*OPENING[2:5])
        assert table.moves == OPENING[:5]
        assert table.daemon.status().prompt == "3 moves not saved (disk full)"
        filler.unlink()
        table.wait(RETRY_MAX + 1)
        table.close()
        assert stored_moves(db) == OPENING[:5]
        assert len(unsaved_lines(caplog)) == 1
