"""The XBoard client: against a fake engine always, against Fairy-Max where installed.

The fake (``fake_xboard.py`` beside this file) is started as a subprocess and
logs every line it receives, so the tests read what the client said to it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from boardctl.engine.xboard import (
    CLOCK_FACTOR,
    DEFAULT_PATH,
    EngineError,
    EngineTimeoutError,
    FairyMax,
    NoMoveError,
    RejectedMoveError,
)
from boardctl.rules import (
    BoardctlError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    get_variant,
    parse_uci,
)

FAKE = str(Path(__file__).with_name("fake_xboard.py"))
HAVE_FAIRYMAX = os.access(DEFAULT_PATH, os.X_OK)
needs_fairymax = pytest.mark.skipif(
    not HAVE_FAIRYMAX,
    reason=f"Fairy-Max is not installed ({DEFAULT_PATH}, Debian package fairymax)",
)

# Generous waits for what must work (a slow CI machine must not fail it), short
# ones for the waits that are meant to run out.
WORKING = 60.0  # as for test_external.py: a Python engine took over 10 s to start at load 20
HANG = 0.3


def fake(tmp_path: Path, mode: str = "normal", *extra: str, timeout: float = WORKING) -> FairyMax:
    args = [FAKE, "--mode", mode, "--log", str(tmp_path / "received.log"), *extra]
    return FairyMax(sys.executable, args=args, timeout=timeout, move_slack=WORKING)


def expect_hangs(engine: FairyMax) -> None:
    engine.timeout = engine.move_slack = HANG


def received(tmp_path: Path) -> list[str]:
    return (tmp_path / "received.log").read_text().splitlines()


# ---------------------------------------------------------------- fake engine
def test_handshake_reads_features_and_accepts_each(tmp_path):
    with fake(tmp_path) as engine:
        assert engine.name == "Fake XBoard 0.1"
        assert engine.features["ping"] == "1"
        assert "falcon" in engine.features["variants"].split(",")
    said = received(tmp_path)
    assert said[:2] == ["xboard", "protover 2"]
    for feature in ("myname", "setboard", "ping", "memory", "variants", "option", "done"):
        assert f"accepted {feature}" in said
    assert said[-1] == "quit"


def test_every_new_game_is_followed_by_the_variant_and_force(tmp_path):
    with fake(tmp_path) as engine:
        engine.new_game()
        engine.play_move("e2e4")
        engine.new_game()
        assert engine.moves == []
    said = received(tmp_path)
    starts = [i for i, line in enumerate(said) if line == "new"]
    assert len(starts) == 2
    for i in starts:
        assert said[i + 1 : i + 3] == ["variant falcon", "force"]


def test_moves_are_sent_as_coordinates_and_checked_with_ping(tmp_path):
    with fake(tmp_path) as engine:
        engine.new_game()
        for move in ("e2e4", "f7f5", "f1i1", "b7b8q"):
            engine.play_move(move)
        assert engine.moves == ["e2e4", "f7f5", "f1i1", "b7b8q"]
    said = received(tmp_path)
    i = said.index("f1i1")
    assert said[i + 1].startswith("ping ")


def test_a_refused_move_raises_and_changes_nothing(tmp_path):
    with fake(tmp_path, "normal", "--refuse", "e7e4") as engine:
        engine.new_game()
        engine.play_move("e2e4")
        with pytest.raises(RejectedMoveError) as caught:
            engine.play_move("e7e4")
        assert caught.value.move == "e7e4"
        assert caught.value.reply == "Illegal move:e7e4"
        assert isinstance(caught.value, IllegalMoveError)
        assert isinstance(caught.value, ValueError)
        assert engine.moves == ["e2e4"]
        engine.play_move("e7e5")  # still talking
        assert engine.moves == ["e2e4", "e7e5"]


@pytest.mark.parametrize("text", ["e2 e4", "e2e4\nquit", "", "castle", "E2E4"])
def test_move_text_that_is_not_coordinate_notation_is_never_sent(tmp_path, text):
    with fake(tmp_path) as engine:
        engine.new_game()
        with pytest.raises(InvalidMoveError):
            engine.play_move(text)
    said = received(tmp_path)
    assert said[-2].startswith("ping ") and said[-1] == "quit"  # new_game's, then close's
    assert not {"e2 e4", "e2e4", "castle", "E2E4"} & set(said)
    assert said.count("quit") == 1


def test_go_sets_the_clock_reads_the_move_through_noise_and_returns_to_force(tmp_path):
    with fake(tmp_path, "normal", "--replies", "e7e5,d7d5") as engine:
        engine.new_game()
        engine.play_move("e2e4")
        assert engine.go(0.2) == "e7e5"
        engine.play_move("d2d4")  # the trailing result claim is no refusal
        assert engine.go(0.2) == "d7d5"
        assert engine.moves == ["e2e4", "e7e5", "d2d4", "d7d5"]
    said = received(tmp_path)
    centis = round(0.2 * CLOCK_FACTOR * 100)
    i = said.index("go")
    assert said[i - 3 : i] == ["st 1", f"time {centis}", f"otim {centis}"]
    assert said[i + 1] == "force"


def test_go_needs_a_positive_time_and_a_game(tmp_path):
    with fake(tmp_path) as engine:
        with pytest.raises(EngineError, match="new_game"):
            engine.go(0.1)
        engine.new_game()
        with pytest.raises(ValueError):
            engine.go(0)


@pytest.mark.parametrize(
    "mode, reply",
    [
        ("resign-on-go", "resign"),
        ("mated-on-go", "0-1 {Black mates}"),
    ],
)
def test_a_resignation_or_result_instead_of_a_move(tmp_path, mode, reply):
    with fake(tmp_path, mode) as engine:
        engine.new_game()
        engine.play_move("e2e4")
        with pytest.raises(NoMoveError) as caught:
            engine.go(0.1)
        assert caught.value.reply == reply
        assert engine.running
        engine.ping()  # still talking
        assert engine.moves == ["e2e4"]


def test_an_engine_that_never_answers_times_out_at_the_handshake(tmp_path):
    with pytest.raises(EngineTimeoutError, match="feature done=1"):
        fake(tmp_path, "silent", timeout=HANG)


def timed_out(engine: FairyMax) -> EngineTimeoutError:
    """What ``engine`` (one that hangs on go) raises at go, after a new game
    and e2e4."""
    engine.new_game()
    engine.play_move("e2e4")
    expect_hangs(engine)
    with pytest.raises(EngineTimeoutError) as caught:
        engine.go(0.01)
    return caught.value


def test_an_engine_that_hangs_on_go_times_out_and_is_stopped(tmp_path):
    engine = fake(tmp_path, "hang-on-go")
    try:
        error = timed_out(engine)
        assert isinstance(error, TimeoutError)
        assert isinstance(error, BoardctlError)
        assert not engine.running
        with pytest.raises(EngineError, match="not running"):
            engine.play_move("e7e5")
        engine.close()  # again: harmless
    finally:
        engine.close()


def test_restart_after_a_hang_replays_the_game(tmp_path):
    engine = fake(tmp_path, "hang-on-go")
    try:
        timed_out(engine)
        engine.timeout = WORKING
        engine.restart()
        assert engine.running
        assert engine.moves == ["e2e4"]
    finally:
        engine.close()
    said = received(tmp_path)
    assert said.count("protover 2") == 2
    assert said[-1] == "quit"
    assert "e2e4" in said[said.index("protover 2", 2) :]


def test_an_engine_that_dies_raises_engine_error(tmp_path):
    engine = fake(tmp_path, "die-on-go")
    try:
        engine.new_game()
        with pytest.raises(EngineError, match="exited with code 4") as caught:
            engine.go(0.1)
        assert not isinstance(caught.value, EngineTimeoutError)
        assert not engine.running
    finally:
        engine.close()


def test_an_engine_that_dies_at_start(tmp_path):
    with pytest.raises(EngineError, match="exited with code 3"):
        fake(tmp_path, "die-at-start")


def test_an_engine_without_the_variant_is_refused(tmp_path):
    with pytest.raises(EngineError, match="variant falcon"):
        fake(tmp_path, "no-falcon")


def test_a_missing_binary(tmp_path):
    with pytest.raises(EngineError, match="cannot start") as caught:
        FairyMax(str(tmp_path / "no-such-engine"))
    assert isinstance(caught.value, OSError)
    assert isinstance(caught.value, BoardctlError)


def test_close_is_idempotent_and_start_gives_a_fresh_process(tmp_path):
    engine = fake(tmp_path)
    engine.close()
    engine.close()
    assert not engine.running
    with pytest.raises(EngineError, match="not running"):
        engine.new_game()
    engine.start()
    engine.new_game()
    engine.close()
    assert received(tmp_path).count("quit") == 2


# ---------------------------------------------------------------- Fairy-Max
def referee() -> Game:
    return Game(get_variant("falcon-xboard"))


@needs_fairymax
def test_fairymax_plays_a_legal_reply():
    game = referee()
    with FairyMax() as engine:
        assert engine.name.startswith("Fairy-Max")
        engine.new_game()
        for text in ("e2e4", "e7e5", "i1h3"):
            engine.play_move(text)
            game.push(parse_uci(game.position, text))
        reply = engine.go(0.05)
        game.push(parse_uci(game.position, reply))  # raises if illegal
        assert engine.moves[-1] == reply


@needs_fairymax
def test_fairymax_plays_both_sides_legally_for_a_few_moves():
    game = referee()
    with FairyMax() as engine:
        engine.new_game()
        for _ in range(8):
            reply = engine.go(0.02)
            game.push(parse_uci(game.position, reply))


@needs_fairymax
def test_fairymax_refuses_an_illegal_move_and_keeps_its_game():
    with FairyMax() as engine:
        engine.new_game()
        engine.play_move("e2e4")
        with pytest.raises(RejectedMoveError, match="Illegal move"):
            engine.play_move("e2e4")  # that pawn has gone
        with pytest.raises(RejectedMoveError):
            engine.play_move("e7e4")
        engine.play_move("e7e5")
        assert engine.moves == ["e2e4", "e7e5"]


@needs_fairymax
def test_fairymax_castles_as_the_king_move_the_referee_knows():
    # docs/fairymax-castling.md, "real game from the start position, kingside cleared".
    game = referee()
    with FairyMax() as engine:
        engine.new_game()
        for text in ["g2g4", "g7g5", "g1h4", "g8h5", "h1g2", "h8g7", "i1h3", "i8h6", "f1i1"]:
            game.push(parse_uci(game.position, text))
            engine.play_move(text)
        game.push(parse_uci(game.position, engine.go(0.02)))


@needs_fairymax
def test_fairymax_needs_the_variant_again_after_new():
    with FairyMax() as engine:
        engine.new_game()
        engine.play_move("e2e4")
        engine.new_game()
        for text in ("g2g4", "g7g5", "g1f4"):  # a falcon move: legal only in falcon
            engine.play_move(text)
        engine.close()
        assert not engine.running
        engine.close()
