"""Reviews while the board plays: the review's time per position, and the
daemon's step time with and without a review running.

The daemon (two players, a simulated board, publishing to the page's hub)
runs its loop at ``LOOP_HZ`` in real time while a pawn is moved e2-e4 and
back every ``--every`` seconds, each move stored.  First ``--seconds`` with
no review; then a stored game of ``--plies`` plies (the engine against
itself at depth 1, a random move one time in four) is reviewed by the
daemon's :class:`~boardctl.review.background.Reviewer`, at ``--movetime``
seconds a position in its own process at niceness +10, while the loop runs
on for ``--seconds`` more (the review is stopped then if it has not ended).
Prints the step times of both phases (median, p99, max, mean), the time of
the step that started the review's process, the steps that overran the
loop's period, and the review's time per position from its progress.

Prints figures only; nothing here is a test.  Run: ``.venv/bin/python bench/review.py``
(bounded: about 2 × ``--seconds`` plus start-up; default 30 s a phase).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from boardctl.board.explain import occupancy
from boardctl.config import parse_config
from boardctl.daemon.loop import LOOP_HZ, Daemon
from boardctl.daemon.parts import Hardware, Services
from boardctl.engine import Engine, Limits
from boardctl.hw.sim import SimBoard
from boardctl.review.background import Reviewer
from boardctl.rules import Game
from boardctl.storage.store import GameStore
from boardctl.web.snapshot import Hub

RANDOM_SHARE = 0.25  # moves of the stored game chosen at random, so that some are marked


def played(plies: int, seed: int) -> Game:
    """A game of at most ``plies`` plies, the engine against itself at depth
    1 with a random move now and then."""
    chance = random.Random(seed)
    engine = Engine(seed=seed)
    game = Game()
    while len(game.moves) < plies and game.outcome() is None:
        if chance.random() < RANDOM_SHARE:
            move = chance.choice(list(game.position.legal_moves()))
        else:
            found = engine.search(game.position, Limits(depth=1))
            assert found is not None
            move = found
        game.push(move)
    return game


def stored_game(store: GameStore, plies: int) -> int:
    """A finished game of ``plies`` plies in ``store`` (the first seed whose
    game lasts that long; a few seeds at most)."""
    seed = 0
    while len((game := played(plies, seed)).moves) < plies:
        seed += 1
    game_id = store.new_game("falcon", game.start_fen, "Ann", "Bob", "two-players", time.time())
    replay = Game()
    for ply, move in enumerate(game.moves, start=1):
        store.add_move(game_id, ply, replay.position.uci(move), time.time())
        replay.push(move)
    store.finish(game_id, "1/2-1/2", "draw agreed", time.time())
    return game_id


def run_phase(
    daemon: Daemon, board: SimBoard, seconds: float, every: float, watch: Reviewer | None
) -> tuple[list[float], list[tuple[float, int]]]:
    """The loop as :meth:`Daemon.run` runs it, a pawn moved e2-e4 and back;
    the step times, and (time, positions done) whenever the review said more."""
    period = 1.0 / LOOP_HZ
    e2, e4 = 14, 34
    steps: list[float] = []
    progress: list[tuple[float, int]] = []
    start = time.monotonic()
    next_touch = start + every
    while (now := time.monotonic()) < start + seconds:
        if now >= next_touch:
            src, dst = (e4, e2) if e4 in board.occupied else (e2, e4)
            board.lift(src)
            board.place(dst)
            next_touch += every
        began = time.perf_counter()
        daemon.step(now)
        steps.append(time.perf_counter() - began)
        if watch is not None and watch.status():
            done = watch.status()[0].done
            if done and (not progress or progress[-1][1] != done):
                progress.append((time.monotonic(), done))
        spent = time.monotonic() - now
        if spent < period:
            time.sleep(period - spent)
    return steps, progress


def describe(name: str, steps: list[float]) -> None:
    ordered = sorted(steps)
    p99 = ordered[int(len(ordered) * 0.99) - 1]
    late = sum(step > 1.0 / LOOP_HZ for step in steps)
    print(
        f"  {name:<22} {len(steps):5d} steps  median {statistics.median(ordered) * 1e3:6.3f} ms"
        f"  p99 {p99 * 1e3:6.3f} ms  max {ordered[-1] * 1e3:7.3f} ms"
        f"  mean {statistics.fmean(ordered) * 1e3:6.3f} ms  over {1e3 / LOOP_HZ:g} ms: {late}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds a phase")
    parser.add_argument("--movetime", type=float, default=1.0, help="the review's s a position")
    parser.add_argument("--plies", type=int, default=40, help="plies of the reviewed game")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between moves")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.sqlite3"
        store = GameStore(db)
        reviewed = stored_game(store, args.plies)
        plies = store.load(reviewed).plies
        config = parse_config({"game": {"mode": "two-players"}, "review": {"at_end": False}})
        start = Game().position
        board = SimBoard(start.geometry.squares(occupancy(start)), scan_hz=LOOP_HZ * 2)
        reviewer = Reviewer(db, Limits(movetime=args.movetime))
        daemon = Daemon(
            config,
            Hardware(board),
            store,
            Services(web=Hub(), reviewer=reviewer),
            now=time.monotonic(),
        )
        try:
            quiet, _ = run_phase(daemon, board, args.seconds, args.every, None)
            reviewer.request(reviewed)
            asked = time.monotonic()
            busy, progress = run_phase(daemon, board, args.seconds, args.every, reviewer)
            finished = [s for s in reviewer.status() if s.game_id == reviewed]
        finally:
            reviewer.close()
            daemon.close()
            store.close()
    print(
        f"Daemon step at {LOOP_HZ} Hz on {os.cpu_count()} cores (load {os.getloadavg()[0]:.1f}), "
        f"a move every {args.every:g} s, {args.seconds:g} s a phase:"
    )
    describe("no review", quiet)
    describe("a review running", busy)
    print(f"  the step that started the review's process: {busy[0] * 1e3:.1f} ms")
    state = finished[0].state if finished else "?"
    print(f"Review of {plies} plies ({plies + 1} positions) at {args.movetime:g} s: {state}")
    if len(progress) >= 2 and progress[-1][1] > progress[0][1]:
        (t0, d0), (t1, d1) = progress[0], progress[-1]
        print(
            f"  the first position done {t0 - asked:.2f} s after it was asked for "
            "(the process's start-up, then one search)"
        )
        print(f"  then {(t1 - t0) / (d1 - d0):.3f} s a position ({d1 - d0} positions)")


if __name__ == "__main__":
    main()
