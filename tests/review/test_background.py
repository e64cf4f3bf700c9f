"""A stored game reviewed in a process of its own: kept in the store when it
is done, at a lower priority, stopped cleanly, and never half-written."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from boardctl.review.background import NICENESS, Reviewer
from boardctl.storage.store import GameStore

from .fakes import gated
from .games import LIMITS, MISSES_MATE, QUIET, stored

WAIT = 60.0  # seconds a review's process may take (a loaded machine starts Python slowly)


def until(reviewer: Reviewer, done: Callable[[], bool], what: str) -> list:
    """Step ``reviewer`` as the daemon's loop does until ``done()``; every status seen."""
    seen = []
    deadline = time.monotonic() + WAIT
    while not done():
        assert time.monotonic() < deadline, f"{what}: {reviewer.status()}"
        if reviewer.step():
            seen.append(reviewer.status())
        time.sleep(0.01)
    return seen


def states(reviewer: Reviewer) -> dict[int, str]:
    return {status.game_id: status.state for status in reviewer.status()}


def test_reviews_run_in_turn_and_a_finished_games_is_kept_with_it(tmp_path):
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        unfinished = stored(store, *QUIET, result=None)
        blunder = stored(store, *MISSES_MATE, result="0-1")
    reviewer = Reviewer(db, LIMITS)
    try:
        reviewer.request(unfinished)
        reviewer.request(blunder)
        reviewer.request(unfinished)  # asked again while it waits: once is enough
        seen = until(reviewer, lambda: states(reviewer).get(blunder) == "done", "no review")
    finally:
        reviewer.close()
    assert [s.game_id for s in reviewer.status()] == [blunder, unfinished]  # the latest first
    failed = reviewer.status()[1]
    assert failed.state == "failed" and "has not ended" in failed.note
    # The page was told how far it had got (of the start and two moves; a
    # step may hear of two positions at once).
    progress = [s[0] for s in seen if s[0].game_id == blunder and s[0].state == "running"]
    told = [(s.done, s.total) for s in progress if s.total]
    assert told[-1] == (3, 3) and told == sorted(set(told)) and {t for _, t in told} == {3}
    with GameStore(db, create=False) as store:
        review = store.load(blunder).review
        assert review is not None and [p.nag for p in review.positions] == [None, 4, None]
        assert "1. a3 $4 {Better: Re8# (#1)}" in store.pgn(blunder)
        assert store.load(unfinished).review is None


def gate_files(tmp_path: Path) -> tuple[Path, Path]:
    return tmp_path / "gate", tmp_path / "started"


def held_back(tmp_path: Path) -> tuple[Reviewer, int, Path, Path]:
    """A reviewer whose review of a finished game waits at a gate, started.

    Its review runs niced: on a machine at load 20 it was given too little of
    the CPU to end in the daemon's STOP_WAIT (2 s) and was killed, so a stop
    here may take as long as a review may take to start."""
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        game_id = stored(store, *MISSES_MATE, result="0-1")
    gate, started = gate_files(tmp_path)
    reviewer = Reviewer(
        db, LIMITS, analyser=functools.partial(gated, str(gate), str(started)), stop_wait=WAIT
    )
    reviewer.request(game_id)
    until(reviewer, started.exists, "the review did not start")
    return reviewer, game_id, gate, db


def test_the_review_runs_at_a_lower_priority_and_stops_cleanly_when_the_board_does(tmp_path):
    reviewer, game_id, _gate, db = held_back(tmp_path)
    pid = reviewer.pid
    assert pid is not None and pid != os.getpid()
    assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.nice(0) + NICENESS)
    process = reviewer._run.process  # type: ignore[union-attr]
    reviewer.close()  # the board shuts down mid-review
    assert not process.is_alive()
    assert process.exitcode == 0  # it heard the stop and ended: it was not killed
    with GameStore(db, create=False) as store:
        assert store.load(game_id).review is None


def test_a_review_of_a_game_that_changed_is_dropped(tmp_path):
    reviewer, game_id, _gate, db = held_back(tmp_path)
    try:
        reviewer.cancel(game_id)  # a move taken back, say
        assert states(reviewer) == {}
        process = reviewer._run.process  # type: ignore[union-attr]
        until(reviewer, lambda: reviewer.pid is None, "the dropped review did not end")
        assert process.exitcode == 0 and reviewer.status() == ()
    finally:
        reviewer.close()
    with GameStore(db, create=False) as store:
        assert store.load(game_id).review is None


WRITER = Path(__file__).with_name("review_writer_child.py")


def test_a_review_killed_while_it_is_written_leaves_the_earlier_one_whole(tmp_path):
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        game_id = stored(store, *MISSES_MATE, result="0-1")
    # The first review is written whole; the second stops half-way through its rows.
    for stall in ("no", "yes"):
        child = subprocess.Popen(
            [sys.executable, str(WRITER), str(db), str(game_id), stall],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        line = child.stdout.readline().strip()
        if stall == "yes":
            assert line == "half written"
            child.kill()
        assert child.wait(WAIT) in (0, -9)
    with GameStore(db, create=False) as store:
        review = store.load(game_id).review
        assert review is not None and review.movetime == 1.0  # the first one's
        assert [p.nag for p in review.positions] == [None, 4, None]
        assert store.load(game_id).plies == 2
