"""Tests of the naive hexagonal generator (tests/naive_hex.py) itself.

Every expectation is taken from docs/rules-hex.md, most of them by pasting the
document's own lists and tables here and parsing them, so a slip in transcription
shows as a failure rather than as a wrong expectation. Cell names are Game Courier
names (a-m with j, straight ranks) for falcon-hex and Glinski names for glinski.
"""

import re
from itertools import permutations

import naive_hex as naive
import pytest
from naive_hex import FALCON_HEX, GLINSKI, divide, legal_moves, perft, play

from .rules.helpers import perft_cases

START = FALCON_HEX.start


def cell(name, variant=FALCON_HEX):
    return naive.parse_cell(name, variant)


def name(c, variant=FALCON_HEX):
    return naive.cell_name(c, variant)


def fen_of(pieces, side="w", en_passant="-", variant=FALCON_HEX):
    board = {cell(where, variant): piece for where, piece in pieces.items()}
    return f"{naive.board_to_fen(board, variant)} {side} - {en_passant} 0 1"


def destinations(fen, start, variant=FALCON_HEX):
    return sorted(
        m[len(start) :]
        for m in legal_moves(fen, variant)
        if m.startswith(start) and not m[len(start)].isdigit()
    )


def mirrored(fen, variant):
    """The position with colours swapped under (q, r) -> (q, -q - r) (section 3.1)."""
    position = naive.parse_fen(fen, variant)
    board = {(q, -q - r): piece.swapcase() for (q, r), piece in position.board.items()}
    ep = position.en_passant
    ep_text = "-" if ep is None else name((ep[0], -ep[0] - ep[1]), variant)
    side = "b" if position.white_to_move else "w"
    return f"{naive.board_to_fen(board, variant)} {side} - {ep_text} 0 1"


# ----------------------------------------------------------------------- the board

# Section 2: the cells of each file, and the six trimmed corners.
FILES = (
    "a8–a12, b6–b13, c5–c13, d4–d13, e3–e13, f2–f13, g2–g12, h1–h12, i1–i11, j1–j10, k1–k9, "
    "l1–l8, m2–m6"
)


def test_the_board_has_the_121_cells_of_section_2():
    expected = set()
    for span in FILES.split(", "):
        low, high = span.split("–")
        for rank in range(int(low[1:]), int(high[1:]) + 1):
            expected.add(f"{low[0]}{rank}")
    assert len(expected) == 121
    assert {name(c) for c in FALCON_HEX.cells} == expected
    assert name((0, 0)) == "g7"
    for corner in ("g1", "g13", "a7", "a13", "m1", "m7"):
        with pytest.raises(ValueError, match="no cell"):
            cell(corner)


def test_glinski_board_names_of_section_1():
    assert len(GLINSKI.cells) == 91
    assert name((0, 0), GLINSKI) == "f6"
    ranks = naive.ranks(GLINSKI)
    # Ranks 1-6 have 11 cells, rank 7 has 9, rank 11 is the single cell f11.
    assert [len(r) for r in ranks] == [1, 3, 5, 7, 9, 11, 11, 11, 11, 11, 11]
    assert [name(c, GLINSKI) for c in ranks[0]] == ["f11"]
    assert {name(c, GLINSKI)[0] for c in GLINSKI.cells} == set("abcdefghikl")


def test_knight_offsets_are_one_orthogonal_then_a_diagonal_30_degrees_away():
    # Section 1.4 states the knight two ways; the module uses the cube permutations.
    via_steps = set()
    for index, direction in enumerate(naive.CLOCKWISE):
        if direction not in naive.ORTHOGONAL:
            continue
        for diagonal in (naive.CLOCKWISE[index - 1], naive.CLOCKWISE[(index + 1) % 12]):
            via_steps.add(naive.add(naive.STEPS[direction], naive.STEPS[diagonal]))
    assert via_steps == set(naive.KNIGHT_OFFSETS)
    assert len(via_steps) == 12
    # ... and they are the distance-3 cells off the orthogonal lines.
    ring = {c for c in naive._hexagon(3) if naive.distance(c) == 3}
    lines = {(3 * q, 3 * r) for q, r in naive.ORTHOGONAL.values()}
    assert ring - lines == via_steps


def test_falcon_targets_are_the_cube_permutations_of_section_4_1():
    reached = set(naive.falcon_paths((0, 0), naive.untrimmed(6)))
    cube = {
        (sign * x, sign * y)
        for base in ((1, 3, -4), (2, 3, -5))
        for x, y, _ in permutations(base)
        for sign in (1, -1)
    }
    assert reached == cube
    assert all(len(paths) == 3 for paths in naive.falcon_paths((0, 0), FALCON_HEX).values())


