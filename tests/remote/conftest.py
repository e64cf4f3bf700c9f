"""The remote seat's tests play against a browser's player, Anna, who has
taken the seat of the game the board offered."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .rig import Rig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path)
    r.seat("Anna")
    r.run(0.5)
    yield r
    r.close()
