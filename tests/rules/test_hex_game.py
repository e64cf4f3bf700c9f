"""Hex FEN, moves, notation, PGN and game outcomes of the hexagonal presets
(RULES-HEX.md), told as positions at the board."""

from __future__ import annotations

import random

import pytest

from boardctl.rules import (
    FenError,
    Game,
    IllegalMoveError,
    Position,
    Termination,
    get_variant,
    is_dead_position,
    parse_san,
    parse_uci,
    san,
)
from boardctl.rules.hexgeo import ORTHOGONAL
from boardctl.rules.pgn import export, read_game

from .test_hex_perft import CASES

HEX = get_variant("falcon-hex")
GLINSKI = get_variant("glinski")
OPENING = (
    "prnfq/2p3bk/3p2b1f/4p1b2n/5p4r/6pppppp/11/PPPPPP6/R4P5/N2B1P4/F1B2P3/QB3P2/KFNRP w - - 0 1"
)
STALEMATE = "5/k7/3Q5/2K7/11/12/8F2/12/11/10/9/8/5 b - - 0 1"


def position(fen: str | None = None, variant=HEX) -> Position:
    return Position(fen, variant)


def board(white: str, black: str, turn: str = "w", variant=HEX) -> str:
    """The hex FEN of men given as ``"Kh1 Pb12"`` (cell names), no ep cell."""
    geo = variant.geometry
    men = {geo.parse_square(item[1:]): item[0] for item in white.split()}
    men.update({geo.parse_square(item[1:]): item[0].lower() for item in black.split()})
    rows = []
    for cells in geo.fen_rows():
        row, empty = "", 0
        for cell in cells:
            if cell in men:
                row += (str(empty) if empty else "") + men[cell]
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {turn} - - 0 1"


def names(pos: Position) -> set[str]:
    return {pos.uci(m) for m in pos.legal_moves()}


def play(pos: Position, *moves: str) -> None:
    for text in moves:
        pos.push(parse_uci(pos, text))


# ------------------------------------------------------------------ FEN
def test_the_opening_fen_is_the_rules_one_and_round_trips():
    assert position().fen() == OPENING
    assert position(OPENING).fen() == OPENING
    assert str(position()).splitlines()[0] == "p r n f q"


def test_fens_of_random_games_round_trip_with_their_hash():
    rng = random.Random(7)
    for variant in (HEX, GLINSKI):
        pos = position(None, variant)
        for _ in range(120):
            codes = pos.legal_codes()
            if not codes:
                break
            pos.make(rng.choice(codes))
            again = Position(pos.fen(), variant)
            assert again.fen() == pos.fen()
            assert again.hash == pos.hash


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        # a cell that does not exist: rank 13 has five cells, b13 to f13
        (
            OPENING.replace("prnfq/", "prnfqp/"),
            "rank 13 has 6 cells where the board has 5 (b13 to f13)",
        ),
        (OPENING.replace("/11/", "/12/"), "bad empty count '12' in rank 7 of 11 cells"),
        (OPENING.replace("/KFNRP", ""), "expected 13 ranks, got 12"),
        (OPENING.replace("/KFNRP", "/KFNRP/5"), "expected 13 ranks, got 14"),
        (OPENING.replace("/11/", "/10/"), "rank 7 has 10 cells where the board has 11 (b7 to l7)"),
        (OPENING.replace(" - - ", " KQkq - "), "falcon-hex has no castling"),
        (OPENING.replace(" - - ", " - g13 "), "'g13' is not a cell"),
        (OPENING.replace(" - - ", " - g7 "), "g7 is not behind a pawn that just moved two"),
        (
            "5/1P5k/9/10/11/12/11/12/11/10/9/8/K4 w - - 0 1".replace("1P5k", "6Pk"),
            "a pawn stands on g12, the last cell of its file",
        ),
        (
            "rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1",
            "expected 13 ranks, got 8",
        ),
    ],
)
def test_a_malformed_hex_fen_is_refused_in_one_line(fen, message):
    with pytest.raises(FenError) as err:
        position(fen)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_a_white_pawn_may_stand_on_blacks_last_cells():
    """White's pawn starts on l1, which is where Black promotes on the l-file."""
    pos = position("5/7k/9/10/11/12/11/12/11/10/9/8/K3P w - - 0 1")
    assert {"l1l2", "l1l3"} <= names(pos)


