"""The package's shape, read from its source: no function over the length a
reader can hold at once without a reason written beside it.

A function longer than ``LONGEST`` lines (its decorators, signature, docstring
and body) needs a comment starting ``# long: <why>`` just above its first line;
in C the same (``// long:`` or ``/* long:``) above the function's signature.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "boardctl"
LONGEST = 60
REASON = re.compile(r"^\s*(#|//|/\*)\s*long:\s*\S")

# A C function: its signature starts in the line's first column, names the
# function before its "(" and ends, on that line or a later one, in "{"; its
# body ends at the first "}" in the first column.
_C_START = re.compile(r"^[A-Za-z_][\w \*]*?\b(\w+)\s*\(")


_COMMENT = re.compile(r"^\s*(#|//|/?\*)")


def _excused(lines: list[str], first: int) -> bool:
    """``first`` is 1-based: the comment just above it says why the function
    is long (its first line starts with ``long:``)."""
    i = first - 2
    while i >= 0 and _COMMENT.match(lines[i]):
        if REASON.match(lines[i]):
            return True
        i -= 1
    return False


def python_functions(path: Path) -> list[tuple[str, int, int]]:
    """(name, first line, length) of each function and method in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            assert node.end_lineno is not None
            found.append((node.name, first, node.end_lineno - first + 1))
    return found


def c_functions(path: Path) -> list[tuple[str, int, int]]:
    """(name, first line, length) of each function defined in ``path``."""
    lines = path.read_text().splitlines()
    found = []
    i = 0
    while i < len(lines):
        match = _C_START.match(lines[i])
        opened = next(
            (
                j
                for j in range(i, len(lines))
                if lines[j].rstrip().endswith(("{", ";", ")"))
                and not lines[j].rstrip().endswith(",")
            ),
            i,
        )
        if match is None or not lines[opened].rstrip().endswith("{"):
            i += 1
            continue
        end = next(j for j in range(opened + 1, len(lines)) if lines[j].startswith("}"))
        found.append((match[1], i + 1, end - i + 1))
        i = end + 1
    return found


def too_long() -> list[str]:
    out = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix == ".py":
            functions = python_functions(path)
        elif path.suffix in (".c", ".h"):
            functions = c_functions(path)
        else:
            continue
        lines = path.read_text().splitlines()
        for name, first, length in functions:
            if length > LONGEST and not _excused(lines, first):
                out.append(f"{path.relative_to(ROOT)}:{first} {name}: {length} lines")
    return out


def test_no_function_is_longer_than_a_reader_holds_without_a_reason() -> None:
    assert too_long() == []


def test_the_measure_sees_long_functions_in_both_languages(tmp_path: Path) -> None:
    body = "\n".join(f"    x = {i}" for i in range(LONGEST))
    py = tmp_path / "long.py"
    py.write_text(f"def f():\n{body}\n")
    assert python_functions(py) == [("f", 1, LONGEST + 1)]
    c = tmp_path / "long.c"
    c_body = "\n".join(f"    x += {i};" for i in range(LONGEST))
    c.write_text(
        f"static int\nnot_this(void);\nstatic int g(int x) {{\n{c_body}\n    return x;\n}}\n"
    )
    assert c_functions(c) == [("g", 3, LONGEST + 3)]
    lines = ["# long: one table, read top to bottom,", "# as the manual lists it", "def f():"]
    assert _excused(lines, 3) and not _excused(lines[1:], 2)
    assert not _excused(["x = 1  # long: not above it", "def f():"], 2)
