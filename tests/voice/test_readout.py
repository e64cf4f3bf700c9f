"""Long answers in parts a player steps through or stops, never silently cut.

The square-by-square readout of the start position lasted 61.3 s at the
default rate (121 s at the slowest), and the speech engine stops a text at
60 s: the end of the board was never said.  Now each rank is a part of its
own, said once the one before has been said."""

from __future__ import annotations

import shutil
import threading

import pytest

from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware, Services
from boardctl.hw.sim import SimBoard, SimButtons
from boardctl.rules import Game, get_variant
from boardctl.ui.state import DisplayState
from boardctl.voice import engines, words
from boardctl.voice.engines import SAY_TIMEOUT, Espeak, SpeechError
from boardctl.voice.readout import Readout

from ..daemon_fakes import MemoryStore
from .timed import SLOWEST, TimedVoice, spoken_seconds

espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (make system-deps)"
)
STEP = 0.01


def start(variant: str) -> DisplayState:
    return DisplayState.from_game(Game(get_variant(variant)))


@espeak
@pytest.mark.parametrize("variant", ["falcon", "falcon-10x10", "falcon-hex"])
def test_every_part_of_the_fullest_boards_is_said_within_the_engines_limit(variant):
    state = start(variant)
    for parts, whole in (
        (words.squares_parts(state), words.squares_words(state)),
        (words.pieces_parts(state), words.pieces_words(state)),
    ):
        assert " ".join(parts) == whole
        longest = max(spoken_seconds(part, SLOWEST) for part in parts)
        assert longest < SAY_TIMEOUT, longest
    # Whole, the squares are longer than the engine may speak one text.
    assert spoken_seconds(words.squares_words(state), SLOWEST) > SAY_TIMEOUT


def test_the_same_question_steps_on_and_another_starts_afresh():
    reading = Readout("squares", ("Rank 8: …", "Rank 7: …", "Rank 1: …"))
    assert reading.asked_again("squares", reading.parts).part == "Rank 7: …"
    last = Readout("squares", reading.parts, 2)
    assert last.on() is None and last.asked_again("squares", reading.parts).at == 0
    assert reading.asked_again("pieces", ("White: …", "Black: …")).part == "White: …"


class Table:
    """A daemon whose voice takes as long as espeak-ng at the slowest rate."""

    def __init__(self) -> None:
        pos = Game().position
        self.geo = pos.geometry
        self.board = SimBoard(pos.geometry.squares(pos.colors[0] | pos.colors[1]))
        self.buttons = SimButtons()
        self.now = 0.0
        self.voice = TimedVoice(lambda: self.now)
        config = parse_config({"game": {"mode": "two-players"}})
        self.daemon = Daemon(
            config,
            Hardware(self.board, buttons=self.buttons),
            MemoryStore(),
            Services(speaker=self.voice),
        )
        self.run(0.2)

    def run(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.daemon.step(self.now)
            self.now = round(self.now + STEP, 6)

    def press(self, name: str) -> None:
        self.buttons.press(name, self.now)
        self.run(0.05)

    def texts(self) -> list[str]:
        return [s.text for s in self.voice.said]


@espeak
def test_the_squares_are_said_rank_by_rank_to_the_end_none_cut():
    table = Table()
    table.press("squares")
    table.run(150.0)  # 121 s of words at 80 words a minute
    ranks = list(words.squares_parts(table.daemon.status()))
    assert table.texts()[-len(ranks) :] == ranks
    assert table.voice.cut == [] and not table.voice.busy()
    assert all(s.end - s.start < SAY_TIMEOUT for s in table.voice.said)


@espeak
def test_a_player_steps_through_the_parts_hears_one_again_and_stops():
    table = Table()
    ranks = list(words.squares_parts(table.daemon.status()))
    table.press("squares")
    assert table.texts()[-1] == ranks[0]
    table.press("squares")  # on to the next rank at once
    assert table.texts()[-1] == ranks[1]
    table.press("repeat")  # that rank again, then on
    assert table.texts()[-1] == ranks[1]
    said = len(table.texts())
    while len(table.texts()) == said:
        table.run(1.0)
    assert table.texts()[-1] == ranks[2]
    table.press("clocks")  # anything else stops the readout
    table.run(60.0)
    assert table.texts()[-1] == "No clocks."


@espeak
def test_a_move_on_the_board_stops_the_readout():
    table = Table()
    table.press("squares")
    table.board.lift(table.geo.parse_square("e2"))
    table.run(0.2)
    table.board.place(table.geo.parse_square("e4"))
    table.run(60.0)
    assert table.texts()[-1] == "White, pawn e2 to e4."


def test_a_text_stopped_at_the_time_limit_is_said_to_be_cut(tmp_path, monkeypatch):
    """A hung audio device: the text is stopped, and that is logged, not silent."""
    program = tmp_path / "espeak-ng"
    program.write_text("#!/bin/sh\nexec sleep 30\n")
    program.chmod(0o755)
    monkeypatch.setattr(engines, "SAY_TIMEOUT", 0.2)
    with pytest.raises(SpeechError, match=r"stopped after 0.2 s"):
        Espeak(program=str(program)).say("Rank 8: a8 black rook.", threading.Event())
