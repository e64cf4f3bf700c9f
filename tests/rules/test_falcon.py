"""The falcon (RULES.md, "The pieces"): 16 squares, three paths each, no jumping."""

from __future__ import annotations

from boardctl.rules import Geometry, falcon_steps

from .helpers import moves_from, pos, sq

# A lone white falcon on e4 with the kings out of its way.
LONE = "k9/10/10/10/4F5/10/10/9K w - - 0 1"


def test_falcon_reaches_the_squares_neither_queen_nor_knight_reaches():
    p = pos(LONE)
    geo = p.geometry
    e4 = sq(p, "e4")
    f0, r0 = geo.file_of(e4), geo.rank_of(e4)
    expected = set()
    for df in range(-3, 4):
        for dr in range(-3, 4):
            queen = df == 0 or dr == 0 or abs(df) == abs(dr)
            knight = {abs(df), abs(dr)} == {1, 2}
            if not queen and not knight:
                expected.add(geo.name(geo.square(f0 + df, r0 + dr)))
    got = {m[2:] for m in moves_from(p, "e4")}
    assert len(got) == 16
    assert got == expected


def test_each_destination_has_exactly_three_paths_in_the_documented_order():
    p = pos(LONE)
    name = p.geometry.name
    # (+1,+3): steps N, N, NE; paths N-N-NE, N-NE-N, NE-N-N.
    assert [(name(a), name(b)) for a, b in p.open_falcon_paths(sq(p, "e4"), sq(p, "f7"))] == [
        ("e5", "e6"),
        ("e5", "f6"),
        ("f5", "f6"),
    ]
    # (+2,+3): steps NE, NE, N; paths NE-NE-N, NE-N-NE, N-NE-NE.
    assert [(name(a), name(b)) for a, b in p.open_falcon_paths(sq(p, "e4"), sq(p, "g7"))] == [
        ("f5", "g6"),
        ("f5", "f6"),
        ("e5", "f6"),
    ]


def test_falcon_steps_are_two_alike_and_one_at_45_degrees():
    steps = falcon_steps()
    assert len(steps) == 16
    assert len({(2 * a[0] + b[0], 2 * a[1] + b[1]) for a, b in steps}) == 16
    for a, b in steps:
        # 45° apart: the dot product of unit king steps is 1 (straight·diag).
        assert a[0] * b[0] + a[1] * b[1] == 1


def test_every_path_lies_on_the_board_near_edges():
    geo = Geometry(10, 8)
    tables = geo.tables
    for frm in range(geo.size):
        for to, paths in tables.falcon_paths[frm].items():
            assert len(paths) == 3
            for a, b in paths:
                assert 0 <= a < geo.size and 0 <= b < geo.size
                assert a not in (frm, to) and b not in (frm, to)


def test_one_open_path_is_enough():
    # e4→f7 crosses (e5,e6), (e5,f6) or (f5,f6): pawns on e5 and f5 block all three.
    blocked = "k9/10/10/4PP4/4F5/10/10/9K w - - 0 1"
    assert "e4f7" not in moves_from(pos(blocked), "e4")
    # Pawns on e5 and e6 leave only (f5,f6) open.
    one_open = "k9/10/4P5/4P5/4F5/10/10/9K w - - 0 1"
    p = pos(one_open)
    assert "e4f7" in moves_from(p, "e4")
    assert p.open_falcon_paths(sq(p, "e4"), sq(p, "f7")) == [(sq(p, "f5"), sq(p, "f6"))]


def test_falcon_never_jumps_even_over_enemy_pieces():
    # Black pawns on e5 and f5 block every path to f7 and to e7's neighbours.
    p = pos("k9/10/10/4pp4/4F5/10/10/9K w - - 0 1")
    assert "e4f7" not in moves_from(p, "e4")
    assert "e4g7" not in moves_from(p, "e4")  # paths (f5,g6) (f5,f6) (e5,f6)


def test_falcon_captures_enemy_but_not_own_and_never_moves_one_or_two_squares():
    p = pos("k9/5p4/10/10/4F5/10/10/9K w - - 0 1")
    assert "e4f7" in moves_from(p, "e4")  # capture
    p = pos("k9/5P4/10/10/4F5/10/10/9K w - - 0 1")
    assert "e4f7" not in moves_from(p, "e4")  # own piece
    for m in moves_from(pos(LONE), "e4"):
        frm, to = m[:2], m[2:]
        df = abs(ord(frm[0]) - ord(to[0]))
        dr = abs(int(frm[1]) - int(to[1]))
        assert max(df, dr) == 3


def test_falcon_gives_check_through_one_open_path_and_not_through_none():
    # Black king f7, white falcon e4: paths (e5,e6) (e5,f6) (f5,f6).
    check = pos("10/5k4/10/10/4F5/10/10/9K b - - 0 1")
    assert check.is_check()
    shut = pos("10/5k4/4p5/4pp4/4F5/10/10/9K b - - 0 1")
    assert not shut.is_check()


def test_sole_blocker_of_a_falcon_path_is_pinned_to_that_path():
    # White king f1, black falcon g4 (offset -1,-3 from g4 to f1): paths
    # (g3,g2), (g3,f2), (f3,f2).  A white pawn on g2 shuts the first; a white
    # knight on f2 alone shuts the other two, so it is pinned: its only legal
    # move is to take the falcon.
    p = pos("k9/10/10/10/6f3/10/5NP3/5K4 w - - 0 1")
    assert not p.is_check()
    assert moves_from(p, "f2") == ["f2g4"]
    # The pawn is the sole blocker of (g3,g2): its push to g3 stays on that
    # path, so it is legal.
    assert moves_from(p, "g2") == ["g2g3"]


def test_pinned_piece_may_move_along_the_path_or_capture_the_falcon():
    # Black falcon f4 attacks king g1 (offset +1,-3): steps S,S,SE; paths
    # S-S-SE (f3,f2), S-SE-S (f3,g2), SE-S-S (g3,g2). White rooks: f3 blocks
    # the first two, a white pawn on g2 the last two... make f3 the sole
    # blocker of the first path only: put white pawns on g2 (blocks 2nd, 3rd).
    p = pos("k9/10/10/10/5f4/5R4/6P3/6K3 w - - 0 1")
    assert not p.is_check()
    rook = moves_from(p, "f3")
    assert "f3f2" in rook  # stays on the path (f3,f2)
    assert "f3f4" in rook  # captures the falcon
    assert "f3e3" not in rook and "f3f1" not in rook
