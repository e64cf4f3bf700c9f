"""FEN in and out, and the clear errors for malformed FEN."""

from __future__ import annotations

import pytest

from boardctl.rules import FenError, Position, get_variant

from .helpers import pos, sq

START = "rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1"


def test_start_position_is_the_inventors_setup():
    p = Position()
    assert p.fen() == START
    names = [p.piece_at(sq(p, f"{f}1"))[0].symbol for f in "abcdefghij"]
    assert "".join(names) == "rnbfqkfbnr"
    assert p.piece_at(sq(p, "e8"))[0].symbol == "q" and p.piece_at(sq(p, "f8"))[0].symbol == "k"


def test_a1_is_light_j1_dark_and_the_white_queen_stands_on_light():
    p = Position()
    geo = p.geometry
    assert geo.is_light(sq(p, "a1")) and not geo.is_light(sq(p, "j1"))
    assert geo.is_light(sq(p, "e1"))


@pytest.mark.parametrize(
    "fen",
    [
        START,
        "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R b Kq - 12 40",
        "k9/4p5/10/3P6/10/10/10/9K w - - 0 1",
        "rnbfkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBFKBNR w KQkq - 0 1",
    ],
)
def test_fen_round_trips(fen):
    variant = get_variant("falcon-8x8" if fen.startswith("rnbfkbnr") else "falcon")
    assert Position(fen, variant).fen() == fen


def test_four_field_fen_gets_default_counters():
    assert pos("k9/10/10/10/10/10/10/9K w - -").fen().endswith(" 0 1")


@pytest.mark.parametrize(
    ("fen", "field"),
    [
        ("", "layout"),
        ("rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP w KQkq - 0 1", "piece placement"),
        (
            "rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNRR w KQkq - 0 1",
            "piece placement",
        ),
        ("rnbfqkfbnr/pppppppppp/9/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1", "piece placement"),
        ("rnbfqkfbnr/ppppxppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1", "piece placement"),
        (
            "rnbfqkfbnr/pppppppppp/010/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1",
            "piece placement",
        ),
        ("rnbfqqfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1", "piece placement"),
        ("pnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1", "piece placement"),
        ("rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR x KQkq - 0 1", "side to move"),
        ("rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkx - 0 1", "castling"),
        ("rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KKkq - 0 1", "castling"),
        # Castling rights whose king or rook is not on its start square.
        ("rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBN1 w KQkq - 0 1", "castling"),
        ("rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFKQFBNR w KQkq - 0 1", "castling"),
        ("rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq e3 0 1", "en passant"),
        ("rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq z9 0 1", "en passant"),
        ("rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - -1 1", "halfmove clock"),
        ("rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 0", "fullmove number"),
        # Black in check with White to move.
        ("5k4/10/10/10/10/10/10/5R3K w - - 0 1", "position"),
    ],
)
def test_malformed_fen_names_the_field(fen, field):
    with pytest.raises(FenError) as info:
        Position(fen)
    assert info.value.field == field
    assert field in str(info.value)
    assert isinstance(info.value, ValueError)


def test_8x8_fen_must_have_eight_files():
    with pytest.raises(FenError):
        Position(START, get_variant("falcon-8x8"))


def test_9x10_fen_has_nine_ranks():
    nine = "rnbfqkfbnr/pppppppppp/10/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1"
    assert Position(None, get_variant("falcon-9x10")).fen() == nine
    with pytest.raises(FenError) as info:
        Position(START, get_variant("falcon-9x10"))
    assert info.value.field == "piece placement"


@pytest.mark.parametrize(
    ("fen", "valid"),
    [
        # White stepped d3-d5 (d-file pawns start on the third rank) or c2-c4.
        ("5k4/10/10/10/10/3Pp5/10/10/10/5K4 b - d4 0 1", True),
        ("5k4/10/10/10/10/10/2Pp6/10/10/5K4 b - c3 0 1", True),
        # d2-d4 and c3-c5 are no double steps in this set-up.
        ("5k4/10/10/10/10/10/3Pp5/10/10/5K4 b - d3 0 1", False),
        ("5k4/10/10/10/10/2Pp6/10/10/10/5K4 b - c4 0 1", False),
        # Black stepped g8-g6 or h9-h7.
        ("5k4/10/10/10/5Pp3/10/10/10/10/5K4 w - g7 0 1", True),
        ("5k4/10/10/7pP1/10/10/10/10/10/5K4 w - h8 0 1", True),
    ],
)
def test_central_10x10_en_passant_square_follows_the_pawns_start_squares(fen, valid):
    variant = get_variant("falcon-10x10-central")
    if valid:
        assert Position(fen, variant).fen() == fen
    else:
        with pytest.raises(FenError) as info:
            Position(fen, variant)
        assert info.value.field == "en passant"


@pytest.mark.parametrize("variant", ["falcon", "falcon-hex"])
def test_with_turn_gives_the_other_side_the_move_as_a_new_position(variant):
    """Teaching mode lifts a piece of the side not to move: the position is
    the same but for who moves, the en-passant square it loses, and no moves
    behind it; it is what a FEN so edited would read."""
    start = Position(None, get_variant(variant))
    start.push(start.legal_moves()[0])
    turned = start.with_turn(start.turn ^ 1)
    fields = start.fen().split()
    fields[1], fields[3] = ("w" if fields[1] == "b" else "b"), "-"
    read = Position(" ".join(fields), start.variant)
    assert turned.fen() == read.fen() and turned.hash == read.hash
    assert turned.turn != start.turn and turned.ply_stack == [] and len(start.ply_stack) == 1
    assert turned.legal_codes() == read.legal_codes()
    assert start.with_turn(start.turn).fen().split()[:3] == start.fen().split()[:3]


def test_with_turn_refuses_a_side_to_move_that_could_take_the_king():
    checked = pos("k9/10/10/10/10/10/10/R8K b - - 0 1")  # Black is in check from a1
    with pytest.raises(FenError) as info:
        checked.with_turn(0)
    assert info.value.field == "position"
