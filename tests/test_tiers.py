"""The fast tier's list of slow tests names tests that exist: a renamed test
must not slip back into `make check` unnoticed; nor may a module that shares
something expensive lose its place at the head of `make test`'s run."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from .conftest import SHARED_MODULES, SLOW_MODULES, SLOW_TESTS

ROOT = Path(__file__).parent.parent


@pytest.mark.parametrize("nodeid", sorted(SLOW_TESTS))
def test_each_slow_test_exists_and_says_why(nodeid: str) -> None:
    path, name = nodeid.split("::")
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    assert callable(getattr(module, name, None)), nodeid
    assert SLOW_TESTS[nodeid]


def test_each_slow_module_exists_and_says_why() -> None:
    for path, reason in SLOW_MODULES.items():
        assert (ROOT / path).is_file() and reason, path


def test_each_shared_module_exists_and_says_what_it_shares() -> None:
    for path, shared in SHARED_MODULES.items():
        assert (ROOT / path).is_file() and shared, path
