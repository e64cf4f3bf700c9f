"""The reconciler while a stored game is stepped through (``stepping``): every
move, either side's, is given and carried out by hand; the last one taken back
when asked; anything else guided back."""

from __future__ import annotations

import pytest

from boardctl.board import MoveMade, MoveTakenBack, Role, State
from boardctl.rules import IllegalMoveError, parse_uci

from .helpers import Table

ENGINE_FROM, ENGINE_TO = Role.ENGINE_FROM, Role.ENGINE_TO


def stepping(fen: str | None = None, moves: str = "") -> Table:
    t = Table(fen, stepping=True, allow_takeback=True)
    for uci in moves.split():
        t.rec.set_engine_move(parse_uci(t.game.position, uci))
        if t.reading >> t.sq(uci[2:]) & 1:
            t.lift(uci[2:])  # the piece taken, first
        t.move(uci[:2], uci[2:])
        t.wait(1)
    assert len(t.game.moves) == len(moves.split())
    t.events.clear()
    return t


def roles(t: Table) -> dict[str, str]:
    name = t.game.position.geometry.name
    return {name(sq): role.value for sq, role in t.rec.scene().squares.items()}


def test_both_sides_moves_are_given_and_taken_as_the_engines_are():
    t = stepping()
    for uci in ("e2e4", "e7e5"):
        t.rec.set_engine_move(parse_uci(t.game.position, uci))
        assert roles(t)[uci[:2]] == "engine-from" and roles(t)[uci[2:]] == "engine-to"
        t.move(uci[:2], uci[2:])  # accepted at once
    assert t.lines() == ["move e2e4", "move e7e5"]
    assert all(isinstance(e, MoveMade) and e.by_engine for e in t.events)


def test_a_move_not_given_is_guided_back_in_the_games_words():
    t = stepping()
    t.move("d2", "d4")  # nothing given yet
    t.wait(3)
    assert t.lines() == ["error Move the pawn from d4 back to d2"]  # nothing to wait for
    t.move("d4", "d2")
    t.rec.set_engine_move(parse_uci(t.game.position, "e2e4"))
    t.move("d2", "d4")  # another than the one given
    t.wait(3)
    assert t.lines()[-1] == "error Play the game's move: move the pawn from d4 to d2"
    assert t.rec.state is State.ERROR and not t.game.moves
    t.move("d4", "d2")
    t.move("e2", "e4")
    assert t.lines()[-1] == "move e2e4"


def test_a_takeback_asked_for_is_lit_undone_and_read_as_any():
    t = stepping(moves="e2e4 d7d5 e4d5")
    t.rec.ask_takeback()
    assert t.rec.taking_back
    # The pawn on d5 goes back to e4 (the captured pawn's square is the taker's for now).
    assert roles(t) == {"d5": "engine-from", "e4": "engine-to"}
    t.lift("d5")
    assert roles(t) == {"d5": "engine-to", "e4": "engine-to"}  # now the black pawn goes there
    t.place("e4")
    t.wait(1)
    assert t.lines() == []  # a takeback half done: no fix
    t.place("d5")
    t.wait(1)
    assert t.lines() == ["takeback e4d5"]
    assert isinstance(t.events[-1], MoveTakenBack) and not t.rec.taking_back
    assert roles(t) == {}


def test_a_wrong_move_while_taking_back_is_guided_to_the_position_before():
    t = stepping(moves="e2e4 d7d5")
    t.rec.ask_takeback()
    t.move("d5", "d6")  # the pawn goes back to the wrong square
    t.wait(3)
    assert t.lines() == ["error Take the last move back: move the pawn from d6 back to d7"]
    assert roles(t) == {"d6": "fix-from", "d7": "fix-to"}
    t.move("d6", "d7")
    t.wait(1)
    assert t.lines()[-1] == "takeback d7d5"


def test_withdrawn_the_given_move_is_guided_back_and_the_lights_go_out():
    t = stepping(moves="e2e4")
    t.rec.set_engine_move(parse_uci(t.game.position, "e7e5"))
    t.lift("e7")
    t.rec.withdraw()
    t.place("e5")
    t.wait(3)
    assert t.lines() == ["error Move the pawn from e5 back to e7"]
    t.move("e5", "e7")
    t.wait(1)
    assert t.rec.state is State.SYNCED and roles(t) == {}
    t.rec.ask_takeback()
    t.rec.withdraw()
    assert not t.rec.taking_back and roles(t) == {}


def test_the_start_position_set_up_again_is_no_new_game_while_stepping():
    t = stepping(moves="e2e4 e7e5")
    t.move("e4", "e2")
    t.move("e5", "e7")  # both at once: the start position, held
    t.wait(5)
    assert "newgame" not in t.lines() and len(t.game.moves) == 2
    assert t.lines()[-1].startswith("error ")  # guided back to the game's position


def test_no_takeback_to_ask_for_at_the_start():
    with pytest.raises(IllegalMoveError):
        stepping().rec.ask_takeback()


def test_castling_is_undone_rook_and_king():
    # White has castled king side (O-O:g1): king f1 to g1, rook j1 to f1.
    fen = "rnbfqkfbnr/4pppp1p/1p1p6/p2B4p1/8F1/6PN2/PPPP1P1PPP/RNBFQK3R w KQkq - 1 8"
    t = stepping(fen)
    t.rec.set_engine_move(parse_uci(t.game.position, "f1j1"))
    assert roles(t) == {"f1": "engine-to", "g1": "engine-to", "j1": "engine-from"}
    t.move("f1", "g1")
    t.move("j1", "f1")
    t.wait(1)
    assert t.lines() == ["move f1j1"]
    t.rec.ask_takeback()
    assert roles(t) == {"g1": "engine-from", "f1": "engine-from", "j1": "engine-to"}
    t.move("f1", "j1")
    t.move("g1", "f1")
    t.wait(1)
    assert t.lines()[-1] == "takeback f1j1"
