"""kill -9 of the daemon during a game loses no committed move.

A child process (tests/e2e/kill9_child.py) runs the daemon headless on the
simulated board with a real :class:`~boardctl.storage.store.GameStore`, plays a long
two-player game in virtual time, and prints ``committed <ply> <uci>`` once
the daemon has handled each move (stored it).  The parent kills it with
SIGKILL at random points: after a random number of those lines, or after a
random short delay.  Each trial resumes the game the last one left, as the
daemon does after a crash, so the kills land all through one game.

Each child says the ply it resumed at (``ready <game id> <plies>``): exactly
what the store held after the previous kill.  After its kill the store must
hold those moves, every move it reported at its ply, and at most one more
(stored, killed before it said so), and replay.  The bound counts from the
child's own resume ply, not from the last move any child reported: two kills
in a row between the store's commit and the print each add an unreported move.

No assertion depends on timing: the kill points are random, every wait is
bounded, and the checks hold wherever the kill lands.
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest

from boardctl.board import MoveMade, MoveTakenBack
from boardctl.board.explain import occupancy
from boardctl.board.reconciler import State
from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import NOTHING_LENT, Hardware, Start
from boardctl.hw.sim import SimBoard
from boardctl.rules import Game, Position, parse_uci
from boardctl.storage.store import GameStore

from .helpers import WAIT, Screen
from .kill9_child import TWO_PLAYERS, long_game, ucis

CHILD = Path(__file__).with_name("kill9_child.py")
PLIES = 300
SEED = 20240917
TRIALS = 25
MAX_LINES = 8  # a kill comes after 0 .. MAX_LINES committed moves ...
MAX_DELAY = 0.05  # ... or 0 .. MAX_DELAY real seconds after "ready"

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


@cache
def script() -> tuple[str, ...]:
    return tuple(long_game(PLIES, SEED))


@pytest.fixture
def moves_file(tmp_path: Path) -> Path:
    path = tmp_path / "moves.txt"
    path.write_text(" ".join(script()) + "\n")
    return path


class Child:
    """The child daemon, its output read line by line with bounded waits."""

    def __init__(self, db: Path, moves: Path, log: Path) -> None:
        self.stderr = log.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, str(CHILD), str(db), str(moves)],
            stdout=subprocess.PIPE,
            stderr=self.stderr,
        )
        assert self.proc.stdout is not None
        self.fd = self.proc.stdout.fileno()
        self.buffer = b""
        self.lines: list[str] = []
        self.eof = False

    def _fill(self, deadline: float) -> bool:
        """Read what there is (waiting until ``deadline``); False at the end."""
        if self.eof:
            return False
        ready, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return True
        data = os.read(self.fd, 65536)
        if not data:
            self.eof = True
            return False
        self.buffer += data
        *complete, self.buffer = self.buffer.split(b"\n")
        self.lines += [line.decode() for line in complete]
        return True

    def wait_for(self, done: Callable[[list[str]], bool], what: str) -> None:
        """Read until ``done(lines)`` holds; fail after WAIT seconds or at the end."""
        deadline = time.monotonic() + WAIT
        while not done(self.lines):
            if time.monotonic() > deadline or not self._fill(deadline):
                if done(self.lines):
                    return
                raise AssertionError(f"gave up waiting for {what}; child said {self.lines}")

    def kill(self) -> list[str]:
        """SIGKILL, then everything it wrote before it died (whole lines only)."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self._drain()
        return self.lines

    def finish(self) -> int:
        """Let it run to its end; its exit status."""
        self._drain()
        return self.proc.returncode

    def _drain(self) -> None:
        self.proc.wait(timeout=WAIT)
        deadline = time.monotonic() + WAIT
        while self._fill(deadline) and time.monotonic() < deadline:
            pass
        self.close()

    def close(self) -> None:
        """Kill it if it still runs (a failed test), and close the files."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=WAIT)
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        self.stderr.close()


Spawn = Callable[[Path], Child]


@pytest.fixture
def spawn(tmp_path: Path, moves_file: Path) -> Iterator[Spawn]:
    """spawn(db): a child playing the script on ``db``; killed at the end of the test."""
    children: list[Child] = []

    def make(db: Path) -> Child:
        children.append(Child(db, moves_file, tmp_path / "child.log"))
        return children[-1]

    yield make
    for child in children:
        child.close()


def committed_lines(lines: list[str]) -> list[tuple[int, str]]:
    out = []
    for line in lines:
        word, *rest = line.split()
        assert word in ("ready", "committed", "done"), f"the child said {line!r}"
        if word == "committed":
            out.append((int(rest[0]), rest[1]))
    return out


def stored_moves(db: Path) -> tuple[str, ...]:
    with GameStore(db) as store:
        stored = store.unfinished()
        assert stored is not None
        # The stored game replays, as the daemon's resume needs it to.
        resumed = store.resume()
        assert resumed is not None and resumed[0] == stored.id
        assert ucis(resumed[1]) == list(stored.moves)
        return stored.moves


def test_the_script_plays_through_without_a_kill(tmp_path: Path, spawn: Spawn) -> None:
    """The premise: uninterrupted, the child commits the whole script, in order."""
    child = spawn(tmp_path / "games.sqlite3")
    assert child.finish() == 0, (tmp_path / "child.log").read_text()
    assert child.lines[0] == "ready 1 0" and child.lines[-1] == "done"
    assert committed_lines(child.lines) == [(i, m) for i, m in enumerate(script(), start=1)]
    assert stored_moves(tmp_path / "games.sqlite3") == script()


def test_kill_9_at_random_points_loses_no_committed_move(tmp_path: Path, spawn: Spawn) -> None:
    rng = random.Random(SEED)
    games = 0
    db = tmp_path / "games0.sqlite3"
    reported: dict[int, str] = {}  # ply -> move, as the children said, this game
    game_ids: set[str] = set()
    held = 0  # moves in the store after the last kill
    for trial in range(TRIALS):
        child = spawn(db)
        child.wait_for(lambda lines: bool(lines), "ready")
        assert child.lines[0].startswith("ready "), child.lines
        _, game_id, plies = child.lines[0].split()
        game_ids.add(game_id)
        assert len(game_ids) == 1, "a child started a new game instead of resuming"
        resumed_at = int(plies)
        assert resumed_at == held, f"trial {trial}: resumed at ply {resumed_at}, stored {held}"
        if rng.random() < 0.5:
            count = rng.randint(0, MAX_LINES)
            child.wait_for(
                lambda lines, n=count: len(committed_lines(lines)) >= n or "done" in lines,
                f"{count} committed moves",
            )
        else:
            time.sleep(rng.uniform(0.0, MAX_DELAY))
        lines = child.kill()
        said = committed_lines(lines)
        # The child goes on from the ply it resumed at, one move at a time.
        assert [ply for ply, _ in said] == list(range(resumed_at + 1, resumed_at + 1 + len(said)))
        reported.update(said)

        stored = stored_moves(db)
        assert stored == script()[: len(stored)], f"trial {trial}: not the scripted game"
        assert all(ply <= len(stored) and stored[ply - 1] == uci for ply, uci in reported.items())
        # What the child found, every move it reported, and at most one more
        # (killed after the store's commit, before the print).
        low = resumed_at + len(said)
        assert low <= len(stored) <= low + 1, (
            trial,
            resumed_at,
            len(said),
            len(stored),
            lines[-3:],
        )
        held = len(stored)
        if "done" in lines:  # the game is complete: start another
            assert held == PLIES
            games += 1
            db = tmp_path / f"games{games}.sqlite3"
            reported, game_ids, held = {}, set(), 0

    # At least a couple of moves to take back below.
    if not db.exists() or len(stored_moves(db)) < 2:
        child = spawn(db)
        child.wait_for(lambda lines: len(committed_lines(lines)) >= 2, "two moves")
        child.kill()
    check_resume(db)


def first_ply(capture: bool) -> int:
    """The first ply after the opening whose move is (or is not) a capture."""
    pos = Game().position
    for ply, uci in enumerate(script(), start=1):
        move = parse_uci(pos, uci)
        if ply > 2 and pos.is_capture(move) == capture:
            return ply
        pos.push(move)
    raise AssertionError("no such move in the script")


def store_script(db: Path, plies: int) -> None:
    with GameStore(db) as store:
        game_id = store.new_game("falcon", Game().start_fen, "Player", "Player", "two-players", 0.0)
        for ply, uci in enumerate(script()[:plies], start=1):
            store.add_move(game_id, ply, uci, 0.0)


@pytest.mark.parametrize("capture", [False, True], ids=["after-a-quiet-move", "after-a-capture"])
def test_a_daemon_resumed_after_a_crash_reconciles_the_board(tmp_path: Path, capture: bool) -> None:
    """check_resume below, on a game whose last move is of each kind."""
    db = tmp_path / "games.sqlite3"
    store_script(db, first_ply(capture))
    check_resume(db)


def test_a_long_resumed_game_is_not_replayed_at_every_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The screen's move list is worked out again when the moves change, not
    at every turn of the loop: with a long game that replay took longer than
    a turn (about 50 ms for 220 plies on the test machine)."""
    db = tmp_path / "games.sqlite3"
    store_script(db, PLIES - 1)
    replays: list[int] = []
    sans = Game.sans

    def counted(game: Game) -> list[str]:
        replays.append(len(game.moves))
        return sans(game)

    monkeypatch.setattr(Game, "sans", counted)
    with GameStore(db) as store:
        resume = store.resume()
        assert resume is not None
        screen = Screen()
        board = SimBoard(resume[1].position.geometry.squares(occupancy(resume[1].position)))
        daemon = Daemon(
            TWO_PLAYERS, Hardware(board, display=screen), store, NOTHING_LENT, Start(resume=resume)
        )
        now = run(daemon, 2.0)
        assert replays == [PLIES - 1]
        assert len(screen.last.moves) == PLIES - 1
        play(daemon, board, script()[-1], now)
        assert ucis(daemon.game) == list(script())
        assert replays == [PLIES - 1, PLIES]
        assert screen.last.moves == tuple(sans(daemon.game))


