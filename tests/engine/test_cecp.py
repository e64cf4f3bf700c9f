"""``boardctl xboard``: sessions with XBoard, read line by line.

Most tests drive :func:`run` with the fake engine of ``test_uci.py`` (it plays
the first legal move, or thinks until stopped on an infinite search), so they
test the protocol and not the play; a few use the real engine at a small
depth or time, asking only for a legal move in the right order.  The match
against Fairy-Max under the real XBoard is in ``test_xboard_gui.py``.
"""

from __future__ import annotations

import io
import signal
import subprocess
import sys

import pytest

from boardctl.engine import Engine, Limits
from boardctl.engine.cecp import run
from boardctl.engine.cecpwire import Level, TimeControl, parse_level
from boardctl.rules import Position, get_variant, parse_uci

from .test_uci import FakeEngine

XBOARD_FALCON = get_variant("falcon-xboard")
START = XBOARD_FALCON.start_fen
AFTER_E4 = "rnbfqkfbnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNBFQKFBNR b KQkq e3 0 1"
MATE_IN_ONE = "k9/10/1K8/10/10/10/10/9Q w - - 0 1"  # Qj8# or Qc8#
MATED = "k9/1Q8/1K8/10/10/10/10/10 b - - 0 1"
OPENING = "xboard\nprotover 2\nnew\nvariant falcon\n"
TIMEOUT = 30  # seconds for a subprocess to answer: a hang, not a slow machine


def talk(text: str, engine=None) -> list[str]:
    """The answer to ``text``, read to the end: a last ``ping`` waits for a
    move the engine is still thinking about (end of input drops it)."""
    out = io.StringIO()
    the_engine = engine if engine is not None else FakeEngine()
    assert run(io.StringIO(text + "ping 999\n"), out, lambda: the_engine) == 0
    lines = out.getvalue().splitlines()
    assert lines[-1] == "pong 999"
    return lines[:-1]


def game_lines(lines: list[str]) -> list[str]:
    """The lines after the handshake and the variant's piece line."""
    return [line for line in lines if not line.startswith(("feature ", "piece "))]


def moves_of(lines: list[str]) -> list[str]:
    return [line.split()[1] for line in lines if line.startswith("move ")]


# ---------------------------------------------------------------- handshake
def test_protover_announces_the_features_xboard_needs_and_done_last():
    lines = talk("xboard\nprotover 2\n")
    assert lines[-1] == "feature done=1"
    features = " ".join(lines)
    for feature in (
        'variants="falcon"',
        "ping=1",
        "setboard=1",
        "usermove=1",
        "time=1",
        "analyze=1",
        "memory=1",
        "sigint=0",
        "sigterm=0",
        'myname="boardctl ',
        'option="Seed -spin 0 0 2147483647"',
        'option="Variety -check 0"',
        'option="Skill Level -spin 20 0 20"',
    ):
        assert feature in features


def test_variant_falcon_tells_xboard_how_the_falcon_moves():
    assert talk("variant falcon\n") == ["piece F& aflafrKafraflKafafsKafsafK"]


def test_a_variant_it_does_not_play_is_an_error_and_changes_nothing():
    engine = FakeEngine()
    lines = talk("variant capablanca\nforce\nusermove f1i1\ngo\n", engine)
    assert lines[0] == "Error (unsupported variant): variant capablanca"
    assert lines[1] == "Illegal move: f1i1"  # still the falcon's start: f1 is blocked
    assert engine.fens == [START]


# ---------------------------------------------------------------- the game
def test_the_engine_answers_the_users_move_with_its_own():
    engine = FakeEngine()
    lines = game_lines(talk(OPENING + "usermove e2e4\n", engine))
    expected = Position(AFTER_E4, XBOARD_FALCON).uci(
        Position(AFTER_E4, XBOARD_FALCON).legal_moves()[0]
    )
    assert lines == [f"move {expected}"]
    assert engine.fens == [AFTER_E4]


def test_moves_without_the_usermove_word_are_taken_too():
    engine = FakeEngine()
    assert len(moves_of(talk(OPENING + "e2e4\n", engine))) == 1
    assert engine.fens == [AFTER_E4]


def test_in_force_mode_moves_are_only_played_until_go():
    engine = FakeEngine()
    lines = game_lines(talk(OPENING + "force\nusermove e2e4\nusermove e7e5\ngo\n", engine))
    assert len(moves_of(lines)) == 1
    assert engine.fens[0].split()[1] == "w"  # it plays White, the side to move
    assert len(engine.fens) == 1


