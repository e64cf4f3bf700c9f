"""The engine's levels (issue 26): the published rating table, what each
level searches, the weakest level's moves, and games that do not repeat."""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from boardctl.config import parse_config
from boardctl.daemon.wiring import make_opponent
from boardctl.engine import Engine, Limits, core, levels, ratings
from boardctl.engine.evaluate import evaluator_for, material_sums
from boardctl.engine.hanging import HANGING, exchange_value, given_away
from boardctl.engine.levels import FULL, LEVELS, MAX_LEVEL, Level
from boardctl.engine.limits import Info
from boardctl.engine.worker import EngineWorker
from boardctl.puzzles.solver import Solver
from boardctl.rules import Game, Move, Position

DOCS = Path(__file__).resolve().parents[2] / "docs" / "levels.md"
needs_core = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
MIDDLE_GAME = "rnbfqkfb1r/pp2pppppp/2p4n2/3p6/3P1B4/2N2N4/PPP1PPPPPP/R2FQKFB1R w KQkq - 4 4"


# ------------------------------------------------------------ the table
def test_the_rating_table_covers_every_level_and_rises_with_it():
    assert len(ratings.RATINGS) == len(LEVELS) == MAX_LEVEL + 1
    shown = [levels.rating(n) for n in range(MAX_LEVEL + 1)]
    assert all(low < high for low, high in itertools.pairwise(shown))  # even once rounded
    assert all(error >= 0 for _, error in ratings.RATINGS)
    assert all(rating % levels.RATING_STEP == 0 for rating in shown)


def test_the_scale_says_it_is_ours_and_where_it_comes_from():
    assert "Fairy-Max" in ratings.ANCHOR and ratings.ANCHOR_RATING == 1500
    assert "no federation" in (ratings.__doc__ or "")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", ratings.MADE)
    assert ratings.COMMAND[0] == "bench/levels.py"


def test_the_page_publishes_the_modules_table():
    rows = re.findall(r"^\| (\d+) \| (\d+) \| ± (\d+) \|", DOCS.read_text(), re.MULTILINE)
    assert [(int(r), int(e)) for _, r, e in rows] == list(ratings.RATINGS)
    assert [int(n) for n, _, _ in rows] == list(range(MAX_LEVEL + 1))


def test_a_rating_is_given_only_where_the_levels_were_measured():
    assert levels.rating(12, "falcon-xboard") == levels.rating(12) is not None
    assert levels.rating(12, "falcon-hex") is None
    assert levels.rating(12, "falcon-8x8") is None
    with pytest.raises(ValueError):
        levels.rating(MAX_LEVEL + 1)


# --------------------------------------------------------- the design
def test_each_level_searches_more_or_errs_less_than_the_one_below():
    assert LEVELS[MAX_LEVEL] == FULL
    for low, high in itertools.pairwise(LEVELS):
        stronger = (
            high.slip < low.slip
            or (high.depth or 99) > (low.depth or 99)
            or (high.nodes or 10**9) > (low.nodes or 10**9)
            or high.spread < low.spread
        )
        weaker = (
            high.slip > low.slip
            or (high.nodes is not None and low.nodes is not None and high.nodes < low.nodes)
            or (high.depth is not None and low.depth is not None and high.depth < low.depth)
        )
        assert stronger and not weaker, (low, high)


def test_every_cap_is_within_what_a_pi_searches_in_its_time():
    caps = [plan.nodes for plan in LEVELS if plan.nodes is not None]
    assert caps and max(caps) < levels.PI_MOVE_NODES


@pytest.mark.usefixtures("backend")
def test_a_capped_level_stops_at_its_cap_but_always_finishes_its_first_ply(monkeypatch):
    capped = next(n for n, plan in enumerate(LEVELS) if plan.nodes and plan.nodes >= 2000)
    cap = LEVELS[capped].nodes
    assert cap is not None
    engine = Engine(capped, seed=1)
    infos = []
    engine.search(Position(MIDDLE_GAME), Limits(), on_info=infos.append)
    assert infos and cap <= engine.nodes <= cap + 512  # the Python core looks every 512
    monkeypatch.setattr(levels, "LEVELS", (Level(1, None, 0, 0.0),) * (MAX_LEVEL + 1))
    infos.clear()
    move = Engine(0, seed=1).search(Position(MIDDLE_GAME), Limits(), on_info=infos.append)
    assert move is not None and [info.depth for info in infos] == [1]


@pytest.mark.usefixtures("backend")
def test_a_slip_is_the_best_looking_move_with_the_reply_not_looked_at(monkeypatch):
    positions = [Position(fen) for fen in _self_play(seed=3, plies=40)[::4]]
    searched = [Engine(5, seed=0).search(pos, Limits()) for pos in positions]
    monkeypatch.setattr(levels, "LEVELS", (Level(None, 1, 0, 1.0),) * (MAX_LEVEL + 1))
    differs = 0
    for pos, other in zip(positions, searched, strict=True):
        move = Engine(0, seed=0).search(pos, Limits())
        assert move is not None
        assert pos.code_of(move) == _best_looking(pos)
        differs += move != other
    assert differs  # a slip is not what the search would play


# ---------------------------------------------------- the weakest level
@pytest.mark.slow  # two games of self-play, then every move of 60-odd positions looked at
def test_the_weakest_level_plays_legal_human_looking_moves():
    fens = [fen for seed in (26, 27) for fen in _self_play(seed, plies=100, opening=4)][::3]
    weakest = Engine(0, seed=26)
    rng = random.Random(26)
    given = chosen_at_random = 0
    for fen in fens:
        pos = Position(fen)
        away = given_away(pos)
        move = weakest.search(pos, Limits(nodes=levels.PI_MOVE_NODES))
        assert move is not None and pos.is_legal(move)
        given += pos.code_of(move) in away
        chosen_at_random += rng.choice(pos.legal_codes()) in away
    assert len(fens) >= 50
    assert given <= levels.MOST_GIVEN_AWAY * len(fens)
    assert 2 * given <= chosen_at_random