# ---------------------------------------------------------------- pawns
def test_en_passant_takes_the_pawn_that_stepped_over_the_cell():
    pos = position("5/7k/9/10/11/7p4/5P5/12/11/10/9/8/K4 b - - 0 1")
    play(pos, "h8h6")
    assert pos.fen().split()[3] == "h7"
    geo = pos.geometry
    assert pos.en_passant_victim(geo.parse_square("h7")) == geo.parse_square("h6")
    before = pos.hash
    play(pos, "g7h7")
    assert pos.piece_at(pos.geometry.parse_square("h6")) is None
    assert pos.fen().split()[0] == "5/7k/9/10/11/12/6P4/12/11/10/9/8/K4"
    pos.pop()
    assert pos.hash == before and pos.fen().split()[3] == "h7"


def test_en_passant_that_would_expose_the_king_is_refused():
    pos = position("5/2p4k/9/3K6/11/7p4/5P5/12/11/10/6r2/1B6/5 b - - 0 1")
    play(pos, "h8h6")
    assert "g7h7" not in names(pos)
    assert "g7g8" in names(pos)


def test_a_pawn_that_captured_onto_a_start_cell_may_step_twice():
    pos = position("5/7k/9/4p5/11/12/11/1Pn1P7/11/10/9/8/K4 w - - 0 1")
    play(pos, "c6d6", "e10e9")
    assert "d6d8" in names(pos)
    play(pos, "d6d8")
    assert pos.fen().split()[3] == "d7"


def test_the_centre_pawn_steps_twice_once_its_way_is_clear():
    assert "g6g8" not in names(position())  # g8 holds Black's pawn
    assert "g6g8" in names(position(OPENING.replace("/6pppppp/", "/7ppppp/")))


@pytest.mark.parametrize(
    ("fen", "pushes"),
    [
        (
            "5/2P2n2/Pr4P2/10/p7k2/12/11/3K8/10P/10/2p5p/6b1/5 w - - 0 1",
            {"a11a12": "a12", "g11g12": "g12", "m5m6": "m6"},
        ),
        (
            "5/2P2n2/Pr4P2/10/p7k2/12/11/3K8/10P/10/2p5p/6b1/5 b - - 0 1",
            {"a9a8": "a8", "g3g2": "g2", "m3m2": "m2"},
        ),
    ],
)
def test_promotion_is_compulsory_on_the_last_cell_of_the_short_files(fen, pushes):
    pos = position(fen)
    moves = names(pos)
    for push in pushes:
        assert push not in moves
        assert {push + p for p in "rbnf"} <= moves
        assert push + "q" not in moves


def test_glinski_promotes_to_a_queen_too():
    pos = position(board("Kg1 Pe9", "Kl6", variant=GLINSKI), GLINSKI)
    assert {"e9e10q", "e9e10r", "e9e10b", "e9e10n"} <= names(pos)
    assert "e9e10" not in names(pos) and "e9e10f" not in names(pos)


def test_no_castling_on_the_hexagon():
    pos = position("5/7k/9/10/11/12/11/12/11/10/9/8/K2R1 w - - 0 1")
    assert pos.castling_shapes() == []
    assert all(len(m) <= 6 for m in names(pos))


# ------------------------------------------------------------ notation
def test_coordinate_moves_name_cells_and_the_promotion_piece():
    pos = position(board("Kh1 Pb12", "Kh12"))
    move = parse_uci(pos, "b12b13f")
    assert pos.uci(move) == "b12b13f"
    assert san(pos, move) == "b13=F"
    with pytest.raises(IllegalMoveError):
        parse_uci(pos, "b12b13q")


