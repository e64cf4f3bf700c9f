"""The command line: perft output and one-line errors."""

from __future__ import annotations

import subprocess
import sys

import pytest

from boardctl.cli import main


def test_perft_prints_only_the_total(capsys):
    assert main(["perft", "2"]) == 0
    assert capsys.readouterr().out == "576\n"


def test_perft_divide_prints_one_line_per_move_and_the_total_last(capsys):
    assert main(["perft", "2", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 25
    rows = [line.split(": ") for line in lines[:-1]]
    assert all(len(row) == 2 and int(row[1]) == 24 for row in rows[:1])
    assert int(lines[-1]) == sum(int(count) for _, count in rows) == 576


def test_perft_depth_zero_is_one_node(capsys):
    assert main(["perft", "0", "--divide"]) == 0
    assert capsys.readouterr().out == "1\n"


def test_perft_with_fen_and_variant(capsys):
    assert main(["perft", "2", "--variant", "falcon-8x8"]) == 0
    assert capsys.readouterr().out == "400\n"
    fen = "k9/10/10/10/10/10/10/9K w - - 0 1"
    assert main(["perft", "1", "--fen", fen]) == 0
    assert capsys.readouterr().out == "3\n"


@pytest.mark.parametrize(("variant", "counts"), [
    ("falcon-9x10", "24 576"), ("falcon-10x10-central", "43 1847"),
])
def test_perft_knows_every_preset_and_help_lists_them(capsys, variant, counts):
    assert [main(["perft", depth, "--variant", variant]) for depth in ("1", "2")] == [0, 0]
    assert capsys.readouterr().out.split() == counts.split()
    with pytest.raises(SystemExit):
        main(["perft", "--help"])
    assert variant in "".join(capsys.readouterr().out.split())  # however argparse wraps it


@pytest.mark.parametrize(("args", "needle"), [
    (["perft", "-1"], "depth"),
    (["perft", "2", "--fen", "rubbish"], "FEN"),
    (["perft", "2", "--fen", "k9/10/10/10/10/10/10/9K w KQ - 0 1"], "castling"),
    (["perft", "2", "--variant", "shogi"], "shogi"),
    (["perft", "two"], "two"),
    (["perft"], "depth"),
    ([], "command"),
])
def test_bad_input_is_one_line_on_stderr_and_a_nonzero_exit(args, needle):
    result = subprocess.run(
        [sys.executable, "-m", "boardctl", *args], capture_output=True, text=True, check=False
    )
    assert result.returncode != 0
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert needle in lines[0]
    assert "Traceback" not in result.stderr