def check_resume(db: Path) -> None:
    """A new daemon resumes the stored game (after the crash)."""
    moves = stored_moves(db)
    with GameStore(db) as store:
        resume = store.resume()
        assert resume is not None
        game_id, game = resume

        # The board as the game left it: in sync at once, nothing happens.
        daemon, board = resumed_daemon(store, game.position)
        run(daemon, 3.0)
        assert daemon.reconciler.state is State.SYNCED
        assert not daemon.events and daemon.game_id == game_id
        assert ucis(daemon.game) == list(moves)

        # The board still shows the position before the last move (the move
        # was stored, then the power went before the player saw it
        # confirmed, say).  With takebacks allowed, the reconciler reads
        # exactly that occupancy as "the last move taken back" (rule 4 of
        # its judging order; it is no move of the side to move, so rule 2
        # cannot claim it), and the daemon removes it from the store: the
        # game and the board agree again, and the player may play it anew.
        before = Game(game.variant, game.start_fen)
        for move in game.moves[:-1]:
            before.push(move)
        daemon, board = resumed_daemon(store, before.position)
        now = run(daemon, 3.0)
        assert [e.uci for e in daemon.events if isinstance(e, MoveTakenBack)] == [moves[-1]]
        assert not [e for e in daemon.events if isinstance(e, MoveMade)]
        assert daemon.reconciler.state is State.SYNCED
        assert store.load(game_id).moves == moves[:-1]

        # ... and played again, it is stored again.
        last = moves[-1]
        play(daemon, board, last, now)
        assert store.load(game_id).moves == moves

    # With takebacks off, the same board is not the game's: after the grace
    # time the screen and the LEDs show one fix at a time, beginning at the
    # last move's from-square: "Move the rook from a3 back to a1" (play it
    # again), or after a capture "Take the piece off a3" (the captured piece
    # on the to-square reads as the capturer).  Nothing is removed; done as
    # shown, the board agrees with the game again.
    config = parse_config({"game": {"mode": "two-players", "takeback": False}})
    with GameStore(db) as store:
        resume = store.resume()
        assert resume is not None
        game_id, game = resume
        screen = Screen()
        board = SimBoard(game.position.geometry.squares(occupancy(before.position)))
        daemon = Daemon(
            config, Hardware(board, display=screen), store, NOTHING_LENT, Start(resume=resume)
        )
        now = run(daemon, 4.0)
        assert daemon.reconciler.state is State.ERROR
        shown = screen.last
        assert shown.prompt_kind == "error" and last[:2] in shown.prompt, shown.prompt
        geo = game.position.geometry
        marks = {geo.name(s) for s in shown.marks}
        assert last[:2] in marks and marks <= {last[:2], last[2:4]}
        frm, to = geo.parse_square(last[:2]), geo.parse_square(last[2:4])
        board.lift(frm)
        if not board.occupancy >> to & 1:
            now = run(daemon, 0.1, now)
            board.place(to)
        run(daemon, 1.0, now)
        assert daemon.reconciler.state is State.SYNCED and screen.last.prompt == ""
        assert store.load(game_id).moves == moves
        assert not [e for e in daemon.events if isinstance(e, MoveMade | MoveTakenBack)]


def resumed_daemon(store: GameStore, pos: Position) -> tuple[Daemon, SimBoard]:
    """A daemon resuming the store's game, on a board showing ``pos``."""
    board = SimBoard(pos.geometry.squares(occupancy(pos)))
    resume = store.resume()
    assert resume is not None
    return Daemon(TWO_PLAYERS, Hardware(board), store, NOTHING_LENT, Start(resume=resume)), board


def play(daemon: Daemon, board: SimBoard, uci: str, now: float) -> float:
    """Carry out ``uci`` (the mover first, then its prey) and let it settle."""
    geo = daemon.game.position.geometry
    frm, to = geo.parse_square(uci[:2]), geo.parse_square(uci[2:4])
    board.lift(frm)
    if board.occupancy >> to & 1:
        now = run(daemon, 0.1, now)
        board.lift(to)
    now = run(daemon, 0.1, now)
    board.place(to)
    return run(daemon, 1.0, now)


def run(daemon: Daemon, seconds: float, start: float = 0.0) -> float:
    """Run the loop for ``seconds`` of virtual time from ``start``; the time reached."""
    now = start
    while now < start + seconds:
        daemon.step(now)
        now = round(now + 0.01, 6)
    return now
