"""Reading moves at the board where Falcon Chess checks differ from chess.

The reconciler takes its moves from the rules core, so a block that answers
a double check, a pin along a falcon path and an en passant capture that
opens one must be read (and lit) as the rules say, move by move at a table.
"""

from __future__ import annotations

import pytest

from boardctl.board.scene import Role

from .helpers import Table

# White in check from the rook on e8 and the falcon on f4, whose only open
# path runs e2-e3: the knight on c4 answers both by going to e3.
ONE_BLOCK = "R3r4k/10/10/10/2N2f4/5p4/R6B2/4K5 w - - 0 1"
# The rook on e8 and the falcon on h2 (open path f2-g2): no square blocks both.
TWO_BLOCKS = "4r4k/10/10/10/10/10/R6f2/4KN4 w - - 0 1"


def lit(table: Table) -> dict[str, Role]:
    name = table.game.position.geometry.name
    return {name(sq): role for sq, role in table.rec.scene().squares.items()}


def test_a_lifted_piece_shows_the_block_that_answers_both_checks():
    table = Table(ONE_BLOCK)
    table.lift("c4")
    assert lit(table) == {"c4": Role.LIFTED, "e3": Role.LEGAL, "e1": Role.CHECK}
    table.lift("a2")
    assert lit(table)["e2"] == Role.LEGAL
    assert "f2" not in lit(table)  # blocks the falcon's closed path only


def test_the_block_that_answers_both_checks_is_played():
    table = Table(ONE_BLOCK)
    table.move("c4", "e3")
    table.wait(3)
    assert table.lines() == ["move c4e3"]


@pytest.mark.parametrize(("frm", "to", "piece"), [("c4", "e5", "knight"), ("h2", "f4", "bishop")])
def test_answering_one_check_of_two_is_refused(frm, to, piece):
    table = Table(ONE_BLOCK)
    table.move(frm, to)
    table.wait(3)
    assert table.lines() == [f"error Your king is in check: move the {piece} back to {frm}"]


def test_no_block_is_offered_when_two_squares_would_be_needed():
    table = Table(TWO_BLOCKS)
    table.lift("a2")
    assert lit(table) == {"a2": Role.LIFTED, "e1": Role.CHECK}
    table.place("e2")
    table.wait(3)
    assert table.lines() == ["error Your king is in check: move the rook back to a2"]


def test_a_piece_pinned_along_a_falcon_path_may_only_take_the_falcon():
    # The knight on e2 alone closes the falcon's path e3-e2 to the king; f3
    # closes the other two.  It is on no line between an enemy and the king.
    table = Table("9k/10/10/10/5f4/5p4/4N5/4K5 w - - 0 1")
    table.lift("e2")
    assert lit(table) == {"e2": Role.LIFTED, "f4": Role.LEGAL}
    table.place("c3")
    table.wait(3)
    assert table.lines() == [
        "error That move leaves your king in check: move the knight back to e2",
    ]


def test_en_passant_that_opens_a_falcon_path_is_refused():
    # After e7-e5, dxe6 e.p. would empty d5 and e5, the falcon's path to c4.
    table = Table("k9/4p5/10/3P1f4/2KPP5/10/10/10 b - - 0 1")
    table.move("e7", "e5")
    table.wait(1)
    table.lift("d5")
    assert lit(table) == {"d5": Role.LIFTED, "d6": Role.LEGAL}
    table.place("e6")
    table.lift("e5")
    table.wait(3)
    assert table.lines() == [
        "move e7e5",
        "error That move leaves your king in check: move the pawn back to d5",
    ]


@pytest.mark.parametrize(
    ("fen", "king_to", "rook"),
    [
        # The falcon on i4 attacks g1, so Kg1 with Rf1 is no castling here; the
        # rook move j1-g1 leaves the same squares filled (king and rook swapped).
        ("5k4/10/10/10/8f1/10/10/5K3R w K - 0 1", "g1", "j1"),
        # The falcon on c4 attacks e1: Ke1 with Rf1 is no castling, and the rook
        # move a1-e1 fills the same squares.
        ("5k4/10/10/10/2f7/10/10/R4K4 w Q - 0 1", "e1", "a1"),
    ],
    ids=["kingside", "queenside"],
)
def test_castling_past_a_falcon_is_not_taken_for_a_rook_move(fen, king_to, rook):
    table = Table(fen)
    table.lift("f1")
    table.place(king_to, after=0.3)
    table.lift(rook, after=0.3)
    table.place("f1", after=0.3)
    table.wait(3)
    assert f"move {rook}{king_to}" not in table.lines()
    assert table.lines()[-1] == (
        "error That castling is not allowed: the king would cross or land on an attacked "
        f"square. Put the king back on f1 and the rook back on {rook}"
    )
    # Put back, the position is the game's again, and the rook move itself is read.
    table.lift(king_to)
    table.lift("f1", after=0.3)
    table.place("f1", after=0.3)
    table.place(rook, after=0.3)
    table.wait(2)
    assert table.rec.state.value == "synced"
    table.lift(rook)
    table.place(king_to, after=0.3)
    table.wait(2)
    assert table.lines()[-1] == f"move {rook}{king_to}"


def test_the_rook_move_that_fills_the_same_squares_is_still_read():
    table = Table("5k4/10/10/10/2f7/10/10/R4K4 w Q - 0 1")
    table.lift("a1")
    table.place("e1", after=0.3)
    table.wait(2)
    assert table.lines() == ["move a1e1"]


def test_a_move_out_of_one_check_into_another_says_so():
    # The rook on e8 checks; f1 is free of it but the bishop on h3 covers it.
    table = Table("4r4k/10/10/10/10/7b2/10/4K5 w - - 0 1")
    table.move("e1", "f1")
    table.wait(3)
    assert table.lines()[-1] == (
        "error That move leaves your king in check: move the king back to e1"
    )


def test_a_move_that_leaves_the_same_check_standing_says_the_king_is_in_check():
    table = Table("4r4k/10/10/10/10/7b2/10/4K5 w - - 0 1")
    table.move("e1", "e2")
    table.wait(3)
    assert table.lines()[-1] == "error Your king is in check: move the king back to e1"
