"""The hexagonal boards' cells, names and falcon paths against RULES-HEX.md."""

from collections import Counter

import pytest

from boardctl.rules.hexgeo import (
    COMPASS,
    FALCON_HEX,
    GLINSKI,
    ORTHOGONAL,
    CellError,
    falcon_steps,
    knight_leaps,
)

# RULES-HEX.md section 2: the cells of each file, a to m.
FILES = {
    "a": (8, 12),
    "b": (6, 13),
    "c": (5, 13),
    "d": (4, 13),
    "e": (3, 13),
    "f": (2, 13),
    "g": (2, 12),
    "h": (1, 12),
    "i": (1, 11),
    "j": (1, 10),
    "k": (1, 9),
    "l": (1, 8),
    "m": (2, 6),
}


def cells(text: str) -> list[str]:
    return sorted(text.split())


def test_the_falcon_board_has_the_121_named_cells():
    names = {FALCON_HEX.name(c) for c in range(FALCON_HEX.size)}
    expected = {f"{f}{n}" for f, (lo, hi) in FILES.items() for n in range(lo, hi + 1)}
    assert FALCON_HEX.size == 121
    assert names == expected
    for corner in ("g1", "g13", "a7", "a13", "m1", "m7"):
        with pytest.raises(CellError):
            FALCON_HEX.parse_cell(corner)


def test_names_round_trip_and_bad_names_are_refused():
    for cell in range(FALCON_HEX.size):
        assert FALCON_HEX.parse_cell(FALCON_HEX.name(cell)) == cell
    for bad in ("", "g", "g07", "g7 ", "G7", "g²", "n1", "a14"):
        with pytest.raises(CellError):
            FALCON_HEX.parse_cell(bad)


def test_colours_count_37_42_42_and_neighbours_differ():
    assert Counter(FALCON_HEX.colour(c) for c in range(121)) == {0: 37, 1: 42, 2: 42}
    assert FALCON_HEX.colour(FALCON_HEX.parse_cell("g7")) == 0
    for cell in range(121):
        for d in ORTHOGONAL:
            n = FALCON_HEX.step(cell, d)
            if n is not None:
                assert FALCON_HEX.colour(n) != FALCON_HEX.colour(cell)


def test_the_falcon_reaches_24_cells_from_the_centre_each_by_three_paths():
    g7 = FALCON_HEX.parse_cell("g7")
    paths = FALCON_HEX.falcon_paths(g7)
    assert len(falcon_steps()) == 24
    assert sorted(FALCON_HEX.name(c) for c in paths) == cells(
        "b9 b10 c8 c10 d5 d6 d11 d12 e4 e12 f4 f11 h3 h10 i2 i10 j2 j3 j8 j9 k4 k6 l4 l5"
    )
    assert all(len(p) == 3 for p in paths.values())
    # 4.2: b9 by W-W-SW e8,c9 | W-SW-W e8,d8 | SW-W-W f7,d8
    b9 = {tuple(FALCON_HEX.name(c) for c in p) for p in paths[FALCON_HEX.parse_cell("b9")]}
    assert b9 == {("e8", "c9"), ("e8", "d8"), ("f7", "d8")}
    # Every destination changes colour (the seed: "the falcon always changes colour").
    assert all(FALCON_HEX.colour(t) != 0 for t in paths)


def test_knight_leaps_are_the_cube_permutations_of_1_2_3():
    cube = {tuple(sorted((abs(q), abs(r), abs(q + r)))) for q, r in knight_leaps()}
    assert len(set(knight_leaps())) == 12 and cube == {(1, 2, 3)}


def test_promotion_cells_are_the_last_cell_of_each_file():
    white = sorted(FALCON_HEX.name(c) for c in FALCON_HEX.last_cells("N"))
    black = sorted(FALCON_HEX.name(c) for c in FALCON_HEX.last_cells("S"))
    assert white == cells("a12 b13 c13 d13 e13 f13 g12 h12 i11 j10 k9 l8 m6")
    assert black == cells("a8 b6 c5 d4 e3 f2 g2 h1 i1 j1 k1 l1 m2")


