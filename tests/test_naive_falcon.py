"""Tests of the naive cross-check generator (tests/naive_falcon.py) itself.

Every expected list here was worked out by hand from RULES.md; the reasoning is in the
comments. Board files: a b c d e f g h i j; ranks 1-8. FEN ranks run from 8 down to 1.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import naive_falcon
from naive_falcon import divide, legal_moves, perft, play

START = "rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1"
START_8X8 = "rnbfkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBFKBNR w KQkq - 0 1"


def moves_from(fen, square, variant="falcon"):
    return sorted(move for move in legal_moves(fen, variant) if move.startswith(square))


def first_rank_after(fen, move, variant="falcon"):
    """White's back rank, as FEN text, once ``move`` is played from ``fen``."""
    return play(fen, [move], variant).split()[0].split("/")[-1]


def destinations_from(fen, square, variant="falcon"):
    return sorted(move[2:] for move in moves_from(fen, square, variant))


def colour_flipped(fen):
    """The same position with colours swapped and the board turned upside down."""
    placement, side, castling, en_passant, *counters = fen.split()
    placement = "/".join(row.swapcase() for row in reversed(placement.split("/")))
    side = "b" if side == "w" else "w"
    if castling != "-":
        castling = "".join(sorted(castling.swapcase(), key="KQkq".index))
    if en_passant != "-":
        en_passant = en_passant[0] + str(9 - int(en_passant[1:]))
    return " ".join([placement, side, castling, en_passant, *counters])


# ------------------------------------------------------------------ start positions


def test_start_position_has_24_moves():
    # Ten pawns with one and two steps (20) plus two moves for each knight (4);
    # the falcons on d1/g1 are boxed in by c1/e1, c2/d2/e2 (and f1/h1, f2/g2/h2).
    assert perft(START, 1) == 24
    assert len(legal_moves(START)) == 24


def test_start_position_depth_2_is_576():
    # Black's position mirrors White's and nothing White does at ply 1 reaches it.
    assert perft(START, 2) == 576
    assert sum(divide(START, 2).values()) == 576
    assert set(divide(START, 2).values()) == {24}


def test_8x8_start_is_20_then_400():
    assert perft(START_8X8, 1, "falcon-8x8") == 20
    assert perft(START_8X8, 2, "falcon-8x8") == 400


def test_perft_depth_0_is_1():
    assert perft(START, 0) == 1


def test_unknown_variant_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown variant"):
        legal_moves(START, "falcon-hexagonal")


# --------------------------------------------------------------------- the falcon


def test_falcon_definition_gives_the_16_squares_of_rules_md():
    # RULES.md: the 16 destinations are exactly the squares of the surrounding 7x7
    # that neither a queen nor a knight reaches. Check the step-ordering definition
    # against that characterisation on an empty board.
    reached = naive_falcon.falcon_reach({}, (4, 4), naive_falcon.VARIANTS["falcon"])
    offsets = {(f - 4, r - 4) for f, r in reached}
    knight = set(naive_falcon.KNIGHT_OFFSETS)
    expected = {
        (dx, dy)
        for dx in range(-3, 4)
        for dy in range(-3, 4)
        if (dx, dy) != (0, 0)
        and dx != 0
        and dy != 0
        and abs(dx) != abs(dy)  # not a queen line
        and (dx, dy) not in knight
    }
    assert offsets == expected
    assert len(offsets) == 16


OPEN_BOARD = "9k/10/10/10/3F6/10/10/9K w - - 0 1"  # white falcon d4, kings j1 / j8


def test_falcon_on_open_board_reaches_16_squares():
    # From d4: (+-1,+-3) c1 e1 c7 e7; (+-3,+-1) a3 a5 g3 g5;
    #          (+-2,+-3) b1 f1 b7 f7; (+-3,+-2) a2 a6 g2 g6.
    camel = ["c1", "e1", "c7", "e7", "a3", "a5", "g3", "g5"]
    zebra = ["b1", "f1", "b7", "f7", "a2", "a6", "g2", "g6"]
    assert destinations_from(OPEN_BOARD, "d4") == sorted([*camel, *zebra])


def test_falcon_blocked_on_its_two_first_steps_north_and_north_east():
    # Own pawns on d5 (N of d4) and e5 (NE). Every path starts with one of the
    # destination's two step kinds, so a destination is lost only if both its step
    # kinds are blocked first steps: {N, NE} is (+1,+3) e7 (N,N,NE) and (+2,+3) f7
    # (NE,NE,N). No second intermediate square is ever next to d4 (two steps at most
    # 45 degrees apart add up to a square two away), so the other 14 stay open.
    fen = "9k/10/10/3PP5/3F6/10/10/9K w - - 0 1"
    assert destinations_from(fen, "d4") == sorted(
        ["c1", "e1", "c7", "a3", "a5", "g3", "g5", "b1", "f1", "b7", "a2", "a6", "g2", "g6"]
    )