def test_playother_waits_for_the_other_sides_move():
    engine = FakeEngine()
    lines = game_lines(talk(OPENING + "force\nusermove e2e4\nplayother\nusermove e7e5\n", engine))
    assert len(moves_of(lines)) == 1
    assert engine.fens[0].split()[1] == "w"


def test_an_illegal_move_is_refused_and_the_position_stays():
    engine = FakeEngine()
    lines = game_lines(talk(OPENING + "force\nusermove e2e5\nusermove e1e2\ngo\n", engine))
    assert lines[:2] == ["Illegal move: e2e5", "Illegal move: e1e2"]
    assert engine.fens == [START]


def test_xboards_castling_is_the_kings_three_square_move():
    engine = FakeEngine()
    fen = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"
    lines = game_lines(talk(f"{OPENING}force\nsetboard {fen}\nusermove f1i1\ngo\n", engine))
    assert not [line for line in lines if line.startswith("Illegal")]
    assert engine.fens[0].startswith("r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R6RK1 b")


def test_undo_and_remove_take_moves_back():
    engine = FakeEngine()
    talk(OPENING + "force\ne2e4\ne7e5\ni1h3\nundo\ngo\nforce\nremove\ngo\n", engine)
    assert engine.fens[0].startswith("rnbfqkfbnr/pppp1ppppp/10/4p5/4P5/10/")  # after e7e5
    assert engine.fens[1] == AFTER_E4  # the engine's move and e7e5 removed


def test_setboard_sets_up_a_position_and_a_bad_one_refuses_every_move():
    engine = FakeEngine()
    lines = game_lines(
        talk(f"{OPENING}force\nsetboard {AFTER_E4}\ngo\nsetboard 10/10 w - -\ne7e5\n", engine)
    )
    assert engine.fens == [AFTER_E4]
    assert lines[1].startswith("tellusererror Illegal position")
    assert lines[2] == "Illegal move (no legal position): e7e5"


def test_a_result_ends_the_engines_part_in_the_game():
    engine = FakeEngine()
    lines = game_lines(talk(OPENING + "result 1-0 {White resigns}\nusermove e2e4\n", engine))
    assert lines == [] and engine.fens == []


def test_the_engine_says_the_result_after_its_mating_move():
    lines = game_lines(talk(f"{OPENING}force\nsetboard {MATE_IN_ONE}\nsd 2\ngo\n", Engine()))
    assert lines[-2] in ("move j1j8", "move j1c8") and lines[-1] == "1-0 {White mates}"


def test_on_a_finished_game_the_engine_says_the_result_instead_of_moving():
    engine = FakeEngine()
    lines = game_lines(talk(f"{OPENING}force\nsetboard {MATED}\ngo\n", engine))
    assert lines == ["1-0 {White mates}"] and engine.fens == []


# ---------------------------------------------------------------- ping and ?
def test_a_ping_on_the_engines_move_is_answered_after_the_move():
    lines = game_lines(talk(OPENING + "st 0.2\npost\nusermove e2e4\nping 5\n", Engine()))
    assert lines[-1] == "pong 5"
    assert lines[-2].startswith("move ")
    assert parse_uci(Position(AFTER_E4, XBOARD_FALCON), lines[-2].split()[1])


def test_question_mark_makes_the_engine_move_now():
    # A search of an hour, cut short: without "?" the test would time out.
    lines = game_lines(talk(OPENING + "st 3600\nusermove e2e4\n?\nping 1\n", Engine()))
    assert lines[-1] == "pong 1" and lines[-2].startswith("move ")


def test_ping_in_force_mode_is_answered_at_once():
    assert game_lines(talk(OPENING + "force\nping 3\nping 4\n")) == ["pong 3", "pong 4"]


# ---------------------------------------------------------------- time
def limits_after(commands: str) -> Limits:
    engine = FakeEngine()
    talk(OPENING + commands + "usermove e2e4\n", engine)
    [(_, limits)] = engine.searches
    return limits


def test_st_is_a_time_a_move_and_sd_a_depth():
    assert limits_after("st 7\nsd 5\n") == Limits(depth=5, movetime=7.0)


def test_level_and_the_clocks_give_the_engines_clock_to_its_colour():
    limits = limits_after("level 40 5 2\ntime 12000\notim 9000\n")
    # The engine plays Black after "new": its clock is btime.
    assert limits == Limits(wtime=90.0, btime=120.0, winc=2.0, binc=2.0, movestogo=40)


