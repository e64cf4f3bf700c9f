"""Every prompt said aloud against the wait it belongs to, at the slowest rate
the configuration allows (80 words a minute), with each text as long as
espeak-ng renders it: the board never decides for the player, nor says the
next thing, while the player is still hearing what to do.  Each wait starts
when the voice has finished (Daemon._hold).

On main before this, the promotion's words (19.3 s at 80 words a minute,
9.5 s at the default 160) were cut at 5 s by "…becomes a queen"; the hold of
the start position, the notice of a new level and the pause after a
takeback ended while their words were being said."""

from __future__ import annotations

import shutil
from collections.abc import Callable

import pytest

from boardctl.board import NewGame
from boardctl.config import parse_config
from boardctl.daemon.loop import NOTICE_SECONDS, Daemon
from boardctl.daemon.parts import Hardware, Services, Start
from boardctl.daemon.tabletop import TAKEBACK_PAUSE
from boardctl.hw.sim import SimBoard, SimButtons
from boardctl.rules import Game

from ..daemon_fakes import MemoryStore, ScriptedOpponent
from .timed import SLOWEST, Said, TimedVoice

pytestmark = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (make system-deps)"
)

STEP = 0.01
ENGINE_BLACK = {"game": {"mode": "engine", "human": "white"}}
TWO_PLAYERS = {"game": {"mode": "two-players"}}


class Table:
    """A daemon on a simulated board whose voice takes real speech's time."""

    def __init__(self, sections, fen: str | None = None, opponent=None, rate=SLOWEST) -> None:
        self.config = parse_config(sections)
        game = Game(fen=fen)
        pos = game.position
        self.geo = pos.geometry
        self.board = SimBoard(pos.geometry.squares(pos.colors[0] | pos.colors[1]))
        self.buttons = SimButtons()
        self.now = 0.0
        self.voice = TimedVoice(lambda: self.now, rate)
        self.store = MemoryStore()
        self.store.new_game("falcon", game.start_fen, "a", "b", "x", 0)
        self.daemon = Daemon(
            self.config,
            Hardware(self.board, buttons=self.buttons),
            self.store,
            Services(opponent=opponent, speaker=self.voice),
            Start(resume=(1, game)),
        )
        self.events: list[tuple[float, object]] = []
        self.run(0.2)

    def run(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.events += [(self.now, e) for e in self.daemon.step(self.now)]
            self.now = round(self.now + STEP, 6)

    def until(self, done: Callable[[], bool], limit: float) -> float:
        """Step until ``done``; the time it first held."""
        end = self.now + limit
        while not done():
            assert self.now < end, "never happened"
            self.run(STEP)
        return self.now

    def lift(self, square: str) -> None:
        self.board.lift(self.geo.parse_square(square))
        self.run(0.2)

    def place(self, square: str) -> None:
        self.board.place(self.geo.parse_square(square))

    def move(self, frm: str, to: str) -> None:
        self.lift(frm)
        self.place(to)
        self.run(1.0)

    def heard_whole(self, said: Said) -> None:
        assert said not in self.voice.cut, f"{said.text!r} was cut at {said.end:.2f} s"


@pytest.mark.parametrize("rate", [SLOWEST, 160])  # the slowest allowed, the default
def test_the_promotion_waits_for_its_words_to_be_said_once_and_whole(rate):
    fen = "k9/3P6/10/p9/10/10/10/9K w - - 0 1"
    table = Table(ENGINE_BLACK, fen, ScriptedOpponent([]), rate)
    table.lift("d7")
    table.place("d8")
    made = table.until(lambda: bool(table.store.moves(1)), 60.0)
    prompt = table.voice.one("Choose the new piece")
    # Each option once, then the one lit (6.1 s at 160 words a minute, 12.3 s
    # at 80; with the list said twice, 9.5 s and 19.3 s).
    assert prompt.text == (
        "Choose the new piece: queen, falcon, rook, bishop or knight. Queen is highlighted."
    )
    table.heard_whole(prompt)
    wait = table.daemon.reconciler.config.promotion_wait
    assert made >= prompt.end + wait  # the wait began when the words ended
    assert table.store.moves(1) == ["d7d8q"]


def test_a_piece_highlighted_is_said_and_the_wait_starts_again_after_it():
    table = Table(ENGINE_BLACK, "k9/3P6/10/p9/10/10/10/9K w - - 0 1", ScriptedOpponent([]))
    table.lift("d7")
    table.place("d8")
    table.run(1.0)  # settled: the choice is asked, and said
    table.until(lambda: not table.voice.busy(), 30.0)
    table.buttons.press("next", table.now)
    table.run(0.1)
    lit = table.voice.said[-1]
    assert lit.text == "Falcon."
    made = table.until(lambda: bool(table.store.moves(1)), 30.0)
    assert made >= lit.end + table.daemon.reconciler.config.promotion_wait
    assert table.store.moves(1) == ["d7d8f"]


def test_the_start_position_is_kept_for_a_new_game_once_its_words_are_said():
    table = Table(TWO_PLAYERS)
    table.move("e2", "e4")
    table.move("e7", "e5")
    start = Game().position
    table.board.set_occupancy(start.colors[0] | start.colors[1])  # the pieces set up again
    began = table.until(lambda: any(isinstance(e, NewGame) for _, e in table.events), 60.0)
    prompt = table.voice.one("Keep the start position")
    assert prompt.text == "Keep the start position for 3 seconds for a new game."
    table.heard_whole(prompt)
    assert began >= prompt.end + table.daemon.reconciler.config.new_game_hold


def test_a_notice_stays_on_the_screen_while_it_is_said_and_after():
    table = Table(ENGINE_BLACK, opponent=ScriptedOpponent([]))
    table.buttons.press("next", table.now)  # the engine's level, one up
    table.run(0.1)
    notice = table.voice.one("Engine level")
    assert table.daemon.status().prompt.startswith("Engine level")
    gone = table.until(lambda: not table.daemon.status().prompt, 60.0)
    table.heard_whole(notice)
    assert gone >= notice.end + NOTICE_SECONDS


def test_the_engine_waits_to_move_again_until_the_takeback_is_said():
    table = Table(ENGINE_BLACK, opponent=ScriptedOpponent(["e7e5", "d7d5"]))
    table.move("e2", "e4")
    table.move("e7", "e5")  # the engine's move, carried out
    table.move("e5", "e7")  # and taken back: the engine moves again
    taken = table.voice.one("Move taken back")
    again = table.until(lambda: table.daemon.reconciler.engine_move is not None, 30.0)
    table.heard_whole(taken)
    assert again >= taken.end + TAKEBACK_PAUSE