BOXED_BUT_NORTH = "9k/10/10/2P1P5/2PFP5/2PPP5/10/9K w - - 0 1"  # d4; only d5 is free


def test_falcon_with_only_its_north_step_free():
    # Own pawns on all neighbours of d4 except d5, so every path starts N.
    # Destinations that have an N step: e7 (N,N,NE), c7 (N,N,NW),
    # f7 (NE,NE,N) via N-NE-NE = d5,e6 and b7 (NW,NW,N) via N-NW-NW = d5,c6.
    assert destinations_from(BOXED_BUT_NORTH, "d4") == ["b7", "c7", "e7", "f7"]


def test_falcon_loses_a_destination_when_its_last_open_path_is_blocked():
    # As above plus a black pawn on e6: f7's only remaining path N-NE-NE (d5, e6) is
    # blocked; e7 still has N-N-NE (d5, d6).
    fen = "9k/10/4p5/2P1P5/2PFP5/2PPP5/10/9K w - - 0 1"
    assert destinations_from(fen, "d4") == ["b7", "c7", "e7"]
    # And a black pawn on d6 as well: e7 loses N-N-NE (d6) and N-NE-N (e6);
    # c7 keeps N-NW-N (d5, c6).
    fen = "9k/10/3pp5/2P1P5/2PFP5/2PPP5/10/9K w - - 0 1"
    assert destinations_from(fen, "d4") == ["b7", "c7"]


def test_falcon_captures_an_enemy_but_not_an_own_piece():
    # Black knight on e7 (capturable), white knight on c7 (not).
    fen = "9k/2N1n5/10/2P1P5/2PFP5/2PPP5/10/9K w - - 0 1"
    assert destinations_from(fen, "d4") == ["b7", "e7", "f7"]


def test_falcon_attacks_like_it_moves():
    # Black king d8, white falcon d4. Of the king's squares c8 c7 d7 e7 e8 the
    # falcon attacks c7 (-1,+3) and e7 (+1,+3); d7 (0,+3) is a queen line, not a
    # falcon square.
    fen = "3k6/10/10/10/3F6/10/10/K9 b - - 0 1"
    assert moves_from(fen, "d8") == ["d8c8", "d8d7", "d8e8"]
    # Black pawns on d5 and e6 block all three paths to e7 (d5-d6, d5-e6, e5-e6):
    # e7 becomes safe, c7 stays attacked (via c5-c6 and others).
    fen = "3k6/10/4p5/3p6/3F6/10/10/K9 b - - 0 1"
    assert moves_from(fen, "d8") == ["d8c8", "d8d7", "d8e7", "d8e8"]


def test_falcon_gives_check_from_a_zebra_square():
    # White falcon f3 checks the black king at d6 (-2,+3). Black has only king moves
    # and no piece to capture or block with.
    fen = "10/10/3k6/10/10/5F4/10/9K b - - 0 1"
    moves = legal_moves(fen)
    assert all(move.startswith("d6") for move in moves)
    # d6's neighbours seen from f3: c5 (-3,+2) and e6 (-1,+3) are falcon squares,
    # attacked over an empty board; c6 (-3,+3) is a bishop line, e5 (-1,+2) a knight
    # square, and c7 d5 d7 e7 are out of the falcon's 7x7.
    assert moves == sorted(["d6c6", "d6c7", "d6d5", "d6d7", "d6e5", "d6e7"])


# ------------------------------------------------------------------------ castling

BOTH_SIDES = "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1"
PLAIN_KING_STEPS = ["f1e1", "f1e2", "f1f2", "f1g1", "f1g2"]


def test_free_castling_goes_to_every_square_between_king_and_rook():
    # Towards a1: king to b1, c1, d1, or e1 (written f1a1, king takes rook).
    # Towards j1: king to g1 (written f1j1), h1, i1.
    castles = ["f1a1", "f1b1", "f1c1", "f1d1", "f1h1", "f1i1", "f1j1"]
    assert moves_from(BOTH_SIDES, "f1") == sorted(PLAIN_KING_STEPS + castles)


