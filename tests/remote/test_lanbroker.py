"""The board's own broker (boardctl.remote.lanbroker) when the board was killed
outright: its mosquitto lives on, holding the port, and the board's next start
stops it and starts its own; a pid file naming another program leaves it alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

from boardctl.remote import lanbroker
from boardctl.remote.lanbroker import LanBroker

from .broker import free_port, need_mosquitto

BOARD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from boardctl.remote.lanbroker import LanBroker
    broker = LanBroker(int(sys.argv[1]), Path(sys.argv[2]), bind="127.0.0.1")
    print(broker.process.pid, flush=True)
    time.sleep(60)
    """
)


def test_a_broker_left_by_a_killed_board_is_stopped_at_its_next_start(tmp_path):
    need_mosquitto()
    port, folder = free_port(), tmp_path / "broker"
    board = subprocess.Popen(
        [sys.executable, "-c", BOARD, str(port), str(folder)], stdout=subprocess.PIPE, text=True
    )
    assert board.stdout is not None
    left = int(board.stdout.readline())
    board.kill()  # SIGKILL: the broker is not stopped with it
    board.wait(10)
    board.stdout.close()
    assert lanbroker._running(left)
    again = LanBroker(port, folder, bind="127.0.0.1")
    try:
        assert not lanbroker._running(left)
        assert again.process.poll() is None  # it, not the old one, holds the port
        assert (folder / lanbroker.PID_FILE).read_text() == f"{again.process.pid}\n"
    finally:
        again.close()
        if lanbroker._running(left):
            os.kill(left, signal.SIGKILL)


def test_a_pid_file_naming_another_program_leaves_it_alone(tmp_path):
    need_mosquitto()
    folder = tmp_path / "broker"
    folder.mkdir()
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (folder / lanbroker.PID_FILE).write_text(f"{other.pid}\n")
        broker = LanBroker(free_port(), folder, bind="127.0.0.1")
        broker.close()
        assert other.poll() is None
    finally:
        other.kill()
        other.wait(10)
