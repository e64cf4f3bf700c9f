"""The daemon reviews a game when it ends (or when the page asks), in a
process of its own, while the board plays on."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from pathlib import Path

from boardctl.engine.worker import EngineWorker
from boardctl.review.background import Reviewer
from boardctl.rules import Game, parse_uci, san
from boardctl.web.snapshot import WebAction

from ..web.helpers import SimGame
from .fakes import gated
from .games import LIMITS, QUEEN_LOST

WAIT = 60.0  # real seconds a review's or an engine's process may take on a loaded machine


def state_of(sim: SimGame, game_id: int) -> str | None:
    """What the page is told of ``game_id``'s review."""
    for status in sim.hub.latest.reviews or ():
        if status.game_id == game_id:
            return status.state
    return None


def play_until(sim: SimGame, done: Callable[[], bool], what: str) -> int:
    """Step the daemon's loop (10 ms of virtual time a step) until ``done()``,
    letting the other processes work in between; the steps it took."""
    deadline = time.monotonic() + WAIT
    steps = 0
    while not done():
        assert time.monotonic() < deadline, f"{what} ({sim.hub.latest.reviews})"
        sim.run(0.01)
        steps += 1
        time.sleep(0.005)
    return steps


def test_a_game_that_ends_is_reviewed_and_its_blunder_marked_at_its_ply(tmp_path: Path):
    db = tmp_path / "games.sqlite3"
    sim = SimGame(db, reviewer=Reviewer(db, LIMITS))  # [review] at_end is on by default
    try:
        for uci in QUEEN_LOST:
            sim.move(uci)
        game_id = sim.hub.latest.game_id
        assert (
            sim.daemon.top.record.reviewer is not None
            and sim.daemon.top.record.reviewer.status() == ()
        )
        sim.hub.request(WebAction("resign"))  # White, to move, resigns
        play_until(sim, lambda: state_of(sim, game_id) == "done", "the review did not land")
        stored = sim.store.load(game_id)
        assert stored.result == "0-1" and stored.review is not None
        assert [p.nag for p in stored.review.positions] == [None, None, None, 4, None]
        assert stored.review.positions[2].best not in (None, "e1j6")
        game = Game()
        for uci in QUEEN_LOST[:2]:
            game.push_text(uci)
        queen = san(game.position, parse_uci(game.position, "e1j6"))
        assert f"2. {queen} $4 {{Better: " in sim.store.pgn(game_id)
    finally:
        sim.close()


def test_without_review_at_the_end_the_page_can_still_ask_for_one(tmp_path: Path):
    db = tmp_path / "games.sqlite3"
    reviewer = Reviewer(db, LIMITS)
    sim = SimGame(db, reviewer=reviewer, review={"at_end": False})
    try:
        for uci in QUEEN_LOST:
            sim.move(uci)
        game_id = sim.hub.latest.game_id
        sim.hub.request(WebAction("draw"))
        sim.run(0.5)
        assert reviewer.pid is None and sim.hub.latest.reviews == ()
        sim.hub.request(WebAction("review", game_id))
        play_until(sim, lambda: state_of(sim, game_id) == "done", "the review did not land")
        review = sim.store.load(game_id).review
        assert review is not None and review.positions[3].nag == 4
    finally:
        sim.close()


def carry_out_the_engines_move(sim: SimGame) -> str:
    """Wait for the engine's move to show, then make it on the board."""
    play_until(sim, lambda: sim.hub.latest.engine_move is not None, "the engine did not move")
    frm, to = sim.hub.latest.engine_move  # type: ignore[misc]
    uci = sim.geo.name(frm) + sim.geo.name(to)
    sim.move(uci)
    return uci


def test_a_new_game_against_the_engine_goes_on_while_the_last_one_is_reviewed(tmp_path: Path):
    db = tmp_path / "games.sqlite3"
    gate, started = tmp_path / "gate", tmp_path / "started"
    reviewer = Reviewer(db, LIMITS, analyser=functools.partial(gated, str(gate), str(started)))
    opponent = EngineWorker(seed=0)
    sim = SimGame(
        db,
        opponent=opponent,
        reviewer=reviewer,
        game={"mode": "engine", "human": "white"},
        engine={"movetime": 0.1},
    )
    try:
        sim.move("e2e4")
        reply = carry_out_the_engines_move(sim)
        first = sim.hub.latest.game_id
        sim.hub.request(WebAction("resign"))
        play_until(sim, started.exists, "the review did not start")
        assert reviewer.pid is not None and reviewer.pid != opponent._process.pid
        # The pieces back where they began: a new game, against the engine again.
        for square in ("e4", reply[2:]):
            sim.board.lift(sim.geo.parse_square(square))
        for square in ("e2", reply[:2]):
            sim.board.place(sim.geo.parse_square(square))
        sim.run(4.0)  # held still for the new game's 3 s
        second = sim.hub.latest.game_id
        assert second != first
        steps = 0
        for move in ("d2d4", "c2c3"):
            sim.move(move)
            steps += play_until(sim, lambda: sim.hub.latest.engine_move is not None, "no reply")
            carry_out_the_engines_move(sim)
        # The loop stepped on and the engine answered, all while the review waited.
        assert state_of(sim, first) == "running" and not gate.exists() and steps > 0
        assert len(sim.store.load(second).moves) == 4
        gate.touch()
        play_until(sim, lambda: state_of(sim, first) == "done", "the review did not land")
        assert sim.store.load(first).review is not None
        assert sim.store.load(second).review is None and len(sim.store.load(second).moves) == 4
    finally:
        sim.close()
        opponent.close()


class ListeningReviewer:
    """Hears what the daemon asks of its reviewer, and runs nothing."""

    def __init__(self) -> None:
        self.asked: list[int] = []
        self.dropped: list[int] = []

    def request(self, game_id: int) -> None:
        self.asked.append(game_id)

    def cancel(self, game_id: int) -> None:
        self.dropped.append(game_id)

    def step(self) -> bool:
        return False

    def status(self) -> tuple[()]:
        return ()

    def close(self) -> None:
        pass


def test_a_move_taken_back_drops_the_games_review_and_an_abandoned_game_gets_none(tmp_path):
    reviewer = ListeningReviewer()
    sim = SimGame(tmp_path / "games.sqlite3", reviewer=reviewer)  # type: ignore[arg-type]
    try:
        sim.move("e2e4")
        game_id = sim.hub.latest.game_id
        sim.move("e4e2")  # taken back
        assert reviewer.dropped == [game_id] and reviewer.asked == []
        sim.move("e2e4")
        sim.hub.request(WebAction("newgame"))  # abandoned: not worth a review
        sim.run(0.1)
        assert sim.store.load(game_id).termination == "abandoned" and reviewer.asked == []
    finally:
        sim.close()
