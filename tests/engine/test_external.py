"""An external UCI engine behind the worker's interface.

The external program is mostly boardctl's own UCI engine (``boardctl uci``
in a process of its own); a few tests use a tiny plain engine written here
(no ``UCI_Variant``, no ``Skill Level``) or programs that are no engine at
all.  Each wait is bounded by a generous number of polls, so a hang fails the
test instead of blocking it; nothing here measures time.
"""

from __future__ import annotations

import os
import signal
import sys

import pytest

from boardctl.engine import Limits
from boardctl.engine.external import ExternalEngine
from boardctl.engine.interface import BestMove, Failed, Thinking, WorkerError
from boardctl.engine.uciwire import EngineOption, go_command, parse_info, parse_option
from boardctl.rules import Position, get_variant, parse_uci

from ..positions import after
from .answers import POLL, POLLS, wait_for

BOARDCTL = [sys.executable, "-m", "boardctl", "uci"]
START = get_variant("falcon").start_fen
EIGHT = get_variant("falcon-8x8").start_fen
# Seconds for an engine's uciok and each readyok here.  The client's own
# DEFAULT_TIMEOUT (10 s) is for the board, whose loop waits while an engine
# starts; a Python engine on a machine at load 20 took longer than that.
STARTUP = 60.0

# A UCI engine with no options: it plays e2e4, whatever it is asked.
PLAIN = """
import sys
for line in sys.stdin:
    words = line.split()
    if words == ["uci"]:
        print("id name plain")
        print("uciok", flush=True)
    elif words == ["isready"]:
        print("readyok", flush=True)
    elif words[:1] == ["go"]:
        print("info depth 1 score cp 7 nodes 3 time 2 pv e2e4 zz99 e7e5")
        print("bestmove e2e4 ponder e7e5", flush=True)
    elif words == ["quit"]:
        break
"""


@pytest.fixture
def engine():
    with ExternalEngine(BOARDCTL, timeout=STARTUP) as e:
        yield e


@pytest.fixture
def plain():
    with ExternalEngine([sys.executable, "-c", PLAIN], timeout=STARTUP) as e:
        yield e


# ---------------------------------------------------------------- parsers
@pytest.mark.parametrize(
    ("limits", "line"),
    [
        (Limits(), "go"),
        (Limits(infinite=True), "go infinite"),
        (Limits(depth=4, nodes=1000, mate=2), "go depth 4 nodes 1000 mate 2"),
        (Limits(movetime=0.25), "go movetime 250"),
        (
            Limits(wtime=60.0, btime=59.5, winc=1.0, binc=0.0, movestogo=20),
            "go movestogo 20 wtime 60000 btime 59500 winc 1000",
        ),
        (Limits(wtime=-0.3, btime=1.0), "go wtime 0 btime 1000"),
    ],
)
def test_limits_become_a_go_line_in_milliseconds(limits, line):
    assert go_command(limits) == line


def test_an_info_line_becomes_info_with_its_principal_variation():
    pos = Position()
    line = "depth 3 seldepth 5 multipv 1 score cp -12 nodes 4000 nps 8000 time 500 "
    line += "pv e2e4 e7e5 i1h3"
    info = parse_info(line.split(), pos)
    assert info is not None
    assert (info.depth, info.seldepth, info.score_cp, info.mate) == (3, 5, -12, None)
    assert (info.nodes, info.time) == (4000, 0.5)
    assert [pos.uci(m) for m in info.pv] == ["e2e4", "e7e5", "i1h3"]
    assert pos.fen() == START


@pytest.mark.parametrize(
    ("text", "pv"),
    [
        ("depth 2 score mate 3 pv e2e4 e2e4 e7e5", ["e2e4"]),  # second e2e4 is illegal
        ("depth 2 score mate 3 pv e2e4 xyz e7e5", ["e2e4"]),
        ("depth 2 score mate 3 pv", []),
        ("depth 2 score mate 3 pv e2e4 string e7e5", ["e2e4"]),
    ],
)
def test_the_principal_variation_stops_at_the_first_bad_move(text, pv):
    pos = Position()
    info = parse_info(text.split(), pos)
    assert info is not None and info.mate == 3
    assert [pos.uci(m) for m in info.pv] == pv


