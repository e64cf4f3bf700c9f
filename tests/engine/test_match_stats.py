"""bench/match.py's statistics: the score's interval and the Elo it means."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..pathimport import import_file

BENCH = Path(__file__).resolve().parents[2] / "bench" / "match.py"
match = import_file(BENCH, "match_bench")


def test_an_even_score_is_zero_elo_and_its_interval_narrows_with_games():
    assert match.elo(0.5) == pytest.approx(0.0)
    few = match.score_interval(3, 4, 3)
    many = match.score_interval(30, 40, 30)
    assert few[0] < many[0] < 0.5 < many[1] < few[1]


def test_the_elo_of_three_in_four_is_about_191():
    assert match.elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert match.elo(0.25) == pytest.approx(-190.85, abs=0.01)


def test_draws_narrow_the_interval_against_wins_and_losses_of_the_same_score():
    decisive = match.score_interval(5, 0, 5)
    drawn = match.score_interval(0, 10, 0)
    assert drawn == (0.5, 0.5) and decisive[0] < 0.5 < decisive[1]
