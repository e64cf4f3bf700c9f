"""The engine's interface lives in one module: interface.py."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import boardctl
from boardctl.engine import interface
from boardctl.engine.external import ExternalEngine
from boardctl.engine.xboard import FairyMax

NAMES = {
    "Opponent",
    "Thinking",
    "BestMove",
    "Failed",
    "Message",
    "EngineFailure",
    "WorkerError",
}


def test_the_interface_is_defined_once():
    """No other module of the engine, nor the daemon's, defines them again
    (the serial link's wire messages are another thing)."""
    root = Path(boardctl.__file__).parent
    defined: dict[str, list[str]] = {}
    for path in [*root.glob("*.py"), *(root / "engine").glob("*.py")]:
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                names = [node.name]
            elif isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            else:
                continue
            for name in set(names) & NAMES:
                defined.setdefault(name, []).append(path.name)
    assert defined == {name: ["interface.py"] for name in NAMES}


def test_the_worker_and_the_uci_client_satisfy_the_protocol():
    from boardctl.engine.external import ExternalEngine
    from boardctl.engine.worker import EngineWorker

    wanted = {name for name in vars(interface.Opponent) if not name.startswith("_")}
    assert wanted == {"go", "stop", "new_game", "set_skill", "rating", "poll", "close"}
    for cls in (EngineWorker, ExternalEngine):
        assert wanted <= set(dir(cls)), cls


def test_a_missing_engine_fails_with_one_error_family(tmp_path):
    """The UCI client and the XBoard client raise their own errors, each
    still the builtin its callers catch, and both are an EngineFailure."""
    caught = []
    for start in (
        lambda: ExternalEngine([str(tmp_path / "no-uci")]).start(),
        lambda: FairyMax(str(tmp_path / "no-xboard")),
    ):
        with pytest.raises(interface.EngineFailure, match="cannot start") as error:
            start()
        caught.append(error.value)
    assert isinstance(caught[0], interface.WorkerError) and isinstance(caught[0], RuntimeError)
    assert isinstance(caught[1], OSError)
