"""The engine's verdict on each move of short games where it is not in doubt."""

from __future__ import annotations

from itertools import pairwise

import pytest

from boardctl.engine import Engine
from boardctl.review.analysis import Searched, _matched, analyse, grade_moves
from boardctl.review.command import verdicts as kept_verdicts
from boardctl.review.grading import INACCURACY, Grade

from .games import ALLOWS_MATE, FORCED, LIMITS, MISSES_MATE, QUEEN_TO_FALCON, QUIET, game_of


def reviewed(fen, moves):
    game = game_of(fen, moves)
    review = analyse(game, Engine(seed=0), LIMITS, 0.0)
    return game, review, kept_verdicts(game, review)


def graded(game, scores, best):
    """Verdicts on synthetic scores, ply by ply: each move between two of them."""
    return grade_moves(game, list(pairwise(scores)), best)


@pytest.mark.parametrize(
    ("case", "better"),
    [
        (QUEEN_TO_FALCON, None),  # any queen move that keeps it is better
        (ALLOWS_MATE, None),
        (MISSES_MATE, "e1e8"),  # Re8 mate, the only one
    ],
    ids=["hangs the queen to a falcon", "allows a mate in one", "misses a mate in one"],
)
def test_a_blunder_is_marked_and_the_answer_is_not(case, better):
    fen, moves = case
    _, review, verdicts = reviewed(fen, moves)
    blunder, answer = verdicts
    assert blunder.grade is Grade.BLUNDER and blunder.loss is not None and blunder.loss >= 30
    assert review.positions[1].nag == Grade.BLUNDER.nag
    assert review.positions[0].best not in (None, moves[0])
    if better is not None:
        assert review.positions[0].best == better
    assert answer.grade is None and review.positions[2].nag is None


def test_a_mate_given_on_the_board_ends_the_review_as_mated():
    _, review, _ = reviewed(*ALLOWS_MATE)
    assert review.positions[1].mate == 1  # White to move mates in one
    assert review.positions[2].mate == 0 and review.positions[2].best is None


def test_quiet_moves_in_a_level_ending_are_not_marked():
    _, review, verdicts = reviewed(*QUIET)
    assert [v.grade for v in verdicts] == [None, None]
    assert all(v.loss is not None and v.loss < INACCURACY for v in verdicts)
    assert all(p.nag is None for p in review.positions)


def test_a_move_with_no_alternative_is_not_graded():
    game, review, verdicts = reviewed(*FORCED)
    assert game.position.fen().startswith("R9/8kp")
    _check, forced = verdicts
    assert forced.loss is None and forced.grade is None
    assert review.positions[2].nag is None
    # Not searched: worth what the only move leaves, from the other side.
    assert review.positions[1].best is None
    assert review.positions[1].cp == -review.positions[2].cp


# Synthetic scores: (centipawns, mate) from the side to move, ply by ply.
def test_a_side_already_being_mated_is_not_graded_whatever_it_plays():
    game = game_of(*QUIET)
    verdicts = graded(game, [(None, -3), (None, 1), (0, None)], ["e1e2", "e8e7", None])
    assert verdicts[0].loss is None and verdicts[0].grade is None


def test_the_engines_own_move_is_never_marked_however_the_score_moves():
    game = game_of(*QUIET)
    verdicts = graded(game, [(0, None), (900, None), (0, None)], ["e1d2", "a7a6", None])
    assert verdicts[0].grade is None and verdicts[0].loss == 0
    # The same drop after another move than the engine's is a blunder.
    verdicts = graded(game, [(0, None), (900, None), (0, None)], ["e1e2", "a7a6", None])
    assert verdicts[0].grade is Grade.BLUNDER


def searched(**by_depth):
    scores = {int(d[1:]): (cp, None) for d, cp in by_depth.items()}
    return Searched(scores[max(scores)], scores, "e1e2")


def test_a_move_is_judged_on_two_scores_of_the_same_horizon():
    # Before: depths 5-7; after: 4-5.  The deepest pair with d and d - 1 is 6 and 5.
    found = [searched(d5=10, d6=20, d7=30), searched(d4=-5, d5=-15)]
    assert _matched(found, [(30, None), (-15, None)], 0) == ((20, None), (-15, None))
    # The one after reached deeper than the one before: its d - 1 is taken.
    found = [searched(d3=10, d4=12), searched(d3=-8, d4=-9, d5=-20, d6=-22)]
    assert _matched(found, [(12, None), (-22, None)], 0) == ((12, None), (-8, None))


def test_with_no_matching_depths_the_deepest_scores_are_compared():
    deepest = [(30, None), (-15, None)]
    assert _matched([searched(d1=30), searched(d4=-15)], deepest, 0) == tuple(deepest)
    assert _matched([searched(d6=30), None], deepest, 0) == tuple(deepest)  # a forced position
