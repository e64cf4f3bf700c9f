"""A teaching game in the simulator, with the built-in engine as the coach.

Wired by :func:`boardctl.daemon.wiring.build` as ``boardctl sim --mode
teaching`` wires it: the window (its screen drawn at 480x320), the store,
the coach's own engine process and the board's voice (a recorder).  One
hand plays both sides with the mouse.  White's knight goes where a pawn
takes it; the coach says so on the banner and aloud, lights the knight and
the square it came from, and taking it back restores the position.  The
moves before it get no word.  The coach searches each position for less than
the daemon's second (the engine is the same), so the test is quick.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack

import pytest

from boardctl.board import Role
from boardctl.config import parse_config
from boardctl.daemon import coach
from boardctl.daemon import wiring as app
from boardctl.daemon.parts import Services
from boardctl.engine import Limits
from boardctl.engine.worker import EngineWorker
from boardctl.voice.speaker import Recorder

from .helpers import WAIT, sq
from .simtable import DT, WindowTable

# A position's search here: a depth CI's faster machine reached in 0.4 s, which
# ours reaches in a second (a hanging knight shows at 3).
COACH_LIMITS = Limits(depth=8)


class Table(WindowTable):
    """The simulator in teaching mode; virtual time, a real engine process."""

    def __init__(self, stack: ExitStack, monkeypatch: pytest.MonkeyPatch) -> None:
        config = parse_config({"game": {"mode": "teaching"}, "speech": {"enabled": True}})
        # The coach's engine is the one the hints use, made as for an engine game.
        monkeypatch.setattr(
            app,
            "make_opponent",
            # The adviser is made without the opening's variety (vary=False):
            # the coach's verdict is the same on every run.
            lambda cfg, vary=True: (
                EngineWorker(cfg.engine.skill, vary=vary) if cfg.game.mode == "engine" else None
            ),
        )
        self.voice = Recorder()
        super().__init__(stack, config, Services(speaker=self.voice))

    def move(self, frm: str, to: str) -> None:
        self.click(sq(frm))
        self.click(sq(to))
        self.run(0.5)  # the board settles and the move is made

    def settled(self, done: Callable[[], bool]) -> None:
        """Run until the coach has judged the last move and ``done`` holds
        (the engine runs in real time, the loop in virtual time)."""
        deadline = time.monotonic() + WAIT
        while not (self.daemon.top.players.coach._judging is None and done()):
            assert time.monotonic() < deadline, f"stuck: {self.daemon.status().prompt!r}"
            self.run(DT)
            time.sleep(0.005)


def test_a_knight_left_to_a_pawn_is_warned_about_and_taken_back(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    monkeypatch.setattr(coach, "COACH_LIMITS", COACH_LIMITS)
    with ExitStack() as stack:
        table = Table(stack, monkeypatch)
        daemon = table.daemon
        table.run(0.5)
        for frm, to in (("b1", "c3"), ("e7", "e6")):  # good moves: no word
            table.move(frm, to)
            table.settled(lambda: True)
            assert daemon.status().prompt == ""
        before = daemon.game.position.fen()
        table.move("c3", "d5")  # the pawn on e6 takes it
        table.settled(lambda: daemon.status().prompt != "")
        state = daemon.status()
        assert state.prompt_kind == "coach"
        assert state.prompt.startswith("That move loses a knight: ")
        assert state.prompt.endswith(" was better. Take it back?")
        assert table.voice.said[-1].startswith("That move loses a knight: ")
        assert table.window.renderer.cut == []  # the banner says it all at 480x320
        lit = {sq: role for sq, role in daemon.scene().squares.items()}
        assert lit == {sq("d5"): Role.HINT_FROM, sq("c3"): Role.HINT_TO}
        table.move("d5", "c3")
        assert daemon.game.position.fen() == before
        assert daemon.status().prompt == "" and daemon.scene().squares == {}
        assert table.voice.said[-1] == "Move taken back."
