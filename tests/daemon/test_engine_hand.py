"""The engine's move carried out by a scripted hand, through the whole daemon
(issue 21): captures, castling, en passant and promotion by the engine, in
each order a person uses, and a capture carried out wrongly by a newcomer.
The board and the game must agree square for square at the end, or the
screen must say what to do."""

from __future__ import annotations

import pytest

from boardctl.board import State
from boardctl.board.explain import occupancy
from boardctl.config import parse_config
from boardctl.daemon.headless import run_script
from boardctl.rules import Game, Position, get_variant

from ..daemon_fakes import MemoryStore, ScriptedOpponent

ENGINE_BLACK = parse_config({"game": {"mode": "engine", "human": "white"}})


def play(fen: str, human: str, engine: str, hand: str) -> tuple[list[str], object, MemoryStore]:
    """White (the human) plays ``human`` at once; the engine answers
    ``engine``, and ``hand`` (times from 3 s on) carries it out."""
    store = MemoryStore()
    game = Game(get_variant("falcon"), fen)
    store.games[1] = {"variant": "falcon", "moves": [], "result": None}
    frm, to = human[:2], human[2:4]
    # The human's move ends on its square; a capture swapped there leaves
    # the captured square as it was (see the last test).
    script = f"0 lift {frm}\n0.4 place {to}\n{hand}"
    lines: list[str] = []
    daemon = run_script(
        ENGINE_BLACK,
        script,
        store,
        opponent=ScriptedOpponent([engine]),
        resume=(1, game),
        emit=lines.append,
    )
    return lines, daemon, store


def agrees(daemon) -> bool:
    rec = daemon.reconciler
    return rec.reading == occupancy(rec.game.position) and rec.state is State.SYNCED


QXB2 = "k9/10/10/1q8/10/10/1B8/9K w - - 0 1"
CASTLE = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"
PASSANT = "k9/10/10/10/3p6/10/4P5/9K w - - 0 1"
PROMOTE = "9k/10/10/10/10/10/1p8/R8K w - - 0 1"

CASES = [
    # (name, start, human move, engine move, the hand)
    ("capture, mover first", QXB2, "j1j2", "b5b2", "3 lift b5\n3.5 lift b2\n4 place b2\n"),
    ("capture, captured first", QXB2, "j1j2", "b5b2", "3 lift b2\n3.5 lift b5\n4 place b2\n"),
    ("capture, slow", QXB2, "j1j2", "b5b2", "3 lift b5\n8 lift b2\n14 place b2\n"),
    (
        "castling, king first",
        CASTLE,
        "a2a3",
        "f8h8",
        "3 lift f8\n3.5 place h8\n4 lift j8\n4.5 place g8\n",
    ),
    (
        "castling, rook first",
        CASTLE,
        "a2a3",
        "f8h8",
        "3 lift j8\n3.5 place g8\n4 lift f8\n4.5 place h8\n",
    ),
    (
        "castling, both in hand",
        CASTLE,
        "a2a3",
        "f8h8",
        "3 lift f8\n3.3 lift j8\n3.8 place g8\n4.2 place h8\n",
    ),
    ("en passant, victim first", PASSANT, "e2e4", "d4e3", "3 lift e4\n3.5 lift d4\n4 place e3\n"),
    ("en passant, victim between", PASSANT, "e2e4", "d4e3", "3 lift d4\n3.5 lift e4\n4 place e3\n"),
    ("en passant, victim last", PASSANT, "e2e4", "d4e3", "3 lift d4\n3.5 place e3\n4 lift e4\n"),
    ("promotion", PROMOTE, "j1j2", "b2b1f", "3 lift b2\n3.5 place b1\n"),
    (
        "promotion capture, mover first",
        PROMOTE,
        "j1j2",
        "b2a1q",
        "3 lift b2\n3.5 lift a1\n4 place a1\n",
    ),
    (
        "promotion capture, captured first",
        PROMOTE,
        "j1j2",
        "b2a1q",
        "3 lift a1\n3.5 lift b2\n4 place a1\n",
    ),
]


@pytest.mark.parametrize(
    ("name", "fen", "human", "engine", "hand"), CASES, ids=[case[0] for case in CASES]
)
def test_the_engines_move_carried_out_in_any_order_is_read(name, fen, human, engine, hand):
    lines, daemon, store = play(fen, human, engine, hand)
    # (A piece held past the grace period may add a prompt saying how to capture.)
    events = [line for line in lines if not line.startswith("prompt")]
    assert events[:3] == [f"move {human}", f"engine {engine}", f"move {engine}"], lines
    assert store.moves(1) == [human, engine]
    assert agrees(daemon)
    assert not [line for line in lines if line.startswith("error")]


def test_the_engines_capture_is_not_taken_until_the_captured_square_changes():
    # Issue 21: Qxb2 shown; the newcomer lifts the queen (b5 empty, b2 still
    # full: the occupancy after the move), puts it on b4, is told to take it
    # off, lifts it again.  The capture was never seen: it stays the
    # engine's move to make, lit, and the screen says how to finish it.
    wrong = "3 lift b5\n3.5 place b4\n6 lift b4\n"
    lines, daemon, store = play(QXB2, "j1j2", "b5b2", wrong)
    assert "move b5b2" not in lines
    assert store.moves(1) == ["j1j2"]
    rec = daemon.reconciler
    assert rec.engine_move is not None
    lit = {rec.game.position.geometry.name(sq) for sq in rec.scene().squares}
    assert {"b5", "b2"} <= lit
    assert rec.prompt.startswith("Play the engine's move. To take the bishop on b2, lift it off")
    assert daemon.led_colours(0.0)  # the LEDs still show it

    # Done as told, the move is read and the board agrees with the game.
    lines, daemon, store = play(QXB2, "j1j2", "b5b2", wrong + "9 lift b2\n9.5 place b2\n")
    assert lines.count("move b5b2") == 1
    assert store.moves(1) == ["j1j2", "b5b2"]
    assert agrees(daemon)
    expected = Position(QXB2, get_variant("falcon"))
    for uci in ("j1j2", "b5b2"):
        expected.push(next(m for m in expected.legal_moves() if expected.uci(m) == uci))
    assert daemon.game.position.fen() == expected.fen()


def test_the_players_capture_against_a_waiting_engine_needs_its_square_seen():
    # The human's own capture, pieces swapped (e4 never reads empty): nothing
    # goes to the engine until the capture is shown.
    fen = "k9/10/10/10/4p5/3P6/10/9K w - - 0 1"
    lines, daemon, store = play(fen, "d3e4", "a8b8", "")
    assert store.moves(1) == []
    assert not [line for line in lines if line.startswith(("engine", "move"))]
    assert daemon.reconciler.prompt.startswith("To take the pawn on e4, lift it off")
    lines, daemon, store = play(
        fen, "d3e4", "a8b8", "3 lift e4\n3.5 place e4\n6 lift a8\n6.5 place b8\n"
    )
    assert store.moves(1) == ["d3e4", "a8b8"]
    assert agrees(daemon)