def test_free_castling_places_the_rook_beside_the_king_on_the_start_side():
    after = {
        move: first_rank_after(BOTH_SIDES, move)
        for move in ["f1a1", "f1b1", "f1c1", "f1d1", "f1j1", "f1h1", "f1i1"]
    }
    assert after == {
        "f1a1": "4KR3R",  # king e1, rook f1
        "f1b1": "1KR6R",  # king b1, rook c1
        "f1c1": "2KR5R",  # king c1, rook d1
        "f1d1": "3KR4R",  # king d1, rook e1
        "f1j1": "R4RK3",  # king g1, rook f1
        "f1h1": "R5RK2",  # king h1, rook g1
        "f1i1": "R6RK1",  # king i1, rook h1
    }
    assert play(BOTH_SIDES, ["f1e1"]).split()[0].endswith("R3K4R")  # the plain step
    assert play(BOTH_SIDES, ["f1c1"]).split()[2] == "kq"


def test_free_castling_for_black():
    fen = BOTH_SIDES.replace(" w ", " b ")
    castles = ["f8a8", "f8b8", "f8c8", "f8d8", "f8h8", "f8i8", "f8j8"]
    plain = ["f8e7", "f8e8", "f8f7", "f8g7", "f8g8"]
    assert moves_from(fen, "f8") == sorted(plain + castles)
    assert play(fen, ["f8j8"]).split()[0].startswith("r4rk3/")  # king g8, rook f8


def test_orthodox_castling_moves_the_king_two_squares():
    orthodox = "falcon-orthodox-castling"
    assert moves_from(BOTH_SIDES, "f1", orthodox) == sorted([*PLAIN_KING_STEPS, "f1d1", "f1h1"])
    assert first_rank_after(BOTH_SIDES, "f1d1", orthodox) == "3KR4R"  # king d1, rook e1
    assert first_rank_after(BOTH_SIDES, "f1h1", orthodox) == "R5RK2"  # king h1, rook g1


def test_modified_free_castling_skips_the_square_next_to_the_king():
    assert moves_from(BOTH_SIDES, "f1", "falcon-modified-free") == sorted(
        [*PLAIN_KING_STEPS, "f1b1", "f1c1", "f1d1", "f1h1", "f1i1"]
    )


def test_xboard_castling_moves_the_king_three_squares():
    assert moves_from(BOTH_SIDES, "f1", "falcon-xboard") == sorted(
        [*PLAIN_KING_STEPS, "f1c1", "f1i1"]
    )
    assert first_rank_after(BOTH_SIDES, "f1c1", "falcon-xboard") == "2KR5R"  # king c1, rook d1
    assert first_rank_after(BOTH_SIDES, "f1i1", "falcon-xboard") == "R6RK1"  # king i1, rook h1
    black = BOTH_SIDES.replace(" w ", " b ")
    assert moves_from(black, "f8", "falcon-xboard") == sorted(
        ["f8e7", "f8e8", "f8f7", "f8g7", "f8g8", "f8c8", "f8i8"]
    )


def test_8x8_castling_is_orthodox():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    assert moves_from(fen, "e1", "falcon-8x8") == sorted(
        ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1c1", "e1g1"]
    )
    assert first_rank_after(fen, "e1c1", "falcon-8x8") == "2KR3R"
    assert first_rank_after(fen, "e1g1", "falcon-8x8") == "R4RK1"


def test_castling_needs_the_right_the_rook_and_empty_squares():
    only_k = BOTH_SIDES.replace("KQkq", "Kk")
    assert moves_from(only_k, "f1") == sorted([*PLAIN_KING_STEPS, "f1h1", "f1i1", "f1j1"])
    knight_on_b1 = "r4k3r/10/10/10/10/10/10/RN3K3R w KQkq - 0 1"
    assert moves_from(knight_on_b1, "f1") == sorted([*PLAIN_KING_STEPS, "f1h1", "f1i1", "f1j1"])
    # A rook that moved away and back has lost the right: play Ra1-a2, ..., Ra2-a1.
    fen = play(BOTH_SIDES, ["a1a2", "a8a7", "a2a1", "a7a8"])
    assert fen.split()[2] == "Kk"


