"""Coordinate notation and SAN, including the castling forms."""

from __future__ import annotations

import pytest

from boardctl.rules import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    parse_move,
    parse_san,
    parse_uci,
    san,
)

from .helpers import pos

OPEN = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"


def test_coordinate_notation_reads_files_a_to_j_and_promotions():
    p = pos()
    move = parse_uci(p, "j2j4")
    assert p.uci(move) == "j2j4"
    p = pos("9k/1P8/10/10/10/10/10/K9 w - - 0 1")
    assert p.uci(parse_uci(p, "b7b8f")) == "b7b8f"


@pytest.mark.parametrize("text", ["", "e2", "e2e4x", "k2k4", "e2e9", "E2E4", "e2-e4"])
def test_text_that_is_not_coordinate_notation_is_invalid(text):
    with pytest.raises(InvalidMoveError):
        parse_uci(pos(), text)


def test_well_formed_but_illegal_moves_are_illegal():
    with pytest.raises(IllegalMoveError):
        parse_uci(pos(), "e2e5")
    with pytest.raises(IllegalMoveError):
        parse_uci(pos("9k/1P8/10/10/10/10/10/K9 w - - 0 1"), "b7b8")  # promotion piece missing


def test_san_of_opening_moves():
    p = pos()
    assert san(p, parse_uci(p, "e2e4")) == "e4"
    assert san(p, parse_uci(p, "b1c3")) == "Nc3"
    # Falcon d1 over the open paths after d2-d3? From the start it is shut in.
    assert all(not p.uci(m).startswith("d1") for m in p.legal_moves())


def test_san_marks_check_and_mate():
    # K+F v K mate from RULES.md: White Kc2, Fd3, black Ka1.  The falcon comes
    # from f4 (offset -2,-1 is no falcon move; from g4 it is -3,-1).
    p = pos("10/10/10/10/6F3/10/2K7/k9 w - - 0 1")
    move = parse_san(p, "Fd3")
    assert san(p, move) == "Fd3#"
    p = pos("k9/10/10/10/10/10/10/1R7K w - - 0 1")
    assert san(p, parse_uci(p, "b1b8")) == "Rb8+"


def test_san_disambiguates_by_file_then_rank_then_both():
    p = pos("k9/10/10/10/10/10/10/1N3N3K w - - 0 1")
    assert san(p, parse_uci(p, "b1d2")) == "Nbd2"
    p = pos("k9/10/10/1N8/10/10/10/1N7K w - - 0 1")
    assert san(p, parse_uci(p, "b1c3")) == "N1c3"
    p = pos("k9/10/10/10/1Q1Q6/10/1Q8/9K w - - 0 1")
    assert san(p, parse_uci(p, "b4c3")) == "Qb4c3"


def test_san_captures_and_promotions():
    p = pos("kr8/P9/10/10/10/10/10/9K w - - 0 1")
    assert san(p, parse_uci(p, "a7b8q")) == "axb8=Q+"
    assert san(p, parse_uci(p, "a7b8f")) == "axb8=F"  # a falcon never attacks next door
    assert parse_san(p, "axb8=F") == parse_uci(p, "a7b8f")
    assert parse_san(p, "axb8F") == parse_uci(p, "a7b8f")
    p = pos("k9/4p5/10/3P6/10/10/10/9K b - - 0 1")
    p.push(parse_uci(p, "e7e5"))
    assert san(p, parse_uci(p, "d5e6")) == "dxe6"


def test_free_castling_san_names_the_kings_square_and_round_trips():
    p = pos(OPEN)
    texts = {p.uci(m): san(p, m) for m in p.legal_moves() if p.is_castling(m)}
    assert texts == {
        "f1a1": "O-O-O:e1",
        "f1b1": "O-O-O:b1",
        "f1c1": "O-O-O:c1",
        "f1d1": "O-O-O:d1",
        "f1j1": "O-O:g1",
        "f1h1": "O-O:h1",
        "f1i1": "O-O:i1",
    }
    for uci, text in texts.items():
        assert p.uci(parse_san(p, text)) == uci
    assert san(p, parse_uci(p, "f1g1")) == "Kg1"
    assert p.uci(parse_san(p, "0-0:h1")) == "f1h1"


def test_plain_castling_san_where_there_is_one_castling_per_side():
    p = pos(OPEN, "falcon-orthodox-castling")
    assert san(p, parse_uci(p, "f1h1")) == "O-O"
    assert san(p, parse_uci(p, "f1d1")) == "O-O-O"
    assert p.uci(parse_san(p, "O-O")) == "f1h1"


def test_plain_castling_san_is_ambiguous_under_free_castling():
    with pytest.raises(AmbiguousMoveError):
        parse_san(pos(OPEN), "O-O")


def test_parse_move_takes_either_notation():
    p = pos()
    assert parse_move(p, "Nc3") == parse_move(p, "b1c3")
    with pytest.raises(InvalidMoveError):
        parse_move(p, "hello")


def test_piece_captures_parse_with_the_x():
    # After 1. g3 Na6 the bishop on h1 sees b7 down the long diagonal.
    p = pos("r1bfqkfbnr/pppppppppp/n9/10/10/6P3/PPPPPP1PPP/RNBFQKFBNR w KQkq - 1 2")
    move = parse_san(p, "Bxb7")
    assert p.uci(move) == "h1b7"
    assert san(p, move) == "Bxb7"
