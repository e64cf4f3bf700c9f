"""The C core's files depend on each other one way.

A file and its header (movegen.c, movegen.h) are one unit; a unit depends on
the units whose headers it includes.  core.h says that every file declares
what it offers in a header of its own name, so the includes are the
dependencies: a circle among them (movegen.c using board.c while board.c uses
movegen.c, as it once did) fails here, and so does a declaration put in
another unit's header, which would hide such a dependency.
"""

from __future__ import annotations

import re
from pathlib import Path

CSRC = Path(__file__).resolve().parents[2] / "boardctl" / "engine" / "csrc"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
# A function declared at the top level of a header: `type name(args);`,
# possibly over two lines (no body, so no inline helper).
DECLARATION = re.compile(r"^[A-Za-z_][\w \t*]*?\b(\w+)\s*\([^;{]*\)\s*;", re.MULTILINE)
DEFINITION = r"^[A-Za-z_][\w \t*]*?\b{name}\s*\([^;]*?\)\s*{{"


def includes() -> dict[str, set[str]]:
    """Each unit (a file's name without .c or .h) and the units it includes."""
    graph: dict[str, set[str]] = {}
    for path in sorted(CSRC.glob("*.[ch]")):
        unit = path.stem
        named = INCLUDE.findall(path.read_text(encoding="utf-8"))
        graph.setdefault(unit, set()).update(Path(n).stem for n in named if Path(n).stem != unit)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every circle a depth-first walk meets, as the units along it."""
    found: list[list[str]] = []
    done: set[str] = set()

    def walk(unit: str, path: list[str]) -> None:
        if unit in path:
            found.append([*path[path.index(unit) :], unit])
            return
        if unit in done:
            return
        for other in sorted(graph.get(unit, ())):
            walk(other, [*path, unit])
        done.add(unit)

    for unit in sorted(graph):
        walk(unit, [])
    return found


def test_the_walk_finds_a_circle_and_no_false_one() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_every_include_names_a_file_of_the_core() -> None:
    names = {path.name for path in CSRC.glob("*.[ch]")}
    for path in CSRC.glob("*.[ch]"):
        for name in INCLUDE.findall(path.read_text(encoding="utf-8")):
            assert name in names, f"{path.name} includes {name}, which is not in csrc/"


def test_the_core_files_include_each_other_without_a_circle() -> None:
    graph = includes()
    assert {"movegen", "board", "legal", "search"} <= graph.keys()
    assert circles(graph) == [], " and ".join(" -> ".join(c) for c in circles(graph))


def test_a_header_declares_only_what_its_own_file_defines() -> None:
    for header in sorted(CSRC.glob("*.h")):
        declared = DECLARATION.findall(header.read_text(encoding="utf-8"))
        source = header.with_suffix(".c")
        if not source.exists():
            assert declared == [], f"{header.name} declares {declared} but has no .c file"
            continue
        text = source.read_text(encoding="utf-8")
        for name in declared:
            assert re.search(DEFINITION.format(name=name), text, re.MULTILINE), (
                f"{header.name} declares {name}, which {source.name} does not define"
            )
