"""What is flashed onto the Pico: firmware/ holds exactly the files the device
runs, every one of them needed by main.py, and the emulated Pico and the
README's deploy command copy that set.  The firmware's benches
(bench/firmware/) and checks (tests/firmware/) live beside it, never in it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"

# What goes onto every board's Pico (firmware/README.md, "Deploy") ...
FLASHED = {
    "main.py",
    "app.py",
    "hal.py",
    "link.py",
    "pins.py",
    "protocol.py",
    "protocol_constants.py",
    "scanner.py",
    "wire.py",
    "ws2812.py",
}
# ... and what the hex board's adds (main.py imports it when pins.BOARD names it).
HEX_BOARD = {"hexboard.py"}
# Beside the code, for people and for the tests: the spec, its vectors, the README.
DOCUMENTS = {"PROTOCOL.md", "README.md", "vectors.txt"}
# What the firmware imports from MicroPython itself.
BUILT_IN = {"array", "binascii", "gc", "machine", "micropython", "rp2", "select", "sys", "time"}


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at its top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_firmware_folder_holds_what_is_flashed_and_its_documents() -> None:
    # (__pycache__: CPython's, where the tests import the firmware.)
    found = {p.name for p in FIRMWARE.iterdir() if p.name != "__pycache__"}
    assert found == FLASHED | HEX_BOARD | DOCUMENTS


def test_main_needs_every_flashed_file_and_nothing_that_is_not_flashed() -> None:
    needed: set[str] = set()
    todo = ["main"]
    while todo:
        name = todo.pop()
        needed.add(name)
        for imported in _imports(FIRMWARE / f"{name}.py") - BUILT_IN:
            assert (FIRMWARE / f"{imported}.py").exists(), f"{name}.py imports {imported}"
            if imported not in needed:
                todo.append(imported)
    assert {f"{name}.py" for name in needed} == FLASHED | HEX_BOARD


def test_the_emulated_pico_is_flashed_with_that_set() -> None:
    tree = ast.parse((ROOT / "emulator" / "harness.py").read_text(encoding="utf-8"))
    files = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == "FIRMWARE_FILES"
    )
    assert sorted(files) == sorted(FLASHED)


def test_the_readme_deploys_that_set() -> None:
    readme = (FIRMWARE / "README.md").read_text(encoding="utf-8")
    copied = re.findall(r"mpremote connect \S+ cp ((?:\S+\.py )+): \+ reset", readme)
    assert [sorted(line.split()) for line in copied] == [sorted(FLASHED)]
