"""Pawns (RULES.md): steps, double steps, captures, en passant, promotion."""

from __future__ import annotations

from boardctl.rules import parse_uci

from .helpers import moves, moves_from, pos


def test_pawn_steps_once_or_twice_from_its_rank_and_captures_diagonally():
    p = pos("k9/10/10/10/10/3p6/4P5/9K w - - 0 1")
    assert moves_from(p, "e2") == ["e2d3", "e2e3", "e2e4"]
    # Blocked in front: no single and no double step.
    p = pos("k9/10/10/10/10/4p5/4P5/9K w - - 0 1")
    assert moves_from(p, "e2") == []
    # Blocked two ahead: single step only.
    p = pos("k9/10/10/10/4p5/10/4P5/9K w - - 0 1")
    assert moves_from(p, "e2") == ["e2e3"]


def test_edge_pawns_do_not_wrap_around_the_board():
    # A white pawn on j2 must not "capture" on a4, the square after j3.
    p = pos("k9/10/10/10/p9/8p1/9P/K9 w - - 0 1")
    assert moves_from(p, "j2") == ["j2i3", "j2j3", "j2j4"]
    # Nor a pawn on a2 on j2, the square before a3.
    p = pos("k9/10/10/10/10/10/P8p/K9 w - - 0 1")
    assert moves_from(p, "a2") == ["a2a3", "a2a4"]


def test_en_passant_right_after_the_double_step_only():
    p = pos("k9/4p5/10/3P6/10/10/10/9K b - - 0 1")
    p.push(parse_uci(p, "e7e5"))
    assert p.fen().split()[3] == "e6"
    assert "d5e6" in moves_from(p, "d5")
    p.push(parse_uci(p, "d5e6"))
    assert "e5" not in p.board_fen() and p.fen().startswith("k9/10/4P5/10/10")
    # One move later the chance is gone.
    p = pos("k9/4p5/10/3P6/10/10/10/9K b - - 0 1")
    p.push(parse_uci(p, "e7e5"))
    p.push(parse_uci(p, "j1j2"))
    p.push(parse_uci(p, "a8a7"))
    assert "d5e6" not in moves_from(p, "d5")


def test_en_passant_that_would_expose_the_king_is_illegal():
    # White king a5, pawn d5; black pawn e7→e5, black rook j5: taking en
    # passant empties d5 and e5 together and opens the rank.
    p = pos("k9/4p5/10/K2P5r/10/10/10/10 b - - 0 1")
    p.push(parse_uci(p, "e7e5"))
    assert "d5e6" not in moves_from(p, "d5")
    assert "d5d6" in moves_from(p, "d5")


def test_en_passant_that_would_open_a_falcon_path_is_illegal():
    # White king c4; black falcon f5 reaches c4 (offset -3,-1) by (e5,d5),
    # (e5,d4), (e4,d4).  White pawns on d4 and e4 shut the last two paths and
    # the white pawn on d5 the first... black plays e7-e5, which also sits on
    # (e5,*): after d5xe6 e.p. the pawns d5 and e5 are gone, path (e5,d5) opens.
    p = pos("k9/4p5/10/3P1f4/2KPP5/10/10/10 b - - 0 1")
    assert not p.is_check()
    p.push(parse_uci(p, "e7e5"))
    assert not p.is_check()
    assert "d5e6" not in moves_from(p, "d5")


def test_promotion_offers_queen_falcon_rook_bishop_knight():
    p = pos("9k/1P8/10/10/10/10/10/K9 w - - 0 1")
    assert moves_from(p, "b7") == ["b7b8b", "b7b8f", "b7b8n", "b7b8q", "b7b8r"]


def test_promotion_with_capture():
    p = pos("kr8/P9/10/10/10/10/10/9K w - - 0 1")
    assert moves_from(p, "a7") == ["a7b8b", "a7b8f", "a7b8n", "a7b8q", "a7b8r"]
    p.push(parse_uci(p, "a7b8f"))
    assert p.board_fen().startswith("kF8")


def test_black_pawns_move_down_and_promote_on_rank_1():
    p = pos("k9/10/10/10/10/10/6p3/K9 b - - 0 1")
    assert moves_from(p, "g2") == ["g2g1b", "g2g1f", "g2g1n", "g2g1q", "g2g1r"]


