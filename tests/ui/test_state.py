"""DisplayState: a plain value, built from a FEN or a game, checked on the way in."""

from __future__ import annotations

import pytest

from boardctl.rules import BLACK, DEFAULT_VARIANT, WHITE, FenError, Game, PieceType, get_variant
from boardctl.ui.state import DisplayState, iter_move_rows

SQ = get_variant("falcon").geometry.parse_square


def test_the_default_state_is_the_start_position_with_nothing_else_on():
    state = DisplayState()
    assert state.fen == DEFAULT_VARIANT.start_fen
    assert (state.variant, state.orientation, state.turn) == ("falcon", WHITE, WHITE)
    assert state.last_move is None and state.check_square is None
    assert state.moves == () and state.prompt == "" and state.choices == ()
    assert (state.engine_status, state.white_clock, state.black_clock) == ("off", None, None)


def test_a_state_is_a_frozen_hashable_value_even_when_given_lists():
    state = DisplayState(moves=["e4", "e5"], marks=[SQ("e4")])  # type: ignore[arg-type]
    assert state.moves == ("e4", "e5") and state.marks == (SQ("e4"),)
    assert hash(state) == hash(DisplayState(moves=("e4", "e5"), marks=(SQ("e4"),)))
    with pytest.raises(AttributeError):
        state.prompt = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"prompt_kind": "shout"}, "prompt_kind"),
        ({"orientation": 2}, "orientation"),
        ({"choices": (PieceType.QUEEN,), "chosen": 1}, "chosen"),
    ],
)
def test_nonsense_fields_are_refused(fields, needle):
    with pytest.raises(ValueError, match=needle):
        DisplayState(**fields)


def test_from_fen_finds_the_king_in_check_and_the_side_to_move():
    state = DisplayState.from_fen("5k4/10/10/10/10/10/10/5K3r w - - 0 31")
    assert state.check_square == SQ("f1") and state.turn == WHITE
    quiet = DisplayState.from_fen("5k4/10/10/10/10/10/9r/5K4 b - - 0 31")
    assert quiet.check_square is None and quiet.turn == BLACK


def test_from_fen_checks_the_fen_and_keeps_other_fields():
    with pytest.raises(FenError):
        DisplayState.from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    state = DisplayState.from_fen(None, "falcon-8x8", prompt="hello")
    assert state.fen == get_variant("falcon-8x8").start_fen and state.prompt == "hello"


@pytest.mark.parametrize(
    ("fen", "variant"),
    [
        ("5k4/10/10/10/10/10/10/5K3r w - - 0 31", "falcon"),
        (None, "falcon-hex"),
        (None, "falcon-8x8"),
    ],
)
def test_a_position_makes_the_state_its_fen_makes(fen, variant):
    # In check or not, and with moves behind it, as a set-up's target may have.
    game = Game(get_variant(variant), fen)
    for _ in range(4):
        pos = game.position
        made = DisplayState.from_position(pos, prompt="p", marks=(1,))
        assert made == DisplayState.from_fen(pos.fen(), variant, prompt="p", marks=(1,))
        game.push(pos.legal_moves()[0])
    assert DisplayState.from_fen(fen, variant).check_square == (SQ("f1") if fen else None)


def test_from_game_carries_the_last_move_check_and_san():
    game = Game(get_variant("falcon"), "5k3r/10/10/10/10/10/10/5K4 b - - 0 30")
    game.push_text("j8j1")
    state = DisplayState.from_game(game, engine_status="ready")
    assert state.last_move == (SQ("j8"), SQ("j1"))
    assert state.check_square == SQ("f1")
    assert state.moves == ("Rj1+",)
    assert state.engine_status == "ready"


@pytest.mark.parametrize(
    ("fen_tail", "moves", "rows"),
    [
        ("w - - 0 1", (), []),
        ("b - - 0 1", ("e4",), [(1, "e4", None)]),
        ("w - - 0 3", ("e4", "e5", "Nh3", "Nc6"), [(1, "e4", "e5"), (2, "Nh3", "Nc6")]),
        ("w - - 0 31", ("Kg1", "Rj1+"), [(30, "Kg1", "Rj1+")]),
        ("b - - 0 31", ("Kg1",), [(31, "Kg1", None)]),
    ],
)
def test_move_rows_are_numbered_from_the_fen(fen_tail, moves, rows):
    state = DisplayState(fen=f"5k4/10/10/10/10/10/10/5K4 {fen_tail}", moves=moves)
    assert list(iter_move_rows(state)) == rows


def test_a_list_that_starts_with_blacks_move_leaves_whites_cell_empty():
    state = DisplayState(fen="5k4/10/10/10/10/10/10/5K4 w - - 0 32", moves=("Kg8", "Kg1", "Kh8"))
    assert list(iter_move_rows(state)) == [(30, None, "Kg8"), (31, "Kg1", "Kh8")]
