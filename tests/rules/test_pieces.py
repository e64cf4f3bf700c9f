"""King, queen, rook, bishop and knight move as in chess (RULES.md), on 10 files."""

from __future__ import annotations

from .helpers import moves_from, pos


def dests(fen: str, square: str) -> set[str]:
    return {m[2:4] for m in moves_from(pos(fen), square)}


def test_rook_slides_along_rank_and_file_up_to_the_first_piece():
    got = dests("k9/10/10/4p5/10/4R2P2/10/9K w - - 0 1", "e3")
    assert got == {"a3", "b3", "c3", "d3", "f3", "g3", "e1", "e2", "e4", "e5"}


def test_bishop_slides_diagonally_across_ten_files():
    got = dests("k9/10/10/10/10/10/10/4B4K w - - 0 1", "e1")
    assert got == {"d2", "c3", "b4", "a5", "f2", "g3", "h4", "i5", "j6"}


def test_queen_is_rook_plus_bishop():
    fen = "9k/10/10/10/4Q5/10/10/K9 w - - 0 1"
    rook = dests(fen.replace("Q", "R"), "e4")
    bishop = dests(fen.replace("Q", "B"), "e4")
    assert dests(fen, "e4") == rook | bishop
    assert len(rook) == 16 and len(bishop) == 14  # 4 + 4 + 3 + 3


def test_knight_leaps_and_stays_on_the_board():
    assert dests("k9/10/10/10/10/10/10/8KN w - - 0 1", "j1") == {"h2", "i3"}
    assert len(dests("k9/10/10/10/4N5/10/10/9K w - - 0 1", "e4")) == 8
    # Blocked all round, it still leaps.
    assert len(dests("k9/10/10/3PPP4/3PNP4/3PPP4/10/9K w - - 0 1", "e4")) == 8


def test_king_steps_one_square_and_never_into_attack():
    assert dests("k9/10/10/10/4K5/10/10/10 w - - 0 1", "e4") == {
        "d3",
        "d4",
        "d5",
        "e3",
        "e5",
        "f3",
        "f4",
        "f5",
    }
    # A black rook on d8 covers the d-file.
    got = dests("k2r6/10/10/10/4K5/10/10/10 w - - 0 1", "e4")
    assert got == {"e3", "e5", "f3", "f4", "f5"}


def test_kings_never_stand_next_to_each_other():
    assert dests("10/10/10/4k5/10/4K5/10/10 w - - 0 1", "e3").isdisjoint({"d4", "e4", "f4"})
