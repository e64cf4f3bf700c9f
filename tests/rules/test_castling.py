"""Castling (RULES.md, "Castling"): free by default, and the other presets."""

from __future__ import annotations

import pytest

from boardctl.rules import IllegalMoveError, Position, parse_uci

from .helpers import moves_from, pos, sq

# Kings and rooks at home, nothing else on the back ranks.
OPEN = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"
FREE_CASTLES = ["f1a1", "f1b1", "f1c1", "f1d1", "f1h1", "f1i1", "f1j1"]


def test_free_castling_goes_to_every_square_between_king_and_rook():
    castles = [m for m in moves_from(pos(OPEN), "f1") if m not in ("f1e1", "f1g1")]
    assert castles == FREE_CASTLES
    # The one-square castles are written king-takes-rook; the plain steps stay.
    assert {"f1e1", "f1g1"} <= set(moves_from(pos(OPEN), "f1"))


@pytest.mark.parametrize(
    ("move", "king", "rook_from", "rook_to"),
    [
        ("f1a1", "e1", "a1", "f1"),
        ("f1b1", "b1", "a1", "c1"),
        ("f1c1", "c1", "a1", "d1"),
        ("f1d1", "d1", "a1", "e1"),
        ("f1j1", "g1", "j1", "f1"),
        ("f1h1", "h1", "j1", "g1"),
        ("f1i1", "i1", "j1", "h1"),
    ],
)
def test_rook_jumps_over_the_king_to_the_side_of_its_start(move, king, rook_from, rook_to):
    p = pos(OPEN)
    p.push(parse_uci(p, move))
    assert p.piece_at(sq(p, king))[0].name == "KING"
    assert p.piece_at(sq(p, rook_to))[0].name == "ROOK"
    assert p.piece_at(sq(p, rook_from)) is None or rook_from == rook_to
    assert "K" not in p.fen().split()[2] and "Q" not in p.fen().split()[2]


def test_black_castles_the_same_way():
    p = pos(OPEN.replace(" w ", " b "))
    castles = [m for m in moves_from(p, "f8") if m not in ("f8e8", "f8g8")]
    assert castles == [c.replace("1", "8") for c in FREE_CASTLES]


def test_every_square_between_king_and_rook_must_be_empty():
    # A knight on b1: no castling towards a1 at all, even to d1 or e1.
    p = pos("r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/RN3K3R w KQkq - 0 1")
    assert [m for m in moves_from(p, "f1") if m not in ("f1e1", "f1g1")] == [
        "f1h1",
        "f1i1",
        "f1j1",
    ]


def test_attacked_square_stops_the_king_there_and_beyond():
    # A black rook on h4 with the h-pawn gone attacks h1: g1 is still fine
    # (one-square castle f1j1), h1 and i1 (passing h1) are not.
    p = pos("r4k3r/pppppppppp/10/10/7r2/10/PPPPPPP1PP/R4K3R w KQkq - 0 1")
    castles = set(moves_from(p, "f1")) & set(FREE_CASTLES)
    assert "f1j1" in castles
    assert "f1h1" not in castles and "f1i1" not in castles
    assert {"f1a1", "f1b1", "f1c1", "f1d1"} <= castles


def test_no_castling_out_of_check():
    # A black rook on f3 checks down the open f-file.
    p = pos("r4k3r/pppppppppp/10/10/10/5r4/PPPPP1PPPP/R4K3R w KQkq - 0 1")
    assert p.is_check()
    assert not set(moves_from(p, "f1")) & set(FREE_CASTLES)


def test_attacks_are_judged_with_the_king_still_on_its_start_square():
    # A black falcon on h2 reaches e1 by (g2,f2), (g2,f1) or (g1,f1).  A white
    # pawn on g2 shuts the first two; the third runs through f1, where the
    # king stands.  So e1 is not attacked while the king is at home: castling
    # to e1 (f1a1) and past it is legal, but the plain step f1e1 is not,
    # because the king leaving f1 opens the path.
    p = pos("r4k3r/pppppppppp/10/10/10/10/PPPPPPPf2/R4K3R w KQkq - 0 1")
    fmoves = moves_from(p, "f1")
    assert "f1a1" in fmoves and "f1b1" in fmoves
    assert "f1e1" not in fmoves