def test_no_falcon_path_between_two_cells_leaves_the_board():
    # [AMB-3] rules paths through the trimmed corners or off the board out. On this
    # board none exists: the three steps of a falcon move are within 30 degrees of
    # each other, so each cube coordinate changes monotonically along every path and
    # the path stays inside the hexagon; and a corner is extreme in two coordinates,
    # which only steps 60 degrees apart could pass through. So the rule never bites,
    # and a generator that forgot it would still be right here.
    for start in FALCON_HEX.cells:
        for paths in naive.falcon_paths(start, FALCON_HEX).values():
            for first, second in paths:
                assert first in FALCON_HEX.cells and second in FALCON_HEX.cells


# --------------------------------------------------------------------- the opening

# Section 3.1, the table: White's and Black's men.
OPENING_TABLE = """
K h1 | h12
Q f2 | f13
R c5 k1 | c13 k9
N d4 j1 | d13 j10
F e3 i1 | e13 i11
B g2 g3 g4 | g12 g11 g10
P b6 c6 d6 e6 f6 g6 h5 i4 j3 k2 l1 | b13 c12 d11 e10 f9 g8 h8 i8 j8 k8 l8
"""

# Section 3.1: White's 67 first moves.
OPENING_MOVES = """
Kh1: h2 i2 | Qf2: e4 f3 f4 f5 | Rc5: d5 e5 f5 g5 | Rk1: g5 h4 i3 j2 | Bg2: f4 h3 |
Bg3: b13 c11 d9 e4 e7 f5 h4 i2 i5 j6 k7 l8 | Bg4: e5 f3 h2 i3 | Nd4: b7 c7 f5 | Nj1: h4 k3 l2 |
Fe3: b8 c8 d7 i2 | Fi1: e4 j4 k4 l3 |
pawns: b6-b7/b8, c6-c7/c8, d6-d7/d8, e6-e7/e8, f6-f7/f8, g6-g7, h5-h6/h7,
i4-i5/i6, j3-j4/j5, k2-k3/k4, l1-l2/l3.
"""


def test_opening_fen_holds_the_men_of_the_table():
    expected = {}
    for line in OPENING_TABLE.strip().splitlines():
        piece, white, black = re.match(r"(\w) (.*) \| (.*)", line).groups()
        expected.update({cell(c): piece for c in white.split()})
        expected.update({cell(c): piece.lower() for c in black.split()})
    position = naive.parse_fen(START, FALCON_HEX)
    assert position.board == expected
    assert len(expected) == 44
    assert mirrored(START, FALCON_HEX).replace(" b ", " w ") == START


def test_opening_has_the_67_moves_of_section_3_1():
    pieces, pawns = OPENING_MOVES.split("pawns:")
    expected = set()
    for entry in filter(str.strip, pieces.split("|")):
        start, targets = entry.split(":")
        expected |= {start.strip()[1:] + target for target in targets.split()}
    for start, targets in re.findall(r"(\w\d+)-([\w/]+)", pawns):
        expected |= {start + target for target in targets.split("/")}
    assert len(expected) == 67
    assert set(legal_moves(START)) == expected


def test_opening_perft_2_is_4464():
    assert perft(START, 2) == 4464


def test_glinski_opening_is_51_then_2586():
    assert GLINSKI.start.split()[0] == (
        "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1"
    )
    assert perft(GLINSKI.start, 1, "glinski") == 51
    assert perft(GLINSKI.start, 2, "glinski") == 2586


# ---------------------------------------------------------------------- the falcon

