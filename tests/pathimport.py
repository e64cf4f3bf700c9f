"""Benches and scripts imported by their path, for the tests that run them:
they sit outside the package, in folders that are no packages."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def import_file(path: Path, name: str) -> ModuleType:
    """The module in ``path``, imported as ``name`` and listed in
    ``sys.modules`` under it (a dataclass looks its module up there)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