def test_san_round_trips_over_random_games():
    rng = random.Random(14)
    for variant in (HEX, GLINSKI):
        for _ in range(6):
            pos = position(None, variant)
            for ply in range(100):
                moves = pos.legal_moves()
                if not moves:
                    break
                # Every move of every tenth position, a sample of the rest:
                # parse_san generates the moves again, so all of them at
                # every ply would cost the suite 40 s for little more reach.
                checked = moves if ply % 10 == 0 else rng.sample(moves, min(4, len(moves)))
                for move in checked:
                    assert parse_san(pos, san(pos, move)) == move
                pos.push(rng.choice(moves))


def test_san_of_the_opening_names_a_piece_and_its_cell():
    pos = position()
    texts = {san(pos, m) for m in pos.legal_moves()}
    assert {"Fb8", "Fi2", "Bxb13", "Bxl8", "Kh2", "b8", "Nf5", "Rf5", "Qf5", "Bf5"} <= texts


# ------------------------------------------------------------- outcomes
def test_stalemate_scores_three_quarters_to_the_side_that_gives_it():
    game = Game(HEX, STALEMATE)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.SCORED_STALEMATE
    assert outcome.winner == 0
    assert outcome.points == (0.75, 0.25)
    assert outcome.result == "1-0"
    assert outcome.score == "3/4-1/4"
    assert str(outcome) == "White stalemates Black and scores 3/4-1/4"
    assert GLINSKI.stalemate_points == 0.75


def test_black_giving_stalemate_scores_the_three_quarters():
    """The stalemate above with colours and sides swapped (mirrored)."""
    white = Position(STALEMATE, HEX)
    geo = white.geometry
    men = []
    for cell in range(geo.size):
        man = white.piece_at(cell)
        if man:
            q, r = geo.axial(cell)
            mirror = geo.cell_at(q, -q - r)
            assert mirror is not None
            men.append((man[1], man[0].symbol.upper() + geo.name(mirror)))
    fen = board(
        " ".join(m for c, m in men if c == 1), " ".join(m for c, m in men if c == 0), turn="w"
    )
    outcome = Game(HEX, fen).outcome()
    assert outcome is not None and outcome.termination is Termination.SCORED_STALEMATE
    assert outcome.winner == 1 and outcome.points == (0.25, 0.75) and outcome.result == "0-1"


def test_stalemate_on_the_rectangle_is_still_a_draw():
    game = Game(get_variant("falcon"), "k9/2Q7/1K8/10/10/10/10/10 b - - 0 1")
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.STALEMATE
    assert outcome.result == "1/2-1/2" and outcome.points == (0.5, 0.5)


def test_pgn_says_what_a_scored_stalemate_is_worth_and_reads_back():
    game = Game(HEX, STALEMATE)
    text = export(game)
    assert '[Variant "Falcon Hexagonal"]' in text
    assert '[Result "1-0"]' in text
    assert "{White stalemates Black and scores 3/4-1/4} 1-0" in text
    tags, again = read_game(text)
    assert tags["Result"] == "1-0"
    assert again.variant is HEX and again.start_fen == STALEMATE
    assert again.outcome() == game.outcome()


def test_pgn_of_a_hex_game_round_trips():
    rng = random.Random(3)
    for variant, tag in ((HEX, "Falcon Hexagonal"), (GLINSKI, "Glinski")):
        game = Game(variant)
        for _ in range(40):
            moves = game.position.legal_moves()
            if not moves or game.outcome():
                break
            game.push(rng.choice(moves))
        text = export(game)
        assert f'[Variant "{tag}"]' in text and "SetUp" not in text
        _, again = read_game(text)
        assert again.variant is variant
        assert again.moves == game.moves


@pytest.mark.parametrize(
    ("fen", "mover"),
    [
        ("5/8/9/10/11/12/11/12/11/3N6/3K5/8/k4 b - - 0 1", "knight"),
        ("5/8/9/10/11/12/11/12/11/10/2BK5/8/k4 b - - 0 1", "bishop"),
    ],
)
def test_a_lone_knight_or_bishop_can_mate_on_the_hexagon(fen, mover):
    """Black Kh1, White Kh3 and Ng4 or Bg3: mate, so K+N v K and K+B v K
    (a bishop on h1's colour) are not dead positions here."""
    game = Game(HEX, fen)
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert not is_dead_position(game.position)


