"""``boardctl run`` after the page's restart: under systemd it exits with
EX_TEMPFAIL for the unit's Restart=on-failure; started any other way it runs
its own command line again, in the folder it started in."""

from __future__ import annotations

import os
import subprocess
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
    # Not this test process's children: the real re-execution below reaps its own.
    monkeypatch.setattr(restart, "reap_children", lambda: True)
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


# A program that starts multiprocessing's resource tracker (as a review's
# Event does) and a short-lived child, then re-executes itself as the page's
# restart does; the new program says how many zombie children it has once
# the first run's children have all ended, or after 10 s.
FIRST_RUN = """
import multiprocessing, subprocess, sys
from boardctl.daemon.restart import reexec
multiprocessing.get_context("spawn").Event()
subprocess.Popen([sys.executable, "-c", "pass"])
reexec([sys.executable, "-c", SECOND_RUN], ".")
"""
SECOND_RUN = """
import os, time
def children():
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        state, ppid = stat[stat.rindex(")") + 2 :].split()[:2]
        if int(ppid) == os.getpid():
            found.append(state)
    return found
deadline = time.monotonic() + 60  # the children end on their own time at load
while any(state != "Z" for state in children()) and time.monotonic() < deadline:
    time.sleep(0.05)
print(children().count("Z"), len(children()))
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_a_restart_in_the_same_process_leaves_no_zombie_child(tmp_path):
    program = f"SECOND_RUN = {SECOND_RUN!r}\n{FIRST_RUN}"
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    zombies, children = map(int, done.stdout.split())
    assert (zombies, children) == (0, 0), done.stderr
