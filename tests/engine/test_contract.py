"""boardctl/engine/README.md's contract between the compiled core and the
Python reference, on one set of positions, and the README held to the code.

The broad checks live beside their subjects (test_core.py: perft and random
games on every variant; test_search.py and test_hex_engine.py: mates on both
cores); here the contract is checked in one place, on the positions the
benchmarks use, rectangle and hexagon, so that a change to either side that
breaks it fails under its name.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from boardctl.engine import Engine, Limits, core, params, search
from boardctl.engine import tree as python_tree
from boardctl.engine.evaluate import evaluator_for, material_sums
from boardctl.rules import Position, get_variant
from tests.engine_mates import forces_mate_with

README = Path(search.__file__).with_name("README.md")
needs_core = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

POSITIONS = [
    ("falcon", None),
    ("falcon", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"),
    ("falcon", "rnbfqk1b1r/3Qp1p1pp/2p6n/1p2fp1p2/3P2PN2/2N4P2/PPP1PP2PP/R1BF1KFB1R w KQkq - 1 10"),
    ("falcon", "2f2k1f2/3n2p3/10/4F5/5f4/3N2F3/4PP4/5K4 b - - 0 1"),
    ("falcon", "8k1/5pp3/10/3F6/10/6P3/5PKP2/10 w - - 0 1"),
    ("falcon-hex", None),
    ("glinski", None),
    (
        "falcon-hex",
        "pr2q/2p1f2k/1f1p1bb2/5nb2n/5p4r/6p1pppp/4P6/PPPP2Pp4/R10/N1FB6/1QBB1P3/5P2/KFNRP"
        " w - - 0 9",
    ),
]
# Forced mates, each proved by tests/engine_mates.py: (variant, moves, FEN).
MATES = [
    ("falcon", 2, "9k/10/10/10/10/K9/1R8/R9 w - - 0 1"),
    ("falcon", 2, "10/3P6/1r3p4/6b1K1/8p1/10/9Q/4Fk4 w - - 0 1"),
    ("falcon-hex", 1, "5/8/9/10/k10/11R/11/12/11/10/2K6/Q7/5 w - - 0 1"),
    ("falcon-hex", 1, "5/8/9/10/3K7/6k5/11/10Q1/5R5/10/9/8/5 w - - 0 1"),
]


def _position(variant: str, fen: str | None) -> Position:
    return Position(fen, get_variant(variant))


def _reference_eval(pos: Position) -> int:
    evaluator = evaluator_for(pos)
    return evaluator.evaluate(pos, *material_sums(pos))


@needs_core
@pytest.mark.parametrize(("variant", "fen"), POSITIONS)
def test_the_core_moves_and_evaluates_as_the_reference_does(variant, fen):
    """Here and one move further along every legal move."""
    pos = _position(variant, fen)
    engine = core.build(pos.variant, tt_bits=10)
    core.load(engine, pos)
    codes = pos.legal_codes()
    assert sorted(engine.legal_codes()) == sorted(codes)
    assert engine.evaluate() == _reference_eval(pos)
    for code in codes:
        pos.make(code)
        engine.push(code)
        assert sorted(engine.legal_codes()) == sorted(pos.legal_codes()), pos.fen()
        assert engine.hash() == pos.hash, pos.fen()
        assert engine.evaluate() == _reference_eval(pos), pos.fen()
        engine.pop()
        pos.unmake()


@needs_core
@pytest.mark.parametrize(("variant", "n", "fen"), MATES)
def test_both_cores_find_the_same_forced_mate(variant, n, fen):
    found = []
    for compiled in (True, False):
        pos = _position(variant, fen)
        infos = []
        move = Engine(seed=0, compiled=compiled).search(pos, Limits(mate=n), on_info=infos.append)
        assert move is not None and forces_mate_with(pos, pos.code_of(move), n)
        found.append(infos[-1].mate)
    assert found == [n, n]


def _readme_table() -> dict[str, tuple[bool, bool]]:
    rows = re.findall(r"^\| `(\w+)` \| (yes|no) \| (yes|no) \|", README.read_text(), flags=re.M)
    return {
        name: (core_reads == "yes", python_reads == "yes")
        for name, core_reads, python_reads in rows
    }


def _params_numbers() -> set[str]:
    tree = ast.parse(inspect.getsource(params))
    return {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def _read_by_search_py() -> set[str]:
    """What the Python search reads of params: its driver (search.py) and its
    tree (tree.py)."""
    return {
        alias.name
        for module in (search, python_tree)
        for node in ast.walk(ast.parse(inspect.getsource(module)))
        if isinstance(node, ast.ImportFrom) and node.module == "params"
        for alias in node.names
    }


def test_the_readme_names_what_each_core_reads_of_params():
    table = _readme_table()
    assert set(table) == _params_numbers()
    given_to_core = set(re.findall(r"\b[A-Z][A-Z_]+\b", inspect.getsource(params.core_search)))
    python = _read_by_search_py()
    assert {name for name, (core_reads, _) in table.items() if core_reads} == (
        given_to_core & set(table)
    )
    assert {name for name, (_, python_reads) in table.items() if python_reads} == python
