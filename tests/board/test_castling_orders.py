"""Every free-castling destination, for both colours, in every order of hands."""

from __future__ import annotations

import pytest

from boardctl.rules import parse_uci

from .helpers import Table

OPEN = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R {} KQkq - 0 1"
CASTLES = ["f1a1", "f1b1", "f1c1", "f1d1", "f1h1", "f1i1", "f1j1"]
ORDERS = ["king first", "rook first", "rook first, slowly", "both together"]


@pytest.mark.parametrize("colour", ["w", "b"])
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("castle", CASTLES)
def test_castling(castle, order, colour):
    if colour == "b":
        castle = castle.replace("1", "8")
    t = Table(OPEN.format(colour))
    pos = t.game.position
    code = pos.code_of(parse_uci(pos, castle))
    name = pos.geometry.name
    king_from, king_to = name(code & 127), name(code >> 7 & 127)
    rook_from, rook_to = (name(sq) for sq in pos.castle_rook_squares(code & 127, code >> 7 & 127))
    if order == "king first":
        t.lift(king_from)
        t.place(king_to)
        t.wait(1)
        t.lift(rook_from)
        t.place(rook_to)
    elif order.startswith("rook first"):
        t.lift(rook_from)
        if rook_to == king_from:
            # The rook can only land once the king has left its square.
            t.lift(king_from)
            t.place(king_to)
            t.place(rook_to)
        else:
            t.place(rook_to)
            t.wait(1 if "slowly" in order else 0.1)
            t.lift(king_from)
            t.place(king_to)
    else:
        t.lift(king_from, rook_from)
        t.place(king_to, rook_to)
    t.wait(3)
    assert [pos.uci(m) for m in t.game.moves] == [castle], t.lines()
    assert not [line for line in t.lines() if line.startswith("error")]
