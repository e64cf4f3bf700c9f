"""The evaluation's terms do what evaluate.py says, on both cores."""

from __future__ import annotations

import random

import pytest

from boardctl.engine import core, weights
from boardctl.engine.evaluate import Evaluator, material_sums
from boardctl.rules import Position


@pytest.fixture(params=["python", "compiled"])
def score(request):
    """Static score for the side to move, from one core."""
    if request.param == "compiled" and not core.available():
        pytest.skip("the compiled core is not built")

    def python(fen: str) -> int:
        pos = Position(fen)
        return Evaluator(pos.tables).evaluate(pos, *material_sums(pos))

    def compiled(fen: str) -> int:
        pos = Position(fen)
        engine = core.build(pos.variant, tt_bits=10)
        core.load(engine, pos)
        return engine.evaluate()

    return python if request.param == "python" else compiled


def mirrored(fen: str) -> str:
    """The same position with the colours exchanged (ranks flipped)."""
    placement, turn, castling, ep, *rest = fen.split()
    placement = "/".join(reversed(placement.split("/"))).swapcase()
    castling = "".join(sorted(castling.swapcase())) if castling != "-" else "-"
    if ep != "-":
        ep = ep[0] + str(9 - int(ep[1:]))
    return " ".join([placement, "b" if turn == "w" else "w", castling, ep, *rest])


def test_colour_flipped_positions_score_the_same_for_the_side_to_move(score):
    rng = random.Random(5)
    for _ in range(6):
        pos = Position()
        for _ in range(rng.randrange(10, 60)):
            codes = pos.legal_codes()
            if not codes:
                break
            pos.make(rng.choice(codes))
        fen = pos.fen()
        # Material is tapered with floor division, which rounds the two signs
        # one apart at most.
        assert abs(score(fen) - score(mirrored(fen))) <= 1, fen


@pytest.mark.parametrize(
    "fen",
    [
        "5k4/pp6pp/10/10/4F5/10/1P1P5P/5K4 w - - 0 1",  # open: 14 (b2, f1 are its own)
        "5k4/pp6pp/10/3PPP4/3PF5/10/10/5K4 w - - 0 1",  # own pawns block the north
        "5k4/pp6pp/4p5/3ppp4/3pF5/10/10/5K4 w - - 0 1",  # enemy pawns block, and can be taken
    ],
)
def test_falcon_mobility_counts_exactly_the_falcons_moves(fen, monkeypatch, score):
    """Switching the term off changes the score by its weight for each
    square the rules core lets the falcon move to."""
    pos = Position(fen)
    falcon = pos.geometry.parse_square("e4")
    moves = sum(1 for move in pos.legal_moves() if move.from_square == falcon)
    with_term = score(fen)
    monkeypatch.setattr(weights, "FALCON_MOBILITY", 0)
    assert with_term - score(fen) == 4 * moves


def test_pieces_around_the_enemy_king_add_danger(score):
    # White's queen, falcon and knight near Black's king, then far from it.
    near = "5k4/3ppp4/4Q2N2/4F5/10/10/PPP5PP/5K4 w - - 0 1"
    far = "5k4/3ppp4/10/10/10/Q9/PPPF4PP/N4K4 w - - 0 1"
    assert score(near) - score(far) > 50


def test_the_bishop_pair_is_worth_more_than_two_bishops_apart(score):
    pair = "5k4/pppp6/10/10/10/10/6PPPP/2B2KB3 w - - 0 1"
    knight_and_bishop = "5k4/pppp6/10/10/10/10/6PPPP/2N2KB3 w - - 0 1"
    assert score(pair) > score(knight_and_bishop)
