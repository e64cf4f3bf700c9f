"""scripts/tablebase.py and scripts/tablebase_pawn.py: their checks pass on a
small board, and a bad argument ends in one line with status 2."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from boardctl.engine import tablebase
from boardctl.rules import Position

from ..pathimport import import_file

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load(name: str):
    if name in sys.modules:
        return sys.modules[name]
    sys.path.insert(0, str(SCRIPTS))  # tablebase_pawn imports tablebase beside it
    return import_file(SCRIPTS / f"{name}.py", name)


def test_the_builder_verifies_a_small_board(capsys):
    load("tablebase").main(["--files", "6", "--ranks", "4", "--verify", "--sample", "8"])
    out = capsys.readouterr().out
    assert "falcon's side to move: 7,560 legal positions, 7,560 won, 0 drawn" in out
    assert "rules core: 16,712 positions agree, 64 of them stalemates" in out
    assert "mirrors of the files and of the ranks agree" in out


@pytest.mark.parametrize(
    "argv", [["--files", "2"], ["--ranks", "x"], ["--files", "99"], ["--bogus"]]
)
def test_a_bad_argument_is_one_line_and_status_2(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        load("tablebase").main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tablebase: ")


@pytest.fixture(scope="module")
def pawn_table():
    script = load("tablebase_pawn")
    variant = load("tablebase").variant_for(6, 5)
    table = script.PawnTable(variant, tablebase.generate(variant.geometry))
    table.build()
    return table


def test_the_pawn_table_agrees_with_the_rules_core(pawn_table):
    """Sampled: won in d means some move (or the pawn's capture into a won
    K+F v K) reaches lost in d-1 and none sooner; promotion, the falcon's
    capture and stalemate are not won; double steps are the preset's."""
    script = load("tablebase_pawn")
    assert pawn_table.double_from  # the made-up board has pawns that step twice
    assert script.verify(pawn_table, 2500, seed=3) > 2000


def test_a_promotion_is_not_won_and_taking_the_pawn_into_a_won_ending_is(pawn_table):
    # The pawn on a2 promotes next move, the falcon cannot reach a1: not won.
    running = Position("5K/6/6/p4k/4F1 b - - 0 1", pawn_table.variant)
    assert pawn_table.value(running) is None
    # Fd1xa2 leaves K+F v K lost in 4 for the bare king; every other move lets
    # the pawn run: won in 5, and by that capture only.
    caught = Position("6/6/5K/p5/3F1k w - - 0 1", pawn_table.variant)
    assert pawn_table.value(caught) == 5
    winning = []
    for move in caught.legal_moves():
        caught.push(move)
        if pawn_table.value(caught) is not None:
            winning.append(move)
        caught.pop()
    assert [caught.uci(move) for move in winning] == ["d1a2"]
