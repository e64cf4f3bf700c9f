"""bench/levels.py's arithmetic: the rating fit, the monotone table, the
adjudication and the games each pair of levels gets.  The fit is checked on
results made to measure from known ratings."""

from __future__ import annotations

import math
from pathlib import Path

from boardctl.rules import Game, get_variant

from ..pathimport import import_file

BENCH = Path(__file__).resolve().parents[2] / "bench" / "levels.py"
bench = import_file(BENCH, "levels_bench")


def _tally(elo: float, games: int) -> bench.Tally:
    """Results whose score is what ``elo`` expects, a tenth of them draws."""
    score = 1 / (1 + 10 ** (-elo / 400))
    draws = games // 10
    wins = round(score * games - draws / 2)
    return bench.Tally(wins, draws, games - wins - draws)


def _chain(games: int) -> dict[tuple[str, str], bench.Tally]:
    """Levels 0-4 at 0, 100, ... 400 and Fairy-Max at 250, measured as the
    calibration measures them: each level against the next, two against Fairy-Max."""
    truth = {str(n): 100.0 * n for n in range(5)} | {bench.ANCHOR: 250.0}
    pairs = [(str(n), str(n - 1)) for n in range(1, 5)] + [("2", bench.ANCHOR), ("3", bench.ANCHOR)]
    return {(a, b): _tally(truth[a] - truth[b], games) for a, b in pairs}


def test_the_fit_finds_the_ratings_that_made_the_results():
    fitted = bench.fit(_chain(20_000), bench.ANCHOR)
    assert fitted[bench.ANCHOR] == (bench.ANCHOR_RATING, 0.0)
    for n in range(5):
        expected = bench.ANCHOR_RATING + 100 * n - 250
        assert math.isclose(fitted[str(n)][0], expected, abs_tol=3), (n, fitted[str(n)])


def test_the_errors_shrink_with_the_games_and_grow_away_from_the_anchor():
    few = bench.fit(_chain(100), bench.ANCHOR)
    many = bench.fit(_chain(400), bench.ANCHOR)
    for n in range(5):
        assert math.isclose(many[str(n)][1], few[str(n)][1] / 2, rel_tol=0.1)
    errors = [few[str(n)][1] for n in range(5)]
    assert errors[0] > errors[1] > errors[2] and errors[4] > errors[3] > errors[2]


def test_a_clean_sweep_still_has_a_finite_rating():
    swept = {("1", "0"): bench.Tally(20, 0, 0), ("1", bench.ANCHOR): bench.Tally(10, 0, 10)}
    fitted = bench.fit(swept, bench.ANCHOR)
    assert 300 < fitted["1"][0] - fitted["0"][0] < 1000


def test_the_table_rises_with_the_level_pooling_a_level_measured_below_the_one_beneath():
    rows = [(0, 800, 100), (1, 1000, 100), (2, 950, 100), (3, 1200, 50)]
    assert bench.monotone(rows) == [(0, 800, 100), (1, 975, 100), (2, 975, 100), (3, 1200, 50)]
    rising = [(0, 800, 100), (1, 900, 80)]
    assert bench.monotone(rising) == rising


def test_a_decided_game_is_adjudicated_once_the_lead_has_held():
    # White has an extra queen (Black's is gone); the knights shuffle.
    game = Game(
        get_variant("falcon"), "rnbf1kfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w - - 0 1"
    )
    judge = bench.Adjudicator()
    shuffle = ["b1c3", "b8c6", "c3b1", "c6b8"]
    verdicts = []
    for ply in range(bench.HELD):
        verdicts.append(judge(game))  # asked before each move, as the referee does
        game.push_text(shuffle[ply % 4])
    # The lead seen before each of HELD moves in a row decides the game.
    assert verdicts == [None] * (bench.HELD - 1) + [("1-0", "adjudicated: material")]
    # A lead lost starts the count again.
    judge = bench.Adjudicator()
    assert judge(game) is None
    assert judge(Game(get_variant("falcon"))) is None and judge.held == 0


def test_a_level_game_is_a_draw_at_the_ply_limit():
    game = Game(get_variant("falcon"))
    judge = bench.Adjudicator()
    shuffle = ["b1c3", "b8c6", "c3b1", "c6b8"]
    while len(game.moves) < bench.DRAW_PLIES:
        assert judge(game) is None
        game.push_text(shuffle[len(game.moves) % 4])
    assert judge(game) == ("1/2-1/2", f"adjudicated at {bench.DRAW_PLIES} plies")


def test_cheap_pairs_get_more_games_and_every_count_is_even_and_bounded():
    args = bench.parse_args([])
    counts = [bench.games_for(level, args) for level in range(1, bench.MAX + 1)]
    assert all(args.min_games <= n <= args.max_games and n % 2 == 0 for n in counts)
    assert counts == sorted(counts, reverse=True) and counts[0] > counts[-1]
