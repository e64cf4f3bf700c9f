"""Texel tuning: the evaluation's weights by name, the data generator's
positions, and the tuner (scripts/texel_data.py, texel_tune.py, texel_selfplay.py)."""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path

import pytest

from boardctl.engine import Engine, core, evaluate, piecesquare, weights
from boardctl.rules import Position, get_variant

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))
import texel_data  # noqa: E402
import texel_selfplay  # noqa: E402
import texel_tune  # noqa: E402

needs_core = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
VARIANT = get_variant("falcon-xboard")


def random_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = Position(None, VARIANT)
        for _ in range(rng.randrange(6, 50)):
            codes = pos.legal_codes()
            if not codes:
                break
            pos.make(rng.choice(codes))
        if pos.legal_codes():
            out.append(Position(pos.fen(), VARIANT))
    return out


def compiled_score(pos: Position, weights: weights.Weights | None) -> int:
    engine = core.build(pos.variant, tt_bits=10, weights=weights)
    core.load(engine, pos)
    return engine.evaluate()


# ------------------------------------------------------------ weights by name
def test_the_named_weights_rebuild_the_tables_and_core_weights_evaluate_py_holds():
    defaults = weights.default_weights()
    for files, ranks in ((10, 8), (10, 10), (8, 8)):
        assert piecesquare.build_square_tables(files, ranks, defaults) == piecesquare.square_tables(
            files, ranks
        )
    for name in ("falcon", "falcon-hex", "glinski"):
        variant = get_variant(name)
        assert evaluate.core_weights(variant, defaults) == evaluate.core_weights(variant)
        assert piecesquare.build_piece_tables(
            variant.geometry, defaults
        ) == piecesquare.piece_tables(variant.geometry)
    assert weights.passed_bonuses(defaults) == weights.PASSED


def test_the_hexagon_derives_its_values_from_the_weights_given():
    geo = get_variant("falcon-hex").geometry
    defaults = weights.default_weights()
    more = dict(defaults, **{"rook.mg": defaults["rook.mg"] + 100})
    mg, _ = piecesquare.build_piece_tables(geo, more)
    old_mg, _ = piecesquare.cell_tables(geo)
    rook = 4
    assert all(new > old for new, old in zip(mg[rook], old_mg[rook], strict=True))
    phases = dict(defaults, **{"falcon.phase": defaults["falcon.phase"] + 1})
    variant = get_variant("falcon-hex")
    assert evaluate.core_weights(variant, phases)[-1] == evaluate.core_weights(variant)[-1] + 4


def test_a_changed_shape_weight_changes_the_squares_it_shapes_only():
    changed = dict(weights.default_weights(), **{"rook.seventh": 40})
    mg, eg = piecesquare.build_square_tables(10, 8, changed)
    old_mg, old_eg = piecesquare.square_tables(10, 8)
    rook = 4
    differ = [sq for sq in range(80) if mg[rook][sq] != old_mg[rook][sq]]
    assert differ == list(range(60, 70))  # the seventh rank
    assert all(mg[rook][sq] - old_mg[rook][sq] == 25 for sq in differ)
    assert eg == old_eg


@needs_core
def test_the_core_evaluates_with_the_weights_it_is_given():
    pos = Position("4k5/pppp2pppp/10/10/10/10/PPPP2PPPP/2B1K1B3 w - - 0 1", VARIANT)
    defaults = weights.default_weights()
    assert compiled_score(pos, defaults) == compiled_score(pos, None)
    more = dict(defaults, bishop_pair=defaults["bishop_pair"] + 10)
    assert compiled_score(pos, more) == compiled_score(pos, None) + 10


def test_other_weights_need_the_compiled_core():
    with pytest.raises(ValueError, match="compiled"):
        Engine(compiled=False, weights=weights.default_weights())


# ------------------------------------------------------------ data
@needs_core
def test_the_quiet_filter_drops_checks_and_captures_in_flight():
    checker = core.build(VARIANT, tt_bits=10)
    assert texel_data.is_quiet(checker, Position(None, VARIANT))
    hanging = Position("4k5/10/10/4q5/10/10/4R5/4K5 w - - 0 1", VARIANT)  # Rxe5 wins
    assert not texel_data.is_quiet(checker, hanging)
    check = Position("4k5/10/10/10/10/10/4r5/4K5 w - - 0 1", VARIANT)
    assert check.is_check() and not texel_data.is_quiet(checker, check)


