"""The compiled core is optional at install time, but not where it can be built."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from boardctl.engine import core


def test_the_core_is_built_wherever_a_compiler_and_headers_exist():
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    compiler = shutil.which("cc") or shutil.which("gcc")
    if not (compiler and headers.exists()):
        pytest.skip("no C compiler or no Python.h: the Python search stands in")
    assert core.available(), (
        "a C compiler and Python.h are here, yet boardctl.engine._core was not built: "
        "see the build output of pip install -e ."
    )


# aarch64 (the Pi) makes a plain `char` unsigned, x86-64 signed: setup.py
# builds the core with an unsigned char everywhere, so the core's tests that
# run here (tests/engine) run the Pi's arithmetic; and its sources compile with
# warnings as errors (issue 22).  The real arm64 run is `make test-arm64`.
AARCH64_FLAGS = ("-funsigned-char", "-Werror", "-Wall", "-Wextra", "-O2", "-std=c11")
ROOT = Path(__file__).resolve().parents[2]
READ_CHAR = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("boardctl.engine._core", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(module.CHAR_UNSIGNED)
"""


def test_the_core_under_test_has_the_pis_unsigned_char() -> None:
    if not core.available():
        pytest.skip("no compiled core: the Python search stands in")
    from boardctl.engine import _core

    assert _core.CHAR_UNSIGNED == 1, "the core was built with a signed char: see setup.py"


def test_the_core_compiles_without_a_warning_under_the_pis_flags(tmp_path: Path) -> None:
    paths = sysconfig.get_paths()
    compiler = shutil.which("cc") or shutil.which("gcc")
    if not (compiler and (Path(paths["include"]) / "Python.h").exists()):
        pytest.skip("no C compiler or no Python.h: the Python search stands in")
    built = tmp_path / ("_core" + sysconfig.get_config_var("EXT_SUFFIX"))
    compiled = subprocess.run(
        [
            compiler,
            *AARCH64_FLAGS,
            "-shared",
            "-fPIC",
            f"-I{paths['include']}",
            *map(str, sorted((ROOT / "boardctl/engine/csrc").glob("*.c"))),
            "-o",
            str(built),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert compiled.returncode == 0, compiled.stderr
    # What the build says of its char is what the compiler made of the flag.
    answer = subprocess.run(
        [sys.executable, "-c", READ_CHAR, str(built)], capture_output=True, text=True, timeout=60
    )
    assert answer.stdout.split() == ["1"], answer.stderr
