"""The page's restart ends the daemon's loop as SIGTERM does, and the moves
made before it are in the store for the next start to resume."""

from __future__ import annotations

from pathlib import Path

from boardctl.storage.store import GameStore
from boardctl.web.snapshot import WebAction

from ..web.helpers import SimGame

OPENING = ("e2e4", "e7e5", "d2d4", "d7d6")
MAX_TURNS = 1000  # the loop must end well before: a turn or two after the action


class Turns:
    """A virtual clock for :meth:`Daemon.run` that refuses to go on for ever."""

    def __init__(self, start: float) -> None:
        self.now = start
        self.turns = 0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.turns += 1
        assert self.turns < MAX_TURNS, "the loop did not end"
        self.now += seconds


def test_the_restart_action_ends_the_loop_and_the_moves_are_stored(tmp_path: Path):
    sim = SimGame(tmp_path / "games.sqlite")
    for uci in OPENING:
        sim.move(uci)
    assert len(sim.daemon.game.moves) == len(OPENING)
    assert not sim.daemon.restart
    sim.hub.request(WebAction("restart"))
    turns = Turns(sim.now)
    sim.daemon.run(turns.clock, turns.sleep)
    assert sim.daemon.stopping and sim.daemon.restart
    sim.close()
    with GameStore(tmp_path / "games.sqlite") as store:
        found = store.resume_stored()
    assert found is not None
    stored, game = found
    assert stored.id == sim.daemon.game_id
    assert len(game.moves) == len(OPENING)


def test_other_actions_do_not_end_the_loop(tmp_path: Path):
    sim = SimGame(tmp_path / "games.sqlite")
    sim.hub.request(WebAction("draw"))
    sim.run(0.5)
    assert not sim.daemon.stopping and not sim.daemon.restart
    sim.close()