def test_8x8_promotes_without_a_queen():
    p = pos("7k/1P6/8/8/8/8/8/K7 w - - 0 1", "falcon-8x8")
    assert moves_from(p, "b7") == ["b7b8b", "b7b8f", "b7b8n", "b7b8r"]


def test_start_position_has_24_moves_and_a_double_step_for_every_pawn():
    assert len(moves(pos())) == 24


def test_10x10_pawns_start_on_the_third_rank_and_step_twice_from_there():
    p = pos(None, "falcon-10x10")
    assert moves_from(p, "e3") == ["e3e4", "e3e5"]
    p.push(parse_uci(p, "e3e5"))
    assert p.fen().split()[3] == "e4"


def test_9x10_pawns_step_twice_from_the_second_ranks_and_promote_on_the_ninth():
    p = pos(None, "falcon-9x10")
    assert p.fen().split()[0].count("/") == 8
    assert moves_from(p, "e2") == ["e2e3", "e2e4"]
    p.push(parse_uci(p, "e2e4"))
    assert moves_from(p, "d8") == ["d8d6", "d8d7"]
    p.push(parse_uci(p, "d8d6"))
    assert p.fen().split()[3] == "d7"
    # A pawn on the eighth rank of nine promotes by stepping to the ninth.
    p = pos("k9/4P5/10/10/10/10/10/10/K9 w - - 0 1", "falcon-9x10")
    assert moves_from(p, "e8") == [f"e8e9{piece}" for piece in "bfnqr"]


CENTRAL = "rnbfqkfbnr/ppp4ppp/3pppp3/10/10/10/10/3PPPP3/PPP4PPP/RNBFQKFBNR w KQkq - 0 1"


def test_central_10x10_pawns_step_twice_from_the_square_they_start_on():
    p = pos(None, "falcon-10x10-central")
    assert p.fen() == CENTRAL
    # The falcons', queen's and king's pawns (d to g) from the third rank,
    # the others from the second: both ranks hold pawns that may step twice.
    for square in ("d3", "e3", "f3", "g3"):
        assert moves_from(p, square) == [f"{square}{square[0]}4", f"{square}{square[0]}5"]
    for square in ("a2", "b2", "c2", "h2", "i2", "j2"):
        assert moves_from(p, square) == [f"{square}{square[0]}3", f"{square}{square[0]}4"]
    p.push(parse_uci(p, "c2c4"))
    assert moves_from(p, "e8") == ["e8e6", "e8e7"]
    assert moves_from(p, "c9") == ["c9c7", "c9c8"]


def test_central_10x10_double_step_is_a_property_of_the_square_not_of_the_pawn():
    # Pawns that step once lose the double step: c3 and e4 are no start squares.
    p = pos("5k4/10/10/10/10/10/4P5/2P7/10/5K4 w - - 0 1", "falcon-10x10-central")
    assert moves_from(p, "c3") == ["c3c4"]
    assert moves_from(p, "e4") == ["e4e5"]
    # The c-pawn that took on d3 stands on the d-pawn's start square and may
    # step twice from it: a position records no pawn's history (nor does FEN),
    # as in chess, where every pawn on its second rank may.
    p = pos("5k4/10/10/10/10/10/10/3P6/10/5K4 w - - 0 1", "falcon-10x10-central")
    assert moves_from(p, "d3") == ["d3d4", "d3d5"]
    # And a pawn on d2, where no pawn starts in this set-up, may not.
    p = pos("5k4/10/10/10/10/10/10/10/3P6/5K4 w - - 0 1", "falcon-10x10-central")
    assert moves_from(p, "d2") == ["d2d3"]


def test_central_10x10_en_passant_after_either_double_step():
    # From the third rank: d3-d5 passes d4, where the e5 pawn takes it.
    p = pos("5k4/10/10/10/10/4p5/10/3P6/2P7/5K4 w - - 0 1", "falcon-10x10-central")
    p.push(parse_uci(p, "d3d5"))
    assert p.fen().split()[3] == "d4"
    assert moves_from(p, "e5") == ["e5d4", "e5e4"]
    p.push(parse_uci(p, "e5d4"))
    assert p.board_fen() == "5k4/10/10/10/10/10/3p6/10/2P7/5K4"
    # From the second rank: c2-c4 passes c3, where the pawn now on d4 takes it.
    p.push(parse_uci(p, "c2c4"))
    assert p.fen().split()[3] == "c3"
    assert moves_from(p, "d4") == ["d4c3", "d4d3"]
