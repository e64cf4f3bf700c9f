"""The compiled core is optional at install time, but not where it can be built."""

from __future__ import annotations

import shutil
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