@pytest.mark.parametrize(
    ("fen", "dead"),
    [
        ("5/8/9/7k2/11/12/11/12/11/10/3K5/8/5 w - - 0 1", True),  # K v K
        ("5/8/9/7k2/11/12/5B5/2b9/11/10/3K5/8/5 w - - 0 1", False),  # bishops g7 (0), d6 (1)
        ("5/8/9/7k2/11/12/5B5/12/11/10/3K5/8/5 w - - 0 1", True),  # one bishop on g7 (0)
        ("5/8/9/7k2/11/12/11/5B6/11/10/3K5/8/5 w - - 0 1", False),  # one bishop on g6 (1)
        ("5/8/9/7k2/11/12/5B5/12/11/10/3K5/4N3/5 w - - 0 1", False),  # and a knight
        ("5/8/9/7k2/11/12/11/12/11/10/3K5/4F3/5 w - - 0 1", False),  # K+F v K
    ],
)
def test_dead_positions_on_the_hexagon(fen, dead):
    assert is_dead_position(position(fen)) is dead


def test_bishops_on_the_centre_colour_only_are_dead_on_both_hexagons():
    pos = position(board("Kh2 Bg7", "Kh10 Bf6"))
    assert {pos.geometry.shade(sq) for sq in pos.geometry.squares(pos.pieces[3])} == {0}
    assert is_dead_position(pos)
    game = Game(HEX, pos.fen())
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.INSUFFICIENT_MATERIAL
    # Glinski's board: f6 is the centre; c4 is of another colour.
    assert is_dead_position(position(board("Kg1 Bf6", "Kf11 Bf9", variant=GLINSKI), GLINSKI))
    assert not is_dead_position(position(board("Kg1 Bc4", "Kf11", variant=GLINSKI), GLINSKI))


def bishop_mate_shades(variant) -> frozenset[int]:
    """The cell colours of a hexagon on which kings and bishops alone can mate.

    Bishops keep to their colour, so the mated king stands on the checking
    bishop's colour and its orthogonal neighbours are of the other colours:
    no bishop of that colour can guard or block them, and only the other
    king can cover them all, from a cell that does not touch the mated king.
    Where no cell of a colour allows that, those bishops cannot mate.
    """
    geo = variant.geometry
    king = geo.tables.king
    shades = set()
    for sq in range(geo.size):
        flights = [c for d in ORTHOGONAL if (c := geo.step(sq, d)) is not None]
        for other in range(geo.size):
            if (
                other != sq
                and not king[sq] >> other & 1
                and all(king[other] >> c & 1 for c in flights)
            ):
                shades.add(geo.shade(sq))
                break
    return frozenset(shades)


@pytest.mark.parametrize("variant", [HEX, GLINSKI], ids=["falcon-hex", "glinski"])
def test_each_hexagons_preset_names_the_colours_its_bishops_mate_on(variant):
    """The preset's fields are data; the board says what they must be: bishops
    mate on every colour but the centre's, and so does a lone knight."""
    assert variant.bishop_mate_shades == bishop_mate_shades(variant)
    geo = variant.geometry
    assert geo.shade(geo.cell_at(0, 0)) not in variant.bishop_mate_shades
    assert variant.lone_knight_mates and not variant.castling


def test_fifty_moves_and_repetition_end_a_hex_game():
    game = Game(HEX, "5/7k/9/10/11/12/11/12/11/10/9/8/K2R1 w - - 99 80")
    game.push_text("k1k2")
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.FIFTY_MOVES
    game = Game(HEX)
    for _ in range(2):
        for move in ("j1k3", "j10h9", "k3j1", "h9j10"):
            game.push_text(move)
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.THREEFOLD_REPETITION


def test_cases_in_perft_hex_parse_and_round_trip():
    for _, variant, fen, _ in CASES:
        assert Position(fen, get_variant(variant)).fen() == fen
