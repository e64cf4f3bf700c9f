"""``boardctl run`` after the page's restart: under systemd it exits with
EX_TEMPFAIL for the unit's Restart=on-failure; started any other way it runs
its own command line again, in the folder it started in."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from boardctl import cli
from boardctl.daemon import restart, wiring
from boardctl.daemon.restart import RESTART_STATUS


class Exec:
    """A stand-in for os.execv that records its call and returns."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str], str]] = []

    def __call__(self, path: str, argv: list[str]) -> None:
        self.calls.append((path, list(argv), os.getcwd()))


@pytest.fixture
def execv(monkeypatch: pytest.MonkeyPatch) -> Exec:
    fake = Exec()
    monkeypatch.setattr(os, "execv", fake)
    return fake


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text('[game]\nmode = "two-players"\n')
    return path


def ends_with(monkeypatch: pytest.MonkeyPatch, status: int) -> None:
    """``boardctl run``'s loop ends at once, with ``status``."""
    monkeypatch.setattr(wiring, "run", lambda *args, **kwargs: status)


def test_under_systemd_the_restart_exits_with_ex_tempfail(monkeypatch, execv, config):
    assert RESTART_STATUS == os.EX_TEMPFAIL == 75
    monkeypatch.setenv("NOTIFY_SOCKET", "/run/systemd/notify")
    monkeypatch.setenv("INVOCATION_ID", "0123456789abcdef0123456789abcdef")
    ends_with(monkeypatch, RESTART_STATUS)
    assert cli.main(["run", "--config", str(config)]) == RESTART_STATUS
    assert execv.calls == []


def test_without_systemd_the_same_command_line_runs_again(monkeypatch, execv, config, tmp_path):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    argv = [sys.executable, "-m", "boardctl", "run", "--config", str(config)]
    monkeypatch.setattr(sys, "orig_argv", ["python3", *argv[1:]])
    monkeypatch.chdir(tmp_path)
    elsewhere = tmp_path / "lgpio"
    elsewhere.mkdir()

    def run_elsewhere(*args: object, **kwargs: object) -> int:
        os.chdir(elsewhere)  # as lgpio's import does
        return RESTART_STATUS

    monkeypatch.setattr(wiring, "run", run_elsewhere)
    cli.main(["run", "--config", str(config)])
    assert execv.calls == [(sys.executable, argv, str(tmp_path))]


@pytest.mark.parametrize("environ", [{}, {"NOTIFY_SOCKET": "@notify"}])
def test_a_stop_is_never_a_restart(monkeypatch, execv, config, environ):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    for key, value in environ.items():
        monkeypatch.setenv(key, value)
    ends_with(monkeypatch, 0)
    assert cli.main(["run", "--config", str(config)]) == 0
    assert execv.calls == []


def test_invocation_id_alone_is_not_systemds_restart():
    # A terminal run as a user service has INVOCATION_ID, and no Restart= for us.
    assert not restart.under_systemd({"INVOCATION_ID": "0123456789abcdef0123456789abcdef"})
    assert restart.under_systemd({"NOTIFY_SOCKET": "/run/systemd/notify"})
