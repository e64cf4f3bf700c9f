"""The daemon speaks beside its loop: what it says as a game is played, the
questions a player asks with the buttons, muting, and the page's copy."""

from __future__ import annotations

import threading

import pytest

from boardctl.config import parse_config
from boardctl.daemon.loop import Daemon
from boardctl.daemon.parts import Hardware, Services
from boardctl.hw.sim import SimBoard, SimButtons
from boardctl.rules import Game
from boardctl.voice.speaker import Recorder, Speaker

from .. import hand
from ..daemon_fakes import MemoryStore, ScriptedOpponent

ENGINE_BLACK = parse_config({"game": {"mode": "engine", "human": "white"}})


class Table(hand.Table):
    """A daemon on a simulated board whose speaker records what it is given
    (in order, in the loop's thread: the speaker's own thread would drop a
    text made stale by the next), stepped in virtual time."""

    def __init__(self, config=ENGINE_BLACK, opponent=None) -> None:
        pos = Game().position
        self.board = SimBoard(pos.geometry.squares(pos.colors[0] | pos.colors[1]))
        self.buttons = SimButtons()
        self.engine = self.speaker = Recorder()
        self.daemon = Daemon(
            config,
            Hardware(self.board, buttons=self.buttons),
            MemoryStore(),
            Services(opponent=opponent, speaker=self.speaker),
        )
        self.geo = pos.geometry

    def press(self, name: str) -> str:
        said = len(self.engine.said)
        self.buttons.press(name, self.now)
        self.run(0.1)
        return " ".join(self.engine.said[said:])

    @property
    def said(self) -> list[str]:
        return self.engine.said


def test_a_game_against_the_engine_is_said_move_by_move():
    table = Table(opponent=ScriptedOpponent(["e7e5"]))
    table.move("e2", "e4")
    table.run(1.0)
    # The scripted engine answers at once: one utterance says both.
    assert " ".join(table.said) == "Pawn e2 to e4. Engine plays pawn e7 to e5."
    table.move("e7", "e5")  # carried out: not said again
    assert " ".join(table.said).count("e7 to e5") == 1
    # The page has the same words, numbered.
    snap = table.daemon.snapshot()
    assert (snap.said_seq, snap.said) == table.daemon.voice.said == (1, table.said[-1])


def test_a_fix_is_said():
    table = Table(parse_config({"game": {"mode": "two-players"}}))
    table.board.lift(table.geo.parse_square("c1"))
    table.run(0.2)
    table.board.place(table.geo.parse_square("c4"))  # no bishop move reaches it
    table.run(3.0)
    assert table.said[-1] == "Move the bishop from c4 back to c1.", table.said


def test_the_buttons_ask_and_the_board_answers():
    table = Table(parse_config({"game": {"mode": "two-players", "clock": "5+0"}}))
    table.move("e2", "e4")
    assert table.press("last") == "Last move: White, pawn e2 to e4."
    assert table.press("turn") == "Black to move."
    # White's clock starts with Black's first move.
    assert table.press("clocks").startswith("White has 5 minutes, Black has 4 minutes 5")
    assert table.press("pieces").startswith("White: king f1;")
    # "ok" with nothing to choose: a lifted piece's moves, else the screen again.
    table.board.lift(table.geo.parse_square("b8"))
    table.run(0.5)
    assert table.press("ok") == "Knight b8: a6 or c6."
    table.board.place(table.geo.parse_square("b8"))
    table.run(0.5)
    assert table.press("ok") == "Black to move."


def test_mute_silences_the_board_but_not_the_page():
    table = Table(parse_config({"game": {"mode": "two-players"}}))
    table.press("mute")
    before = list(table.said)
    table.move("e2", "e4")
    assert table.said == before
    assert table.daemon.snapshot().said == "White, pawn e2 to e4."
    assert table.press("mute") == "Speech on."
    table.move("e7", "e5")
    assert table.said[-1] == "Black, pawn e7 to e5."


class Blocking:
    """An engine whose saying lasts until it is cancelled or released."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.cut: list[str] = []
        self.release = threading.Event()
        self.saying = threading.Semaphore(0)

    def say(self, text: str, cancel: threading.Event) -> None:
        self.started.append(text)
        self.saying.release()
        while not self.release.is_set():
            if cancel.wait(0.01):
                self.cut.append(text)
                return


@pytest.fixture
def saying_one():
    """A speaker on a :class:`Blocking` engine, saying "one" (and closed after)."""
    engine = Blocking()
    speaker = Speaker(engine)
    speaker.say("one")
    try:
        assert engine.saying.acquire(timeout=5.0)
        yield engine, speaker
    finally:
        speaker.close()


def test_a_new_text_cuts_a_stale_one_short_and_the_caller_never_waits(saying_one):
    engine, speaker = saying_one
    # These return at once although "one" is still being said.
    speaker.say("two")
    speaker.say("three")
    assert engine.saying.acquire(timeout=5.0)
    while engine.started[-1] != "three":  # "two" may have begun, and been cut
        assert engine.saying.acquire(timeout=5.0)
    assert speaker.idle(0.2) is False  # "three" is being said
    engine.release.set()
    assert speaker.idle(5.0)
    assert engine.cut == engine.started[:-1] and engine.started[0] == "one"
    assert "three" not in engine.cut


def test_muting_cuts_the_text_short_and_drops_what_follows(saying_one):
    engine, speaker = saying_one
    speaker.mute(True)
    speaker.say("two")
    assert speaker.idle(5.0)
    assert engine.started == ["one"] and engine.cut == ["one"]


def test_speech_configured_is_a_speaker_beside_the_loop_or_one_warning(
    tmp_path, monkeypatch, caplog
):
    """[speech] enabled: the daemon gets a Speaker; without espeak-ng the board
    says once why it stays silent, and plays on."""
    from contextlib import ExitStack

    from boardctl.daemon import wiring

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    config = parse_config(
        {"game": {"mode": "two-players"}, "speech": {"enabled": True, "rate": 200}}
    )
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "espeak-ng").write_text("#!/bin/sh\nexit 0\n")
    (fake / "espeak-ng").chmod(0o755)
    monkeypatch.setenv("PATH", str(fake))
    with ExitStack() as stack:
        daemon = wiring.build(config, stack, now=0.0)
        speaker = daemon.voice.speaker
        assert isinstance(speaker, Speaker)
        assert speaker.engine.command("x")[:7] == [
            str(fake / "espeak-ng"),
            "-v",
            "en",
            "-s",
            "200",
            "-a",
            "100",
        ]
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    with ExitStack() as stack:
        daemon = wiring.build(config, stack, now=0.0)
        assert daemon.voice.speaker is None
        daemon.step(0.0)
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("espeak-ng is not installed" in w and "stays silent" in w for w in warnings)
