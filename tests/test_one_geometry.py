"""One geometry, not two code paths: code above the rules core never asks
which shape of board it holds, and no module (the rules core's or any other)
is in an import cycle.

Both read the source tree (as tests/test_tiers.py does), so a new
``isinstance(geo, HexGeometry)`` or a new cycle fails here, not in review.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

from boardctl.hw.hexpins import read_pinout_schema
from boardctl.rules import FALCON_HEX, VARIANTS, Geometry, get_variant

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "boardctl"
RULES = PACKAGE / "rules"

# The shapes' own types, and the flag that stood in for them: what a caller
# would test to learn the board's shape instead of asking the geometry.
SHAPE_TYPES = frozenset(
    {
        "BoardGeometry",
        "Geometry",
        "HexGeometry",
        "Position",
        "HexPosition",
        "Tables",
        "HexTables",
        "Pinout",
        "HexPinout",
        "DiagBoard",
        "HexDiagBoard",
    }
)
SHAPE_FLAGS = frozenset({"hexagonal", "is_hex"})


def shape_tests(source: str) -> list[int]:
    """The lines of ``source`` that test a board's shape: ``isinstance`` on
    one of :data:`SHAPE_TYPES`, or a read of one of :data:`SHAPE_FLAGS`."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and len(node.args) == 2
        ):
            kinds = node.args[1]
            names = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
            if any(_name(kind) in SHAPE_TYPES for kind in names):
                lines.append(node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr in SHAPE_FLAGS:
            lines.append(node.lineno)
    return lines


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def test_the_check_sees_a_shape_test() -> None:
    assert shape_tests("if isinstance(geo, HexGeometry):\n    pass\n") == [1]
    assert shape_tests("x = 1\nok = isinstance(g, (int, rules.HexPosition))\n") == [2]
    assert shape_tests("if variant.hexagonal:\n    pass\n") == [1]
    assert shape_tests("if isinstance(text, str):\n    pass\n") == []


def test_no_code_above_the_rules_asks_for_the_boards_shape() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if RULES not in path.parents
        for line in shape_tests(path.read_text(encoding="utf-8"))
    ]
    assert not found, (
        "ask the geometry (boardctl/rules/boardgeometry.py) or pick by a "
        f"registry keyed by it, not by the shape's type: {found}"
    )


def cycles(graph: grimp.ImportGraph, package: str) -> list[set[str]]:
    """The sets of ``package``'s modules that import each other round a
    cycle (strongly connected components of more than one module)."""
    modules = {m for m in graph.modules if m == package or m.startswith(package + ".")}
    edges = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
    reach = {m: _reachable(m, edges) for m in modules}
    out: list[set[str]] = []
    for module in sorted(modules):
        group = {other for other in reach[module] if module in reach[other]} | {module}
        if len(group) > 1 and group not in out:
            out.append(group)
    return out


def _reachable(start: str, edges: dict[str, set[str]]) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in edges[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def test_the_cycle_check_sees_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for name in ("p", "p.a", "p.b", "p.c"):
        graph.add_module(name)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.a")
    graph.add_import(importer="p.c", imported="p.a")
    assert cycles(graph, "p") == [{"p.a", "p.b"}]


def test_the_rules_core_has_no_import_cycle() -> None:
    # Imports made only for type checking count: they tie the modules as
    # tightly for a reader and for mypy.
    graph = grimp.build_graph("boardctl")
    assert cycles(graph, "boardctl.rules") == []


def test_no_module_of_boardctl_is_in_an_import_cycle() -> None:
    # The whole package, as the rules core above: the store's records and
    # reviews, the daemon's loop and its remote seat, and the engine's search
    # and its compiled core each closed one before.
    graph = grimp.build_graph("boardctl")
    assert cycles(graph, "boardctl") == []


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_geometry_places_its_cells_by_its_own_steps(variant: str) -> None:
    """What the engine's mailbox is built from: distinct coordinates from 0,
    and every named step is its compass vector between them."""
    geo = get_variant(variant).geometry
    coords = geo.coordinates()
    assert len(set(coords)) == len(coords) == geo.size
    assert min(x for x, _ in coords) == 0 and min(y for _, y in coords) == 0
    for cell in range(geo.size):
        for name, (dx, dy) in geo.compass:
            to = geo.step(cell, name)
            if to is not None:
                assert coords[to] == (coords[cell][0] + dx, coords[cell][1] + dy)


def test_each_shipped_pinout_is_of_its_boards_schema() -> None:
    assert read_pinout_schema(ROOT / "hardware" / "pinout.toml") == Geometry(10, 8).pinout_schema
    assert read_pinout_schema(ROOT / "hardware" / "hex" / "pinout.toml") == FALCON_HEX.pinout_schema
    assert Geometry(10, 8).pinout_schema != FALCON_HEX.pinout_schema
