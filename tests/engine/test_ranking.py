"""Several good moves, ranked: each found by searching without the ones before it."""

from __future__ import annotations

import pytest

from boardctl.engine import Engine, Info, Limits
from boardctl.engine.ranking import rank
from boardctl.rules import Position, parse_uci

# A pawn forks the black queen (d5) and knight (f5); anything else loses the pawn.
FORK = "9k/10/10/3q1n4/4P5/10/10/K9 w - - 0 1"

# Every test here runs on both search cores (conftest.backend).
pytestmark = pytest.mark.usefixtures("backend")


def test_the_fork_ranks_taking_the_queen_then_the_knight():
    pos = Position(FORK)
    ranked = rank(Engine(seed=0), pos, Limits(depth=4), 3)
    assert [pos.uci(move) for move, _ in ranked[:2]] == ["e4d5", "e4f5"]
    assert len({move for move, _ in ranked}) == 3
    scores = [info.score_cp for _, info in ranked]
    assert scores[0] > scores[1] > scores[2]
    # Each score is for its own move: its principal variation starts with it.
    assert all(info.pv[0] == move for move, info in ranked)
    assert pos.fen() == FORK  # left as it was


def test_the_first_ranked_is_the_search_s_own_best():
    pos = Position()
    best = Engine(seed=0).search(pos, Limits(depth=2))
    ranked = rank(Engine(seed=0), pos, Limits(depth=2), 2)
    assert ranked[0][0] == best


def test_fewer_moves_than_asked_for_ranks_them_all():
    # Black's king in the corner has three squares; White's rook on h1 guards none.
    pos = Position("9k/10/10/10/10/10/10/K6R2 b - - 0 1")
    ranked = rank(Engine(seed=0), pos, Limits(depth=2), 5)
    assert sorted(pos.uci(move) for move, _ in ranked) == ["j8i7", "j8i8", "j8j7"]


def test_a_stop_keeps_what_is_ranked_so_far():
    pos = Position(FORK)
    searches = []

    def stop() -> bool:
        return len(searches) > 0  # once the first search has answered

    engine = Engine(seed=0)
    real = engine.search

    def counted(*args, **kwargs):
        move = real(*args, **kwargs)
        searches.append(move)
        return move

    engine.search = counted  # type: ignore[method-assign]
    ranked = rank(engine, pos, Limits(depth=3), 3, stop)
    assert [pos.uci(move) for move, _ in ranked] == ["e4d5"]


def test_a_search_among_some_moves_chooses_one_of_them():
    pos = Position(FORK)
    among = [parse_uci(pos, "a1b1"), parse_uci(pos, "e4e5")]
    infos = []
    move = Engine(seed=0).search(pos, Limits(depth=3), on_info=infos.append, among=among)
    assert move in among
    assert infos[-1].pv[0] in among
    assert infos[-1].score_cp is not None and infos[-1].score_cp < -300  # the queen takes


def test_a_search_among_no_legal_move_gives_none():
    pos = Position(FORK)
    assert Engine().search(pos, Limits(depth=2), among=[]) is None


class ScriptedSearch:
    """Scores each search from a script, for the first move it may choose."""

    def __init__(self, scores: list[tuple[int | None, int | None]]) -> None:
        self.scores = list(scores)

    def search(self, pos, limits, stop, on_info, among):
        cp, mate = self.scores.pop(0)
        on_info(Info(3, cp, mate, 10, 0.01, [among[0]]))
        return among[0]


def test_the_rest_are_put_in_the_order_of_their_scores_mates_first():
    pos = Position()
    engine = ScriptedSearch([(50, None), (-10, None), (30, None), (None, 2), (None, -1)])
    ranked = rank(engine, pos, Limits(depth=1), 5)  # type: ignore[arg-type]
    scores = [(info.score_cp, info.mate) for _, info in ranked]
    # The first is the full search's best, whatever the later searches found.
    assert scores == [(50, None), (None, 2), (30, None), (-10, None), (None, -1)]
