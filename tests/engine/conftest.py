"""Fixtures shared by the engine's tests."""

from __future__ import annotations

import pytest

from boardctl.engine import core


@pytest.fixture(params=["compiled", "python"])
def backend(request, monkeypatch):
    """Runs a test on both search cores: the compiled one (where it was built)
    and the Python one."""
    if request.param == "compiled" and not core.available():
        pytest.skip("the compiled core is not built")
    if request.param == "python":
        monkeypatch.setattr(core, "available", lambda: False)
    return request.param
