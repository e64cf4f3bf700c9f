"""Benches and scripts imported by their path, for the tests that run them
(they sit outside the package, in folders that are no packages), and
another tree's package for the benches that compare two."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def import_file(path: Path, name: str) -> ModuleType:
    """The module in ``path`` (a file, or a package's folder), imported as
    ``name`` and listed in ``sys.modules`` under it (a dataclass looks its
    module up there)."""
    package = [str(path)] if path.is_dir() else None
    spec = importlib.util.spec_from_file_location(
        name, path / "__init__.py" if package else path, submodule_search_locations=package
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
