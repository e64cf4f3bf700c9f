"""``boardctl replay``: the log format, its errors, and the command line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from boardctl.board.replay import LogError, parse_log, replay
from boardctl.cli import main
from boardctl.rules import DEFAULT_VARIANT, Game


def test_log_lines_with_comments_and_blank_lines():
    events = list(parse_log("# a game\n\n0 lift e2  # the pawn\n0.5 place e4\n1 choose f\n",
                            DEFAULT_VARIANT))
    assert [(e.time, e.verb) for e in events] == [(0.0, "lift"), (0.5, "place"), (1.0, "choose")]
    assert events[2].piece is not None and events[2].piece.symbol == "f"


@pytest.mark.parametrize(("text", "needle"), [
    ("0 lift", "line 1"),
    ("0 lift e2 e4", "line 1"),
    ("soon lift e2", "not a time"),
    ("-1 lift e2", "0 or more"),
    ("nan lift e2", "0 or more"),
    ("1 lift e2\n0.5 place e4", "line 2: time 0.5 is earlier"),
    ("0 lift k2", "no square 'k2'"),
    ("0 lift e9", "no square 'e9'"),
    ("0 hover e2", "unknown event 'hover'"),
    ("0 choose k", "q, f, r, b or n"),
    ("\n\n0 choose queen", "line 3"),
])
def test_malformed_lines_name_the_line_and_the_problem(text, needle):
    with pytest.raises(LogError) as info:
        list(parse_log(text, DEFAULT_VARIANT))
    assert needle in str(info.value)


def test_an_empty_log_prints_the_game_and_the_position():
    assert replay("# nothing happened\n", Game()) == [
        "game", "fen rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1",
    ]


def test_replay_runs_on_after_the_last_event_so_moves_settle():
    # The last place is at 0.4 s; without running on, it would never settle.
    assert replay("0 lift e2\n0.4 place e4\n", Game())[0] == "move e2e4"


def test_cli_replay_with_fen_and_variant(tmp_path, capsys):
    log = tmp_path / "game.log"
    log.write_text("0 lift e1\n0.3 place e2\n")
    assert main(["replay", str(log), "--variant", "falcon-8x8",
                 "--fen", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["move e1e2", "game e1e2", "fen 4k3/8/8/8/8/8/P3K3/8 b - - 1 1"]


@pytest.mark.parametrize(("content", "args", "needle"), [
    ("0 lift e2\n0.3 teleport e4\n", [], "line 2"),
    (None, [], "cannot read"),
    ("0 lift e2\n", ["--fen", "nonsense"], "FEN"),
    ("0 lift e2\n", ["--variant", "xiangqi"], "xiangqi"),
])
def test_cli_replay_errors_are_one_line(tmp_path, content, args, needle):
    log = tmp_path / "game.log"
    if content is not None:
        log.write_text(content)
    result = subprocess.run([sys.executable, "-m", "boardctl", "replay", str(log), *args],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and needle in result.stderr
