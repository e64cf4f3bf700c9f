"""The on-demand scripts (the arm64 run, the firmware rebuild) and what they
source are not run by ``make test``: shellcheck at least reads every one of them
on every run."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).parent.parent / "scripts").glob("*.sh"))
# Sourced by the scripts (and by image/build.sh), never run on their own.
LIBRARIES = sorted((Path(__file__).parent.parent / "scripts" / "lib").glob("*.sh"))


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
@pytest.mark.parametrize("script", SCRIPTS + LIBRARIES, ids=lambda path: path.name)
def test_the_script_is_shellcheck_clean(script: Path) -> None:
    result = subprocess.run(
        ["shellcheck", str(script)], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_scripts_are_there_and_executable() -> None:
    names = {path.name for path in SCRIPTS}
    assert "build-firmware.sh" in names
    assert LIBRARIES
    assert all(path.stat().st_mode & 0o111 for path in SCRIPTS)