def test_no_castling_out_of_check_or_through_an_attacked_square():
    # Black rook on f5 checks the king: no castling at all.
    fen = "5k4/10/10/5r4/10/10/10/R4K3R w KQ - 0 1"
    assert [m for m in moves_from(fen, "f1") if m[2:] not in ("e1", "e2", "g1", "g2")] == []
    # Black rook on d8 attacks d1. Towards a1 the king passes or lands on d1 for
    # d1, c1, b1; only e1 (f1a1) is left. Towards j1 everything is fine.
    fen = "r2r1k3r/10/10/10/10/10/10/R4K3R w KQ - 0 1"
    castles = ["f1a1", "f1h1", "f1i1", "f1j1"]
    assert moves_from(fen, "f1") == sorted(PLAIN_KING_STEPS + castles)
    assert moves_from(fen, "f1", "falcon-xboard") == sorted([*PLAIN_KING_STEPS, "f1i1"])


# Black falcon h2 reaches e1 (-3,-1; steps W,W,SW) by W-W-SW (g2, f2),
# W-SW-W (g2, f1) and SW-W-W (g1, f1). The white pawn on f2 blocks the first, the
# king on f1 the other two -- as long as the king is still on f1.
FALCON_THROUGH_F1 = "5k4/10/10/10/10/10/5P1f2/R4K3R w KQ - 0 1"


def test_castling_attacks_judged_before_castling_king_on_its_start_square():
    # The plain step f1e1 is illegal: with f1 vacated, h2-g2-f1-e1 is open.
    # Free castling: e1 counts as safe (judged with the king still on f1), so every
    # queenside castle is allowed; after f1a1 (king e1, rook f1) the rook blocks f1,
    # so the king on e1 is not in check. The falcon reaches no other square of rank 1
    # (only e1 has dy=-1, |dx|=3) and none of e2, g1, g2.
    castles = ["f1a1", "f1b1", "f1c1", "f1d1", "f1h1", "f1i1", "f1j1"]
    assert moves_from(FALCON_THROUGH_F1, "f1") == sorted(["f1e2", "f1g1", "f1g2", *castles])
    assert "f1d1" in moves_from(FALCON_THROUGH_F1, "f1", "falcon-orthodox-castling")


def test_xboard_castling_attacks_judged_after_castling():
    # XBoard: after f1c1 (king c1, rook d1, f1 empty) the path h2-g2-f1-e1 is open, so
    # e1, which the king passed over, is attacked: f1c1 is illegal. f1i1 is fine.
    assert moves_from(FALCON_THROUGH_F1, "f1", "falcon-xboard") == sorted(
        ["f1e2", "f1g1", "f1g2", "f1i1"]
    )


def test_xboard_judges_even_the_start_square_after_castling():
    # Decision taken from the brief (Fairy-Max as described in NOTES-fairymax.md):
    # the start square f1 is also judged after castling. Black falcon c2 checks f1
    # (+3,-1; steps E,E,SE) only by SE-E-E (d1, e1): the white pawn on d2 blocks
    # E-E-SE and E-SE-E. After f1c1 the rook on d1 blocks that path, so nothing on
    # f1, e1, d1, c1 is attacked and f1c1 is legal although the king stands in check.
    # f1i1 leaves d1 and e1 empty, so f1 stays attacked: illegal.
    fen = "5k4/10/10/10/10/10/2fP6/R4K3R w KQ - 0 1"
    castles = [m for m in moves_from(fen, "f1", "falcon-xboard") if m[2:] in ("c1", "i1")]
    assert castles == ["f1c1"]
    # Under every before-castling preset the king is in check: no castling.
    for variant in ("falcon", "falcon-orthodox-castling", "falcon-modified-free"):
        moves = moves_from(fen, "f1", variant)
        assert not {"f1a1", "f1b1", "f1c1", "f1d1", "f1h1", "f1i1", "f1j1"} & set(moves)


# ---------------------------------------------------------------------- en passant


def test_en_passant_after_a_double_step():
    fen = "5k4/3p6/10/4P5/10/10/10/5K4 b - - 0 1"
    fen = play(fen, ["d7d5"])
    assert fen.split()[3] == "d6"
    assert moves_from(fen, "e5") == ["e5d6", "e5e6"]
    after = play(fen, ["e5d6"])
    assert after.split()[0] == "5k4/10/3P6/10/10/10/10/5K4"


def test_en_passant_for_black():
    fen = play("5k4/10/10/10/3p6/10/4P5/5K4 w - - 0 1", ["e2e4"])
    assert moves_from(fen, "d4") == ["d4d3", "d4e3"]
    assert play(fen, ["d4e3"]).split()[0] == "5k4/10/10/10/10/4p5/10/5K4"


def test_no_en_passant_without_the_fen_square():
    fen = "5k4/10/10/3pP5/10/10/10/5K4 w - - 0 1"
    assert moves_from(fen, "e5") == ["e5e6"]