def test_giving_away_is_judged_by_the_captures_that_follow():
    # White's queen on h3 stands where the bishop on c8 takes it; it can take
    # that bishop (the falcon on d8 shields it from the black queen) or the
    # knight on h4, neither defended.
    pos = Position("rnbfqkfb1r/ppp2ppppp/3p6/10/7n2/7Q2/PPPPPPPPPP/RNBF1KFBNR w KQkq - 0 1")
    codes = {pos.uci(pos.to_move(code)): code for code in pos.legal_codes()}
    assert exchange_value(pos, codes["h3c8"]) - exchange_value(pos, codes["h3h4"]) == 335 - 310
    assert exchange_value(pos, codes["h3c8"]) - exchange_value(pos, codes["h3i3"]) == 335
    away = {pos.uci(pos.to_move(code)) for code in given_away(pos)}
    assert "a2a3" in away  # leaves the queen to the bishop
    assert "h3d7" in away  # puts it where the bishop and the queen take it
    assert "h3i3" in away  # saves it but passes up a free bishop
    assert "h3h4" not in away and "h3c8" not in away  # 25 apart: no gift
    assert HANGING == 200


# ------------------------------------------------------------ variety
def opening(
    engine: Engine, check: Callable[[Position, Move], None] = lambda p, m: None
) -> Position:
    """The position after ``engine``'s first six moves from the start, each
    searched three plies deep and handed to ``check`` before it is played."""
    pos = Position()
    for _ in range(6):
        move = engine.search(pos, Limits(depth=3))
        assert move is not None
        check(pos, move)
        pos.push(move)
    return pos


@needs_core
@pytest.mark.parametrize("number", [0, 7, MAX_LEVEL])
def test_games_at_a_level_do_not_repeat_move_for_move(number):
    openings = {opening(Engine(number, seed=seed)).fen() for seed in range(10)}
    assert len(openings) >= 5


@needs_core
@pytest.mark.slow  # every reply of 18 positions searched: some 7 s
def test_full_strength_varies_only_among_moves_near_its_best():
    """Level 20 picks among opening moves within twice its spread of the
    best (each move's score and random points against the best's)."""

    def near_the_best(pos: Position, move: Move) -> None:
        assert _loss(pos, pos.code_of(move)) <= 2 * levels.OPENING_SPREAD + SLACK

    for seed in range(3):
        opening(Engine(MAX_LEVEL, seed=seed), near_the_best)


SLACK = 20  # centipawns between one search of the root and one of each reply


def _loss(pos: Position, code: int) -> int:
    """How much worse ``code`` is than the best move, searching every reply
    two plies deep without any level's random points."""
    scores = {}
    for other in pos.legal_codes():
        pos.make(other)
        infos = []
        Engine(seed=0).search(pos, Limits(depth=2), on_info=infos.append)
        pos.unmake()
        score = infos[-1].score_cp
        scores[other] = -score if score is not None else -(10**5)
    return max(scores.values()) - scores[code]


# Read at import, before the backend fixture stands the Python search in: the
# games that give the tests their positions are played once per process, on
# the compiled core where it was built, whichever core a test then checks (on
# the Python search they were 17 s of CPU of one test).
SELF_PLAY_COMPILED = core.available()


@functools.cache
def _self_play(seed: int, plies: int, opening: int = 0) -> tuple[str, ...]:
    """The positions of a seeded game at level 12 (``opening`` random moves
    first, as bench/levels.py plays), each with a move to make."""
    game = Game()
    rng = random.Random(seed)
    for _ in range(opening):
        game.push(rng.choice(game.position.legal_moves()))
    engine = Engine(12, seed=seed, compiled=SELF_PLAY_COMPILED)
    fens = []
    while game.outcome() is None and len(game.moves) < plies:
        move = engine.search(game.position, Limits())
        assert move is not None
        game.push(move)
        if game.outcome() is None:
            fens.append(game.position.fen())
    return tuple(fens)


def _best_looking(pos: Position) -> int:
    """The move after which the position evaluates best for its mover,
    by the reference evaluation (no search)."""
    evaluator = evaluator_for(pos)
    scored = []
    for code in pos.legal_codes():
        pos.make(code)
        scored.append((-evaluator.evaluate(pos, *material_sums(pos)), code))
        pos.unmake()
    return max(scored)[1]  # ties to the higher code, as the engine breaks them


@needs_core
def test_an_engine_that_judges_gives_the_same_verdict_whatever_its_seed():
    def verdicts(vary: bool) -> set[tuple[Move | None, int | None]]:
        seen = set()
        for seed in range(8):
            infos: list[Info] = []
            engine = Engine(MAX_LEVEL, seed=seed, vary=vary)
            move = engine.search(Position(), Limits(depth=4), on_info=infos.append)
            seen.add((move, infos[-1].score_cp))
        return seen

    assert len(verdicts(vary=False)) == 1
    assert len(verdicts(vary=True)) > 1  # a playing engine's openings differ


def test_the_advisers_and_puzzles_judge_without_variety():
    config = parse_config({"game": {"mode": "engine"}})
    playing, adviser = make_opponent(config), make_opponent(config, vary=False)
    assert isinstance(playing, EngineWorker) and isinstance(adviser, EngineWorker)
    assert playing.vary and not adviser.vary  # only the engine that plays varies its openings
    assert not Solver().engine.vary