# Section 4.2, pasted: the g7 falcon's 24 destinations with their three paths.
CENTRE_FALCON = """
b9  2W+SW : W-W-SW e8,c9 | W-SW-W e8,d8 | SW-W-W f7,d8
b10 2W+NW : W-W-NW e8,c9 | W-NW-W e8,d9 | NW-W-W f8,d9
c8  2SW+W : SW-SW-W f7,e7 | SW-W-SW f7,d8 | W-SW-SW e8,d8
c10 2NW+W : NW-NW-W f8,e9 | NW-W-NW f8,d9 | W-NW-NW e8,d9
d5  2SSW+SW: SSW-SSW-SW f6,e5 | SSW-SW-SSW f6,e6 | SW-SSW-SSW f7,e6
d6  2SW+SSW: SW-SW-SSW f7,e7 | SW-SSW-SW f7,e6 | SSW-SW-SW f6,e6
d11 2NW+NNW: NW-NW-NNW f8,e9 | NW-NNW-NW f8,e10 | NNW-NW-NW f9,e10
d12 2NNW+NW: NNW-NNW-NW f9,e11 | NNW-NW-NNW f9,e10 | NW-NNW-NNW f8,e10
e4  2SSW+S: SSW-SSW-S f6,e5 | SSW-S-SSW f6,f5 | S-SSW-SSW g6,f5
e12 2NNW+N: NNW-NNW-N f9,e11 | NNW-N-NNW f9,f10 | N-NNW-NNW g8,f10
f4  2S+SSW: S-S-SSW g6,g5 | S-SSW-S g6,f5 | SSW-S-S f6,f5
f11 2N+NNW: N-N-NNW g8,g9 | N-NNW-N g8,f10 | NNW-N-N f9,f10
h3  2S+SSE: S-S-SSE g6,g5 | S-SSE-S g6,h4 | SSE-S-S h5,h4
h10 2N+NNE: N-N-NNE g8,g9 | N-NNE-N g8,h9 | NNE-N-N h8,h9
i2  2SSE+S: SSE-SSE-S h5,i3 | SSE-S-SSE h5,h4 | S-SSE-SSE g6,h4
i10 2NNE+N: NNE-NNE-N h8,i9 | NNE-N-NNE h8,h9 | N-NNE-NNE g8,h9
j2  2SSE+SE: SSE-SSE-SE h5,i3 | SSE-SE-SSE h5,i4 | SE-SSE-SSE h6,i4
j3  2SE+SSE: SE-SE-SSE h6,i5 | SE-SSE-SE h6,i4 | SSE-SE-SE h5,i4
j8  2NE+NNE: NE-NE-NNE h7,i7 | NE-NNE-NE h7,i8 | NNE-NE-NE h8,i8
j9  2NNE+NE: NNE-NNE-NE h8,i9 | NNE-NE-NNE h8,i8 | NE-NNE-NNE h7,i8
k4  2SE+E : SE-SE-E h6,i5 | SE-E-SE h6,j5 | E-SE-SE i6,j5
k6  2NE+E : NE-NE-E h7,i7 | NE-E-NE h7,j6 | E-NE-NE i6,j6
l4  2E+SE : E-E-SE i6,k5 | E-SE-E i6,j5 | SE-E-E h6,j5
l5  2E+NE : E-E-NE i6,k5 | E-NE-E i6,j6 | NE-E-E h7,j6
"""
_PATH = r"(\w+)-(\w+)-(\w+) (\w\d+),(\w\d+)"
_ENTRY = re.compile(rf"(\w\d+)\s+2(\w+)\+(\w+)\s*:\s*{_PATH} \| {_PATH} \| {_PATH}")


def test_centre_falcon_has_the_24_destinations_and_paths_of_section_4_2():
    entries = _ENTRY.findall(CENTRE_FALCON)
    assert len(entries) == 24
    g7 = cell("g7")
    computed = naive.falcon_paths(g7, FALCON_HEX)
    assert {name(c) for c in computed} == {entry[0] for entry in entries}
    for target, repeated, odd, *paths in entries:
        listed = set()
        for index in range(3):
            steps = paths[5 * index : 5 * index + 3]
            first, second = (cell(c) for c in paths[5 * index + 3 : 5 * index + 5])
            # The step names of the text lead through the listed cells to the target.
            assert sorted(steps) == sorted([repeated, repeated, odd])
            walked = [g7]
            for step in steps:
                walked.append(naive.add(walked[-1], naive.STEPS[step]))
            assert walked[1:] == [first, second, cell(target)]
            listed.add((first, second))
        assert set(computed[cell(target)]) == listed, target
    # On an empty board (kings out of the way) the falcon moves to all of them.
    fen = fen_of({"g7": "F", "a8": "K", "m2": "k"})
    assert set(destinations(fen, "g7")) == {entry[0] for entry in entries}


