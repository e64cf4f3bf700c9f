"""An engine process never outlives the process that started it (issue 11).

A child process (``lifeline_child.py``) starts an engine process that would
think for ever and is then killed with SIGKILL, so it cleans nothing up; the
engine process must be gone soon after.  No assertion depends on timing:
each wait is bounded by ``WAIT``, far beyond the half-second poll.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardctl.engine import lifeline

CHILD = Path(__file__).with_name("lifeline_child.py")
WAIT = 30.0

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def _running(pid: int) -> bool:
    """Alive and not a zombie (a container's init may never reap it)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def _kill_parent_and_wait(kind: str) -> bool:
    """Start the child, kill it once its engine is busy; whether the engine ended."""
    child = subprocess.Popen([sys.executable, str(CHILD), kind], stdout=subprocess.PIPE, text=True)
    pid = keeper = None
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        if line.startswith("keeper "):
            keeper = int(line.split()[1])
            line = child.stdout.readline()
        assert line.startswith("pid "), line
        pid = int(line.split()[1])
        assert _running(pid)
        child.send_signal(signal.SIGKILL)
        child.wait(WAIT)
        deadline = time.monotonic() + WAIT
        while _running(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        return not _running(pid)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        for left in (pid, keeper):
            if left is not None and _running(left):
                os.kill(left, signal.SIGKILL)


def test_the_engine_worker_ends_when_its_parent_is_killed():
    assert _kill_parent_and_wait("worker")


@pytest.mark.skipif(not lifeline.AVAILABLE, reason="needs Linux's parent-death signal")
def test_an_external_engine_program_ends_when_its_parent_is_killed():
    assert _kill_parent_and_wait("program")


def test_watching_the_parent_alone_ends_the_process():
    assert _kill_parent_and_wait("watch")
