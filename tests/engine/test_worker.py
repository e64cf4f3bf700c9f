"""The engine worker process: requests, cancellation, failures."""

from __future__ import annotations

import pytest

from boardctl.engine import Limits
from boardctl.engine.interface import BestMove, Failed, Ranked, Ranks, Thinking, WorkerError
from boardctl.engine.worker import EngineWorker
from boardctl.rules import Position, parse_uci

from .answers import wait_for

START = Position().fen()


@pytest.fixture
def worker():
    with EngineWorker(seed=1) as w:
        yield w


def test_a_search_reports_progress_and_a_legal_best_move(worker):
    request = worker.go(START, ["e2e4"], Limits(depth=3))
    seen = wait_for(worker, request, BestMove)
    assert [m.info.depth for m in seen if isinstance(m, Thinking)] == [1, 2, 3]
    pos = Position()
    pos.push(parse_uci(pos, "e2e4"))
    parse_uci(pos, seen[-1].move)  # legal for Black, or this raises


def test_stop_ends_an_infinite_search_with_a_move(worker):
    request = worker.go(START, [], Limits(infinite=True))
    wait_for(worker, request, Thinking)
    worker.stop()
    seen = wait_for(worker, request, BestMove)
    assert seen[-1].move is not None


def test_a_new_position_cancels_the_search_before_it(worker):
    first = worker.go(START, [], Limits(infinite=True))
    wait_for(worker, first, Thinking)
    second = worker.go(START, ["e2e4"], Limits(depth=2))
    seen = wait_for(worker, second, BestMove)
    best = [m for m in seen if isinstance(m, BestMove)]
    assert [m.request for m in best] == [first, second]


def test_a_bad_position_fails_that_request_only(worker):
    request = worker.go("not a fen", [], Limits(depth=1))
    assert isinstance(wait_for(worker, request, Failed)[-1], Failed)
    request = worker.go(START, ["e2e5"], Limits(depth=1))
    assert "illegal" in wait_for(worker, request, Failed)[-1].reason
    request = worker.go(START, [], Limits(depth=1))
    assert wait_for(worker, request, BestMove)[-1].move


def test_no_legal_move_is_answered_with_none(worker):
    mated = "10/10/10/10/10/3F6/2K7/k9 b - - 0 1"
    request = worker.go(mated, [], Limits(depth=2))
    assert wait_for(worker, request, BestMove)[-1].move is None


def test_a_ranking_answers_once_with_the_moves_best_first(worker):
    assert isinstance(worker, Ranks)
    fork = "9k/10/10/3q1n4/4P5/10/10/K9 w - - 0 1"  # the pawn takes the queen or the knight
    request = worker.rank(fork, [], Limits(depth=3), 2)
    seen = wait_for(worker, request, Ranked)
    assert not [m for m in seen if isinstance(m, Thinking) and m.request == request]
    assert [one.move for one in seen[-1].moves] == ["e4d5", "e4f5"]
    assert seen[-1].moves[0].info.score_cp > seen[-1].moves[1].info.score_cp
    request = worker.rank("not a fen", [], Limits(depth=1), 2)
    assert isinstance(wait_for(worker, request, Failed)[-1], Failed)


def test_a_go_cancels_a_ranking_which_still_answers(worker):
    first = worker.rank(START, [], Limits(infinite=True), 3)
    second = worker.go(START, [], Limits(depth=1))
    seen = wait_for(worker, second, BestMove)
    ranked = [m for m in seen if isinstance(m, Ranked)]
    assert [m.request for m in ranked] == [first]


def test_a_dead_engine_process_is_reported():
    worker = EngineWorker()
    worker.start()
    worker._process.kill()
    worker._process.join(5)
    with pytest.raises(WorkerError):
        worker.poll(0.1)
    worker.close()


def test_a_dead_process_is_reported_once_and_the_next_go_starts_a_new_one():
    with EngineWorker(seed=0) as worker:
        first = worker._process
        request = worker.go(START, [], Limits(infinite=True))
        first.kill()
        first.join(5)
        with pytest.raises(WorkerError, match=r"gone|exited"):
            while True:
                worker.poll(0.1)
        assert worker.poll(0.1) == []  # reported once, then forgotten
        request = worker.go(START, [], Limits(depth=2))
        assert worker._process is not first and worker.alive
        answers: list[BestMove] = []
        while not answers:
            answers = [m for m in worker.poll(1.0) if isinstance(m, BestMove)]
        assert answers[0].request == request and answers[0].move is not None