def test_glinski_board_names_and_size():
    assert GLINSKI.size == 91
    f6 = GLINSKI.parse_cell("f6")
    assert GLINSKI.axial(f6) == (0, 0)
    assert GLINSKI.axial(GLINSKI.parse_cell("g1")) == (1, -5)
    assert GLINSKI.axial(GLINSKI.parse_cell("f11")) == (0, 5)
    with pytest.raises(CellError):
        GLINSKI.parse_cell("j1")


# ------------------------------------------------ one protocol, both shapes
def test_both_shapes_answer_the_board_geometry_questions():
    """What code above the rules may ask of any preset's board."""
    from boardctl.rules import Geometry, SquareError, get_variant

    rect = Geometry(10, 8)
    e4 = rect.parse_square("e4")
    assert rect.directions == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    assert [rect.name(rect.step(e4, d)) for d in ("N", "NE", "W")] == ["e5", "f5", "d4"]
    assert rect.step(rect.parse_square("a1"), "SW") is None
    assert [rect.name(s) for s in rect.ray(e4, "SE")] == ["f3", "g2", "h1"]
    assert rect.name(rect.leap(e4, (1, 2))) == "f6"
    assert (rect.shades, rect.shade(0), rect.shade(1)) == (2, 0, 1)
    assert len(rect.falcon_paths(e4)) == 16
    assert [rect.name(r[0]) for r in rect.fen_rows()][:2] == ["a8", "a7"]

    hexa = get_variant("falcon-hex").geometry
    g7 = hexa.parse_square("g7")
    assert hexa.directions[:3] == ("N", "NNE", "NE")
    assert (hexa.files, hexa.ranks, hexa.shades, hexa.shade(g7)) == (13, 13, 3, 0)
    assert hexa.name(hexa.square(hexa.file_of(g7), hexa.rank_of(g7))) == "g7"
    assert [hexa.name(c) for c in hexa.fen_rows()[0]] == ["b13", "c13", "d13", "e13", "f13"]
    with pytest.raises(SquareError):
        hexa.parse_square("g13")  # a CellError is a SquareError
    assert len(hexa.falcon_paths(g7)) == 24


@pytest.mark.parametrize("geo", [FALCON_HEX, GLINSKI])
def test_hex_tables_agree_with_the_geometry(geo):
    """Each table against a direct walk over the board's cells."""
    t = geo.tables
    for cell in range(geo.size):
        assert t.king[cell] == sum(
            1 << c for d, _ in COMPASS if (c := geo.step(cell, d)) is not None
        )
        for masks, tables in t.rook_lines + t.bishop_lines:
            assert tables[cell][0] & masks[cell] == masks[cell]  # empty board: whole line
        assert t.rook_attacks(cell, 0) == t.rook_empty[cell]
        assert t.bishop_attacks(cell, 0) == t.bishop_empty[cell]
        assert t.falcon_attacks(cell, 0) == t.falcon_empty[cell]
        assert t.falcon_attacks(cell, t.all ^ (1 << cell)) == 0  # every path blocked
        up = t.pawn_push[0][cell]
        assert (up == -1) == (geo.step(cell, "N") is None) == bool(t.promotion[0] >> cell & 1)
    # a rook on the centre with a man two cells north: that man is reached,
    # the cell behind it is not
    centre = geo.parse_cell("g7" if geo is FALCON_HEX else "f6")
    blocker = geo.ray(centre, "N")[1]
    att = t.rook_attacks(centre, 1 << blocker)
    assert att >> blocker & 1 and not att >> geo.ray(centre, "N")[2] & 1


@pytest.mark.parametrize("geo", [FALCON_HEX, GLINSKI])
def test_no_falcon_path_to_a_cell_of_the_board_leaves_the_board(geo):
    """AMB-3 (paths through a trimmed corner or off the board are blocked)
    never decides a move on these boards.  The hexagon is convex and a
    falcon's steps, 30° apart, change each cube coordinate in one direction
    only, so every cell of a path lies between its ends on each axis, inside
    the hexagon; and, as this test finds, no path crosses a trimmed corner."""
    for cell in range(geo.size):
        assert all(len(paths) == 3 for paths in geo.falcon_paths(cell).values())