def test_en_passant_illegal_when_removing_both_pawns_opens_a_rank():
    # White king a5, pawns d5 (black) and e5 (white), black rook j5: after exd6 e.p.
    # rank 5 is open from j5 to a5.
    fen = "5k4/10/10/K2pP4r/10/10/10/10 w - d6 0 1"
    assert moves_from(fen, "e5") == ["e5e6"]


def test_en_passant_illegal_when_it_opens_a_falcon_path():
    # Black falcon c6 reaches d3 (+1,-3; steps S,S,SE) by S-S-SE (c5, c4), S-SE-S
    # (c5, d4) and SE-S-S (d5, d4). The white pawn on c5 blocks the first two, the
    # black pawn on d5 the third. Capturing d5 en passant (with either white pawn)
    # opens SE-S-S onto the white king on d3.
    fen = "9k/10/2f7/2PpP5/10/3K6/10/10 w - d6 0 1"
    assert moves_from(fen, "e5") == ["e5e6"]
    assert moves_from(fen, "c5") == []


# ---------------------------------------------------------------------- promotions


def test_promotions_to_five_pieces_by_push_and_by_capture():
    fen = "r4k4/1P8/10/10/10/10/10/5K4 w - - 0 1"
    expected = [f"b7{to}{piece}" for to in ("a8", "b8") for piece in "qfrbn"]
    assert moves_from(fen, "b7") == sorted(expected)
    assert play(fen, ["b7b8f"]).split()[0].startswith("rF3k4/")


def test_black_promotes_on_rank_1():
    fen = "5k4/10/10/10/10/10/6p3/K6N2 b - - 0 1"
    # g2: push to g1 or capture the knight on h1; f1 is empty (no capture there).
    expected = [f"g2{to}{piece}" for to in ("g1", "h1") for piece in "qfrbn"]
    assert moves_from(fen, "g2") == sorted(expected)
    assert play(fen, ["g2h1f"]).split()[0].endswith("K6f2")


def test_8x8_promotions_are_falcon_rook_bishop_knight():
    # The falcon replaces the queen in this game: there is no queen to promote to.
    fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
    assert moves_from(fen, "b7", "falcon-8x8") == sorted(f"b7b8{p}" for p in "frbn")


# --------------------------------------------------- known values and symmetry


def test_8x8_without_falcons_matches_orthodox_chess_perft():
    # With no falcon on the board and no promotion within reach, falcon-8x8 is
    # orthodox chess, so the published perft numbers must come out.
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert perft(kiwipete, 1, "falcon-8x8") == 48
    assert perft(kiwipete, 2, "falcon-8x8") == 2039
    assert perft(kiwipete, 3, "falcon-8x8") == 97862


def test_8x8_chess_positions_3_and_5():
    position_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
    assert [perft(position_3, d, "falcon-8x8") for d in (1, 2, 3, 4)] == [14, 191, 2812, 43238]
    # Chess position 5 has 44 moves, four of them d7xc8=Q/R/B/N; here they are
    # =F/R/B/N, so still 44.
    position_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
    assert perft(position_5, 1, "falcon-8x8") == 44


SYMMETRY_CASES = [
    (BOTH_SIDES, "falcon", 3),
    (BOTH_SIDES, "falcon-orthodox-castling", 3),
    (BOTH_SIDES, "falcon-modified-free", 3),
    (BOTH_SIDES, "falcon-xboard", 3),
    (FALCON_THROUGH_F1, "falcon", 3),
    (FALCON_THROUGH_F1, "falcon-xboard", 3),
    ("9k/10/2f7/2PpP5/10/3K6/10/10 w - d6 0 1", "falcon", 3),
    ("r4k4/1P8/10/10/10/10/10/5K4 w - - 0 1", "falcon", 3),
    ("rnbfqkfbnr/pppp1ppppp/10/4p5/4P5/10/PPPP1PPPPP/RNBFQKFBNR w KQkq e6 0 2", "falcon", 2),
]


@pytest.mark.parametrize("fen, variant, depth", SYMMETRY_CASES)
def test_colour_flip_gives_the_same_perft(fen, variant, depth):
    assert perft(fen, depth, variant) == perft(colour_flipped(fen), depth, variant)


def test_divide_sums_to_perft():
    fen = "rnbfqkfbnr/pppp1ppppp/10/4p5/4P5/10/PPPP1PPPPP/RNBFQKFBNR w KQkq e6 0 2"
    split = divide(fen, 2)
    assert sorted(split) == legal_moves(fen)
    assert sum(split.values()) == perft(fen, 2)
