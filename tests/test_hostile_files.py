"""Every file a user names, given something that is no such file: one line,
exit status 2, at once.

The roles are the configuration (``--config``), the pinout it names, a hall
of boards (``boardctl hall``), a round (``boardctl hall --round``), a headless
simulator script and a sensor log (``boardctl replay``).  What is given in
their place: TOML nested far deeper than Python's parser can follow, a device
that never ends, a FIFO that no one writes (it must not be waited on), a
directory, and a file larger than any of its kind.  Each runs as a child
process with a deadline, so that a read that blocks fails this test instead
of holding the run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from boardctl.userfiles import SCRIPT_LIMIT, TOML_DEPTH, TOML_LIMIT

DEADLINE = 30.0  # seconds; each case is refused in well under one


def deep_tables(depth: int) -> str:
    return "x = " + "{a = " * depth + "1" + "}" * depth + "\n"


def deep_arrays(depth: int) -> str:
    return "x = " + "[" * depth + "]" * depth + "\n"


def make(kind: str, folder: Path, limit: int) -> Path:
    """A path of ``kind`` in ``folder``."""
    if kind == "/dev/zero":
        return Path("/dev/zero")
    path = folder / kind.replace(" ", "-")
    if kind == "FIFO":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    elif kind == "too large":
        with path.open("wb") as handle:  # sparse: no disk is used
            handle.truncate(limit + 1)
    elif kind == "tables 500 deep":
        path.write_text(deep_tables(500))
    elif kind == "arrays 500 deep":
        path.write_text(deep_arrays(500))
    elif kind == "not UTF-8":
        path.write_bytes(b"\xff\xfe = 1\n")
    return path


def command(role: str, path: Path, folder: Path) -> list[str]:
    if role == "config":
        return ["run", "--config", str(path)]
    if role == "pinout":
        config = folder / "with-pinout.toml"
        config.write_text(f'[board]\nsensors = "gpio"\npinout = "{path}"\n')
        return ["run", "--config", str(config)]
    if role == "hall":
        return ["hall", str(path)]
    if role == "round":
        return ["hall", "--round", str(path)]
    if role == "script":
        return ["sim", "--headless", "--script", str(path)]
    return ["replay", str(path)]


TOML_KINDS = [
    "tables 500 deep",
    "arrays 500 deep",
    "/dev/zero",
    "FIFO",
    "directory",
    "too large",
    "not UTF-8",
]
LOG_KINDS = ["/dev/zero", "FIFO", "directory", "not UTF-8"]
CASES = (
    [(role, kind) for role in ("config", "pinout", "hall", "round") for kind in TOML_KINDS]
    + [("script", kind) for kind in [*LOG_KINDS, "too large"]]
    + [("log", kind) for kind in LOG_KINDS]
)


@pytest.mark.parametrize(("role", "kind"), CASES)
def test_a_hostile_file_is_one_line_and_exit_2(tmp_path, role, kind):
    limit = SCRIPT_LIMIT if role == "script" else TOML_LIMIT
    path = make(kind, tmp_path, limit)
    done = subprocess.run(
        [sys.executable, "-m", "boardctl", *command(role, path, tmp_path)],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    lines = done.stderr.splitlines()
    assert done.returncode == 2, done.stderr[-2000:]
    assert len(lines) == 1 and len(lines[0]) < 300, done.stderr[-2000:]
    assert str(path) in lines[0] or (role in ("script", "log") and "line" in lines[0])
    expected = {
        "FIFO": "a FIFO, not a regular file",
        "directory": "a directory, not a regular file",
        "/dev/zero": "a character device, not a regular file",
        "too large": "larger than",
        "not UTF-8": "UTF-8",
        "tables 500 deep": f"nested more than {TOML_DEPTH} deep",
        "arrays 500 deep": f"nested more than {TOML_DEPTH} deep",
    }[kind]
    assert expected in lines[0]


@pytest.mark.parametrize("depth", [TOML_DEPTH - 1, TOML_DEPTH, 400, 5000])
def test_toml_is_refused_past_its_depth_however_deep(depth):
    import tomllib

    from boardctl.userfiles import parse_toml

    for text in (deep_tables(depth), deep_arrays(depth)):
        if depth <= TOML_DEPTH - 1:
            assert parse_toml(text)
        else:
            with pytest.raises(tomllib.TOMLDecodeError, match="nested more than"):
                parse_toml(text)


def test_a_regular_file_at_the_limit_is_read(tmp_path):
    from boardctl.userfiles import read_text

    path = tmp_path / "exact.toml"
    path.write_text("#" * (TOML_LIMIT - 1) + "\n")
    assert len(read_text(path, TOML_LIMIT)) == TOML_LIMIT