@pytest.mark.parametrize(
    "text",
    [
        "seldepth 3 score cp 5 pv e2e4",  # no depth
        "depth 5 currmove e2e4 currmovenumber 1",  # progress, not an iteration
        "depth 5 score cp 5 lowerbound pv e2e4",  # a bound
        "depth 5 multipv 2 score cp 5 pv e2e4",  # not the main line
        "depth five score cp 5",
        "depth 5 score cp",
        "string depth 5 score cp 5",
    ],
)
def test_lines_that_are_not_an_iteration_are_skipped(text):
    assert parse_info(text.split(), Position()) is None


def test_options_are_read_with_spaces_and_choices():
    skill, variant, nameless = (
        "name Skill Level type spin default 20 min 0 max 20",
        "name UCI_Variant type combo default falcon var falcon var x y",
        "type check default true",
    )
    assert parse_option(skill.split()) == EngineOption("Skill Level", "spin", "20", "0", "20")
    option = parse_option(variant.split())
    assert option is not None and option.choices == ("falcon", "x y")
    assert parse_option(nameless.split()) is None


# ---------------------------------------------------------------- boardctl uci
def test_a_search_reports_each_depth_and_a_legal_best_move(engine):
    assert engine.alive and engine.name.startswith("boardctl")
    request = engine.go(START, ["e2e4"], Limits(depth=3))
    seen = wait_for(engine, request, BestMove)
    thinking = [m for m in seen if isinstance(m, Thinking)]
    assert [m.info.depth for m in thinking] == [1, 2, 3]
    assert all(m.request == request and m.info.pv for m in thinking)
    pos = after(START, "e2e4")
    parse_uci(pos, seen[-1].move)  # legal for Black, or this raises
    pos.push(thinking[-1].info.pv[0])  # the principal variation is Black's too


def test_stop_ends_an_infinite_search_with_a_move(engine):
    request = engine.go(START, [], Limits(infinite=True))
    wait_for(engine, request, Thinking)
    engine.stop()
    seen = wait_for(engine, request, BestMove)
    parse_uci(Position(), seen[-1].move)


def test_a_second_go_cancels_the_first_and_each_answer_keeps_its_request(engine):
    first = engine.go(START, [], Limits(infinite=True))
    wait_for(engine, first, Thinking)
    second = engine.go(START, ["e2e4"], Limits(depth=2))
    assert second == first + 1
    seen = wait_for(engine, second, BestMove)
    answers = [m for m in seen if isinstance(m, BestMove)]
    assert [m.request for m in answers] == [first, second]
    parse_uci(Position(), answers[0].move)  # White's move: the first position
    parse_uci(after(START, "e2e4"), answers[1].move)  # Black's: the second
    stale = seen.index(answers[0])
    assert all(m.request == first for m in seen[:stale])
    assert [m.info.depth for m in seen[stale + 1 :] if isinstance(m, Thinking)] == [1, 2]


def test_go_after_go_after_go_answers_in_order(engine):
    requests = [engine.go(START, [], Limits(infinite=True)) for _ in range(3)]
    engine.stop()
    seen = wait_for(engine, requests[-1], BestMove)
    assert [m.request for m in seen if isinstance(m, BestMove)] == requests


def test_the_8x8_variant_is_set_and_played(engine):
    request = engine.go(EIGHT, ["e2e4"], Limits(depth=2), variant="falcon-8x8")
    seen = wait_for(engine, request, BestMove)
    parse_uci(after(EIGHT, "e2e4", variant="falcon-8x8"), seen[-1].move)
    request = engine.go(START, [], Limits(depth=1))
    parse_uci(Position(), wait_for(engine, request, BestMove)[-1].move)
    sent = [line for line in engine.transcript if line.startswith("> setoption name UCI")]
    assert sent == [
        "> setoption name UCI_Variant value falcon-8x8",
        "> setoption name UCI_Variant value falcon",
    ]


def test_a_mated_side_gets_no_move(engine):
    request = engine.go("k9/1Q8/1K8/10/10/10/10/10 b - - 0 1", [], Limits(depth=1))
    assert wait_for(engine, request, BestMove)[-1].move is None


def test_a_bad_request_fails_in_its_turn_and_the_next_one_works(engine):
    first = engine.go(START, [], Limits(infinite=True))
    bad_fen = engine.go("not a fen", [], Limits(depth=1))
    bad_move = engine.go(START, ["e2e5"], Limits(depth=1))
    bad_variant = engine.go(START, [], Limits(depth=1), variant="shogi")
    seen = wait_for(engine, bad_variant, Failed)
    answers = [m for m in seen if isinstance(m, BestMove | Failed)]
    assert [(type(m), m.request) for m in answers] == [
        (BestMove, first),
        (Failed, bad_fen),
        (Failed, bad_move),
        (Failed, bad_variant),
    ]
    request = engine.go(START, ["e2e4"], Limits(depth=1))
    parse_uci(after(START, "e2e4"), wait_for(engine, request, BestMove)[-1].move)