def test_new_forgets_sd_but_keeps_the_time_control():
    assert limits_after("sd 3\nst 2\nnew\nvariant falcon\n") == Limits(movetime=2.0)


@pytest.mark.parametrize(
    ("args", "level"),
    [
        ("40 5 0", Level(40, 300.0, 0.0)),
        ("40 0:30 0", Level(40, 30.0, 0.0)),
        ("0 2 12", Level(0, 120.0, 12.0)),
        ("0 1 0.5", Level(0, 60.0, 0.5)),
        ("40 25+5 0", Level(40, 1500.0, 0.0)),  # the protocol's future extension is ignored
    ],
)
def test_level_reads_minutes_seconds_and_increments(args, level):
    assert parse_level(args.split()) == level


def test_a_conventional_clock_counts_the_moves_left_in_its_session():
    control = TimeControl(level=Level(40, 300.0, 0.0), mine=100.0, theirs=80.0)
    assert control.limits(turn=0, plies=0).movestogo == 40
    assert control.limits(turn=0, plies=78).movestogo == 1
    assert control.limits(turn=0, plies=80).movestogo == 40
    assert control.limits(turn=1, plies=81).movestogo == 40


@pytest.mark.parametrize(
    "line",
    ["level 40 5", "level x 5 0", "st -1", "st ٣", "sd 0", "time 1.5", "nps x", "memory 0"],
)
def test_a_bad_time_control_is_an_error_and_changes_nothing(line):
    engine = FakeEngine()
    lines = talk(f"{OPENING}st 2\n{line}\nusermove e2e4\n", engine)
    assert f"): {line}" in " | ".join(lines) and " | ".join(lines).count("Error (") == 1
    assert engine.searches[0][1] == Limits(movetime=2.0)


# ---------------------------------------------------------------- analysis
def test_analyze_thinks_until_told_otherwise_and_follows_the_moves():
    engine = FakeEngine()
    lines = game_lines(talk(OPENING + "post\nanalyze\nusermove e2e4\nundo\nexit\n", engine))
    assert [limits.infinite for _, limits in engine.searches] == [True, True, True]
    assert engine.fens == [START, AFTER_E4, START]
    assert moves_of(lines) == []  # analysis shows its thinking, never moves
    assert all(len(line.split()) >= 4 for line in lines)  # ply score time nodes [pv]


# ---------------------------------------------------------------- settings
def test_options_set_the_level_the_variety_and_the_seed():
    engine = FakeEngine()
    assert talk("", engine) == [] and not engine.vary  # the same move every run by default
    lines = talk("option Skill Level=5\noption Variety=1\noption Seed=77\nnew\n", engine)
    assert lines == []
    assert (engine.skill, engine.vary) == (5, True)
    assert engine.seeds == [77, 77]  # set, and again at the new game


def test_an_unknown_option_or_command_is_an_error():
    assert talk("option Ponder=1\nfrobnicate\n") == [
        "Error (unknown option): option Ponder=1",
        "Error (unknown command): frobnicate",
    ]


def test_memory_sizes_the_table_and_nps_counts_time_in_positions():
    engine = FakeEngine()
    talk("memory 64\nnps 50000\n", engine)
    assert (engine.tt_bits, engine.nodes_per_second) == (22, 50000)
    talk("nps 50000\nnew\n", engine)
    assert engine.nodes_per_second is None  # until the next new game


def test_without_options_the_engine_opens_alike_every_run():
    script = OPENING + "new\nvariant falcon\nsd 3\nforce\ngo\n"
    first = moves_of(talk(script, Engine()))
    assert first and first == moves_of(talk(script, Engine()))


def test_the_same_seed_gives_the_same_game_start():
    script = OPENING + "option Seed=31\nnew\nvariant falcon\nsd 3\nforce\ngo\n"
    first = moves_of(talk(script, Engine()))
    assert first and first == moves_of(talk(script, Engine()))


# ---------------------------------------------------------------- the command
def test_boardctl_xboard_answers_over_pipes_and_ignores_an_interrupt():
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardctl", "xboard"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("xboard\nprotover 2\nping 1\n")
    proc.stdin.flush()
    lines = []
    while not lines or lines[-1] != "pong 1":
        lines.append(proc.stdout.readline().strip())
    proc.send_signal(signal.SIGINT)  # XBoard's, before it read sigint=0
    out, _ = proc.communicate("ping 2\nquit\n", timeout=TIMEOUT)
    assert "feature done=1" in lines
    assert out.split() == ["pong", "2"] and proc.returncode == 0