def test_opening_falcon_e3_as_in_section_4_3():
    board = naive.parse_fen(START, FALCON_HEX).board
    e3 = cell("e3")
    targets = {name(c) for c in naive.falcon_paths(e3, FALCON_HEX)}
    assert targets == {"b8", "c8", "d7", "b7", "h4", "i2", "f6", "g6", "h5", "j1"}

    def open_paths(target):
        return {
            (name(a), name(b))
            for a, b in naive.open_falcon_paths(board, e3, cell(target), FALCON_HEX)
        }

    assert open_paths("b8") == {("d5", "c7")}
    assert open_paths("c8") == {("d5", "c7")}
    assert open_paths("d7") == {("e4", "e5")}
    assert open_paths("i2") == {("f3", "h2")}
    assert open_paths("h4") == set()
    assert open_paths("b7") == set()
    assert {(name(a), name(b)) for a, b in naive.falcon_paths(e3, FALCON_HEX)[cell("b7")]} == {
        ("d4", "c5"),
        ("d4", "c6"),
        ("d5", "c6"),
    }
    assert destinations(START, "e3") == ["b8", "c8", "d7", "i2"]


def test_queen_knight_and_falcon_miss_the_12_gnu_cells():
    # Section 4.3, on the 91-cell base-6 hexagon around the centre. The document names
    # the cells with the Game Courier names of section 2, whose centre is g7.
    centre = (0, 0)
    reached = set()
    for piece in "QNF":
        reached |= naive.reach({}, centre, piece, GLINSKI)
    missed = GLINSKI.cells - reached - {centre}
    assert {name(c) for c in missed} == {
        "b8",
        "b11",
        "c6",
        "c12",
        "f3",
        "f12",
        "h2",
        "h11",
        "k2",
        "k8",
        "l3",
        "l6",
    }
    gnu = {(x, y) for x, y, _ in permutations((1, 4, -5))}
    assert missed == gnu | {(-x, -y) for x, y in gnu}


def _king_stalemates(variant):
    """Pairs of cells where a lone black king, to move, is stalemated by a lone white king.

    Straight from the rules for two lone kings: the kings do not touch and every cell a
    king step away from the black king is a king step away from the white king.
    """

    def steps(c):
        return {naive.add(c, step) for step in naive.STEPS.values()} & variant.cells

    return {
        (black, white)
        for black in variant.cells
        for white in variant.cells - {black} - steps(black)
        if steps(black) <= steps(white)
    }


def test_a_lone_king_stalemates_a_lone_king_only_on_the_untrimmed_boards():
    # Section 4.3: 6 on the base-6 and on the untrimmed base-7 hexagon, 0 once trimmed.
    for variant, expected in ((GLINSKI, 6), (naive.untrimmed(6), 6), (FALCON_HEX, 0)):
        stalemates = _king_stalemates(variant)
        assert len(stalemates) == expected, variant.name
        for black, white in stalemates:  # the generator agrees
            position = naive.Position({black: "k", white: "K"}, False, None, 0, 1, variant)
            assert naive.legal_move_list(position) == []
            assert not naive.in_check(position)


# ------------------------------------------------------------------------- pawns


def test_promotion_cells_of_section_5():
    white = ["a12", "b13", "c13", "d13", "e13", "f13", "g12", "h12", "i11", "j10", "k9", "l8", "m6"]
    black = ["a8", "b6", "c5", "d4", "e3", "f2", "g2", "h1", "i1", "j1", "k1", "l1", "m2"]
    assert [name(naive.last_cell(q, True, FALCON_HEX)) for q in range(-6, 7)] == white
    assert [name(naive.last_cell(q, False, FALCON_HEX)) for q in range(-6, 7)] == black


def test_promotion_is_compulsory_to_rook_bishop_knight_falcon():
    fen = fen_of({"a11": "P", "g11": "P", "m5": "P", "h1": "K", "h12": "k", "c9": "r"}, "w")
    for start, end in (("a11", "a12"), ("g11", "g12"), ("m5", "m6")):
        assert destinations(fen, start) == sorted(end + p for p in "bfnr")
    # Black on the same short files.
    fen = fen_of({"a9": "p", "g3": "p", "m3": "p", "h1": "K", "h12": "k"}, "b")
    for start, end in (("a9", "a8"), ("g3", "g2"), ("m3", "m2")):
        assert destinations(fen, start) == sorted(end + p for p in "bfnr")
    after = naive.parse_fen(play(fen, ["g3g2f"]), FALCON_HEX)
    assert after.board[cell("g2")] == "f"


def test_glinski_promotes_to_queen_too():
    fen = fen_of({"b6": "P", "a6": "r", "f1": "K", "g10": "k"}, "w", variant=GLINSKI)
    assert destinations(fen, "b6", GLINSKI) == sorted(
        end + p for end in ("a6", "b7") for p in "qrbn"
    )