def test_skill_is_sent_clamped_and_options_are_set_at_start():
    with ExternalEngine(BOARDCTL, {"skill level": "3"}, timeout=STARTUP) as engine:
        engine.set_skill(99)
        engine.new_game()
        request = engine.go(START, [], Limits(depth=1))
        wait_for(engine, request, BestMove)
    sent = [line for line in engine.transcript if line.startswith("> setoption name Skill")]
    assert sent == [
        "> setoption name Skill Level value 3",
        "> setoption name Skill Level value 20",
    ]


def test_an_option_the_engine_lacks_is_refused_at_start():
    engine = ExternalEngine(BOARDCTL, {"Ponder": "true"}, timeout=STARTUP)
    with pytest.raises(WorkerError, match="no option 'Ponder'"):
        engine.start()
    assert not engine.alive


def test_a_killed_engine_raises_from_poll(engine):
    request = engine.go(START, [], Limits(infinite=True))
    wait_for(engine, request, Thinking)
    os.kill(engine.pid, signal.SIGKILL)
    with pytest.raises(WorkerError, match="exited"):
        for _ in range(POLLS):
            engine.poll(POLL)
    assert not engine.alive
    with pytest.raises(WorkerError):
        engine.poll()


def test_go_after_a_death_starts_a_fresh_engine(engine):
    os.kill(engine.pid, signal.SIGKILL)
    with pytest.raises(WorkerError):
        for _ in range(POLLS):
            engine.poll(POLL)
    request = engine.go(START, [], Limits(depth=1))
    assert engine.alive
    parse_uci(Position(), wait_for(engine, request, BestMove)[-1].move)


def test_close_is_idempotent_and_ends_the_process(engine):
    engine.close()
    engine.close()
    assert not engine.alive and engine.pid is None
    assert engine.poll() == []


# ---------------------------------------------------------------- other programs
def test_an_engine_without_variants_plays_falcon_only(plain):
    request = plain.go(START, [], Limits(depth=1))
    seen = wait_for(plain, request, BestMove)
    assert seen[-1].move == "e2e4"
    thinking = [m for m in seen if isinstance(m, Thinking)]
    assert [Position().uci(m) for m in thinking[0].info.pv] == ["e2e4"]  # stops at zz99
    request = plain.go(EIGHT, [], Limits(depth=1), variant="falcon-8x8")
    failed = wait_for(plain, request, Failed)[-1]
    assert "UCI_Variant" in failed.reason
    assert not any("setoption" in line for line in plain.transcript)


def test_an_illegal_best_move_fails_the_request(plain):
    request = plain.go(START, ["e2e4"], Limits(depth=1))  # it answers e2e4 for Black
    assert "e2e4" in wait_for(plain, request, Failed)[-1].reason


def test_a_program_that_does_not_exist():
    with pytest.raises(WorkerError, match="cannot start"):
        ExternalEngine(["/nonexistent/engine-binary"]).start()


def test_a_program_that_is_not_an_engine_times_out_and_is_killed():
    engine = ExternalEngine([sys.executable, "-c", "import time; time.sleep(30)"], timeout=0.5)
    with pytest.raises(WorkerError, match="uciok"):
        engine.start()
    assert not engine.alive


def test_a_program_that_exits_at_once():
    engine = ExternalEngine([sys.executable, "-c", "raise SystemExit(3)"], timeout=STARTUP)
    with pytest.raises(WorkerError, match="code 3"):
        engine.start()


def test_a_command_line_as_one_string_is_split():
    assert ExternalEngine("/usr/games/stockfish --flag 'a b'").command == [
        "/usr/games/stockfish",
        "--flag",
        "a b",
    ]
    with pytest.raises(ValueError, match="empty"):
        ExternalEngine([])


@pytest.mark.parametrize("number", ["٣", "²", "1_0", "+3", "9" * 5000, str(2**63)])
def test_an_info_number_that_is_no_ascii_number_makes_no_info(number):
    pos = Position()
    good = "depth 3 score cp 10 nodes 5 pv e2e4"
    assert parse_info(good.split(), pos) is not None
    for text in (
        f"depth {number} score cp 10 pv e2e4",
        f"depth 3 score cp {number} pv e2e4",
        f"depth 3 nodes {number} score cp 1",
    ):
        assert parse_info(text.split(), pos) is None
