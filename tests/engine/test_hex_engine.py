"""The engine on the hexagon: falcon-hex and Glinski's chess, on both search
cores, and over UCI.  (tests/engine/test_core.py holds the compiled core to
the rules core on the hexagon: perft, moves, hashes, evaluations.)"""

from __future__ import annotations

import io
import random

import pytest

from boardctl.engine import Engine, Limits, core
from boardctl.engine.evaluate import HexEvaluator, material_sums
from boardctl.engine.piecesquare import cell_tables, hex_values
from boardctl.engine.uci import run
from boardctl.engine.weights import VALUES, material_phase
from boardctl.rules import Position, get_variant, parse_uci
from boardctl.rules.hexgeo import FALCON_HEX, HexGeometry
from boardctl.rules.moves import EN_PASSANT
from boardctl.rules.pieces import BISHOP, FALCON, KNIGHT, QUEEN, ROOK

HEX = get_variant("falcon-hex")
GLINSKI = get_variant("glinski")

# Found by brute force over random placements; each has exactly one mate in 1
# among 60 to 80 legal moves.
MATES_IN_ONE = [
    "5/8/9/10/k10/11R/11/12/11/10/2K6/Q7/5 w - - 0 1",
    "5/8/9/10/3K7/6k5/11/10Q1/5R5/10/9/8/5 w - - 0 1",
    "5/8/9/10/11/12/7K3/12/8Q2/10/7R1/4k3/5 w - - 0 1",
]
# A knight can take an undefended queen; nothing else wins material.
QUEEN_CAPTURES = [
    ("5/8/9/4k1p3/8N2/6q5/11/12/5K5/10/9/8/5 w - - 0 1", "i9g8"),
    ("5/2k5/3p5/10/11/11K/11/7q4/11/10/5N3/8/5 w - - 0 1", "j3i6"),
    ("5/2k3N1/9/10/7q3/12/6p4/12/6K4/10/9/8/5 w - - 0 1", "g12h9"),
]


@pytest.fixture(params=["python", "compiled"])
def compiled(request):
    if request.param == "compiled" and not core.available():
        pytest.skip("the compiled core is not built")
    return request.param == "compiled"


@pytest.mark.parametrize("fen", MATES_IN_ONE)
def test_finds_the_mate_in_one(fen, compiled):
    pos = Position(fen, HEX)
    infos = []
    move = Engine(seed=0, compiled=compiled).search(pos, Limits(depth=3), on_info=infos.append)
    assert move is not None
    assert infos[-1].mate == 1
    pos.push(move)
    assert pos.is_check() and not pos.legal_moves()


@pytest.mark.parametrize(("fen", "capture"), QUEEN_CAPTURES)
def test_takes_the_undefended_queen(fen, capture, compiled):
    pos = Position(fen, HEX)
    move = Engine(seed=0, compiled=compiled).search(pos, Limits(depth=3))
    assert move is not None and pos.uci(move) == capture


@pytest.mark.parametrize("variant", [HEX, GLINSKI], ids=lambda v: v.name)
def test_the_start_position_is_level_and_black_mirrors_white(variant):
    pos = Position(None, variant)
    assert material_sums(pos) == (0, 0)
    geo = pos.geometry
    assert isinstance(geo, HexGeometry)
    evaluator = HexEvaluator(pos.tables, geo, material_phase(pos))
    assert evaluator.evaluate(pos, 0, 0) == 0


def test_cell_values_favour_the_centre_and_pawns_that_advance():
    mg, eg = cell_tables(FALCON_HEX)
    centre = FALCON_HEX.parse_cell("g7")
    edge = FALCON_HEX.parse_cell("a10")
    for ptype in (KNIGHT, BISHOP, FALCON, QUEEN):
        assert mg[ptype][centre] > mg[ptype][edge]
        assert eg[ptype][centre] > eg[ptype][edge]
    pawn_path = [FALCON_HEX.parse_cell(f"d{rank}") for rank in range(6, 13)]
    values = [eg[1][cell] for cell in pawn_path]
    assert values == sorted(values) and values[0] < values[-1]


def test_piece_values_follow_the_reach_on_the_hexagon():
    values = hex_values(FALCON_HEX)
    # Six directions each: the rook gains most, the bishop (bound to a third
    # of the cells) least, against their 10x8 values.
    gain = {p: values[p][0] / VALUES[p][0] for p in (KNIGHT, BISHOP, ROOK, QUEEN, FALCON)}
    assert gain[ROOK] == max(gain.values())
    assert gain[BISHOP] == min(gain.values())
    assert values[ROOK][0] > values[BISHOP][0]


@pytest.mark.parametrize("variant", [HEX, GLINSKI], ids=lambda v: v.name)
def test_incremental_sums_match_from_scratch_through_random_games(variant):
    """Captures, promotions and en passant keep the search's running sums
    equal to the sums from scratch (en passant takes a pawn that is no fixed
    number of cells away on a hexagon)."""
    rng = random.Random(5)
    engine = Engine(seed=0, compiled=False)
    en_passants = 0
    for _ in range(12):
        pos = Position(None, variant)
        engine._prepare(pos, Limits(depth=1), None)
        for _ in range(120):
            codes = pos.legal_codes()
            if not codes:
                break
            # Prefer en passant when it is there: random play rarely finds it.
            ep = [c for c in codes if c >> 17 == EN_PASSANT]
            code = ep[0] if ep else rng.choice(codes)
            en_passants += bool(ep)
            engine._make(code)
            assert (engine.mg_stack[-1], engine.eg_stack[-1]) == material_sums(pos)
    assert en_passants > 0


HEX_START = HEX.start_fen


def uci_session(commands: str) -> list[str]:
    out = io.StringIO()
    run(io.StringIO(commands), out)
    return out.getvalue().splitlines()


def test_uci_plays_falcon_hex_from_a_fen_with_moves():
    lines = uci_session(
        "uci\nsetoption name UCI_Variant value falcon-hex\nisready\n"
        f"position fen {HEX_START} moves e3i2 e13b11\ngo nodes 400\n"
    )
    assert "option name UCI_Variant type combo default falcon" in " ".join(lines)
    assert any("var falcon-hex" in line for line in lines)
    assert not [line for line in lines if line.startswith("info string error")]
    best = [line for line in lines if line.startswith("bestmove")]
    assert len(best) == 1
    pos = Position(HEX_START, HEX)
    for text in ("e3i2", "e13b11"):
        pos.push(parse_uci(pos, text))
    assert pos.is_legal(parse_uci(pos, best[0].split()[1]))


def test_uci_plays_the_hex_start_and_refuses_a_square_move_there():
    lines = uci_session(
        "setoption name UCI_Variant value falcon-hex\n"
        "position startpos moves e2e4\n"  # no such move on the hexagon
        "position startpos moves g6g7\ngo depth 1\n"
    )
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 1 and "e2e4" in errors[0]
    best = next(line for line in lines if line.startswith("bestmove")).split()[1]
    pos = Position(None, HEX)
    pos.push(parse_uci(pos, "g6g7"))
    assert pos.is_legal(parse_uci(pos, best))