def test_pawn_captures_forward_at_60_degrees():
    # White NW and NE, Black SW and SE; never the bishop's NNE/NNW.
    fen = fen_of(
        {"g7": "P", "f8": "n", "h7": "n", "h8": "n", "f9": "n", "g8": "n", "a8": "K", "m2": "k"}
    )
    assert destinations(fen, "g7") == ["f8", "h7"]
    fen = fen_of(
        {"g7": "p", "f7": "N", "h6": "N", "h5": "N", "f6": "N", "g6": "N", "a8": "K", "m2": "k"},
        "b",
    )
    assert destinations(fen, "g7") == ["f7", "h6"]


def test_double_step_from_any_start_cell_of_its_colour_even_after_a_capture():
    # Section 5's example: c6xd6 lands on another start cell, which still double-steps.
    fen = fen_of({"c6": "P", "d6": "n", "h1": "K", "h12": "k"})
    assert destinations(fen, "c6") == ["c7", "c8", "d6"]
    after = play(fen, ["c6d6", "h12h11"])
    assert destinations(after, "d6") == ["d7", "d8"]
    # A white pawn on a black start cell, or on no start cell, steps once.
    fen = fen_of({"d11": "P", "c7": "P", "h1": "K", "h12": "k"})
    assert destinations(fen, "d11") == ["d12"]
    assert destinations(fen, "c7") == ["c8"]
    # Both cells must be empty: g6 is blocked by g8 in the opening, not on its own.
    assert destinations(START, "g6") == ["g7"]
    assert destinations(fen_of({"g6": "P", "h1": "K", "h12": "k"}), "g6") == ["g7", "g8"]


def test_en_passant_for_both_colours():
    fen = fen_of({"f9": "p", "g7": "P", "e8": "P", "h1": "K", "h12": "k"}, "b")
    after = play(fen, ["f9f7"])
    assert after.split()[3] == "f8"
    assert destinations(after, "g7") == ["f8", "g8"]
    assert destinations(after, "e8") == ["e9", "f8"]
    assert (
        play(after, ["g7f8"]).split()[0]
        == fen_of({"f8": "P", "e8": "P", "h1": "K", "h12": "k"}).split()[0]
    )
    # Black: White double-steps e6-e8 over e7; Black's f7 and d8 attack e7.
    fen = fen_of({"e6": "P", "f7": "p", "d8": "p", "h1": "K", "h12": "k"})
    after = play(fen, ["e6e8"])
    assert destinations(after, "f7") == ["e7", "f6"]
    assert destinations(after, "d8") == ["d7", "e7"]
    assert "e8" not in play(after, ["d8e7"]).split()[0].replace("/", " ")
    # One move later the chance is gone.
    later = play(after, ["h12h11", "h1h2"])
    assert destinations(later, "f7") == ["f6"]


def test_en_passant_that_opens_a_line_or_a_falcon_path_is_illegal():
    # The NW capturer and the victim stand on one rank: both leave it.
    fen = fen_of({"c7": "K", "g7": "P", "e8": "P", "f7": "p", "k7": "r", "k9": "k"}, "w", "f8")
    assert destinations(fen, "g7") == ["g8"]
    assert destinations(fen, "e8") == ["e9", "f8"]
    # The victim on f7 was the last blocker of the g6 falcon's path f7-d8 to b9.
    fen = fen_of(
        {"b9": "K", "e7": "R", "e8": "P", "g7": "P", "f7": "p", "g6": "f", "m4": "k"}, "w", "f8"
    )
    assert destinations(fen, "g7") == ["g8"]
    assert destinations(fen, "e8") == ["e9"]
    assert destinations(fen, "e7") == []


def test_falcon_pin_lets_the_pinned_man_move_along_its_own_path():
    # Black falcon g7, white king b9: paths e8-c9, e8-d8, f7-d8. The knight on e8
    # blocks two of them, the bishop on f7 the third; the bishop may step to d8,
    # still on the path, and nowhere else; the knight may not move at all.
    fen = fen_of({"b9": "K", "f7": "B", "e8": "N", "g7": "f", "m4": "k", "c13": "r"})
    assert destinations(fen, "f7") == ["d8"]
    assert destinations(fen, "e8") == []