def test_castling_rights_go_when_king_or_rook_moves_or_the_rook_is_taken():
    p = pos(OPEN)
    p.push(parse_uci(p, "j1i1"))
    assert p.fen().split()[2] == "Qkq"
    p = pos(OPEN)
    p.push(parse_uci(p, "f1e1"))
    assert p.fen().split()[2] == "kq"
    # A rook that comes back home does not bring the right back.
    p = pos(OPEN)
    for move in ("a1b1", "a8b8", "b1a1", "b8a8"):
        p.push(parse_uci(p, move))
    assert p.fen().split()[2] == "Kk"
    # Taken rook: a white bishop takes a8 and black loses q.
    p = pos("r4k3r/1ppppppppp/B9/10/10/10/PPPPPPPPPP/R4K3R b KQkq - 0 1")
    p.push(parse_uci(p, "b7b6"))
    p.push(parse_uci(p, "a6b7"))
    p.push(parse_uci(p, "f8e8"))
    p.push(parse_uci(p, "b7a8"))
    assert p.fen().split()[2] == "KQ"


def test_orthodox_castling_moves_the_king_exactly_two_squares():
    castles = [
        m
        for m in moves_from(pos(OPEN, "falcon-orthodox-castling"), "f1")
        if m not in ("f1e1", "f1g1")
    ]
    assert castles == ["f1d1", "f1h1"]


def test_modified_free_castling_skips_the_square_next_to_the_king():
    castles = [
        m for m in moves_from(pos(OPEN, "falcon-modified-free"), "f1") if m not in ("f1e1", "f1g1")
    ]
    assert castles == ["f1b1", "f1c1", "f1d1", "f1h1", "f1i1"]


def test_8x8_preset_castles_like_chess():
    p = pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", "falcon-8x8")
    assert [m for m in moves_from(p, "e1") if m not in ("e1d1", "e1f1")] == ["e1c1", "e1g1"]
    p.push(parse_uci(p, "e1c1"))
    assert p.fen().startswith("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq")


def test_king_step_and_one_square_castle_are_different_moves():
    p = pos(OPEN)
    step = parse_uci(p, "f1g1")
    castle = parse_uci(p, "f1j1")
    assert step != castle
    assert not p.is_castling(step) and p.is_castling(castle)
    with pytest.raises(IllegalMoveError):
        parse_uci(pos(OPEN, "falcon-modified-free"), "f1j1")


# falcon-xboard: Fairy-Max's castling, established in docs/fairymax-castling.md.


def test_xboard_king_moves_exactly_three_squares():
    p = pos(OPEN, "falcon-xboard")
    assert [m for m in moves_from(p, "f1") if p.is_castling(parse_uci(p, m))] == [
        "f1c1",
        "f1i1",
    ]
    p.push(parse_uci(p, "f1c1"))
    assert p.board_fen().endswith("/2KR5R")


def test_xboard_castles_out_of_check_when_the_rook_blocks_it():
    # Black falcon i2 checks f1 only through h1 and g1 (the h2 pawn shuts its
    # other paths); after f1i1 the rook stands on h1.
    fen = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPfP/R4K3R w KQkq - 0 1"
    p = pos(fen, "falcon-xboard")
    assert p.is_check()
    assert "f1i1" in moves_from(p, "f1")
    assert "f1i1" not in moves_from(pos(fen), "f1")  # the default rules forbid it


def test_xboard_counts_attacks_that_castling_opens_through_f1():
    # Black falcon h2 reaches e1 through g1 and f1 once the king has left f1
    # (the g2 pawn shuts its other paths).  The default rules judge with the
    # king still on f1 and allow f1c1; Fairy-Max judges after and refuses it.
    fen = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPf2/R4K3R w KQkq - 0 1"
    assert "f1c1" in moves_from(pos(fen), "f1")
    assert "f1c1" not in moves_from(pos(fen, "falcon-xboard"), "f1")


def test_castling_shapes_ignore_attacks_but_not_rights_or_blockers():
    from boardctl.rules.moves import code_to

    pos = Position("5k4/10/10/10/8f1/10/10/5K3R w K - 0 1")  # the falcon on i4 hits g1
    names = sorted(pos.geometry.name(code_to(code)) for code in pos.castling_shapes())
    assert names == ["g1", "h1", "i1"]  # free castling: any square between
    legal = {code for code in pos.legal_codes() if code in pos.castling_shapes()}
    assert legal == set()  # each passes g1
    blocked = Position("5k4/10/10/10/10/10/10/5K1N1R w K - 0 1")
    assert blocked.castling_shapes() == []
    no_right = Position("5k4/10/10/10/10/10/10/5K3R w - - 0 1")
    assert no_right.castling_shapes() == []
