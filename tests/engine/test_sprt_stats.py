"""bench/sprt.py's statistics: the GSPRT log-likelihood ratio, Wald's bounds, the
Elo and its error.  The expected values are worked by hand from the formulas in
the module's docstring (logistic Elo: elo 10 expects a score of 0.5143872)."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "sprt.py"
spec = importlib.util.spec_from_file_location("sprt_bench", BENCH)
assert spec is not None and spec.loader is not None
sprt = importlib.util.module_from_spec(spec)
sys.modules["sprt_bench"] = sprt       # dataclasses look their module up
spec.loader.exec_module(sprt)


def test_the_logistic_score_of_10_elo():
    assert sprt.logistic_score(10) == pytest.approx(0.5143872, abs=1e-7)
    assert sprt.logistic_score(0) == 0.5


def test_llr_of_a_trinomial_against_the_worked_value():
    # 20 losses, 20 draws, 60 wins: mean 0.7, variance 0.65 - 0.49 = 0.16;
    # 100 (s1 - s0)(2 * 0.7 - s0 - s1) / (2 * 0.16) with s0 = 0.5, s1 = 0.5143872.
    assert sprt.llr([20, 20, 60], 0, 10) == pytest.approx(1.73371, abs=1e-5)


def test_llr_of_a_pentanomial_against_the_worked_value():
    # Four pairs scoring 1/4, 1/2, 1/2, 3/4: mean 1/2, variance 0.03125.
    assert sprt.llr([0, 1, 2, 1, 0], 0, 10) == pytest.approx(-0.0132474, abs=1e-6)


def test_llr_grows_with_the_number_of_games_and_changes_sign_with_the_evidence():
    small = sprt.llr([4, 2, 6], 0, 10)
    assert sprt.llr([40, 20, 60], 0, 10) == pytest.approx(10 * small)
    assert sprt.llr([60, 20, 40], 0, 10) < 0 < small
    # Halfway between the hypotheses the evidence favours neither.
    assert sprt.llr([30, 40, 30], -10, 10) == pytest.approx(0, abs=1e-12)


def test_llr_is_zero_without_spread_or_results_and_refuses_other_shapes():
    assert sprt.llr([0, 0, 0], 0, 10) == 0
    assert sprt.llr([0, 0, 7], 0, 10) == 0
    with pytest.raises(ValueError):
        sprt.llr([1, 2, 3, 4], 0, 10)


def test_wald_bounds():
    lower, upper = sprt.sprt_bounds(0.05, 0.05)
    assert upper == pytest.approx(math.log(19)) == pytest.approx(2.944439, abs=1e-6)
    assert lower == pytest.approx(-upper)
    lower, upper = sprt.sprt_bounds(0.05, 0.10)
    assert (lower, upper) == (pytest.approx(math.log(0.10 / 0.95)), pytest.approx(math.log(18)))


def test_elo_and_its_error_for_an_even_score():
    # 30/40/30: score 1/2, variance 0.15 per game; half-width 1.96 sqrt(0.0015) = 0.0759,
    # and 400 log10(0.5759 / 0.4241) = 53.16 Elo either side.
    elo, error = sprt.elo_with_error(30, 40, 30)
    assert elo == pytest.approx(0, abs=1e-9)
    assert error == pytest.approx(53.16, abs=0.01)


def test_the_tally_counts_games_and_pairs_and_tests_on_pairs_once_it_has_them():
    tally = sprt.Tally()
    tally.add_game(1.0)
    tally.add_game(0.5)
    tally.add_game(0.0)
    assert tally.games == [1, 1, 1]
    assert tally.llr(0, 10) == sprt.llr([1, 1, 1], 0, 10)
    tally.add_pair(1.0, 0.5)
    tally.add_pair(0.0, 0.5)
    assert tally.pairs == [0, 1, 0, 1, 0]
    assert tally.llr(0, 10) == sprt.llr([0, 1, 0, 1, 0], 0, 10)
