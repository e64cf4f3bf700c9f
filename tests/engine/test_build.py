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


# aarch64 (the Pi) makes a plain `char` unsigned, x86-64 signed: the core is
# built here as it would be there, warnings as errors, and its tests run on
# that build (issue 22).  The real arm64 run is `make test-arm64`.
AARCH64_FLAGS = ("-funsigned-char", "-Werror", "-Wall", "-Wextra", "-O2", "-std=c11")
CORE_TESTS = ("tests/engine/test_core.py", "tests/engine/test_core_legality.py")
ROOT = Path(__file__).resolve().parents[2]

RUN_ON_BUILD = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("boardctl.engine._core", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.modules["boardctl.engine._core"] = module
from boardctl.engine import core
assert core._Compiled is module.Core, "the core under test is not the one just built"
import pytest
sys.exit(pytest.main(["-p", "no:cacheprovider", *sys.argv[2:]]))
"""


def test_the_core_built_with_unsigned_char_and_warnings_as_errors_passes_its_tests(
    tmp_path: Path,
) -> None:
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
    tests = subprocess.run(
        [sys.executable, "-c", RUN_ON_BUILD, str(built), *CORE_TESTS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-2000:]
    assert " passed" in tests.stdout