@needs_core
def test_the_generator_writes_quiet_positions_labelled_with_their_games_result(tmp_path):
    out = tmp_path / "data.txt"
    assert (
        texel_data.main(["--games", "2", "--nodes", "300", "--plies", "4", "--out", str(out)]) == 0
    )
    lines = out.read_text().splitlines()
    assert lines
    checker = core.build(VARIANT, tt_bits=10)
    games: list[str] = []
    for line in lines:
        fen, result, score = line.split(";")
        assert result in ("1-0", "1/2-1/2", "0-1")
        assert abs(int(score)) <= texel_data.MATE_SCORE
        pos = Position(fen, VARIANT)
        assert texel_data.is_quiet(checker, pos)
        sample = texel_tune.parse_line(line)
        assert sample.result == {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[result]
        assert sample.score == int(score)
        if not games or games[-1] != result:
            games.append(result)
    assert len(games) <= 2  # each game's positions together, one label a game


def test_the_tuner_refuses_malformed_lines():
    bare = "4k5/10/10/10/10/10/10/4K5 w - - 0 1"
    for line in (bare, "nonsense;1-0", f"{bare};2-0", f"{bare};1-0;ten", f"{bare};1-0;5;5"):
        with pytest.raises(texel_tune.DataError):
            texel_tune.parse_line(line)


def test_a_blend_mixes_the_result_with_the_search_score_where_there_is_one():
    bare = "4k5/10/10/10/10/10/10/4K5 w - - 0 1"
    scored, unscored = texel_tune.parse_line(f"{bare};1-0;0"), texel_tune.parse_line(f"{bare};0-1")
    mixed = texel_tune.blended([scored, unscored], 1.0, 0.25)
    assert mixed[0].result == pytest.approx(0.25 * 1.0 + 0.75 * 0.5)
    assert mixed[1].result == 0.0


# ------------------------------------------------------------ the tuner
def test_solve_solves_a_linear_system():
    x = texel_tune.solve([[2.0, 1.0, 0.0], [0.0, 0.0, 3.0], [1.0, 4.0, 1.0]], [4.0, 6.0, 11.0])
    assert x == pytest.approx([1.0, 2.0, 2.0])


def test_k_is_fitted_to_the_scores_that_made_the_results():
    rng = random.Random(3)
    scores = [rng.uniform(-600, 600) for _ in range(400)]
    results = [texel_tune.predict(s, 1.3) for s in scores]
    assert texel_tune.fit_k(scores, results) == pytest.approx(1.3, abs=0.01)


@needs_core
def test_tuning_lowers_the_loss_and_moves_the_weights_towards_those_that_made_the_results():
    # Results made by an evaluation with a knight worth 100 more and a larger
    # bishop pair; the tuner starts from evaluate.py's weights.
    truth = dict(weights.default_weights())
    truth["knight.mg"] += 100
    truth["knight.eg"] += 100
    truth["bishop_pair"] += 60
    positions = random_positions(80, seed=11)
    samples = [texel_tune.parse_line(f"{pos.fen()};1-0") for pos in positions]
    true_scores = texel_tune.evaluations(samples, truth)
    samples = [
        texel_tune.Sample(
            s.squares, s.turn, s.rooks, s.ep, s.halfmove, texel_tune.predict(score, 1.0)
        )
        for s, score in zip(samples, true_scores, strict=True)
    ]
    start = weights.default_weights()
    names = ["knight.mg", "knight.eg", "bishop_pair"]
    tuned, curve = texel_tune.tune(
        samples, [], start, 1.0, rounds=4, steps=4, damping=0.1, names=names, report=False
    )
    assert len(curve) >= 2
    assert all(later.train < earlier.train for earlier, later in itertools.pairwise(curve))
    for name in names:
        assert abs(tuned[name] - truth[name]) < abs(start[name] - truth[name]), name


def test_selfplay_reads_only_weights_the_evaluation_has(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"bishop_pair": 55}))
    assert texel_selfplay.read_weights(good)["bishop_pair"] == 55
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"bishop_par": 55}))
    with pytest.raises(ValueError, match="no such weight"):
        texel_selfplay.read_weights(bad)
    fraction = tmp_path / "fraction.json"
    fraction.write_text(json.dumps({"bishop_pair": 5.5}))
    with pytest.raises(ValueError, match="whole number"):
        texel_selfplay.read_weights(fraction)
