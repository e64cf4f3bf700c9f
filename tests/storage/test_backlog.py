"""A store that cannot be written does not stop the board: a full disk mid-game,
a read-only database at start.  The game goes on in memory, the screen says
that moves are not being saved, and the backlog is written when space returns."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import NOTHING_LENT, Hardware, Start
from boardctl.hw.sim import SimBoard
from boardctl.rules import Game
from boardctl.storage.backlog import RETRY_MAX, Backlog
from boardctl.storage.store import GameStore, StoreConflictError

from ..daemon_fakes import MemoryStore
from ..mounts import fill, read_only_view, tiny_filesystem

TWO_PLAYERS = parse_config({"game": {"mode": "two-players"}})
OPENING = ["e2e4", "e7e5", "d2d4", "d7d6", "c2c3", "c7c6", "b2b3", "b7b6"]
FULL = "disk full"
T0 = 1_700_000_000.0


class Table:
    """A daemon on the simulated board, played by hand in virtual time."""

    def __init__(self, store, config=TWO_PLAYERS) -> None:
        pos = Game().position
        self.geometry = pos.geometry
        self.board = SimBoard(pos.geometry.squares(pos.colors[0] | pos.colors[1]))
        self.now = 0.0
        self.daemon = Daemon(config, Hardware(self.board), store, wall_clock=lambda: T0 + self.now)

    def wait(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.daemon.step(self.now)
            self.now = round(self.now + 0.01, 6)

    def play(self, *moves: str) -> None:
        for uci in moves:
            self.board.lift(self.geometry.parse_square(uci[:2]))
            self.wait(0.2)
            self.board.place(self.geometry.parse_square(uci[2:4]))
            self.wait(1.0)

    @property
    def status(self):
        return self.daemon.status()


def test_a_full_disk_mid_game_keeps_the_game_and_saves_it_when_space_returns(caplog):
    store = MemoryStore()
    table = Table(store)
    table.play(*OPENING[:2])
    assert store.moves(1) == OPENING[:2] and table.status.status == ""
    store.failing = FULL
    table.play(*OPENING[2:5])
    # The board went on reading moves; none of them is stored yet.
    assert [table.daemon.game.position.uci(m) for m in table.daemon.game.moves] == OPENING[:5]
    assert store.moves(1) == OPENING[:2]
    shown = table.status
    assert (shown.prompt, shown.prompt_kind) == ("3 moves not saved (disk full)", "error")
    assert shown.status == "not saved" and shown.status_alert
    assert [r.levelname for r in caplog.records if "in memory" in r.getMessage()] == ["ERROR"]
    # Retries back off: a minute of a full disk is a handful of tries, not 6,000 turns.
    refused = store.refused
    table.wait(60)
    assert 3 <= store.refused - refused <= 8
    store.failing = None
    table.play(OPENING[5])
    table.wait(RETRY_MAX)
    assert store.moves(1) == OPENING[:6]
    assert table.status.status == "" and not table.status.status_alert
    assert table.status.prompt == ""
    # Each move kept the time it was made, not the time it was written.
    made = [when for what, when in store.times if what == "add_move"]
    assert made == sorted(made) and made[2] < made[3] < made[4] < T0 + 60


def test_a_new_game_started_while_the_disk_is_full_is_written_in_order():
    store = MemoryStore()
    table = Table(store)
    table.play("e2e4")
    store.failing = FULL
    table.play("e4e2")  # a pawn cannot go back: this is a takeback
    table.play("e2e4", "e7e5")
    backlog = table.daemon.top.record.store
    assert isinstance(backlog, Backlog) and backlog.waiting
    store.failing = None
    table.wait(RETRY_MAX + 1)
    assert not backlog.waiting
    assert [c[0] for c in store.calls] == [
        "new_game",
        "add_move",
        "remove_last_move",
        "add_move",
        "add_move",
    ]
    assert store.moves(1) == ["e2e4", "e7e5"]


def test_games_started_and_ended_while_unsaved_get_their_ids_when_written():
    store = MemoryStore()
    store.failing = FULL
    backlog = Backlog(store)
    first = backlog.new_game("falcon", Game().start_fen, "a", "b", "two-players", T0)
    backlog.add_move(first, 1, "e2e4", T0 + 1)
    backlog.finish(first, "*", "abandoned", T0 + 2)
    second = backlog.new_game("falcon", Game().start_fen, "a", "b", "two-players", T0 + 3)
    backlog.add_move(second, 1, "d2d4", T0 + 4)
    assert first < 1 and second < 1 and first != second
    store.failing = None
    backlog.retry(0.0)
    backlog.retry(10.0)
    assert store.moves(1) == ["e2e4"] and store.games[1]["result"] == ("*", "abandoned")
    assert store.moves(2) == ["d2d4"] and store.games[2]["result"] is None
    backlog.add_move(second, 2, "d7d5", T0 + 5)  # the provisional id stays good
    assert store.moves(2) == ["d2d4", "d7d5"]


def test_a_write_that_contradicts_the_store_is_not_waited_out():
    store = MemoryStore()
    backlog = Backlog(store)
    game = backlog.new_game("falcon", Game().start_fen, "a", "b", "two-players", T0)

    def conflict(*args, **kwargs):
        raise StoreConflictError("game 1 ply 1 is stored as d2d4")

    store.add_move = conflict  # type: ignore[method-assign]
    with pytest.raises(StoreConflictError):
        backlog.add_move(game, 1, "e2e4", T0)


def test_writes_still_waiting_at_shutdown_are_logged_move_by_move(caplog):
    store = MemoryStore()
    backlog = Backlog(store)
    game = backlog.new_game("falcon", Game().start_fen, "a", "b", "two-players", T0)
    store.failing = FULL
    backlog.add_move(game, 1, "e2e4", T0)
    backlog.add_move(game, 2, "e7e5", T0)
    backlog.close()
    [lost] = [r.getMessage() for r in caplog.records if "lost" in r.getMessage()]
    assert "2 writes lost" in lost and "ply 1: e2e4" in lost and "ply 2: e7e5" in lost


class ReadOnlyStore(MemoryStore):
    def write_problem(self) -> str | None:
        return self.failing


def test_a_read_only_store_is_reported_at_start_not_at_the_first_move(caplog):
    store = ReadOnlyStore()
    store.failing = "database read-only"
    with caplog.at_level(logging.ERROR, logger="boardctl"):
        table = Table(store)
    assert table.status.prompt == "Moves not saved (database read-only)"
    assert table.status.status == "not saved"
    assert any("cannot be written" in r.getMessage() for r in caplog.records)
    table.play("e2e4")
    assert table.status.prompt == "1 move not saved (database read-only)"
    store.failing = None  # someone remounted it read-write
    table.wait(RETRY_MAX)
    assert store.moves(1) == ["e2e4"] and table.status.status == ""


# ----------------------------------------------------- real filesystems
def test_a_real_full_disk_mid_game_and_the_backlog_written_when_space_returns(tmp_path):
    with tiny_filesystem(tmp_path / "tiny", "256k") as folder:
        with GameStore(folder / "games.sqlite3") as store:
            table = Table(store)
            table.play(*OPENING[:2])
            filler = fill(folder)
            table.play(*OPENING[2:6])
            assert table.status.prompt == "4 moves not saved (disk full)"
            filler.unlink()
            table.wait(RETRY_MAX + 1)
            assert table.status.status == ""
            table.play(*OPENING[6:])
            table.daemon.close()
        with GameStore(folder / "games.sqlite3", create=False) as store:
            stored = store.load(table.daemon.game_id)
            assert stored.moves == tuple(OPENING)
            assert stored.started_at == T0


def test_a_real_read_only_filesystem_at_start(tmp_path):
    source = tmp_path / "state"
    source.mkdir()
    with GameStore(source / "games.sqlite3") as store:
        game_id = store.new_game("falcon", Game().start_fen, "a", "b", "two-players", T0)
        store.add_move(game_id, 1, "e2e4", T0)
    with (
        read_only_view(source, tmp_path / "ro") as folder,
        GameStore(Path(folder) / "games.sqlite3") as store,
    ):
        resume = store.resume()
        assert resume is not None
        pos = resume[1].position
        board = SimBoard(pos.geometry.squares(pos.colors[0] | pos.colors[1]))
        daemon = Daemon(TWO_PLAYERS, Hardware(board), store, NOTHING_LENT, Start(resume=resume))
        assert daemon.status().prompt == "Moves not saved (folder read-only)"
        assert daemon.game_id == game_id and len(daemon.game.moves) == 1