def test_falcon_check_through_one_open_path():
    # The pawn on e8 closes two of the three paths g7-b9; f7-d8 stays open.
    fen = fen_of(
        {"h1": "K", "i1": "R", "g7": "F", "b9": "k", "e8": "p", "d13": "r", "a12": "n"}, "b"
    )
    assert naive.in_check(naive.parse_fen(fen, FALCON_HEX))
    assert legal_moves(fen) == ["b9a10", "b9a11", "b9a8", "b9c9", "b9d8", "d13d8"]


def test_double_check_leaves_only_king_moves():
    fen = fen_of({"b9": "k", "g7": "F", "b6": "R", "h1": "K", "d13": "r", "e8": "p"}, "b")
    assert all(move.startswith("b9") for move in legal_moves(fen))
    single = fen_of({"b9": "k", "g7": "F", "h1": "K", "d13": "r", "e8": "p"}, "b")
    assert "d13d8" in legal_moves(single)


def test_falcon_mate_when_blocking_one_path_leaves_another_open():
    # Fb11 reaches a8 by a10-a9 (own king), b10-a9 and b10-b9. The rook may go to a9
    # or b9, but either leaves one path through b10 open.
    fen = fen_of({"a8": "k", "a10": "K", "b11": "F", "e5": "N", "e9": "r", "l4": "b"}, "b")
    assert naive.in_check(naive.parse_fen(fen, FALCON_HEX))
    assert legal_moves(fen) == []
    without_knight = fen_of({"a8": "k", "a10": "K", "b11": "F", "e9": "r", "l4": "b"}, "b")
    assert not [move for move in legal_moves(without_knight) if move.startswith("e9")]


def test_stalemate_has_no_moves_and_no_check():
    fen = fen_of({"a8": "k", "a10": "K", "f3": "F", "d7": "R", "m5": "p", "m4": "P"}, "b")
    position = naive.parse_fen(fen, FALCON_HEX)
    assert legal_moves(fen) == []
    assert not naive.in_check(position)


# --------------------------------------------------------------- FEN and the API


def test_fen_round_trips_and_reports_bad_ranks():
    for variant in (FALCON_HEX, GLINSKI):
        assert naive.to_fen(naive.parse_fen(variant.start, variant)) == variant.start
    bad_length = START.replace("prnfq/", "prnf/", 1)
    with pytest.raises(ValueError, match="has 4 cells, not 5"):
        naive.parse_fen(bad_length, FALCON_HEX)
    with pytest.raises(ValueError, match="13 ranks"):
        naive.parse_fen(START.replace("prnfq/", "", 1), FALCON_HEX)
    with pytest.raises(ValueError, match="no cell 'g1'"):
        naive.parse_fen(START.replace("w - -", "w - g1"), FALCON_HEX)
    with pytest.raises(ValueError, match="has 12 cells, not 11"):
        naive.parse_fen(START.replace("/11/", "/12/", 1), FALCON_HEX)
    with pytest.raises(ValueError, match="longer than 11"):
        naive.parse_fen(START.replace("/11/", "/11P/", 1), FALCON_HEX)


def test_divide_sums_to_perft():
    fen = fen_of(
        {"b9": "K", "e7": "R", "e8": "P", "g7": "P", "f7": "p", "g6": "f", "m4": "k"}, "w", "f8"
    )
    split = divide(fen, 3)
    assert sorted(split) == legal_moves(fen)
    assert sum(split.values()) == perft(fen, 3)


# ---------------------------------------------------------------- the data file


CASES = perft_cases("perft_hex.txt")


def _shallow(counts):
    """The depths re-counted here: 1, and 2 where that is quick."""
    return 2 if len(counts) > 1 and counts[1] <= 2000 else 1


@pytest.mark.parametrize(
    ("label", "variant", "fen", "counts"), CASES, ids=[f"{case[0]} ({case[1]})" for case in CASES]
)
def test_recorded_counts_hold_at_the_shallow_depths(label, variant, fen, counts):
    # The deeper counts took the naive generator up to a minute each, and the openings'
    # depth 2 has its own test above; the core is held to all of them in
    # tests/rules/test_hex_agreement.py.
    depths = range(1, _shallow(counts) + 1)
    assert [perft(fen, depth, variant) for depth in depths] == counts[: len(depths)]


@pytest.mark.parametrize(
    ("label", "variant", "fen", "counts"), CASES, ids=[f"{case[0]} ({case[1]})" for case in CASES]
)
def test_recorded_positions_count_the_same_with_colours_swapped(label, variant, fen, counts):
    depth = _shallow(counts)
    assert perft(mirrored(fen, naive.VARIANTS[variant]), depth, variant) == counts[depth - 1]
