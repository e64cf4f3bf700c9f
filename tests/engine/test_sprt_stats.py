"""bench/sprt.py's statistics: the GSPRT log-likelihood ratio (exact and its
normal approximation), Wald's bounds, the Elo and its error.  The expected
values are worked by hand from the formulas in the module's docstring (logistic
Elo: elo 10 expects a score of 0.5143872), or found by a second, direct way;
and which trees it builds a core for before playing them."""

from __future__ import annotations

import math
import os
import sysconfig
from pathlib import Path

import pytest

from ..pathimport import import_file

BENCH = Path(__file__).resolve().parents[2] / "bench" / "sprt.py"
sprt = import_file(BENCH, "sprt_bench")


def test_the_logistic_score_of_10_elo():
    assert sprt.logistic_score(10) == pytest.approx(0.5143872, abs=1e-7)
    assert sprt.logistic_score(0) == 0.5


def test_normal_llr_of_a_trinomial_against_the_worked_value():
    # 20 losses, 20 draws, 60 wins: mean 0.7, variance 0.65 - 0.49 = 0.16;
    # 100 (s1 - s0)(2 * 0.7 - s0 - s1) / (2 * 0.16) with s0 = 0.5, s1 = 0.5143872.
    assert sprt.llr_normal([20, 20, 60], 0, 10) == pytest.approx(1.73371, abs=1e-5)


def test_normal_llr_of_a_pentanomial_against_the_worked_value():
    # Four pairs scoring 1/4, 1/2, 1/2, 3/4: mean 1/2, variance 0.03125.
    assert sprt.llr_normal([0, 1, 2, 1, 0], 0, 10) == pytest.approx(-0.0132474, abs=1e-6)


def _loglik_best_trinomial(counts, mean):
    """The largest log-likelihood of (losses, draws, wins) among distributions
    with this mean score, by ternary search over the draw rate: with the mean
    fixed, p_win = mean - p_draw / 2 and p_loss = 1 - p_draw - p_win."""
    losses, draws, wins = counts

    def loglik(p_draw):
        p_win = mean - p_draw / 2
        p_loss = 1 - p_draw - p_win
        return losses * math.log(p_loss) + draws * math.log(p_draw) + wins * math.log(p_win)

    low, high = 1e-12, min(2 * mean, 2 - 2 * mean) - 1e-12
    for _ in range(300):
        a, b = low + (high - low) / 3, high - (high - low) / 3
        if loglik(a) < loglik(b):
            low = a
        else:
            high = b
    return loglik((low + high) / 2)


@pytest.mark.parametrize("counts", [[20, 20, 60], [40, 20, 60], [31, 40, 29], [5, 90, 7]])
@pytest.mark.parametrize(("elo0", "elo1"), [(0, 10), (-5, 5), (0, 50)])
def test_llr_is_the_ratio_of_the_best_likelihoods_under_each_hypothesis(counts, elo0, elo1):
    expected = _loglik_best_trinomial(counts, sprt.logistic_score(elo1)) - _loglik_best_trinomial(
        counts, sprt.logistic_score(elo0)
    )
    assert sprt.llr(counts, elo0, elo1) == pytest.approx(expected, abs=1e-6)


def test_the_two_llrs_agree_near_the_hypotheses_and_not_on_a_lopsided_score():
    near = [0, 30, 42, 31, 0]  # pairs, mean score 0.5005
    assert sprt.llr(near, 0, 10) == pytest.approx(sprt.llr_normal(near, 0, 10), abs=0.01)
    # 60 wins in 100: the approximation claims more than the likelihoods give.
    assert sprt.llr_normal([20, 20, 60], 0, 10) > sprt.llr([20, 20, 60], 0, 10) + 0.3


def test_straight_wins_are_modest_evidence_for_a_small_gain():
    # Every game won: the most likely distributions of mean s0 and s1 put
    # s0 and s1 on a win, so the ratio is N log(s1 / s0) (0.1986 for 7 games),
    # not the explosion a vanishing variance gives the approximation.
    s0, s1 = 0.5, sprt.logistic_score(10)
    assert sprt.llr([0, 0, 7], 0, 10) == pytest.approx(7 * math.log(s1 / s0), abs=1e-3)
    assert sprt.llr_normal([0, 0, 1, 0, 7], 0, 50) > 8 > sprt.llr([0, 0, 1, 0, 7], 0, 50)


def test_llr_grows_with_the_number_of_games_and_changes_sign_with_the_evidence():
    small = sprt.llr([4, 2, 6], 0, 10)
    assert sprt.llr([40, 20, 60], 0, 10) == pytest.approx(10 * small)
    assert sprt.llr([60, 20, 40], 0, 10) < 0 < small
    # Halfway between the hypotheses the evidence favours neither.
    assert sprt.llr([30, 40, 30], -10, 10) == pytest.approx(0, abs=1e-9)


def test_llr_is_zero_without_results_and_refuses_other_shapes():
    assert sprt.llr([0, 0, 0], 0, 10) == 0
    assert sprt.llr_normal([0, 0, 7], 0, 10) == 0
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


def test_a_tree_whose_core_is_missing_or_older_than_its_sources_is_built(tmp_path):
    # A fresh worktree has no compiled core: played as it is, it would run the
    # Python search and lose for being slow, not for its moves.
    csrc = tmp_path / "boardctl/engine/csrc"
    csrc.mkdir(parents=True)
    source = csrc / "search.c"
    source.write_text("/* a source */\n")
    assert sprt.stale_core(tmp_path)
    built = tmp_path / f"boardctl/engine/_core{sysconfig.get_config_var('EXT_SUFFIX')}"
    built.write_bytes(b"")
    os.utime(source, (1_000, 1_000))
    assert not sprt.stale_core(tmp_path)
    os.utime(source, (built.stat().st_mtime + 10,) * 2)
    assert sprt.stale_core(tmp_path)
    # A tree from before the compiled core has nothing to build.
    assert not sprt.stale_core(tmp_path / "elsewhere")
