"""``boardctl review`` at the command line: its report, and its errors in one line."""

from __future__ import annotations

import pytest

from boardctl.cli import main
from boardctl.storage.store import GameStore

from .games import MISSES_MATE, QUIET, stored

FAST = ["--depth", "5", "--movetime", "5"]


def test_review_prints_the_marked_moves_each_side_and_the_time(tmp_path, capsys):
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        stored(store, *QUIET)
        stored(store, *MISSES_MATE, result="0-1")
        stored(store, *QUIET, result=None)  # the latest game, unfinished: not the default
    assert main(["review", "--db", str(db), *FAST]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("1. a3?? (better Re8#, #1 → -")
    assert lines[1] == "White (Ann): 0 ?!, 0 ?, 1 ??, average loss " + lines[1].split("loss ")[1]
    assert lines[2] == "Black (Bob): 0 ?!, 0 ?, 0 ??, average loss 0.0 win% a move"
    assert lines[3].startswith("Reviewed game 2: 2 moves in ") and len(lines) == 4
    assert main(["review", "1", "--db", str(db), *FAST]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and lines[0].startswith("White (Ann): 0 ?!, 0 ?, 0 ??")  # none marked


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["9"], "no game 9"),
        (["3"], "game 3 has not ended"),
        (["4"], "game 4 has no moves"),
        (["--movetime", "0"], "expected a number from 0.01 to 3600"),
        (["--movetime", "1e3"], "expected a number"),
        (["--depth", "97"], "expected a whole number from 1 to 96"),
    ],
)
def test_errors_are_one_line_with_status_2(tmp_path, capsys, args, needle):
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        stored(store, *QUIET)
        stored(store, *QUIET)
        stored(store, *QUIET, result=None)
        stored(store, "4k5/p4p4/10/10/10/10/P4P4/4K5 w - - 0 1", ())
    assert main(["review", *args, "--db", str(db)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("boardctl review: ") and captured.err.count("\n") == 1
    assert needle in captured.err


def test_no_database_or_no_finished_game_is_one_line(tmp_path, capsys):
    assert main(["review", "--db", str(tmp_path / "none.sqlite3")]) == 2
    assert capsys.readouterr().err.startswith("boardctl review: no game database at ")
    db = tmp_path / "games.sqlite3"
    with GameStore(db) as store:
        stored(store, *QUIET, result=None)
    assert main(["review", "--db", str(db)]) == 2
    assert capsys.readouterr().err.startswith("boardctl review: no finished game in ")
